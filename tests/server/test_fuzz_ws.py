"""A hypothesis state machine over the WebSocket protocol (docs/protocol.md), on a real server.

Each run opens a table (Omi with 4 seats, some of them computers; Oti with 2 to 5 seats; or a
friends table still waiting for players) and drives several connections of its seats and its
spectators with random messages: legal actions (from the seat's own ``legal`` list), actions
that may or may not be legal, texts that are no action, malformed JSON, wrong types, unknown
types, oversized messages, actions for another seat, spectators' actions, pings, syncs, retries
of an id on another connection, reconnects with a ``since`` that is current, behind (replayed or
too old: the fuzz server replays at most 3), in the future or garbage, and frames big enough to
be abuse.  After each step the connection that spoke reads up to the answer of a fresh ping, so
every answer is known to belong to its message:

* every message gets exactly its documented answer: ``ack`` or a ``reject`` with a code the
  docs name for an action (with an exact code where the message decides it), ``pong`` for a
  ping, a ``state`` for a sync, the catch-up docs/protocol.md describes for a new connection;
* a legal action is acknowledged, unless the answer says why (a computer moved first: a newer
  state came before the reject); a repeated id gets its first answer again;
* the server logs no error and no traceback; a connection is only ever closed with a close
  frame (and only for abuse, with 1009);
* at the end, from the stored events: every ack's seq is stored with its id, no refused action
  was stored, each connection's states are gap-free with each ``ack`` before its state, and no
  message holds a card hidden from its recipient (:func:`secrecy.check_messages`).

Bounded (``max_examples`` runs of ``stateful_step_count`` steps, derandomized): about 30 s here.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from secrecy import check_messages, replay, stored_events, stored_seed
from server_harness import (
    Client,
    ErrorRecords,
    ThreadServer,
    assert_gap_free,
    make_settings,
    open_table,
    settle,
)
from websockets.exceptions import ConnectionClosed

from bistrot import games as registry
from bistrot.wire import CLIENT_TYPES

Message = dict[str, Any]
T = TypeVar("T")
DOCS = Path(__file__).resolve().parents[2] / "docs"
REPLAY_LIMIT = 3  # small, so that a reconnect a few actions behind is sometimes too far behind
MAX_OPEN = 8
# Choices among what the table shows (which connection, which legal action) are drawn as a number
# (an index, or a Random's seed): what hypothesis draws must not depend on the server's timing.
PICK = st.integers(0, 2**32 - 1)
VERBS = {"play", "trump", "kapothi", "ready", "swap", "pickup", "flip"}  # every game's action verbs


def choose(items: list[T], pick: int) -> T:
    """The item a drawn number picks (so the draw is the same whatever the list)."""
    return items[pick % len(items)]


def documented_reject_codes() -> set[str]:
    """The codes of docs/protocol.md's table of reject codes, and the engines' refusals its
    ``...`` stands for (Oti's, listed in docs/oti.md; Omi's are all in the table)."""
    protocol = (DOCS / "protocol.md").read_text()
    table = protocol.split("### Reject codes", 1)[1].split("\n\n", 1)[0]
    first_column = " ".join(line.split("|")[1] for line in table.splitlines() if line.startswith("| `"))
    oti = (DOCS / "oti.md").read_text().split("**Refusals**", 1)[1].split("\n* **", 1)[0]
    return set(re.findall(r"`([a-z_]+)`", first_column + oti))


DOCUMENTED = documented_reject_codes()

# (message, the reject code it gets, the id echoed): each decided by the message alone.
MALFORMED: list[tuple[str | bytes, str, Any]] = [
    ("{", "bad_json", None),
    ("", "bad_json", None),
    ("[1, 2]", "bad_message", None),
    ('"ping"', "bad_message", None),
    ("null", "bad_message", None),
    (b"\xff\xfe not UTF-8", "bad_message", None),
    ('{"id": "x1"}', "unknown_type", "x1"),
    ('{"type": "dance", "id": 7}', "unknown_type", 7),
    ('{"type": "play AS", "id": "x2"}', "unknown_type", "x2"),
    ('{"type": ["act"]}', "unknown_type", None),
    ('{"type": "hello", "token": "x", "id": "x8"}', "unknown_type", "x8"),  # (only a first message)
    ('{"type": "act", "action": "play AS"}', "bad_id", None),
    ('{"type": "act", "id": true, "action": "play AS"}', "bad_id", None),
    ('{"type": "act", "id": "", "action": "play AS"}', "bad_id", None),
    ('{"type": "act", "id": 1.5, "action": "play AS"}', "bad_id", None),
    ('{"type": "act", "id": 9007199254740993, "action": "play AS"}', "bad_id", None),
    (json.dumps({"type": "act", "id": "x" * 65, "action": "play AS"}), "bad_id", None),
    ('{"type": "ping", "id": [1]}', "bad_id", None),
    ('{"type": "sync", "id": {}}', "bad_id", None),
    ('{"type": "act", "id": "x3", "action": 5}', "bad_message", "x3"),
    ('{"type": "act", "id": "x4"}', "bad_message", "x4"),
    ('{"type": "act", "id": "x5", "action": "play AS", "seat": "1"}', "bad_message", "x5"),
    ('{"type": "act", "id": "x6", "action": "play AS", "seat": true}', "bad_message", "x6"),
    ('{"type": "act", "id": "x7", "action": "play AS", "seq": "3"}', "bad_message", "x7"),
    # over the 4096-byte cap (the second in bytes only, not in characters): no id is read
    (json.dumps({"type": "ping", "id": "big", "pad": "x" * 5000}), "too_large", None),
    (json.dumps({"type": "ping", "id": "big", "pad": "é" * 2500}, ensure_ascii=False), "too_large", None),
]
# valid ids, or none
IDS = st.none() | st.sampled_from([0, 2**53, -(2**53), "0", " "]) | st.text(min_size=1, max_size=64) | (
    st.integers(-(2**53), 2**53)
)
# A connection refused: (the token in its URL, its first message, its reject code, its close
# code), where TOKEN stands for a real seat token or watch key.
REFUSED: dict[str, tuple[str | None, str | None, str, int]] = {
    "unknown_table": ("TOKEN", None, "unknown_table", 4404),
    "bad_token": ("TOKEN-not", None, "bad_token", 4401),
    "bad_token_hello": (None, '{"type": "hello", "token": "TOKEN-not"}', "bad_token", 4401),
    "missing_token": (None, '{"type": "hello"}', "missing_token", 4401),
    "expected_hello": (None, '{"type": "ping", "id": 1}', "expected_hello", 4401),
    "not_json_hello": (None, "TOKEN", "expected_hello", 4401),
    "number_token": (None, '{"type": "hello", "token": 5}', "bad_message", 4401),
    "extra_field": (None, '{"type": "hello", "token": "TOKEN", "seat": 0}', "bad_message", 4401),
    "big_hello": (
        None, json.dumps({"type": "hello", "token": "TOKEN", "pad": "0" * 5000}), "too_large", 4401
    ),
}
GARBAGE_SINCE = ["", "-1", "abc", "1e3", "0x10", "%C2%B2", "1234567890", "+1", "%201"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
OTHER_FIELDS = st.dictionaries(st.sampled_from(["id", "seat", "seq", "action"]), JSON_VALUES)
# Texts that are no action of either game: these, or any text not starting with an action's verb.
NO_ACTION = st.sampled_from(
    ["", " ", "dance", "play", "play 1S", "play ZZ", "trump X", "swap AS", "play AS AS"]
) | (
    st.text(max_size=30).filter(lambda text: not text.split() or text.split()[0].lower() not in VERBS)
)


@dataclass
class Conn:
    """One WebSocket connection of the run: its audience (a seat, None: a spectator)."""

    audience: int | None
    client: Client
    open: bool = True
    acks: dict[int, int] = field(default_factory=dict)  # seq -> where its first ack is in messages


class Protocol(RuleBasedStateMachine):
    """See the module docstring."""

    server: ThreadServer
    errors: ErrorRecords

    def __init__(self) -> None:
        super().__init__()
        self.conns: list[Conn] = []
        self.ids = 0
        self.sent: dict[tuple[int | None, Any], list[str]] = {}  # (audience, id) -> texts sent
        self.first: dict[tuple[int, str], tuple[str, Message]] = {}  # (seat, id) -> act, answer
        self.rejected: set[tuple[int, str]] = set()  # (seat, id as JSON) of refused actions

    # ------------------------------------------------------------------ the table

    @initialize(
        kind=st.sampled_from(["omi", "oti", "friends"]),
        seed=st.integers(0, 2**55 - 1),
        players=st.integers(2, 5),
        computers=st.sets(st.integers(1, 3), max_size=2),
        pick=PICK,
        advance=st.integers(0, 120),
    )
    def open(
        self, kind: str, seed: int, players: int, computers: set[int], pick: int, advance: int
    ) -> None:
        """A new table, played ``advance`` legal actions into the game (maybe to its end)."""
        if kind == "omi":
            body: dict[str, Any] = {
                "game": "omi", "mode": "hotseat", "rules": {"players": 4, "target": 1}, "seed": seed,
                "bots": {str(s): "easy" for s in computers}, "level": "easy",
            }
        elif kind == "oti":
            body = {"game": "oti", "mode": "hotseat", "rules": {"players": players}, "seed": seed}
        else:
            body = {"game": "omi", "mode": "friends", "rules": {"target": 1}}
        table = open_table(self.server.url, **body)
        self.table = table["table"]
        self.game = registry.get(body["game"])
        self.rules = self.game.rules_from_dict(body["rules"])
        self.tokens: dict[int | None, str] = {s["seat"]: s["token"] for s in table["seats"]}
        self.tokens[None] = table["watch"]
        self.connect_as(None, None)
        for seat in sorted(s for s in self.tokens if s is not None):
            self.connect_as(seat, None)
        self.play(random.Random(pick), advance)

    # ------------------------------------------------------------------ helpers

    @property
    def live(self) -> list[Conn]:
        return [c for c in self.conns if c.open]

    def seats(self) -> list[Conn]:
        return [c for c in self.live if c.audience is not None]

    def known_seq(self) -> int:
        """The highest seq any connection has seen: the table's seq is at least that."""
        return max((c.client.seq for c in self.conns if c.client.state), default=0)

    def next_id(self) -> str:
        self.ids += 1
        return f"a{self.ids}"

    def exchange(self, conn: Conn, *messages: str | bytes) -> tuple[list[Message], list[Message]]:
        """Send ``messages``, then read up to the pong of a fresh ping: everything received
        meanwhile, and the answers among it (not states) without that pong."""
        start = len(conn.client.messages)
        for message in messages:
            if isinstance(message, str):
                self.remember_sent(conn.audience, message)
            conn.client.send(message)
        settle(conn.client)
        window = conn.client.messages[start:]
        return window, [m for m in window if m["type"] != "state"][:-1]

    def remember_sent(self, audience: int | None, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        message_id = data.get("id") if isinstance(data, dict) else None
        key = message_id if isinstance(message_id, str | int) and not isinstance(message_id, bool) else None
        self.sent.setdefault((audience, key), []).append(text)

    def connect_as(self, audience: int | None, since: Any, hello: bool = False) -> tuple[Conn, list[Message]]:
        """A new connection (the token and ``since`` in its URL, or in a first ``hello``), and what
        it was sent first (up to the answer of a ping)."""
        token = self.tokens[audience]
        if hello:
            conn = Conn(audience, Client(self.server.url, self.table, None))
            conn.client.send({"type": "hello", "token": token, **({} if since is None else {"since": since})})
        else:
            conn = Conn(audience, Client(self.server.url, self.table, token, since=since))
        self.conns.append(conn)
        window, _ = self.exchange(conn)
        return conn, window

    def act(self, conn: Conn, action: str, **extra: Any) -> tuple[list[Message], Message]:
        """Send one act with a new id; the states received meanwhile and its only answer."""
        message_id = self.next_id()
        window, answers = self.exchange(
            conn, json.dumps({"type": "act", "id": message_id, "action": action, **extra})
        )
        assert len(answers) == 1 and answers[0]["id"] == message_id, answers
        return window, answers[0]

    def own_act(self, conn: Conn, action: str) -> tuple[list[Message], Message]:
        """A well-formed act of the connection's own seat: acked, or refused by the table (and
        then remembered for a retry, with nothing changed)."""
        assert conn.audience is not None
        window, answer = self.act(conn, action)
        key = (conn.audience, answer["id"])
        self.first[key] = (action, answer)
        if answer["type"] == "reject":
            assert answer["code"] in DOCUMENTED, answer
            self.rejected.add((conn.audience, json.dumps(answer["id"])))
        else:
            assert answer["type"] == "ack", answer
            # (only the first answer comes before its state: a retry's may follow it)
            conn.acks[answer["seq"]] = next(i for i, m in enumerate(conn.client.messages) if m is answer)
        return window, answer

    # ------------------------------------------------------------------ rules

    @precondition(lambda self: len(self.live) < MAX_OPEN)
    @rule(
        pick=PICK,
        kind=st.sampled_from(["none", "back", "future", "garbage"]),
        back=st.integers(0, REPLAY_LIMIT + 2),
        ahead=st.integers(1, 10**6),
        garbage=st.sampled_from(GARBAGE_SINCE),
        hello=st.booleans(),
    )
    def connect(self, pick: int, kind: str, back: int, ahead: int, garbage: str, hello: bool) -> None:
        """A new connection of a seat or a spectator, with or without ``since``."""
        audience = choose(sorted(self.tokens, key=lambda s: -1 if s is None else s), pick)
        known = self.known_seq()
        since = {"none": None, "back": max(0, known - back), "future": known + ahead, "garbage": garbage}
        since = since[kind]
        _, window = self.connect_as(audience, since, hello)
        if isinstance(since, str):
            assert window[0]["type"] == "reject" and window[0]["code"] == "bad_since", window[0]
            assert window[0]["id"] is None
            window = window[1:]
            since = None
        first = window[0]
        assert first["type"] == "state", first
        if first["last"] is None:  # a fresh state, at the table's seq then
            s = first["seq"]
            assert not (since is not None and since < s and s - since <= REPLAY_LIMIT), (since, s)
            assert s >= known
        else:  # the missed states, from the first one missed
            assert since is not None and first["seq"] == since + 1, (since, first["seq"])
            assert known - since <= REPLAY_LIMIT

    @precondition(lambda self: len(self.live) > 1)
    @rule(pick=PICK)
    def close(self, pick: int) -> None:
        conn = choose(self.live, pick)
        self.exchange(conn)  # (everything it was sent before, for the final checks)
        conn.client.close()
        conn.open = False

    def play(self, rng: random.Random, moves: int) -> None:
        """Legal actions, from the seats' own ``legal`` lists, until ``moves`` or nobody can."""
        for _ in range(moves):
            movers = self.movers()
            if not movers:  # the others' states may be out of date: read them, or a computer's move
                self.read_all()
                movers = self.movers() or (self.computer_moved() and self.movers())
            if not movers:
                return
            conn = rng.choice(movers)
            basis = conn.client.seq
            window, answer = self.own_act(conn, rng.choice(conn.client.view["legal"]))
            if answer["type"] == "reject":  # only if the seat's state was out of date
                before = window[: window.index(answer)]
                assert any(m["type"] == "state" and m["seq"] > basis for m in before), answer
            for other in self.seats():  # the next mover's connections read their new state
                if other.audience == conn.client.view["to_move"] and other is not conn:
                    self.exchange(other)

    def movers(self) -> list[Conn]:
        return [c for c in self.seats() if c.client.state and c.client.view["legal"]]

    def read_all(self) -> None:
        """Every open connection reads what it was sent up to now."""
        for conn in self.live:
            self.exchange(conn)

    def computer_moved(self) -> bool:
        """If a computer is to move (every connection being up to date): wait for its move to
        reach every open connection (True), else False."""
        latest = self.live[0].client
        view = latest.view
        mover = view["to_move"]
        if view["is_over"] or mover is None or view["seats"][mover]["kind"] != "computer":
            return False
        seq = latest.seq
        latest.wait_for(lambda m: m["type"] == "state" and m["seq"] > seq)
        self.read_all()
        return True

    @rule(kind=st.sampled_from(sorted(REFUSED)), pick=PICK)
    def refused(self, kind: str, pick: int) -> None:
        """A connection that cannot be served: one ``reject``, then a close frame with its code."""
        token = choose(sorted(self.tokens.values()), pick)
        query, first, code, close = REFUSED[kind]
        table = "no-such-table-id-000000" if kind == "unknown_table" else self.table
        client = Client(self.server.url, table, query and query.replace("TOKEN", token))
        if first is not None:
            client.send(first.replace("TOKEN", token))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                client.recv()
        assert [(m["type"], m["code"]) for m in client.messages] == [("reject", code)], client.messages
        assert closed.value.rcvd is not None and closed.value.rcvd.code == close, closed.value

    @rule(pick=PICK, moves=st.integers(1, 40))
    def play_legal(self, pick: int, moves: int) -> None:
        self.play(random.Random(pick), moves)

    @precondition(lambda self: bool(self.seats()))
    @rule(pick=PICK, which=PICK, card=st.sampled_from(["AS", "7H", "TD", "2C", "KS", "9H"]))
    def act_maybe(self, pick: int, which: int, card: str) -> None:
        """An action seen legal somewhere (maybe for another seat, maybe long ago), or a card
        the seat may not hold: acked or refused, never anything else."""
        states = [m for c in self.conns for m in c.client.messages if m["type"] == "state"]
        seen = {action for m in states for action in m["view"]["legal"]}
        self.own_act(choose(self.seats(), pick), choose([f"play {card}", *sorted(seen)], which))

    @precondition(lambda self: bool(self.seats()))
    @rule(pick=PICK, action=NO_ACTION)
    def act_no_action(self, pick: int, action: str) -> None:
        _, answer = self.own_act(choose(self.seats(), pick), action)
        assert answer["type"] == "reject", answer

    @rule(pick=PICK, which=PICK)
    def retry(self, pick: int, which: int) -> None:
        """A well-formed act sent again with its id, on any connection of its seat."""
        if not self.first:
            return
        seat, message_id = choose(sorted(self.first), which)
        conns = [c for c in self.live if c.audience == seat] or [self.connect_as(seat, None)[0]]
        action, answer = self.first[(seat, message_id)]
        conn = choose(conns, pick)
        _, answers = self.exchange(conn, json.dumps({"type": "act", "id": message_id, "action": action}))
        assert answers == [answer]

    @rule(pick=PICK, which=PICK, other=st.integers(0, 7))
    def act_elsewhere(self, pick: int, which: int, other: int) -> None:
        """An act naming another seat than the connection's, or any act of a spectator."""
        conn = choose(self.live, pick)
        if conn.audience is not None and other == conn.audience:
            other = (other + 1) % 8
        _, answer = self.act(conn, choose(["play AS", *conn.client.view["legal"]], which), seat=other)
        code = "spectator" if conn.audience is None else "not_your_seat"
        assert answer["type"] == "reject" and answer["code"] == code, answer

    @rule(pick=PICK, index=st.integers(0, len(MALFORMED) - 1))
    def malformed(self, pick: int, index: int) -> None:
        conn = choose(self.live, pick)
        message, code, echoed = MALFORMED[index]
        _, answers = self.exchange(conn, message)
        assert [(a["type"], a["code"], a["id"]) for a in answers] == [("reject", code, echoed)], answers

    @rule(pick=PICK, kind=JSON_VALUES, rest=OTHER_FIELDS)
    def unknown_type(self, pick: int, kind: Any, rest: dict[str, Any]) -> None:
        """Any JSON object whose type is none of act, ping, sync (or missing)."""
        conn = choose(self.live, pick)
        message = {**rest, "type": kind} if kind is not None else rest
        if message.get("type") in CLIENT_TYPES:
            message["type"] = "dance"
        _, answers = self.exchange(conn, json.dumps(message))
        assert [(a["type"], a["code"]) for a in answers] == [("reject", "unknown_type")], answers
        assert answers[0]["id"] in (None, message.get("id")), answers

    @rule(pick=PICK, message_id=IDS, rest=OTHER_FIELDS)
    def hint(self, pick: int, message_id: Any, rest: dict[str, Any]) -> None:
        """A hint asked at a table that gives none (hot seat, friends): one refusal, no hint, no
        action or card in it."""
        conn = choose(self.live, pick)
        message = {**rest, "type": "hint"}
        if message_id is not None:
            message["id"] = message_id
        window, answers = self.exchange(conn, json.dumps(message))
        assert len(answers) == 1 and answers[0]["type"] == "reject", answers
        expected = {"bad_id", "spectator" if conn.audience is None else "hints_off"}
        assert answers[0]["code"] in expected and "action" not in answers[0], answers
        assert not [m for m in window if m["type"] == "hint"], window

    @rule(pick=PICK, message_id=IDS)
    def ping(self, pick: int, message_id: Any) -> None:
        conn = choose(self.live, pick)
        before = conn.client.seq
        message = {"type": "ping"} if message_id is None else {"type": "ping", "id": message_id}
        _, answers = self.exchange(conn, json.dumps(message))
        assert len(answers) == 1 and answers[0]["type"] == "pong" and answers[0]["id"] == message_id, answers
        assert answers[0]["seq"] >= before

    @rule(pick=PICK, message_id=IDS)
    def sync(self, pick: int, message_id: Any) -> None:
        conn = choose(self.live, pick)
        before = conn.client.seq
        message = {"type": "sync"} if message_id is None else {"type": "sync", "id": message_id}
        window, answers = self.exchange(conn, json.dumps(message))
        assert answers == []
        assert any(m["type"] == "state" and m["last"] is None and m["seq"] >= before for m in window), window

    @rule(pick=PICK)
    def abuse_size(self, pick: int) -> None:
        """A frame over the WebSocket layer's cap: the connection is closed with 1009."""
        conn = choose(self.live, pick)
        conn.client.send("x" * (self.server.settings.abuse_message_bytes + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                conn.client.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, closed.value
        conn.open = False
        if not self.live:
            self.connect_as(None, None)

    # ------------------------------------------------------------------ invariants and the end

    @invariant()
    def no_error_logged(self) -> None:
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]

    def teardown(self) -> None:
        for conn in self.live:
            self.exchange(conn)
            conn.client.close()
        if not hasattr(self, "table"):
            return
        db = self.server.settings.db
        seed = stored_seed(db, self.table)
        events = stored_events(db, self.table)
        played = replay(self.game, self.rules, seed, events)
        # (the client id is stored with the last event an action logged)
        stored = {(actor, key): seq for seq, actor, _, _, key in events if key is not None}
        for seat, key in self.rejected:
            assert (seat, key) not in stored, f"seat {seat}'s refused action {key} was stored"
        for (seat, message_id), (_, answer) in self.first.items():
            if answer["type"] == "ack":
                assert stored[(seat, json.dumps(message_id))] == answer["seq"], answer
        for conn in self.conns:
            messages = conn.client.messages
            assert_gap_free(conn.client)
            for seq, at in conn.acks.items():
                states = [i for i, m in enumerate(messages) if m["type"] == "state" and m["seq"] == seq]
                assert not states or states[0] > at, f"the state of seq {seq} came before its ack"
            mine = {message_id: texts for (a, message_id), texts in self.sent.items() if a == conn.audience}
            check_messages(conn.audience, messages, played, events, seed, mine)


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    settings_ = make_settings(
        tmp_path_factory.mktemp("fuzz_ws"),
        replay_limit=REPLAY_LIMIT,
        grace_s=3600.0,
        max_connections_per_seat=0,  # up to MAX_OPEN of one seat (the cap has its own test)
    )
    with ThreadServer(settings_) as server:
        yield server


def test_protocol_state_machine(fuzz_server: ThreadServer, error_records: ErrorRecords) -> None:
    Protocol.server = fuzz_server
    Protocol.errors = error_records
    run_state_machine_as_test(
        Protocol,
        settings=settings(
            max_examples=100,
            stateful_step_count=50,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
