"""Reading a seat's view into card sets, for the Oti bots.

>>> mask_of_names(["3S", "TH"]) == (1 << 1) | (1 << 21)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bistrot.cards import CARD_BY_NAME


def mask_of_names(names: Iterable[str]) -> int:
    """The card set of card texts."""
    mask = 0
    for name in names:
        mask |= 1 << CARD_BY_NAME[name]
    return mask


def legal_or_fail(view: Mapping[str, Any]) -> list[str]:
    """The legal actions of a view; a bot asked to act without any is a caller's mistake."""
    legal = list(view["legal"])
    if not legal:
        raise ValueError("the bot was asked to act with no legal action (not its turn?)")
    return legal


def source_mask(view: Mapping[str, Any]) -> int:
    """The cards the seat plays from now: its hand, else its face-up cards (0 when blind)."""
    if view["hand"]:
        return mask_of_names(view["hand"])
    if view["source"] == "face_up":
        return mask_of_names(view["face_up"][view["seat"]])
    return 0
