"""Generate ``src/bistrot/omi/bots/data/three_player_hands.json``: how three-player Omi hands end.

Three medium players play ``--hands`` fresh hands (each the first hand of a game dealt from its
own seed, so every seat chooses trump as often); the file counts each way the 8 tricks were
shared, in play order from the chooser (the chooser's tricks, then the next player's, then the
last's).  The hard player takes the hands still to come of a three-player match to go that way
when it plays the match (:mod:`bistrot.omi.bots.three_player_equity`).

Run (about 2 minutes on an idle core)::

    nice .venv/bin/python scripts/make_three_player_hands.py --hands 100000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from bistrot.bots import make_bot
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.bots.three_player_equity import HANDS_FILE

OUT = Path(__file__).resolve().parent.parent / "src/bistrot/omi/bots/data" / HANDS_FILE


def first_hand_tricks(seed: int) -> tuple[int, int, int]:
    """The tricks of the chooser, the next player and the last in the first hand of a game of
    three medium players dealt from ``seed``."""
    game = OmiGame.new(OmiRules(players=3), seed=seed)
    bots = [make_bot("omi", "medium", seed=seed * 3 + seat) for seat in range(3)]
    chooser = game.chooser
    while not game.results:
        seat = game.to_move
        assert seat is not None  # a hand in play always has a player to move
        game.apply(bots[seat].act(game.view(seat)), seat=seat)
    tricks = game.results[0]["tricks"]
    first, second, third = (tricks[(chooser + i) % 3] for i in range(3))
    return first, second, third


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=3, help="the first game's seed")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.time()
    counts = Counter(first_hand_tricks(args.seed + i) for i in range(args.hands))
    data = {
        "about": "How hands of three medium players ended: tricks of the chooser, the next player "
                 "and the last, in play order, and how many hands ended so. See "
                 "bistrot.omi.bots.three_player_equity.",
        "hands": args.hands,
        "seed": args.seed,
        "tricks": {".".join(map(str, key)): n for key, n in sorted(counts.items(), reverse=True)},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {len(counts)} outcomes of {args.hands} hands to {args.out} in {time.time() - start:.0f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
