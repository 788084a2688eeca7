"""Abuse benchmark: honest players keep playing while strangers attack the server.

Starts ``bistrot serve`` on a free loopback port with a fresh database and its default limits,
then ``--tables`` honest hot-seat tables (four simulated players each, thinking ``--think-ms``)
play for two phases of ``--duration`` seconds each, in the same run:

  quiet    nobody else is there;
  attack   a bounded mix of attackers runs alongside them:
           - floods: sockets at the attackers' own table sending small messages as fast as they
             can (rate-limited, then closed as abusive; they reconnect and start over);
           - oversized: sockets sending 65 KB messages in a loop;
           - slow clients: raw TCP connections that send nothing, trickle a header byte a
             second, or stop in the middle of a WebSocket upgrade;
           - creation bursts: ``POST /api/tables`` as fast as one client can send them.

Every honest table comes from its own loopback address (127.1.x.y), as players come from their
own machines; every attacker from 127.2.0.z, so per-client limits meet attackers only.  Printed:
the honest players' ack latency p50/p99 in each phase (and the ratio: the aim is p99 under attack
at most twice the quiet p99), the server's resident memory before and after, and what each kind
of attack got (answers, refusals, closes).

    nice -n 10 python bench/abuse.py --tables 100 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import (
    Stats,
    open_table,
    percentile,
    raise_fd_limit,
    start_server,
    stop_server,
    table_loop,
    wait_ready,
)

ATTACK_MESSAGE = json.dumps({"type": "act", "id": 1, "action": "play XX"})
OVERSIZED = json.dumps({"type": "act", "id": 1, "action": "x" * 65_000})


def honest_address(i: int) -> str:
    return f"127.1.{i // 250}.{i % 250 + 1}"


def attacker_address(i: int) -> str:
    return f"127.2.0.{i % 250 + 1}"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class Attacks:
    """What each kind of attacker got back."""

    outcomes: Counter[str] = field(default_factory=Counter)

    def saw(self, what: str, n: int = 1) -> None:
        self.outcomes[what] += n


# ---------------------------------------------------------------------------- honest players


async def honest_table(
    url: str, address: str, think: float, stats: Stats, stop: asyncio.Event, rng: random.Random
) -> None:
    """One hot-seat table from one address, played over and over until ``stop`` by
    bench/server.py's table loop."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=60) as http:
        ready = asyncio.Event()
        ready.set()  # no common start: each honest table plays from the moment it opens

        async def opener() -> list[ClientConnection]:
            return await open_table(url, http, "hotseat", "omi", address)

        await table_loop(opener, think, stats, stop, ready, asyncio.Semaphore(1), rng, [0])


# ---------------------------------------------------------------------------- attackers


async def attacker_table(url: str, address: str) -> dict[str, object]:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=30) as http:
        answer = await http.post(url + "/api/tables", json={"game": "omi", "mode": "hotseat"})
        answer.raise_for_status()
        table: dict[str, object] = answer.json()
        return table


async def flooder(
    url: str, address: str, text: str, kind: str, attacks: Attacks, stop: asyncio.Event
) -> None:
    """Connect, send ``text`` as fast as the socket takes it, reconnect when closed."""
    try:
        table = await attacker_table(url, address)
    except httpx.HTTPError as err:
        attacks.saw(f"{kind}: no table to attack ({type(err).__name__})")
        return
    seats = table["seats"]
    assert isinstance(seats, list)
    target = url.replace("http://", "ws://") + f"/ws/{table['table']}"
    auth = {"Authorization": f"Bearer {seats[0]['token']}"}  # never in the URL (refused there)
    while not stop.is_set():
        try:
            async with connect(
                target, additional_headers=auth, open_timeout=10, max_size=None, local_addr=(address, 0)
            ) as ws:
                attacks.saw(f"{kind}: connections")

                async def drain(ws: ClientConnection = ws) -> None:
                    async for _ in ws:
                        attacks.saw(f"{kind}: answers received")

                reader = asyncio.create_task(drain())
                try:
                    while not stop.is_set():
                        await ws.send(text)
                        attacks.saw(f"{kind}: messages sent")
                        await asyncio.sleep(0)  # the other attackers of this process get their turn
                finally:
                    reader.cancel()
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else "none"
            attacks.saw(f"{kind}: closed by the server ({code})")
        except InvalidStatus as err:
            attacks.saw(f"{kind}: handshake refused ({err.response.status_code})")
        except (OSError, TimeoutError) as err:
            attacks.saw(f"{kind}: refused ({type(err).__name__})")
        await asyncio.sleep(0.05)


