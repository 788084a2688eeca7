"""The SQLite store: SQLAlchemy Core over one WAL database file, with group commit.

Writes go to a single writer thread, which takes every write waiting, runs them in one
transaction and commits once (``synchronous=FULL``: the commit is on disk before anyone is
told), then wakes each caller.  Under load many tables share one commit, so the event loop
never blocks on the disk and throughput does not pay one fsync per action.  Reads run in the
default thread pool on their own connections (WAL lets them run beside the writer).

>>> import asyncio, tempfile, os
>>> async def demo(path):
...     store = SQLiteStorage(path)
...     await store.start()
...     table = TableRecord("t1", "omi", "computer", {}, 42, "easy", 0, 30.0, "playing", None, "w", 0.0)
...     seats = [SeatRecord(0, "human", token_hash="h"), SeatRecord(1, "computer", "easy")]
...     await store.create_table(table, seats)
...     await store.append("t1", [EventRecord(1, 0, "trump H", "human", '"a"', 1.0)], "playing", None)
...     loaded = await store.load_table("t1")
...     await store.close()
...     return loaded.table.seq, [e.action for e in loaded.events]
>>> with tempfile.TemporaryDirectory() as d:
...     asyncio.run(demo(os.path.join(d, "room.db")))
(1, ['trump H'])
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    create_engine,
    event,
    exc,
    select,
    update,
)
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.schema import CreateColumn, CreateIndex

from bistrot.server.metrics import LatencyWindow
from bistrot.server.schema import (
    CLAIM_ANALYSIS,
    SAVE_ANALYSIS,
    analyses,
    analysis_params,
    analysis_record,
    attempts,
    challenge_record,
    challenge_row,
    challenges,
    challenges_from_query,
    chat,
    chat_insert,
    chat_trim,
    history_queries,
    history_rows,
    metadata,
    presence_values,
    seat_row,
    seats,
    stored_table,
    table_queries,
    table_row,
    tables,
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
    PresenceRecord,
    ResultRow,
    SeatRecord,
    StoredTable,
    StoreUnusable,
    TableRecord,
    WriteFaults,
)

log = logging.getLogger("bistrot.server.storage")

#: ``PRAGMA application_id`` of our files ("bist"): tells a bistrot database from another
#: program's.  Files made before it was set have our tables and 0; they get it on their next start.
APPLICATION_ID = 0x62697374

Write = Callable[[Connection], None]
T = TypeVar("T")
_INSERT_EVENTS = (
    "INSERT INTO events (table_id, seq, actor, action, by, client_id, time) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_ADVANCE_TABLE = (
    "UPDATE tables SET seq = ?, status = ?, updated_at = ?, result = coalesce(?, result) WHERE id = ?"
)
_STOP = object()
#: How long a statement waits for a lock another connection holds.
BUSY_TIMEOUT_MS = 5000
_TRUNCATE = object()  # asks the writer thread for a TRUNCATE checkpoint between two commits


class SQLiteStorage:
    """:class:`~bistrot.server.storage.Storage` on one SQLite file; see the module docstring."""

    def __init__(
        self,
        path: str | Path,
        synchronous: str = "FULL",
        batch_max: int = 1000,
        checkpoint_every_s: float = 1.0,
        inline: bool = False,
        wal_max_bytes: int = 64 * 2**20,
    ) -> None:
        self.path = Path(path)
        self.wal_max_bytes = wal_max_bytes
        self._truncating = threading.Event()  # a _TRUNCATE is waiting in the writer's queue
        self.synchronous = synchronous
        self.inline = inline
        self._inline_conn: Connection | None = None
        self.batch_max = batch_max
        self.checkpoint_every_s = checkpoint_every_s
        self._stopping = threading.Event()
        self._checkpointer: threading.Thread | None = None
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._engine: Engine | None = None
        self._writer: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Commits and writes so far (writes / commits is the mean batch size), and the last
        #: commit times in seconds.
        self.commits = 0
        self.writes = 0
        self.faults = WriteFaults(log)
        self.commit_times = LatencyWindow()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Check the file (:func:`check_database`), then open it; :class:`StoreUnusable` if it
        cannot be used."""
        self._loop = asyncio.get_running_loop()
        await asyncio.to_thread(check_database, self.path)
        engine = create_engine(
            f"sqlite+pysqlite:///{self.path}",
            pool_size=4,
            max_overflow=4,
            hide_parameters=True,  # failed writes are logged: never a table's seed in them
        )
        synchronous = self.synchronous

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            # Checkpoints run in their own thread (below), never inside a commit.
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        try:
            await asyncio.to_thread(metadata.create_all, engine)
        except exc.DBAPIError as err:  # say, the folder refuses the WAL's files
            engine.dispose()
            raise StoreUnusable(
                f"{self.path}: cannot be opened ({err.orig}); check its permissions and its folder's"
            ) from None
        self._engine = engine
        self._stopping.clear()
        if self.inline:
            self._inline_conn = engine.connect()
        else:
            self._writer = threading.Thread(
                target=self._write_loop, name="bistrot-sqlite-writer", daemon=True
            )
            self._writer.start()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, name="bistrot-sqlite-checkpoint", daemon=True
        )
        self._checkpointer.start()

    async def close(self) -> None:
        self._stopping.set()
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.join)
            self._checkpointer = None
        if self._writer is not None:
            self._queue.put(_STOP)
            await asyncio.to_thread(self._writer.join)
            self._writer = None
        if self._inline_conn is not None:
            self._inline_conn.close()
            self._inline_conn = None
        if self._engine is not None:
            await asyncio.to_thread(self._checkpoint, "TRUNCATE")
            self._engine.dispose()
            self._engine = None

    def stats(self) -> dict[str, float]:
        """Commits, writes, mean batch and commit time (ms, median and 99th percentile of the
        last 2000 commits): what /healthz shows of the store."""
        return {
            "commits": self.commits,
            "writes": self.writes,
            "mean_batch": round(self.writes / self.commits, 2) if self.commits else 0.0,
            "commit_ms_p50": self.commit_times.percentile_ms(0.5),
            "commit_ms_p99": self.commit_times.percentile_ms(0.99),
            "failed_writes": self.faults.failed,
        }

    # ------------------------------------------------------------------ checkpoints

    def _checkpoint(self, mode: str) -> None:
        assert self._engine is not None
        with self._engine.connect() as conn:
            # Without waiting: a TRUNCATE that waits for a reader holds every writer back
            # meanwhile, and a write held past its own busy timeout fails ("database is
            # locked").  Busy now, it is tried again next round.
            conn.exec_driver_sql("PRAGMA busy_timeout=0")
            try:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
            finally:
                conn.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    def wal_bytes(self) -> int:
        """The size of the WAL file now (0 if there is none)."""
        try:
            return os.path.getsize(f"{self.path}-wal")
        except OSError:
            return 0

    def _truncate(self, conn: Connection) -> None:
        # On the writer's own connection, between commits: no writer to wait for, only readers.
        self._truncating.clear()
        try:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.commit()
        except Exception:
            conn.rollback()
            log.exception("a WAL checkpoint failed")

    def _checkpoint_loop(self) -> None:
        # Copying the WAL into the database (and syncing it) can take long on a busy disk; done
        # here, PASSIVE, it never holds up a commit.  But SQLite never shrinks the WAL file: it
        # stays as large as the longest stretch a reader kept it from being reused (280 MB for
        # a 5 MB database once).  So once writes stop for a round, or once it is over
        # wal_max_bytes, a TRUNCATE checkpoint empties it; TRUNCATE waits for readers while
        # holding writers back, which is why it is kept for those moments.
        # Under steady writes the checkpoint never catches up with the writer, so the WAL only
        # grows: past wal_max_bytes the writer thread itself truncates it between two commits
        # (writes wait for that copy, once per wal_max_bytes written).
        commits = self.commits
        while not self._stopping.wait(self.checkpoint_every_s):
            quiet, commits = self.commits == commits, self.commits
            size = self.wal_bytes()
            try:
                if size > self.wal_max_bytes and self._writer is not None:
                    if not self._truncating.is_set():
                        self._truncating.set()
                        self._queue.put(_TRUNCATE)
                else:
                    over = size > self.wal_max_bytes
                    self._checkpoint("TRUNCATE" if size and (quiet or over) else "PASSIVE")
            except Exception:
                log.exception("a WAL checkpoint failed")

    # ------------------------------------------------------------------ the writer

    def _write(self, write: Write) -> asyncio.Future[None]:
        if self._loop is None or (self._writer is None and self._inline_conn is None):
            raise RuntimeError("the store is not open")
        future: asyncio.Future[None] = self._loop.create_future()
        if self._inline_conn is not None:  # commit here and now, on the event loop's thread
            _settle(self._commit(self._inline_conn, [(write, future)]))
        else:
            self._queue.put((write, future))
        return future

    def _write_loop(self) -> None:
        assert self._engine is not None and self._loop is not None
        loop = self._loop
        with self._engine.connect() as conn:
            stopping = False
            while not stopping:
                item = self._queue.get()
                if item is _STOP:
                    break
                batch = [] if item is _TRUNCATE else [item]
                truncate = item is _TRUNCATE
                while batch and len(batch) < self.batch_max:
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if item is _STOP or item is _TRUNCATE:
                        stopping, truncate = item is _STOP, item is _TRUNCATE
                        break
                    batch.append(item)
                if batch:
                    outcomes = self._commit(conn, batch)
                    loop.call_soon_threadsafe(_settle, outcomes)
                if truncate:
                    self._truncate(conn)

    def _commit(
        self, conn: Connection, batch: list[Any]
    ) -> list[tuple[asyncio.Future[None], BaseException | None]]:
        try:
            started = time.perf_counter()
            with conn.begin():
                for write, _ in batch:
                    write(conn)
            self.commit_times.record(time.perf_counter() - started)
            self.commits += 1
            self.writes += len(batch)
            self.faults.wrote()
            return [(future, None) for _, future in batch]
        except Exception as err:
            if len(batch) == 1:
                if not self.faults.failed_write(err):
                    log.exception("a write failed")
                return [(batch[0][1], _failed())]
        # One write spoiled the batch: commit the others one by one so only it fails.
        outcomes: list[tuple[asyncio.Future[None], BaseException | None]] = []
        for item in batch:
            outcomes.extend(self._commit(conn, [item]))
        return outcomes

    # ------------------------------------------------------------------ writes

    async def create_table(
        self, table: TableRecord, seat_records: list[SeatRecord], claim: Claim | None = None
    ) -> bool:
        row = table_row(table)
        stored = []

        def write(conn: Connection) -> None:
            if claim is not None and not claim(conn):
                return
            stored.append(True)
            conn.execute(tables.insert(), row)
            conn.execute(seats.insert(), [seat_row(table.id, s) for s in seat_records])
            if table.rematch_of is not None:
                conn.execute(update(tables).where(tables.c.id == table.rematch_of).values(rematch=table.id))

        await self._write(write)
        return bool(stored)

    async def append(
        self,
        table_id: str,
        event_records: list[EventRecord],
        status: str,
        result: dict[str, Any] | None,
        then: InTransaction | None = None,
    ) -> None:
        # The hot path: plain SQL through the driver, so the writer spends its time in SQLite.
        rows = [(table_id, e.seq, e.actor, e.action, e.by, e.client_id, e.time) for e in event_records]
        update_row = (
            event_records[-1].seq,
            status,
            time.time(),
            None if result is None else json.dumps(result),
            table_id,
        )

        def write(conn: Connection) -> None:
            conn.exec_driver_sql(_INSERT_EVENTS, rows)
            if conn.exec_driver_sql(_ADVANCE_TABLE, update_row).rowcount != 1:
                raise LookupError(f"no table {table_id!r}")  # else its events would be orphans
            if then is not None:
                then(conn)

        await self._write(write)

    async def save_seats(self, table_id: str, seat_records: list[SeatRecord], status: str) -> None:
        def write(conn: Connection) -> None:
            for s in seat_records:
                conn.execute(
                    update(seats)
                    .where(seats.c.table_id == table_id, seats.c.seat == s.seat)
                    .values(
                        kind=s.kind, level=s.level, token_hash=s.token_hash, name=s.name, hints=s.hints,
                        profile=s.profile,
                    )
                )
            moved = conn.execute(
                update(tables).where(tables.c.id == table_id).values(status=status, updated_at=time.time())
            )
            if moved.rowcount != 1:
                raise LookupError(f"no table {table_id!r}")

        await self._write(write)

    async def save_presence(self, table_id: str, presence: list[PresenceRecord]) -> None:
        there = select(tables.c.id).where(tables.c.id == table_id)

        def write(conn: Connection) -> None:
            if conn.execute(there).first() is None:
                raise LookupError(f"no table {table_id!r}")
            for p in presence:
                where = (seats.c.table_id == table_id, seats.c.seat == p.seat)
                conn.execute(update(seats).where(*where).values(presence_values(p)))

        await self._write(write)

    async def create_challenge(self, challenge: ChallengeRecord) -> None:
        row = challenge_row(challenge)

        def write(conn: Connection) -> None:
            conn.execute(challenges.insert(), row)

        await self._write(write)

    async def attempted(self, challenge_id: str, challenger: str) -> bool:
        query = select(attempts.c.table_id).where(
            attempts.c.challenge_id == challenge_id, attempts.c.challenger == challenger
        )
        return await self._read(lambda conn: conn.execute(query).first() is not None)

    async def add_attempt(self, challenge_id: str, challenger: str, table_id: str, at: float) -> None:
        row = {"challenge_id": challenge_id, "challenger": challenger, "table_id": table_id, "at": at}

        def write(conn: Connection) -> None:
            conn.execute(attempts.insert(), row)

        await self._write(write)

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        statement = chat_insert(chat, tables, table_id, line)
        trim = chat_trim(chat, table_id, line)

        def write(conn: Connection) -> None:
            if not conn.execute(statement).all():
                raise LookupError(f"no table {table_id!r}")
            conn.execute(trim)

        await self._write(write)

    async def claim_analysis(self, table_id: str, claim: str, now: float, stale_before: float) -> bool:
        taken: list[bool] = []
        params = {"table_id": table_id, "claim": claim, "now": now, "stale_before": stale_before}

        def write(conn: Connection) -> None:
            taken.append(bool(conn.execute(CLAIM_ANALYSIS, params).all()))

        await self._write(write)
        return taken[0]

    async def save_analysis(self, record: AnalysisRecord) -> bool:
        saved: list[bool] = []
        params = analysis_params(record)

        def write(conn: Connection) -> None:
            saved.append(conn.execute(SAVE_ANALYSIS, params).rowcount == 1)

        await self._write(write)
        return saved[0]

    async def transaction(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one write transaction (committed before this returns) and give its
        answer: how modules beside the tables' (profiles, ratings: :mod:`bistrot.server.players`)
        write their rows with SQL written once for every store."""
        answer: list[T] = []

        def write(conn: Connection) -> None:
            answer.append(work(conn))

        await self._write(write)
        return answer[0]

    async def snapshot(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` on one consistent read of the store and give its answer."""
        return await self._read(work)

    # ------------------------------------------------------------------ reads

    async def _read(self, fn: Callable[[Connection], T]) -> T:
        if self._engine is None:
            raise RuntimeError("the store is not open")
        engine = self._engine

        def run() -> T:
            with engine.connect() as conn:
                # One snapshot for every SELECT of the read: pysqlite opens no transaction for
                # reads, so without this a table's row and its events could come from different
                # commits (seq 20 with 25 events).  Closing the connection rolls it back.
                conn.exec_driver_sql("BEGIN")
                return fn(conn)

        return await asyncio.to_thread(run)

    async def load_table(self, table_id: str) -> StoredTable | None:
        table_query, seats_query, events_query, chat_query = table_queries(table_id)

        def read(conn: Connection) -> StoredTable | None:
            row = conn.execute(table_query).mappings().first()
            if row is None:
                return None
            return stored_table(
                row,
                conn.execute(seats_query).mappings(),
                conn.execute(events_query).mappings(),
                conn.execute(chat_query).mappings(),
            )

        try:
            return await self._read(read)
        except (ValueError, TypeError, KeyError) as err:  # a JSON column that is not JSON, ...
            raise DamagedRecord(f"table {table_id}: {type(err).__name__}: {err}") from err

    async def ping(self) -> None:
        await self._read(lambda conn: conn.execute(select(tables.c.id).limit(1)).first())

    async def unfinished(self) -> list[str]:
        # Neither over nor expired (a table nobody came back to is never recovered).
        unfinished = tables.c.status.in_(("waiting", "playing"))
        query = select(tables.c.id).where(unfinished).order_by(tables.c.created_at)
        return await self._read(lambda conn: list(conn.execute(query).scalars()))

    async def load_challenge(self, challenge_id: str) -> ChallengeRecord | None:
        query = select(challenges).where(challenges.c.id == challenge_id)
        row = await self._read(lambda conn: conn.execute(query).mappings().first())
        return None if row is None else challenge_record(row)

    async def find_challenge(self, table_id: str, seat: int) -> ChallengeRecord | None:
        query = select(challenges).where(challenges.c.table_id == table_id, challenges.c.seat == seat)
        row = await self._read(lambda conn: conn.execute(query).mappings().first())
        return None if row is None else challenge_record(row)

    async def challenge_results(self, challenge: ChallengeRecord) -> list[ResultRow]:
        query = (
            select(
                tables.c.id, tables.c.status, tables.c.seq, tables.c.result, tables.c.created_at, seats.c.name
            )
            .join(seats, (seats.c.table_id == tables.c.id) & (seats.c.seat == challenge.seat))
            .where((tables.c.id == challenge.table) | (tables.c.challenge == challenge.id))
            .order_by(tables.c.created_at)
        )
        rows = await self._read(lambda conn: list(conn.execute(query).mappings()))
        found = [
            ResultRow(r["id"], r["status"], r["seq"], r["result"], r["name"], r["created_at"]) for r in rows
        ]
        # The source table first, whatever its age relative to the attempts.
        return sorted(found, key=lambda r: r.table != challenge.table)


    async def history(self, table_ids: list[str]) -> list[HistoryRow]:
        table_query, seats_query = history_queries(table_ids)

        def read(conn: Connection) -> list[HistoryRow]:
            return history_rows(conn.execute(table_query).mappings(), conn.execute(seats_query).mappings())

        return await self._read(read)

    async def challenges_from(self, table_id: str) -> list[ChallengeRecord]:
        query = challenges_from_query(table_id)
        rows = await self._read(lambda conn: list(conn.execute(query).mappings()))
        return [challenge_record(r) for r in rows]

    async def load_analysis(self, table_id: str) -> AnalysisRecord | None:
        query = select(analyses).where(analyses.c.table_id == table_id)
        row = await self._read(lambda conn: conn.execute(query).mappings().first())
        return None if row is None else analysis_record(row)


_MOVE_AWAY = "move this one away to start an empty room"
_ADVICE = f"give another --db (BISTROT_DB) file, or {_MOVE_AWAY}"
_DAMAGED_ADVICE = f"restore it from a backup, or {_MOVE_AWAY}"


def check_database(path: str | Path) -> None:
    """Refuse, with :class:`~bistrot.server.storage.StoreUnusable` and one line saying what is
    wrong and what to do, a file that is not a sound bistrot database we can write: not a
    database, damaged (``PRAGMA quick_check``), another program's (its ``application_id``, or
    tables but not ours), our tables lacking columns, read-only.  A new or empty file, and ours
    made before the id existed, get :data:`APPLICATION_ID`.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     text = os.path.join(d, "notes.txt")
    ...     with open(text, "w") as f:
    ...         _ = f.write("shopping list" * 100)
    ...     try:
    ...         check_database(text)
    ...     except StoreUnusable as err:
    ...         print(str(err).replace(d, "D").split(";")[0])
    D/notes.txt: is not a SQLite database (file is not a database)
    """
    path = Path(path)
    if path.is_dir():
        raise StoreUnusable(f"{path}: is a folder, not a database file; give a file path with --db")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=5.0, isolation_level=None)
    except (OSError, sqlite3.Error) as err:
        raise StoreUnusable(
            f"{path}: cannot be opened or created ({err}); check the path and its permissions"
        ) from None
    try:
        _check_open_database(conn, path)
    except sqlite3.DatabaseError as err:
        # "file is not a database" for a text file or random bytes; "malformed" for a damaged
        # one; OperationalError for a file we may not write, or one locked too long
        if isinstance(err, sqlite3.OperationalError):
            problem = f"cannot be read or written ({err}); check its permissions and its folder's"
        elif "malformed" in str(err):
            problem = f"is damaged ({err}); {_DAMAGED_ADVICE}"
        else:
            problem = f"is not a SQLite database ({err}); {_ADVICE}"
        raise StoreUnusable(f"{path}: {problem}") from None
    finally:
        conn.close()


