"""Engine speed: full random Omi matches per second through the public API and the fast path,
as ratios of cards played per second against the bare reference loop measured in the same run.

    python bench/engine.py [--rounds 5] [--seconds 2] [--reference PATH]

Each round measures the three loops one after the other for the same time; the report gives
the median rate of each and the median of the per-round ratios, so load on this shared machine
mostly cancels.  Aims (issue 2): public API >= 0.25 x the reference's cards per second, fast
path >= 1.5 x.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.fast import random_match

HAND_CARDS = 32
DEFAULT_REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "reference_playout.py"


def load_reference(path: Path) -> Callable[[random.Random], object]:
    """The bare loop's ``playout(rng)`` (one random hand) from the reference script at ``path``."""
    if not path.exists():
        sys.exit(f"reference loop not found at {path}; pass --reference PATH")
    spec = importlib.util.spec_from_file_location("reference_playout", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # The module is loaded at run time, so mypy cannot see its attribute's type.
    playout: Callable[[random.Random], object] = module.playout
    return playout


def reference_rate(playout: Callable[[random.Random], object], seconds: float) -> float:
    """Cards per second of the bare loop (32 cards a hand)."""
    rng, hands, start = random.Random(0), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        playout(rng)
        hands += 1
    return hands * HAND_CARDS / (time.perf_counter() - start)


def public_api_rate(seconds: float) -> tuple[float, float]:
    """Cards per second and matches per second: legal_actions() as texts, apply() with checks."""
    rules, rng = OmiRules(), random.Random(1)
    rnd = rng.random
    cards = matches = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        game = OmiGame.new(rules, seed=seed)
        while not game.is_over:
            actions = game.legal_actions()
            game.apply(actions[int(rnd() * len(actions))])
        cards += sum(1 for action in game.actions if action[1][0] == "p")
        matches += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return cards / elapsed, matches / elapsed


def fast_path_rate(seconds: float) -> tuple[float, float]:
    """Cards per second and matches per second on card-set ints (bistrot.omi.fast)."""
    rules, rng = OmiRules(), random.Random(2)
    hands = matches = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        hands += random_match(rules, rng.random, rng.shuffle).hands
        matches += 1
    elapsed = time.perf_counter() - start
    return hands * HAND_CARDS / elapsed, matches / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    args = parser.parse_args()
    playout = load_reference(args.reference)
    rows = []
    for round_number in range(1, args.rounds + 1):
        ref = reference_rate(playout, args.seconds)
        api, api_matches = public_api_rate(args.seconds)
        fast, fast_matches = fast_path_rate(args.seconds)
        rows.append((ref, api, api_matches, fast, fast_matches))
        print(f"round {round_number}: reference {ref:,.0f} cards/s | public API {api:,.0f} cards/s "
              f"({api / ref:.2f}x) | fast path {fast:,.0f} cards/s ({fast / ref:.2f}x)", flush=True)
    med = statistics.median
    print()
    print(f"reference loop   {med(r[0] for r in rows):>12,.0f} cards/s")
    for name, cards, matches, aim in (("public API", 1, 2, 0.25), ("fast path", 3, 4, 1.5)):
        print(f"{name:<16} {med(r[cards] for r in rows):>12,.0f} cards/s  "
              f"{med(r[matches] for r in rows):>8,.1f} matches/s  "
              f"ratio {med(r[cards] / r[0] for r in rows):.2f}x (aim >= {aim}x)")


if __name__ == "__main__":
    main()
