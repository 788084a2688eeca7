"""Cards and card sets.

A card is a small int, ``suit * 13 + (rank - 2)``, and a set of cards is an int with one bit
per card, as python-chess does with squares and bitboards. :class:`Card` is an ``int``
subclass that prints itself; engines work on plain ints and masks for speed.

Text form: the rank ``2-9 T J Q K A`` then the suit ``S H D C``; ``10`` is accepted for the ten
on input, in either case.

>>> card = Card.parse("10h")
>>> card, card.rank, card.suit, card.pretty
(TH, 10, 1, '10♥')
>>> hand = CardSet.parse("AH JH 8H KC")
>>> len(hand), Card.parse("JH") in hand, str(hand)
(4, True, 'AH JH 8H KC')
>>> hand.suit(HEARTS)
CardSet('AH JH 8H')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_LETTERS = "23456789TJQKA"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

SUIT_BITS = 13
#: The mask of one whole suit: ``SUIT_MASKS[HEARTS]`` holds the 13 hearts.
SUIT_MASKS = tuple(((1 << SUIT_BITS) - 1) << (SUIT_BITS * s) for s in SUITS)
FULL_DECK = (1 << 52) - 1


def card_index(rank: int, suit: int) -> int:
    """The int of the card of ``rank`` (2-14, ace high) in ``suit`` (0-3).

    >>> card_index(14, SPADES), card_index(2, CLUBS)
    (12, 39)
    """
    return suit * SUIT_BITS + rank - 2


def rank_mask(ranks: Iterable[int]) -> int:
    """The bits of ``ranks`` inside one suit (bit ``rank - 2``), to build decks and masks.

    >>> rank_mask(range(7, 15)) == 0b1111111100000
    True
    """
    mask = 0
    for rank in ranks:
        mask |= 1 << (rank - 2)
    return mask


def deck_mask(ranks: Iterable[int]) -> int:
    """The card set holding ``ranks`` in all four suits.

    >>> CardSet(deck_mask(range(7, 15))).count()
    32
    """
    in_suit = rank_mask(ranks)
    return sum(in_suit << (SUIT_BITS * s) for s in SUITS)


def parse_suit(text: str) -> int:
    """The suit named by a letter ``S H D C``, a symbol, or an English name.

    >>> parse_suit("h"), parse_suit("♣"), parse_suit("Spades")
    (1, 3, 0)
    """
    key = text.strip()
    folded = key.upper()
    if len(folded) == 1 and folded in SUIT_LETTERS:
        return SUIT_LETTERS.index(folded)
    if len(key) == 1 and key in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(key)
    if key.lower() in SUIT_NAMES:
        return SUIT_NAMES.index(key.lower())
    raise ValueError(f"{text!r} is not a suit: use S, H, D or C")


def rank_hint(ranks: Iterable[int]) -> str:
    """How to write the ranks of a deck, for messages.

    >>> rank_hint(range(2, 15)), rank_hint(range(9, 15))
    ('2-9, T or 10, J, Q, K, A', '9, T or 10, J, Q, K, A')
    """
    numbers = [r for r in sorted(ranks) if r <= 9]
    parts = [] if not numbers else [str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"]
    parts += ["T or 10" if r == 10 else RANK_LETTERS[r - 2] for r in sorted(ranks) if r >= 10]
    return ", ".join(parts)


class Card(int):
    """One card of the 52-card deck; an int, so it works wherever a card index does.

    >>> Card.parse("AS") > Card.parse("KS")
    True
    >>> [str(c) for c in Card.all()[:3]]
    ['2S', '3S', '4S']
    """

    __slots__ = ()

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of a rank (2-14) and a suit (0-3)."""
        if not (2 <= rank <= 14 and 0 <= suit <= 3):
            raise ValueError(f"no card has rank {rank} and suit {suit}")
        return _CARDS[card_index(rank, suit)]

    @classmethod
    def parse(cls, text: str, ranks: Iterable[int] = range(2, 15)) -> Card:
        """Read ``TH``, ``10h`` or ``10♥``, a card of ``ranks`` (a game's deck); ``ValueError``
        says what is wrong otherwise, with the ranks that deck has.

        >>> Card.parse("2h", ranks=range(7, 15))
        Traceback (most recent call last):
        ...
        ValueError: 2♥ is not in this game's deck: its ranks are 7-9, T or 10, J, Q, K, A
        """
        ranks = sorted(ranks)
        card = _PARSE.get(text.strip().upper())
        if card is None:
            raise ValueError(
                f"{text!r} is not a card: write the rank ({rank_hint(ranks)}) "
                "then the suit (S, H, D, C), e.g. TH"
            )
        if card.rank not in ranks:
            raise ValueError(f"{card.pretty} is not in this game's deck: its ranks are {rank_hint(ranks)}")
        return card

    @classmethod
    def all(cls) -> tuple[Card, ...]:
        """All 52 cards, spades first, each suit from 2 to ace."""
        return _CARDS

    @property
    def rank(self) -> int:
        """2 to 14 (ace)."""
        return int(self) % SUIT_BITS + 2

    @property
    def suit(self) -> int:
        """0 to 3: spades, hearts, diamonds, clubs."""
        return int(self) // SUIT_BITS

    @property
    def bit(self) -> int:
        """The card as a one-card set."""
        return 1 << int(self)

    @property
    def pretty(self) -> str:
        """The card for people: ``10♥``."""
        return RANK_NAMES[self.rank - 2] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return _NAMES[self]

    __repr__ = __str__


