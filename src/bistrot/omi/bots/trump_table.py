"""The trump-choice table: what each suit is worth as trump, from the chooser's first 4 cards.

Up to a renaming of suits there are 2,262 different four-card hands from the 32-card deck.  For
each, ``scripts/make_trump_table.py`` dealt the 28 other cards many times and solved every deal
double dummy with each suit as trump (the chooser leads) and counted how often the chooser's
team took 0 to 8 tricks.  The table ships as ``data/trump_table.json``.  A suit's *value* is its
mean in tokens for the chooser's team (+1 for 5 to 7 tricks, +3 for all 8, 0 for 4 : 4, -2 when
beaten, -3 for none): the hard bot chooses the suit of highest value, and reads another chooser's
choice as evidence about their first four cards.  The whole distribution (:func:`suit_tricks`)
lets a match-aware chooser weigh each outcome by the score (:mod:`.match_equity`).

A hand's *shape key* lists its suits from the longest (then the highest ranks) down, each as the
ranks held (``-`` for none), e.g. ``AJ8.K.-.-``; the table gives one value per place in that order.

>>> from bistrot.cards import CARD_BY_NAME
>>> hand = [CARD_BY_NAME[c] for c in "AH JH 8H KC".split()]
>>> shape_key(hand)
('AJ8.K.-.-', (1, 3, 0, 2))
>>> values = suit_values(hand)
>>> max(range(4), key=values.__getitem__)  # hearts
1
>>> len(load_table())
2262
>>> [round(p, 3) for p in suit_tricks(hand)[1]]  # hearts: the team's tricks, 0 to 8
[0.0, 0.008, 0.025, 0.042, 0.133, 0.167, 0.292, 0.2, 0.133]
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from functools import cache
from importlib import resources
from itertools import combinations
from typing import TypeVar

from bistrot.cards import RANK_LETTERS, SUIT_BITS

T = TypeVar("T")
TABLE_FILE = "trump_table.json"
#: The table by number of players: with three, the chooser's own tricks against the other two
#: together, from the 24-card deck.
TABLE_FILES = {4: TABLE_FILE, 3: "trump_table_3.json"}
#: Tokens for the chooser's team by the tricks it takes, as the table was built.
CHOOSER_TOKENS = (-3, -2, -2, -2, 0, 1, 1, 1, 3)


def _holding(hand: Sequence[int], suit: int) -> int:
    mask = 0
    for card in hand:
        if card // SUIT_BITS == suit:
            mask |= 1 << (card % SUIT_BITS)
    return mask


def _ranks_text(mask: int) -> str:
    return "".join(RANK_LETTERS[r] for r in range(12, -1, -1) if mask >> r & 1) or "-"


def shape_key(hand: Sequence[int]) -> tuple[str, tuple[int, ...]]:
    """The hand's shape key and the suit in each place of it (longest, then highest, first)."""
    holdings = [_holding(hand, suit) for suit in range(4)]
    order = sorted(range(4), key=lambda s: (holdings[s].bit_count(), holdings[s], -s), reverse=True)
    return ".".join(_ranks_text(holdings[s]) for s in order), tuple(order)


@cache
def load_counts(players: int = 4) -> dict[str, list[list[int]]]:
    """The shipped table: shape key -> for each place, how many sampled deals gave the chooser's
    team (with three ``players``, the chooser) 0, 1, ... 8 tricks with that place's suit as trump."""
    text = resources.files("bistrot.omi.bots").joinpath("data", TABLE_FILES[players]).read_text()
    data = json.loads(text)
    return {key: [list(c) for c in places] for key, places in data["tricks"].items()}


@cache
def load_table() -> dict[str, list[float]]:
    """Shape key -> the value of each place as trump (mean tokens to the chooser's team)."""
    return {
        key: [round(sum(n * t for n, t in zip(c, CHOOSER_TOKENS, strict=True)) / sum(c), 4) for c in places]
        for key, places in load_counts().items()
    }


def _by_suit(hand: Sequence[int], places: Sequence[T]) -> list[T]:
    """``places`` (one per place of the hand's shape key) reordered by suit."""
    _, order = shape_key(hand)
    result = list(places)
    for place, suit in enumerate(order):
        result[suit] = places[place]
    return result


def _first_four(hand: Sequence[int]) -> str:
    if len(hand) != 4:
        raise ValueError(f"the table is for the chooser's first 4 cards, not {len(hand)}")
    return shape_key(hand)[0]


def suit_values(hand: Sequence[int]) -> list[float]:
    """The table's value of each suit (S, H, D, C) as trump for the first four cards ``hand``."""
    return _by_suit(hand, load_table()[_first_four(hand)])


def suit_tricks(hand: Sequence[int], players: int = 4) -> list[list[float]]:
    """For each suit (S, H, D, C) as trump, the chance that the chooser's team (with three
    ``players``, the chooser against the other two) takes 0 to 8 tricks, from the first four
    cards ``hand``.

    >>> from bistrot.cards import CARD_BY_NAME
    >>> spades = suit_tricks([CARD_BY_NAME[c] for c in "AS KS QS 9H".split()], players=3)[0]
    >>> round(sum(spades), 6), sum(spades[4:]) > 0.5  # the top three trumps: 4 tricks or more
    (1.0, True)
    """
    places = [[n / sum(c) for n in c] for c in load_counts(players)[_first_four(hand)]]
    return _by_suit(hand, places)


@cache
def chooser_tricks() -> tuple[float, ...]:
    """How a hand goes when the chooser names the table's best suit: the chance that the
    chooser's team takes 0 to 8 tricks, over every first four cards (each of the 35,960 hands
    once).  The match-aware player's model of the hands still to come.

    >>> p = chooser_tricks()
    >>> round(sum(p), 6), round(sum(p[5:]), 2) > 0.5
    (1.0, True)
    """
    deck = [suit * SUIT_BITS + rank for suit in range(4) for rank in range(5, 13)]
    shapes = Counter(shape_key(hand)[0] for hand in combinations(deck, 4))
    values, counts = load_table(), load_counts()
    total = [0.0] * len(CHOOSER_TOKENS)
    for key, hands in shapes.items():
        best = max(range(4), key=lambda place: (values[key][place], -place))
        seen = counts[key][best]
        for t, n in enumerate(seen):
            total[t] += hands * n / sum(seen)
    weight = sum(shapes.values())
    return tuple(t / weight for t in total)


def best_suit(hand: Sequence[int]) -> int:
    """The suit of highest value (ties to the longer, then stronger, holding)."""
    values = suit_values(hand)
    _, order = shape_key(hand)
    return max(order, key=lambda s: (values[s], -order.index(s)))


def choice_probabilities(hand: Sequence[int], temperature: float = 0.25, floor: float = 0.05) -> list[float]:
    """How likely a chooser holding ``hand`` first is to name each suit: a softmax of the values.

    ``floor`` keeps every suit possible (people do not all choose by the table).

    >>> from bistrot.cards import CARD_BY_NAME
    >>> p = choice_probabilities([CARD_BY_NAME[c] for c in "AH JH 8H KC".split()])
    >>> round(sum(p), 6), p[1] > 0.8
    (1.0, True)
    """
    values = suit_values(hand)
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [(1 - floor) * w / total + floor / 4 for w in weights]
