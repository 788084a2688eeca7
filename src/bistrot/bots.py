"""Computer players: the one interface every bot follows, and the registry of levels.

A bot is built from a seed and sees nothing but a seat's view (the dict of
``game.view(seat)``, whose ``"legal"`` lists the actions it may take); it returns one of them.
Hidden cards cannot reach it because it is never handed the game.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.new(OmiRules(), seed=1)
>>> bot = make_bot("omi", "easy", seed=5)
>>> bot.act(game.view(game.to_move)) in game.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any, Protocol

LEVELS = ("easy", "medium", "hard")

# (game, level) -> "module:class"; imported lazily so the engines load no bot they do not use.
REGISTRY: dict[tuple[str, str], str] = {
    ("omi", "easy"): "bistrot.omi.bots.easy:EasyOmiBot",
    ("omi", "medium"): "bistrot.omi.bots.medium:MediumOmiBot",
    ("omi", "hard"): "bistrot.omi.bots.hard:HardOmiBot",
    ("oti", "easy"): "bistrot.oti.bots.easy:EasyOtiBot",
    ("oti", "medium"): "bistrot.oti.bots.medium:MediumOtiBot",
    ("oti", "hard"): "bistrot.oti.bots.hard:HardOtiBot",
}


class Bot(Protocol):
    """What the server, the arena and the terminal ask of a computer player."""

    level: str

    def act(self, view: Mapping[str, Any]) -> str:
        """One of ``view["legal"]``."""
        ...


def available(game: str) -> list[str]:
    """The levels that exist for ``game``, easiest first."""
    return [level for level in LEVELS if (game, level) in REGISTRY]


def make_bot(game: str, level: str, seed: int = 0, **options: Any) -> Bot:
    """A new bot of ``level`` for ``game``, drawing its randomness from ``seed``."""
    path = REGISTRY.get((game, level))
    if path is None:
        raise ValueError(
            f"no {level!r} computer player for {game!r}; levels: {', '.join(available(game)) or 'none'}"
        )
    module, name = path.split(":")
    return getattr(import_module(module), name)(seed=seed, **options)
