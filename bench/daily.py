"""The daily deal under a morning crowd (issue 34): ``--players`` players with profiles start
today's Omi deal within ``--spread`` seconds (a minute) on one SQLite node, then some of them play
their game to the end and the analysis pool catches up with their games.

A. Every player gets a profile (not measured), then, at a moment drawn uniformly in the spread,
   sends ``POST /api/daily/omi`` and opens its table's WebSocket.  Measured: the time from the
   ``POST`` to the first ``state`` (the player's first view: four cards, the trump to choose),
   median, p99 and max; and, checked, that every first view holds the same four cards (one deal).
B. ``--finish`` of them play their four hands out (the first legal action each turn, at once), and
   the node's analysis pool (``bistrot serve``'s defaults: one worker process, and the daily deal's
   share of the queue) analyses each finished daily game.  Measured: from the last game's end until
   the last accuracy is on the board, and so the pool's rate (games a minute); from it, how long
   the pool would take to catch up with every one of ``--players`` games (a projection: playing
   and analysing 500 four-hand matches on this 2-core machine takes hours).

The exit status is 1 if something went wrong (a refused request, two different first views, an
accuracy missing after ``--wait`` seconds), not for a slow figure.  Bounded: loopback only, at most
2000 players; the server and its folder are removed at the end.

    nice -n 10 .venv/bin/python bench/daily.py --players 500 --finish 12
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH), str(BENCH.parent)]
from cluster import Node  # noqa: E402
from server import percentile, raise_fd_limit, start_server, wait_ready  # noqa: E402

#: Every simulated player asks from 127.0.0.1: the per-address quotas are lifted.
CROWD_ENV = {
    "BISTROT_PROFILE_QUOTA_BURST": "1000000",
    "BISTROT_TABLE_QUOTA_BURST": "1000000",
    "BISTROT_DAILY_SWEEP_S": "1",
}
HEADER = "X-Bistrot-Profile"


async def first_state(ws: ClientConnection) -> dict[str, Any]:
    """The next ``state`` message on ``ws``."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "state":
            found: dict[str, Any] = message
            return found


async def start_one(
    client: httpx.AsyncClient, url: str, key: str, at: float, began: float
) -> tuple[float, list[str], dict[str, Any], ClientConnection]:
    """At ``at`` seconds after ``began``: start today's deal and wait for the first view."""
    await asyncio.sleep(max(0.0, began + at - time.perf_counter()))
    sent = time.perf_counter()
    answer = await client.post(url + "/api/daily/omi", headers={HEADER: key})
    if answer.status_code != 201:
        raise SystemExit(f"POST /api/daily/omi refused: {answer.status_code} {answer.text[:200]}")
    started = answer.json()
    ws_url = url.replace("http://", "ws://") + f"/ws/{started['table']}"
    ws = await connect(ws_url, additional_headers={"Authorization": f"Bearer {started['token']}"},
                       max_queue=None, open_timeout=120)  # fmt: skip
    state = await first_state(ws)
    return time.perf_counter() - sent, state["view"]["hand"], state, ws


async def play_out(ws: ClientConnection, state: dict[str, Any]) -> None:
    """This seat's turns to the end: the first legal action each time."""
    number = 0
    while not state["view"]["is_over"]:
        if state["view"]["legal"]:
            number += 1
            act = {"type": "act", "id": f"a{number}", "action": state["view"]["legal"][0]}
            await ws.send(json.dumps(act))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "reject":
                    raise SystemExit(f"an action was refused: {message}")
                if message["type"] == "state" and message["seq"] >= state["seq"] + 1:
                    state = message
                    break
        else:
            state = await first_state(ws)


