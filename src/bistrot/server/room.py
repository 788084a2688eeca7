"""The room: every table of this server, opened, found, recovered and retired here.

On start the room rebuilds every unfinished table from the store (replaying its events) and
starts its actor, which resumes computer seats and starts the grace period of every player
(nobody is connected after a restart).  Finished tables leave memory when nobody has watched
them for a while and are loaded back from the store when someone asks; so do unfinished tables
nobody is connected to, and those nobody came back to for days are retired (``expired``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import time
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, assert_never

from bistrot.server import challenges
from bistrot.server.botrunner import BotRunner
from bistrot.server.fanout import FanOut
from bistrot.server.metrics import LatencyWindow
from bistrot.server.node_calls import (
    ChallengeCall,
    ChallengeInfoCall,
    CheckInviteCall,
    InfoCall,
    JoinCall,
    JsonObject,
    MoveSeatCall,
    PlayChallengeCall,
    RematchCall,
    RoomCall,
    StartTableCall,
)
from bistrot.server.outage import Outage
from bistrot.server.protocol import ApiError, broken_table, store_refused, store_unreadable, unknown_table
from bistrot.server.settings import Settings
from bistrot.server.storage import (
    ChallengeRecord,
    Claim,
    DamagedRecord,
    Storage,
    StoredTable,
    new_secret,
    secret_hash,
)
from bistrot.server.table import Services, Table, TableHandle
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import (
    EXPIRED,
    OVER,
    PLAYING,
    WAITING,
    Plan,
    PlanDefaults,
    plan_rematch,
    plan_table,
)

if TYPE_CHECKING:
    from bistrot.server.cluster import Cluster

log = logging.getLogger("bistrot.server.room")

#: Set while this room runs a call from another node: a table found elsewhere then is moving,
#: never forwarded again.
_FORWARDED: contextvars.ContextVar[bool] = contextvars.ContextVar("forwarded", default=False)

EVICT_EVERY_S = 30.0
T = TypeVar("T")
#: The refusal of a rematch or a challenge on a club event's board.
EVENT_BOARD = (
    "this board is a club event's, which other tables play too: the event's page has your next board"
)


class Room:
    """All tables of one server; see the module docstring."""

    def __init__(
        self,
        settings: Settings,
        storage: Storage,
        fanout: FanOut,
        bot_runner: BotRunner,
        cluster: Cluster | None = None,
    ) -> None:
        self.settings = settings
        #: The other nodes of the card room (None: this server is alone).
        self.cluster = cluster
        fence = None if cluster is None else self._fence
        self.services = Services(settings, storage, fanout, bot_runner, lost=self._lost, fence=fence)
        self.storage = storage
        self.fanout = fanout
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._evictor: asyncio.Task[None] | None = None
        #: Tables whose stored rows cannot be rebuilt, and why: each is refused ``broken_table``
        #: for as long as this process runs (found at start, or when first asked for).
        self.broken: dict[str, str] = {}
        self._marking: set[asyncio.Task[None]] = set()
        #: How long players' actions take from arrival to answer (queueing, rules, commit).
        self.act_latency = LatencyWindow()
        #: The public facts of finished games that challenges' results show (challenges.py).
        self.facts = challenges.FactsCache()
        #: Whether the store's reads fail now: logged once per outage, not once per request.
        self.outage = Outage(log)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Open the store, start the computer players, recover every unfinished table."""
        await self.storage.start()
        self.services.bots.start()
        if self.cluster is not None:
            # The unfinished tables are shared out by the nodes' sweeps (cluster.py).
            await self.cluster.start(self)
            self._evictor = asyncio.create_task(self._evict_loop())
            return
        ids = await self.storage.unfinished()
        for table_id in ids:
            # A table that cannot be rebuilt is marked broken (and logged) by get; the others
            # still start.  One the store fails to read is retried when someone asks for it.
            with contextlib.suppress(TableError):
                await self.get(table_id)
        if ids:
            log.info("recovered %d unfinished tables, %d broken", len(self.tables), len(self.broken))
        self._evictor = asyncio.create_task(self._evict_loop())

    async def stop(self) -> None:
        """Stop every actor, the computer players and the store."""
        if self._evictor is not None:
            self._evictor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._evictor
        await asyncio.gather(*(t.stop() for t in self.tables.values()))
        self.tables.clear()
        if self.cluster is not None:
            await self.cluster.stop()
        self.services.bots.close()
        await self.storage.close()

    def _open(self, stored: StoredTable) -> Table:
        if stored.table.status == EXPIRED:
            raise self.expired_error()
        table = Table(self.services, stored)
        if self._expired(table):  # out of memory while its time ran out: retired on loading
            self._mark_expired(table.id)
            raise self.expired_error()
        table.start()
        self.tables[table.id] = table
        return table

    async def get(self, table_id: str) -> Table | None:
        """The table, from memory or loaded back from the store; None if there is none.
        ApiError ``broken_table`` (500) if its stored rows cannot be rebuilt (it is then
        remembered as broken), ``storage_error`` (503) if the store could not be read."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.broken:
            raise broken_table()
        if len(table_id) > 64:
            return None
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id)
            future.set_result(table)
            return table
        except Exception as err:
            future.set_exception(err)
            future.exception()  # retrieved: raised below to this caller, and to any waiter
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str) -> Table | None:
        if self.cluster is not None and await self.cluster.where(table_id) is not None:
            raise moving()  # another node owns it: only it may run it
        try:
            stored = await self.storage.load_table(table_id)
        except DamagedRecord as err:
            raise self._mark_broken(table_id, err) from None
        except Exception as err:
            raise self.store_failed(err) from err
        self.outage.answered()
        if stored is None:
            return None
        try:
            return self._open(stored)
        except TableError:  # a refusal of _open's own (an expired table)
            raise
        except Exception as err:  # building a table does no I/O: what fails is in its rows
            raise self._mark_broken(table_id, err) from None

    def _mark_broken(self, table_id: str, err: Exception) -> TableError:
        reason = f"{type(err).__name__}: {err}"
        self.broken[table_id] = reason
        log.error("table %s is broken, its stored rows cannot be rebuilt: %s", table_id, reason)
        return broken_table()

    def store_failed(self, err: Exception) -> ApiError:
        """A read of the store failed with ``err``: the refusal to answer (``storage_error``,
        503; a WebSocket closed 4503), logged once per outage (:mod:`~bistrot.server.outage`)."""
        self.outage.failed(err)
        return store_unreadable()

    def store_writable(self) -> bool:
        """Whether the store's last write went through (a store without the count: assumed)."""
        faults = getattr(self.storage, "faults", None)
        return faults is None or faults.fault is None

    async def _stored(self, write: Awaitable[T]) -> T:
        """Await a write of a request (a new table, a challenge): ``storage_error`` (503) if the
        store refuses it, nothing opened (the store logs why)."""
        try:
            return await write
        except Exception as err:
            raise store_refused() from err

    async def _read_store(self, read: Awaitable[bool]) -> bool:
        """Await a read of a request: ``storage_error`` (503) if the store could not be read."""
        try:
            result = await read
        except Exception as err:
            raise self.store_failed(err) from err
        self.outage.answered()
        return result

    async def store_reachable(self) -> bool:
        """Whether the store answers a read now (for ``/healthz``)."""
        try:
            await self.storage.ping()
        except Exception as err:
            self.outage.failed(err)
            return False
        self.outage.answered()
        return True

    # ------------------------------------------------------------------ several nodes

    async def locate(self, table_id: str) -> str | None:
        """None if ``table_id`` is run here (or may be: it is claimed for this node when it has no
        live owner); else the live node that owns it."""
        if self.cluster is None or table_id in self.tables or table_id in self.broken or len(table_id) > 64:
            return None
        return await self.cluster.where(table_id)

    async def _at_owner(self, call: RoomCall) -> JsonObject:
        """Run ``call`` here if this node holds its table (a challenge's: its source table), else
        at the node that does, and answer what it answers: the one way every request about a
        table reaches the node that runs it."""
        match call:
            case ChallengeInfoCall() | PlayChallengeCall():
                owner = await self._challenge_owner(call.challenge_id)
            case _:
                owner = await self.locate(call.table_id)
        if owner is None:
            return await self._here(call)
        assert self.cluster is not None
        if _FORWARDED.get():
            raise moving()  # it moved again meanwhile: the client retries
        return await self.cluster.call(owner, call)

    async def forwarded(self, call: RoomCall) -> JsonObject:
        """Run ``call`` for another node, which found this one owns its table (if it no longer
        does, ``table_moving``: a call is forwarded once, never on)."""
        token = _FORWARDED.set(True)
        try:
            return await self._at_owner(call)
        finally:
            _FORWARDED.reset(token)

    async def _here(self, call: RoomCall) -> JsonObject:
        # This node holds the call's table (or may: see locate).
        match call:
            case InfoCall():
                return (await self.require(call.table_id)).public_info()
            case JoinCall():
                return await self._join(call)
            case CheckInviteCall():
                return await (await self.require(call.table_id)).check_invite(call.invite)
            case StartTableCall():
                return await self._start_table(call)
            case MoveSeatCall():
                return await self._move_seat(call)
            case RematchCall():
                return await self._rematch(call)
            case ChallengeCall():
                return await self._challenge_made(call)
            case ChallengeInfoCall():
                return await self._challenge_info(call)
            case PlayChallengeCall():
                return await self._play_challenge(call)
            case _:
                assert_never(call)

    async def handle(self, table_id: str) -> TableHandle | None:
        """What a WebSocket talks to: the table here, or a relay to its owner node."""
        owner = await self.locate(table_id)
        if owner is not None:
            assert self.cluster is not None
            return self.cluster.remote_table(owner, table_id)
        return await self.get(table_id)

    def _lost(self, table_id: str) -> None:
        # A write was refused: this node no longer owns the table (its lease ran out meanwhile).
        task = asyncio.get_running_loop().create_task(self.drop(table_id))
        self._marking.add(task)
        task.add_done_callback(self._marking.discard)

    def _fence(self) -> None:
        # Before every command of a table's actor (Services.fence): a node that finds, on
        # waking, that its lease ran out drops its tables here, before doing anything for them.
        assert self.cluster is not None
        if self.cluster.lease_lost():
            raise moving()

    async def drop(self, table_id: str) -> None:
        """Forget a table this node lost, without storing anything: its connections are closed
        so that they reconnect to its new owner."""
        table = self._forget(table_id)
        if table is not None:
            log.warning("table %s: this node lost it to another; its connections reconnect", table_id[:6])
            await table.stop()

    def _forget(self, table_id: str) -> Table | None:
        # At once, without waiting: out of memory, its sockets closed (its actor stops after).
        table = self.tables.pop(table_id, None)
        if table is not None:
            for conn in self.fanout.drop(table_id):
                conn.close(CLOSE_MOVED, "this table moved to another server: reconnect")
        return table

    def drop_all(self) -> None:
        """Forget every table at once, its sockets closed (1012), nothing stored (this node lost
        its lease); their actors stop in the background, running nothing more."""
        for table_id in list(self.tables):
            table = self._forget(table_id)
            if table is not None:
                task = asyncio.get_running_loop().create_task(table.stop())
                self._marking.add(task)
                task.add_done_callback(self._marking.discard)

    async def info(self, table_id: str) -> dict[str, Any]:
        """``GET /api/tables/{id}``."""
        return await self._at_owner(InfoCall(table_id))

    async def require(self, table_id: str) -> Table:
        """The table, or ApiError ``unknown_table`` (404), ``broken_table`` (500) or
        ``storage_error`` (503): see :meth:`get`."""
        table = await self.get(table_id)
        if table is None:
            raise unknown_table()
        return table

    async def _evict_loop(self) -> None:
        settings = self.settings
        # Often enough for a public table's wait to end on time (within a tenth of it).
        soonest = min(settings.evict_after_s, settings.expire_waiting_s, settings.quickmatch_wait_s / 10)
        every = min(EVICT_EVERY_S, max(soonest, 0.05))
        while True:
            await asyncio.sleep(every)
            for table in list(self.tables.values()):
                if table.record.public and table.record.status == WAITING:
                    try:
                        await table.fill_if_waited(settings.quickmatch_wait_s, settings.quickmatch_level)
                    except Exception:  # say, the store refused the seats: next round
                        log.exception("table %s: computers could not take its free seats", table.id[:6])
                if not self._leaving(table):
                    continue
                try:
                    await table.retire(functools.partial(self._leave, table))
                except Exception:  # say, the store refused to mark it expired: next round
                    log.exception("table %s could not leave memory", table.id[:6])

    @staticmethod
    def expired_error() -> ApiError:
        """What a request about an expired table is answered (HTTP 410, or a WebSocket reject)."""
        return ApiError(410, "table_expired", "this table was closed: nobody came back to it for too long")

    def _expired(self, table: Table) -> bool:
        """Whether ``table`` has had nobody at it for its status's expiry time."""
        settings = self.settings
        limits = {WAITING: settings.expire_waiting_s, PLAYING: settings.expire_playing_s}
        limit = limits.get(table.record.status)
        return limit is not None and time.time() - table.left_since() >= limit

    def _leaving(self, table: Table) -> bool:
        """Whether ``table`` leaves memory: nobody is connected to it (not even a spectator), and
        it expired, or it has been idle for ``evict_after_s`` (it stays in the store)."""
        return self.fanout.count(table.id) == 0 and (
            self._expired(table) or time.monotonic() - table.idle_since >= self.settings.evict_after_s
        )

    async def _leave(self, table: Table) -> bool:
        # The table's last command (Table.retire): nothing else of it runs meanwhile, and
        # nothing after; a request from now on loads it back from the store, or is refused.
        if not self._leaving(table) or self.tables.get(table.id) is not table:
            return False
        if self._expired(table):
            await self.storage.save_seats(table.id, [], EXPIRED)  # no seat: the status alone
            log.info("table %s expired: nobody came back to it", table.id[:6])
        del self.tables[table.id]
        if self.cluster is not None:
            await self.cluster.release(table.id)  # any node may load it next
        return True

    def _mark_expired(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self.storage.save_seats(table_id, [], EXPIRED))
        self._marking.add(task)  # a reference until done (the loop keeps only weak ones)

        def done(task: asyncio.Task[None]) -> None:
            self._marking.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error("table %s: marking it expired failed: %s", table_id[:6], task.exception())

        task.add_done_callback(done)

    # ------------------------------------------------------------------ opening tables

    async def create(
        self,
        request: Mapping[str, Any],
        challenge: ChallengeRecord | None = None,
        seed: int | None = None,
        profile: str | None = None,
        daily: str | None = None,
    ) -> dict[str, Any]:
        """Open a table as ``POST /api/tables`` asks (its body as a dict; ``profile``: the
        creator's checked profile id; ``daily``: the day whose daily deal it plays, on that
        day's ``seed``); returns the answer's body."""
        plan = plan_table(
            request, self.plan_defaults, seed=seed, challenge=None if challenge is None else challenge.id,
            now=time.time(), profile=profile, daily=daily,
        )
        await self._stored(self.storage.create_table(plan.table, plan.seats))
        self._open(StoredTable(plan.table, plan.seats, []))
        return plan.answer()

    @property
    def plan_defaults(self) -> PlanDefaults:
        """How this room's tables are planned: its operator's pace."""
        return PlanDefaults(bot_delay_ms=self.settings.bot_delay_ms, grace_s=self.settings.grace_s)

    async def open_planned(self, plan: Plan, claim: Claim) -> bool:
        """Store and open a table planned by the caller (a club event's board) if ``claim``, run
        in the transaction that stores it, says so; whether it was opened."""
        if not await self._stored(self.storage.create_table(plan.table, plan.seats, claim)):
            return False
        self._open(StoredTable(plan.table, plan.seats, []))
        return True

    async def join(
        self, table_id: str, invite: str | None, name: str | None, profile: str | None = None
    ) -> dict[str, Any]:
        """``POST /api/tables/{id}/join`` (``profile``: the joining player's checked profile id)."""
        return await self._at_owner(JoinCall(table_id, invite, name, profile))

    async def _join(self, call: JoinCall) -> JsonObject:
        table = await self.require(call.table_id)
        seat, token = await table.join(call.invite, call.name, call.profile)
        return {
            "table": table.id,
            "seat": seat,
            "token": token,
            "table_url": f"/t/{table.id}",
            "status": table.record.status,
        }

    async def check_invite(self, table_id: str, invite: str) -> dict[str, Any]:
        """``POST /api/tables/{id}/check-invite``: the seat the invite would take and what it
        invites to (game, rules, host, seats), nothing taken."""
        return await self._at_owner(CheckInviteCall(table_id, invite))

    async def start_table(self, table_id: str, token: str) -> dict[str, Any]:
        """``POST /api/tables/{id}/start``."""
        return await self._at_owner(StartTableCall(table_id, token))

    async def _start_table(self, call: StartTableCall) -> JsonObject:
        table = await self.require(call.table_id)
        await table.start_early(call.token)
        return table.public_info()

    async def move_seat(self, table_id: str, token: str, seat: int | None, to: int) -> dict[str, Any]:
        """``POST /api/tables/{id}/seat``: before the start, a player moves (or the creator
        moves one) to another seat."""
        return await self._at_owner(MoveSeatCall(table_id, token, seat, to))

    async def _move_seat(self, call: MoveSeatCall) -> JsonObject:
        table = await self.require(call.table_id)
        await table.move_seat(call.token, call.seat, call.to)
        return table.public_info()

    # ------------------------------------------------------------------ after the game

    async def rematch(self, table_id: str, token: str) -> dict[str, Any]:
        """``POST /api/tables/{id}/rematch``: the same table again, a new deal, the same tokens."""
        return await self._at_owner(RematchCall(table_id, token))

    async def _rematch(self, call: RematchCall) -> JsonObject:
        table = await self.require(call.table_id)
        token = call.token
        seat = table.seat_of(token)

        async def open_rematch() -> str:
            old = table.record
            if old.rematch is not None:
                return old.rematch
            if old.status != OVER:
                raise ApiError(409, "not_over", "a rematch is offered once the game is over")
            if old.event is not None:
                raise ApiError(409, "event_board", EVENT_BOARD)
            plan = plan_rematch(old, [s.record for s in table.core.seats], now=time.time())
            await self._stored(self.storage.create_table(plan.table, plan.seats))
            self._open(StoredTable(plan.table, plan.seats, []))
            await table._do_mark_rematch(plan.table.id)
            return plan.table.id

        new_id = await table.call(open_rematch)
        return {"table": new_id, "table_url": f"/t/{new_id}", "seat": seat, "token": token}

    async def challenge(self, table_id: str, token: str) -> dict[str, Any]:
        """``POST /api/tables/{id}/challenge``: a link to the same deal, from this seat."""
        return await self._at_owner(ChallengeCall(table_id, token))

    async def _challenge_made(self, call: ChallengeCall) -> JsonObject:
        table = await self.require(call.table_id)
        seat = table.seat_of(call.token)

        async def make() -> ChallengeRecord:
            if table.record.status != OVER:
                raise ApiError(409, "not_over", "a challenge is made once the game is over")
            if table.record.daily is not None:
                # Its challengers would play the day's deal before their own daily game.
                raise ApiError(409, "daily_deal", "the daily deal is played by everyone: no challenge on it")
            if table.record.event is not None:
                raise ApiError(409, "event_board", EVENT_BOARD)
            found = await self.storage.find_challenge(table.id, seat)
            if found is not None:
                return found
            computers = table.core.challenge_computers(seat)
            record = ChallengeRecord(new_secret(), table.id, seat, computers, time.time())
            await self._stored(self.storage.create_challenge(record))
            return record

        record = await table.call(make)
        return {"challenge": record.id, "challenge_url": f"/challenge/{record.id}"}

    async def _challenge_owner(self, challenge_id: str) -> str | None:
        # The node of the challenge's source table answers about it (None: here).
        if self.cluster is None or len(challenge_id) > 64:
            return None
        record = await self.storage.load_challenge(challenge_id)
        return None if record is None else await self.locate(record.table)

    async def _challenge(self, challenge_id: str) -> tuple[ChallengeRecord, Table]:
        record = await self.storage.load_challenge(challenge_id) if len(challenge_id) <= 64 else None
        # Through get, so that a source table whose rows cannot be rebuilt is broken_table here
        # too (it was a plain 500), as on every other route.
        source = None if record is None else await self.get(record.table)
        if record is None or source is None:
            raise ApiError(404, "unknown_challenge", "there is no challenge with this id")
        return record, source

    async def challenge_info(
        self, challenge_id: str, table: str | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """``GET /api/challenges/{id}``: the challenge and everybody's results, with each
        finished game's facts for a caller holding ``token`` of ``table``, a finished table of
        this challenge (challenges.py)."""
        table = challenges.asked_with(table, token)  # (a token alone is not sent on)
        return await self._at_owner(ChallengeInfoCall(challenge_id, table, None if table is None else token))

    async def _challenge_info(self, call: ChallengeInfoCall) -> JsonObject:
        table = challenges.asked_with(call.table, call.token)  # (again: another node's call is input)
        record, source = await self._challenge(call.challenge_id)
        shown = await challenges.facts_shown(self.storage, record, table, call.token)
        return await challenges.challenge_info(self.storage, record, source.core, self.facts, shown)

    async def play_challenge(
        self, challenge_id: str, name: str | None, challenger: str | None = None
    ) -> dict[str, Any]:
        """``POST /api/challenges/{id}/play``: a computer table on the challenge's deal, once per
        ``challenger`` (a key of the caller's browser and address, :func:`challenger_key`): a
        second attempt, knowing the deal, would be no challenge (``challenge_played``, 409)."""
        return await self._at_owner(PlayChallengeCall(challenge_id, name, challenger))

    async def _play_challenge(self, call: PlayChallengeCall) -> JsonObject:
        challenger = call.challenger
        record, table = await self._challenge(call.challenge_id)
        if challenger is not None and await self._read_store(self.storage.attempted(record.id, challenger)):
            raise ApiError(
                409,
                "challenge_played",
                "this challenge was played from this browser and address already: one attempt each",
            )
        source = table.record
        request = {
            "game": source.game,
            "mode": "computer",
            "rules": dict(source.rules),
            "seat": record.seat,
            "bots": {c["seat"]: c["level"] for c in record.computers},
            "name": call.name,
            "level": source.level,
        }
        answer = await self.create(request, challenge=record, seed=source.seed)
        if challenger is not None:
            await self._stored(self.storage.add_attempt(record.id, challenger, answer["table"], time.time()))
        return answer


def challenger_key(challenge_id: str, address: str, browser: str) -> str:
    """Who opens a challenge's table, as the store keeps it: a hash of the challenge, the
    client's address (its quota key: an IPv6 /64 as one) and its browser's cookie, so neither
    is stored.  Both together: one school's address shared by a class leaves each pupil's
    browser its attempt; the same browser from the same address has one.

    >>> challenger_key("c", "203.0.113.7", "b") == challenger_key("c", "203.0.113.7", "b")
    True
    >>> challenger_key("c", "203.0.113.7", "b") == challenger_key("c", "203.0.113.7", "x")
    False
    """
    return secret_hash(f"{challenge_id}\n{address}\n{browser}")


def moving() -> ApiError:
    """The refusal of a request that reached a node which no longer holds the table."""
    return ApiError(503, "table_moving", "this table is moving to another server; try again")


#: Close code of a socket whose table moved to another node: the client reconnects.
CLOSE_MOVED = 1012


