"""Values in Oti: only the rank of a card matters, never its suit.

3 is the lowest plain value and the ace (14) the highest; 2, 5 and 10 are magic and go on
anything.

>>> from bistrot.cards import Card
>>> RANK_OF[Card.parse("TH")], MAGIC[10], MAGIC[9]
(10, True, False)
>>> RANK_CARDS[14] == sum(Card.of(14, suit).bit for suit in range(4))
True
"""

from __future__ import annotations

from bistrot.cards import CARD_NAMES, bits

#: ``RANK_OF[card]``: 2 to 14 (ace).
RANK_OF: tuple[int, ...] = tuple(c % 13 + 2 for c in range(52))
#: ``RANK_CARDS[rank]``: the set of the four cards of that value.
RANK_CARDS: tuple[int, ...] = tuple(
    0 if r < 2 else sum(1 << (s * 13 + r - 2) for s in range(4)) for r in range(15)
)
#: ``MAGIC[rank]``: 2, 5 and 10 go on anything.
MAGIC: tuple[bool, ...] = tuple(r in (2, 5, 10) for r in range(15))
VALUE_NAMES = ("", "", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
FULL_DECK = (1 << 52) - 1
CLOSE = 4
"""Cards of one value on top of the pile that close it."""


def card_names(mask: int) -> list[str]:
    """The cards of a set, lowest value first (then by suit), as texts.

    >>> from bistrot.cards import Card
    >>> card_names(Card.parse("AS").bit | Card.parse("3H").bit | Card.parse("3S").bit)
    ['3S', '3H', 'AS']
    """
    return [CARD_NAMES[c] for c in sorted(bits(mask), key=value_order)]


def value_order(card: int) -> tuple[int, int]:
    """Sort key: value first, then the card index."""
    return RANK_OF[card], card
