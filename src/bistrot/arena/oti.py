"""Oti's arena: :mod:`bistrot.arena.rotation` with Oti's registry entry (a thin alias).

``bistrot arena oti`` is the rotation arena, which works for every game where each plays for
themselves; this module keeps the Oti-bound calls of earlier versions (tests, scripts).

>>> result = run_arena(["medium", "easy"], games=4, players=2, seed=7)
>>> result["bots"], result["games"], result["players"], sum(result["wins"].values())
(['medium', 'easy'], 4, 2, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bistrot.arena import rotation
from bistrot.arena.rotation import BotSpec, GameResult, bot_specs, print_table, register, seating, summarise
from bistrot.games import get as game_entry

__all__ = ["BotSpec", "GameResult", "bot_specs", "play_game", "print_table", "register", "run_arena",
           "seating", "summarise"]

GAME = "oti"


def play_game(
    rules: Any, seed: int, index: int, specs: Sequence[BotSpec],
    bot_factory: Callable[..., Any] | None = None,
) -> GameResult:
    """Play game ``index`` of an Oti run (:func:`bistrot.arena.rotation.play_game`)."""
    return rotation.play_game(game_entry(GAME), rules, seed, index, specs, bot_factory)


def run_arena(
    levels: Sequence[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    rules: Any = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """An Oti run (:func:`bistrot.arena.rotation.run_arena`)."""
    entry = game_entry(GAME)
    return rotation.run_arena(entry, levels, games, players, seed, workers, rules, options, progress)
