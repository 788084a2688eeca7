"""Generate ``src/bistrot/omi/bots/data/trump_table.json``, the hard Omi bot's trump-choice table.

For each of the 2,262 four-card hands (up to renaming suits) the chooser (seat 0) holds those
cards first; the 28 others are dealt at random ``--samples`` times (4 more to the chooser, 8 to
each other seat).  Each deal is solved double dummy with every suit as trump, the chooser
leading, by Bo Haglund's DDS (PyPI ``endplay``); the file counts, for each suit, how often the
chooser's team took 0 to 8 tricks (the table's token values and the match-aware choice both read
these counts).  The same deals serve all four suits (common random numbers), and suits with the
same holding (e.g. two suits not held) pool their deals.

Run (about 5 minutes on an idle core with 120 samples)::

    nice .venv/bin/python scripts/make_trump_table.py --samples 120 --workers 1
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

from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player

from bistrot.cards import RANK_LETTERS, SUIT_BITS
from bistrot.omi.bots.trump_table import CHOOSER_TOKENS, TABLE_FILE, shape_key
from bistrot.omi.rules import HAND_SIZE

OMI_RANKS = range(5, 13)  # rank indices of 7 .. A
DECK = [suit * SUIT_BITS + r for suit in range(4) for r in OMI_RANKS]
OUT = Path(__file__).resolve().parent.parent / "src/bistrot/omi/bots/data" / TABLE_FILE
DENOMS = (Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs)


def all_shapes() -> dict[str, list[int]]:
    """Every shape key with a representative hand (place i in suit i)."""
    shapes: dict[str, list[int]] = {}
    for hand in combinations(DECK, 4):
        key, order = shape_key(hand)
        if key not in shapes:
            # Rename suits so that place i is suit i.
            rename = {suit: place for place, suit in enumerate(order)}
            shapes[key] = sorted(rename[c // SUIT_BITS] * SUIT_BITS + c % SUIT_BITS for c in hand)
    return shapes


def pbn(hands: list[list[int]]) -> str:
    parts = []
    for hand in hands:
        suits = []
        for suit in range(4):
            ranks = sorted((c % SUIT_BITS for c in hand if c // SUIT_BITS == suit), reverse=True)
            suits.append("".join(RANK_LETTERS[r] for r in ranks))
        parts.append(".".join(suits))
    return "N:" + " ".join(parts)


def counts_of(args: tuple[str, list[int], int, int]) -> tuple[str, list[list[int]]]:
    """How often the chooser's team took 0 to 8 tricks with each place's suit as trump."""
    key, hand, samples, seed = args
    rng = random.Random(f"{seed}:{key}")
    rest = [c for c in DECK if c not in hand]
    counts = [[0] * (HAND_SIZE + 1) for _ in range(4)]
    for _ in range(samples):
        rng.shuffle(rest)
        hands = [hand + rest[:4], rest[4:12], rest[12:20], rest[20:28]]
        deal = Deal(pbn(hands))
        deal.first = Player.north
        for suit in range(4):
            deal.trump = DENOMS[suit]
            solved = solve_board(deal, SolveMode.OptimalOne)
            counts[suit][max(t for _, t in solved)] += 1
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
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    shapes = all_shapes()
    keys = sorted(shapes)
    if args.limit:
        keys = keys[: args.limit]
    tasks = [(key, shapes[key], args.samples, args.seed) for key in keys]
    values: dict[str, list[list[int]]] = {}
    start = time.time()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for i, (key, v) in enumerate(pool.map(counts_of, tasks, chunksize=8), 1):
            values[key] = v
            if i % 100 == 0:
                print(f"{i}/{len(tasks)} shapes, {time.time() - start:.0f} s", file=sys.stderr)
    data = {
        "about": "For the chooser's first 4 cards, how often the chooser's team took 0 to 8 tricks "
                 "(double dummy, chooser leads) with each place's suit as trump; places with the "
                 "same holding pool their deals. See bistrot.omi.bots.trump_table.",
        "samples": args.samples,
        "seed": args.seed,
        "tokens_by_tricks": list(CHOOSER_TOKENS),
        "tricks": dict(sorted(values.items())),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # One shape a line, so the file diffs well.
    head = json.dumps({k: v for k, v in data.items() if k != "tricks"})[:-1]
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in values.items()]
    args.out.write_text(head + ', "tricks": {\n' + ",\n".join(sorted(lines)) + "\n}}\n")
    print(f"wrote {len(values)} shapes to {args.out} in {time.time() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