def _check_open_database(conn: sqlite3.Connection, path: Path) -> None:
    problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        first = " ".join(str(problems[0]).split())
        raise StoreUnusable(f"{path}: is damaged (quick_check: {first}); {_DAMAGED_ADVICE}")
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    found = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    ours = set(metadata.tables)
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and found and not ours <= found):
        named = f"application_id {app_id:#x}" if app_id else f"tables {', '.join(sorted(found)[:5])}"
        raise StoreUnusable(f"{path}: is another program's SQLite database ({named}); {_ADVICE}")
    added = []
    for name in sorted(ours & found):
        have = {row[1] for row in conn.execute(f'PRAGMA table_info("{name}")')}
        missing = [c for c in metadata.tables[name].columns if c.name not in have]
        if any(c.server_default is None and not c.nullable for c in missing):
            raise StoreUnusable(
                f"{path}: its table {name} lacks the columns {', '.join(c.name for c in missing)}, so "
                f"another version of bistrot made it; use that version, or {_MOVE_AWAY}"
            )
        # A column a later version added (with a default, so every row has a value): added here,
        # as migration 0003 does for PostgreSQL.
        added += [f'ALTER TABLE "{name}" ADD COLUMN {column_ddl(c)}' for c in missing]
        # ... with the indexes of those columns (create_all adds none to a table that exists).
        added += [
            str(CreateIndex(index, if_not_exists=True).compile(dialect=sqlite_dialect()))
            for index in metadata.tables[name].indexes
            if any(c in missing for c in index.columns)
        ]
    if added:
        conn.execute("BEGIN")
        for statement in added:
            conn.execute(statement)
        conn.execute("COMMIT")
    # Marks a new file, or one of ours made before the id; and proves, every start, that the
    # file can be written before the server says it is up.
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def column_ddl(column: Column[Any]) -> str:
    """A column's definition as SQLite's ``ALTER TABLE ... ADD COLUMN`` takes it.

    >>> from bistrot.server.schema import seats
    >>> column_ddl(seats.c.hints)
    "hints INTEGER DEFAULT '0' NOT NULL"
    """
    return str(CreateColumn(column).compile(dialect=sqlite_dialect()))


def _settle(outcomes: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for future, error in outcomes:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


def _failed() -> BaseException:
    return RuntimeError("the database refused the write")
