"""What an Omi seat is shown: the types of :meth:`OmiGame.view <bistrot.omi.game.OmiGame.view>`.

>>> from bistrot.omi import OmiGame
>>> view: OmiView = OmiGame.new(seed=3).view(0)
>>> sorted(set(view) - set(GameView.__annotations__))[:4]
['carry', 'chooser', 'dealer', 'hand']
"""

from __future__ import annotations

from typing import Any, TypedDict

from bistrot.engine import GameView


class TrickCard(TypedDict):
    """A card on the table: who played it."""

    seat: int
    card: str


class Trick(TypedDict):
    """A completed trick: the hand it belongs to, its leader, the cards in order, the winner."""

    hand: int
    leader: int
    cards: list[str]
    winner: int


class HandResult(TypedDict):
    """How a hand was scored (see :func:`bistrot.omi.scoring.score_hand`)."""

    hand: int
    dealer: int
    chooser: int
    trump: str
    tricks: list[int]
    announced: int | None
    side: int | None
    tokens: int
    kapothi: bool
    carry: int


class OmiView(GameView):
    """All an Omi seat may know: other hands only as counts, the seed only at the end."""

    hand_number: int
    redeals: int
    dealer: int
    chooser: int
    trump: str | None
    hand: list[str]
    hand_counts: list[int]
    trick: list[TrickCard]
    tricks: list[Trick]
    last_trick: Trick | None
    tricks_won: list[int]
    kapothi_announced: int | None
    tokens: list[int]
    carry: int
    results: list[HandResult]


def challenge_facts(view: OmiView) -> dict[str, Any]:
    """The public facts of a finished match that a challenge's results compare, from a
    spectator's ``view``: how each hand was scored (who chose which trump, the tricks each side
    took, the tokens, the carry), and no card (registered as the game's ``facts``).

    >>> from bistrot.omi import OmiGame, OmiRules
    >>> game = OmiGame.new(OmiRules(target=1), seed=3)
    >>> while not game.is_over:
    ...     game.apply(game.legal_actions()[0])
    >>> hand = challenge_facts(game.view(None))["hands"][0]
    >>> sorted(hand)[:5], hand["chooser"], hand["trump"]
    (['announced', 'carry', 'chooser', 'dealer', 'hand'], 0, 'S')
    """
    return {"hands": [dict(r) for r in view["results"]]}
