"""Reconnect cost: a catch-up of a few missed actions at tables with a long history, the table
core's way (from the nearest kept snapshot) against a replay from scratch (the way before item 4
of the hardening issue), measured in the same run.

    python bench/catchup.py [--rounds 7] [--repeat 20] [--missed 10] [--histories 1000 5000 25000]

Each round times ``repeat`` catch-ups of each kind one after the other at every history length;
the report gives the median time of each and the median of the per-round ratios, so load on
this shared machine mostly cancels.  It also times the rebuild alone (a catch-up is the
rebuild of the game as it stood at ``since``, then the missed actions and their states) and
loading a table (one full replay, at load).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bistrot.tablecore.core import TableCore
from tests.long_tables import endless_omi, hotseat_table

FROM_SCRATCH = 10**9
"""A snapshot interval no history reaches: that core rebuilds from scratch, as before."""


def per_call(fn: Callable[[], object], repeat: int) -> float:
    """Seconds per call of ``fn``, over ``repeat`` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--missed", type=int, default=10)
    parser.add_argument("--histories", type=int, nargs="+", default=[1_000, 5_000, 25_000])
    args = parser.parse_args()

    tables = {n: hotseat_table(endless_omi(n, seed=n), seed=n) for n in args.histories}
    cores = {n: (TableCore(t), TableCore(t, snapshot_every=FROM_SCRATCH)) for n, t in tables.items()}
    times: dict[int, tuple[list[float], list[float], list[float]]] = {
        n: ([], [], []) for n in args.histories
    }
    rebuilds: dict[int, list[float]] = {n: [] for n in args.histories}
    loads: dict[int, list[float]] = {n: [] for n in args.histories}
    for _ in range(args.rounds):
        for n, (new, old) in cores.items():
            since = n - args.missed
            # partial binds this iteration's core and ``since`` now (B023); a lambda would need
            # default arguments, whose types mypy cannot infer.
            t_new = per_call(partial(new.catch_up, 0, since), args.repeat)
            t_old = per_call(partial(old.catch_up, 0, since), args.repeat)
            news, olds, ratios = times[n]
            news.append(t_new)
            olds.append(t_old)
            ratios.append(t_old / t_new)
            rebuilds[n].append(per_call(partial(new.rebuilt, since), args.repeat))
            loads[n].append(per_call(partial(TableCore, tables[n]), 1))

    print(f"catch-up of {args.missed} missed actions, medians of {args.rounds} rounds x {args.repeat}")
    print(f"{'events':>8} {'snapshots ms':>13} {'from scratch ms':>16} {'ratio':>8} {'rebuild ms':>11}"
          f" {'load ms':>8}")
    for n in args.histories:
        news, olds, ratios = times[n]
        print(
            f"{n:>8} {statistics.median(news) * 1e3:>13.3f} {statistics.median(olds) * 1e3:>16.3f}"
            f" {statistics.median(ratios):>7.1f}x {statistics.median(rebuilds[n]) * 1e3:>11.3f}"
            f" {statistics.median(loads[n]) * 1e3:>8.1f}"
        )


if __name__ == "__main__":
    main()
