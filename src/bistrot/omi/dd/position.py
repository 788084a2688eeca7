"""A card-play position for the double-dummy solver: every hand open, trump known.

Hands are card sets (ints, the :mod:`bistrot.cards` layout).  Seats are numbered in play
order; ``trick`` lists the ``(seat, card)`` pairs already played to the trick in progress.

>>> from bistrot.cards import CardSet
>>> hands = [CardSet.parse(h).mask for h in ("AS KH", "7S 8H", "QS QH", "8S 7H")]
>>> pos = Position(hands=tuple(hands), trump=1)
>>> pos.to_move, pos.tricks_left, pos.sides
(0, 2, (0, 1, 0, 1))
>>> str(CardSet(pos.legal_cards()))
'AS KH'
>>> after_ace = (hands[0] & ~CardSet.parse("AS").mask, *hands[1:])
>>> Position(hands=after_ace, trump=1, trick=((0, 12),), to_move=1).tricks_left
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bistrot.cards import CARD_NAMES, RANK_LETTERS, SUIT_BITS, SUIT_LETTERS, SUIT_MASKS, CardSet

#: Side of each seat in the usual four-player game: partners 0 & 2 against 1 & 3.
FOUR_PLAYER_SIDES = (0, 1, 0, 1)


@dataclass(frozen=True)
class Position:
    """Open hands, the trump suit, the trick in progress and the seat to play.

    ``sides[seat]`` is 0 or 1; the solver counts tricks for ``sides[to_move]``.  With
    ``players=3`` and no ``sides``, the seat to move plays alone against the other two.
    The constructor checks the position and raises ``ValueError`` saying what is wrong.
    """

    hands: tuple[int, ...]
    trump: int
    trick: tuple[tuple[int, int], ...] = ()
    to_move: int = 0
    players: int = 4
    sides: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        n = self.players
        if n not in (3, 4) or isinstance(n, bool):
            raise ValueError(f"players must be 3 or 4, not {n!r}")
        hands = tuple(int(h) for h in self.hands)
        trick = tuple((int(s), int(c)) for s, c in self.trick)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "trick", trick)
        if self.sides is None:
            sides = FOUR_PLAYER_SIDES if n == 4 else tuple(int(s != self.to_move) for s in range(n))
            object.__setattr__(self, "sides", sides)
        else:
            object.__setattr__(self, "sides", tuple(int(s) for s in self.sides))
        _check(self)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the trick in progress included."""
        return self.hands[self.to_move].bit_count()

    @property
    def side(self) -> int:
        """The side whose tricks :func:`~bistrot.omi.dd.solve` counts: that of the seat to move."""
        assert self.sides is not None
        return self.sides[self.to_move]

    def legal_cards(self) -> int:
        """The cards the seat to move may play, as a card set."""
        hand = self.hands[self.to_move]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0][1] // SUIT_BITS]
            if follow:
                return follow
        return hand

    @classmethod
    def from_game(cls, game: Any, sides: Sequence[int] | None = None) -> Position:
        """The position of an :class:`~bistrot.omi.OmiGame` in its play phase (all hands open).

        This sees every hand: it is for tests and analysis, never for a bot.  With three
        players the seat to move plays against the other two unless ``sides`` says otherwise.

        >>> from bistrot.omi import OmiGame, OmiRules
        >>> game = OmiGame.new(OmiRules(), seed=7)
        >>> game.apply("trump S")
        >>> Position.from_game(game).tricks_left
        8
        """
        if game.phase != "play":
            raise ValueError(f"a position is taken while cards are played, not in the {game.phase!r} phase")
        return cls(
            hands=tuple(game.hands),
            trump=game.trump,
            trick=tuple(game.trick),
            to_move=game.to_move,
            players=game.rules.players,
            sides=None if sides is None else tuple(sides),
        )

    def __str__(self) -> str:
        hands = " ".join(format_hand(h) for h in self.hands)
        trick = " ".join(f"{s}:{CARD_NAMES[c]}" for s, c in self.trick)
        return f"{hands} trump {SUIT_LETTERS[self.trump]} to_move {self.to_move}" + (
            f" trick {trick}" if trick else ""
        )


