"""A good player's rules of thumb on card sets (ints), shared by the medium bot and the hard
bot's playouts.

Only values matter in Oti, so a play is chosen as a value and a count, then the lowest cards
of that value make it up.

>>> from bistrot.cards import CardSet
>>> hand = CardSet.parse("3S 3H 9D KC 2S").mask
>>> CardSet(choose_play(hand, [CardSet.parse("4C").mask.bit_length() - 1]))
CardSet('9D')
>>> CardSet(choose_play(hand, []))  # an empty pile: shed the lowest pair
CardSet('3S 3H')
"""

from __future__ import annotations

from bistrot.oti.values import CLOSE, MAGIC, RANK_CARDS, RANK_OF

#: Strength of a card kept face up for the end: 10s and 2s first, then 5s, then the highest.
FACE_UP_STRENGTH: tuple[int, ...] = tuple(
    {10: 30, 2: 29, 5: 20}.get(r, r) for r in range(15)
)
HIGH = 11
"""From this value (jack) up, a card is worth keeping: a 5 may be better spent first."""
LOW = 8
"""Below this value a card is hard to get rid of later."""
BIG_PILE = 3
"""A pile this big is worth burning with a 10 rather than resetting with a 2."""
#: ``_PLAIN_FROM[need]``: the values that are not magic and go on a pile needing ``need``.
_PLAIN_FROM: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(max(need, 3), 15) if not MAGIC[r]) for need in range(15)
)


def lowest(group: int, count: int) -> int:
    """The ``count`` lowest cards of a set (suits do not matter in Oti)."""
    out = 0
    for _ in range(count):
        low = group & -group
        out |= low
        group ^= low
    return out


def shed_count(available: int) -> int:
    """How many equal cards to play when holding ``available``: all, but never 3."""
    return 2 if available == 3 else available


def top_run(pile: list[int]) -> tuple[int, int]:
    """The value on top of the pile and how many cards of it lie there in a row."""
    if not pile:
        return 0, 0
    rank = RANK_OF[pile[-1]]
    run = 1
    while run < len(pile) and RANK_OF[pile[-1 - run]] == rank:
        run += 1
    return rank, run


def need_of(pile: list[int]) -> int:
    """The lowest value that goes on ``pile`` (0: anything)."""
    if not pile:
        return 0
    rank = RANK_OF[pile[-1]]
    return 0 if rank in (2, 5) else rank


def closing_play(source: int, pile: list[int]) -> int:
    """The cards that close the value on top of the pile (burn it and play again), or 0."""
    rank, run = top_run(pile)
    if not rank or rank == 10:
        return 0
    missing = CLOSE - run
    group = source & RANK_CARDS[rank]
    if missing in (1, 2) and group.bit_count() >= missing:
        return lowest(group, missing)
    return 0


def choose_play(source: int, pile: list[int], pressure: tuple[int, ...] | None = None) -> int:
    """The cards to play from ``source`` on ``pile``; 0 means nothing fits (pick up).

    ``pressure``, when given, ranks the values by how hard they are for the next player to
    beat (lower is harder): then the hardest value is played instead of the lowest.
    """
    close = closing_play(source, pile)
    if close:
        return close
    need = need_of(pile)
    fives = source & RANK_CARDS[5]
    rank = 0
    if pressure is None:
        for r in _PLAIN_FROM[need]:
            if source & RANK_CARDS[r]:
                rank = r
                break
    else:
        plain = [r for r in _PLAIN_FROM[need] if source & RANK_CARDS[r]]
        if plain:
            rank = min(plain, key=lambda r: (pressure[r], r))
    if rank:
        if pressure is None and rank >= HIGH and fives and _has_low(source):
            return lowest(fives, 1)  # a 5, then get rid of a low card on it
        group = source & RANK_CARDS[rank]
        return lowest(group, shed_count(group.bit_count()))
    tens, twos = source & RANK_CARDS[10], source & RANK_CARDS[2]
    if fives and source & ~RANK_CARDS[5]:
        return lowest(fives, 1)
    if tens and len(pile) >= BIG_PILE:
        return lowest(tens, 1)
    if twos:
        return lowest(twos, 1)
    if tens:
        return lowest(tens, 1)
    if fives:
        return lowest(fives, shed_count(fives.bit_count()))
    return 0


def beats_of(counts: list[int]) -> tuple[int, ...]:
    """``pressure`` for :func:`choose_play`: for each value, how many of the cards a player may
    hold (``counts[value]``: how many of each value) beat it (magic cards beat everything).

    >>> beats_of([0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1])[7:10]  # one 2, two 9s, one ace
    (4, 4, 4)
    >>> beats_of([0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1])[11:15]
    (2, 2, 2, 2)
    """
    magic = counts[2] + counts[5] + counts[10]
    beats = [0] * 15
    above = 0
    for rank in range(14, 2, -1):
        if not MAGIC[rank]:
            above += counts[rank]
        beats[rank] = above + magic
    return tuple(beats)


_LOW_MASK = sum(RANK_CARDS[r] for r in range(3, LOW) if not MAGIC[r])


def _has_low(source: int) -> bool:
    return bool(source & _LOW_MASK)


def best_face_up(hand: int, up: int) -> tuple[int, int] | None:
    """One swap ``(hand card, face-up card)`` that puts a stronger card face up, or None."""
    best_hand = max(_cards(hand), key=lambda c: (FACE_UP_STRENGTH[RANK_OF[c]], c))
    worst_up = min(_cards(up), key=lambda c: (FACE_UP_STRENGTH[RANK_OF[c]], c))
    if FACE_UP_STRENGTH[RANK_OF[best_hand]] > FACE_UP_STRENGTH[RANK_OF[worst_up]]:
        return best_hand, worst_up
    return None


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]
