"""The PostgreSQL store: the room on a database several nodes can share.

:class:`PostgresStorage` keeps the same records as the SQLite store, over SQLAlchemy's asyncio
engine and psycopg 3.  Every write is one transaction, committed before its awaitable returns
(durable under PostgreSQL's default ``synchronous_commit=on``).  The writes made for every
action (:meth:`~PostgresStorage.append`, :meth:`~PostgresStorage.save_seats`) are each a single
statement, its parts joined by data-modifying ``WITH`` clauses: one round trip, atomic by itself.
Rarer writes are explicit transactions.  ``start()`` creates or upgrades the schema (Alembic,
:mod:`bistrot.server.migrations`).

**Cluster mode** (``node`` given): each node holds a lease in the ``nodes`` table, renewed by
:meth:`~PostgresStorage.renew_node`, and owns tables (``tables.owner``).  "Live" always means
``nodes.lease_until > clock_timestamp()``, the database's clock, one for every node.  Every write
of an existing table is fenced: in the same statement (or transaction) as its rows, it updates
the table's row only where this node owns it and its lease is live (and, for an append, where the
table's seq is the one just before the new events); otherwise nothing is written and
:class:`~bistrot.server.storage.LeaseLost` is raised.  A node paused past its lease can thus never
commit for a table another node has taken.  A node id may be reused by a later process (say, the
host's name, restarted after a crash) once its lease is over: each registration is a new
generation of the id, and leases and fences check the generation, so the older process, if it
was only paused, can no longer renew nor write.  (A write of seats' presence changes nothing of
the table's row: it locks it, on the same conditions.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, TypeVar

import psycopg
from alembic.util import CommandError
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from sqlalchemy import event, exc, exists, func, insert, select, text, update
from sqlalchemy.engine import URL, Connection, RowMapping, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.sql.elements import ColumnElement

from bistrot.server import migrations
from bistrot.server.metrics import LatencyWindow
from bistrot.server.schema import (
    CLAIM_ANALYSIS,
    SAVE_ANALYSIS,
    analysis_params,
    analysis_record,
    challenge_record,
    challenge_row,
    challenges_from_query,
    chat_insert,
    chat_trim,
    history_queries,
    history_rows,
    presence_values,
    room_metadata,
    seat_row,
    stored_table,
    table_queries,
    table_row,
)
from bistrot.server.storage import (
    AnalysisRecord,
    ChallengeRecord,
    ChatLine,
    Claim,
    DamagedRecord,
    EventRecord,
    HistoryRow,
    InTransaction,
    LeaseLost,
    PresenceRecord,
    ResultRow,
    SeatRecord,
    StoredTable,
    StoreUnusable,
    TableRecord,
    WriteFaults,
)

log = logging.getLogger("bistrot.server.storage")

_schema = room_metadata(cluster=True)
tables = _schema.tables["tables"]
seats = _schema.tables["seats"]
events = _schema.tables["events"]
challenges = _schema.tables["challenges"]
analyses = _schema.tables["analyses"]
chat = _schema.tables["chat"]
attempts = _schema.tables["attempts"]
nodes = _schema.tables["nodes"]

#: Seconds to reach the server, then for any one statement (PostgreSQL's statement_timeout): a
#: write while PostgreSQL is down or stuck fails (the table answers storage_error), never hangs.
CONNECT_TIMEOUT_S = 3
STATEMENT_TIMEOUT_S = 10
#: The advisory lock key a server alone on its database holds ("bist").
EXCLUSIVE_LOCK = 0x62697374
#: And for a whole call, on our side, for a server that cannot even time out (paused, its disk
#: hung): psycopg then spends up to 10 s more cancelling the query before the call fails.
CALL_TIMEOUT_S = STATEMENT_TIMEOUT_S + 2
#: Most connections the appends use at once, besides the engine's pool and the lease's.
APPEND_POOL_SIZE = 15

T = TypeVar("T")

# This node, in the generation it registered (its started_at), holds a live lease.
_LIVE = (
    "EXISTS (SELECT 1 FROM nodes WHERE nodes.id = :node AND nodes.started_at = :generation"
    " AND nodes.lease_until > clock_timestamp())"
)
# A table's owner is not live: gone from nodes, or its lease is over.
_OWNER_DEAD = (
    "coalesce((SELECT nodes.lease_until FROM nodes WHERE nodes.id = tables.owner), '-infinity')"
    " <= clock_timestamp()"
)
_FENCE = f"AND owner = :node AND {_LIVE}"

# One statement: the table's row moves first (fenced: only where this node may write it), and
# the events go in only if it did; any failure undoes both.
_APPEND = """
WITH moved AS (
    UPDATE tables SET seq = :last, status = :status, updated_at = :now,
        result = coalesce(CAST(:result AS json), result)
    WHERE id = :id {fence}
    RETURNING id
), added AS (
    INSERT INTO events (table_id, seq, actor, action, "by", client_id, "time")
    SELECT moved.id, e.* FROM moved, unnest(
        CAST(:seqs AS integer[]), CAST(:actors AS integer[]), CAST(:actions AS varchar[]),
        CAST(:bys AS varchar[]), CAST(:client_ids AS varchar[]), CAST(:times AS float8[])
    ) AS e
)
SELECT count(*) FROM moved
"""
_SAVE_SEATS = """
WITH moved AS (
    UPDATE tables SET status = :status, updated_at = :now
    WHERE id = :id {fence}
    RETURNING id
), seated AS (
    UPDATE seats SET kind = s.kind, level = s.level, token_hash = s.token_hash, name = s.name,
        hints = s.hints, profile = s.profile
    FROM moved, unnest(
        CAST(:seats AS integer[]), CAST(:kinds AS varchar[]), CAST(:levels AS varchar[]),
        CAST(:token_hashes AS varchar[]), CAST(:names AS varchar[]), CAST(:hints AS integer[]),
        CAST(:profiles AS varchar[])
    ) AS s (seat, kind, level, token_hash, name, hints, profile)
    WHERE seats.table_id = moved.id AND seats.seat = s.seat
)
SELECT count(*) FROM moved
"""
# A seat's presence changes no column of its table's row: the row is only locked (as the other
# writes' UPDATE locks it, so a claim by another node is waited for, then seen) where the fence holds.
_SAVE_PRESENCE = """
WITH owned AS (
    SELECT id FROM tables WHERE id = :id {fence} FOR SHARE
), placed AS (
    UPDATE seats SET away = p.away, grace_ends = p.grace_ends
    FROM owned, unnest(
        CAST(:seats AS integer[]), CAST(:aways AS integer[]), CAST(:grace_ends AS float8[])
    ) AS p (seat, away, grace_ends)
    WHERE seats.table_id = owned.id AND seats.seat = p.seat
)
SELECT count(*) FROM owned
"""
# Why a fenced write matched no row.
_WHY_NOT = f"SELECT owner, seq, {_LIVE} AS live FROM tables WHERE id = :id"

# A new node, or a new generation of one whose lease is over (restarted after a crash).
_REGISTER = """
INSERT INTO nodes (id, lease_until, started_at)
VALUES (:node, clock_timestamp() + :seconds * interval '1 second', clock_timestamp())
ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until, started_at = excluded.started_at
    WHERE nodes.lease_until <= clock_timestamp()
