"""Property: no message the server sends to a seat or a spectator holds a card hidden from it.

Random tables (hot seat with some computer seats, random rules and deals) are played over a
real server by random clients that also send illegal actions, reconnect with ``since`` and
watch.  Afterwards every message each connection received is checked against the game rebuilt
from the stored events at that message's seq:

* a ``state``'s view is exactly the engine's view for that audience (plus the server's
  ``seats``/``table`` and its own ``legal``), ``last`` is the stored action of that seq;
* no card hidden from the audience at that seq appears anywhere in it (the engine's history
  fields, compared exactly above, are left out of this scan: they name cards public then);
* no reject names a hidden card the client did not name itself;
* the deal code (which reveals every hand) appears only once the game is over.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_harness import Client, ThreadServer, drain, make_settings, open_table

from bistrot import dealcode
from bistrot import games as registry
from bistrot.cards import CARD_BY_NAME, CARD_NAMES

CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([SHDC♠♥♦♣])(?![0-9A-Za-z])")
SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SERVER_KEYS = {"seats", "table", "legal"}
HISTORY_KEYS = {"last_trick", "history"}  # compared exactly with the engine's, not scanned
SKIPPED_STRING_KEYS = {"id", "rematch"}  # random ids could look like a card name


def cards_in(value: Any, key: str | None = None) -> set[str]:
    """Every card named anywhere in a JSON value (text or pretty form), as ``TH``-style names."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            found |= cards_in(k) | cards_in(v, k)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v, key)
    elif isinstance(value, str) and key not in SKIPPED_STRING_KEYS:
        for rank, suit in CARD.findall(value):
            found.add(("T" if rank == "10" else rank) + SUIT_OF_SYMBOL.get(suit, suit))
    return found


def names(mask: int) -> set[str]:
    return {CARD_NAMES[c] for c in range(52) if mask >> c & 1}


def hidden(game: Any, audience: int | None) -> set[str]:
    """The cards ``audience`` (a seat, or None for spectators) may not see in this state."""
    n = game.rules.players
    if game.view(None)["game"] == "omi":
        secret = set()
        for seat in range(n):
            secret |= names(
                game.hands[seat] if seat != audience else game.hands[seat] & ~game.visible_hand(seat)
            )
        return secret
    secret = {CARD_NAMES[c] for cards in game.down for c in cards} | {
        CARD_NAMES[c] for c in game.draw[game.draw_pos :]
    }
    for seat in range(n):
        if seat != audience:
            secret |= names(game.hands[seat] & ~game.known[seat])
    return secret


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


def stored_events(db: str, table: str) -> list[tuple[int, int, str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT seq, actor, action, by FROM events WHERE table_id = ? ORDER BY seq", (table,)
        ).fetchall()


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
    played = [game_spec.game_class().new(rules, seed)]
    for _, actor, action, _ in events:
        step = played[-1].copy()
        step.apply(action, seat=actor)
        played.append(step)
    code = dealcode.encode(seed)

    checked = 0
    for audience, c in audiences:
        seq = None
        for message in c.messages:
            text = json.dumps(message, ensure_ascii=False)
            if message["type"] == "state":
                seq = message["seq"]
                game = played[seq]
                view = dict(message["view"])
                expected = game.view(audience)
                assert {k: v for k, v in view.items() if k not in SERVER_KEYS} == {
                    k: v for k, v in expected.items() if k != "legal"
                }
                assert set(view["legal"]) <= set(game.legal_actions(audience) if audience is not None else [])
                if seq:
                    assert (
                        message["last"] is None
                        or (message["last"]["seat"], message["last"]["action"]) == events[seq - 1][1:3]
                    )
                scanned = {k: v for k, v in view.items() if k not in HISTORY_KEYS}
                shown = cards_in(scanned) | cards_in(
                    {k: v for k, v in message.items() if k not in ("view", "last")}
                )
                secret = hidden(game, audience)
                assert not shown & secret, (audience, seq, shown & secret)
                if not game.is_over:
                    assert code not in text
                checked += 1
            else:
                assert code not in text
                if seq is not None:
                    mine = cards_in(" ".join(sent.get((audience, message.get("id")), [])))
                    assert not (cards_in(message) - mine) & hidden(played[seq], audience), message
    assert checked >= len(audiences)
