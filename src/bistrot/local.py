"""Tables on this device: the card room without a server, speaking the server's protocol.

When the page is offline it runs this module in a Web Worker under Pyodide (docs/offline.md).
A :class:`LocalRoom` holds the tables of this device and the page's connections to them; every
message a connection is sent is what ``bistrot serve`` would send to that seat (docs/protocol.md):
``state`` messages built from the engine's own ``view(seat)`` by :func:`bistrot.wire.state_message`,
``ack`` after the action is stored, ``reject`` with the engine's code, ``pong``.  Computer seats
play with the same bots as online, seeded the same way (the table's seed, the seat, the seq), so
a given deal gets the same computer play on both.

Modes: ``computer`` and ``hotseat`` (``friends`` tables need the server).  Nothing here does I/O:
the host (the worker) stores :meth:`LocalTable.record` after each change and waits for the
computer's pause; :meth:`LocalTable.record` holds the seed and the actions, so it is the host's
to keep and is never sent to a seat.

>>> room = LocalRoom()
>>> made = room.create({"game": "omi", "mode": "computer", "level": "easy", "bot_delay_ms": 0})
>>> made["seats"], made["mode"]
([{'seat': 0, 'token': None}], 'computer')
>>> table = made["table"]
>>> first = room.connect("c1", table, 0)
>>> [(conn, msg["type"], msg["seq"]) for conn, msg in first]
[('c1', 'state', 0)]
>>> view = first[0][1]["view"]
>>> view["legal"], len(view["hand"]), view["table"]["mode"]
(['trump S', 'trump H', 'trump D', 'trump C'], 4, 'computer')
>>> out = room.receive("c1", '{"type": "act", "id": 1, "action": "trump H"}')
>>> [(msg["type"], msg["seq"]) for _, msg in out]
[('ack', 1), ('state', 1)]
>>> room.receive("c1", '{"type": "act", "id": 2, "action": "trump S"}')[0][1]["code"]
'wrong_phase'
>>> room.bot_turn(table) is None           # the chooser leads the first trick: seat 0 again
True
>>> card = out[-1][1]["view"]["legal"][0]
>>> out = room.receive("c1", '{"type": "act", "id": 3, "action": "%s"}' % card)
>>> turn = room.bot_turn(table)
>>> turn["seat"], turn["seq"], turn["level"]
(1, 2, 'easy')
>>> [(msg["type"], msg["seq"], msg["last"]["by"]) for _, msg in room.bot_step(table, 2)]
[('state', 3, 'computer')]
>>> [d["summary"]["seq"] for d in room.dirty()]  # the host stores the record (seed and actions)
[3]
"""

from __future__ import annotations

import json
import secrets
import sys
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from bistrot import bots, dealcode
from bistrot.errors import IllegalAction
from bistrot.seeding import derive
from bistrot.wire import (
    BadMessage,
    ack,
    last_action,
    parse_client_message,
    peek_id,
    pong,
    reject,
    state_message,
)

HUMAN, COMPUTER = "human", "computer"
PLAYING, OVER = "playing", "over"
MODES = ("computer", "hotseat")
DEFAULT_LEVEL = "medium"
DEFAULT_BOT_DELAY_MS = 700
REPLAY_LIMIT = 64
REJECTS_KEPT = 256
RECORD_VERSION = 1
MAX_MESSAGE_BYTES = 4096

#: game name -> (module, game class, rules class), as the server's games.
ENGINES: dict[str, tuple[str, str, str]] = {
    "omi": ("bistrot.omi", "OmiGame", "OmiRules"),
    "oti": ("bistrot.oti", "OtiGame", "OtiRules"),
}

#: Smaller time budgets for the search bots in the browser, where Python runs under WebAssembly
#: and the double-dummy solver is the built-in Python one: the computer answers quickly and
#: still only ever chooses among the legal actions of its own view.
BROWSER_BOT_OPTIONS: dict[tuple[str, str], dict[str, Any]] = {
    ("omi", "hard"): {"budget": 0.35},
    ("oti", "hard"): {"time_budget": 0.35},
}

