"""Load benchmark of the card room server: N tables played at once by simulated clients.

Starts ``bistrot serve`` on a free loopback port with a fresh database, opens ``--tables``
tables, connects their clients over WebSocket, lets them play for ``--duration`` seconds, then
stops everything and prints accepted actions per second and the ack latency (from sending an
``act`` to receiving its ``ack``, which the server sends only after the action is committed).

Modes:
  hotseat   every seat of every table is a simulated client (4 WebSockets per Omi table);
  computer  one simulated client per table, computer players (easy) in the other seats, so
            each human action also brings three computer moves through the bot pool.

Each simulated player waits ``--think-ms`` (uniformly 0.5x to 1.5x) before acting when it is
its turn; ``--think-ms 0`` drives the server as fast as it goes.  A table whose game ends is
replaced by a new one.  Everything is bounded: loopback only, a fixed number of tables and a
fixed duration, and the script stops the server it started.

    nice -n 10 python bench/server.py --tables 500 --duration 30 --think-ms 1000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

import httpx
from websockets.asyncio.client import ClientConnection, connect


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acks: int = 0
    rejects: int = 0
    states: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)
    measuring: bool = False


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def raise_fd_limit() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


@dataclass
class ServerLog:
    """What the server printed after its first line, read as it comes: an undrained pipe would
    fill up and block the server in its next log call."""

    lines: list[str] = field(default_factory=list)
    keep: int = 2000

    def read(self, stream: IO[str]) -> None:
        for line in stream:
            if len(self.lines) < self.keep:
                self.lines.append(line.rstrip("\n"))

    def errors(self) -> list[str]:
        return [line for line in self.lines if " ERROR " in line or "Traceback" in line]


def start_server(
    db: Path,
    sync: str,
    commit: str,
    workers: int,
    env: dict[str, str] | None = None,
    extra: Sequence[str] = (),
) -> tuple[subprocess.Popen[str], str, ServerLog]:
    """``bistrot serve`` on a free loopback port; its URL and its log.  The benchmarks' clients
    all connect from loopback addresses, so the per-client limits are lifted unless ``env``
    sets them.  ``extra``: more arguments of ``bistrot serve`` (``--database-url`` ...)."""
    env = {
        **os.environ,
        "BISTROT_BOT_DELAY_MS": "0",
        "BISTROT_GRACE_S": "3600",
        "BISTROT_SQLITE_SYNCHRONOUS": sync,
        "BISTROT_SQLITE_COMMIT": commit,
        "BISTROT_OFFLINE_FETCH": "0",
        "BISTROT_BOT_WORKERS": str(workers),
        # Every simulated player connects from 127.0.0.1: hundreds of sockets and tables from one
        # address.
        "BISTROT_MAX_CONNECTIONS_PER_CLIENT": "0",
        "BISTROT_TABLE_QUOTA_BURST": "1000000",
        **(env or {}),
    }
    command = [sys.executable, "-m", "bistrot", "serve", "--port", "0", "--db", str(db)]
    proc = subprocess.Popen(
        [*command, "--log-level", "warning", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        preexec_fn=raise_fd_limit,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "http://" not in line:
        try:  # the rest of what it says (a traceback), as it exits
            rest, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            rest, _ = proc.communicate()
        raise SystemExit(f"the server did not start: {line}{rest}")
    url = line[line.index("http://") :].split()[0].rstrip("/")
    log = ServerLog()
    threading.Thread(target=log.read, args=(proc.stdout,), daemon=True).start()
    return proc, url, log


def stop_server(proc: subprocess.Popen[str]) -> None:
    """Stop a server from :func:`start_server`: SIGTERM, then SIGKILL if it takes over 30 s."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (and its reaped children), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks


