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

from collections.abc import Callable, Mapping
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


def play(game: Any, level: str, seed: int = 0, until: Callable[[Any], bool] | None = None) -> Any:
    """Play ``game`` (any engine's game) with a computer player of ``level`` at every seat (seat
    ``s`` drawing from ``seed + s``, each seeing only its own view) until it is over, or until
    ``until(game)``; the game.

    >>> from bistrot.omi import OmiGame, OmiRules
    >>> hand = play(OmiGame.new(OmiRules(), seed=3), "easy", until=lambda g: bool(g.results))
    >>> len(hand.results), sum(hand.results[0]["tricks"])
    (1, 8)
    """
    name = game.view(None)["game"]
    players = [make_bot(name, level, seed=seed + s) for s in range(game.players)]
    while not game.is_over and not (until is not None and until(game)):
        seat = game.actors()[0]
        game.apply(players[seat].act(game.view(seat)), seat=seat)
    return game


def make_bot(game: str, level: str, seed: int = 0, **options: Any) -> Bot:
    """A new bot of ``level`` for ``game``, drawing its randomness from ``seed``."""
    try:
        entry = games.get(game)
    except ValueError:
        raise ValueError(f"no {level!r} computer player for {game!r}; levels: none") from None
    bot: Bot = entry.bot_class(level)(seed=seed, **options)
    return bot
