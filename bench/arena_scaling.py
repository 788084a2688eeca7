"""How the arena scales: deals per second with 1 and 2 worker processes, over the process pool and
over Ray (a local Ray of that many CPUs, started once before its runs: the start is reported on
its own), Ray's overhead per deal, and how many deals a difference of 0.05 tokens a deal needs.

Each run plays the same ``--deals`` duplicate Omi deals (``--bots``, double-dummy measures off)
from the same seed, so every run's results are identical (checked); the figures are medians over
``--repeats`` runs, alternated between the set-ups.  Ray's overhead per deal is, at the same
number of workers, Ray's seconds per deal minus the pool's.  The deals needed: the per-deal
token differences' standard deviation σ, measured here, gives n ≈ (z·σ/d)² deals for a 95%
interval of half-width d = 0.05 (z = 1.96).

    nice python bench/arena_scaling.py --deals 40 --repeats 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from bistrot.arena import omi
from bistrot.arena.runner import Where
from bistrot.arena.stats import Z95

DIFFERENCE = 0.05


def run(levels: list[str], deals: int, seed: int, where: Where) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    result = omi.run_arena(levels, deals, seed=seed, dd=False, where=where)
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="medium,easy")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    levels = args.bots.split(",")
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    times: dict[str, list[float]] = {}
    reference: dict[str, Any] | None = None
    print(f"{args.deals} duplicate deals of {args.bots}, {args.repeats} repeats; load {os.getloadavg()}")
    for workers in (1, 2):
        start = time.perf_counter()
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
        print(f"a local Ray of {workers} CPU(s) started in {time.perf_counter() - start:.1f} s")
        try:
            ray_where = Where(workers=workers, ray="local")
            run(levels, min(args.deals, 4), args.seed, ray_where)  # its workers started and warm
            for _ in range(args.repeats):
                setups = ((f"pool {workers}", Where(workers=workers)), (f"ray {workers}", ray_where))
                for name, where in setups:
                    seconds, result = run(levels, args.deals, args.seed, where)
                    times.setdefault(name, []).append(seconds)
                    same = {k: v for k, v in result.items() if k != "think_ms"}
                    if reference is None:
                        reference = same
                    assert same == reference, f"{name} gave other results"
        finally:
            ray.shutdown()
    assert reference is not None
    print(f"{'set-up':<8} {'deals/s':>8} {'ms/deal':>8}")
    per_deal = {name: statistics.median(values) / args.deals for name, values in times.items()}
    for name, seconds in per_deal.items():
        print(f"{name:<8} {1 / seconds:8.2f} {1000 * seconds:8.1f}")
    for workers in (1, 2):
        overhead = per_deal[f"ray {workers}"] - per_deal[f"pool {workers}"]
        print(f"Ray's overhead with {workers} worker(s): {1000 * overhead:+.1f} ms a deal")
    sigma = statistics.stdev(reference["per_deal"])
    needed = (Z95 * sigma / DIFFERENCE) ** 2
    print(f"per-deal token difference: sd {sigma:.2f} over {args.deals} deals; a 95% interval of "
          f"±{DIFFERENCE} needs n = (z·σ/{DIFFERENCE})² ≈ {needed:,.0f} deals")


if __name__ == "__main__":
    main()
