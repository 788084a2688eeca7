"""The cards the others played, read through a model of how people play.

A layout of the unseen cards gives every other player the hand they held at each of their past
plays.  If a reference player (by default the ``medium`` level's rules, a good club player) holding
that hand would have played the card they did, the layout explains the play; if not, the play
is less likely under that layout, by the factor :data:`MISMATCH`.  The weight of a layout is the
product over the others' past plays of this hand, so layouts that explain how the others played
are preferred, without ruling any out: a player who does not follow the model only makes the
evidence weaker.

>>> from bistrot.omi import OmiGame, OmiRules
>>> from bistrot.omi.bots.tracking import Knowledge
>>> game = OmiGame.from_deal(OmiRules(), [h.split() for h in ("AS KS QS JS 7H 7D 8D 9D",
...     "AC KC QC JC TC 9C 8H 9H", "TS 9S 8S 7S TH JH 7C 8C", "QH KH AH TD JD QD KD AD")])
>>> game.apply_all(["trump H", "play AS", "play 9C"])
>>> model = PlayModel(Knowledge.from_view(game.view(2)))
>>> len(model.records)  # seat 1's discard (seat 0's lead is a free choice too)
2
>>> model.weight(game.hands)  # the true hands explain the lead, but seat 1 could have trumped
0.3
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bistrot.cards import CARD_NAMES, SUIT_BITS, SUIT_LETTERS, SUIT_MASKS
from bistrot.omi.bots.tracking import Knowledge
from bistrot.omi.tricks import trick_winner

#: Likelihood of a play the model would not have made, relative to one it would.
MISMATCH = 0.3

Policy = Callable[[Knowledge, int], int]
"""The reference player: the card it plays from a seat's knowledge and its legal cards."""
FollowReads = Callable[[int, int], int]
"""The cards of its hand a policy looks at when it follows the led suit, from the led suit and
trump (:func:`bistrot.omi.bots.medium.follow_reads`)."""
EVERY_CARD = -1  # as a mask: the whole hand


def _medium_policy() -> tuple[Policy, FollowReads]:
    from bistrot.omi.bots.medium import choose_card, follow_reads

    return choose_card, follow_reads


class PlayModel:
    """The others' past plays of this hand, ready to be checked against layouts.  ``policy`` is
    the reference player (medium's rules by default); ``follow_reads``, if known, the cards it
    looks at when following suit."""

    def __init__(self, know: Knowledge, policy: Policy | None = None, mismatch: float = MISMATCH,
                 follow_reads: FollowReads | None = None) -> None:
        if policy is None:
            policy, follow_reads = _medium_policy()
        self.policy = policy
        self.mismatch = mismatch
        self.records: list[tuple[int, Knowledge, int, int, int, int]] = []
        # The model's choice depends only on the record and the hand held then (following suit,
        # only on the cards ``follow_reads`` names), and the same hands come back across
        # layouts: remember each choice.
        self._choices: dict[tuple[int, int], int] = {}
        history = know.history
        trump = know.trump
        if trump is None:
            return
        n = know.players
        done: list[dict[str, Any]] = []
        for k, trick in enumerate(history):
            for i, (seat, card) in enumerate(trick):
                if seat == know.seat:
                    continue
                view = {
                    "seat": seat, "rules": know.rules.to_dict(), "trump": SUIT_LETTERS[trump],
                    "tricks": done, "hand": [],
                    "trick": [{"seat": s, "card": CARD_NAMES[c]} for s, c in trick[:i]],
                    "hand_counts": [0] * n, "tricks_won": [0] * know.rules.sides,
                    "chooser": know.chooser,
                }
                snapshot = Knowledge.from_view(view)
                later = 0
                for t in history[k:]:
                    for s, c in t:
                        if s == seat:
                            later |= 1 << c
                led = trick[0][1] // SUIT_BITS if i else None
                reads = EVERY_CARD if led is None or follow_reads is None else follow_reads(led, trump)
                self.records.append((seat, snapshot, later, card, -1 if led is None else led, reads))
            if len(trick) == n:
                done = [*done, {"leader": trick[0][0], "cards": [CARD_NAMES[c] for _, c in trick],
                                "winner": trick_winner(trick, trump)[0]}]

    def weight(self, hands: Sequence[int]) -> float:
        """The relative likelihood of the others' plays if they hold ``hands`` now."""
        weight = 1.0
        choices = self._choices
        for index, (seat, snapshot, later, card, led, reads) in enumerate(self.records):
            held = hands[seat] | later
            legal = key = held
            if led >= 0 and held & SUIT_MASKS[led]:
                legal = held & SUIT_MASKS[led]
                key = held & reads
            if legal & (legal - 1) == 0:
                continue  # no choice: nothing to learn
            choice = choices.get((index, key))
            if choice is None:
                snapshot.hand = held
                choice = choices[(index, key)] = self.policy(snapshot, legal)
            if choice != card:
                weight *= self.mismatch
        return weight
