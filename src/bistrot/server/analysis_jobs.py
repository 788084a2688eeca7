"""Analyses of finished games (:mod:`bistrot.analysis`), computed away from the event loop, once
per game, and stored.

``POST /api/tables/{id}/analysis`` asks for one: the job is claimed in the store
(:meth:`~bistrot.server.storage.Storage.claim_analysis`: one job per table, whichever node is
asked), then queued on this node's analysis pool, processes of its own, so an analysis (seconds
to a minute) never holds up a computer's move.  The worker reports each decision judged through
a queue; the node stores where the job stands at most every ``beat_s``, and at least every
``stale_s / 3`` while it is queued, so ``GET`` on any node says how far it is.  A job whose node
died stops showing signs of life: after ``stale_s`` the next request claims it again.

A node queues at most ``queue_max`` jobs; beyond, ``analysis_busy`` (503, ``Retry-After``).
Asking needs no token (a finished game's analysis is as public as its record), so two limits
keep strangers from filling the queue: one client address holds at most ``per_client`` jobs
(``too_many_analyses``, 429), and a caller who is not one of the game's players (no seat token
of it in ``Authorization``) finds only the first half of the queue (rounded up): the rest is
kept for the players of the games asked.
Every job is seeded alike (seed 0, the analysis' default layouts), so a game's analysis is the
same whichever node computes it, and ``bistrot analyze`` of its record gives the same figures.

>>> describe(None, now=10.0, stale_s=30.0)
{'status': 'none'}
>>> from bistrot.server.storage import AnalysisRecord
>>> describe(AnalysisRecord("t", "running", 3, 40, None, "j", 9.0), now=10.0, stale_s=30.0)
{'status': 'running', 'done': 3, 'total': 40}
>>> describe(AnalysisRecord("t", "running", 3, 40, None, "j", 9.0), now=100.0, stale_s=30.0)
{'status': 'none'}
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import queue
import secrets
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bistrot.analysis import DEFAULT_SEED, analyze_record
from bistrot.server.botrunner import watch_parent
from bistrot.server.protocol import ApiError
from bistrot.server.storage import AnalysisRecord, Storage
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.replay import record_of

log = logging.getLogger("bistrot.server.analysis")

#: The seed of every analysis (see the module docstring).
SEED = DEFAULT_SEED

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
#: The client key of the jobs the room queues itself (the daily deal's).
BACKGROUND = "room"

Channel = Any
"""Where a worker reports progress: a ``multiprocessing`` queue (processes) or a
``queue.SimpleQueue`` (threads), carrying ``(job, done, total)``."""

_channel: Channel | None = None  # a worker process's, set by _start_worker


def _start_worker(channel: Channel, parent: int) -> None:
    global _channel
    _channel = channel
    watch_parent(parent)


def run_analysis(job: str, record: str, channel: Channel | None = None) -> dict[str, Any]:
    """In a worker: the analysis of ``record`` (its JSON object), reporting ``(job, done, total)``
    after each decision on ``channel`` (a worker process: the pool's)."""
    report = channel if channel is not None else _channel

    def progress(done: int, total: int) -> None:
        if report is not None:
            report.put((job, done, total))

    return analyze_record(record, seed=SEED, progress=progress).to_dict()


def describe(record: AnalysisRecord | None, now: float, stale_s: float) -> dict[str, Any]:
    """What ``GET .../analysis`` answers for a stored analysis: ``none`` (never asked, or its job
    died: ask again), ``queued`` or ``running`` with ``done`` of ``total`` decisions, ``done``
    with its ``result``, or ``failed`` (it may be asked again after ``stale_s``)."""
    if record is None or (record.status in (QUEUED, RUNNING) and record.updated_at < now - stale_s):
        return {"status": "none"}
    if record.status == DONE:
        return {"status": DONE, "done": record.done, "total": record.total, "result": record.result}
    if record.status == FAILED:
        return {"status": FAILED}
    return {"status": record.status, "done": record.done, "total": record.total}


class TooManyAnalyses(ApiError):
    """This client address holds its share of the queue: ask again after ``retry_after`` s."""

    def __init__(self, per_client: int, retry_after: int) -> None:
        super().__init__(
            429,
            "too_many_analyses",
            f"{per_client} of your analyses are under way already: try again in {retry_after} s",
        )
        self.retry_after = retry_after


class AnalysisBusy(ApiError):
    """The node's analysis queue is full: ask again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            503, "analysis_busy", f"too many games are being analysed: try again in {retry_after} s"
        )
        self.retry_after = retry_after


@dataclass
class _Job:
    table_id: str
    claim: str
    client: str = ""  # the address key of who asked (the per-client quota)
    done: int = 0
    total: int = 0
    saved: tuple[str, int, int] = (QUEUED, 0, 0)
    saved_at: float = field(default_factory=time.time)
    future: Future[dict[str, Any]] | None = None


class AnalysisJobs:
    """This node's analysis pool and the jobs it holds; see the module docstring.  ``kind`` is
    ``process`` or ``thread`` (tests, small machines)."""

    def __init__(
        self,
        storage: Storage,
        kind: str = "process",
        workers: int = 1,
        queue_max: int = 8,
        stale_s: float = 30.0,
        beat_s: float = 1.0,
        per_client: int = 2,
    ) -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"analysis executor must be 'process' or 'thread', not {kind!r}")
        self.storage = storage
        self.kind = kind
        self.workers = workers
        self.queue_max = queue_max
        self.per_client = per_client
        #: Jobs a caller who is not a player of the game may find in the queue (its first half).
        self.strangers_max = queue_max - queue_max // 2
        self.stale_s = stale_s
        self.beat_s = beat_s
        self.jobs: dict[str, _Job] = {}  # by claim
        self._executor: Executor | None = None
        self._channel: Channel | None = None
        self._reader: threading.Thread | None = None
        self._beat: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._storing: set[asyncio.Task[None]] = set()  # results being stored (held: not collected)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Start the pool (its processes start with the first job) and the progress reader."""
        self._loop = asyncio.get_running_loop()
        if self.kind == "process":
            context = multiprocessing.get_context("spawn")  # safe beside the server's threads
            self._channel = context.Queue()
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context,
                initializer=_start_worker, initargs=(self._channel, os.getpid()),
            )
        else:
            self._channel = queue.SimpleQueue()
            self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="bistrot-analysis")
        self._reader = threading.Thread(
            target=self._read_progress, args=(self._channel,), name="bistrot-analysis-progress", daemon=True
        )
        self._reader.start()
        self._beat = asyncio.create_task(self._beat_loop())

    async def close(self) -> None:
        """Stop: jobs in flight are dropped (their rows go stale, to be claimed again)."""
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self._channel is not None:
            self._channel.put(None)
            if self._reader is not None:
                await asyncio.to_thread(self._reader.join, 5.0)
            if self.kind == "process":
                self._channel.close()
            self._channel = None
        self.jobs.clear()

    # ------------------------------------------------------------------ requests

    async def state(self, table_id: str) -> dict[str, Any]:
        """Where the analysis of ``table_id`` stands (``GET``; see :func:`describe`)."""
        return describe(await self.storage.load_analysis(table_id), time.time(), self.stale_s)

    async def request(self, core: TableCore, client: str = "", player: bool = True) -> dict[str, Any]:
        """Start the analysis of the finished table ``core`` for ``client`` (an address key), one
        of its players or not, unless it is done or under way (``POST``); where it stands then.
        :class:`TooManyAnalyses` if ``client`` holds its share, :class:`AnalysisBusy` if the queue
        is full (for a stranger: its first half)."""
        now = time.time()
        found = describe(await self.storage.load_analysis(core.id), now, self.stale_s)
        if found["status"] in (QUEUED, RUNNING, DONE):
            return found
        retry_after = max(1, round(self.stale_s))
        if sum(job.client == client for job in self.jobs.values()) >= self.per_client:
            raise TooManyAnalyses(self.per_client, retry_after)
        room = self.queue_max if player else self.strangers_max
        if len(self.jobs) >= room or self._executor is None:
            raise AnalysisBusy(retry_after=retry_after)
        if not await self._submit(core, client, now):
            return await self.state(core.id)  # another node took it a moment ago
        return {"status": QUEUED, "done": 0, "total": 0}

    def background_room(self) -> int:
        """How many more jobs the room's own work (the daily deal's analyses) may queue now: up to
        a stranger's share of the queue (its first half), so that players asking find room."""
        return 0 if self._executor is None else max(0, self.strangers_max - len(self.jobs))

    async def background(self, core: TableCore) -> bool:
        """Queue the analysis of the finished ``core`` for the room itself, if there is
        :meth:`background_room` and no job has it: whether it was queued."""
        if self.background_room() <= 0:
            return False
        return await self._submit(core, BACKGROUND, time.time())

    async def _submit(self, core: TableCore, client: str, now: float) -> bool:
        claim = f"{core.id[:6]}-{secrets.token_urlsafe(9)}"
        if self._executor is None or not await self.storage.claim_analysis(
            core.id, claim, now, now - self.stale_s
        ):
            return False
        job = _Job(core.id, claim, client)
        self.jobs[claim] = job
        record = record_of(core)
        if self.kind == "process":
            job.future = self._executor.submit(run_analysis, claim, record)
        else:
            job.future = self._executor.submit(run_analysis, claim, record, self._channel)
        job.future.add_done_callback(lambda _f: self._call_soon(self._finished, claim))
        return True

    # ------------------------------------------------------------------ progress

    def _call_soon(self, fn: Any, *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(fn, *args)

    def _read_progress(self, channel: Channel) -> None:
        while True:
            item = channel.get()
            if item is None:
                return
            self._call_soon(self._progress, *item)

    def _progress(self, claim: str, done: int, total: int) -> None:
        job = self.jobs.get(claim)
        if job is not None:
            job.done, job.total = done, total

    async def _beat_loop(self) -> None:
        while True:
            await asyncio.sleep(self.beat_s)
            for job in list(self.jobs.values()):
                try:
                    await self._save_progress(job)
                except Exception:  # the store is down: the next beat tries again
                    log.exception("the progress of an analysis could not be stored")

    async def _save_progress(self, job: _Job) -> None:
        status = RUNNING if job.total else QUEUED
        now = time.time()
        if (status, job.done, job.total) == job.saved and now - job.saved_at < self.stale_s / 3:
            return
        record = AnalysisRecord(job.table_id, status, job.done, job.total, None, job.claim, now)
        if await self.storage.save_analysis(record):
            job.saved, job.saved_at = (status, job.done, job.total), now
        elif self.jobs.pop(job.claim, None) is not None and job.future is not None:
            job.future.cancel()  # another job took the row over (this one was thought dead)

    def _finished(self, claim: str) -> None:
        job = self.jobs.get(claim)
        if job is None or job.future is None or job.future.cancelled():
            self.jobs.pop(claim, None)
            return
        task = asyncio.ensure_future(self._store_result(job))
        self._storing.add(task)
        task.add_done_callback(self._storing.discard)

    async def _store_result(self, job: _Job) -> None:
        assert job.future is not None
        try:
            result: dict[str, Any] | None = job.future.result()
            status = DONE
            total = len(result["moves"]) if result else 0
        except Exception as err:
            log.error("the analysis of table %s failed: %s: %s", job.table_id[:6], type(err).__name__, err)
            result, status, total = None, FAILED, job.total
        record = AnalysisRecord(job.table_id, status, total, total, result, job.claim, time.time())
        try:
            await self.storage.save_analysis(record)
        except Exception:
            log.exception("the analysis of table %s could not be stored", job.table_id[:6])
        finally:
            self.jobs.pop(job.claim, None)
