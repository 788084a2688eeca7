"""What knowing the partner's hand would be worth to Omi hard: the arena's deals, its measures.

    nice python bench/omi_partner_open.py --deals 1500 --seed 16 --workers 2 [--option budget=0.5]

Plays exactly the deals of ``bistrot arena omi --bots hard,medium --deals N --seed S`` (the
arena's own :func:`~bistrot.arena.omi.play_deal`, seeds and report), but hard is a player who
**sees its partner's cards** during the play (not at the trump choice): every layout it draws
holds the partner's real hand (:meth:`HardOmiBot.sampler`'s ``known``), the other two hands are
drawn with all its evidence as usual.  No partnership can tell each other more than that through
their cards, so the report is the most that a signalling system between two hard players could
add to today's card search, in tokens, matches and double-dummy loss.  It cheats: a measure,
never a player.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bistrot.arena.omi import BotSpec, DealResult, deal_seed, play_deal, summarise
from bistrot.bots import make_bot
from bistrot.cli.options import parse_bot_options
from bistrot.omi import OmiRules
from bistrot.omi.bots.hard import HardOmiBot
from bistrot.omi.bots.inference import DealSampler
from bistrot.omi.bots.tracking import Knowledge
from bistrot.omi.game import deal_hands


class PartnerOpenHard(HardOmiBot):
    """Hard, with its partner's hand given to its sampler; it rebuilds that hand from the deal's
    seed (the arena's :func:`deal_seed`) and the redeals and cards played shown in its view."""

    def __init__(self, seed: int, dealt_from: int, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self.dealt_from = dealt_from
        self.redeals = 0

    def act(self, view: Mapping[str, Any]) -> str:
        self.redeals = int(view["redeals"])
        return super().act(view)

    def sampler(self, know: Knowledge, known: Mapping[int, int] | None = None,
                known_suits: Mapping[int, int] | None = None, holds: Mapping[int, int] | None = None,
                lacks: Mapping[int, int] | None = None) -> DealSampler:
        partner = know.partner()
        assert partner is not None  # the arena plays four players
        dealt = deal_hands(know.rules, self.dealt_from, 0, self.redeals, know.chooser)[partner]
        cards = sum(1 << c for c in dealt) & ~know.played_by[partner]
        return super().sampler(know, {partner: cards})


def _play(args: tuple[int, int, list[BotSpec]]) -> DealResult:
    seed, index, specs = args
    dealt_from = deal_seed(seed, index)

    def factory(game: str, level: str, seed: int, **options: Any) -> Any:
        if level == "hard":
            return PartnerOpenHard(seed=seed, dealt_from=dealt_from, **options)
        return make_bot(game, level, seed=seed, **options)

    return play_deal(OmiRules(), seed, index, specs, factory, dd=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE for hard")
    args = parser.parse_args(argv)
    options = parse_bot_options([f"hard.{o}" for o in args.option]).get("hard", {})
    specs = [BotSpec("hard", "hard", options), BotSpec("medium", "medium")]
    tasks = [(args.seed, i, specs) for i in range(args.deals)]
    if args.workers > 1:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(_play, tasks, chunksize=2))
    else:
        results = [_play(task) for task in tasks]
    report = summarise(specs, results, OmiRules().target)
    report.pop("per_deal")
    print(json.dumps({"partner_open": True, "seed": args.seed, "options": options, **report}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
