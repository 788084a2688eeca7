"""The fast path: Omi card play on card-set ints with no texts, checks or views.

Search bots play thousands of imagined hands a decision; they use these functions on positions
they built themselves (from samples of the unseen cards), never on hidden state.  The rules are
the engine's: follow suit if able; the trick goes as :mod:`bistrot.omi.tricks` says.

>>> import random
>>> from bistrot.cards import CardSet
>>> hands = [CardSet.parse(h).mask for h in ("AS KS", "QS JS", "TS 9S", "8S 7S")]
>>> trick_winner([(0, CardSet.parse("8S").mask), (1, CardSet.parse("AH").mask)], trump=1)
1
>>> playout(hands, trump=1, leader=0, rnd=random.Random(1).random)
[2, 0]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from bistrot.cards import SUIT_BITS, SUIT_MASKS, bits
from bistrot.omi import tricks
from bistrot.omi.rules import HAND_SIZE, OmiRules
from bistrot.omi.scoring import score_hand

# Suit mask of the suit of a one-card set, by its bit length (bit index + 1).
_SUIT_OF_LENGTH = (0, *(SUIT_MASKS[i // SUIT_BITS] for i in range(52)))


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat winning a trick given as ``(seat, one-card set)`` pairs in play order."""
    return tricks.trick_winner([(seat, card.bit_length() - 1) for seat, card in trick], trump)[0]


def playout(
    hands: list[int],
    trump: int,
    leader: int,
    rnd: Callable[[], float],
    players: int = 4,
) -> list[int]:
    """Play the rest of a hand at random from a trick boundary; tricks won per side.

    ``hands`` (card sets, one per seat, all the same size) is consumed.  Sides are teams
    (seat % 2) with 4 players and the players themselves with 3.
    """
    sides = 2 if players == 4 else 3
    won = [0] * sides
    beats = tricks.BEATS[trump]
    for _ in range(hands[leader].bit_count()):
        seat = leader
        # Lead: a uniformly random card of the hand.
        hand = hands[seat]
        pick = int(rnd() * hand.bit_count())
        while pick:
            hand &= hand - 1
            pick -= 1
        lead = hand & -hand
        hands[seat] ^= lead
        length = lead.bit_length()
        led = _SUIT_OF_LENGTH[length]
        row = beats[length - 1]  # what beats the best card so far
        winner = seat
        for _ in range(players - 1):
            seat = seat + 1 if seat + 1 < players else 0
            hand = hands[seat]
            legal = hand & led or hand
            pick = int(rnd() * legal.bit_count())
            while pick:
                legal &= legal - 1
                pick -= 1
            card = legal & -legal
            hands[seat] = hand ^ card
            index = card.bit_length() - 1
            if row[index]:
                winner, row = seat, beats[index]
        won[winner % 2 if players == 4 else winner] += 1
        leader = winner
    return won


class MatchOutcome(NamedTuple):
    """The final tokens per side and the number of hands a match took."""

    tokens: list[int]
    hands: int


def random_match(
    rules: OmiRules, rnd: Callable[[], float], shuffle: Callable[[list[int]], None]
) -> MatchOutcome:
    """A whole match of random play on the fast path.

    Used to measure the fast path and to simulate: random trump choice, random legal cards,
    the real scoring (kapothi rules and the 4 : 4 carry, but not announcements or redeals).
    """
    deck = [1 << card for card in bits(rules.deck)]
    n = rules.players
    tokens = [0] * rules.sides
    dealer, carry, played = n - 1, 0, 0
    while True:
        shuffle(deck)
        chooser = (dealer + 1) % n
        hands = [sum(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(n)]
        won = playout(hands, int(rnd() * 4), chooser, rnd, n)
        played += 1
        score = score_hand(rules, won, rules.side_of(chooser), None, carry)
        carry = score.carry
        if score.side is not None:
            tokens[score.side] += score.tokens
        if rules.hands:  # a fixed-length match (OmiGame's rule)
            if played == rules.hands:
                return MatchOutcome(tokens, played)
        elif score.side is not None and (score.wins_match or tokens[score.side] >= rules.target):
            return MatchOutcome(tokens, played)
        dealer = (dealer + rules.deal_step) % n
