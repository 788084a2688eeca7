"""The ``medium`` Omi player: a good club player's rules, with card counting.

It remembers every card played and every void shown (:class:`~.tracking.Knowledge`), and plays
by the rules club players teach:

* **Trump** from the first four cards: the suit with the best length and honours
  (A 4, K 3, Q 2, J 1, each card 3 more), ties to the higher top card.
* **Leading**: draw trumps with the top trump, or with a low one when holding four or more;
  cash side-suit masters (the highest card left in a suit) while nobody can ruff them; lead a suit
  the partner is void in so they can ruff; avoid the suits the partner discarded from; otherwise
  lead low from the longest side suit.
* **Following**: never overtake a partner whose card already beats everything the opponents may
  hold; otherwise win as cheaply as is safe (a master if possible), play second hand low, ruff
  an opponent's winner with the cheapest trump that wins, and otherwise play low.
* **Discarding is a signal**: a discard comes from the weakest side suit, and says "do not
  lead this"; the partner reads it and leads elsewhere.
* **Kapothi** (announced rule): announced when every card left is a sure winner.

With three players there is no partner: everybody else is an opponent.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.from_deal(OmiRules(), ["AH JH 8H KC 7S 8S 9S TS".split(),
...     "7H 9H AC 8C JS QS KS AS".split(), "TH QH KH 7C 7D 8D 9D TD".split(),
...     "9C TC JC QC JD QD KD AD".split()])
>>> bot = MediumOmiBot()
>>> bot.act(game.view(0))  # A J 8 of hearts and the king of clubs
'trump H'
>>> game.apply("trump H")
>>> bot.act(game.view(0))  # holding the top trump: draw trumps
'play AH'
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bistrot.cards import CARD_BY_NAME, CARD_NAMES, SUIT_BITS, SUIT_LETTERS, SUIT_MASKS, SUITS, bits
from bistrot.omi.bots.tracking import Knowledge
from bistrot.omi.tricks import beats, trick_winner

HONOURS = {12: 4, 11: 3, 10: 2, 9: 1}  # rank index (ace = 12) -> points


def trump_scores(hand: list[int]) -> list[float]:
    """The medium player's score of each suit as trump, from the cards seen (any number).

    >>> [round(s, 1) for s in trump_scores([CARD_BY_NAME[c] for c in "AH JH 8H KC".split()])]
    [0.0, 14.0, 0.0, 6.0]
    """
    scores = [0.0] * 4
    for card in hand:
        suit, rank = divmod(card, SUIT_BITS)
        scores[suit] += 3 + HONOURS.get(rank, 0)
    return scores


def choose_trump(hand: list[int]) -> int:
    """The suit with the best :func:`trump_scores`, ties to the suit with the higher top card."""
    scores = trump_scores(hand)

    def key(suit: int) -> tuple[float, int]:
        top = max((c for c in hand if c // SUIT_BITS == suit), default=-1)
        return scores[suit], top

    return max(SUITS, key=key)


def _lowest(cards: int) -> int:
    return (cards & -cards).bit_length() - 1


def _highest(cards: int) -> int:
    return cards.bit_length() - 1


def _above(card: int) -> int:
    """Cards of the same suit ranking above ``card``."""
    return SUIT_MASKS[card // SUIT_BITS] & ~((2 << card) - 1)


class MediumOmiBot:
    """A counting club player: see the module docstring."""

    level = "medium"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Mapping[str, Any]) -> str:
        legal: list[str] = list(view["legal"])
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        if legal[0].startswith("trump"):
            return "trump " + SUIT_LETTERS[choose_trump([CARD_BY_NAME[c] for c in view["hand"]])]
        know = Knowledge.from_view(view)
        if "kapothi" in legal and all_sure_winners(know):
            return "kapothi"
        cards = 0
        for action in legal:
            if action.startswith("play "):
                cards |= 1 << CARD_BY_NAME[action[5:]]
        return "play " + CARD_NAMES[choose_card(know, cards)]


def all_sure_winners(know: Knowledge) -> bool:
    """Whether every card this seat holds wins its trick, whatever the others hold and play."""
    trump = know.trump
    unseen_trumps = know.outstanding(trump) if trump is not None else 0
    my_trumps = know.hand & SUIT_MASKS[trump] if trump is not None else 0
    # Our trumps draw theirs only if we hold at least as many, all higher.
    if unseen_trumps and (
        my_trumps.bit_count() < unseen_trumps.bit_count() or _lowest(my_trumps) < _highest(unseen_trumps)
    ):
        return False
    return all(not _above(card) & know.unseen for card in bits(know.hand))


def choose_card(know: Knowledge, legal: int) -> int:
    """The card to play among the ``legal`` ones (a card set)."""
    if legal & (legal - 1) == 0:
        return _lowest(legal)
    if not know.trick:
        return _lead(know, legal)
    return _follow(know, legal)


def follow_reads(led: int, trump: int) -> int:
    """The cards of its hand :func:`choose_card` looks at when it follows suit (every legal card
    of the ``led`` suit): those of the led suit and of ``trump``.  Its card there depends on nothing
    else it holds, so a model reading its plays may take hands that differ only elsewhere as one.

    >>> from bistrot.cards import SUIT_MASKS
    >>> follow_reads(0, 1) == SUIT_MASKS[0] | SUIT_MASKS[1]
    True
    """
    return SUIT_MASKS[led] | SUIT_MASKS[trump]


def _opponents(know: Knowledge) -> list[int]:
    return [s for s in range(know.players) if not know.is_friend(s)]


def _may_ruff(know: Knowledge, seat: int, suit: int) -> bool:
    """Whether ``seat`` might trump a lead of ``suit``: known void in it and may hold trumps."""
    trump = know.trump
    if trump is None or suit == trump:
        return False
    return bool(know.voids[seat] >> suit & 1) and know.may_hold(seat, trump)


def _lead(know: Knowledge, legal: int) -> int:
    trump = know.trump
    assert trump is not None
    hand = legal
    my_trumps = hand & SUIT_MASKS[trump]
    out_trumps = know.outstanding(trump)
    opponents = _opponents(know)
    opps_have_trumps = bool(out_trumps) and any(know.may_hold(s, trump) for s in opponents)

    # 1. Draw trumps: with the top trump, or low when long.
    if my_trumps and opps_have_trumps:
        top = _highest(my_trumps)
        if not _above(top) & out_trumps:
            return top
        if my_trumps.bit_count() >= 4 or my_trumps.bit_count() > out_trumps.bit_count():
            return _lowest(my_trumps)

    partner = know.partner()
    avoid = 0
    if partner is not None:
        for card in know.discards[partner]:
            avoid |= 1 << (card // SUIT_BITS)

    # 2. Cash side-suit masters nobody can ruff.
    best: tuple[int, int] | None = None
    for suit in SUITS:
        if suit == trump:
            continue
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        top = _highest(mine)
        if _above(top) & know.unseen:
            continue
        if not know.outstanding(suit) and opps_have_trumps:
            continue  # nobody follows: an opponent would ruff or we waste the master
        if any(_may_ruff(know, s, suit) for s in opponents):
            continue
        key = know.outstanding(suit).bit_count()
        if best is None or key > best[0]:
            best = (key, top)
    if best is not None:
        return best[1]

    # 3. A suit the partner is void in, for a ruff, if no opponent can overruff for sure.
    if partner is not None and know.may_hold(partner, trump):
        for suit in SUITS:
            mine = hand & SUIT_MASKS[suit]
            if (suit != trump and mine and know.voids[partner] >> suit & 1
                    and not any(_may_ruff(know, s, suit) for s in opponents)):
                return _lowest(mine)

    # 4. Low from the longest side suit, avoiding the partner's discards and opponents' ruffs.
    def side_key(suit: int) -> tuple[int, int, int]:
        mine = hand & SUIT_MASKS[suit]
        ruffable = any(_may_ruff(know, s, suit) for s in opponents)
        return (not (avoid >> suit & 1), not ruffable, mine.bit_count())

    sides = [s for s in SUITS if s != trump and hand & SUIT_MASKS[s]]
    if sides:
        suit = max(sides, key=side_key)
        return _lowest(hand & SUIT_MASKS[suit])
    # Only trumps left.
    top = _highest(my_trumps)
    return top if not _above(top) & out_trumps else _lowest(my_trumps)


def _secure(know: Knowledge, card: int, led: int, later: list[int]) -> bool:
    """Whether ``card``, now winning, would still win against the opponents still to play."""
    trump = know.trump
    opponents_later = [s for s in later if not know.is_friend(s)]
    if not opponents_later:
        return True
    suit = card // SUIT_BITS
    higher_unseen = _above(card) & know.unseen
    if suit == led:
        if higher_unseen and any(know.may_hold(s, led) for s in opponents_later):
            return False
        if suit != trump and trump is not None and know.outstanding(trump):
            # A player void in the led suit could ruff; only a known void counts as a threat
            # unless the suit has been led before and many of its cards are gone.
            for s in opponents_later:
                if _may_ruff(know, s, led):
                    return False
        return True
    # A trump on a side-suit lead: beaten only by a higher trump from a player void in the led suit.
    return not (higher_unseen and any(know.voids[s] >> led & 1 or not know.may_hold(s, led)
                                      for s in opponents_later))


def _follow(know: Knowledge, legal: int) -> int:
    trump = know.trump
    assert trump is not None
    led = know.trick[0][1] // SUIT_BITS
    winner, best = trick_winner(know.trick, trump)
    later = know.seats_after()
    following = bool(legal & SUIT_MASKS[led])
    winners = [c for c in bits(legal) if beats(c, best, trump)]

    if know.is_friend(winner) and _secure(know, best, led, later):
        return _throw(know, legal, following)
    secure_winners = [c for c in winners if _secure(know, c, led, later)]
    if secure_winners:
        return min(secure_winners, key=lambda c: (c // SUIT_BITS == trump, c))
    if know.is_friend(winner):
        return _throw(know, legal, following)
    if winners and (not later or not following or len(know.trick) >= 2):
        # Last to play, ruffing, or third hand: win as cheaply as possible.
        return min(winners, key=lambda c: (c // SUIT_BITS == trump, c))
    return _throw(know, legal, following)


def _throw(know: Knowledge, legal: int, following: bool) -> int:
    """A card that does not try to win: the lowest of the suit followed, or a signalling discard."""
    if following:
        return _lowest(legal)
    trump = know.trump
    side = [s for s in SUITS if s != trump and legal & SUIT_MASKS[s]]
    if not side:
        return _lowest(legal)

    # Discard from the weakest side suit (no master, fewest cards): "do not lead this".
    def weakness(suit: int) -> tuple[int, int, int]:
        mine = legal & SUIT_MASKS[suit]
        has_master = not _above(_highest(mine)) & know.unseen
        return (has_master, mine.bit_count() == 1 and has_master, _highest(mine))

    suit = min(side, key=weakness)
    return _lowest(legal & SUIT_MASKS[suit])
