"""Who wins an Omi trick: the one place the rule is written.

A card beats the best card so far if it is higher in the same suit, or a trump on a non-trump.
:func:`beats` says it once; :data:`BEATS` holds its answers in tables for the hot loops (the
solver, the fast path), which look them up instead of restating the rule; :func:`trick_winner`
applies it to a whole trick for the engine and the bots.

>>> from bistrot.cards import CARD_BY_NAME as C, HEARTS, SPADES
>>> beats(C["7H"], C["AS"], HEARTS), beats(C["KS"], C["AS"], HEARTS), beats(C["AS"], C["KS"], None)
(True, False, True)
>>> BEATS[HEARTS][C["AS"]][C["7H"]], BEATS[SPADES][C["AS"]][C["7H"]]
(True, False)
>>> trick_winner([(0, C["KS"]), (1, C["AS"]), (2, C["7H"]), (3, C["8H"])], HEARTS)
(3, 19)
"""

from __future__ import annotations

from collections.abc import Sequence

from bistrot.cards import SUIT_BITS

NO_TRUMP = 4
"""The index of :data:`BEATS` for a hand with no trump yet (bots reading a view)."""


def beats(card: int, best: int, trump: int | None) -> bool:
    """Whether ``card`` takes the trick from ``best``, the best card so far (a card of the suit
    led or a trump); ``trump`` is a suit, or None before one is chosen."""
    suit, best_suit = card // SUIT_BITS, best // SUIT_BITS
    return card > best if suit == best_suit else suit == trump


def _table(trump: int | None) -> tuple[tuple[bool, ...], ...]:
    return tuple(tuple(beats(card, best, trump) for card in range(52)) for best in range(52))


BEATS: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(_table(trump) for trump in (0, 1, 2, 3, None))
"""``BEATS[trump][best][card]`` is ``beats(card, best, trump)`` (``trump`` 0-3, or
:data:`NO_TRUMP`).  Hot loops keep the row of the best card so far, ``BEATS[trump][best]``,
and ask it about each card: one tuple lookup."""


def trick_winner(trick: Sequence[tuple[int, int]], trump: int | None) -> tuple[int, int]:
    """``(seat, card)`` winning the (possibly incomplete) trick ``[(seat, card), ...]``."""
    table = BEATS[NO_TRUMP if trump is None else trump]
    seat, best = trick[0]
    row = table[best]
    for other, card in trick[1:]:
        if row[card]:
            seat, best, row = other, card, table[card]
    return seat, best
