"""How far Omi hard's double-dummy loss could fall with what it knows: its information bound.

    nice python bench/omi_information_bound.py --deals 100 --first 2000 [--layouts 200]
        [--option mismatch=0.01] [--partner-open [--partner-suits side] [--partner-ranks AKQ]]
        [--partner medium]

Plays hard (seats 0 and 2) against medium as ``bench/omi_loss_by_trick.py`` does and, at each card
hard chooses among two or more legal cards, draws ``--layouts`` layouts of the unseen cards from
hard's own sampler (what it believes about the hidden hands, its options applied) and solves each
double dummy.  For a player who believes exactly that, the card that loses the fewest tricks on
average is the card of most mean tricks, and it still loses, on average over those layouts,

    bound = mean over layouts of (best card's tricks) - max over cards of (mean tricks)

because no one card is best in every layout.  That is the *information bound*: no choice made
from these beliefs loses fewer tricks a card, however long the search, if the beliefs are right.
Beside it: hard's real loss (its own choice, judged on the true layout, the arena's measure) and
the real loss of the card of most mean tricks.  If the beliefs are right, that last one is the
bound plus the noise of the layouts.  A lower loss needs sharper beliefs (better inference),
not more search.  ``--option NAME=VALUE`` sets hard's options, numbers read as numbers.

``--partner-open`` gives the layouts the partner's real hand (the rest drawn as hard would):
the bound of a player who knows it, which no signalling between partners can beat; the gap
between the two bounds is what the partner's cards could still tell.  With ``--partner-suits
trump`` (or ``side``) only the partner's trumps (or its other suits) are given: which of its
cards that information is in.  ``--partner-ranks AKQ`` tells the layouts only which cards of
those ranks (of those suits) the partner holds and which it does not, the rest of its hand drawn
as hard would: the most that a signalling system showing those cards could tell.  ``--partner LEVEL``
seats another level as the partner (seat 2) and judges seat 0 alone: with ``medium``, whose
play hard's model reads exactly, it shows what a partner who plays by known rules tells.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from bistrot.analysis.omi import judge_dd
from bistrot.cards import CARD_BY_NAME, CARD_NAMES, RANK_LETTERS, SUIT_BITS, rank_mask
from bistrot.cli.options import parse_bot_options
from bistrot.omi.bots.hard import HardOmiBot
from bistrot.omi.bots.inference import ALL_SUITS
from bistrot.omi.bots.tracking import Knowledge
from bistrot.omi.dd import Position
from bistrot.omi.rules import HAND_SIZE
from bistrot.omi.view import OmiView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from omi_loss_by_trick import bot_choices  # a sibling bench script


def deck_mask_of(ranks: int, suits: int) -> int:
    """The cards of ``ranks`` (rank bits within a suit) in each suit of ``suits`` (a bit a suit).

    >>> deck_mask_of(0b1, 0b0101) == (1 | 1 << 26)  # the twos of spades and diamonds
    True
    """
    return sum(ranks << (SUIT_BITS * s) for s in range(4) if suits >> s & 1)


def information_loss(tricks: list[list[int]]) -> tuple[float, int]:
    """From each layout's tricks for each card (rows: layouts), the expected loss of the card of
    most mean tricks under those layouts, and that card's index.

    >>> loss, best = information_loss([[2, 1], [1, 2], [2, 1]])  # card 0 is best in two of three
    >>> round(loss, 4), best
    (0.3333, 0)
    >>> information_loss([[3, 1], [3, 2]])  # one card best everywhere: nothing lost
    (0.0, 0)
    """
    means = [sum(row[j] for row in tricks) / len(tricks) for j in range(len(tricks[0]))]
    best = max(range(len(means)), key=lambda j: means[j])
    return sum(max(row) for row in tricks) / len(tricks) - means[best], best


def layouts_tricks(bot: HardOmiBot, view: OmiView, layouts: int, seed: int,
                   known: dict[int, int] | None = None, known_suits: dict[int, int] | None = None,
                   holds: dict[int, int] | None = None,
                   lacks: dict[int, int] | None = None) -> tuple[list[int], list[list[int]]]:
    """The legal cards of ``view`` and their tricks in each of ``layouts`` layouts drawn from
    ``bot``'s own sampler (the hands of ``known`` given, only their ``known_suits`` if set; the
    cards of ``holds`` given and those of ``lacks`` kept from their seats) and solved with its
    solver."""
    know = Knowledge.from_view(view)
    assert know.trump is not None
    cards = [CARD_BY_NAME[a[5:]] for a in view["legal"] if a.startswith("play ")]
    sampler = bot.sampler(know, known, known_suits, holds, lacks)
    rng = random.Random(f"{seed}:{view['hand_number']}:{len(view['tricks'])}:{len(view['trick'])}:"
                        f"{know.hand}")
    found: list[list[int]] = []
    while len(found) < layouts:
        for hands in sampler.sample_many(rng, min(4, layouts - len(found))):
            solved = bot.solver(Position(hands=tuple(hands), trump=know.trump, trick=tuple(know.trick),
                                         to_move=know.seat, players=know.players))
            found.append([solved[card] for card in cards])
    return cards, found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first", type=int, default=2000, help="seed of the first deal")
    parser.add_argument("--layouts", type=int, default=200, help="layouts drawn per decision")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE for hard")
    parser.add_argument("--partner-open", action="store_true",
                        help="the layouts hold the partner's real hand: the bound of a player who "
                             "knows it, as no signalling between partners can do better")
    parser.add_argument("--partner-suits", choices=("trump", "side"),
                        help="with --partner-open, give only the partner's trumps or only its "
                             "other suits: which of its cards the information is in")
    parser.add_argument("--partner-ranks",
                        help="with --partner-open, tell the layouts only which cards of these ranks "
                             "(e.g. AKQ) the partner holds and which it does not, in the suits of "
                             "--partner-suits (every suit if unset), the rest of its hand drawn: "
                             "what a signal showing those cards could tell at most")
    parser.add_argument("--partner", help="another level in seat 2 (only seat 0 is judged)")
    args = parser.parse_args(argv)
    if (args.partner_suits or args.partner_ranks) and not args.partner_open:
        parser.error("--partner-suits and --partner-ranks go with --partner-open")
    letters = (args.partner_ranks or "").upper()
    if any(r not in RANK_LETTERS for r in letters):
        parser.error(f"--partner-ranks: ranks are letters of {RANK_LETTERS}, such as AKQ")
    ranks = rank_mask(RANK_LETTERS.index(r) + 2 for r in letters)
    options = parse_bot_options([f"hard.{o}" for o in args.option]).get("hard", {})
    rows = [{"cards": 0, "hard": 0, "most_tricks": 0, "bound": 0.0} for _ in range(HAND_SIZE)]
    for game, bot, view, action in bot_choices("hard", options, args.first, args.deals, args.partner):
        assert isinstance(bot, HardOmiBot)
        position = Position.from_game(game)
        know = Knowledge.from_view(view)
        partner = know.partner()
        assert partner is not None  # four players
        known = {partner: game.hands[partner]} if args.partner_open else None
        known_suits = holds = lacks = None
        suits = ALL_SUITS
        if known and args.partner_suits:
            assert know.trump is not None
            trump = 1 << know.trump
            suits = trump if args.partner_suits == "trump" else ALL_SUITS & ~trump
            known_suits = {partner: suits}
        if known and ranks:
            told = deck_mask_of(ranks, suits) & know.unseen  # those still in the others' hands
            holds, lacks = {partner: told & game.hands[partner]}, {partner: told & ~game.hands[partner]}
            known = known_suits = None
        cards, tricks = layouts_tricks(bot, view, args.layouts, args.first, known, known_suits, holds, lacks)
        bound, best = information_loss(tricks)
        row = rows[len(view["tricks"])]
        row["cards"] += 1
        row["hard"] += judge_dd(position, action)[2]
        row["most_tricks"] += judge_dd(position, "play " + CARD_NAMES[cards[best]])[2]
        row["bound"] += bound
    chosen = sum(int(r["cards"]) for r in rows)

    def per_card(key: str, among: list[dict[str, float]]) -> float | None:
        n = sum(r["cards"] for r in among)
        return round(sum(r[key] for r in among) / n, 4) if n else None

    keys = ("hard", "most_tricks", "bound")
    print(json.dumps({
        "options": options, "partner_open": args.partner_open, "partner_suits": args.partner_suits,
        "partner_ranks": args.partner_ranks,
        "partner": args.partner,
        "deals": args.deals, "first": args.first, "layouts": args.layouts,
        "cards": chosen, **{key: per_card(key, rows) for key in keys},
        "by_trick": [{"trick": k + 1, "cards": r["cards"], **{key: per_card(key, [r]) for key in keys}}
                     for k, r in enumerate(rows)],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
