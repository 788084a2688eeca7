"""Oti bot strength and speed: the figures issue 4 asks for, measured with the arena.

    nice python bench/oti_strength.py [--games 400] [--workers 2] [--seed 1] [--only medium|hard]

Plays 2-player games with the seats rotated over each deal (see ``bistrot.arena.rotation``):

* medium against easy: the aim is a win rate of at least 65%;
* hard (default options: 0.5 s budget, early stop) against medium: at least 60%, and hard's
  median decision under 300 ms (wall time of ``act``, forced moves included, as the arena
  measures it on this machine, whatever else runs on it).

It prints each win rate with its 95% Wilson interval, the think times, how games ended, and
whether each aim is met by the point estimate and by the whole interval.
"""

from __future__ import annotations

import argparse
import json
import time

from bistrot.arena.rotation import run_arena
from bistrot.games import get

AIMS = {("medium", "easy"): 0.65, ("hard", "medium"): 0.60}
HARD_MEDIAN_MS = 300.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("medium", "hard"), help="run one of the two comparisons")
    args = parser.parse_args()
    for pair, aim in AIMS.items():
        if args.only and pair[0] != args.only:
            continue
        start = time.perf_counter()
        result = run_arena(get("oti"), list(pair), args.games, players=2, seed=args.seed,
                           workers=args.workers)
        elapsed = time.perf_counter() - start
        first = pair[0]
        rate = result["win_rate"][first]
        low, high = rate["ci95"]
        print(f"{first} vs {pair[1]}: {args.games} games, 2 players, seed {args.seed}, "
              f"{elapsed:.0f} s")
        verdict = "met" if rate["rate"] >= aim else "NOT met"
        print(f"  win rate {first}: {rate['rate']:.1%} [95% CI {low:.1%}, {high:.1%}]  aim >= {aim:.0%}: "
              f"{verdict} (whole interval: {'yes' if low >= aim else 'no'})")
        for name in result["bots"]:
            ms = result["think_ms"][name]
            print(f"  think {name}: median {ms['median']:.2f} ms, max {ms['max']:.0f} ms, "
                  f"{result['decisions'][name]} decisions")
        if first == "hard":
            median = result["think_ms"]["hard"]["median"]
            print(f"  hard median decision {median:.1f} ms, aim < {HARD_MEDIAN_MS:.0f} ms: "
                  f"{'met' if median < HARD_MEDIAN_MS else 'NOT met'}")
        print(f"  games ended by {json.dumps(result['end_reasons'])}, "
              f"{result['mean_actions']:.0f} actions a game")


if __name__ == "__main__":
    main()
