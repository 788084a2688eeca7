"""How many double-dummy tricks each level's trump choice costs, on the same fresh deals.

    nice python bench/omi_trump_choice.py --players 3 --deals 2000 --first 50000 [--bots hard,hard-v1,medium]

Deals fresh hands ``first .. first + deals - 1`` (``OmiGame(rules, seed_from(i))``, the first
dealer moving round so that every seat chooses), lets each level in ``--bots`` name trump from the
chooser's first four cards at 0 : 0, and judges each choice as the arena does
(:func:`bistrot.arena.omi.trump_tricks`): the tricks the chooser's side takes with every hand open,
the chooser leading, against the best suit (with three players, the chooser against the other
two together).  The levels choose on the same deals, so their difference is paired: its standard
error is printed beside it.  A measure of the trump choice alone, far steadier than matches.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from bistrot import dealcode
from bistrot.arena.omi import trump_tricks
from bistrot.bots import make_bot
from bistrot.omi import OmiGame, OmiRules


def losses(levels: list[str], players: int, first: int, deals: int) -> dict[str, list[int]]:
    """For each level, the tricks its trump choice lost on each deal (redealt deals left out)."""
    bots = {level: make_bot("omi", level, seed=first) for level in levels}
    found: dict[str, list[int]] = {level: [] for level in levels}
    for i in range(first, first + deals):
        game = OmiGame(OmiRules(players=players), dealcode.seed_from(i), first_dealer=i % players)
        values = trump_tricks(game)
        if not values:
            continue
        best = max(values.values())
        view = game.view(game.to_move)
        choices = {level: bot.act(view) for level, bot in bots.items()}
        if any(choice not in values for choice in choices.values()):
            continue  # a suit the engine would deal again for: left out for every level (paired)
        for level, choice in choices.items():
            found[level].append(best - values[choice])
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(4, 3), default=3)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--first", type=int, default=50000, help="seed of the first deal")
    parser.add_argument("--bots", default="hard,hard-v1,medium", help="levels, the last the reference")
    args = parser.parse_args(argv)
    levels = [b.strip() for b in args.bots.split(",")]
    found = losses(levels, args.players, args.first, args.deals)
    reference = found[levels[-1]]
    n = len(reference)
    report: dict[str, object] = {"players": args.players, "deals": n, "first": args.first, "loss": {}}
    for level in levels:
        mine = found[level]
        diffs = [a - b for a, b in zip(mine, reference, strict=True)]
        mean = sum(diffs) / n
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else 0.0
        report["loss"][level] = {  # type: ignore[index]
            "mean": round(sum(mine) / n, 4), "vs_reference": round(mean, 4), "se": round(se, 4),
            "best_suit": round(sum(1 for x in mine if x == 0) / n, 3),
        }
    print(json.dumps(report), file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
