"""Property: no message the server sends to a seat or a spectator holds a card hidden from it.

Random tables (hot seat with some computer seats, random rules and deals) are played over a
real server by random clients that also send illegal actions, reconnect with ``since`` and
watch.  Afterwards every message each connection received is checked against the game rebuilt
from the stored events at that message's seq (:func:`secrecy.check_messages` says how).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from secrecy import check_messages, replay, stored_events
from server_harness import Client, ThreadServer, drain, make_settings, open_table

from bistrot import games as registry
from bistrot.cards import CARD_BY_NAME, CARD_NAMES


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    settings_ = make_settings(tmp_path_factory.mktemp("secrecy"))
    with ThreadServer(settings_) as server:
        yield server


def table_strategy() -> st.SearchStrategy[dict[str, Any]]:
    omi = st.fixed_dictionaries(
        {
            "game": st.just("omi"),
            "rules": st.fixed_dictionaries(
                {
                    "players": st.sampled_from([4, 3]),
                    "target": st.just(1),
                }
            ),
        }
    )
    games = [omi]
    if "oti" in registry.names():
        games.append(
            st.fixed_dictionaries(
                {
                    "game": st.just("oti"),
                    "rules": st.fixed_dictionaries({"players": st.integers(2, 5)}),
                }
            )
        )
    return st.one_of(games)


OPS = st.lists(
    st.tuples(
        st.sampled_from(["act"] * 6 + ["illegal", "out_of_turn", "reconnect", "watch"]), st.integers(0, 2**32)
    ),
    min_size=5,
    max_size=40,
)


def find_mover(clients: dict[int, Client], timeout: float = 10.0) -> Client | None:
    """A client whose latest state lets it act (waiting for computer moves); None once over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for c in clients.values():
            drain(c)
        movers = [c for c in clients.values() if c.state and c.view["legal"]]
        if movers:
            return movers[0]
        if any(c.state and c.view["is_over"] for c in clients.values()):
            return None
        drain(next(iter(clients.values())), 0.02)
    raise AssertionError("nobody could move")


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    spec=table_strategy(),
    seed=st.integers(0, 2**55 - 1),
    computers=st.sets(st.integers(0, 4), max_size=2),
    ops=OPS,
)
def test_no_message_ever_holds_a_card_hidden_from_its_recipient(room, spec, seed, computers, ops):
    game_spec = registry.get(spec["game"])
    rules = game_spec.rules_from_dict(spec["rules"])
    players = game_spec.players(rules)
    bots = {str(s): "easy" for s in computers if s < players and s != 0}
    if spec["game"] == "oti":
        bots = {}  # (no Oti computer player is needed to test what the server sends)
    table = open_table(
        room.url,
        game=spec["game"],
        mode="hotseat",
        rules=spec["rules"],
        seed=seed,
        bots=bots,
        level="easy" if bots else None,
    )
    tid = table["table"]
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    audiences: list[tuple[int | None, Client]] = []  # every connection ever opened, with its audience
    # (audience, message id) -> every action text sent with that id: a seat's answers are kept
    # by id across its connections, so a reconnected client reusing an id gets the first answer.
    sent: dict[tuple[int | None, Any], list[str]] = {}

    def connect(audience: int | None, since: int | None = None) -> Client:
        c = Client(room.url, tid, tokens[audience] if audience is not None else table["watch"], since=since)
        audiences.append((audience, c))
        return c

    clients = {seat: connect(seat) for seat in tokens}
    watchers = [connect(None)]

    def act(c: Client, action: str) -> None:
        message_id = c.next_id()
        audience = next(a for a, known in audiences if known is c)
        sent.setdefault((audience, message_id), []).append(action)
        c.act(action, id=message_id)

    for op, number in ops:
        rng = random.Random(number)
        mover = find_mover(clients)
        if mover is None:
            break
        if op == "act":
            act(mover, rng.choice(mover.view["legal"]))
        elif op == "illegal":
            act(mover, f"play {CARD_NAMES[rng.choice(list(CARD_BY_NAME.values()))]}")
        elif op == "out_of_turn":
            act(
                rng.choice(list(clients.values())),
                rng.choice(["trump H", "pickup", "flip", "play 7S", "ready"]),
            )
        elif op == "reconnect":
            seat = rng.choice(list(clients))
            old = clients[seat]
            since = None if old.state is None else max(0, old.seq - rng.randrange(4))
            old.close()
            clients[seat] = connect(seat, since)
        else:
            watchers.append(connect(None, rng.choice([None, 0])))
    for _, c in audiences:
        drain(c, 0.05)
        c.close()

    events = stored_events(room.settings.db, tid)
    played = replay(game_spec, rules, seed, events)
    checked = 0
    for audience, c in audiences:
        mine = {message_id: texts for (a, message_id), texts in sent.items() if a == audience}
        checked += check_messages(audience, c.messages, played, events, seed, mine)
    assert checked >= len(audiences)
