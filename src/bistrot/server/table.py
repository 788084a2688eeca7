"""One table: its game, seats and connections, changed by one asyncio actor only.

Every change (an action, a join, a connection, a computer move, a grace period running out) is
a command on the table's queue; the actor runs them one at a time.  An action is applied to
the engine (which refuses it, unchanged, if illegal), stored with its seq in one transaction,
and only then acknowledged and fanned out: one ``state`` per audience (each seat, and the
spectators), each rendered from that audience's view, so nobody is ever sent a card they may
not see.

Computer moves (computer seats, and the seats of players whose grace period ran out) are
computed by the :class:`~bistrot.server.botrunner.BotRunner` away from the event loop, one at a
time per table, lowest seat first, each seeded from the table's seed, the seat and the seq, so
the same history always gets the same computer play.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bistrot.errors import IllegalAction
from bistrot.seeding import derive
from bistrot.server.botrunner import BotRunner, fallback_level
from bistrot.server.fanout import Audience, FanOut, Subscriber
from bistrot.server.games import action_text, get_game
from bistrot.server.protocol import ApiError, ack, dumps, reject
from bistrot.server.settings import Settings
from bistrot.server.storage import EventRecord, SeatRecord, Storage, StoredTable, new_secret, secret_hash
from bistrot.wire import last_action, state_message

log = logging.getLogger("bistrot.server.table")

HUMAN, COMPUTER, OPEN = "human", "computer", "open"
WAITING, PLAYING, OVER = "waiting", "playing", "over"
REPLACEMENT_LEVEL = "medium"
REJECTS_KEPT = 256
SPECTATOR = "spectator"

Reply = Callable[[dict[str, Any]], None]


class StorageFailed(Exception):
    """The store refused a write; the table was put back as it was."""


class Connection(Subscriber, Protocol):
    """What the table needs of a connection: to be handed texts in order."""


@dataclass
class Services:
    """What every table shares."""

    settings: Settings
    storage: Storage
    fanout: FanOut
    bots: BotRunner


class SeatState:
    """A seat's record plus what only lives in memory: connections, away, the grace timer."""

    __slots__ = ("away", "conns", "grace", "grace_gen", "record")

    def __init__(self, record: SeatRecord) -> None:
        self.record = record
        self.conns = 0
        self.away = False
        self.grace: asyncio.TimerHandle | None = None
        self.grace_gen = 0