async def wait_ready(url: str) -> None:
    async with httpx.AsyncClient(timeout=5) as client:
        for _ in range(200):
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(url + "/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.05)
    raise SystemExit("the server never answered /healthz")


class Seat:
    """One simulated player on one WebSocket."""

    def __init__(self, ws: ClientConnection, stats: Stats, think: float, rng: random.Random) -> None:
        self.ws = ws
        self.stats = stats
        self.think = think
        self.rng = rng
        self.sent: dict[str, float] = {}
        self.counter = 0
        self.over = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        pending: asyncio.Task[None] | None = None
        try:
            async for raw in self.ws:
                assert isinstance(raw, str), "the server sends text frames only"
                if raw.startswith('{"type":"state"') and '"legal":[]' in raw and '"is_over":false' in raw:
                    # Not this seat's turn: nothing to do, so skip the parsing (the clients share
                    # the machine with the server; their CPU time is the benchmark's noise).
                    if self.stats.measuring:
                        self.stats.states += 1
                    continue
                message = json.loads(raw)
                kind = message["type"]
                if kind == "ack":
                    started = self.sent.pop(message["id"], None)
                    if started is not None and self.stats.measuring:
                        self.stats.latencies.append(time.perf_counter() - started)
                        self.stats.acks += 1
                elif kind == "reject":
                    self.sent.pop(message.get("id"), None)
                    if self.stats.measuring:
                        self.stats.rejects += 1
                elif kind == "state":
                    if self.stats.measuring:
                        self.stats.states += 1
                    view = message["view"]
                    if view["is_over"]:
                        self.over.set()
                        return
                    legal = view["legal"]
                    if legal and not stop.is_set() and (pending is None or pending.done()):
                        pending = asyncio.create_task(self.act(self.rng.choice(legal), stop))
        except Exception as err:  # a closed connection ends this seat
            if not stop.is_set():
                self.stats.errors.append(f"{type(err).__name__}: {err}")
        finally:
            if pending is not None:
                pending.cancel()

    async def act(self, action: str, stop: asyncio.Event) -> None:
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        if stop.is_set():
            return
        self.counter += 1
        message_id = f"b{self.counter}"
        self.sent[message_id] = time.perf_counter()
        await self.ws.send(json.dumps({"type": "act", "id": message_id, "action": action}))


#: Opens one table and connects its simulated players: their sockets.
TableOpener = Callable[[], Awaitable[list[ClientConnection]]]
#: What a benchmark reads of its servers at the start and at the end of the measured window.
SampleT = TypeVar("SampleT")


async def open_table(url: str, http: httpx.AsyncClient, mode: str, game: str,
                     local_address: str | None = None) -> list[ClientConnection]:
    """A table of ``mode`` on the server at ``url``, a socket for each of its seats; the sockets
    from ``local_address`` if given (``http`` should send from it too)."""
    body = {"game": game, "mode": mode, "level": "easy"}  # pace: the server's env
    answer = await http.post(url + "/api/tables", json=body)
    answer.raise_for_status()
    table = answer.json()
    ws_url = url.replace("http://", "ws://") + f"/ws/{table['table']}"
    local = (local_address, 0) if local_address else None
    return [await connect(ws_url, additional_headers={"Authorization": f"Bearer {s['token']}"},
                          max_queue=None, open_timeout=60, local_addr=local)
            for s in table["seats"]]


async def table_loop(
    opener: TableOpener,
    think: float,
    stats: Stats,
    stop: asyncio.Event,
    ready: asyncio.Event,
    opening: asyncio.Semaphore,
    rng: random.Random,
    connected: list[int],
) -> None:
    first = True
    while not stop.is_set():
        async with opening:
            sockets = await opener()
        seats = [Seat(ws, stats, think, random.Random(rng.random())) for ws in sockets]
        if first:
            connected[0] += len(sockets)
            first = False
            await ready.wait()
        tasks = [asyncio.create_task(seat.run(stop)) for seat in seats]
        try:
            await asyncio.wait(
                [asyncio.create_task(stop.wait()), asyncio.create_task(seats[0].over.wait())],
                return_when=asyncio.FIRST_COMPLETED,
            )
            if seats[0].over.is_set() and stats.measuring:
                stats.games_finished += 1
        finally:
            for ws in sockets:
                await ws.close()
            for task in tasks:
                task.cancel()


@dataclass
class LoadRun(Generic[SampleT]):
    """What :func:`run_load` measured."""

    stats: Stats
    sockets: int
    setup: float  # seconds until every table's players were connected
    elapsed: float  # seconds measured
    client_cpu: float  # CPU seconds of this process (the clients) while measuring
    before: SampleT
    after: SampleT


async def run_load(
    opener: TableOpener,
    tables: int,
    sockets_per_table: int,
    think: float,
    warmup: float,
    duration: float,
    setup_timeout: float,
    rng: random.Random,
    sample: Callable[[], Awaitable[SampleT]],
) -> LoadRun[SampleT]:
    """``tables`` tables opened by ``opener`` (at most 20 at once), each replaced by a new one
    when its game ends; once every player is connected, ``warmup`` seconds of play, then
    ``duration`` seconds measured between two calls of ``sample``."""
    stats = Stats()
    stop, ready = asyncio.Event(), asyncio.Event()
    connected = [0]
    opening = asyncio.Semaphore(20)
    t0 = time.perf_counter()
    loops = [
        asyncio.create_task(table_loop(opener, think, stats, stop, ready, opening, rng, connected))
        for _ in range(tables)
    ]
    try:
        while connected[0] < tables * sockets_per_table:
            await asyncio.sleep(0.2)
            if time.perf_counter() - t0 > setup_timeout:
                raise SystemExit(f"setup took over {setup_timeout}s ({connected[0]} sockets)")
            for loop in loops:
                if loop.done() and loop.exception():
                    raise loop.exception()  # type: ignore[misc]
        setup = time.perf_counter() - t0
        ready.set()
        await asyncio.sleep(warmup)
        w0 = time.perf_counter()
        me0 = time.process_time()
        before = await sample()
        stats.measuring = True
        await asyncio.sleep(duration)
        stats.measuring = False
        w1 = time.perf_counter()
        me1 = time.process_time()
        after = await sample()
    finally:
        stop.set()
        await asyncio.wait(loops, timeout=30)
        for loop in loops:
            loop.cancel()
    return LoadRun(stats, connected[0], setup, w1 - w0, me1 - me0, before, after)


@dataclass
class ServerSample:
    cpu: float
    health: dict[str, Any]


async def main(args: argparse.Namespace) -> int:
    raise_fd_limit()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        proc, url, log = start_server(db, args.sync, args.commit, args.bot_workers)
        try:
            await wait_ready(url)
            limits = httpx.Limits(max_connections=40)
            async with httpx.AsyncClient(timeout=60, limits=limits) as http:

                async def opener() -> list[ClientConnection]:
                    return await open_table(url, http, args.mode, args.game)

                async def sample() -> ServerSample:
                    cpu = cpu_seconds(proc.pid)
                    return ServerSample(cpu, (await http.get(url + "/healthz")).json())

                run = await run_load(
                    opener,
                    args.tables,
                    1 if args.mode == "computer" else 4,
                    args.think_ms / 1000,
                    args.warmup,
                    args.duration,
                    args.setup_timeout,
                    rng,
                    sample,
                )
        finally:
            stop_server(proc)
    stats, elapsed = run.stats, run.elapsed
    lat = [x * 1000 for x in stats.latencies]
    print(
        f"tables {args.tables} ({args.game}, {args.mode}), sockets {run.sockets}, think {args.think_ms} ms, "
        f"sqlite synchronous={args.sync} commit={args.commit}, setup {run.setup:.1f} s,"
        f" measured {elapsed:.1f} s"
    )
    print(
        f"accepted actions/s (human acks): {stats.acks / elapsed:.1f}"
        f"   states received/s: {stats.states / elapsed:.1f}"
        f"   games finished: {stats.games_finished}   rejects: {stats.rejects}   errors: {len(stats.errors)}"
    )
    if lat:
        print(
            f"ack latency ms: p50 {statistics.median(lat):.1f}  p90 {percentile(lat, 90):.1f}  "
            f"p99 {percentile(lat, 99):.1f}  max {max(lat):.1f}  (n={len(lat)})"
        )
    load = os.getloadavg()[0]
    print(
        f"CPU: server {100 * (run.after.cpu - run.before.cpu) / elapsed:.0f}%,"
        f" clients {100 * run.client_cpu / elapsed:.0f}% of one core"
        f" (machine load average {load:.1f} on {os.cpu_count()} cores)"
    )
    store0, store1 = run.before.health["store"], run.after.health["store"]
    commits = store1["commits"] - store0["commits"]
    writes = store1["writes"] - store0["writes"]
    acts = run.after.health["acts"]
    print(
        f"server-side act time (arrival to answer, last 2000) ms: p50 {acts['ms_p50']}  p99 {acts['ms_p99']}"
    )
    print(
        f"store: {commits / elapsed:.0f} commits/s, {writes / max(commits, 1):.1f} writes per commit,"
        f" commit ms p50 {store1['commit_ms_p50']} p99 {store1['commit_ms_p99']} (last 2000 commits)"
    )
    for error in stats.errors[:5]:
        print("error:", error)
    for line in log.errors()[:5]:
        print("server:", line)
    return 0


def load_arguments(doc: str | None, tables: int, duration: float, warmup: float) -> argparse.ArgumentParser:
    """A parser with the options of a load run (tables, duration, warm-up, think time, bot
    workers, setup timeout, seed), which bench/cluster.py shares."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=tables)
    parser.add_argument("--duration", type=float, default=duration, help="seconds measured (each phase)")
    parser.add_argument("--warmup", type=float, default=warmup, help="seconds played before measuring")
    parser.add_argument("--think-ms", type=float, default=1000.0, help="mean pause of a player before acting")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--setup-timeout", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = load_arguments(__doc__, tables=100, duration=20.0, warmup=3.0)
    parser.add_argument("--mode", choices=["hotseat", "computer"], default="hotseat")
    parser.add_argument("--game", choices=["omi"], default="omi")
    parser.add_argument("--sync", choices=["FULL", "NORMAL"], default="FULL", help="SQLite synchronous")
    parser.add_argument(
        "--commit", choices=["thread", "inline"], default="thread", help="where SQLite commits"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 0 < args.duration <= 600:
        parser.error("--tables is 1 to 2000 and --duration at most 600 s (the benchmark is bounded)")
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