async def slow_client(
    host: str, port: int, address: str, style: str, attacks: Attacks, stop: asyncio.Event
) -> None:
    """A raw TCP connection that never finishes its request; reopened when the server drops it."""
    request = (
        f"GET /ws/nothing HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    ).encode()
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        started = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(address, 0))
        except OSError:
            attacks.saw(f"slow {style}: refused at connect")
            await asyncio.sleep(0.5)
            continue
        attacks.saw(f"slow {style}: connections")
        try:
            if style == "upgrade":
                writer.write(request)  # everything but the blank line that ends the headers
            sent = 0
            while not stop.is_set():
                if style == "trickle":
                    writer.write(request[sent : sent + 1] or b"X")
                    sent += 1
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(1024), timeout=1.0) == b"":
                        attacks.saw(f"slow {style}: dropped by the server")
                        attacks.saw(f"slow {style}: seconds held", round(loop.time() - started))
                        break
        except OSError:
            attacks.saw(f"slow {style}: dropped by the server")
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


async def creator(url: str, address: str, attacks: Attacks, stop: asyncio.Event) -> None:
    """Tables as fast as one client can ask; obeys nothing."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=30) as http:
        while not stop.is_set():
            started = time.monotonic()
            try:
                answer = await http.post(url + "/api/tables", json={"game": "omi", "mode": "computer"})
            except httpx.HTTPError as err:
                attacks.saw(f"creation: {type(err).__name__} after {time.monotonic() - started:.0f} s")
                continue
            attacks.saw(f"creation: answered {answer.status_code}")


async def attack(url: str, args: argparse.Namespace, attacks: Attacks, stop: asyncio.Event) -> None:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    n = 0
    tasks = []
    for kind, count in (("flood", args.flooders), ("oversized", args.oversized)):
        for _ in range(count):
            text = ATTACK_MESSAGE if kind == "flood" else OVERSIZED
            tasks.append(flooder(url, attacker_address(n), text, kind, attacks, stop))
            n += 1
    for style in ("silent", "trickle", "upgrade"):
        for _ in range(args.slow):
            tasks.append(slow_client(host, int(port), attacker_address(n), style, attacks, stop))
            n += 1
    for _ in range(args.creators):
        tasks.append(creator(url, attacker_address(n), attacks, stop))
        n += 1
    await asyncio.gather(*tasks)


def attack_process(url: str, args: argparse.Namespace, seconds: float) -> dict[str, int]:
    """Run the attack mix for ``seconds`` in this (child) process; what it got."""

    async def run() -> dict[str, int]:
        attacks, stop = Attacks(), asyncio.Event()
        task = asyncio.create_task(attack(url, args, attacks, stop))
        await asyncio.sleep(seconds)
        stop.set()
        try:
            await asyncio.wait_for(task, timeout=20)
        except TimeoutError:
            attacks.saw("attackers still busy at the end")
        return dict(attacks.outcomes)

    raise_fd_limit()
    return asyncio.run(run())


# ---------------------------------------------------------------------------- the run


async def phase(url: str, stats: Stats, seconds: float) -> tuple[list[float], list[float]]:
    """The honest acks' latencies (ms) over ``seconds``, and those of a probe asking
    ``/healthz`` every 100 ms from an honest address: a server that stalls delays the states
    that make players act, which the ack latencies alone would not show."""
    stats.latencies.clear()
    stats.measuring = True
    probes: list[float] = []
    transport = httpx.AsyncHTTPTransport(local_address=honest_address(499))
    async with httpx.AsyncClient(transport=transport, timeout=60) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            (await http.get(url + "/healthz")).raise_for_status()
            probes.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.1)
    stats.measuring = False
    return [x * 1000 for x in stats.latencies], probes


def describe(name: str, lat: list[float], probes: list[float]) -> str:
    if not lat:
        return f"{name}: no ack measured"
    return (
        f"{name}: honest acks {len(lat)}, latency ms p50 {statistics.median(lat):.1f}"
        f"  p99 {percentile(lat, 99):.1f}  max {max(lat):.1f};"
        f"  /healthz ms p50 {statistics.median(probes):.1f}  max {max(probes):.1f}"
    )


async def main(args: argparse.Namespace) -> int:
    raise_fd_limit()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        # The server's own per-client limits, as deployed: every client has its own address here.
        limits = {"BISTROT_MAX_CONNECTIONS_PER_CLIENT": "128", "BISTROT_TABLE_QUOTA_BURST": "30"}
        proc, url, log = start_server(Path(tmp) / "abuse.db", "FULL", "thread", args.bot_workers, limits)
        try:
            await wait_ready(url)
            stats = Stats()
            stop_honest = asyncio.Event()
            honest = [
                asyncio.create_task(
                    honest_table(url, honest_address(i), args.think_ms / 1000, stats, stop_honest, rng)
                )
                for i in range(args.tables)
            ]
            await asyncio.sleep(args.warmup)
            rss0 = rss_mb(proc.pid)
            quiet, quiet_probes = await phase(url, stats, args.duration)
            # The attackers run in a process of their own, as they would on their own machines:
            # sharing this event loop, their floods would delay the honest clients themselves.
            with multiprocessing.Pool(1) as pool:
                attackers = pool.apply_async(attack_process, (url, args, args.warmup + args.duration))
                await asyncio.sleep(args.warmup)
                attacked, attacked_probes = await phase(url, stats, args.duration)
                rss1 = rss_mb(proc.pid)
                outcomes = await asyncio.to_thread(attackers.get, 60)
            stop_honest.set()
            await asyncio.wait(honest, timeout=30)
            alive = proc.poll() is None
            for task in honest:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    stats.errors.append(repr(task.exception()))
        finally:
            stop_server(proc)
    print(
        f"{args.tables} honest hot-seat tables (think {args.think_ms:g} ms), {args.duration:g} s a phase;"
        f" attackers: {args.flooders} flooding, {args.oversized} oversized, {3 * args.slow} slow,"
        f" {args.creators} creating"
    )
    print(describe("quiet ", quiet, quiet_probes))
    print(describe("attack", attacked, attacked_probes))
    if quiet and attacked:
        ratio = percentile(attacked, 99) / percentile(quiet, 99)
        print(f"p99 under attack / quiet p99: {ratio:.2f} (aim: at most 2)")
    print(
        f"server memory (RSS): {rss0:.0f} MB before the attack, {rss1:.0f} MB after; server alive: {alive}"
    )
    for what, count in sorted(outcomes.items()):
        print(f"  {what}: {count}")
    for error in stats.errors[:5]:
        print("honest error:", error)
    errors = log.errors()
    print(f"server log: {len(log.lines)} lines, {len(errors)} errors")
    for line in errors[:5]:
        print("  ", line)
    return 0 if alive and not stats.errors else 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100, help="honest tables (four players each)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured in each phase")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think-ms", type=float, default=1000.0)
    parser.add_argument("--flooders", type=int, default=4)
    parser.add_argument("--oversized", type=int, default=2)
    parser.add_argument("--slow", type=int, default=20, help="slow clients of each of the three kinds")
    parser.add_argument("--creators", type=int, default=2)
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    bounded = (
        1 <= args.tables <= 500
        and 0 < args.duration <= 120
        and max(args.flooders, args.oversized, args.slow, args.creators) <= 50
    )
    if not bounded:
        parser.error(
            "at most 500 tables, 120 s a phase and 50 attackers of each kind (the benchmark is bounded)"
        )
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
