"""What an Oti seat is shown: the types of :meth:`OtiGame.view <bistrot.oti.game.OtiGame.view>`.

>>> from bistrot.oti import OtiGame, OtiRules
>>> view: OtiView = OtiGame.new(OtiRules(players=2), seed=3).view(0)
>>> view["face_down"], view["ready"]
([3, 3], [False, False])
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from bistrot.engine import GameView

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