#: ``CARD_NAMES[i]`` is the text of card ``i``: a tuple lookup for the engines' hot paths.
CARD_NAMES: tuple[str, ...] = tuple(
    RANK_LETTERS[i % SUIT_BITS] + SUIT_LETTERS[i // SUIT_BITS] for i in range(52)
)
_NAMES = CARD_NAMES
_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
_PARSE: dict[str, Card] = {}
for _card in _CARDS:
    _letter, _symbol = CARD_NAMES[_card][0], SUIT_SYMBOLS[_card.suit]
    for _rank in {_letter, RANK_NAMES[_card.rank - 2]}:
        _PARSE[_rank + SUIT_LETTERS[_card.suit]] = _card
        _PARSE[_rank + _symbol] = _card
#: Card text (upper case, ``TH`` or ``10H``) to card index, for parsers on hot paths.
CARD_BY_NAME: dict[str, int] = {name: int(card) for name, card in _PARSE.items()}


def bits(mask: int) -> Iterator[int]:
    """The card indices in ``mask``, lowest first.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """The set holding ``cards`` (ints or :class:`Card`)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from a space- or comma-separated text, or from a list of card texts.

    >>> parse_cards("AH, 10h 7s")
    [AH, TH, 7S]
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(w) for w in words]


class CardSet:
    """An immutable set of cards backed by one int, like python-chess's ``SquareSet``.

    Iteration yields cards from the highest suit index and rank down (clubs last), the
    order people sort a hand in.

    >>> a, b = CardSet.parse("AS KS"), CardSet.parse("KS 7D")
    >>> a | b, a & b, a - b
    (CardSet('AS KS 7D'), CardSet('KS'), CardSet('AS'))
    """

    __slots__ = ("mask",)

    def __init__(self, mask: int | Iterable[int] = 0) -> None:
        self.mask = mask if isinstance(mask, int) else mask_of(mask)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """The set of the cards in a text such as ``"AH JH 8H"``."""
        return cls(mask_of(parse_cards(text)))

    def __iter__(self) -> Iterator[Card]:
        for suit in SUITS:
            in_suit = (self.mask >> (SUIT_BITS * suit)) & 0x1FFF
            while in_suit:
                top = in_suit.bit_length() - 1
                yield _CARDS[suit * SUIT_BITS + top]
                in_suit ^= 1 << top

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def count(self) -> int:
        """The number of cards."""
        return self.mask.bit_count()

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __str__(self) -> str:
        return " ".join(map(str, self))

    def __repr__(self) -> str:
        return f"CardSet('{self}')"

    @property
    def pretty(self) -> str:
        """The set for people: ``A♥ J♥ 8♥ K♣``."""
        return " ".join(card.pretty for card in self)
