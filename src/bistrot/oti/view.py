"""What an Oti seat is shown: the types of :meth:`OtiGame.view <bistrot.oti.game.OtiGame.view>`.

>>> from bistrot.oti import OtiGame, OtiRules
>>> view: OtiView = OtiGame.new(OtiRules(players=2), seed=3).view(0)
>>> view["face_down"], view["ready"]
([3, 3], [False, False])
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from bistrot.engine import GameView
from bistrot.oti.actions import FLIP, PICKUP

# "from" is a keyword: the functional form names it.
Event = TypedDict(
    "Event",
    {
        "seat": int | None,
        "action": str,
        "cards": NotRequired[list[str]],
        "from": NotRequired[str],
        "picked": NotRequired[list[str]],
        "effect": NotRequired[str],
        "out": NotRequired[bool],
        "reason": NotRequired[str],
    },
)
"""One public event of the game's history: who did what, with which cards (``from`` the hand,
face up or face down), what it did (``effect``: ``again``, ``burn``, ``close``), whether the
seat went ``out``; ``picked`` is the pile picked up after an unlucky flip; the game's ``stop``
has a ``reason``."""


class OtiView(GameView):
    """All an Oti seat may know: face-down cards as counts only, other hands as counts plus the
    cards everybody saw go in, the seed only at the end."""

    hand: list[str]
    hand_counts: list[int]
    known_in_hand: list[list[str]]
    face_up: list[list[str]]
    face_down: list[int]
    draw_pile: int
    pile: list[str]
    pile_count: int
    top: str | None
    to_beat: str | None
    burnt: list[str]
    ready: list[bool]
    first_player: int | None
    play_again: bool
    source: str | None
    history: list[Event]
    out: list[int]
    end_reason: str | None


#: The first word of the actions that are a turn of play (not the swap before it).
TURN_ACTIONS = ("play", PICKUP, FLIP)


def challenge_facts(view: OtiView) -> dict[str, Any]:
    """The public facts of a finished game that a challenge's results compare, from a
    spectator's ``view``: who went out in which order, how many cards each seat still had, how
    many turns each played; counts only, never a card (registered as the game's ``facts``).

    >>> from bistrot.oti import OtiGame, OtiRules
    >>> game = OtiGame.new(OtiRules(players=2), seed=3)
    >>> while not game.is_over:
    ...     seat = game.actors()[0]
    ...     legal = game.legal_actions(seat)
    ...     game.apply("ready" if "ready" in legal else legal[0], seat=seat)
    >>> facts = challenge_facts(game.view(None))
    >>> facts["out"], facts["cards_left"][facts["out"][0]], len(facts["turns"])
    ([0], 0, 2)
    """
    seats = range(view["players"])
    return {
        "out": list(view["out"]),
        "cards_left": [
            view["hand_counts"][s] + len(view["face_up"][s]) + view["face_down"][s] for s in seats
        ],
        "turns": [
            sum(1 for e in view["history"] if e["seat"] == s and e["action"].split()[0] in TURN_ACTIONS)
            for s in seats
        ],
    }
