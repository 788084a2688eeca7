"""The ``medium`` Oti player: a good player's rules of thumb.

- Before play it swaps its strongest cards face up (10s, 2s, then 5s and the highest values),
  so the end of the game is easy to play.
- It sheds its lowest values first, as many equal cards as it may (never 3), and closes a
  value whenever the pile lets it (the pile burns and it plays again).
- It keeps 2s and 10s for trouble: a 5 first when it can follow with another card, a 10 on a
  big pile, a 2 on a small one.  Facing only high cards it plays a 5 and a low card on it.
- It remembers what was burnt: when the next player is down to face-up or face-down cards it
  plays the value they are least likely to beat, counting the cards not yet seen.

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.from_position(OtiRules(players=2), ["7S 7H 3D KC", "4C 5C 6C"],
...     ["", ""], ["", ""], pile="9D 7D 7C")
>>> MediumOtiBot().act(game.view(0))  # closes the sevens
'play 7S 7H'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bistrot.cards import CARD_BY_NAME, CARD_NAMES
from bistrot.oti.actions import play_text
from bistrot.oti.bots.common import legal_or_fail, mask_of_names, source_mask
from bistrot.oti.bots.policy import beats_of, best_face_up, choose_play
from bistrot.oti.values import FULL_DECK, MAGIC, RANK_CARDS, RANK_OF

SMALL_PILE = 2


class MediumOtiBot:
    """A good club player: see the module docstring."""

    level = "medium"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        if options:
            raise TypeError(f"the medium Oti bot takes no options, not {', '.join(sorted(options))}")
        self.seed = seed  # it plays deterministically; the seed is kept for the interface

    def act(self, view: Mapping[str, Any]) -> str:
        """One of ``view["legal"]``."""
        legal = legal_or_fail(view)
        if view["phase"] == "swap":
            return self._swap(view)
        if len(legal) == 1:
            return legal[0]
        if "flip" in legal:
            return "flip"
        pile = [CARD_BY_NAME[name] for name in view["pile"]]
        source = source_mask(view)
        mask = choose_play(source, pile, self._pressure(view))
        if mask == 0:
            return "pickup"
        rank = RANK_OF[(mask & -mask).bit_length() - 1]
        if (
            "pickup" in legal and MAGIC[rank] and view["draw_pile"] > 0 and len(pile) <= SMALL_PILE
            and not any(MAGIC[RANK_OF[c]] for c in pile)
        ):
            return "pickup"  # a small pile costs less than a magic card
        action = play_text(mask)
        return action if action in legal else legal[0]

    def _swap(self, view: Mapping[str, Any]) -> str:
        seat = view["seat"]
        swap = best_face_up(mask_of_names(view["hand"]), mask_of_names(view["face_up"][seat]))
        if swap is None:
            return "ready"
        return f"swap {CARD_NAMES[swap[0]]} {CARD_NAMES[swap[1]]}"

    def _pressure(self, view: Mapping[str, Any]) -> tuple[int, ...] | None:
        """How many of the next player's possible cards beat each value, when they are down
        to their face-up or face-down cards; None otherwise."""
        seat, players = view["seat"], view["players"]
        nxt = (seat + 1) % players
        while nxt in view["out"] and nxt != seat:
            nxt = (nxt + 1) % players
        if view["draw_pile"] or view["hand_counts"][nxt] or nxt == seat:
            return None
        if view["face_up"][nxt]:
            candidates = mask_of_names(view["face_up"][nxt])
        else:
            seen = mask_of_names(view["hand"]) | mask_of_names(view["pile"]) | mask_of_names(view["burnt"])
            for cards in (*view["face_up"], *view["known_in_hand"]):
                seen |= mask_of_names(cards)
            candidates = FULL_DECK & ~seen  # the blind card is one of the cards not seen yet
        return beats_of([(candidates & RANK_CARDS[r]).bit_count() for r in range(15)])
