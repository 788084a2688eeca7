"""Computer players: the one interface every bot follows, made from the game registry.

A bot is built from a seed and sees nothing but a seat's view (the dict of
``game.view(seat)``, whose ``"legal"`` lists the actions it may take); it returns one of them.
Hidden cards cannot reach it because it is never handed the game.  Which levels exist for which
game is the registry's to say (:mod:`bistrot.games`).

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.new(OmiRules(), seed=1)
>>> bot = make_bot("omi", "easy", seed=5)
>>> bot.act(game.view(game.to_move)) in game.legal_actions()
True
>>> available("oti")
['easy', 'medium', 'hard']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from bistrot import games
from bistrot.games import LEVELS

__all__ = ["LEVELS", "Bot", "available", "make_bot"]


class Bot(Protocol):
    """What the server, the arena and the terminal ask of a computer player."""

    level: str

    def act(self, view: Mapping[str, Any]) -> str:
        """One of ``view["legal"]``."""
        ...


def available(game: str) -> list[str]:
    """The levels that exist for ``game``, easiest first (none for an unknown game)."""
    try:
        return list(games.get(game).levels)
    except ValueError:
        return []


def make_bot(game: str, level: str, seed: int = 0, **options: Any) -> Bot:
    """A new bot of ``level`` for ``game``, drawing its randomness from ``seed``."""
    try:
        entry = games.get(game)
    except ValueError:
        raise ValueError(f"no {level!r} computer player for {game!r}; levels: none") from None
    bot: Bot = entry.bot_class(level)(seed=seed, **options)
    return bot
