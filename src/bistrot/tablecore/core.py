"""One table's whole behaviour, with no I/O: the sans-I/O core every host shares.

A :class:`TableCore` holds a table's records, its game, who is connected, and the answers it
gave.  It checks and applies a seat's message, says what to store, and renders the messages
each audience (a seat, or ``None`` for spectators) is sent, built from that audience's own view
so nobody is ever sent a card they may not see.  It never waits, stores or sends, and reads no
clock but the one its host may hand it (for the grace time a view shows left): its hosts do.
The server (:mod:`bistrot.server.table`: an asyncio actor, a store, grace timers, the fan-out)
and the player's device (:mod:`bistrot.local`, run by a Web Worker under
Pyodide when offline) are thin shells around it, so both send the same messages for the same
requests.  The model is boardgame.io's ``Master``, written once and hosted on both sides.

An action goes: :meth:`TableCore.receive` (checks; may answer at once) -> :meth:`TableCore.propose`
(applies it, or refuses it with nothing changed) -> the host stores the :class:`Commit` ->
:meth:`TableCore.confirm` (the ``ack``, then one ``state`` per audience and seq) or, if the store
failed, :meth:`TableCore.abort` (the table is put back as it was).

This module holds the class, its construction, its facts (seq, status, tokens, the game rebuilt
from kept snapshots) and the actions (receive, propose, prepare, confirm, abort, chat).  The rest
are parts the class inherits, a class and a module each, written against
:class:`~bistrot.tablecore.base.CoreBase` (the state, and what one part calls in another):

- :mod:`~bistrot.tablecore.presence`: who is here (connections, presence, grace periods);
- :mod:`~bistrot.tablecore.rendering`: views, states, broadcast, publish, catch-up;
- :mod:`~bistrot.tablecore.computer`: computer turns and hints;
- :mod:`~bistrot.tablecore.seats`: friends tables' seats (invites, join, moves, early start);
- :mod:`~bistrot.tablecore.aftergame`: ratings, rematch, challenge.

Its values (:class:`Proposal`, :class:`Commit`, :class:`Step`, :class:`BotTurn`...) live in
:mod:`~bistrot.tablecore.values` and are named from here too; :mod:`~bistrot.tablecore.effects`
answers a host's inputs with typed effects by calling the core.

>>> from bistrot.tablecore.plan import PlanDefaults, plan_table
>>> plan = plan_table({"game": "omi", "level": "easy", "seed": 5}, PlanDefaults(bot_delay_ms=0))
>>> core = TableCore(StoredTable(plan.table, plan.seats))
>>> told = core.connect(0)  # for the connections the host already has: none yet
>>> [m["view"]["legal"] for m in core.catch_up(0, None)]
[['trump S', 'trump H', 'trump D', 'trump C']]
>>> step = core.receive(0, '{"type": "act", "id": 1, "action": "trump H"}')
>>> step.replies, step.proposal.action
([], 'trump H')
>>> commit = core.propose(step.proposal, now=0.0)
>>> [(e.seq, e.action, e.client_id) for e in commit.events]
[(1, 'trump H', '1')]
>>> answer, out = core.confirm(commit)
>>> answer, [(aud, m["type"], m["seq"]) for aud, m in out]
({'type': 'ack', 'id': 1, 'seq': 1}, [(0, 'state', 1)])
>>> core.receive(0, '{"type": "act", "id": 1, "action": "trump S"}').replies  # a retry
[{'type': 'ack', 'id': 1, 'seq': 1}]
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, cast

from bistrot import games
from bistrot.engine import Game
from bistrot.errors import IllegalAction
from bistrot.ruleset import Ruleset
from bistrot.tablecore import chat
from bistrot.tablecore.aftergame import AfterGame
from bistrot.tablecore.computer import Computer
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import COMPUTER, HUMAN, OVER, PLAYING, WAITING
from bistrot.tablecore.presence import Presence
from bistrot.tablecore.records import ChatLine, EventRecord, StoredTable, TableRecord, secret_hash
from bistrot.tablecore.rendering import Rendering
from bistrot.tablecore.seats import Seats
from bistrot.tablecore.values import (
    Audience,
    BotTurn,
    Commit,
    HintAsk,
    HintCommit,
    Out,
    Proposal,
    SeatState,
    Step,
)
from bistrot.wire import BadMessage, ack, parse_client_message, pong, reject

#: The core's values (:mod:`bistrot.tablecore.values`) are named from here too, as they always were.
__all__ = [
    "DEFAULT_CATCH_UP_BYTES",
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DEFAULT_REPLAY_LIMIT",
    "DEFAULT_SNAPSHOT_EVERY",
    "PUBLIC_WATCH",
    "REJECTS_KEPT",
    "SPECTATOR",
    "Audience",
    "BotTurn",
    "Commit",
    "HintAsk",
    "HintCommit",
    "Out",
    "Proposal",
    "SeatState",
    "Step",
    "TableCore",
]

SPECTATOR = "spectator"
#: What watches a public table (the lobby's, a quick match's) instead of its watch key: anyone
#: may watch one, as a spectator, who sees no hidden card.
PUBLIC_WATCH = "public"
REJECTS_KEPT = 256
DEFAULT_REPLAY_LIMIT = 64
DEFAULT_SNAPSHOT_EVERY = 16
"""Seqs between two kept game snapshots: a rebuild replays fewer than this many actions more than
it must, and a table keeps about ``replay_limit / snapshot_every + 2`` snapshots."""
DEFAULT_MAX_MESSAGE_BYTES = 4096
DEFAULT_CATCH_UP_BYTES = 64 * 1024
"""Most bytes of missed states a catch-up sends one by one; beyond, one fresh state: a long
match's state repeats its history of hands (about 16 KB each), so 64 missed states were a
megabyte for a reconnect."""


class TableCore(Presence, Rendering, Computer, Seats, AfterGame):
    """See the module docstring.  ``local``: a table of the player's device (no secrets, no
    grace period, every seat present while the device is).  ``clock``: the host's clock in
    seconds (monotonic), which times grace periods; without one, none is timed or shown."""

    def __init__(
        self,
        stored: StoredTable,
        *,
        local: bool = False,
        clock: Callable[[], float] | None = None,
        replay_limit: int = DEFAULT_REPLAY_LIMIT,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        catch_up_bytes: int = DEFAULT_CATCH_UP_BYTES,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every is a number of seqs, at least 1, not {snapshot_every}")
        self.table: TableRecord = stored.table
        self.id = self.table.id
        self.local = local
        self.clock = clock
        self.replay_limit = replay_limit
        self.max_message_bytes = max_message_bytes
        self.snapshot_every = snapshot_every
        self.catch_up_bytes = catch_up_bytes
        self.entry = games.get(self.table.game)
        self.rules = self.entry.rules_from_dict(dict(self.table.rules))
        self.players = self.entry.players(self.rules)
        self.history: list[EventRecord] = list(stored.events)
        if any(e.seq != i for i, e in enumerate(self.history, 1)) or len(self.history) != self.table.seq:
            raise ValueError(f"table {self.id}: its events are not numbered 1 to {self.table.seq}")
        # Copies of the game at a few recent seqs, oldest first, never changed once kept: a
        # rebuild starts from the nearest, so a catch-up costs what was missed, not the game.
        self._snapshots: list[tuple[int, Game[Ruleset]]] = []
        game = self.rebuilt(0)
        for event in self.history:  # the one full replay: loading a table
            game.apply(event.action, seat=event.actor)
            self._keep(event.seq, game)
        self.game: Game[Ruleset] = game
        self.seats = [SeatState(s) for s in sorted(stored.seats, key=lambda s: s.seat)]
        if [s.record.seat for s in self.seats] != list(range(self.players)):
            raise ValueError(f"table {self.id}: it must have seats 0 to {self.players - 1}")
        self.spectators = 0
        self.acks: dict[tuple[int, str], int] = {
            (e.actor, e.client_id): e.seq for e in self.history if e.client_id is not None
        }
        self.rejects: dict[int, OrderedDict[str, dict[str, Any]]] = {
            s: OrderedDict() for s in range(self.players)
        }
        #: The seat each seat token's hash holds (:meth:`identify`; taken seats add theirs).
        self.token_seats = {s.record.token_hash: s.record.seat for s in self.seats if s.record.token_hash}
        #: The last hint each seat was given: (seq, action); asked again at that seq, it is
        #: answered from here, neither computed nor counted again (in memory only).
        self.last_hint: dict[int, tuple[int, str]] = {}
        self.chat: deque[ChatLine] = deque(stored.chat[-chat.KEPT :], maxlen=chat.KEPT)
        self._chat_count = stored.chat[-1].n if stored.chat else 0

    # ------------------------------------------------------------------ facts

    @property
    def seq(self) -> int:
        """Actions stored so far."""
        return len(self.history)

    @property
    def status(self) -> str:
        """``waiting`` (for players), ``playing`` or ``over``."""
        return self.table.status

    def rebuilt(self, seq: int) -> Game[Ruleset]:
        """The game as it stood after the first ``seq`` stored actions, a new object the caller
        may change.  It is replayed from the nearest snapshot at or below ``seq``: for a seq
        within :attr:`replay_limit` of the last, at most ``snapshot_every - 1`` actions more
        than those after ``seq`` (an engine logging several actions per apply: a few more).

        >>> from bistrot.tablecore.plan import PlanDefaults, plan_table
        >>> plan = plan_table({"game": "omi", "seed": 5}, PlanDefaults(bot_delay_ms=0))
        >>> core = TableCore(StoredTable(plan.table, plan.seats))
        >>> core.rebuilt(0) == core.game, core.rebuilt(0) is core.rebuilt(0)
        (True, False)
        """
        if not 0 <= seq <= self.seq:
            raise ValueError(f"table {self.id} has seqs 0 to {self.seq}, not {seq}")
        start, game = 0, cast("Game[Ruleset] | None", None)
        for at, snapshot in reversed(self._snapshots):
            if at <= seq:
                start, game = at, snapshot.copy()  # copy out: a snapshot is never changed
                break
        if game is None:
            game = self.entry.game_class().new(self.rules, self.table.seed)
        for event in self.history[start:seq]:
            game.apply(event.action, seat=event.actor)
        return game

    @property
    def snapshot_seqs(self) -> list[int]:
        """The seqs at which a copy of the game is kept for :meth:`rebuilt`: a few recent ones,
        about ``replay_limit / snapshot_every + 2`` whatever the length of the history."""
        return [seq for seq, _ in self._snapshots]

    def _keep(self, seq: int, game: Game[Ruleset]) -> None:
        # ``game`` stands at ``seq``.  Keep a copy (copy in: the caller goes on changing its
        # game) every ``snapshot_every`` seqs, only if a catch-up within the replay limit may
        # start from it, and drop those none can: the newest at or below the oldest seq a
        # catch-up rebuilds stays, so memory is bounded per table whatever its history.
        oldest = self.seq - self.replay_limit
        last = self._snapshots[-1][0] if self._snapshots else 0
        if seq - last >= self.snapshot_every and seq > oldest - self.snapshot_every:
            self._snapshots.append((seq, game.copy()))
        while len(self._snapshots) > 1 and self._snapshots[1][0] <= oldest:
            del self._snapshots[0]

    def identify(self, token: str) -> int | str | None:
        """The seat a token holds, :data:`SPECTATOR` for the watch key, None if it is neither."""
        digest = secret_hash(token)
        seat = self.token_seats.get(digest)
        if seat is not None:
            return seat
        if self.table.watch_hash and digest == self.table.watch_hash:
            return SPECTATOR
        if self.table.public and token == PUBLIC_WATCH:
            return SPECTATOR
        return None

    def seat_of(self, token: str) -> int:
        """The seat of a seat token, or :class:`TableError` ``bad_token``."""
        who = self.identify(token)
        if not isinstance(who, int):
            raise TableError("bad_token", "this token holds no seat at this table", 403)
        return who

    def humans(self) -> list[int]:
        """The seats played by people."""
        return [s.record.seat for s in self.seats if s.record.kind == HUMAN]

    def computer_plays(self, seat: int) -> bool:
        """Whether a computer player plays ``seat`` now (its own, or for a player away)."""
        state = self.seats[seat]
        return state.record.kind == COMPUTER or (state.record.kind == HUMAN and state.away)

    def level(self, seat: int) -> str | None:
        """The level of the computer player playing ``seat`` now, if any."""
        state = self.seats[seat]
        if state.record.kind == COMPUTER:
            return state.record.level
        if state.away:
            return self.entry.level_or_weaker(self.entry.default_level)
        return None

    # ------------------------------------------------------------------ actions

    def receive(self, audience: Audience, text: str) -> Step:
        """A message from a connection of ``audience``: answered now, or an action to propose."""
        cap = self.max_message_bytes
        if len(text) > cap or len(text.encode()) > cap:
            return Step([reject(None, "too_large", f"a message is at most {cap} bytes")])
        try:
            msg = parse_client_message(text)
        except BadMessage as err:
            return Step([reject(err.id, err.code, err.message)])
        if msg.type == "ping":
            return Step([pong(msg.id, self.seq)])
        if msg.type == "sync":
            return Step([self.state(self.game, self.seq, audience, None)])
        if audience is None:
            return Step([reject(msg.id, "spectator", "spectators watch; they cannot act")])
        if msg.type == "chat":
            return self._chat(audience, msg.id, msg.text or "")
        if msg.type == "hint":
            return self.ask_hint(audience, msg.id)
        if msg.seat is not None and msg.seat != audience:
            text = f"this connection holds seat {audience}, not seat {msg.seat}"
            return Step([reject(msg.id, "not_your_seat", text)])
        assert msg.key is not None and msg.action is not None
        acked = self.acks.get((audience, msg.key))
        if acked is not None:
            return Step([ack(msg.id, acked)])
        old = self.rejects[audience].get(msg.key)
        if old is not None:
            return Step([old])
        return Step(proposal=Proposal(audience, msg.action, HUMAN, msg.key, msg.id))

    def _chat(self, seat: int, id: Any, text: str) -> Step:
        if self.table.mode not in chat.MODES:
            return Step([reject(id, "chat_closed", f"a {self.table.mode} table has no chat")])
        try:
            cleaned = chat.clean(text)
        except TableError as err:
            return Step([reject(id, err.code, err.message)])
        line = ChatLine(self._chat_count + 1, seat, self.seats[seat].record.name, cleaned, 0.0)
        return Step(chat=line, id=id)

    def chat_stored(self, line: ChatLine) -> Out:
        """A chat message is stored: kept (the last :data:`chat.KEPT`), and sent to every seat
        and spectator."""
        self.chat.append(line)
        self._chat_count = line.n
        message = chat.chat_message(line)
        return [(a, message) for a in self.audiences()]

    def propose(self, proposal: Proposal, now: float) -> Commit | dict[str, Any]:
        """Apply a proposal: the :class:`Commit` to store, or the ``reject`` (nothing changed;
        a person's refusal is remembered for a retry of the same id)."""
        try:
            return self.prepare(proposal, now)
        except IllegalAction as err:
            answer = reject(proposal.id, err.code, str(err))
            if proposal.key is not None:
                kept = self.rejects[proposal.seat]
                kept[proposal.key] = answer
                if len(kept) > REJECTS_KEPT:
                    kept.popitem(last=False)
            return answer

    def prepare(self, proposal: Proposal, now: float) -> Commit:
        """Apply a proposal to the game: the :class:`Commit` to store; :class:`IllegalAction`
        (with nothing changed) if the rules or the table refuse it."""
        if self.status == WAITING:
            raise IllegalAction("not_started", "the table has not started: it is waiting for players")
        game = self.game
        before = len(game.actions)
        game.apply(proposal.action, seat=proposal.seat)  # IllegalAction leaves the game unchanged
        texts = [text for _, text in game.actions[before:]]
        if not texts:
            raise RuntimeError(f"the {self.table.game} engine logged nothing for {proposal.action!r}")
        seat, by, key = proposal.seat, proposal.by, proposal.key
        events = [
            EventRecord(self.seq + i, seat, text, by, key if i == len(texts) else None, now)
            for i, text in enumerate(texts, 1)
        ]
        over = bool(game.is_over)
        return Commit(proposal, events, OVER if over else PLAYING, self.result_of(game) if over else None)

    def result_of(self, game: Game[Ruleset]) -> dict[str, Any]:
        """The stored ``result`` of a finished game: its summary and, if any seat asked for
        hints, how many each did (``"hints": {"0": 3}``, seats as texts: it is stored as JSON).

        >>> from dataclasses import replace
        >>> from bistrot.tablecore.plan import PlanDefaults, plan_table
        >>> plan = plan_table({"game": "oti", "rules": {"players": 2}}, PlanDefaults())
        >>> core = TableCore(StoredTable(plan.table, [replace(plan.seats[0], hints=2), plan.seats[1]]))
        >>> core.result_of(core.game)["hints"]
        {'0': 2}
        """
        summary: dict[str, Any] = game.summary()
        used = {str(s.record.seat): s.record.hints for s in self.seats if s.record.hints}
        return {**summary, "hints": used} if used else summary

    def confirm(self, commit: Commit) -> tuple[dict[str, Any] | None, Out]:
        """The commit is stored: the ``ack`` for the connection that proposed it (None for a
        computer's move), to send first, then one state per seq for every audience."""
        self.history.extend(commit.events)
        self._keep(self.seq, self.game)
        r = self.table
        r.seq, r.status, r.result = self.seq, commit.status, commit.result
        proposal = commit.proposal
        answer = None
        if proposal.key is not None:
            self.acks[(proposal.seat, proposal.key)] = self.seq
            answer = ack(proposal.id, self.seq)
        return answer, self.publish(commit.events)

    def abort(self, commit: Commit) -> dict[str, Any]:
        """The store refused the commit: the table is put back as it was; the ``reject``."""
        self.game = self.rebuilt(self.seq)
        return reject(
            commit.proposal.id, "storage_error", "the action could not be stored; nothing changed, try again"
        )