def analysed(db: Path) -> tuple[int, int]:
    """(finished daily games, those with their analysis recorded) in the node's store."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        row = conn.execute(
            "SELECT count(*), coalesce(sum(analysed), 0) FROM daily_games WHERE finished_at IS NOT NULL"
        ).fetchone()
    return int(row[0]), int(row[1])


async def crowd(url: str, db: Path, args: argparse.Namespace, rng: random.Random) -> list[str]:
    problems: list[str] = []
    limits = httpx.Limits(max_connections=args.players + 10, max_keepalive_connections=args.players + 10)
    async with httpx.AsyncClient(timeout=300, limits=limits) as client:
        made = await asyncio.gather(
            *(client.post(url + "/api/profiles", json={"name": f"P{i}"}) for i in range(args.players))
        )
        keys = [m.json()["key"] for m in made]
    # A connection each, as players' browsers would: one idle in a pool for the spread would be
    # closed by the server's keep-alive timeout just as it is used again.
    fresh = httpx.Limits(max_connections=args.players + 10, max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=300, limits=fresh) as client:
        began = time.perf_counter()
        starts = [rng.uniform(0, args.spread) for _ in keys]
        done = await asyncio.gather(
            *(start_one(client, url, k, at, began) for k, at in zip(keys, starts, strict=True))
        )
    times = [d[0] for d in done]
    hands = {tuple(d[1]) for d in done}
    print(f"\nA. {args.players} players start today's Omi deal within {args.spread:.0f} s")
    print(
        f"  time to the first view      median {statistics.median(times) * 1000:.0f} ms,"
        f" p99 {percentile(times, 99) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
    )
    print(f"  different first views       {len(hands)} (aim 1: one deal)")
    if len(hands) != 1:
        problems.append(f"{len(hands)} different first views of one day's deal")

    finishers = done[: args.finish]
    played = time.perf_counter()
    await asyncio.gather(*(play_out(ws, state) for _t, _h, state, ws in finishers))
    ended = time.perf_counter()
    for *_rest, ws in done:
        await ws.close()
    while True:
        finished, with_accuracy = analysed(db)
        if with_accuracy >= args.finish or time.perf_counter() - ended > args.wait:
            break
        await asyncio.sleep(0.5)
    caught_up = time.perf_counter() - ended
    print(f"\nB. {args.finish} of them play their four hands out ({ended - played:.1f} s), then the analysis")
    print(f"  finished daily games        {finished}, analysed {with_accuracy}")
    print(f"  analysis caught up          {caught_up:.1f} s after the last game's end")
    if with_accuracy < args.finish:
        problems.append(f"only {with_accuracy} of {args.finish} games analysed after {args.wait:.0f} s")
    else:
        per_minute = args.finish / (caught_up / 60)
        print(f"  analysis rate               {per_minute:.1f} games a minute (one worker)")
        print(
            f"  projected catch-up for all {args.players} games: {args.players / per_minute:.0f} min"
            " at that rate"
        )
    return problems


def main(args: argparse.Namespace) -> int:
    raise_fd_limit()
    rng = random.Random(args.seed)
    print(f"bench/daily.py: {args.players} players start today's Omi deal within {args.spread:.0f} s")
    with contextlib.ExitStack() as cleanup:
        tmp = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="bistrot-daily-")))
        db = tmp / "daily.db"
        node = Node("sqlite", functools.partial(start_server, db, "FULL", "thread", 1, CROWD_ENV))
        cleanup.callback(node.stop)
        node.launch()
        asyncio.run(wait_ready(node.url))
        problems = asyncio.run(crowd(node.url, db, args, rng))
        node.stop()
        problems += node.errors()
    for problem in problems:
        print("PROBLEM:", problem)
    return 1 if problems else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=500, help="players starting today's deal")
    parser.add_argument("--spread", type=float, default=60.0, help="seconds over which they start")
    parser.add_argument("--finish", type=int, default=12, help="players who play their game to the end")
    parser.add_argument("--wait", type=float, default=1800.0, help="seconds to wait for the analyses")
    parser.add_argument("--seed", type=int, default=1, help="when each player starts")
    args = parser.parse_args(argv)
    if not 1 <= args.players <= 2000 or not 0 <= args.finish <= args.players or not 0 < args.spread <= 600:
        parser.error("--players is 1 to 2000, --finish 0 to --players, --spread up to 600 s (bounded)")
    return args


if __name__ == "__main__":
    try:
        sys.exit(main(parse_args()))
    except KeyboardInterrupt:
        sys.exit("interrupted")
