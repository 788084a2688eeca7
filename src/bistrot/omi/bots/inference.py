"""Deals of the unseen cards consistent with what a seat has observed.

:class:`DealSampler` draws complete layouts of the cards this seat cannot see, **uniformly**
among those that respect every hand count and every void shown: the number of unseen cards of
each suit in each hand is drawn by dynamic programming over the suits (each split weighted by the
number of deals that realise it), then the cards of each suit are shuffled into those places.

The trump choice is evidence too: a chooser who named hearts probably held hearts among their
first four cards.  With ``evidence=True`` samples are drawn from a pool of uniform candidates
(``pool`` per sample, one pool for a batch of samples) by importance resampling, weighting a
candidate by the probability that the chooser would name the trump they named
(:func:`~.trump_table.choice_probabilities`) from four of their eight original cards picked at
random as the first batch.

So is the play (``play_evidence=True``): a player who, with an opponent winning the trick,
discarded instead of trumping probably held no trump that would have won; a player who, third
or last to play, followed suit under the opponents' card probably held nothing of the suit that
beats it; a player who discards seldom throws from a suit whose top card they hold.  A layout
that gives them such a card then is weighted by the likelihood of that play (:data:`RUFF_PASSED`
and the others below), once per event.

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
from bisect import bisect_right
from collections.abc import Mapping
from functools import cache
from math import comb

from bistrot.cards import SUIT_BITS, SUIT_MASKS, bits
from bistrot.omi.bots.tracking import Knowledge
from bistrot.omi.tricks import trick_winner

FIRST_BATCH = 4
#: Likelihoods of plays that pass up an obvious win, given a card that would have won: a ruff
#: while an opponent wins, the last hand beating the opponents' card, the third hand doing so;
#: and of discarding from a suit while holding its top card.
RUFF_PASSED = 0.1
LAST_PASSED = 0.1
THIRD_PASSED = 0.25
DISCARD_TOP = 0.5
#: A low lead in a side suit comes from length: a layout is weighted by the leader's length in
#: that suit at the time, to this power.
LEAD_POWER = 1.0
ALL_SUITS = 0b1111

_DrawTable = tuple[list[int], list[tuple[tuple[int, int], ...]], list[tuple[int, ...]]]
"""A suit's splits ready to draw from (:meth:`DealSampler._draw_table`)."""


