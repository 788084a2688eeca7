"""The small interface every store of the card room implements.

A store must make each call durable before its awaitable returns: the table actor acknowledges
an action only after :meth:`Storage.append` has returned.  The records it keeps are the table
core's (:mod:`bistrot.tablecore.records`).  :class:`~bistrot.server.sqlite.SQLiteStorage` and
:class:`~bistrot.server.postgres.PostgresStorage` are the implementations shipped;
tests/server/test_storage_contract.py is what each must pass.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, exc

from bistrot.tablecore.records import (
    AnalysisRecord,
    ChallengeRecord,
    ChatLine,
    EventRecord,
    HistoryRow,
    PresenceRecord,
    ResultRow,
    SeatRecord,
    StoredTable,
    TableRecord,
    new_secret,
    secret_hash,
)

__all__ = [
    "AnalysisRecord",
    "ChallengeRecord",
    "ChatLine",
    "DamagedRecord",
    "EventRecord",
    "HistoryRow",
    "LeaseLost",
    "PresenceRecord",
    "ResultRow",
    "SeatRecord",
    "Storage",
    "StoreUnusable",
    "StoredTable",
    "TableRecord",
    "WriteFaults",
    "new_secret",
    "secret_hash",
]

T = TypeVar("T")


InTransaction = Callable[[Connection], None]
"""More work to do in a write's own transaction, on its connection (a finished game's rating)."""

Claim = Callable[[Connection], bool]
"""A condition checked in a write's own transaction, before the write: False leaves everything
as it was (a club event's board claimed by another request first)."""

class StoreUnusable(Exception):
    """The store cannot be used at all (not a database, damaged, another program's, not
    writable): its message is one line saying what is wrong with which file and what to do."""


class DamagedRecord(Exception):
    """A stored table's rows cannot be read as records (say, its rules are not JSON): that
    table is damaged, the store itself works."""


def database_fault(err: BaseException) -> str | None:
    """One line saying what failed if ``err`` (or what it wraps) is the database's own failure:
    damaged, full, read-only, gone.  None for a write refused for what it writes (a key stored
    already, a table that is not there): the store itself works.

    >>> database_fault(LookupError("no table 'x'")) is None
    True
    """
    for found in (err, err.__cause__):
        if isinstance(found, exc.DBAPIError) and not isinstance(found, exc.IntegrityError):
            return str(found.orig).splitlines()[0] if found.orig is not None else type(found).__name__
    return None


def connection_lost(err: BaseException) -> bool:
    """Whether ``err`` (or what it wraps) says the connection to the database died under the
    call (the server restarted or went away), not that the database refused it.

    >>> connection_lost(exc.OperationalError("UPDATE", {}, OSError("gone"), connection_invalidated=True))
    True
    """
    causes = (err, err.__cause__)
    return any(isinstance(found, exc.DBAPIError) and found.connection_invalidated for found in causes)


class WriteFaults:
    """Whether a store takes writes, for ``/healthz``: after a write fails for the database
    itself (:func:`database_fault`), :attr:`fault` says why until a write goes through again.
    Such a failure is logged once, with its traceback, at the start of a streak; the next ones
    in one line each."""

    def __init__(self, log: logging.Logger) -> None:
        self.log = log
        self.failed = 0
        """Writes that failed for the database itself since start."""
        self.fault: str | None = None

    def wrote(self) -> None:
        """A write went through."""
        if self.fault is not None:
            self.log.warning("the database takes writes again")
            self.fault = None

    def failed_write(self, err: BaseException) -> bool:
        """A write failed with ``err``: whether for the database itself (then counted, and
        logged here; the caller logs any other failure)."""
        fault = database_fault(err)
        if fault is None:
            return False
        self.failed += 1
        if connection_lost(err):
            # Its connection died (the server restarted, or went away): the store could not be
            # reached, which /healthz's read tells, and not that it refuses writes. Held as a
            # fault, it outlived the outage until some write went through: a quiet node said
            # 503 long after its database was back.
            self.log.warning("a write failed: its connection to the database was lost: %s", fault)
            return True
        if self.fault is None:
            self.log.error("the database refuses writes: %s", fault, exc_info=err)
        else:
            self.log.warning("a write failed: the database still refuses writes: %s", fault)
        self.fault = fault
        return True


class LeaseLost(Exception):
    """This node does not own the table with a live lease: nothing was written.  (Cluster mode
    of :class:`~bistrot.server.postgres.PostgresStorage`; also raised when the table moved on
    under another owner, so this node's copy of it is stale.)"""


class Storage(Protocol):
    """The durable side of the room.  Every write is committed when its awaitable returns."""

    async def start(self) -> None:
        """Open (and create if needed) the store; :class:`StoreUnusable` if it cannot be used."""
        ...

    async def close(self) -> None:
        """Finish pending writes and close."""
        ...

    async def create_table(
        self, table: TableRecord, seats: list[SeatRecord], claim: Claim | None = None
    ) -> bool:
        """Store a new table; if ``table.rematch_of`` is set, mark that table's rematch in the
        same transaction.  With a ``claim``, run first in that transaction, the table is stored
        only if it answers True; whether it was stored."""
        ...

    async def append(
        self,
        table_id: str,
        events: list[EventRecord],
        status: str,
        result: dict[str, Any] | None,
        then: InTransaction | None = None,
    ) -> None:
        """Append events and move the table to their last seq and ``status``, atomically; with
        ``then`` (a finished game's rating), in the same transaction as the append."""
        ...

    async def save_seats(self, table_id: str, seats: list[SeatRecord], status: str) -> None:
        """Replace the given seats' records and set the table's status, atomically."""
        ...

    async def save_presence(self, table_id: str, presence: list[PresenceRecord]) -> None:
        """Replace the given seats' presence (away, or when a grace period ends), which
        :meth:`load_table` gives back in :attr:`StoredTable.presence`.  Fenced as every write of
        a table, but nothing else of it changes (not its ``updated_at``: nobody moved)."""
        ...

    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        """Store one chat message of a table (numbered ``line.n``, after the stored ones)."""
        ...

    async def create_challenge(self, challenge: ChallengeRecord) -> None:
        """Store a new challenge."""
        ...

    async def attempted(self, challenge_id: str, challenger: str) -> bool:
        """Whether ``challenger`` (an opaque key) has opened a table of the challenge."""
        ...

    async def add_attempt(self, challenge_id: str, challenger: str, table_id: str, at: float) -> None:
        """Remember that ``challenger`` opened ``table_id`` from the challenge (refused, as any
        write, if it did already)."""
        ...

    async def load_table(self, table_id: str) -> StoredTable | None:
        """A table with its seats, events and last chat messages (:data:`~bistrot.tablecore.chat.
        KEPT`), or None; :class:`DamagedRecord` if its rows cannot be read as records."""
        ...

    async def unfinished(self) -> list[str]:
        """Ids of every table still waiting or playing (not over, not expired), oldest first (to
        recover on start)."""
        ...

    async def ping(self) -> None:
        """Read something from the store (for ``/healthz``); raise if it cannot be reached."""
        ...

    async def load_challenge(self, challenge_id: str) -> ChallengeRecord | None:
        """A challenge, or None."""
        ...

    async def find_challenge(self, table_id: str, seat: int) -> ChallengeRecord | None:
        """The challenge already made from ``seat`` of ``table``, if any."""
        ...

    async def challenge_results(self, challenge: ChallengeRecord) -> list[ResultRow]:
        """The source table then every table opened from the challenge, oldest first."""
        ...

    async def history(self, table_ids: list[str]) -> list[HistoryRow]:
        """The finished tables among ``table_ids`` (at most the first
        :data:`~bistrot.server.schema.HISTORY_MAX`; unknown ids and unfinished tables are left
        out) with their seats, the latest ended first."""
        ...

    async def challenges_from(self, table_id: str) -> list[ChallengeRecord]:
        """The challenges made on the deal of ``table_id`` (from any of its seats), by seat."""
        ...

    async def claim_analysis(self, table_id: str, claim: str, now: float, stale_before: float) -> bool:
        """Take the job of analysing ``table_id`` as ``claim`` (at ``now``): True if there was no
        analysis of it, or one not done whose last sign of life is older than ``stale_before``
        (its row is then reset to ``queued``); False otherwise (another job has it, or it is done)."""
        ...

    async def save_analysis(self, record: AnalysisRecord) -> bool:
        """Store where the job ``record.claim`` stands; False (nothing written) if another job
        has taken the row since."""
        ...

    async def load_analysis(self, table_id: str) -> AnalysisRecord | None:
        """The analysis of ``table_id`` as stored, or None."""
        ...

    async def transaction(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` (SQL written once for every store: profiles, ratings) in one write
        transaction, committed before this returns; its answer."""
        ...

    async def snapshot(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` on one consistent read of the store; its answer."""
        ...
