"""Strength of the Omi computer players: duplicate matches between levels, and hard's think time.

Plays ``--deals`` duplicate deals (each twice, seats swapped) for each pair and prints one JSON
line per pair with the token difference per deal (mean, 95% CI), the match win rate over
10-token matches (with its Wilson 95% interval) and think times, then a line per aim saying
whether it was met.  Then, unless ``--no-timing``, hard's think time alone in one process
(``--timing-deals`` deals against medium, one core), which is the figure the aim is about.

    nice /work/venv/bin/python bench/strength.py --deals 1000 --workers 2 > strength.out

Aims (issue 3): medium wins >= 75% of matches against easy; hard >= 70% against medium with
the token difference's interval above zero; hard's median decision < 300 ms, max < 1.5 s.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

from bistrot.arena.omi import run_arena


def _progress(label: str, total: int) -> Callable[[int], None]:
    start = time.time()
    step = max(1, total // 20)

    def report(done: int) -> None:
        if done % step == 0 or done == total:
            print(f"{label}: {done}/{total} deals, {time.time() - start:.0f} s", file=sys.stderr, flush=True)

    return report


def main() -> int:
    parser = argparse.ArgumentParser(description="Omi bot strength by duplicate arena")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--pairs", default="medium,easy hard,medium", help="space-separated pairs")
    parser.add_argument("--timing-deals", type=int, default=30)
    parser.add_argument("--no-timing", action="store_true")
    args = parser.parse_args()

    aims = []
    for pair in args.pairs.split():
        levels = pair.split(",")
        started = time.time()
        result = run_arena(levels, args.deals, seed=args.seed, workers=args.workers,
                           progress=_progress(pair, args.deals))
        result.pop("per_deal")
        result["seconds"] = round(time.time() - started, 1)
        result["workers"] = args.workers
        result["seed"] = args.seed
        print(json.dumps({"pair": pair, **result}), flush=True)
        rate = result["match_win_rate"]
        low = result["token_diff"]["ci95"][0]
        if rate is None:
            aims.append(f"{pair}: no match finished in {args.deals} deals: play more to judge the aims")
            continue
        if levels == ["medium", "easy"]:
            aims.append(f"medium vs easy: match win rate {rate:.3f} (aim >= 0.75): "
                        f"{'met' if rate >= 0.75 else 'NOT met'}")
        if levels == ["hard", "medium"]:
            aims.append(f"hard vs medium: match win rate {rate:.3f} (aim >= 0.70): "
                        f"{'met' if rate >= 0.70 else 'NOT met'}; token diff CI low {low:+.3f} "
                        f"(aim > 0): {'met' if low > 0 else 'NOT met'}")

    if not args.no_timing:
        result = run_arena(["hard", "medium"], args.timing_deals, seed=args.seed + 1, workers=1,
                           progress=_progress("timing hard,medium (1 process)", args.timing_deals))
        ms = result["think_ms"]["hard"]
        print(json.dumps({"timing": "hard, one process", "deals": args.timing_deals,
                          "decisions": result["decisions"]["hard"], "think_ms": ms}), flush=True)
        aims.append(f"hard think time on one core: median {ms['median']:.1f} ms (aim < 300), "
                    f"max {ms['max']:.1f} ms (aim < 1500): "
                    f"{'met' if ms['median'] < 300 and ms['max'] < 1500 else 'NOT met'}")
    for line in aims:
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
