""" "Play now" under a crowd (issue 33): ``--players`` players with profiles press "Play now" for
Omi at the same moment, on one SQLite node and on a cluster.

A. one ``bistrot serve --db`` node on SQLite (synchronous=FULL), as bench/server.py runs it;
B. a throwaway PostgreSQL and Redis (tests/postgres_server.py, tests/redis_server.py) and
   ``--nodes`` ``bistrot serve --database-url URL --redis-url URL`` nodes on this machine, each
   request sent to a random node.

In each phase every player first gets a profile (not measured), then all send
``POST /api/quickmatch {"game": "omi"}`` at once.  Measured: the time from that moment to each
player's answer, "time until seated" (median, p99, max), and from the store afterwards: seats given
twice (two answers naming one seat, or a profile at two seats: aim 0), tables over-filled (more
answers than seats: aim 0), players left unseated, and the tables opened (the players divided by
4 is the aim: players asking together fill a table before the next is opened).  The reference in
the same run, for the ratio printed, is the median time of ``POST /api/profiles`` (one small
write) asked by as many players at once on the same servers.

The exit status is 1 if something went wrong (a node that did not start, a refused request, a
seat given twice, a table over-filled), not for a slow figure.  Bounded: loopback only, at most
2000 players; every server and folder the script started is stopped or removed.

    nice -n 10 .venv/bin/python bench/lobby.py --players 400
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import psycopg

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path[:0] = [str(BENCH), str(ROOT)]
from cluster import Node  # noqa: E402
from server import percentile, raise_fd_limit, start_server, wait_ready  # noqa: E402
from tests.postgres_server import PostgresServer  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

#: Every simulated player asks from 127.0.0.1: the per-address quotas are lifted.
CROWD_ENV = {"BISTROT_PROFILE_QUOTA_BURST": "1000000", "BISTROT_TABLE_QUOTA_BURST": "1000000"}
SEATS = 4  # an Omi table's
HEADER = "X-Bistrot-Profile"


async def at_once(calls: list[Any]) -> tuple[list[float], list[httpx.Response]]:
    """Run the calls (coroutine factories) together from one moment: each one's seconds from that
    moment to its answer, and the answers."""
    start = asyncio.Event()

    async def timed(call: Any) -> tuple[float, httpx.Response]:
        await start.wait()
        began = time.perf_counter()
        answer = await call()
        return time.perf_counter() - began, answer

    tasks = [asyncio.create_task(timed(call)) for call in calls]
    await asyncio.sleep(0.1)  # every task waiting on the start
    start.set()
    done = await asyncio.gather(*tasks)
    return [d[0] for d in done], [d[1] for d in done]


async def crowd(urls: list[str], players: int, rng: random.Random) -> dict[str, Any]:
    """Profiles for ``players`` (their creation timed as the reference), then every player's Play
    now at once, each through a random url."""
    limits = httpx.Limits(max_connections=players + 10, max_keepalive_connections=players + 10)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:

        def make(i: int) -> Any:
            return functools.partial(client.post, rng.choice(urls) + "/api/profiles", json={"name": f"P{i}"})

        made_times, made = await at_once([make(i) for i in range(players)])
        refused = [m.text for m in made if m.status_code != 201]
        if refused:
            raise SystemExit(f"profiles refused: {refused[:3]}")
        keys = [m.json()["key"] for m in made]

        def play_now(key: str) -> Any:
            return functools.partial(
                client.post, rng.choice(urls) + "/api/quickmatch", json={"game": "omi"}, headers={HEADER: key}
            )

        seated_times, answers = await at_once([play_now(key) for key in keys])
    return {
        "reference": statistics.median(made_times),
        "seated": seated_times,
        "answers": answers,
        "profiles": [m.json()["profile"] for m in made],
    }


def judge(title: str, run: dict[str, Any], stored_seats: list[tuple[str, int, str | None]]) -> list[str]:
    """Print a phase's figures; the problems found."""
    answers: list[httpx.Response] = run["answers"]
    ok = [a.json() for a in answers if a.status_code == 201]
    problems = [f"{title}: refused {a.status_code} {a.text[:120]}" for a in answers if a.status_code != 201]
    given = Counter((s["table"], s["seat"]) for s in ok)
    twice = sum(n - 1 for n in given.values() if n > 1)
    at_seats = Counter(profile for _table, _seat, profile in stored_seats if profile is not None)
    twice += sum(n - 1 for n in at_seats.values() if n > 1)
    per_table = Counter(s["table"] for s in ok)
    overfilled = sum(1 for n in per_table.values() if n > SEATS)
    unseated = len(set(run["profiles"]) - set(at_seats))
    times = run["seated"]
    reference = run["reference"]
    print(f"\n{title}")
    print(f"  players seated            {len(ok)} of {len(answers)}, at {len(per_table)} tables")
    print(
        f"  time until seated         median {statistics.median(times):.2f} s,"
        f" p99 {percentile(times, 99):.2f} s, max {max(times):.2f} s"
    )
    print(
        f"  reference (a profile made by as many at once) median {reference:.2f} s;"
        f" seated median / reference {statistics.median(times) / reference:.1f}x"
    )
    print(f"  seats given twice         {twice}")
    print(f"  tables over-filled        {overfilled}")
    print(f"  players left unseated     {unseated}")
    if twice:
        problems.append(f"{title}: {twice} seats given twice")
    if overfilled:
        problems.append(f"{title}: {overfilled} tables over-filled")
    if unseated:
        problems.append(f"{title}: {unseated} players unseated")
    return problems


