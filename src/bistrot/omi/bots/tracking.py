"""What a seat knows about an Omi hand, read from its view alone: cards played, voids, counts.

Every bot above ``easy`` starts from a :class:`Knowledge`: the seat's own cards, every card seen
played (completed tricks and the trick in progress), who played it, the suits each seat has
shown out of, and how many cards each seat still holds.  It is built from the JSON view, so it
cannot contain a card the seat may not see.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.from_deal(OmiRules(), ["AH JH 8H KC 7S 8S 9S TS".split(),
...     "7H 9H AC 8C JS QS KS AS".split(), "TH QH KH 7C 7D 8D 9D TD".split(),
...     "9C TC JC QC JD QD KD AD".split()])
>>> from bistrot.cards import HEARTS, CardSet
>>> game.apply_all(["trump H", "play AH", "play 7H", "play TH", "play QD"])
>>> know = Knowledge.from_view(game.view(1))
>>> know.voids[3] == 1 << HEARTS, know.counts, CardSet(know.played)
(True, [7, 7, 7, 7], CardSet('AH TH 7H QD'))
>>> CardSet(know.unseen).count()  # the 24 cards held by the three others
21
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bistrot.cards import CARD_BY_NAME, SUIT_BITS, SUIT_LETTERS, SUIT_MASKS
from bistrot.omi.rules import OmiRules


@dataclass
class Knowledge:
    """One seat's knowledge of the hand in play (see the module docstring)."""

    seat: int
    players: int
    rules: OmiRules
    hand: int
    trump: int | None
    trick: list[tuple[int, int]]
    played: int
    played_by: list[int]
    voids: list[int]
    counts: list[int]
    tricks_won: list[int]
    tricks_done: int
    chooser: int
    leads: list[tuple[int, int]] = field(default_factory=list)
    discards: list[list[int]] = field(default_factory=list)
    history: list[list[tuple[int, int]]] = field(default_factory=list)
    """Every trick of the hand so far as ``(seat, card)`` in play order, the one in progress last."""

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Knowledge:
        """Read a seat's view (the dict of ``OmiGame.view``, possibly JSON round-tripped)."""
        rules = OmiRules.from_dict(dict(view["rules"]))
        n = rules.players
        trump_letter = view.get("trump")
        trump = SUIT_LETTERS.index(trump_letter) if trump_letter else None
        played_by = [0] * n
        voids = [0] * n
        leads: list[tuple[int, int]] = []
        discards: list[list[int]] = [[] for _ in range(n)]
        history: list[list[tuple[int, int]]] = []

        def record(trick: list[tuple[int, int]]) -> None:
            led = trick[0][1] // SUIT_BITS
            history.append(trick)
            leads.append(trick[0])
            for seat, card in trick:
                played_by[seat] |= 1 << card
                suit = card // SUIT_BITS
                if suit != led:
                    voids[seat] |= 1 << led
                    if suit != trump:
                        discards[seat].append(card)

        for done in view["tricks"]:
            leader = done["leader"]
            record([((leader + i) % n, CARD_BY_NAME[c]) for i, c in enumerate(done["cards"])])
        trick = [(t["seat"], CARD_BY_NAME[t["card"]]) for t in view["trick"]]
        if trick:
            record(trick)
        played = 0
        for mask in played_by:
            played |= mask
        hand = 0
        for name in view["hand"]:
            hand |= 1 << CARD_BY_NAME[name]
        return cls(
            seat=view["seat"], players=n, rules=rules, hand=hand, trump=trump, trick=trick,
            played=played, played_by=played_by, voids=voids, counts=list(view["hand_counts"]),
            tricks_won=list(view["tricks_won"]), tricks_done=len(view["tricks"]),
            chooser=view["chooser"], leads=leads, discards=discards, history=history,
        )

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in the other hands (every card is dealt in Omi)."""
        return self.rules.deck & ~self.hand & ~self.played

    @property
    def remaining(self) -> int:
        """Cards not yet played, this seat's included."""
        return self.rules.deck & ~self.played

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat``."""
        return self.rules.side_of(seat)

    def partner(self) -> int | None:
        """The partner's seat (None with three players)."""
        return (self.seat + 2) % 4 if self.players == 4 else None

    def is_friend(self, seat: int) -> bool:
        """Whether ``seat`` is this seat or its partner."""
        return self.side_of(seat) == self.side_of(self.seat)

    def may_hold(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` (another seat) may still hold a card of ``suit``."""
        return not self.voids[seat] >> suit & 1 and bool(self.unseen & SUIT_MASKS[suit])

    def is_master(self, card: int) -> bool:
        """Whether ``card`` is the highest of its suit not yet played."""
        higher = SUIT_MASKS[card // SUIT_BITS] & ~((2 << card) - 1)
        return not self.remaining & higher

    def outstanding(self, suit: int) -> int:
        """Cards of ``suit`` held by the other seats (as a card set)."""
        return self.unseen & SUIT_MASKS[suit]

    def seats_after(self) -> list[int]:
        """The seats still to play to the current trick after this one, in order."""
        n = self.players
        start = len(self.trick) + 1
        return [(self.seat + i) % n for i in range(1, n - start + 1)]
