"""How many double-dummy tricks each level's trump choice costs, on the same fresh deals.

    nice python bench/omi_trump_choice.py --players 3 --deals 2000 --first 50000 [--bots hard,hard-v1,medium]
        [--play]

Deals fresh hands ``first .. first + deals - 1`` (``OmiGame(rules, seed_from(i))``, the first
dealer moving round so that every seat chooses), lets each level in ``--bots`` name trump from the
chooser's first four cards at 0 : 0, and judges each choice as the arena does
(:func:`bistrot.arena.omi.trump_tricks`): the tricks the chooser's side takes with every hand open,
the chooser leading, against the best suit (with three players, the chooser against the other
two together).  The levels choose on the same deals, so their difference is paired: its standard
error is printed beside it.  A measure of the trump choice alone, far steadier than matches.

``--play`` also plays out, on each deal where the first level and the last name different
suits, the hand with each of the two suits: ``hard`` in the chooser's seat, medium in the others
(the same seeds both times), and reports what the chooser's side gained, in tokens, less what
the others gained (with three players, half of it, as hard values a hand): the two choices'
worth in real play against medium, paired deal by deal.
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


def losses(levels: list[str], players: int, first: int, deals: int,
           play: bool = False) -> tuple[dict[str, list[int]], list[float]]:
    """For each level, the tricks its trump choice lost on each deal (redealt deals left out);
    and with ``play``, the played gain of the first level's suit less the last's on each deal
    where they differ (:func:`played_gain`)."""
    bots = {level: make_bot("omi", level, seed=first) for level in levels}
    found: dict[str, list[int]] = {level: [] for level in levels}
    played: list[float] = []
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
        mine, theirs = choices[levels[0]], choices[levels[-1]]
        if play and mine != theirs:
            played.append(played_gain(game, mine, i) - played_gain(game, theirs, i))
    return found, played


def played_gain(game: OmiGame, trump: str, index: int) -> float:
    """The chooser's side's tokens less the others' (halved with three players) when ``game``'s
    hand is played out with ``trump``: hard in the chooser's seat, medium in the others."""
    trial = game.copy()
    chooser = trial.to_move
    assert chooser is not None
    rules = trial.rules
    mine = rules.side_of(chooser)
    bots = [make_bot("omi", "hard" if rules.side_of(s) == mine else "medium", seed=10 * index + s)
            for s in range(rules.players)]
    trial.apply(trump, seat=chooser)
    while not trial.results:
        seat = trial.to_move
        assert seat is not None
        trial.apply(bots[seat].act(trial.view(seat)), seat=seat)
    result = trial.results[0]
    if result["side"] is None:
        return 0.0
    others = 2 if rules.players == 3 else 1
    return float(result["tokens"]) if result["side"] == mine else -result["tokens"] / others


def paired(diffs: list[float]) -> tuple[float, float]:
    """Mean and standard error of paired differences."""
    n = len(diffs)
    mean = sum(diffs) / n
    return mean, math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(4, 3), default=3)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--first", type=int, default=50000, help="seed of the first deal")
    parser.add_argument("--bots", default="hard,hard-v1,medium", help="levels, the last the reference")
    parser.add_argument("--play", action="store_true",
                        help="play out the hands where the first and last levels' suits differ")
    args = parser.parse_args(argv)
    levels = [b.strip() for b in args.bots.split(",")]
    found, played = losses(levels, args.players, args.first, args.deals, args.play)
    reference = found[levels[-1]]
    n = len(reference)
    report: dict[str, object] = {"players": args.players, "deals": n, "first": args.first, "loss": {}}
    for level in levels:
        mine = found[level]
        mean, se = paired([a - b for a, b in zip(mine, reference, strict=True)])
        report["loss"][level] = {  # type: ignore[index]
            "mean": round(sum(mine) / n, 4), "vs_reference": round(mean, 4), "se": round(se, 4),
            "best_suit": round(sum(1 for x in mine if x == 0) / n, 3),
        }
    if args.play:
        mean, se = paired(played) if played else (0.0, 0.0)
        report["played"] = {"deals": len(played), "gain": round(mean, 4), "se": round(se, 4),
                            "of": f"{levels[0]}'s suit less {levels[-1]}'s, tokens a hand"}
    print(json.dumps(report), file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