def sqlite_seats(db: Path) -> list[tuple[str, int, str | None]]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT table_id, seat, profile FROM seats WHERE kind = 'human'"))


def postgres_seats(url: str) -> list[tuple[str, int, str | None]]:
    with psycopg.connect(url) as conn:
        return list(conn.execute("SELECT table_id, seat, profile FROM seats WHERE kind = 'human'"))


def run(args: argparse.Namespace, tmp: Path, cleanup: contextlib.ExitStack) -> list[str]:
    rng = random.Random(args.seed)
    print(f"bench/lobby.py: {args.players} players press Play now for Omi at once")
    problems: list[str] = []

    # A. One SQLite node.
    db = tmp / "lobby.db"
    sqlite = Node("sqlite", functools.partial(start_server, db, "FULL", "thread", 1, CROWD_ENV))
    cleanup.callback(sqlite.stop)
    sqlite.launch()
    asyncio.run(wait_ready(sqlite.url))
    a = asyncio.run(crowd([sqlite.url], args.players, rng))
    sqlite.stop()
    problems += judge("A. one SQLite node", a, sqlite_seats(db))

    # B. PostgreSQL, Redis and the nodes.
    pg = PostgresServer()
    cleanup.callback(pg.remove)
    pg.start()
    redis_server = RedisServer()
    cleanup.callback(redis_server.stop)
    redis_server.start()
    db_url = pg.create_database("lobby")
    nodes = [
        Node(
            f"node{n + 1}",
            functools.partial(
                start_server,
                tmp / f"unused{n}.db",
                "FULL",
                "thread",
                1,
                CROWD_ENV,
                ["--database-url", db_url, "--redis-url", redis_server.url()],
            ),
        )
        for n in range(args.nodes)
    ]
    for node in nodes:
        cleanup.callback(node.stop)
        node.launch()
        asyncio.run(wait_ready(node.url))
    b = asyncio.run(crowd([node.url for node in nodes], args.players, rng))
    problems += judge(f"B. {args.nodes} nodes on PostgreSQL and Redis", b, postgres_seats(db_url))
    ratio = statistics.median(b["seated"]) / statistics.median(a["seated"])
    print(f"\ncluster / one node, median time until seated: {ratio:.1f}x")
    for node in nodes:
        problems += node.errors()
    problems += sqlite.errors()
    return problems


def main(args: argparse.Namespace) -> int:
    raise_fd_limit()
    with contextlib.ExitStack() as cleanup:
        tmp = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="bistrot-lobby-")))
        problems = run(args, tmp, cleanup)
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=400, help="players pressing Play now at once")
    parser.add_argument("--nodes", type=int, default=2, help="nodes of the cluster (phase B)")
    parser.add_argument("--seed", type=int, default=1, help="which node each request goes to")
    args = parser.parse_args(argv)
    if not 4 <= args.players <= 2000 or not 1 <= args.nodes <= 5:
        parser.error("--players is 4 to 2000, --nodes 1 to 5 (the benchmark is bounded)")
    return args


if __name__ == "__main__":
    try:
        sys.exit(main(parse_args()))
    except KeyboardInterrupt:
        sys.exit("interrupted")