def _cards_of_suits(suits: int) -> int:
    """Every card of the suits in ``suits`` (a bit per suit), as a card set."""
    return sum((SUIT_MASKS[s] for s in range(4) if suits >> s & 1), 0)


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
                 play_evidence: bool = False, model: bool = False, mismatch: float = 0.3,
                 known: Mapping[int, int] | None = None,
                 known_suits: Mapping[int, int] | None = None,
                 holds: Mapping[int, int] | None = None, lacks: Mapping[int, int] | None = None) -> None:
        self.know = know
        #: Hands of other seats that are given, not drawn (``{seat: cards held now}``): what the
        #: layouts would be if this seat could see them (the benches measure what that is worth).
        #: With ``known_suits`` (``{seat: suits}``, a bit per suit) only the seat's cards of those
        #: suits are given and the rest of its hand is drawn.  Finer still, ``holds`` and ``lacks``
        #: (``{seat: cards}``): cards a seat is given, the rest of its hand drawn, and cards it
        #: is known not to hold (a layout that gives it one has weight 0).
        shown = {seat: (known_suits or {}).get(seat, ALL_SUITS) for seat in known or {}}
        self.known = {seat: cards & _cards_of_suits(shown[seat]) for seat, cards in (known or {}).items()}
        self.partial = {seat: cards for seat, cards in self.known.items() if shown[seat] != ALL_SUITS}
        for seat, cards in (holds or {}).items():
            if seat in self.known and seat not in self.partial:
                raise ValueError("holds: the seat's whole hand is known already")
            self.known[seat] = self.partial[seat] = self.partial.get(seat, 0) | cards
            shown.setdefault(seat, 0)
        hidden = know.unseen
        for cards in self.known.values():
            hidden &= ~cards
        self.others = [s for s in range(know.players)
                       if s != know.seat and (s not in self.known or s in self.partial)]
        self.suit_cards = [list(bits(hidden & SUIT_MASKS[s])) for s in range(4)]
        self.suit_bits = [[1 << card for card in cards] for cards in self.suit_cards]
        self.need = tuple(know.counts[s] - self.partial.get(s, 0).bit_count() for s in self.others)
        if sum(self.need) != sum(len(c) for c in self.suit_cards):
            raise ValueError("the hand counts do not add up to the unseen cards")

        def allowed(closed: list[int]) -> list[tuple[bool, ...]]:  # closed: suits a seat gets none of
            return [tuple(not c >> suit & 1 for c in closed) for suit in range(4)]

        given = [shown.get(o, 0) for o in self.others]
        self.allowed = allowed([know.voids[o] | g for o, g in zip(self.others, given, strict=True)])
        self._tables: dict[tuple[int, tuple[int, ...]], _DrawTable] = {}
        if self._count(0, self.need) == 0:
            # Voids cannot all be honoured (they always can in a real game); drop them.
            self.allowed = allowed(given)
            self._tables.clear()
        chooser = know.chooser
        self.evidence = (
            evidence and know.players == 4 and know.trump is not None and chooser in self.others
        )
        self.pool = pool
        self._chooser_index = self.others.index(chooser) if self.evidence else -1
        self.events = _passed_up_wins(know, self.others) if play_evidence else []
        self.lead_lengths = _lead_lengths(know, self.others) if play_evidence and LEAD_POWER else []
        if any(seat not in self.others for seat in lacks or {}):
            raise ValueError("lacks: only a seat whose hand is drawn can lack cards")
        self.lacks = [(self.others.index(seat), cards) for seat, cards in (lacks or {}).items() if cards]
        self.model = None
        if model:
            from bistrot.omi.bots.policy_evidence import PlayModel

            self.model = PlayModel(know, mismatch=mismatch) if know.history else None

    def count(self) -> int:
        """The number of layouts consistent with the observations (before the evidence)."""
        return self._count(0, self.need)

    def _draw_table(self, suit: int, need: tuple[int, ...]) -> _DrawTable:
        """The splits of this suit's unseen cards that fit ``need``, ready to draw from: the
        running totals of their deal counts, where each split's cards go, and what the later
        suits must then fill (the last running total is the number of deals from here)."""
        table = self._tables.get((suit, need))
        if table is None:
            allowed = self.allowed[suit]
            running: list[int] = []
            places: list[tuple[tuple[int, int], ...]] = []
            rests: list[tuple[int, ...]] = []
            total = 0
            for split in _splits(len(self.suit_cards[suit]), len(need)):
                if any(k and not ok for k, ok in zip(split, allowed, strict=True)):
                    continue
                if any(k > n for k, n in zip(split, need, strict=True)):
                    continue
                rest = tuple(n - k for n, k in zip(need, split, strict=True))
                ways = self._count(suit + 1, rest)
                if ways:
                    total += _multinomial(split) * ways
                    running.append(total)
                    places.append(tuple((i, k) for i, k in enumerate(split) if k))
                    rests.append(rest)
            table = self._tables[(suit, need)] = (running, places, rests)
        return table

    def _count(self, suit: int, need: tuple[int, ...]) -> int:
        if suit == 4:
            return 0 if any(need) else 1
        running = self._draw_table(suit, need)[0]
        return running[-1] if running else 0

    def _uniform(self, rng: random.Random) -> list[int]:
        hands = [0] * len(self.others)
        need = self.need
        for suit in range(4):
            running, places, rests = self._draw_table(suit, need)
            # The split of deal counts' weight, then the suit's cards shuffled into its places.
            which = bisect_right(running, rng.randrange(running[-1]))
            cards = list(self.suit_bits[suit])
            rng.shuffle(cards)
            start = 0
            for i, k in places[which]:
                hands[i] |= sum(cards[start:start + k])  # distinct bits: the sum is their union
                start += k
            need = rests[which]
        return hands

    def _weight(self, hands: list[int], rng: random.Random) -> float:
        if self.partial:
            hands = [h | self.partial.get(seat, 0) for h, seat in zip(hands, self.others, strict=True)]
        for index, cards in self.lacks:
            if hands[index] & cards:
                return 0.0
        weight = 1.0
        for index, cards, likelihood in self.events:
            if hands[index] & cards:
                weight *= likelihood
        for index, suit_cards, played in self.lead_lengths:
            weight *= ((hands[index] & suit_cards).bit_count() + played) ** LEAD_POWER
        if self.evidence:
            weight *= self._trump_weight(hands, rng)
        if self.model is not None:
            weight *= self.model.weight(self._layout(hands))
        return weight

    def _trump_weight(self, hands: list[int], rng: random.Random) -> float:
        know = self.know
        chooser = know.chooser
        original = list(bits(hands[self._chooser_index] | know.played_by[chooser]))
        first = rng.sample(original, FIRST_BATCH)
        assert know.trump is not None
        return _choice_probabilities(tuple(sorted(first)))[know.trump]

    def sample(self, rng: random.Random) -> list[int]:
        """One layout: the hand (card set) of every seat, this seat's own included."""
        return self.sample_many(rng, 1)[0]

    def sample_many(self, rng: random.Random, k: int) -> list[list[int]]:
        """``k`` layouts, drawn by importance resampling from one pool of ``k * pool`` candidates.

        One shared pool approximates the posterior better than ``k`` pools of ``pool`` each, for
        the same number of weights computed (the weights, not the solver, are the cost).
        """
        if (not self.evidence and not self.events and not self.lead_lengths and self.model is None
                and not self.lacks):
            chosen = [self._uniform(rng) for _ in range(k)]
        else:
            pool = [self._uniform(rng) for _ in range(k * self.pool)]
            weights = [self._weight(h, rng) for h in pool]
            if self.lacks and not any(weights):
                # No candidate avoided every card a seat lacks (a drawn hand rarely does when many
                # are lacked): each is mended by same-suit exchanges instead, since a layout that
                # gives a seat a card it lacks is impossible, whatever the other evidence says.
                pool = [self._without_lacked(h, rng) for h in pool]
                weights = [self._weight(h, rng) for h in pool]
            chosen = _systematic(rng, pool, weights, k)
        return [self._layout(others) for others in chosen]

    def _without_lacked(self, hands: list[int], rng: random.Random) -> list[int]:
        """``hands`` with each card a seat lacks exchanged for a card of the same suit from
        another drawn hand that may hold it (counts and voids stay as drawn)."""
        hands = list(hands)
        lacked = [0] * len(hands)
        for index, cards in self.lacks:
            lacked[index] |= cards
        for index, cards in self.lacks:
            for card in list(bits(hands[index] & cards)):
                mine = 1 << card
                suit = SUIT_MASKS[card // SUIT_BITS]
                swaps = [(j, other) for j in range(len(hands)) if j != index and not lacked[j] & mine
                         for other in bits(hands[j] & suit & ~lacked[index])]
                if swaps:
                    j, other = rng.choice(swaps)
                    hands[index] ^= mine | 1 << other
                    hands[j] ^= mine | 1 << other
        return hands

    def _layout(self, others: list[int]) -> list[int]:
        """Every seat's hand, from the drawn hands of :attr:`others` (in that order)."""
        hands = [0] * self.know.players
        hands[self.know.seat] = self.know.hand
        for seat, cards in self.known.items():
            hands[seat] = cards
        for i, seat in enumerate(self.others):
            hands[seat] = others[i] | self.partial.get(seat, 0)
        return hands


def _systematic(rng: random.Random, pool: list[list[int]], weights: list[float], k: int) -> list[list[int]]:
    """``k`` of ``pool`` by systematic resampling: each drawn in proportion to its weight, with
    less spread than ``k`` independent draws (a candidate of weight share w comes ``k * w``
    times, rounded up or down)."""
    total = sum(weights)
    if total <= 0:
        return [rng.choice(pool) for _ in range(k)]
    step = total / k
    point = rng.random() * step
    chosen: list[list[int]] = []
    cumulative = 0.0
    for candidate, weight in zip(pool, weights, strict=True):
        cumulative += weight
        while point < cumulative and len(chosen) < k:
            chosen.append(candidate)
            point += step
    while len(chosen) < k:  # rounding at the very end
        chosen.append(pool[-1])
    rng.shuffle(chosen)
    return chosen


@cache
def _choice_probabilities(first: tuple[int, ...]) -> list[float]:
    """:func:`~.trump_table.choice_probabilities`, remembered: the same first batches come back."""
    from bistrot.omi.bots.trump_table import choice_probabilities

    return choice_probabilities(first)


def _passed_up_wins(know: Knowledge, others: list[int]) -> list[tuple[int, int, float]]:
    """``(index in others, cards, likelihood)``: a player made a play that is unlikely if they
    held any of ``cards`` at the time (and may still hold; cards they played later prove
    nothing new)."""
    trump = know.trump
    if trump is None:
        return []
    n = know.players
    events = []
    gone = 0  # cards played before the trick being read
    for k, trick in enumerate(know.history):
        led = trick[0][1] // SUIT_BITS
        for i in range(1, len(trick)):
            seat, card = trick[i]
            if seat not in others:  # this seat, or a hand that is given, not drawn
                continue
            suit = card // SUIT_BITS
            winner, best = trick_winner(trick[:i], trump)
            opponents_win = know.side_of(winner) != know.side_of(seat)
            best_is_trump = best // SUIT_BITS == trump
            cards, likelihood = 0, 1.0
            if suit != led and suit != trump:
                if opponents_win:
                    # Discarded while an opponent was winning: any trump that wins would have.
                    above = ~((2 << best) - 1) if best_is_trump else -1
                    cards, likelihood = SUIT_MASKS[trump] & above, RUFF_PASSED
                else:
                    # A discard comes from a weak suit: the suit's top card is seldom there.
                    left = SUIT_MASKS[suit] & know.rules.deck & ~gone & ~_cards_of(trick[:i])
                    cards, likelihood = 1 << (left.bit_length() - 1), DISCARD_TOP
            elif (suit == led and opponents_win and not best_is_trump and card < best
                  and (i == n - 1 or (n == 4 and i == 2))):
                # Third or last hand followed under the opponents' card: nothing higher, probably.
                cards = SUIT_MASKS[led] & ~((2 << best) - 1)
                likelihood = LAST_PASSED if i == n - 1 else THIRD_PASSED
            if not cards:
                continue
            later = 0
            for t in know.history[k:]:
                for s, c in t:
                    if s == seat:
                        later |= 1 << c
            cards &= know.unseen
            if cards and not cards & later:
                events.append((others.index(seat), cards, likelihood))
        gone |= _cards_of(trick)
    return events


def _cards_of(trick: list[tuple[int, int]]) -> int:
    mask = 0
    for _, card in trick:
        mask |= 1 << card
    return mask


def _lead_lengths(know: Knowledge, others: list[int]) -> list[tuple[int, int, int]]:
    """``(index in others, suit cards still unseen, cards of the suit they played since)`` for
    each low side-suit lead by another player."""
    trump = know.trump
    events = []
    gone = 0
    for k, trick in enumerate(know.history):
        seat, card = trick[0]
        suit = card // SUIT_BITS
        left = SUIT_MASKS[suit] & know.rules.deck & ~gone
        top = left.bit_length() - 1
        if seat in others and suit != trump and card != top:
            played = 0
            for t in know.history[k:]:
                for s, c in t:
                    if s == seat and c // SUIT_BITS == suit:
                        played += 1
            events.append((others.index(seat), know.unseen & SUIT_MASKS[suit], played))
        gone |= _cards_of(trick)
    return events