RETURNING started_at
"""
_RENEW = (
    "UPDATE nodes SET lease_until = clock_timestamp() + :seconds * interval '1 second' "
    "WHERE id = :node AND started_at = :generation AND lease_until > clock_timestamp()"
)
_LIVE_NODES = "SELECT id FROM nodes WHERE lease_until > clock_timestamp()"
_OWNER = (
    "SELECT tables.owner FROM tables JOIN nodes ON nodes.id = tables.owner "
    "WHERE tables.id = :id AND nodes.lease_until > clock_timestamp()"
)
# Taking a table whose owner is alive fails; two nodes racing for a free one both update its
# row, the second after the first committed, and PostgreSQL re-checks the condition on the row
# as the first left it (whose owner is now live): one wins.
_CLAIM = f"""
UPDATE tables SET owner = :node
WHERE id = :id AND (owner IS NULL OR owner = :node OR {_OWNER_DEAD}) AND {_LIVE}
RETURNING id
"""
_CLAIM_ORPHANS = f"""
WITH claimed AS (
    UPDATE tables SET owner = :node WHERE id IN (
        SELECT id FROM tables
        WHERE status IN ('waiting', 'playing') AND owner IS NOT NULL AND {_OWNER_DEAD} AND {_LIVE}
        ORDER BY created_at, id LIMIT :limit
        FOR UPDATE SKIP LOCKED
    )
    RETURNING id, created_at
)
SELECT id FROM claimed ORDER BY created_at, id
"""


class PostgresStorage:
    """:class:`~bistrot.server.storage.Storage` on a PostgreSQL database; see the module
    docstring.  ``url`` is ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DB`` (libpq's query
    parameters allowed); ``node`` turns on cluster mode, with leases of ``lease_s`` seconds."""

    def __init__(
        self,
        url: str,
        *,
        node: str | None = None,
        lease_s: float = 3.0,
        pool_size: int = 10,
        exclusive: bool = False,
    ) -> None:
        self.url = url
        #: Whether this store must be the database's only user (a single server without
        #: leases): it then holds a session advisory lock as long as it is open.
        self.exclusive = exclusive
        self._holder: AsyncConnection | None = None
        self.node = node
        self.lease_s = lease_s
        self.pool_size = pool_size
        self._engine: AsyncEngine | None = None
        #: The node's lease on a connection of its own (cluster mode): its renewals never wait
        #: behind the tables' writes, however busy the node.
        self._lease_engine: AsyncEngine | None = None
        #: The appends, one for every action, on plain psycopg connections of their own: through
        #: SQLAlchemy's asyncio layer (a greenlet per call) each took about 200 µs of CPU more.
        self._appends: AsyncConnectionPool | None = None
        #: When each of those connections was last given back (see _check_if_idle).
        self._returned: weakref.WeakKeyDictionary[psycopg.AsyncConnection[Any], float] = (
            weakref.WeakKeyDictionary()
        )
        #: When an append last found its connection dead, or a ping the server unreachable: the
        #: connections given back before then may have died with it (PostgreSQL restarted), and
        #: are pinged before their next use.
        self._dropped_at = float("-inf")
        self._where = "(not started)"
        #: This node's generation: its row's started_at, set by register_node.  Leases and
        #: fences check it, so an older process with the same id (paused, then resumed after
        #: this one took the id over) can neither renew nor write.
        self._generation: datetime | None = None
        # Fenced, an append also checks that its events follow the table's stored seq.
        self._append_sql = psycopg_sql(_APPEND.format(fence=f"{_FENCE} AND seq = :prev" if node else ""))
        self._append_text = text(_APPEND.format(fence=f"{_FENCE} AND seq = :prev" if node else ""))
        self._save_seats_sql = text(_SAVE_SEATS.format(fence=_FENCE if node else ""))
        self._save_presence_sql = text(_SAVE_PRESENCE.format(fence=_FENCE if node else ""))
        #: Writes so far (each its own commit), and the last write times in seconds.
        self.writes = 0
        self.write_times = LatencyWindow()
        #: Writes through SQLAlchemy that failed for the database itself (the appends' own pool
        #: is not counted).
        self.faults = WriteFaults(log)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Connect, then create or upgrade the schema; :class:`StoreUnusable` (one line naming
        the server and database, never the password) if either fails."""
        url = engine_url(self.url)
        self._where = where = describe(url)
        engine = self._new_engine(url, self.pool_size, self.pool_size // 2)
        try:
            async with asyncio.timeout(CALL_TIMEOUT_S), engine.connect() as conn:
                durability = text("SELECT current_setting('synchronous_commit'), current_setting('fsync')")
                synchronous_commit, fsync = (await conn.execute(durability)).one()
        except (exc.DBAPIError, OSError, TimeoutError) as err:
            await engine.dispose()
            raise StoreUnusable(
                f"PostgreSQL {where}: cannot connect ({_first_line(err)}); check --database-url "
                "(BISTROT_DATABASE_URL) and that the server is running"
            ) from None
        if "off" in (synchronous_commit, fsync):
            log.warning(
                "PostgreSQL %s has synchronous_commit=%s, fsync=%s: an acknowledged action can be "
                "lost if it crashes",
                where,
                synchronous_commit,
                fsync,
            )
        try:
            async with engine.execution_options(isolation_level="READ COMMITTED").connect() as conn:
                await conn.run_sync(migrations.upgrade)
        except (exc.DBAPIError, OSError, CommandError) as err:
            await engine.dispose()
            raise StoreUnusable(
                f"PostgreSQL {where}: its schema cannot be created or upgraded ({_first_line(err)}); "
                "is this database another program's, or made by a newer bistrot?"
            ) from None
        if self.exclusive:
            await self._hold(engine, where)
        self._engine = engine
        self._appends = AsyncConnectionPool(
            libpq_url(url),
            kwargs={"autocommit": True, **connect_args(url)},
            min_size=2,
            max_size=APPEND_POOL_SIZE,
            timeout=CALL_TIMEOUT_S,
            configure=self._given_back,  # (new: not idle)
            check=self._check_if_idle,
            reset=self._given_back,
            name="bistrot-appends",
            open=False,
        )
        await self._appends.open(wait=False)

    @staticmethod
    def _new_engine(url: URL, size: int, overflow: int, ping: bool = False) -> AsyncEngine:
        engine = create_async_engine(
            url,
            # Autocommit by default: most calls are one statement; transactions ask for one.
            isolation_level="AUTOCOMMIT",
            # Enough connections that bursts seldom open extra ones (each a new backend).
            pool_size=size,
            max_overflow=overflow,
            pool_timeout=STATEMENT_TIMEOUT_S,
            # A ping before each use would be a round trip per write: only a connection idle
            # for a while is pinged (see _ping_if_idle), and the most recently used ones are
            # taken first, so a busy node's connections are never idle.  The lease pings always
            # (one call a second).
            pool_pre_ping=ping,
            pool_use_lifo=True,
            hide_parameters=True,  # errors are logged: never a token's hash in them
            connect_args=connect_args(url),
        )
        if not ping:
            event.listen(engine.sync_engine.pool, "checkin", _idle_from)
            event.listen(engine.sync_engine.pool, "checkout", _ping_if_idle)
        return engine

    async def _hold(self, engine: AsyncEngine, where: str) -> None:
        # Two servers without leases on one database would each rebuild and play the same
        # tables: the second is refused at start, while the first holds this lock.
        holder = await engine.connect()
        lock = text("SELECT pg_try_advisory_lock(:key)")
        held = (await holder.execute(lock, {"key": EXCLUSIVE_LOCK})).scalar()
        if not held:
            await holder.close()
            await engine.dispose()
            raise StoreUnusable(
                f"PostgreSQL {where}: another bistrot server is using this database; one server "
                "per database"
            )
        self._holder = holder

    async def close(self) -> None:
        if self._holder is not None:
            with contextlib.suppress(Exception):
                await self._holder.close()
            self._holder = None
        for engine in (self._engine, self._lease_engine):
            if engine is not None:
                await engine.dispose()
        self._engine = self._lease_engine = None
        if self._appends is not None:
            await self._appends.close()
            self._appends = None

    def stats(self) -> dict[str, float]:
        """As :meth:`~bistrot.server.sqlite.SQLiteStorage.stats`; every write is its own commit."""
        return {
            "commits": self.writes,
            "writes": self.writes,
            "mean_batch": 1.0 if self.writes else 0.0,
            "commit_ms_p50": self.write_times.percentile_ms(0.5),
            "commit_ms_p99": self.write_times.percentile_ms(0.99),
            "failed_writes": self.faults.failed,
        }

    @property
    def engine(self) -> AsyncEngine:
        if self._engine is None:
            raise RuntimeError("the store is not open")
        return self._engine

    @asynccontextmanager
    async def _connection(
        self, isolation: str | None = None, lease: bool = False
    ) -> AsyncIterator[AsyncConnection]:
        """A pooled connection (autocommit unless ``isolation`` is given; the lease's own if
        ``lease``) for one call, which must be over within :data:`CALL_TIMEOUT_S`."""
        engine = self.engine
        if lease:
            if self._lease_engine is None:
                self._lease_engine = self._new_engine(engine_url(self.url), 1, 1, ping=True)
            engine = self._lease_engine
        if isolation is not None:
            engine = engine.execution_options(isolation_level=isolation)
        try:
            async with asyncio.timeout(CALL_TIMEOUT_S), engine.connect() as conn:
                yield conn
        except TimeoutError:
            raise TimeoutError(f"PostgreSQL {self._where} did not answer in {CALL_TIMEOUT_S} s") from None

    async def _write(self, write: Callable[[AsyncConnection], Awaitable[T]], transaction: bool = False) -> T:
        """Run ``write`` on a connection, in a transaction if asked (else its one statement is
        its own), and count it."""
        started = time.perf_counter()
        try:
            async with self._connection("READ COMMITTED" if transaction else None) as conn:
                if transaction:
                    async with conn.begin():
                        done = await write(conn)
                else:
                    done = await write(conn)
        except exc.DBAPIError as err:
            self.faults.failed_write(err)
            # One line (SQLAlchemy's message carries the whole statement); the cause is kept.
            raise RuntimeError(f"the write failed: {_first_line(err)}") from err
        self.faults.wrote()
        self.write_times.record(time.perf_counter() - started)
        self.writes += 1
        return done

    async def _again_if_dropped(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``, and once more if its connection turned out to have died (PostgreSQL
        restarted since it was last used): for reads and for calls that may safely run twice,
        never for a table's writes (those are refused, never acknowledged, and sent again by
        their client)."""
        try:
            return await call()
        except exc.DBAPIError as err:
            if not err.connection_invalidated:
                raise
        return await call()

    async def _rows(self, sql: str, lease: bool = False, **params: Any) -> Sequence[Any]:
        """The rows of one statement, run alone (autocommit; on the lease's connection if
        ``lease``); once more if its connection had died (see :meth:`_again_if_dropped`)."""

        async def run() -> Sequence[Any]:
            async with self._connection(lease=lease) as conn:
                return (await conn.execute(text(sql), params)).all()

        return await self._again_if_dropped(run)

    async def _run(self, sql: str, lease: bool = False, **params: Any) -> int:
        """Run one statement alone (autocommit; on the lease's connection if ``lease``); the
        rows it changed."""
        async with self._connection(lease=lease) as conn:
            return (await conn.execute(text(sql), params)).rowcount

    async def transaction(self, work: Callable[[Connection], T]) -> T:
        """As :meth:`~bistrot.server.sqlite.SQLiteStorage.transaction`: ``work`` runs on the
        synchronous face of one connection, in one READ COMMITTED transaction (not fenced: the
        rows it writes are no table's)."""

        async def write(conn: AsyncConnection) -> T:
            return await conn.run_sync(work)

        return await self._write(write, transaction=True)

    async def snapshot(self, work: Callable[[Connection], T]) -> T:
        """As :meth:`~bistrot.server.sqlite.SQLiteStorage.snapshot` (REPEATABLE READ: one view
        of the database for every statement of ``work``); once more if the connection had died."""

        async def read() -> T:
            async with self._connection("REPEATABLE READ") as conn, conn.begin():
                return await conn.run_sync(work)

        return await self._again_if_dropped(read)

    # ------------------------------------------------------------------ writes

    async def create_table(
        self, table: TableRecord, seat_records: list[SeatRecord], claim: Claim | None = None
    ) -> bool:
        row = table_row(table) | {"owner": self.node}

        async def write(conn: AsyncConnection) -> bool:
            if claim is not None and not await conn.run_sync(claim):
                return False
            await conn.execute(insert(tables), row)
            if seat_records:
                await conn.execute(insert(seats), [seat_row(table.id, s) for s in seat_records])
            if table.rematch_of is not None:
                marked = await conn.execute(
                    update(tables)
                    .where(tables.c.id == table.rematch_of, *self._fence())
                    .values(rematch=table.id)
                )
                if marked.rowcount != 1 and self.node is not None:
                    await self._why_not(conn, table.rematch_of, missing_ok=True)
            return True

        return await self._write(write, transaction=True)

    async def append(
        self,
        table_id: str,
        event_records: list[EventRecord],
        status: str,
        result: dict[str, Any] | None,
        then: InTransaction | None = None,
    ) -> None:
        params = {
            "id": table_id,
            "node": self.node,
            "generation": self._generation,
            "last": event_records[-1].seq,
            "status": status,
            "now": time.time(),
            "result": None if result is None else json.dumps(result),
            "seqs": [e.seq for e in event_records],
            "actors": [e.actor for e in event_records],
            "actions": [e.action for e in event_records],
            "bys": [e.by for e in event_records],
            "client_ids": [e.client_id for e in event_records],
            "times": [e.time for e in event_records],
        }
        if self.node is not None:
            params["prev"] = event_records[0].seq - 1

        if then is not None:
            # A game's end with its rating: one transaction through SQLAlchemy (the rating's SQL is
            # written once, for both stores); the hot path below is every other action's.
            await self._append_then(table_id, event_records[0].seq, params, then)
            return
        if self._appends is None:
            raise RuntimeError("the store is not open")
        started = time.perf_counter()
        try:
            async with asyncio.timeout(CALL_TIMEOUT_S), self._appends.connection() as conn:
                row = await (await conn.execute(self._append_sql, params)).fetchone()
        except (psycopg.Error, PoolTimeout) as err:
            if isinstance(err, psycopg.OperationalError):
                self._dropped_at = time.monotonic()
            raise RuntimeError(f"the write failed: {_first_line(err)}") from err
        except TimeoutError:
            raise TimeoutError(f"PostgreSQL {self._where} did not answer in {CALL_TIMEOUT_S} s") from None
        if row is None or row[0] != 1:
            async with self._connection() as why:
                await self._why_not(why, table_id, first_seq=event_records[0].seq)
        self.write_times.record(time.perf_counter() - started)
        self.writes += 1

    async def _append_then(
        self, table_id: str, first_seq: int, params: dict[str, Any], then: InTransaction
    ) -> None:
        async def write(conn: AsyncConnection) -> None:
            if (await conn.execute(self._append_text, params)).scalar_one() != 1:
                await self._why_not(conn, table_id, first_seq=first_seq)
            await conn.run_sync(then)

        await self._write(write, transaction=True)

    async def save_seats(self, table_id: str, seat_records: list[SeatRecord], status: str) -> None:
        params = {
            "id": table_id,
            "node": self.node,
            "generation": self._generation,
            "status": status,
            "now": time.time(),
            "seats": [s.seat for s in seat_records],
            "kinds": [s.kind for s in seat_records],
            "levels": [s.level for s in seat_records],
            "token_hashes": [s.token_hash for s in seat_records],
            "names": [s.name for s in seat_records],
            "hints": [s.hints for s in seat_records],
            "profiles": [s.profile for s in seat_records],
        }

        async def write(conn: AsyncConnection) -> None:
            if (await conn.execute(self._save_seats_sql, params)).scalar_one() != 1:
                await self._why_not(conn, table_id)

        await self._write(write)

    async def save_presence(self, table_id: str, presence: list[PresenceRecord]) -> None:
        rows = [presence_values(p) for p in presence]
        params = {
            "id": table_id,
            "node": self.node,
            "generation": self._generation,
            "seats": [p.seat for p in presence],
            "aways": [row["away"] for row in rows],
            "grace_ends": [row["grace_ends"] for row in rows],
        }

        async def write(conn: AsyncConnection) -> None:
            if (await conn.execute(self._save_presence_sql, params)).scalar_one() != 1:
                await self._why_not(conn, table_id)

        await self._write(write)

    async def create_challenge(self, challenge: ChallengeRecord) -> None:
        row = challenge_row(challenge)

        async def write(conn: AsyncConnection) -> None:
            await conn.execute(insert(challenges), row)

        await self._write(write)

    async def attempted(self, challenge_id: str, challenger: str) -> bool:
        query = select(attempts.c.table_id).where(
            attempts.c.challenge_id == challenge_id, attempts.c.challenger == challenger
        )

        async def read() -> bool:
            async with self._connection() as conn:
                return (await conn.execute(query)).first() is not None

        return await self._again_if_dropped(read)

    async def add_attempt(self, challenge_id: str, challenger: str, table_id: str, at: float) -> None:
        # Not fenced: a challenge is no table's write (as its creation).
        row = {"challenge_id": challenge_id, "challenger": challenger, "table_id": table_id, "at": at}

        async def write(conn: AsyncConnection) -> None:
            await conn.execute(insert(attempts), row)

        await self._write(write)

    async def claim_analysis(self, table_id: str, claim: str, now: float, stale_before: float) -> bool:
        # Not fenced: an analysis is no table's write, and any node may compute one.
        params = {"table_id": table_id, "claim": claim, "now": now, "stale_before": stale_before}

        async def write(conn: AsyncConnection) -> bool:
            return bool((await conn.execute(CLAIM_ANALYSIS, params)).all())

        return await self._write(write)

    async def save_analysis(self, record: AnalysisRecord) -> bool:
        params = analysis_params(record)

        async def write(conn: AsyncConnection) -> bool:
            return (await conn.execute(SAVE_ANALYSIS, params)).rowcount == 1

        return await self._write(write)

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        # Fenced like every write of a table: only its owner, while its lease lasts.
        statement = chat_insert(chat, tables, table_id, line, *self._fence())
        trim = chat_trim(chat, table_id, line)

        async def write(conn: AsyncConnection) -> None:
            if not (await conn.execute(statement)).all():
                await self._why_not(conn, table_id)
            await conn.execute(trim)

        await self._write(write, transaction=True)  # the message and the trim, or neither

    def _fence(self) -> list[ColumnElement[bool]]:
        if self.node is None:
            return []
        live = exists().where(
            nodes.c.id == self.node,
            nodes.c.started_at == self._generation,
            nodes.c.lease_until > func.clock_timestamp(),
        )
        return [tables.c.owner == self.node, live]

    async def _why_not(
        self, conn: AsyncConnection, table_id: str, first_seq: int | None = None, missing_ok: bool = False
    ) -> None:
        """Raise for a write of ``table_id`` that matched no row: LookupError if there is no
        such table (unless ``missing_ok``), else :class:`LeaseLost` saying why."""
        params = {"id": table_id, "node": self.node, "generation": self._generation}
        found = (await conn.execute(text(_WHY_NOT), params)).first()
        if found is None:
            if missing_ok:
                return
            raise LookupError(f"no table {table_id!r}")
        owner, seq, live = found
        if owner != self.node:
            raise LeaseLost(f"table {table_id[:6]}: owned by {owner or 'no node'}, not this node {self.node}")
        if not live:
            raise LeaseLost(f"table {table_id[:6]}: the lease of this node {self.node} has run out")
        raise LeaseLost(
            f"table {table_id[:6]}: stored up to seq {seq}, this append starts at seq {first_seq}; "
            "another node wrote it"
        )

    # ------------------------------------------------------------------ reads

    async def load_table(self, table_id: str) -> StoredTable | None:
        # One snapshot for the queries: a table's row and its events from one commit.
        table_query, seats_query, events_query, chat_query = table_queries(table_id)

        async def read() -> StoredTable | None:
            async with self._connection("REPEATABLE READ") as conn:
                row = (await conn.execute(table_query)).mappings().first()
                if row is None:
                    return None
                return stored_table(
                    row,
                    (await conn.execute(seats_query)).mappings(),
                    (await conn.execute(events_query)).mappings(),
                    (await conn.execute(chat_query)).mappings(),
                )

        try:
            return await self._again_if_dropped(read)
        except (ValueError, TypeError, KeyError) as err:  # a JSON column that is not JSON, ...
            raise DamagedRecord(f"table {table_id}: {type(err).__name__}: {err}") from err

    async def ping(self) -> None:
        try:
            await self._rows("SELECT 1")
        except Exception:
            # The server is unreachable: the appends' idle connections may die with it, so each
            # is pinged before its next use (the first action after an outage is then stored,
            # not refused on a connection that died meanwhile).
            self._dropped_at = time.monotonic()
            raise

    async def unfinished(self) -> list[str]:
        # Neither over nor expired (a table nobody came back to is never recovered).  Tables
        # of one instant by id: PostgreSQL has no insertion order to fall back on.
        query = (
            select(tables.c.id)
            .where(tables.c.status.in_(("waiting", "playing")))
            .order_by(tables.c.created_at, tables.c.id)
        )
        async with self._connection() as conn:
            return list((await conn.execute(query)).scalars())

    async def load_challenge(self, challenge_id: str) -> ChallengeRecord | None:
        row = await self._first(select(challenges).where(challenges.c.id == challenge_id))
        return None if row is None else challenge_record(row)

    async def find_challenge(self, table_id: str, seat: int) -> ChallengeRecord | None:
        row = await self._first(
            select(challenges).where(challenges.c.table_id == table_id, challenges.c.seat == seat)
        )
        return None if row is None else challenge_record(row)

    async def _first(self, query: Any) -> RowMapping | None:
        async def run() -> RowMapping | None:
            async with self._connection() as conn:
                return (await conn.execute(query)).mappings().first()

        return await self._again_if_dropped(run)

    async def challenge_results(self, challenge: ChallengeRecord) -> list[ResultRow]:
        query = (
            select(
                tables.c.id, tables.c.status, tables.c.seq, tables.c.result, tables.c.created_at, seats.c.name
            )
            .join(seats, (seats.c.table_id == tables.c.id) & (seats.c.seat == challenge.seat))
            .where((tables.c.id == challenge.table) | (tables.c.challenge == challenge.id))
            .order_by(tables.c.created_at, tables.c.id)
        )
        async with self._connection() as conn:
            rows = list((await conn.execute(query)).mappings())
        found = [
            ResultRow(r["id"], r["status"], r["seq"], r["result"], r["name"], r["created_at"]) for r in rows
        ]
        # The source table first, whatever its age relative to the attempts.
        return sorted(found, key=lambda r: r.table != challenge.table)

    async def history(self, table_ids: list[str]) -> list[HistoryRow]:
        table_query, seats_query = history_queries(table_ids)

        async def read() -> list[HistoryRow]:
            async with self._connection("REPEATABLE READ") as conn:
                table_rows = list((await conn.execute(table_query)).mappings())
                seat_rows = list((await conn.execute(seats_query)).mappings())
            return history_rows(table_rows, seat_rows)

        return await self._again_if_dropped(read)

    async def challenges_from(self, table_id: str) -> list[ChallengeRecord]:
        query = challenges_from_query(table_id)

        async def read() -> list[ChallengeRecord]:
            async with self._connection() as conn:
                return [challenge_record(r) for r in (await conn.execute(query)).mappings()]

        return await self._again_if_dropped(read)

    async def load_analysis(self, table_id: str) -> AnalysisRecord | None:
        row = await self._first(select(analyses).where(analyses.c.table_id == table_id))
        return None if row is None else analysis_record(row)

    # ------------------------------------------------------------------ the cluster

    async def _check_if_idle(self, conn: psycopg.AsyncConnection[Any]) -> None:
        # As _ping_if_idle and the pool's invalidation for the engine's: a connection that sat
        # unused, or was given back before another one was found dead, may have died with the
        # server; raising here makes the pool drop it and hand out another.
        returned = self._returned.get(conn, float("-inf"))
        if time.monotonic() - returned >= IDLE_PING_S or returned <= self._dropped_at:
            await conn.execute("SELECT 1")

    async def _given_back(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self._returned[conn] = time.monotonic()

    @property
    def _node(self) -> str:
        if self.node is None:
            raise RuntimeError("cluster calls need a store made with node=...")
        return self.node

    async def register_node(self) -> None:
        """Enter this node with a fresh lease, as a new generation of its id (the id of a node
        whose lease is over may be taken again, e.g. after a restart or once :meth:`renew_node`
        failed); RuntimeError if another process holds the id with a live lease."""
        registered = await self._rows(_REGISTER, lease=True, node=self._node, seconds=self.lease_s)
        if not registered:
            raise RuntimeError(f"node id {self._node!r} is live already: another process has it")
        self._generation = registered[0][0]

    async def renew_node(self) -> bool:
        """Extend this node's lease by ``lease_s`` from now; False if it had run out already
        (this node's tables may be another's now: it must drop them)."""
        renewed = await self._run(
            _RENEW, lease=True, node=self._node, generation=self._generation, seconds=self.lease_s
        )
        return renewed == 1

    async def retire_node(self) -> None:
        """Leave (clean shutdown): this node's tables are orphans at once, for the others."""
        await self._run(
            "DELETE FROM nodes WHERE id = :node AND started_at = :generation",
            node=self._node,
            generation=self._generation,
        )

    async def live_nodes(self) -> set[str]:
        return {row[0] for row in await self._rows(_LIVE_NODES)}

    async def owner(self, table_id: str) -> str | None:
        """The node owning ``table_id`` if that node is live; None otherwise, or for no such table."""
        found = await self._rows(_OWNER, id=table_id)
        return found[0][0] if found else None

    async def claim(self, table_id: str) -> bool:
        """Own ``table_id`` unless a live node other than this one does (and only while this
        node is live); True iff this node owns it now."""
        return bool(await self._rows(_CLAIM, id=table_id, node=self._node, generation=self._generation))

    async def release(self, table_id: str) -> None:
        """Give up ``table_id`` (it leaves this node's memory): any node may claim it."""
        await self._run(
            "UPDATE tables SET owner = NULL WHERE id = :id AND owner = :node", id=table_id, node=self._node
        )

    async def claim_orphans(self, limit: int) -> list[str]:
        """Take up to ``limit`` unfinished tables whose owner is no longer live, oldest first;
        nodes calling this together never get the same table."""
        claimed = await self._rows(_CLAIM_ORPHANS, node=self._node, generation=self._generation, limit=limit)
        return [row[0] for row in claimed]

    async def forget_nodes(self, dead_for_s: float) -> int:
        """Delete the rows of nodes whose lease ended over ``dead_for_s`` seconds ago (a node
        gone is one whose row is missing or expired: nothing changes for the others); how many."""
        return await self._run(
            "DELETE FROM nodes WHERE lease_until < clock_timestamp() - :dead * interval '1 second'",
            dead=dead_for_s,
        )


#: A pooled connection idle for longer is pinged before use: it may have died with the server
#: meanwhile (PostgreSQL restarted), and is then replaced, so the store recovers by itself.
IDLE_PING_S = 2.0


def psycopg_sql(sql: str) -> bytes:
    """``sql`` with SQLAlchemy's ``:name`` parameters written as psycopg's ``%(name)s``.

    >>> psycopg_sql("SELECT :a, CAST(:b AS json) WHERE x = :a")
    b'SELECT %(a)s, CAST(%(b)s AS json) WHERE x = %(a)s'
    """
    return re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", sql).encode()


def libpq_url(url: URL) -> str:
    """The libpq connection URL of ``url`` (password included: it is given to libpq only).

    >>> libpq_url(engine_url("postgres://ama:s%40cret@db.example:5433/room?sslmode=require"))
    'postgresql://ama:s%40cret@db.example:5433/room?sslmode=require'
    """
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _idle_from(_dbapi: Any, record: Any) -> None:
    record.info["idle_since"] = time.monotonic()


def _ping_if_idle(dbapi: Any, record: Any, _proxy: Any) -> None:
    since = record.info.get("idle_since")
    if since is None or time.monotonic() - since < IDLE_PING_S:
        return
    try:
        cursor = dbapi.cursor()
        cursor.execute("SELECT 1")
        cursor.close()
    except Exception as err:
        # The pool drops this connection and checks out another (a new one if need be).
        raise exc.DisconnectionError(f"a pooled connection died: {type(err).__name__}") from err


def engine_url(url: str) -> URL:
    """SQLAlchemy's URL for psycopg from a user's ``postgresql://`` (or ``postgres://``) URL.

    >>> engine_url("postgresql://ama:secret@db.example:5433/room").render_as_string(hide_password=True)
    'postgresql+psycopg://ama:***@db.example:5433/room'
    >>> engine_url("mysql://db/room")
    Traceback (most recent call last):
    ...
    bistrot.server.storage.StoreUnusable: the database URL must be postgresql://USER@HOST:PORT/DB, not mysql://...
    """
    try:
        parsed = make_url(url)
    except (exc.ArgumentError, ValueError):
        raise StoreUnusable("the database URL is not one: give postgresql://USER@HOST:PORT/DB") from None
    if parsed.drivername not in ("postgresql", "postgres", "postgresql+psycopg"):
        raise StoreUnusable(
            f"the database URL must be postgresql://USER@HOST:PORT/DB, not {parsed.drivername}://..."
        )
    return parsed.set(drivername="postgresql+psycopg")


def check_postgres(url: str, exclusive: bool = True) -> str:
    """Open the database at ``url`` as a server would (schema migrated; if ``exclusive``, as the
    only server on it: lock taken), close it again, and say where it is; :class:`StoreUnusable`
    if it cannot be used."""
    store = PostgresStorage(url, exclusive=exclusive, pool_size=1)

    async def check() -> None:
        await store.start()
        await store.close()

    asyncio.run(check())
    return f"PostgreSQL {describe(engine_url(url))}"


def describe(url: URL) -> str:
    """Where ``url`` leads, for messages: host, port and database, never the password.

    >>> describe(engine_url("postgresql://ama:secret@db.example/room"))
    'at db.example:5432, database room'
    """
    host = url.host or url.query.get("host") or "localhost"
    return f"at {host}:{url.port or 5432}, database {url.database}"


def connect_args(url: URL) -> dict[str, Any]:
    """libpq's parameters for every connection: bounded waits, our name in pg_stat_activity.

    >>> connect_args(engine_url("postgresql://h/db?options=-c%20work_mem%3D8MB"))["options"]
    '-c work_mem=8MB -c statement_timeout=10000'
    """
    options = url.query.get("options")
    ours = f"-c statement_timeout={STATEMENT_TIMEOUT_S * 1000}"
    return {
        "connect_timeout": CONNECT_TIMEOUT_S,
        "options": f"{options} {ours}" if isinstance(options, str) else ours,
        "application_name": url.query.get("application_name", "bistrot"),
        # A server that stops answering mid-statement (cut off, not down) fails the statement
        # in these milliseconds, where TCP alone would keep retrying for many minutes.
        "tcp_user_timeout": STATEMENT_TIMEOUT_S * 1000,
    }


def _first_line(err: BaseException) -> str:
    cause = getattr(err, "orig", None) or err
    return " ".join(str(cause).split("\n")[0].split()) or type(cause).__name__