Out = list[tuple[str, dict[str, Any]]]
"""Messages to deliver: ``(connection id, message)`` pairs, in order."""


class LocalError(Exception):
    """A table that cannot be opened or found: ``code`` for programs, the message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _engine(game: str) -> tuple[Any, Any]:
    if game not in ENGINES:
        raise LocalError("unknown_game", f"unknown game {game!r}; the games are {', '.join(ENGINES)}")
    module_name, game_name, rules_name = ENGINES[game]
    module = import_module(module_name)
    return getattr(module, game_name), getattr(module, rules_name)


def _text(entry: str | tuple[int, str] | list[Any]) -> str:
    return entry if isinstance(entry, str) else str(entry[1])


def new_table_id() -> str:
    """A fresh id for a table of this device (``local-`` and 16 random characters)."""
    return "local-" + secrets.token_urlsafe(12)


@dataclass
class Seat:
    """One seat: a person on this device or a computer player of ``level``."""

    seat: int
    kind: str
    level: str | None = None
    name: str | None = None


@dataclass
class Event:
    """One stored action: seq, the seat that took it, its text, ``by`` whom, the client's id key."""

    seq: int
    seat: int
    action: str
    by: str
    key: str | None = None


@dataclass
class LocalTable:
    """One table of this device; build with :meth:`create` or :meth:`from_record`."""

    id: str
    game_name: str
    mode: str
    rules: Any
    seed: int
    seats: list[Seat]
    bot_delay_ms: int = DEFAULT_BOT_DELAY_MS
    events: list[Event] = field(default_factory=list)
    rematch: str | None = None
    created: float = 0.0
    game: Any = None
    acks: dict[tuple[int, str], int] = field(default_factory=dict)
    rejects: dict[int, OrderedDict[str, dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        game_class, _ = _engine(self.game_name)
        self.game = game_class.new(self.rules, self.seed)
        for event in self.events:
            self.game.apply(event.action, seat=event.seat)
            if event.key is not None:
                self.acks[(event.seat, event.key)] = event.seq
        self.rejects = {s.seat: OrderedDict() for s in self.seats}

    # ------------------------------------------------------------------ making and saving

    @classmethod
    def create(cls, request: dict[str, Any], table_id: str | None = None, created: float = 0.0) -> LocalTable:
        """A new table from the body ``POST /api/tables`` would take (friends tables excepted).

        Refusals raise :class:`LocalError` with the server's codes (``bad_rules``,
        ``bad_level``, ``bad_seat``, ``bad_seed``, ``unknown_game``), and ``needs_network`` for a
        friends table.
        """
        if not isinstance(request, dict):
            raise LocalError("bad_request", "a table request is an object")
        game_name = request.get("game")
        if not isinstance(game_name, str):
            raise LocalError("unknown_game", "the request names no game")
        _, rules_class = _engine(game_name)
        mode = request.get("mode") or "computer"
        if mode == "friends":
            raise LocalError("needs_network", "a table with friends needs the network: play offline "
                             "against the computer or in hot seat")
        if mode not in MODES:
            raise LocalError("bad_request", f"mode is computer or hotseat, not {mode!r}")
        try:
            rules = rules_class.from_dict(dict(request.get("rules") or {}))
        except (ValueError, TypeError) as err:
            raise LocalError("bad_rules", str(err)) from None
        players = int(rules.players)
        try:
            seed = dealcode.seed_from(request.get("seed"))
        except (ValueError, TypeError) as err:
            raise LocalError("bad_seed", str(err)) from None
        levels = bots.available(game_name)
        level = request.get("level")
        raw_bots = request.get("bots") or {}
        try:
            per_seat = {int(s): lv for s, lv in dict(raw_bots).items()}
        except (ValueError, TypeError):
            raise LocalError("bad_seat", "bots maps seat numbers to levels") from None
        for wanted in [level, *per_seat.values()]:
            if wanted is not None and wanted not in levels:
                raise LocalError(
                    "bad_level",
                    f"there is no {wanted} computer player for {game_name}; levels: {', '.join(levels)}",
                )
        default_level = level or (DEFAULT_LEVEL if DEFAULT_LEVEL in levels else levels[-1])
        for seat in per_seat:
            if not 0 <= seat < players:
                raise LocalError("bad_seat", f"seats are numbered 0 to {players - 1}, not {seat}")
        if mode == "computer":
            human = request.get("seat", 0)
            if not isinstance(human, int) or not 0 <= human < players:
                raise LocalError("bad_seat", f"seats are numbered 0 to {players - 1}, not {human}")
            if human in per_seat:
                raise LocalError("bad_seat", f"seat {human} is your seat, it cannot be a computer player")
            kinds = {s: COMPUTER for s in range(players) if s != human} | {human: HUMAN}
        else:
            kinds = {s: COMPUTER if s in per_seat else HUMAN for s in range(players)}
            if HUMAN not in kinds.values():
                raise LocalError("bad_seat", "a hot-seat table needs at least one human seat")
        delay = request.get("bot_delay_ms")
        if delay is None:
            delay = DEFAULT_BOT_DELAY_MS
        if isinstance(delay, bool) or not isinstance(delay, int) or not 0 <= delay <= 10_000:
            raise LocalError("bad_request", "bot_delay_ms is a whole number of milliseconds from 0 to 10000")
        name = request.get("name")
        first_human = min(s for s, k in kinds.items() if k == HUMAN)
        seats = [
            Seat(s, HUMAN, None, name if s == first_human and isinstance(name, str) else None)
            if kinds[s] == HUMAN
            else Seat(s, COMPUTER, per_seat.get(s, default_level))
            for s in range(players)
        ]
        return cls(table_id or new_table_id(), game_name, mode, rules, seed, seats, delay, created=created)

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild the table: rules, **seed**, seats and actions.

        This is what the device stores; it reveals every hand, so it is never sent to a seat.
        """
        return {
            "version": RECORD_VERSION,
            "id": self.id,
            "game": self.game_name,
            "mode": self.mode,
            "rules": self.rules.to_dict(),
            "seed": str(self.seed),  # a text: the seed has up to 55 bits, more than a JavaScript number holds
            "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name} for s in self.seats],
            "bot_delay_ms": self.bot_delay_ms,
            "actions": [[e.seat, e.action, e.by, e.key] for e in self.events],
            "rematch": self.rematch,
            "created": self.created,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> LocalTable:
        """The table a :meth:`record` describes, replayed action by action."""
        if record.get("version") != RECORD_VERSION:
            version = record.get("version")
            raise LocalError("bad_record", f"a saved game of version {version!r} cannot be read")
        _, rules_class = _engine(record["game"])
        try:
            events = [
                Event(i, int(seat), str(action), str(by), key)
                for i, (seat, action, by, key) in enumerate(record["actions"], 1)
            ]
            return cls(
                record["id"],
                record["game"],
                record["mode"],
                rules_class.from_dict(record["rules"]),
                int(record["seed"]),
                [Seat(int(s["seat"]), s["kind"], s.get("level"), s.get("name")) for s in record["seats"]],
                int(record.get("bot_delay_ms", DEFAULT_BOT_DELAY_MS)),
                events,
                record.get("rematch"),
                float(record.get("created", 0.0)),
            )
        except (KeyError, TypeError, ValueError) as err:  # IllegalAction is a ValueError
            raise LocalError("bad_record", f"this saved game cannot be replayed: {err}") from None

    def summary(self) -> dict[str, Any]:
        """What a list of saved games shows: no card, no seed."""
        return {
            "id": self.id,
            "game": self.game_name,
            "mode": self.mode,
            "status": self.status,
            "seq": self.seq,
            "players": len(self.seats),
            "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name} for s in self.seats],
            "created": self.created,
        }

    # ------------------------------------------------------------------ facts

    @property
    def seq(self) -> int:
        """Actions stored so far."""
        return len(self.events)

    @property
    def status(self) -> str:
        """``playing`` or ``over`` (a table of this device never waits for players)."""
        return OVER if self.game.is_over else PLAYING

    def humans(self) -> list[int]:
        """The seats played by people on this device."""
        return [s.seat for s in self.seats if s.kind == HUMAN]

    def seats_info(self, audience: int | None, present: bool) -> list[dict[str, Any]]:
        """The ``seats`` of a view; ``present``: the page has a connection to this table."""
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "level": s.level,
                "connected": s.kind == COMPUTER or present,
                "away": False,
                "you": audience == s.seat,
            }
            for s in self.seats
        ]

    def table_info(self) -> dict[str, Any]:
        """The ``table`` of a view (``local``: this table lives on this device)."""
        return {
            "id": self.id,
            "game": self.game_name,
            "mode": self.mode,
            "status": self.status,
            "rematch": self.rematch,
            "bot_delay_ms": self.bot_delay_ms,
            "grace_s": 0,
            "local": True,
        }

    def _legal(self, game: Any, audience: int | None) -> list[str]:
        if audience is None or game.is_over or self.seats[audience].kind != HUMAN:
            return []
        return list(game.legal_actions(audience))

    def state(
        self, game: Any, seq: int, audience: int | None, last: Event | None, present: bool = True
    ) -> dict[str, Any]:
        """The ``state`` message for ``audience`` at ``seq`` (``game`` is the game at that seq)."""
        shown = None if last is None else last_action(last.seq, last.seat, last.action, last.by)
        return state_message(
            game,
            seq,
            audience,
            legal=self._legal(game, audience),
            seats=self.seats_info(audience, present),
            table=self.table_info(),
            last=shown,
        )

    def replayed(self, upto: int) -> Any:
        """The game after the first ``upto`` actions."""
        game_class, _ = _engine(self.game_name)
        game = game_class.new(self.rules, self.seed)
        for event in self.events[:upto]:
            game.apply(event.action, seat=event.seat)
        return game

    def catch_up(self, audience: int | None, since: int | None) -> list[dict[str, Any]]:
        """What a connection opened with ``since`` is sent first (as the server: docs/protocol.md)."""
        if since is None or not 0 <= since < self.seq or self.seq - since > REPLAY_LIMIT:
            return [self.state(self.game, self.seq, audience, None)]
        game = self.replayed(since)
        out = []
        for event in self.events[since:]:
            game.apply(event.action, seat=event.seat)
            out.append(self.state(game, event.seq, audience, event))
        return out

    # ------------------------------------------------------------------ changes

    def commit(self, seat: int, action: str, by: str, key: str | None) -> list[Event]:
        """Apply ``action`` for ``seat``; :class:`IllegalAction` leaves everything unchanged."""
        before = len(self.game.actions)
        self.game.apply(action, seat=seat)
        texts = [_text(a) for a in self.game.actions[before:]]
        if not texts:
            raise RuntimeError(f"the {self.game_name} engine accepted {action!r} but logged no action")
        events = [
            Event(self.seq + i, seat, text, by, key if i == len(texts) else None)
            for i, text in enumerate(texts, 1)
        ]
        self.events.extend(events)
        if key is not None:
            self.acks[(seat, key)] = self.seq
        return events

    def bot_turn(self) -> dict[str, Any] | None:
        """The computer move due now: ``{"seat", "seq", "level", "seed"}``, or None."""
        if self.game.is_over:
            return None
        for s in self.seats:
            if s.kind == COMPUTER and self.game.legal_actions(s.seat):
                return {
                    "seat": s.seat,
                    "seq": self.seq,
                    "level": s.level,
                    "seed": derive(self.seed, "bot", s.seat, self.seq),
                }
        return None


class LocalRoom:
    """The tables of this device and the page's connections to them.

    Every method returns the messages to deliver as ``(connection id, message)`` pairs.  The
    host stores :meth:`dirty` tables' records (it must do so before it delivers an ``ack``, as
    the server stores before it acknowledges) and runs :meth:`bot_step` when
    :meth:`LocalTable.bot_turn` says a computer seat is to play.
    """

    def __init__(self, bot_options: dict[tuple[str, str], dict[str, Any]] | None = None) -> None:
        self.tables: dict[str, LocalTable] = {}
        self.conns: dict[str, tuple[str, int | None]] = {}
        self.bot_options = dict(bot_options or {})
        self._dirty: set[str] = set()

    # ------------------------------------------------------------------ tables

    def create(self, request: dict[str, Any], created: float = 0.0) -> dict[str, Any]:
        """Open a table; the answer has the shape of ``POST /api/tables``'s (no secrets: a
        table of this device needs none)."""
        table = LocalTable.create(request, created=created)
        self.tables[table.id] = table
        self._dirty.add(table.id)
        return {
            "table": table.id,
            "game": table.game_name,
            "mode": table.mode,
            "status": table.status,
            "seats": [{"seat": s, "token": None} for s in table.humans()],
            "table_url": f"/t/{table.id}",
            "join_url": None,
            "watch_url": None,
            "local": True,
        }

    def load(self, record: dict[str, Any]) -> LocalTable:
        """Bring a stored table back (replaying its actions), unless it is already here."""
        table = self.tables.get(record["id"])
        if table is None:
            table = self.tables[record["id"]] = LocalTable.from_record(record)
        return table

    def rematch(self, table_id: str, created: float = 0.0) -> tuple[str, Out]:
        """The same table again with a new deal; everyone at the old one is told where it is."""
        old = self._table(table_id)
        if old.rematch is None:
            new = LocalTable(
                new_table_id(), old.game_name, old.mode, old.rules, dealcode.new_seed(),
                [Seat(s.seat, s.kind, s.level, s.name) for s in old.seats], old.bot_delay_ms, created=created,
            )
            self.tables[new.id] = new
            old.rematch = new.id
            self._dirty.update((old.id, new.id))
        return old.rematch, self._refresh(old)

    def dirty(self) -> list[dict[str, Any]]:
        """Records of the tables changed since the last call (to store), with their summaries."""
        tables = [self.tables[i] for i in sorted(self._dirty)]
        out = [{"record": t.record(), "summary": t.summary()} for t in tables]
        self._dirty.clear()
        return out

    def _table(self, table_id: str) -> LocalTable:
        table = self.tables.get(table_id)
        if table is None:
            raise LocalError("unknown_table", "there is no table with this id on this device")
        return table

    # ------------------------------------------------------------------ connections

    def connect(self, conn: str, table_id: str, seat: int | None, since: int | None = None) -> Out:
        """Open connection ``conn`` to seat ``seat`` (a human seat) and bring it up to date."""
        table = self._table(table_id)
        if seat is not None and (seat not in table.humans()):
            raise LocalError("bad_token", f"seat {seat} is not a seat of yours at this table")
        first = not self._present(table_id)
        self.conns[conn] = (table_id, seat)
        out: Out = []
        if first:  # the players are back: everyone else sees them connected
            out += [(c, m) for c, m in self._refresh(table) if c != conn]
        out += [(conn, msg) for msg in table.catch_up(seat, since)]
        return out

    def disconnect(self, conn: str) -> None:
        """Forget connection ``conn``."""
        self.conns.pop(conn, None)

    def _present(self, table_id: str) -> bool:
        return any(t == table_id for t, _ in self.conns.values())

    def _audience(self, table_id: str) -> list[tuple[str, int | None]]:
        return [(c, seat) for c, (t, seat) in self.conns.items() if t == table_id]

    def _refresh(self, table: LocalTable) -> Out:
        return [(c, table.state(table.game, table.seq, seat, None)) for c, seat in self._audience(table.id)]

    def _publish(self, table: LocalTable, events: list[Event]) -> Out:
        out: Out = []
        audience = self._audience(table.id)
        for event in events[:-1]:  # one state per seq, as the server
            game = table.replayed(event.seq)
            out += [(c, table.state(game, event.seq, seat, event)) for c, seat in audience]
        out += [(c, table.state(table.game, table.seq, seat, events[-1])) for c, seat in audience]
        return out

    # ------------------------------------------------------------------ messages

    def receive(self, conn: str, text: str) -> Out:
        """A message from the page on connection ``conn``: answered as the server answers."""
        if conn not in self.conns:
            return [(conn, reject(peek_id(text), "closed", "this connection is closed"))]
        table_id, seat = self.conns[conn]
        table = self._table(table_id)
        if len(text) > MAX_MESSAGE_BYTES or len(text.encode()) > MAX_MESSAGE_BYTES:
            return [(conn, reject(None, "too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes"))]
        try:
            msg = parse_client_message(text)
        except BadMessage as err:
            return [(conn, reject(err.id, err.code, err.message))]
        if msg.type == "ping":
            return [(conn, pong(msg.id, table.seq))]
        if msg.type == "sync":
            return [(conn, table.state(table.game, table.seq, seat, None))]
        if seat is None:
            return [(conn, reject(msg.id, "spectator", "spectators watch; they cannot act"))]
        if msg.seat is not None and msg.seat != seat:
            text = f"this connection holds seat {seat}, not seat {msg.seat}"
            return [(conn, reject(msg.id, "not_your_seat", text))]
        assert msg.key is not None and msg.action is not None
        acked = table.acks.get((seat, msg.key))
        if acked is not None:
            return [(conn, ack(msg.id, acked))]
        old = table.rejects[seat].get(msg.key)
        if old is not None:
            return [(conn, old)]
        try:
            events = table.commit(seat, msg.action, HUMAN, msg.key)
        except IllegalAction as err:
            answer = reject(msg.id, err.code, str(err))
            kept = table.rejects[seat]
            kept[msg.key] = answer
            if len(kept) > REJECTS_KEPT:
                kept.popitem(last=False)
            return [(conn, answer)]
        self._dirty.add(table.id)
        return [(conn, ack(msg.id, table.seq)), *self._publish(table, events)]

    # ------------------------------------------------------------------ computer seats

    def bot_turn(self, table_id: str) -> dict[str, Any] | None:
        """The computer move due at this table now (see :meth:`LocalTable.bot_turn`)."""
        table = self.tables.get(table_id)
        return None if table is None else table.bot_turn()

    def bot_choose(self, table_id: str, seq: int) -> str | None:
        """The action the computer seat due at seq ``seq`` chooses (nothing is changed yet).

        The bot is made fresh for this move with the seed of the table, the seat and the seq, and
        sees only that seat's view, exactly as on the server.  None if the table moved on.
        """
        table = self.tables.get(table_id)
        turn = None if table is None else table.bot_turn()
        if table is None or turn is None or turn["seq"] != seq:
            return None
        seat, level = turn["seat"], turn["level"]
        view = table.game.view(seat)  # what the server's computer players see: the seat's view
        options = self.bot_options.get((table.game_name, level), {})
        try:
            action = bots.make_bot(table.game_name, level, seed=turn["seed"], **options).act(view)
        except Exception as err:  # a faulty bot never stalls the table: it plays its first legal action
            print(f"bistrot: the {level} computer player failed at seq {seq} ({err!r}); "
                  "it plays its first legal action", file=sys.stderr)  # the browser's console
            action = view["legal"][0]
        return str(action)

    def bot_play(self, table_id: str, seq: int, action: str) -> Out:
        """Play ``action`` for the computer seat due at seq ``seq``; nothing if the table moved on."""
        table = self.tables.get(table_id)
        turn = None if table is None else table.bot_turn()
        if table is None or turn is None or turn["seq"] != seq:
            return []
        try:
            events = table.commit(turn["seat"], action, COMPUTER, None)
        except IllegalAction:  # cannot happen with the registered bots; never stall the table
            events = table.commit(turn["seat"], table.game.legal_actions(turn["seat"])[0], COMPUTER, None)
        self._dirty.add(table.id)
        return self._publish(table, events)

    def bot_step(self, table_id: str, seq: int) -> Out:
        """:meth:`bot_choose` then :meth:`bot_play` at once (the host waits between them)."""
        action = self.bot_choose(table_id, seq)
        return [] if action is None else self.bot_play(table_id, seq, action)


class JsonRoom:
    """:class:`LocalRoom` behind JSON texts: what the Web Worker calls (docs/offline.md).

    Every method takes and returns plain texts or numbers, so no Python object crosses into
    JavaScript.  Answers are ``{"out": [[conn, message], ...]}`` or ``{"error": {"code", "message"}}``.

    >>> host = JsonRoom()
    >>> made = json.loads(host.create('{"game": "oti", "mode": "hotseat", "rules": {"players": 2}}'))
    >>> made["seats"]
    [{'seat': 0, 'token': None}, {'seat': 1, 'token': None}]
    >>> out = json.loads(host.connect("a", made["table"], 1, -1))["out"]
    >>> out[0][1]["view"]["seat"], "ready" in out[0][1]["view"]["legal"]
    (1, True)
    >>> json.loads(host.create('{"game": "omi", "mode": "friends"}'))["error"]["code"]
    'needs_network'
    """

    def __init__(self, browser: bool = True) -> None:
        self.room = LocalRoom(BROWSER_BOT_OPTIONS if browser else None)

    @staticmethod
    def _answer(fn: Any, *args: Any) -> str:
        try:
            result = fn(*args)
        except LocalError as err:
            return json.dumps({"error": {"code": err.code, "message": err.message}})
        return json.dumps(result, separators=(",", ":"))

    def create(self, request: str, now: float = 0.0) -> str:
        """Open a table from a ``POST /api/tables`` body."""
        return self._answer(lambda: self.room.create(json.loads(request), created=now))

    def load(self, record: str) -> str:
        """Bring back a stored table."""
        return self._answer(lambda: self.room.load(json.loads(record)).summary())

    def has(self, table_id: str) -> bool:
        """Whether the table is in memory."""
        return table_id in self.room.tables

    def connect(self, conn: str, table_id: str, seat: int, since: int) -> str:
        """Open a connection (``seat`` -1: a spectator; ``since`` -1: none)."""
        return self._answer(
            lambda: {"out": self.room.connect(conn, table_id, None if seat < 0 else seat,
                                              None if since < 0 else since)}
        )

    def disconnect(self, conn: str) -> None:
        """Close a connection."""
        self.room.disconnect(conn)

    def receive(self, conn: str, text: str) -> str:
        """A message from the page."""
        return self._answer(lambda: {"out": self.room.receive(conn, text)})

    def rematch(self, table_id: str, now: float = 0.0) -> str:
        """The rematch of a finished table: ``{"table": id, "out": [...]}``."""

        def run() -> dict[str, Any]:
            new_id, out = self.room.rematch(table_id, created=now)
            return {"table": new_id, "out": out}

        return self._answer(run)

    def bot_turn(self, table_id: str) -> str:
        """The computer move due (``null`` if none)."""
        return json.dumps(self.room.bot_turn(table_id))

    def bot_choose(self, table_id: str, seq: int) -> str:
        """The computer's choice at ``seq`` (``null`` if the table moved on)."""
        return json.dumps(self.room.bot_choose(table_id, seq))

    def bot_play(self, table_id: str, seq: int, action: str) -> str:
        """Play the computer's choice."""
        return self._answer(lambda: {"out": self.room.bot_play(table_id, seq, action)})

    def dirty(self) -> str:
        """The records and summaries to store."""
        return json.dumps(self.room.dirty(), separators=(",", ":"))
