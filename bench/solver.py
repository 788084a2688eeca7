"""Double-dummy solver speed: the built-in Python solver against DDS on the same positions.

    nice /work/venv/bin/python bench/solver.py [--positions 80] [--repeat 3] [--seed 1]
        [--clock cpu|wall] [--players 4|3] [--json]

Builds a fixed, seeded set of positions at tricks 1, 3 and 5 of random Omi deals (random
trump, random legal play before; at each stage a quarter of the positions are leads and the
rest have 1, 2 or 3 cards of the trick already played), scores every legal card with the
built-in solver and with DDS (endplay), and prints per stage the median and max time of each,
and the ratio of the medians.  Leads at trick 1 (8 cards a hand, the hardest case) get their
own line.  Each solver solves every position in ``--repeat`` rounds and keeps its fastest
time per position; a round goes through all the positions, so that DDS, which keeps its
table when the same deal comes twice in a row, starts afresh each time like the Python
solver.  Times are CPU time of this process by default, so load from other processes on a
shared machine mostly cancels.  Every position is also checked card by card: the report ends
with the number of disagreements between the solvers (there must be none; the exit status is
1 if there are any).  ``--players 3`` does the same with three-player deals (24 cards, the seat to
move alone against the other two), which DDS solves through its phantom fourth hand
(:func:`bistrot.omi.dd.dds_solver.seating`, included in its time).

Aim (issue 3): the built-in solver within 50 times DDS at trick 1.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import TypedDict

from bistrot.cards import CARD_NAMES
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd import Position, available_solvers
from bistrot.omi.dd.dds_solver import solve_dds
from bistrot.omi.dd.python_solver import solve_python

STAGES = (1, 3, 5)


class Times(TypedDict):
    """One solver's times at a stage, in milliseconds."""

    median: float
    max: float


class Row(TypedDict):
    """One line of the report: a stage, both solvers' times and the ratio of their medians."""

    stage: str
    positions: int
    python_ms: Times
    dds_ms: Times
    ratio: float


def build_positions(stage: int, count: int, seed: int, players: int = 4) -> list[Position]:
    """``count`` positions in trick ``stage``; position ``i`` has ``i % players`` cards of it played."""
    positions = []
    for i in range(count):
        game_seed = seed * 1_000_003 + stage * 10_007 + i
        game = OmiGame.new(OmiRules(players=players), seed=game_seed)
        rng = random.Random(game_seed)
        game.apply(rng.choice(game.legal_actions()))
        for _ in range((stage - 1) * players + i % players):
            game.apply(rng.choice(game.legal_actions()))
        positions.append(Position.from_game(game))
    return positions


def timed(
    solver: Callable[[Position], dict[int, int]], pos: Position, clock: Callable[[], float]
) -> tuple[dict[int, int], float]:
    """The solver's values and the time it took."""
    start = clock()
    values = solver(pos)
    return values, clock() - start


def summary(name: str, python: list[float], dds: list[float]) -> Row:
    py_median, dds_median = statistics.median(python), statistics.median(dds)
    return {
        "stage": name,
        "positions": len(python),
        "python_ms": {"median": round(py_median * 1000, 2), "max": round(max(python) * 1000, 1)},
        "dds_ms": {"median": round(dds_median * 1000, 3), "max": round(max(dds) * 1000, 2)},
        "ratio": round(py_median / dds_median, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=80, help="positions per stage (default 80)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per position, fastest kept (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the position set (default 1)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="what to time (default cpu)")
    parser.add_argument("--players", type=int, choices=(4, 3), default=4, help="players a deal (default 4)")
    parser.add_argument("--json", action="store_true", help="print the rows as one JSON object")
    args = parser.parse_args(argv)
    if "dds" not in available_solvers():
        sys.exit("bench/solver.py compares against DDS: install endplay first")
    clock = time.process_time if args.clock == "cpu" else time.perf_counter

    solve_dds(build_positions(1, 1, args.seed + 1)[0])  # DDS allocates its tables on the first call
    rows: list[Row] = []
    disagreements = []
    for stage in STAGES:
        positions = build_positions(stage, args.positions, args.seed, args.players)
        py_times = [float("inf")] * len(positions)
        dds_times = [float("inf")] * len(positions)
        for _ in range(args.repeat):  # whole rounds: DDS keeps its table when a deal repeats
            for i, pos in enumerate(positions):
                py_values, py_time = timed(solve_python, pos, clock)
                dds_values, dds_time = timed(solve_dds, pos, clock)
                py_times[i] = min(py_times[i], py_time)
                dds_times[i] = min(dds_times[i], dds_time)
        for pos in positions:
            py_values, dds_values = solve_python(pos), solve_dds(pos)
            if py_values != dds_values:
                disagreements.append(
                    {
                        "position": str(pos),
                        "python": {CARD_NAMES[c]: v for c, v in sorted(py_values.items())},
                        "dds": {CARD_NAMES[c]: v for c, v in sorted(dds_values.items())},
                    }
                )
        rows.append(summary(f"trick {stage}", py_times, dds_times))
        if stage == 1:
            leads = [i for i, pos in enumerate(positions) if not pos.trick]
            rows.append(summary("trick 1 leads", [py_times[i] for i in leads], [dds_times[i] for i in leads]))

    if args.json:
        print(
            json.dumps({"clock": args.clock, "seed": args.seed, "players": args.players, "rows": rows,
                        "disagreements": disagreements})
        )
        return 1 if disagreements else 0
    print(f"Scoring every legal card: {args.clock} time per position (fastest of {args.repeat}), "
          f"seed {args.seed}, {args.players} players")
    print(
        f"{'stage':<15}{'positions':>10}{'python median':>15}{'max':>10}{'dds median':>13}"
        f"{'max':>9}{'ratio':>8}"
    )
    for row in rows:
        py, dds = row["python_ms"], row["dds_ms"]
        print(
            f"{row['stage']:<15}{row['positions']:>10}{py['median']:>12.2f} ms{py['max']:>7.1f} ms"
            f"{dds['median']:>10.3f} ms{dds['max']:>6.2f} ms{row['ratio']:>7.1f}x"
        )
    print(f"disagreements between the solvers: {len(disagreements)}")
    for bad in disagreements:
        print(f"  {bad['position']}\n    python {bad['python']}\n    dds    {bad['dds']}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
