"""The fixed ratings of the computer players (issue 33): where each level sits on openskill's scale,
from the levels' measured results against each other.

Rated games count computer players as anchors: one rating per game and level, never updated
(:data:`bistrot.server.ratings.ANCHORS`).  medium sits at a new player's mu (25); easy and hard
are placed so that openskill's own ``predict_win`` gives the win rates the arena measured between
the levels (README, "Computer players": Omi's 10-token matches between two pairs of a level,
Oti's two-player games), each anchor with sigma 1.  The win rates are arguments, so a new
measurement gives new anchors at once; the defaults are the README's:

    python bench/rating_anchors.py
    python bench/rating_anchors.py --omi 0.791 0.712 --oti 0.932 0.853
"""

from __future__ import annotations

import argparse
import sys

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
SIGMA = 1.0
MEDIUM = MODEL.mu
#: Seats a level fills on a side: Omi is two pairs, Oti measured between two players.
SIDE = {"omi": 2, "oti": 1}


def win_rate(game: str, stronger: float, weaker: float) -> float:
    """openskill's chance that a side of ``stronger`` beats one of ``weaker`` (mu, sigma 1)."""
    sides = [[MODEL.rating(mu=mu, sigma=SIGMA) for _ in range(SIDE[game])] for mu in (stronger, weaker)]
    return float(MODEL.predict_win(sides)[0])


def gap(game: str, rate: float) -> float:
    """The mu difference at which openskill predicts ``rate`` for the stronger side (bisection)."""
    low, high = 0.0, 100.0
    for _ in range(100):
        middle = (low + high) / 2
        if win_rate(game, MEDIUM + middle, MEDIUM) < rate:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def anchors(game: str, medium_over_easy: float, hard_over_medium: float) -> dict[str, tuple[float, float]]:
    """The anchors of ``game``'s levels from the two measured win rates."""
    return {
        "easy": (round(MEDIUM - gap(game, medium_over_easy), 2), SIGMA),
        "medium": (MEDIUM, SIGMA),
        "hard": (round(MEDIUM + gap(game, hard_over_medium), 2), SIGMA),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--omi", nargs=2, type=float, default=[0.791, 0.712], metavar=("MEDIUM_EASY", "HARD_MEDIUM")
    )
    parser.add_argument(
        "--oti", nargs=2, type=float, default=[0.932, 0.853], metavar=("MEDIUM_EASY", "HARD_MEDIUM")
    )
    args = parser.parse_args(argv)
    for rate in [*args.omi, *args.oti]:
        if not 0.5 < rate < 1:
            parser.error("a win rate of the stronger level is between 0.5 and 1")
    for game, (medium_easy, hard_medium) in (("omi", args.omi), ("oti", args.oti)):
        found = anchors(game, medium_easy, hard_medium)
        print(f"{game}: {found}")
        for low, high, rate in (("easy", "medium", medium_easy), ("medium", "hard", hard_medium)):
            check = win_rate(game, found[high][0], found[low][0])
            print(f"  {high} over {low}: measured {rate:.3f}, openskill predicts {check:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
