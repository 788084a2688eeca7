"""Generate the hard Omi bot's trump-choice tables, ``src/bistrot/omi/bots/data/trump_table.json``
(four players) and ``trump_table_3.json`` (``--players 3``).

For each four-card hand (up to renaming suits: 2,262 from the 32-card deck, 696 from the 24-card
deck of three players) the chooser (seat 0) holds those cards first; the other cards are dealt at
random ``--samples`` times (4 more to the chooser, 8 to each other seat).  Each deal is solved
double dummy with every suit as trump, the chooser leading (:func:`bistrot.omi.dd.solve`: Bo
Haglund's DDS, three players through its phantom fourth hand); the file counts, for each suit,
how often the chooser's side took 0 to 8 tricks (with three players: the chooser alone against
the other two together).  The table's token values and the match-aware choice both read these
counts.  The same deals serve all four suits (common random numbers), and suits with the same
holding (e.g. two suits not held) pool their deals.

Run (about 5 minutes on an idle core with 120 samples; three players, about 2)::

    nice .venv/bin/python scripts/make_trump_table.py --samples 120 --workers 1
    nice .venv/bin/python scripts/make_trump_table.py --players 3 --samples 240 --workers 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path

from bistrot.cards import SUIT_BITS, bits
from bistrot.omi.bots.trump_table import CHOOSER_TOKENS, TABLE_FILES, shape_key
from bistrot.omi.dd import Position, solve
from bistrot.omi.rules import HAND_SIZE, OmiRules

DATA = Path(__file__).resolve().parent.parent / "src/bistrot/omi/bots/data"


def all_shapes(deck: list[int]) -> dict[str, list[int]]:
    """Every shape key of four cards of ``deck`` with a representative hand (place i in suit i)."""
    shapes: dict[str, list[int]] = {}
    for hand in combinations(deck, 4):
        key, order = shape_key(hand)
        if key not in shapes:
            # Rename suits so that place i is suit i.
            rename = {suit: place for place, suit in enumerate(order)}
            shapes[key] = sorted(rename[c // SUIT_BITS] * SUIT_BITS + c % SUIT_BITS for c in hand)
    return shapes


def counts_of(args: tuple[str, list[int], int, int, int]) -> tuple[str, list[list[int]]]:
    """How often the chooser's side took 0 to 8 tricks with each place's suit as trump."""
    key, hand, samples, seed, players = args
    rng = random.Random(f"{seed}:{key}")
    rest = [c for c in bits(OmiRules(players=players).deck) if c not in hand]
    counts = [[0] * (HAND_SIZE + 1) for _ in range(4)]
    for _ in range(samples):
        rng.shuffle(rest)
        dealt = [hand + rest[:4]] + [rest[4 + 8 * i:12 + 8 * i] for i in range(players - 1)]
        hands = tuple(sum(1 << c for c in cards) for cards in dealt)
        for suit in range(4):
            solved = solve(Position(hands=hands, trump=suit, to_move=0, players=players))
            counts[suit][max(solved.values())] += 1
    # Places with the same holding are the same choice: pool their deals.
    holdings = key.split(".")
    for text in set(holdings):
        places = [i for i, h in enumerate(holdings) if h == text]
        pooled = [sum(counts[i][t] for i in places) for t in range(HAND_SIZE + 1)]
        for i in places:
            counts[i] = list(pooled)
    return key, counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100, help="deals per hand")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0, help="only the first N shapes (for a trial)")
    parser.add_argument("--players", type=int, choices=(4, 3), default=4)
    parser.add_argument("--out", type=Path, help="the file written (default: the bot's own table)")
    args = parser.parse_args()
    out = args.out or DATA / TABLE_FILES[args.players]
    shapes = all_shapes(list(bits(OmiRules(players=args.players).deck)))
    keys = sorted(shapes)
    if args.limit:
        keys = keys[: args.limit]
    tasks = [(key, shapes[key], args.samples, args.seed, args.players) for key in keys]
    values: dict[str, list[list[int]]] = {}
    start = time.time()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for i, (key, v) in enumerate(pool.map(counts_of, tasks, chunksize=8), 1):
            values[key] = v
            if i % 100 == 0:
                print(f"{i}/{len(tasks)} shapes, {time.time() - start:.0f} s", file=sys.stderr)
    side = "team" if args.players == 4 else "side (the chooser alone against the other two)"
    data = {
        "about": f"For the chooser's first 4 cards, how often the chooser's {side} took 0 to 8 tricks "
                 "(double dummy, chooser leads) with each place's suit as trump; places with the "
                 "same holding pool their deals. See bistrot.omi.bots.trump_table.",
        "players": args.players,
        "samples": args.samples,
        "seed": args.seed,
        **({"tokens_by_tricks": list(CHOOSER_TOKENS)} if args.players == 4 else {}),
        "tricks": dict(sorted(values.items())),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    # One shape a line, so the file diffs well.
    head = json.dumps({k: v for k, v in data.items() if k != "tricks"})[:-1]
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in values.items()]
    out.write_text(head + ', "tricks": {\n' + ",\n".join(sorted(lines)) + "\n}}\n")
    print(f"wrote {len(values)} shapes to {out} in {time.time() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