class Table:
    """A table and its actor; build with :meth:`Table.load` from what the store holds."""

    def __init__(self, services: Services, stored: StoredTable) -> None:
        self.services = services
        self.record = stored.table
        self.id = self.record.id
        self.spec = get_game(self.record.game)
        self.rules = self.spec.rules_from_dict(dict(self.record.rules))
        self.players = self.spec.players(self.rules)
        self.history: list[EventRecord] = list(stored.events)
        self.game = self._rebuild(self.history)
        self.seq = len(self.history)
        if self.seq != self.record.seq or any(e.seq != i for i, e in enumerate(self.history, 1)):
            raise ValueError(f"table {self.id}: its events are not numbered 1 to {self.record.seq}")
        self.seats = [SeatState(s) for s in sorted(stored.seats, key=lambda s: s.seat)]
        if [s.record.seat for s in self.seats] != list(range(self.players)):
            raise ValueError(f"table {self.id}: it must have seats 0 to {self.players - 1}")
        self.acks: dict[tuple[int, str], int] = {
            (e.actor, e.client_id): e.seq for e in self.history if e.client_id is not None
        }
        self.rejects: dict[int, OrderedDict[str, dict[str, Any]]] = {
            s: OrderedDict() for s in range(self.players)
        }
        self._tokens = {s.record.token_hash: s.record.seat for s in self.seats if s.record.token_hash}
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._last_change = time.monotonic()
        self.idle_since = time.monotonic()

    def _rebuild(self, events: list[EventRecord]) -> Any:
        return self.spec.replay(self.rules, self.record.seed, [(e.actor, e.action) for e in events])

    # ------------------------------------------------------------------ the actor

    def start(self) -> None:
        """Start the actor; seats with nobody connected start their grace periods."""
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id[:6]}")
        self.post(self._do_resume)

    async def stop(self) -> None:
        """Stop the actor, the pending computer move and the timers (nothing is lost: all is stored)."""
        for seat in self.seats:
            if seat.grace is not None:
                seat.grace.cancel()
        for task in (self._bot_task, self._task):
            if task is not None:
                task.cancel()
        for task in (self._bot_task, self._task):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

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
        while True:
            fn, args, future = await self._queue.get()
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

    # ------------------------------------------------------------------ who is who

    def identify(self, token: str) -> int | str | None:
        """The seat a token holds, :data:`SPECTATOR` for the watch key, None if it is neither."""
        digest = secret_hash(token)
        seat = self._tokens.get(digest)
        if seat is not None:
            return seat
        if digest == self.record.watch_hash:
            return SPECTATOR
        return None

    def seat_of(self, token: str) -> int:
        """The seat of a seat token, or ApiError ``bad_token``."""
        who = self.identify(token)
        if not isinstance(who, int):
            raise ApiError(403, "bad_token", "this token holds no seat at this table")
        return who

    def _present(self, seat: int) -> bool:
        if self.seats[seat].record.kind != HUMAN:
            return False
        if self.record.mode == "hotseat":  # one device: all its seats are there or none is
            return any(s.conns for s in self.seats if s.record.kind == HUMAN)
        return self.seats[seat].conns > 0

    def _computer_plays(self, seat: int) -> bool:
        state = self.seats[seat]
        return state.record.kind == COMPUTER or (state.record.kind == HUMAN and state.away)

    def _level(self, seat: int) -> str | None:
        state = self.seats[seat]
        if state.record.kind == COMPUTER:
            return state.record.level
        if state.away:
            return fallback_level(self.record.game, REPLACEMENT_LEVEL)
        return None

    # ------------------------------------------------------------------ rendering

    def seats_info(self, audience: Audience) -> list[dict[str, Any]]:
        """The ``seats`` of a view: kind, name, level, connected, away, you."""
        return [
            {
                "seat": i,
                "kind": s.record.kind,
                "name": s.record.name,
                "level": self._level(i),
                "connected": s.record.kind == COMPUTER or self._present(i),
                "away": s.away,
                "you": audience == i,
            }
            for i, s in enumerate(self.seats)
        ]

    def table_info(self) -> dict[str, Any]:
        """The ``table`` of a view."""
        r = self.record
        return {
            "id": r.id,
            "game": r.game,
            "mode": r.mode,
            "status": r.status,
            "rematch": r.rematch,
            "bot_delay_ms": r.bot_delay_ms,
            "grace_s": r.grace_s,
        }

    def public_info(self) -> dict[str, Any]:
        """``GET /api/tables/{id}``: no secret and no card."""
        r = self.record
        return {
            "table": r.id,
            "game": r.game,
            "mode": r.mode,
            "status": r.status,
            "seq": self.seq,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "seats": self.seats_info(None),
            "rematch": r.rematch,
        }

    def _legal(self, game: Any, seat: Audience) -> list[str]:
        if seat is None or self.record.status == WAITING or game.is_over or self._computer_plays(seat):
            return []
        return list(game.legal_actions(seat))

    def _state(self, game: Any, seq: int, audience: Audience, last: EventRecord | None) -> str:
        # Built by bistrot.wire, as the table on the player's device builds it (bistrot.local).
        shown = None if last is None else last_action(last.seq, last.actor, last.action, last.by)
        return dumps(
            state_message(
                game,
                seq,
                audience,
                legal=self._legal(game, audience),
                seats=self.seats_info(audience),
                table=self.table_info(),
                last=shown,
            )
        )

    def _audiences(self) -> list[Audience]:
        fanout = self.services.fanout
        return [a for a in (*range(self.players), None) if fanout.has_subscribers(self.id, a)]

    def _broadcast(self, last: EventRecord | None = None) -> None:
        for audience in self._audiences():
            self.services.fanout.publish(self.id, audience, self._state(self.game, self.seq, audience, last))

    def _publish_events(self, events: list[EventRecord]) -> None:
        # One state per seq, so nobody sees a gap; engines log one action per apply, but an
        # engine logging several gets its intermediate states rebuilt.
        for event in events[:-1]:
            game = self._rebuild(self.history[: event.seq])
            for audience in self._audiences():
                self.services.fanout.publish(self.id, audience, self._state(game, event.seq, audience, event))
        self._broadcast(events[-1])

    # ------------------------------------------------------------------ commands

    async def _do_resume(self) -> None:
        self._update_presence()
        self._schedule_bot()

    async def connect(self, conn: Connection, who: int | str, since: int | None) -> None:
        """Subscribe ``conn`` as ``who`` (a seat or :data:`SPECTATOR`) and bring it up to date."""
        await self.call(self._do_connect, conn, who, since)

    async def _do_connect(self, conn: Connection, who: int | str, since: int | None) -> None:
        audience: Audience = None if who == SPECTATOR else int(who)
        if audience is not None:
            before = self.seats_info(None)
            self.seats[audience].conns += 1
            self._update_presence()
            if self.seats_info(None) != before:
                self._broadcast()
                self._schedule_bot()
        for text in self._catch_up(audience, since):
            conn.deliver(text)
        self.services.fanout.subscribe(self.id, audience, conn)
        self.idle_since = time.monotonic()

    def _catch_up(self, audience: Audience, since: int | None) -> list[str]:
        limit = self.services.settings.replay_limit
        if since is None or not 0 <= since < self.seq or self.seq - since > limit:
            return [self._state(self.game, self.seq, audience, None)]
        game = self._rebuild(self.history[:since])
        texts = []
        for event in self.history[since:]:
            game.apply(event.action, seat=event.actor)
            texts.append(self._state(game, event.seq, audience, event))
        return texts

    async def disconnect(self, conn: Connection, who: int | str) -> None:
        """Unsubscribe ``conn``; a seat left with no connection starts its grace period."""
        await self.call(self._do_disconnect, conn, who)

    async def _do_disconnect(self, conn: Connection, who: int | str) -> None:
        audience: Audience = None if who == SPECTATOR else int(who)
        self.services.fanout.unsubscribe(self.id, audience, conn)
        self.idle_since = time.monotonic()
        if audience is None:
            return
        before = self.seats_info(None)
        self.seats[audience].conns -= 1
        self._update_presence()
        if self.seats_info(None) != before:
            self._broadcast()

    def _update_presence(self) -> None:
        """Cancel or start grace periods to match who is connected now."""
        loop = asyncio.get_running_loop()
        for i, seat in enumerate(self.seats):
            if seat.record.kind != HUMAN:
                continue
            if self._present(i):
                if seat.grace is not None:
                    seat.grace.cancel()
                    seat.grace = None
                seat.away = False
            elif self.record.status == PLAYING and not seat.away and seat.grace is None:
                seat.grace_gen += 1
                seat.grace = loop.call_later(
                    self.record.grace_s, self.post, self._do_grace_over, i, seat.grace_gen
                )

    async def _do_grace_over(self, seat: int, generation: int) -> None:
        state = self.seats[seat]
        if generation != state.grace_gen or state.grace is None:
            return
        state.grace = None
        if self._present(seat) or self.record.status != PLAYING:
            return
        state.away = True
        log.info("table %s: seat %d is away; a computer player takes over", self.id[:6], seat)
        self._broadcast()
        self._schedule_bot()

    async def sync(self, conn: Connection, who: int | str) -> None:
        """Send ``conn`` a fresh state."""
        await self.call(self._do_sync, conn, who)

    async def _do_sync(self, conn: Connection, who: int | str) -> None:
        conn.deliver(self._state(self.game, self.seq, None if who == SPECTATOR else int(who), None))

    async def act(self, seat: int, key: str, id: Any, action: str, reply: Reply) -> None:
        """A player's action, answered through ``reply`` (ack or reject) before the fan-out."""
        await self.call(self._do_act, seat, key, id, action, reply)

    async def _do_act(self, seat: int, key: str, id: Any, action: str, reply: Reply) -> None:
        acked = self.acks.get((seat, key))
        if acked is not None:
            reply(ack(id, acked))
            return
        old = self.rejects[seat].get(key)
        if old is not None:
            reply(old)
            return
        try:
            if self.record.status == WAITING:
                raise IllegalAction("not_started", "the table has not started: it is waiting for players")
            events = await self._commit(seat, action, key, HUMAN)
        except IllegalAction as err:
            answer = reject(id, err.code, str(err))
            kept = self.rejects[seat]
            kept[key] = answer
            if len(kept) > REJECTS_KEPT:
                kept.popitem(last=False)
            reply(answer)
            return
        except StorageFailed:
            reply(reject(id, "storage_error", "the action could not be stored; nothing changed, try again"))
            return
        self.acks[(seat, key)] = self.seq
        reply(ack(id, self.seq))
        self._publish_events(events)
        self._after_change()

    async def _commit(self, seat: int, action: str, key: str | None, by: str) -> list[EventRecord]:
        """Apply, then store; the game is put back as it was if the store fails."""
        game = self.game
        before = len(game.actions)
        game.apply(action, seat=seat)  # IllegalAction leaves the game unchanged
        texts = [action_text(a) for a in game.actions[before:]]
        if not texts:
            raise RuntimeError(f"the {self.record.game} engine accepted {action!r} but logged no action")
        now = time.time()
        events = [
            EventRecord(self.seq + i, seat, text, by, key if i == len(texts) else None, now)
            for i, text in enumerate(texts, 1)
        ]
        status = OVER if game.is_over else PLAYING
        result = self.spec.summary(game) if game.is_over else None
        try:
            await self.services.storage.append(self.id, events, status, result)
        except BaseException as err:
            self.game = self._rebuild(self.history)
            if isinstance(err, Exception):
                log.error("table %s: storing seq %d failed: %s", self.id[:6], events[0].seq, err)
                raise StorageFailed from err
            raise
        self.history.extend(events)
        self.seq = events[-1].seq
        self.record.seq = self.seq
        self.record.status = status
        self.record.result = result
        self._last_change = time.monotonic()
        return events

    def _after_change(self) -> None:
        if self.record.status == OVER:
            for seat in self.seats:
                if seat.grace is not None:
                    seat.grace.cancel()
                    seat.grace = None
            return
        self._schedule_bot()

    # ------------------------------------------------------------------ computer moves

    def _schedule_bot(self) -> None:
        if self.record.status != PLAYING or self._bot_task is not None or self.game.is_over:
            return
        for seat in range(self.players):
            if self._computer_plays(seat) and self.game.legal_actions(seat):
                level = self._level(seat)
                assert level is not None
                view = self.game.view(seat)
                seed = derive(self.record.seed, "bot", seat, self.seq)
                due = self._last_change + self.record.bot_delay_ms / 1000
                self._bot_task = asyncio.create_task(self._bot_move(seat, self.seq, level, seed, view, due))
                return

    async def _bot_move(
        self, seat: int, seq: int, level: str, seed: int, view: dict[str, Any], due: float
    ) -> None:
        try:
            action = await self.services.bots.choose(self.record.game, level, seed, view)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "table %s: the %s computer player failed at seq %d; playing its first legal action",
                self.id[:6],
                level,
                seq,
            )
            action = view["legal"][0]
        wait = due - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.post(self._do_bot_move, seat, seq, action)

    async def _do_bot_move(self, seat: int, seq: int, action: str) -> None:
        self._bot_task = None
        if seq != self.seq or self.record.status != PLAYING or not self._computer_plays(seat):
            self._schedule_bot()  # the table moved on meanwhile: think again
            return
        try:
            events = await self._commit(seat, action, None, COMPUTER)
        except IllegalAction as err:
            log.error("table %s: the computer player chose %r at seq %d: %s", self.id[:6], action, seq, err)
            events = await self._commit(seat, self.game.legal_actions(seat)[0], None, COMPUTER)
        except StorageFailed:
            asyncio.get_running_loop().call_later(1.0, self.post, self._do_resume)
            return
        self._publish_events(events)
        self._after_change()

    # ------------------------------------------------------------------ seats (friends tables)

    async def join(self, invite: str, name: str | None) -> tuple[int, str]:
        """Take the next free seat of a friends table: (seat, token)."""
        return await self.call(self._do_join, invite, name)

    async def _do_join(self, invite: str, name: str | None) -> tuple[int, str]:
        r = self.record
        if r.mode != "friends":
            raise ApiError(
                409, "not_joinable", f"this is a {r.mode} table: only friends tables take players by link"
            )
        if r.invite_hash is None or secret_hash(invite) != r.invite_hash:
            raise ApiError(403, "bad_invite", "this invite does not open this table")
        free = [s for s in self.seats if s.record.kind == OPEN]
        if r.status != WAITING or not free:
            raise ApiError(409, "table_full", "every seat of this table is taken")
        seat = free[0]
        token = new_secret()
        record = SeatRecord(seat.record.seat, HUMAN, None, secret_hash(token), name)
        status = PLAYING if len(free) == 1 else WAITING
        await self._save_seats([record], status)
        return record.seat, token

    async def start_early(self, token: str) -> None:
        """The creator starts a friends table now; computer players fill the free seats."""
        await self.call(self._do_start, token)

    async def _do_start(self, token: str) -> None:
        seat = self.seat_of(token)
        if seat != 0:
            raise ApiError(403, "not_creator", "only the table's creator (seat 0) can start it early")
        if self.record.status != WAITING:
            raise ApiError(409, "already_started", "the table has already started")
        level = fallback_level(self.record.game, self.record.level)
        records = [SeatRecord(s.record.seat, COMPUTER, level) for s in self.seats if s.record.kind == OPEN]
        await self._save_seats(records, PLAYING)

    async def _save_seats(self, records: list[SeatRecord], status: str) -> None:
        await self.services.storage.save_seats(self.id, records, status)
        for record in records:
            self.seats[record.seat].record = record
            if record.token_hash:
                self._tokens[record.token_hash] = record.seat
        started = self.record.status == WAITING and status == PLAYING
        self.record.status = status
        if started:
            self._last_change = time.monotonic()
            self._update_presence()
        self._broadcast()
        self._schedule_bot()

    async def mark_rematch(self, new_id: str) -> None:
        """Tell everyone at this table where the rematch is."""
        await self.call(self._do_mark_rematch, new_id)

    async def _do_mark_rematch(self, new_id: str) -> None:
        self.record.rematch = new_id
        self._broadcast()
