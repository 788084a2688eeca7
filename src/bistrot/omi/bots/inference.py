"""Deals of the unseen cards consistent with what a seat has observed.

:class:`DealSampler` draws complete layouts of the cards this seat cannot see, **uniformly**
among those that respect every hand count and every void shown: the number of unseen cards of
each suit in each hand is drawn by dynamic programming over the suits (each split weighted by the
number of deals that realise it), then the cards of each suit are shuffled into those places.

The trump choice is evidence too: a chooser who named hearts probably held hearts among their
first four cards.  With ``evidence=True`` each sample is drawn from a pool of candidates by
importance resampling, weighting a candidate by the probability that the chooser would name the
trump they named (:func:`~.trump_table.choice_probabilities`) from four of their eight original
cards picked at random as the first batch.

So is the play (``play_evidence=True``): a player who, with an opponent winning the trick,
discarded instead of trumping probably held no trump that would have won; a player who, last to
play, followed suit without beating the opponents' card probably held nothing of the suit that
beats it.  A layout that gives them such a card then is weighted by :data:`UNLIKELY` per event.

>>> import random
>>> from bistrot.omi import OmiGame, OmiRules
>>> from bistrot.omi.bots.tracking import Knowledge
>>> game = OmiGame.new(OmiRules(), seed=5)
>>> game.apply("trump S")
>>> know = Knowledge.from_view(game.view(1))
>>> sampler = DealSampler(know)
>>> hands = sampler.sample(random.Random(1))
>>> hands[1] == know.hand, [h.bit_count() for h in hands]
(True, [8, 8, 8, 8])
>>> sampler.count() > 10**9  # ways to split the 24 unseen cards 8-8-8
True
"""

from __future__ import annotations

import random
from functools import cache
from math import comb

from bistrot.cards import SUIT_BITS, SUIT_MASKS, bits
from bistrot.omi.bots.tracking import Knowledge

FIRST_BATCH = 4
#: Likelihood of a play that passes up an obvious win (see the module docstring).
UNLIKELY = 0.2


@cache
def _splits(total: int, places: int) -> tuple[tuple[int, ...], ...]:
    """Every way to write ``total`` as an ordered sum of ``places`` non-negative ints."""
    if places == 1:
        return ((total,),)
    return tuple((k, *rest) for k in range(total + 1) for rest in _splits(total - k, places - 1))


def _multinomial(parts: tuple[int, ...]) -> int:
    result, left = 1, sum(parts)
    for part in parts:
        result *= comb(left, part)
        left -= part
    return result


