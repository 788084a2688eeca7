"""Analysis speed: CPU time to analyse a whole Omi hand (DDS and the built-in solver) and a whole
Oti game, medians over seeded games, next to the bare reference loop measured in the same run.

    nice python bench/analysis.py [--games 5] [--omi-samples 64,32,16] [--oti-samples 200]
        [--oti-players 3] [--seed 1] [--reference PATH] [--json]

Each Omi game is the first hand of a match played by medium players (seeds from ``--seed``),
analysed with every solver available and each number of layouts; each Oti game a whole game of
medium players.  Times are CPU seconds of this process (``time.process_time``: one core, load
from other processes mostly cancels), split into the trump choice and the cards for Omi.  The
reference is ``../shared/bench/reference_playout.py``'s bare random-hand loop, timed before and
after; each median is also given in reference units (seconds × reference hands per second /
1,000: thousands of bare hands the same CPU time would play), which compares across machines.

Aims (issue 14): an Omi hand <= 2 s on one core with DDS, <= 15 s with the built-in solver.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bistrot.analysis import analyze
from bistrot.analysis.omi import DEFAULT_SAMPLES as OMI_SAMPLES
from bistrot.analysis.omi import PYTHON_SAMPLES
from bistrot.analysis.omi import analyze as analyze_omi
from bistrot.analysis.oti import DEFAULT_SAMPLES as OTI_SAMPLES
from bistrot.bots import play
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd import Position, available_solvers, solve
from bistrot.oti import OtiGame, OtiRules

DEFAULT_REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "reference_playout.py"
AIMS = {"dds": 2.0, "python": 15.0}


def load_reference(path: Path) -> Callable[[random.Random], object]:
    if not path.exists():
        sys.exit(f"reference loop not found at {path}; pass --reference PATH")
    spec = importlib.util.spec_from_file_location("reference_playout", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.playout


def reference_rate(playout: Callable[[random.Random], object], seconds: float = 2.0) -> float:
    """Bare random hands per CPU second."""
    rng, hands, start = random.Random(0), 0, time.process_time()
    while time.process_time() - start < seconds:
        playout(rng)
        hands += 1
    return hands / (time.process_time() - start)


def omi_hand(seed: int) -> OmiGame:
    hand: OmiGame = play(OmiGame.new(OmiRules(), seed), "medium", until=lambda g: bool(g.results))
    return hand


def oti_game(seed: int, players: int) -> OtiGame:
    game: OtiGame = play(OtiGame.new(OtiRules(players=players), seed), "medium")
    return game


def time_omi(game: OmiGame, samples: int, solver: str) -> tuple[float, float, int]:
    """CPU seconds for the whole hand, of which the trump choice, and decisions judged."""
    marks: list[float] = []
    start = time.process_time()
    found = analyze_omi(game, samples, 0, lambda done, total: marks.append(time.process_time()), solver)
    total = time.process_time() - start
    trump = marks[0] - start  # the trump choice is the first decision
    return total, trump, len(found.moves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="seeded games per figure (default 5)")
    parser.add_argument("--omi-samples", default=f"{OMI_SAMPLES},{PYTHON_SAMPLES}",
                        help="layouts per decision to time, comma-separated")
    parser.add_argument("--oti-samples", type=int, default=OTI_SAMPLES, help="deals per Oti decision")
    parser.add_argument("--oti-players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    playout = load_reference(args.reference)
    solve(Position(hands=(1 << 12, 1 << 11, 1 << 10, 1 << 9), trump=0))  # DDS's one-time set-up
    before = reference_rate(playout)
    seeds = [args.seed * 1000 + i for i in range(args.games)]
    omi_games = [omi_hand(s) for s in seeds]
    rows: list[dict[str, object]] = []
    for solver in [s for s in ("dds", "python") if s in available_solvers()]:
        for samples in (int(x) for x in args.omi_samples.split(",")):
            runs = [time_omi(game, samples, solver) for game in omi_games]
            total = statistics.median(r[0] for r in runs)
            rows.append({
                "what": f"Omi hand, {solver}, {samples} layouts", "median_s": round(total, 2),
                "max_s": round(max(r[0] for r in runs), 2),
                "trump_s": round(statistics.median(r[1] for r in runs), 2),
                "decisions": statistics.median(r[2] for r in runs),
                "aim_s": AIMS[solver], "met": total <= AIMS[solver],
            })
            print(f"  {rows[-1]}", file=sys.stderr)
    oti_runs = []
    for seed in seeds:
        game = oti_game(seed, args.oti_players)
        start = time.process_time()
        found = analyze(game, samples=args.oti_samples)
        oti_runs.append((time.process_time() - start, len(found.moves)))
    rows.append({
        "what": f"Oti game, {args.oti_players} players, {args.oti_samples} deals",
        "median_s": round(statistics.median(r[0] for r in oti_runs), 2),
        "max_s": round(max(r[0] for r in oti_runs), 2),
        "decisions": statistics.median(r[1] for r in oti_runs),
    })
    after = reference_rate(playout)
    reference = statistics.mean([before, after])
    for row in rows:
        row["reference_units"] = round(float(row["median_s"]) * reference / 1000, 2)  # type: ignore[arg-type]
    if args.json:
        print(json.dumps({"reference_hands_per_s": round(reference), "rows": rows}))
        return 0
    print(f"reference loop: {before:,.0f} then {after:,.0f} bare hands per CPU second; "
          f"{args.games} games per line, CPU seconds")
    print(f"{'':<34} {'median':>7} {'max':>7} {'trump':>6} {'decisions':>9} {'ref units':>9}  aim")
    for row in rows:
        aim = "" if "aim_s" not in row else f"<= {row['aim_s']} s: {'met' if row['met'] else 'MISSED'}"
        trump = "" if "trump_s" not in row else f"{row['trump_s']:.2f}"
        print(f"{row['what']:<34} {row['median_s']:>7.2f} {row['max_s']:>7.2f} {trump:>6} "
              f"{row['decisions']:>9} {row['reference_units']:>9.2f}  {aim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