def _check(pos: Position) -> None:
    n = pos.players
    if len(pos.hands) != n:
        raise ValueError(f"a {n}-player position has {n} hands, not {len(pos.hands)}")
    if pos.trump not in (0, 1, 2, 3) or isinstance(pos.trump, bool):
        raise ValueError(f"trump is a suit from 0 to 3 (spades, hearts, diamonds, clubs), not {pos.trump!r}")
    if not 0 <= pos.to_move < n:
        raise ValueError(f"to_move is a seat from 0 to {n - 1}, not {pos.to_move}")
    sides = pos.sides
    assert sides is not None
    if len(sides) != n or any(s not in (0, 1) for s in sides):
        raise ValueError(f"sides gives each of the {n} seats a side 0 or 1, not {sides!r}")
    if len(set(sides)) != 2:
        raise ValueError(f"sides must put seats on both sides, not {sides!r}")
    seen = 0
    for seat, hand in enumerate(pos.hands):
        if hand < 0 or hand >> 52:
            raise ValueError(f"seat {seat}'s hand is not a card set of the 52-card deck")
        if hand & seen:
            raise ValueError(f"{CardSet(hand & seen)} held by two seats")
        seen |= hand
    if len(pos.trick) >= n:
        raise ValueError(f"a trick in progress holds fewer than {n} cards, not {len(pos.trick)}")
    for i, (seat, card) in enumerate(pos.trick):
        if not 0 <= card < 52:
            raise ValueError(f"{card} is not a card")
        if seen >> card & 1:
            raise ValueError(f"{CARD_NAMES[card]} is both in the trick and in a hand")
        seen |= 1 << card
        expected = (pos.to_move - len(pos.trick) + i) % n
        if seat != expected:
            raise ValueError(
                f"the trick's card {i + 1} must come from seat {expected} (play order up to "
                f"seat {pos.to_move}, to move), not seat {seat}"
            )
    size = pos.hands[pos.to_move].bit_count()
    if size == 0:
        raise ValueError(f"seat {pos.to_move}, to move, holds no card")
    played = {seat for seat, _ in pos.trick}
    for seat, hand in enumerate(pos.hands):
        expect = size - 1 if seat in played else size
        if hand.bit_count() != expect:
            raise ValueError(
                f"seat {seat} holds {hand.bit_count()} cards but must hold {expect}: every seat holds "
                "the same number once the trick in progress is counted"
            )


def format_hand(mask: int) -> str:
    """A hand as ``spades.hearts.diamonds.clubs`` ranks, high first (``-`` for an empty hand).

    >>> format_hand(CardSet.parse("AS KS 7S QH JH TD 9D KC 8C").mask)
    'AK7.QJ.T9.K8'
    """
    if not mask:
        return "-"
    parts = []
    for suit in range(4):
        holding = (mask >> (SUIT_BITS * suit)) & 0x1FFF
        parts.append("".join(RANK_LETTERS[r] for r in range(12, -1, -1) if holding >> r & 1))
    return ".".join(parts)


def parse_hand(text: str) -> int:
    """Read a hand written ``spades.hearts.diamonds.clubs`` (ranks ``2-9 T J Q K A``, ``10`` too).

    >>> str(CardSet(parse_hand("AK7.QJ.T9.K8")))
    'AS KS 7S QH JH TD 9D KC 8C'
    >>> parse_hand("AK.QJ.T9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'AK.QJ.T9' is not a hand: write four suits spades.hearts.diamonds.clubs, ...
    """
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise ValueError(
            f"{text!r} is not a hand: write four suits spades.hearts.diamonds.clubs, e.g. AK7.QJ.T9.K "
            "(a void suit left empty or '-')"
        )
    mask = 0
    for suit, part in enumerate(parts):
        ranks = part.upper().replace("10", "T")
        if ranks == "-":
            continue
        for letter in ranks:
            rank = RANK_LETTERS.find(letter)
            if rank < 0:
                raise ValueError(
                    f"{letter!r} in {text!r} is not a rank: use 2-9, T (or 10), J, Q, K, A"
                )
            bit = 1 << (SUIT_BITS * suit + rank)
            if mask & bit:
                raise ValueError(f"{text!r} holds {CARD_NAMES[SUIT_BITS * suit + rank]} twice")
            mask |= bit
    return mask