class DealSampler:
    """Uniform layouts of the unseen cards given the counts and voids in ``know``."""

    def __init__(self, know: Knowledge, evidence: bool = False, pool: int = 8,
                 play_evidence: bool = False) -> None:
        self.know = know
        self.others = [s for s in range(know.players) if s != know.seat]
        self.suit_cards = [list(bits(know.unseen & SUIT_MASKS[s])) for s in range(4)]
        self.need = tuple(know.counts[s] for s in self.others)
        if sum(self.need) != sum(len(c) for c in self.suit_cards):
            raise ValueError("the hand counts do not add up to the unseen cards")
        self.allowed = [
            tuple(not know.voids[o] >> suit & 1 for o in self.others) for suit in range(4)
        ]
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        self._opts: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}
        if self._count(0, self.need) == 0:
            # Voids cannot all be honoured (they always can in a real game); drop them.
            self.allowed = [tuple(True for _ in self.others) for _ in range(4)]
            self._ways.clear()
            self._opts.clear()
        chooser = know.chooser
        self.evidence = (
            evidence and know.players == 4 and know.trump is not None and chooser != know.seat
        )
        self.pool = pool
        self._chooser_index = self.others.index(chooser) if self.evidence else -1
        self.events = _passed_up_wins(know, self.others) if play_evidence else []

    def count(self) -> int:
        """The number of layouts consistent with the observations (before the evidence)."""
        return self._count(0, self.need)

    def _options(self, suit: int, need: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """The splits of this suit's unseen cards that fit ``need``, with their deal counts."""
        cached = self._opts.get((suit, need))
        if cached is not None:
            return cached
        total = len(self.suit_cards[suit])
        allowed = self.allowed[suit]
        options = []
        for split in _splits(total, len(need)):
            if any(k and not ok for k, ok in zip(split, allowed, strict=True)):
                continue
            if any(k > n for k, n in zip(split, need, strict=True)):
                continue
            rest = tuple(n - k for n, k in zip(need, split, strict=True))
            ways = self._count(suit + 1, rest)
            if ways:
                options.append((split, _multinomial(split) * ways))
        self._opts[(suit, need)] = options
        return options

    def _count(self, suit: int, need: tuple[int, ...]) -> int:
        if suit == 4:
            return 0 if any(need) else 1
        key = (suit, need)
        cached = self._ways.get(key)
        if cached is None:
            cached = sum(w for _, w in self._options(suit, need))
            self._ways[key] = cached
        return cached

    def _uniform(self, rng: random.Random) -> list[int]:
        hands = [0] * len(self.others)
        need = self.need
        for suit in range(4):
            options = self._options(suit, need)
            total = sum(w for _, w in options)
            pick = rng.randrange(total)
            split = options[-1][0]
            for option, weight in options:
                if pick < weight:
                    split = option
                    break
                pick -= weight
            cards = list(self.suit_cards[suit])
            rng.shuffle(cards)
            start = 0
            for i, k in enumerate(split):
                for card in cards[start:start + k]:
                    hands[i] |= 1 << card
                start += k
            need = tuple(n - k for n, k in zip(need, split, strict=True))
        return hands

    def _weight(self, hands: list[int], rng: random.Random) -> float:
        weight = 1.0
        for index, cards in self.events:
            if hands[index] & cards:
                weight *= UNLIKELY
        if self.evidence:
            weight *= self._trump_weight(hands, rng)
        return weight

    def _trump_weight(self, hands: list[int], rng: random.Random) -> float:
        from bistrot.omi.bots.trump_table import choice_probabilities

        know = self.know
        chooser = know.chooser
        original = list(bits(hands[self._chooser_index] | know.played_by[chooser]))
        first = rng.sample(original, FIRST_BATCH)
        assert know.trump is not None
        return choice_probabilities(first)[know.trump]

    def sample(self, rng: random.Random) -> list[int]:
        """One layout: the hand (card set) of every seat, this seat's own included."""
        if not self.evidence and not self.events:
            chosen = self._uniform(rng)
        else:
            pool = [self._uniform(rng) for _ in range(self.pool)]
            weights = [self._weight(h, rng) for h in pool]
            chosen = rng.choices(pool, weights=weights)[0]
        hands = [0] * self.know.players
        hands[self.know.seat] = self.know.hand
        for i, seat in enumerate(self.others):
            hands[seat] = chosen[i]
        return hands


def _passed_up_wins(know: Knowledge, others: list[int]) -> list[tuple[int, int]]:
    """``(index in others, cards)``: a player passed up a win they would have had with any of
    ``cards``, which they may still hold (cards they played later prove nothing new)."""
    from bistrot.omi.bots.tracking import trick_winner

    trump = know.trump
    if trump is None:
        return []
    n = know.players
    events = []
    for k, trick in enumerate(know.history):
        led = trick[0][1] // SUIT_BITS
        for i in range(1, len(trick)):
            seat, card = trick[i]
            if seat == know.seat:
                continue
            winner, best = trick_winner(trick[:i], trump)
            if know.side_of(winner) == know.side_of(seat):
                continue
            suit = card // SUIT_BITS
            best_is_trump = best // SUIT_BITS == trump
            if suit != led and suit != trump:
                # Discarded while an opponent was winning: would a trump have won?
                cards = SUIT_MASKS[trump] & (~((2 << best) - 1) if best_is_trump else -1)
            elif suit == led and i == n - 1 and not best_is_trump and card < best:
                # Last to play, followed low under the opponents' card.
                cards = SUIT_MASKS[led] & ~((2 << best) - 1)
            else:
                continue
            later = 0
            for t in know.history[k:]:
                for s, c in t:
                    if s == seat:
                        later |= 1 << c
            cards &= know.unseen
            if cards and not cards & later:
                events.append((others.index(seat), cards))
    return events
