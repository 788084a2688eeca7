"""The ``easy`` Oti player: legal and naive.

It keeps the cards as dealt (no swap), and plays a random legal set of cards, magic or not,
picking up only when it must: a beginner who knows the rules but not the game.

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.new(OtiRules(players=3), seed=3)
>>> bots = [EasyOtiBot(seed=s) for s in range(3)]
>>> for seat in range(3):
...     game.apply(bots[seat].act(game.view(seat)), seat=seat)
>>> while not game.is_over:
...     game.apply(bots[game.to_move].act(game.view(game.to_move)))
>>> game.winner in (0, 1, 2)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bistrot.oti.bots.common import legal_or_fail


class EasyOtiBot:
    """A beginner: see the module docstring."""

    level = "easy"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        if options:
            raise TypeError(f"the easy Oti bot takes no options, not {', '.join(sorted(options))}")
        self.rng = random.Random(seed)

    def act(self, view: Mapping[str, Any]) -> str:
        """One of ``view["legal"]``."""
        legal = legal_or_fail(view)
        if "ready" in legal:
            return "ready"
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            return self.rng.choice(plays)
        return legal[0]  # flip, or the pickup it cannot avoid
