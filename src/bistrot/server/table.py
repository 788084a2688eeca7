"""One table on the server: the table core (:mod:`bistrot.tablecore.core`) hosted by an asyncio
actor, with its store, grace timers, computer players and fan-out.

Every change (a message, a join, a connection, a computer move, a grace period running out) is
a command on the table's queue; the actor runs them one at a time, so the core has one writer.
What the core decides to store is stored before anything is acknowledged or fanned out.
Computer moves are computed by the :class:`~bistrot.server.botrunner.BotRunner` away from the
event loop, one at a time per table; so are hints (a seat asking what the strongest computer
player would do: one at a time per table, counted and stored before the seat is told).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from sqlalchemy import Connection as DbConnection

from bistrot.server import club_store, daily_store
from bistrot.server.botrunner import BotRunner
from bistrot.server.fanout import FanOut, Subscriber
from bistrot.server.protocol import ApiError
from bistrot.server.ratelimit import TokenBucket
from bistrot.server.ratings import rate_game
from bistrot.server.settings import Settings
from bistrot.server.storage import ChatLine, InTransaction, LeaseLost, SeatRecord, Storage, StoredTable
from bistrot.tablecore.core import SPECTATOR, Audience, BotTurn, Commit, HintAsk, HintCommit, Out, TableCore
from bistrot.tablecore.effects import (
    BotMove,
    ChatFailed,
    ChatSaved,
    Deliver,
    Effect,
    GraceOver,
    HintFailed,
    HintReady,
    HintSaved,
    Message,
    Reschedule,
    RetryLater,
    StoreActions,
    StoreChat,
    Stored,
    StoreFailed,
    StoreHint,
    Think,
    handle,
)
from bistrot.tablecore.effects import Reply as Answer  # (Reply here: a connection's reply function)
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import OVER, PLAYING, WAITING
from bistrot.wire import dumps, reject

log = logging.getLogger("bistrot.server.table")

__all__ = ["CLOSE_SEAT_MOVED", "SPECTATOR", "Connection", "Services", "StorageFailed", "Table"]

#: The WebSocket close of a connection whose player now sits at another seat of the table: the
#: client connects again with the same token, which now holds the new seat.
CLOSE_SEAT_MOVED = 4409

Reply = Callable[[dict[str, Any]], None]


class StorageFailed(Exception):
    """The store refused a write; the table was put back as it was."""


class Connection(Subscriber, Protocol):
    """What the table needs of a connection: to be handed texts in order, and to be closed
    (with a WebSocket close code) when the table leaves this node."""

    def close(self, code: int, reason: str) -> None: ...


class TableHandle(Protocol):
    """What a WebSocket talks to: a :class:`Table` here, or a relay to the node that owns it."""

    async def admit(self, token: str) -> int | str | None:
        """The seat ``token`` holds, :data:`SPECTATOR` for the watch key, None if neither."""
        ...

    async def connect(self, conn: Connection, who: int | str, since: int | None) -> None: ...

    async def receive(self, conn: Connection, who: int | str, text: str, reply: Reply) -> None: ...

    async def disconnect(self, conn: Connection, who: int | str) -> None: ...


@dataclass
class Services:
    """What every table shares."""

    settings: Settings
    storage: Storage
    fanout: FanOut
    bots: BotRunner
    #: Told the id of a table whose write was refused because this node no longer owns it.
    lost: Callable[[str], None] | None = None
    #: Called before each command a table's actor runs: raises (``table_moving``) if this node
    #: may no longer act for its tables (its lease ran out while it was paused, say), having
    #: dropped them and closed their sockets.  None: a node alone, which always may.
    fence: Callable[[], None] | None = None


def too_many_connections(cap: int) -> ApiError:
    """The refusal of a connection beyond ``max_connections_per_seat`` (a WebSocket closed 4429)."""
    return ApiError(
        429,
        "too_many_connections",
        f"this seat already has {cap} connections open: close one (another tab or device) and retry",
    )


def _audience(who: int | str) -> Audience:
    return None if who == SPECTATOR else int(who)


class Table:
    """A table and its actor; build from what the store holds."""

    def __init__(self, services: Services, stored: StoredTable) -> None:
        self.services = services
        settings = services.settings
        self.core = TableCore(
            stored,
            clock=time.monotonic,
            replay_limit=settings.replay_limit,
            max_message_bytes=settings.max_message_bytes,
            catch_up_bytes=settings.catch_up_bytes,
        )
        self.id = self.core.id
        self.record = self.core.table
        # Loaded back (a restart, another node taking the table over): seats away stay away and
        # grace periods go on where they were, on this process's clock.
        self.core.restore_presence(stored.presence, time.time(), time.monotonic())
        #: Each seat's presence as last stored (or loaded): see :meth:`_note_presence`.
        self._presence_stored = self._presence()
        self._presence_due = False
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._bot_task: asyncio.Task[None] | None = None
        #: The hint being computed (at most one per table) and who waits for it: (id, reply).
        self._hint_task: asyncio.Task[None] | None = None
        self._hint_ask: HintAsk | None = None
        self._hint_waiting: list[tuple[Any, Reply]] = []
        self._last_change = time.monotonic()
        self.idle_since = time.monotonic()
        #: When the last seat was taken (or the table opened here): a public table's wait for
        #: more players counts from it (:meth:`fill_if_waited`).
        self.seated_since = time.monotonic()
        #: When (wall clock) the last connection closed; None: none since the table was loaded.
        self.seen_at: float | None = None
        #: Since when no seat has had a connection (None: someone is here); for a table loaded
        #: back, since its last stored change, so a table paused for want of people stays paused.
        self._unattended_since: float | None = time.monotonic() - max(0.0, time.time() - self.left_since())
        self._retired = False
        #: Connections closed because their player moved to another seat: what they still send
        #: or say as they go is not their old seat's any more.
        self._moved_out: weakref.WeakSet[Connection] = weakref.WeakSet()
        #: Each seat's chat rate (made at its first message): one bucket for all the seat's
        #: connections, wherever their sockets are (relayed ones send through this actor too).
        self._chat_rate: dict[int, TokenBucket] = {}

    @property
    def seq(self) -> int:
        """Actions stored so far."""
        return self.core.seq

    def left_since(self) -> float:
        """When (wall clock) this table last had someone at it or changed, as far as this
        process knows: the later of its creation, its last stored action and the last
        connection closing since it was loaded."""
        history = self.core.history
        return max(self.record.created_at, history[-1].time if history else 0.0, self.seen_at or 0.0)

    # ------------------------------------------------------------------ the actor

    def start(self) -> None:
        """Start the actor; seats with nobody connected start their grace periods."""
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id[:6]}")
        self.post(self._do_resume)

    async def stop(self) -> None:
        """Stop the actor, the pending computer move and the timers (nothing is lost: all is
        stored); commands still queued are refused (``busy``) rather than left waiting."""
        for timer in self._grace.values():
            timer.cancel()
        for task in (self._bot_task, self._hint_task, self._task):
            if task is not None:
                task.cancel()
        for task in (self._bot_task, self._hint_task, self._task):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        while not self._queue.empty():
            _fn, _args, future = self._queue.get_nowait()
            if future is not None and not future.done():
                future.set_exception(ApiError(503, "busy", "the table is closing; try again"))

    async def retire(self, last: Callable[[], Awaitable[bool]]) -> bool:
        """Run ``last()`` in the actor, as its last command if it returns True: then the actor
        ends right after it (no command of this table is running or will run) and the table is
        stopped.  The room evicts and expires tables so, never while an action is being stored."""
        if not await self.call(self._do_retire, last):
            return False
        await self.stop()
        return True

    async def _do_retire(self, last: Callable[[], Awaitable[bool]]) -> bool:
        self._retired = await last()
        return self._retired

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``fn(*args)`` in the actor and return what it returns (or raise what it raises)."""
        if self._task is None or self._task.done():
            raise ApiError(503, "busy", "the table is closing; try again")
        future = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, args, future))
        return await future

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``fn(*args)`` for the actor without waiting for it."""
        self._queue.put_nowait((fn, args, None))

    async def _run(self) -> None:
        fence = self.services.fence
        while not self._retired:
            fn, args, future = await self._queue.get()
            if fence is not None:
                try:
                    fence()  # first: nothing is done for a table this node may have lost
                except TableError as err:
                    if future is not None and not future.done():
                        future.set_exception(err)
                    continue
            try:
                result = await fn(*args)
            except asyncio.CancelledError:
                if future is not None and not future.done():
                    future.cancel()
                raise
            except Exception as err:
                if future is not None and not future.done():
                    future.set_exception(err)
                elif future is None:
                    log.exception("table %s: a command failed", self.id[:6])
            else:
                if future is not None and not future.done():
                    future.set_result(result)

    # ------------------------------------------------------------------ delivering

    def _deliver(self, out: Out) -> None:
        # One text per message, rendered once and handed to every connection of its audience.
        fanout = self.services.fanout
        for audience, message in out:
            fanout.publish(self.id, audience, dumps(message))

    def identify(self, token: str) -> int | str | None:
        """The seat a token holds, :data:`SPECTATOR` for the watch key, None if it is neither."""
        return self.core.identify(token)

    async def admit(self, token: str) -> int | str | None:
        """:meth:`identify`, as :class:`TableHandle` has it."""
        return self.identify(token)

    def seat_of(self, token: str) -> int:
        """The seat of a seat token, or ``bad_token``."""
        return self.core.seat_of(token)

    def public_info(self) -> dict[str, Any]:
        """``GET /api/tables/{id}``."""
        return self.core.public_info()

    # ------------------------------------------------------------------ connections

    async def _do_resume(self) -> None:
        self._update_grace()
        self._schedule_bot()

    async def connect(self, conn: Connection, who: int | str, since: int | None) -> None:
        """Subscribe ``conn`` as ``who`` (a seat or :data:`SPECTATOR`) and bring it up to date."""
        await self.call(self._do_connect, conn, who, since)

    async def _do_connect(self, conn: Connection, who: int | str, since: int | None) -> None:
        audience = _audience(who)
        cap = self.services.settings.max_connections_per_seat
        if audience is not None and cap and self.core.seats[audience].conns >= cap:
            # Counted here, in the actor of the table's owner node: relayed sockets count too.
            raise too_many_connections(cap)
        changed = self.core.connect(audience)
        self._deliver(changed)  # before subscribing: the newcomer gets its own catch-up
        if changed:
            self._update_grace()
        if self.core.attended():
            self._unattended_since = None
        self._schedule_bot()  # a table paused for want of people resumes
        for message in self.core.catch_up(audience, since):
            conn.deliver(dumps(message))
        self.services.fanout.subscribe(self.id, audience, conn)
        self.idle_since = time.monotonic()

    async def disconnect(self, conn: Connection, who: int | str) -> None:
        """Unsubscribe ``conn``; a seat left with no connection starts its grace period."""
        await self.call(self._do_disconnect, conn, who)

    async def _do_disconnect(self, conn: Connection, who: int | str) -> None:
        if conn in self._moved_out:  # already unsubscribed and uncounted when its player moved
            self._moved_out.discard(conn)
            return
        audience = _audience(who)
        self.services.fanout.unsubscribe(self.id, audience, conn)
        self.idle_since = time.monotonic()
        self.seen_at = time.time()
        self._deliver(self.core.disconnect(audience))
        if not self.core.attended() and self._unattended_since is None:
            self._unattended_since = time.monotonic()
        self._update_grace()

    def _update_grace(self) -> None:
        """Start or cancel grace timers to match who is connected now, each due when the core
        says its seat's grace ends (the views count down to the same time)."""
        due = self.core.grace_deadlines()
        for seat in list(self._grace):
            if seat not in due:
                self._grace.pop(seat).cancel()
        loop = asyncio.get_running_loop()
        for seat in set(due) - set(self._grace):
            wait = max(0.0, due[seat] - time.monotonic())
            self._grace[seat] = loop.call_later(wait, self.post, self._do_grace_over, seat)
        self._note_presence()

    async def _do_grace_over(self, seat: int) -> None:
        if self._grace.pop(seat, None) is None:
            return
        effects = handle(self.core, GraceOver(seat))
        if effects:
            log.info("table %s: seat %d is away; a computer player takes over", self.id[:6], seat)
        await self._perform(effects, None)
        self._note_presence()

    def _presence(self) -> list[tuple[bool, float | None]]:
        # Each seat's away flag and grace deadline as the core holds them, on this process's
        # clock: unlike their wall-clock form, equal until the presence really changes.
        return [(seat.away, seat.grace_until) for seat in self.core.seats]

    def _note_presence(self) -> None:
        """Store the seats' presence, after the command running now, if it changed since it was
        last stored (a grace period started or ended, a seat went away or came back): so a
        restart or another node taking the table over goes on from it."""
        if not self._presence_due and self._presence() != self._presence_stored:
            self._presence_due = True
            self.post(self._do_store_presence)

    async def _do_store_presence(self) -> None:
        self._presence_due = False
        presence = self._presence()
        if presence == self._presence_stored:
            return
        records = self.core.presence_records(time.time(), time.monotonic())
        try:
            await self._write("the seats' presence", self.services.storage.save_presence(self.id, records))
        except StorageFailed:
            # Logged by _write.  Presence is advisory: the table goes on, and the next change
            # stores every seat's again.
            return
        self._presence_stored = presence

    # ------------------------------------------------------------------ messages

    async def receive(self, conn: Connection, who: int | str, text: str, reply: Reply) -> None:
        """A message from ``conn``: its answers go through ``reply`` (an ack before the fan-out)."""
        await self.call(self._do_receive, conn, who, text, reply)

    async def _do_receive(self, conn: Connection, who: int | str, text: str, reply: Reply) -> None:
        if conn in self._moved_out:
            return
        await self._perform(handle(self.core, Message(_audience(who), text, time.time())), reply)

    # ------------------------------------------------------------------ the core's effects

    async def _perform(self, effects: list[Effect], reply: Reply | None) -> None:
        """Carry out the core's effects in order (tablecore/effects.py), feeding the outcome of a
        store back to the core; ``reply``: to the connection whose input they answer (None: the
        input was the table's own, a computer move or a timer)."""
        pending = deque(effects)
        while pending:
            match pending.popleft():
                case Answer(message):
                    if reply is not None:
                        reply(message)
                case Deliver(out):
                    self._deliver(out)
                case StoreActions(commit):
                    try:
                        await self._store(commit)
                    except StorageFailed:
                        pending.extend(handle(self.core, StoreFailed(commit)))
                    else:
                        pending.extend(handle(self.core, Stored(commit)))
                case StoreChat(line, id):
                    pending.extend(await self._chat(line, id, reply))
                case Think(ask, id):
                    if reply is not None:
                        self._ask_hint(ask, id, reply)
                case StoreHint(commit, id):
                    try:
                        await self._store_hint(commit)
                    except StorageFailed:
                        pending.extend(handle(self.core, HintFailed(id)))
                    else:
                        pending.extend(handle(self.core, HintSaved(commit, id)))
                case Reschedule():
                    self._after_change()
                case RetryLater(delay_s):
                    asyncio.get_running_loop().call_later(delay_s, self.post, self._do_resume)

    async def _chat(self, line: ChatLine, id: Any, reply: Reply | None) -> list[Effect]:
        # Per seat, not per connection: every message goes to everyone at the table, so a seat
        # token opened many times must not multiply what it may say.
        settings = self.services.settings
        bucket = self._chat_rate.get(line.seat)
        if bucket is None:
            bucket = self._chat_rate[line.seat] = TokenBucket(settings.chat_burst, settings.chat_per_s)
        if not bucket.take():
            text = f"slow down: a seat may send at most {settings.chat_per_s:g} chat messages a second"
            if reply is not None:
                reply(reject(id, "rate_limited", text))
            return []
        # Stored before anyone sees it, as an action is.
        line = replace(line, at=time.time())
        try:
            await self._write("a chat message", self.services.storage.add_chat(self.id, line))
        except StorageFailed:
            return handle(self.core, ChatFailed(id))
        return handle(self.core, ChatSaved(line))

    async def _write(self, what: str, write: Awaitable[None]) -> None:
        """Await a store call other than an action's (``what`` it stores, for the log); if it
        fails, StorageFailed, and this node gives the table up if it lost it."""
        try:
            await write
        except Exception as err:
            log.warning("table %s: %s could not be stored: %s", self.id[:6], what, type(err).__name__)
            if isinstance(err, LeaseLost) and self.services.lost is not None:
                self.services.lost(self.id)
            raise StorageFailed from err

    def _rating(self, commit: Commit) -> InTransaction | None:
        """The rating of the game this commit ends, to store with it (None: not rated, or not
        its end)."""
        if commit.status != OVER or commit.result is None:
            return None
        places = self.core.rated_places(commit.result)
        if places is None:
            return None
        table_id, game, at = self.id, self.record.game, commit.events[-1].time
        return functools.partial(rate_game, table_id=table_id, game=game, at=at, places=places)

    def _ending(self, commit: Commit) -> InTransaction | None:
        """What the end of the game stores with it: its rating, its daily deal's score, its club
        event's board result."""
        if commit.status != OVER or commit.result is None:
            return None
        at = commit.events[-1].time
        core = self.core
        ending = (
            self._rating(commit), daily_store.finished_work(core, at), club_store.finished_work(core, at)
        )
        works = [w for w in ending if w is not None]
        if len(works) < 2:
            return works[0] if works else None

        def every(conn: DbConnection) -> None:
            for work in works:
                work(conn)

        return every

    async def _store(self, commit: Commit) -> None:
        try:
            await self.services.storage.append(
                self.id, commit.events, commit.status, commit.result, self._ending(commit)
            )
        except LeaseLost as err:
            log.warning("table %s: not stored, this node lost it: %s", self.id[:6], err)
            if self.services.lost is not None:
                self.services.lost(self.id)
            raise StorageFailed from err
        except Exception as err:
            log.error("table %s: storing seq %d failed: %s", self.id[:6], commit.events[0].seq, err)
            raise StorageFailed from err
        except BaseException:
            self.core.abort(commit)
            raise
        self._last_change = time.monotonic()

    def _after_change(self) -> None:
        if self.record.status == OVER:
            self._update_grace()  # none runs once the game is over: every timer goes
            return
        self._schedule_bot()

    # ------------------------------------------------------------------ computer moves

    def _schedule_bot(self) -> None:
        if self._bot_task is not None:
            return
        since = self._unattended_since
        if since is not None and time.monotonic() - since >= self.services.settings.unattended_pause_s:
            return  # nobody has been here for a while: computer players wait for someone to come back
        turn = self.core.bot_turn()
        if turn is not None:
            self._bot_task = asyncio.create_task(self._bot_move(turn, self._last_change + turn.delay_s))

    async def _bot_move(self, turn: BotTurn, due: float) -> None:
        try:
            action = await self.services.bots.choose(self.record.game, turn.level, turn.seed, turn.view)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "table %s: the %s computer player failed at seq %d; playing its first legal action",
                self.id[:6],
                turn.level,
                turn.seq,
            )
            action = turn.view["legal"][0]
        wait = due - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.post(self._do_bot_move, turn, action)

    async def _do_bot_move(self, turn: BotTurn, action: str) -> None:
        self._bot_task = None
        if turn.seq == self.core.seq and action not in turn.view["legal"]:
            log.error("table %s: the computer player chose %r at seq %d", self.id[:6], action, turn.seq)
        await self._perform(handle(self.core, BotMove(turn, action, time.time())), None)

    # ------------------------------------------------------------------ hints

    def _ask_hint(self, ask: HintAsk, id: Any, reply: Reply) -> None:
        # One hint computed at a time per table: asked again for the same seat and seq while
        # it is computed, the asker waits for the same answer; anything else is told ``busy``.
        if self._hint_ask is not None:
            if (self._hint_ask.seat, self._hint_ask.seq) == (ask.seat, ask.seq):
                self._hint_waiting.append((id, reply))
            else:
                reply(reject(id, "busy", "a hint is being worked out at this table; try again in a moment"))
            return
        self._hint_ask, self._hint_waiting = ask, [(id, reply)]
        self._hint_task = asyncio.create_task(self._think_hint(ask))

    async def _think_hint(self, ask: HintAsk) -> None:
        try:
            bots = self.services.bots
            action: str | None = await bots.choose(self.record.game, ask.level, ask.seed, ask.view)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the %s hint failed at seq %d", self.id[:6], ask.level, ask.seq)
            action = None
        self.post(self._do_hint_ready, ask, action)

    async def _do_hint_ready(self, ask: HintAsk, action: str | None) -> None:
        waiting = self._hint_waiting
        self._hint_task, self._hint_ask, self._hint_waiting = None, None, []

        def to_each(message: dict[str, Any]) -> None:  # each asker, with its own message id
            for id, reply in waiting:
                reply({**message, "id": id})

        await self._perform(handle(self.core, HintReady(ask, action)), to_each)

    async def _store_hint(self, commit: HintCommit) -> None:
        # Counted before it is told: a hint seen is a hint the result records.
        stored = self.services.storage.save_seats(self.id, [commit.record], self.record.status)
        await self._write("a hint", stored)

    # ------------------------------------------------------------------ seats (friends tables)

    async def check_invite(self, invite: str | None) -> dict[str, Any]:
        """What a friend with ``invite`` is asked to (the seat they would take now, the game,
        its rules, the host, the seats: :meth:`TableCore.invitation`); the refusals of :meth:`join`."""
        answer: dict[str, Any] = await self.call(self._do_check_invite, invite)
        return answer

    async def _do_check_invite(self, invite: str | None) -> dict[str, Any]:
        return self.core.invitation(invite)

    async def join(self, invite: str | None, name: str | None, profile: str | None = None) -> tuple[int, str]:
        """Take the next free seat of a friends table (with its invite, or a public table's
        with a ``profile``): (seat, token)."""
        joined: tuple[int, str] = await self.call(self._do_join, invite, name, profile)
        return joined

    async def _do_join(self, invite: str | None, name: str | None, profile: str | None) -> tuple[int, str]:
        record, token, status = self.core.join(invite, name, profile)
        await self._save_seats([record], status)
        self.seated_since = time.monotonic()
        return record.seat, token

    async def fill_if_waited(self, wait_s: float, level: str) -> bool:
        """At a public table that has waited ``wait_s`` since its last seat was taken, with a
        player connected, computer players of ``level`` take the free seats and it starts
        (quick match: nobody waits for ever).  Whether it did."""
        filled: bool = await self.call(self._do_fill_if_waited, wait_s, level)
        return filled

    async def _do_fill_if_waited(self, wait_s: float, level: str) -> bool:
        if not (self.record.public and self.core.someone_waits()):
            return False
        if time.monotonic() - self.seated_since < wait_s:
            return False
        await self._save_seats(self.core.fill_open(level), PLAYING)
        return True

    async def start_early(self, token: str) -> None:
        """The creator starts a friends table now; computer players fill the free seats."""
        await self.call(self._do_start, token)

    async def _do_start(self, token: str) -> None:
        await self._save_seats(self.core.start_early(token), PLAYING)

    async def move_seat(self, token: str, seat: int | None, to: int) -> None:
        """Before the start, move a player of a friends table (:meth:`TableCore.move_seat`).
        Stored, then the moved players' connections are closed (:data:`CLOSE_SEAT_MOVED`: they
        come back with the same tokens, at their new seats) and everyone else is told."""
        await self.call(self._do_move_seat, token, seat, to)

    async def _do_move_seat(self, token: str, seat: int | None, to: int) -> None:
        records = self.core.move_seat(token, seat, to)
        try:
            await self._write("a seat move", self.services.storage.save_seats(self.id, records, WAITING))
        except StorageFailed as err:  # nothing changed: the core applies a move once it is stored
            text = "the move could not be stored; nothing changed, try again"
            raise ApiError(503, "storage_error", text) from err.__cause__
        moved, out = self.core.seats_moved(records)
        for seat_moved in moved:
            for conn in self.services.fanout.drop_audience(self.id, seat_moved):
                self._moved_out.add(conn)
                conn.close(CLOSE_SEAT_MOVED, "seat_moved: your player sits at another seat now; reconnect")
        self._deliver(out)

    async def _save_seats(self, records: list[SeatRecord], status: str) -> None:
        await self.services.storage.save_seats(self.id, records, status)
        started, out = self.core.seats_saved(records, status)
        if started:
            self._last_change = time.monotonic()
            self._update_grace()
        self._deliver(out)
        self._schedule_bot()

    async def mark_rematch(self, new_id: str) -> None:
        """Tell everyone at this table where the rematch is."""
        await self.call(self._do_mark_rematch, new_id)

    async def _do_mark_rematch(self, new_id: str) -> None:
        self._deliver(self.core.mark_rematch(new_id))
