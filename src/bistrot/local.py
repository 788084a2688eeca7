"""Tables on this device: the card room without a server, speaking the server's protocol.

When the page is offline it runs this module in a Web Worker under Pyodide (docs/offline.md).
A :class:`LocalRoom` holds the tables of this device and the page's connections to them; every
message a connection is sent is what ``bistrot serve`` would send to that seat (docs/protocol.md):
``state`` messages built from the engine's own ``view(seat)`` by :func:`bistrot.wire.state_message`,
``ack`` after the action is stored, ``reject`` with the engine's code, ``pong``.  Computer seats
play with the same bots as online, seeded the same way (the table's seed, the seat, the seq), so
a given deal gets the same computer play on both.

A table here is the same table core as on the server (:mod:`bistrot.tablecore`), hosted with no
secrets and no grace period; this module only keeps the connections of the page and the saved
form of a game.  Modes: ``computer`` and ``hotseat`` (``friends`` tables need the server).
Nothing here does I/O: the worker stores :meth:`LocalTable.record` after each change and waits
for the computer's pause; the record holds the seed and the actions, so it is the worker's to
keep and is never sent to a seat.

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
import sys
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bistrot import bots, games
from bistrot.tablecore.core import HintAsk, Proposal, TableCore
from bistrot.tablecore.effects import (
    BotMove,
    ChatSaved,
    Deliver,
    Effect,
    HintReady,
    HintSaved,
    Message,
    Reply,
    Reschedule,
    RetryLater,
    StoreActions,
    StoreChat,
    Stored,
    StoreHint,
    Think,
    handle,
)
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import COMPUTER, OVER, PLAYING, PlanDefaults, plan_rematch, plan_table
from bistrot.tablecore.records import EventRecord, SeatRecord, StoredTable, TableRecord
from bistrot.tablecore.replay import no_analysis, record_of, replay_of, require_analysis
from bistrot.wire import peek_id, reject

if TYPE_CHECKING:
    from bistrot.analysis import Progress

MODES = ("computer", "hotseat")
DEFAULT_BOT_DELAY_MS = 700
REPLAY_LIMIT = 64
RECORD_VERSION = 1
ID_PREFIX = "local-"
#: A game of this device is analysed with the built-in double-dummy solver (there is no DDS
#: under Pyodide), the browser's number of layouts and the analysis' default seed: reproducible.
ANALYSIS_SOLVER = "python"

LocalError = TableError
"""A table that cannot be opened or found: ``code`` for programs, the message for people."""

#: Smaller time budgets for the search bots in the browser, where Python runs under WebAssembly
#: and the double-dummy solver is the built-in Python one (each game's registry entry says).
BROWSER_BOT_OPTIONS: dict[tuple[str, str], Mapping[str, Any]] = {
    (entry.name, level): options
    for entry in games.all_games()
    for level, options in entry.browser_bot_options.items()
}

Out = list[tuple[str, dict[str, Any]]]
"""Messages to deliver: ``(connection id, message)`` pairs, in order."""

_DEFAULTS = PlanDefaults(
    bot_delay_ms=DEFAULT_BOT_DELAY_MS, grace_s=0.0, modes=MODES, secrets=False, id_prefix=ID_PREFIX,
    choose_pace=True,  # the player's own device: its pace is the player's to choose
)


class LocalTable(TableCore):
    """One table of this device: the table core with no secrets and no grace period; build with
    :meth:`create` or :meth:`from_record`."""

    def __init__(self, stored: StoredTable) -> None:
        super().__init__(stored, local=True, replay_limit=REPLAY_LIMIT)
        if self.game.is_over:
            self.table.status = OVER
            self.table.result = self.result_of(self.game)  # (with the hints the seats used)

    def commit(self, seat: int, action: str, by: str, key: str | None) -> list[EventRecord]:
        """Apply and keep ``action`` for ``seat`` at once (the worker stores right after);
        :class:`IllegalAction` leaves everything unchanged."""
        commit = self.prepare(Proposal(seat, action, by, key), 0.0)
        self.confirm(commit)
        return commit.events

    # ------------------------------------------------------------------ the saved form

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild the table: rules, **seed**, seats and actions.

        This is what the device stores; it reveals every hand, so it is never sent to a seat.
        """
        t = self.table
        return {
            "version": RECORD_VERSION,
            "id": t.id,
            "game": t.game,
            "mode": t.mode,
            "rules": self.rules.to_dict(),
            "seed": str(t.seed),  # a text: the seed has up to 64 bits, more than a JavaScript number holds
            "seats": self._seat_list(),
            "bot_delay_ms": t.bot_delay_ms,
            "actions": [[e.actor, e.action, e.by, e.client_id] for e in self.history],
            "rematch": t.rematch,
            "created": t.created_at,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> LocalTable:
        """The table a :meth:`record` describes, replayed action by action."""
        if record.get("version") != RECORD_VERSION:
            version = record.get("version")
            raise LocalError("bad_record", f"a saved game of version {version!r} cannot be read")
        try:
            entry = games.get(record["game"])
            rules = entry.rules_from_dict(record["rules"])
            events = [
                EventRecord(i, int(seat), str(action), str(by), key, 0.0)
                for i, (seat, action, by, key) in enumerate(record["actions"], 1)
            ]
            seats = [
                SeatRecord(
                    int(s["seat"]), s["kind"], s.get("level"), None, s.get("name"), int(s.get("hints", 0))
                )
                for s in record["seats"]
            ]
            table = TableRecord(
                id=record["id"],
                game=entry.name,
                mode=record["mode"],
                rules=rules.to_dict(),
                seed=int(record["seed"]),
                level=entry.default_level,
                bot_delay_ms=int(record.get("bot_delay_ms", DEFAULT_BOT_DELAY_MS)),
                grace_s=0.0,
                status=PLAYING,  # until the replayed game says it is over
                invite_hash=None,
                watch_hash="",
                created_at=float(record.get("created", 0.0)),
                seq=len(events),
                rematch=record.get("rematch"),
            )
            return cls(StoredTable(table, seats, events))
        except (KeyError, TypeError, ValueError) as err:  # IllegalAction is a ValueError
            raise LocalError("bad_record", f"this saved game cannot be replayed: {err}") from None

    def summary(self) -> dict[str, Any]:
        """What a list of saved games shows: the table's public facts and its result (no card,
        no seed)."""
        table = self.table
        return {**self.public_info(), "id": self.id, "created": table.created_at, "result": table.result}

    def _seat_list(self) -> list[dict[str, Any]]:
        return [
            {"seat": s.record.seat, "kind": s.record.kind, "level": s.record.level, "name": s.record.name,
             "hints": s.record.hints}
            for s in self.seats
        ]


class LocalRoom:
    """The tables of this device and the page's connections to them.

    Every method returns the messages to deliver as ``(connection id, message)`` pairs.  The
    host stores :meth:`dirty` tables' records (it must do so before it delivers an ``ack``, as
    the server stores before it acknowledges) and runs :meth:`bot_step` when :meth:`bot_turn`
    says a computer seat is to play.
    """

    def __init__(self, bot_options: Mapping[tuple[str, str], Mapping[str, Any]] | None = None) -> None:
        self.tables: dict[str, LocalTable] = {}
        self.conns: dict[str, tuple[str, int | None]] = {}
        self.bot_options = dict(bot_options or {})
        self._dirty: set[str] = set()
        self.analyses: dict[str, dict[str, Any]] = {}  # table id -> its analysis, computed once
        self._warm: dict[str, set[str]] = {}  # game -> levels made once (see warm_up)

    # ------------------------------------------------------------------ tables

    def create(self, request: dict[str, Any], created: float = 0.0) -> dict[str, Any]:
        """Open a table; the answer has the shape of ``POST /api/tables``'s (no secrets: a
        table of this device needs none)."""
        plan = plan_table(request, _DEFAULTS, now=created)  # refused with the server's codes
        table = LocalTable(StoredTable(plan.table, plan.seats))
        self.tables[table.id] = table
        self._dirty.add(table.id)
        self.warm_up(table)
        answer = {k: v for k, v in plan.answer().items() if k not in ("invite", "watch")}
        return {**answer, "local": True}

    def load(self, record: dict[str, Any]) -> LocalTable:
        """Bring a stored table back (replaying its actions), unless it is already here."""
        table = self.tables.get(record["id"])
        if table is None:
            table = self.tables[record["id"]] = LocalTable.from_record(record)
            self.warm_up(table)
        return table

    def warm_up(self, table: LocalTable) -> None:
        """Make once, in this process, each computer player ``table`` may ask for (its computer
        seats' levels, and the hint's), so that what a player loads when it is made (modules,
        the Omi trump table, the solver's set-up: most of a second under Pyodide) is loaded as
        the table opens rather than inside its first move's time budget."""
        levels = {s.record.level for s in table.seats if s.record.kind == COMPUTER and s.record.level}
        if table.hints_allowed:
            levels.add(table.hint_level)
        for level in sorted(levels - self._warm.get(table.table.game, set())):
            options = self.bot_options.get((table.table.game, level), {})
            bots.make_bot(table.table.game, level, **options)
            self._warm.setdefault(table.table.game, set()).add(level)

    def rematch(self, table_id: str, created: float = 0.0) -> tuple[str, Out]:
        """The same table again with a new deal; everyone at the old one is told where it is."""
        old = self._table(table_id)
        if old.table.rematch is None:
            plan = plan_rematch(old.table, [s.record for s in old.seats], id_prefix=ID_PREFIX, now=created)
            new = LocalTable(StoredTable(plan.table, plan.seats))
            self.tables[new.id] = new
            self._dirty.update((old.id, new.id))
            return new.id, self._route(old.id, old.mark_rematch(new.id))
        return old.table.rematch, self._route(old.id, old.broadcast())

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

    def replay(self, table_id: str) -> dict[str, Any]:
        """A finished game of this device step by step, every hand shown (``not_over`` before):
        what ``GET /api/tables/{id}/replay`` answers online."""
        return replay_of(self._table(table_id))

    def record_text(self, table_id: str) -> str:
        """The record of a finished game of this device (``not_over`` before)."""
        return record_of(self._table(table_id))

    def analyze(self, table_id: str, progress: Progress | None = None) -> dict[str, Any]:
        """The analysis of a finished game of this device (``not_over`` before, as the replay),
        :meth:`bistrot.analysis.Analysis.to_dict`: the built-in solver, the browser's layouts
        (``default_samples(..., browser=True)``), the default seed; ``progress(done,
        total)`` after each decision.  Computed once: asked again, the same answer at once.

        >>> room = LocalRoom()
        >>> table = room.create({"game": "oti", "mode": "hotseat", "rules": {"players": 2}})["table"]
        >>> try:
        ...     room.analyze(table)
        ... except LocalError as err:
        ...     print(err.code)
        not_over
        """
        found = self.analyses.get(table_id)
        require_analysis(self._table(table_id))
        if found is None:
            found = self.analyses[table_id] = analyze_device_record(self.record_text(table_id), progress)
        return found

    # ------------------------------------------------------------------ connections

    def connect(self, conn: str, table_id: str, seat: int | None, since: int | None = None) -> Out:
        """Open connection ``conn`` to seat ``seat`` (a human seat) and bring it up to date."""
        table = self._table(table_id)
        if seat is not None and seat not in table.humans():
            raise LocalError("bad_token", f"seat {seat} is not a seat of yours at this table")
        out = self._route(table_id, table.connect(seat))  # before this connection is counted
        self.conns[conn] = (table_id, seat)
        return out + [(conn, msg) for msg in table.catch_up(seat, since)]

    def disconnect(self, conn: str) -> None:
        """Forget connection ``conn``."""
        found = self.conns.pop(conn, None)
        if found is not None and found[0] in self.tables:
            self.tables[found[0]].disconnect(found[1])

    def _route(self, table_id: str, out: list[tuple[int | None, dict[str, Any]]]) -> Out:
        """Each message to every connection of its audience."""
        conns = [(c, seat) for c, (t, seat) in self.conns.items() if t == table_id]
        return [(c, msg) for audience, msg in out for c, seat in conns if seat == audience]

    # ------------------------------------------------------------------ messages

    def receive(self, conn: str, text: str) -> Out:
        """A message from the page on connection ``conn``: answered as the server answers."""
        if conn not in self.conns:
            return [(conn, reject(peek_id(text), "closed", "this connection is closed"))]
        table_id, seat = self.conns[conn]
        table = self._table(table_id)
        return self._perform(table, handle(table, Message(seat, text, 0.0)), conn)

    def _perform(self, table: LocalTable, effects: list[Effect], conn: str | None) -> Out:
        """Carry out the core's effects in order (tablecore/effects.py), as the device does:
        what the core says to store is marked dirty and counts as stored at once (the worker
        stores the dirty tables before it delivers what this returns); a hint is worked out
        here and now.  ``conn``: the connection whose input they answer (None: the table's own)."""
        out: Out = []
        pending = deque(effects)
        while pending:
            match pending.popleft():
                case Reply(message):
                    if conn is not None:
                        out.append((conn, message))
                case Deliver(published):
                    out += self._route(table.id, published)
                case StoreActions(commit):
                    self._dirty.add(table.id)
                    pending.extend(handle(table, Stored(commit)))
                case StoreChat(line, _id):  # (kept in memory only: this device is the whole table)
                    pending.extend(handle(table, ChatSaved(replace(line, at=time.time()))))
                case Think(ask, id):
                    pending.extend(handle(table, HintReady(ask, self._think(table, ask), id)))
                case StoreHint(commit, id):
                    self._dirty.add(table.id)
                    pending.extend(handle(table, HintSaved(commit, id)))
                case Reschedule() | RetryLater():
                    pass  # the worker asks bot_turn after every change; a store here never fails
        return out

    def _think(self, table: LocalTable, ask: HintAsk) -> str | None:
        # The strongest computer player with the browser's options, as this device's computer
        # players, given that seat's view only.
        options = self.bot_options.get((table.table.game, ask.level), {})
        try:
            return str(bots.make_bot(table.table.game, ask.level, seed=ask.seed, **options).act(ask.view))
        except Exception as err:
            print(f"bistrot: the {ask.level} hint failed at seq {ask.seq} ({err!r})", file=sys.stderr)
            return None

    # ------------------------------------------------------------------ computer seats

    def bot_turn(self, table_id: str) -> dict[str, Any] | None:
        """The computer move due at this table now, or None: ``{"seat", "seq", "level", "seed",
        "delay_ms"}`` (the pause to keep after the last change, so people can follow)."""
        table = self.tables.get(table_id)
        turn = None if table is None else table.bot_turn()
        if turn is None:
            return None
        return {
            "seat": turn.seat,
            "seq": turn.seq,
            "level": turn.level,
            "seed": turn.seed,
            "delay_ms": round(turn.delay_s * 1000),
        }

    def bot_choose(self, table_id: str, seq: int) -> str | None:
        """The action the computer seat due at seq ``seq`` chooses (nothing is changed yet).

        The bot is made fresh for this move with the seed of the table, the seat and the seq, and
        sees only that seat's view, exactly as on the server.  None if the table moved on.
        """
        table = self.tables.get(table_id)
        turn = None if table is None else table.bot_turn()
        if table is None or turn is None or turn.seq != seq:
            return None
        options = self.bot_options.get((table.table.game, turn.level), {})
        try:
            action = bots.make_bot(table.table.game, turn.level, seed=turn.seed, **options).act(turn.view)
        except Exception as err:  # a faulty bot never stalls the table: it plays its first legal action
            print(f"bistrot: the {turn.level} computer player failed at seq {seq} ({err!r}); "
                  "it plays its first legal action", file=sys.stderr)  # the browser's console
            action = turn.view["legal"][0]
        return str(action)

    def bot_play(self, table_id: str, seq: int, action: str) -> Out:
        """Play ``action`` for the computer seat due at seq ``seq``; nothing if the table moved on."""
        table = self.tables.get(table_id)
        turn = None if table is None else table.bot_turn()
        if table is None or turn is None or turn.seq != seq:
            return []
        return self._perform(table, handle(table, BotMove(turn, action, 0.0)), None)

    def bot_step(self, table_id: str, seq: int) -> Out:
        """:meth:`bot_choose` then :meth:`bot_play` at once (the host waits between them)."""
        action = self.bot_choose(table_id, seq)
        return [] if action is None else self.bot_play(table_id, seq, action)


def analyze_device_record(text: str, progress: Progress | None = None) -> dict[str, Any]:
    """The analysis of a game's record as a device makes it, :meth:`bistrot.analysis.Analysis.to_dict`:
    the built-in solver, the browser's layouts (``default_samples(..., browser=True)``), the
    default seed, ``progress(done, total)`` after each decision; ``ValueError`` for a bad record,
    :class:`~bistrot.tablecore.errors.TableError` ``no_analysis`` for a game that has none.

    >>> from bistrot.oti import OtiGame, OtiRules
    >>> game = OtiGame.new(OtiRules(players=2), seed=3)
    >>> found = analyze_device_record(game.record())
    >>> found["moves"], found["over"]  # no choice made yet: nothing judged
    ([], False)
    """
    # Imported when first needed: the worker's start, which the player waits for, skips it.
    from bistrot.analysis import analyze_record, default_samples
    from bistrot.analysis.load import game_entry

    entry = game_entry(text)
    refused = no_analysis(entry)
    if refused is not None:
        raise refused
    samples = default_samples(entry.name, ANALYSIS_SOLVER, browser=True)
    return analyze_record(text, samples, progress=progress, solver=ANALYSIS_SOLVER).to_dict()


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

    def replay(self, table_id: str) -> str:
        """A finished game step by step (:meth:`LocalRoom.replay`)."""
        return self._answer(lambda: self.room.replay(table_id))

    def record(self, table_id: str) -> str:
        """The record of a finished game: ``{"record": text, "game": name}``."""
        return self._answer(
            lambda: {"record": self.room.record_text(table_id), "game": self.room.tables[table_id].table.game}
        )

    @classmethod
    def analyze_record(cls, text: str, progress: Progress | None = None) -> str:
        """The analysis of a game's record as the device makes it (:func:`analyze_device_record`):
        what the page's analysis worker calls, beside the worker that plays, so that play goes on
        while it runs; ``progress(done, total)`` is the worker's function that posts it to the
        page; ``{"error": ...}`` (code ``bad_record``) for a text that is not a record.

        >>> json.loads(JsonRoom.analyze_record("hello"))["error"]["code"]
        'bad_record'
        """
        def run() -> dict[str, Any]:
            try:
                return analyze_device_record(text, progress)
            except ValueError as err:
                raise LocalError("bad_record", f"this game cannot be analysed: {err}") from err

        return cls._answer(run)

    def dirty(self) -> str:
        """The records and summaries to store."""
        return json.dumps(self.room.dirty(), separators=(",", ":"))
