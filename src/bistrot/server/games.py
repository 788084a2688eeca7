"""The games a table can host, behind one small description each.

The server knows nothing of a game's rules: it builds rules from options, starts a game from a
seed, replays stored actions, and asks who won.  Each engine module is imported on first use.

>>> spec = get_game("omi")
>>> rules = spec.rules_from_dict({"target": 5})
>>> game = spec.new(rules, 42)
>>> spec.players(rules), game.to_move
(4, 0)
>>> spec.winners(rules, {"winner": 1, "tokens": [3, 5], "hands": 4})
[1, 3]
>>> spec.replay(rules, 42, [(0, "trump H")]).actions
['trump H']
>>> get_game("chess")
Traceback (most recent call last):
...
ValueError: unknown game 'chess'; the games are omi, oti
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

#: game name -> (module, game class, rules class)
ENGINES: dict[str, tuple[str, str, str]] = {
    "omi": ("bistrot.omi", "OmiGame", "OmiRules"),
    "oti": ("bistrot.oti", "OtiGame", "OtiRules"),
}


@dataclass(frozen=True)
class GameSpec:
    """What the server needs of one game's engine."""

    name: str
    game_class: Any
    rules_class: Any
    summary: Callable[[Any], dict[str, Any]]
    """What the end of a game is remembered by (stored with the table, shown in challenges)."""
    winners: Callable[[Any, dict[str, Any]], list[int]]
    """The seats that won, from the rules and that summary."""

    def rules_from_dict(self, options: dict[str, Any]) -> Any:
        """The rules for ``options``; ``ValueError`` with the engine's reason otherwise."""
        if not isinstance(options, dict):
            raise ValueError("rules are an object of options")
        try:
            return self.rules_class.from_dict(options)
        except TypeError as err:  # e.g. a wrong keyword slipping past from_dict
            raise ValueError(str(err)) from None

    def new(self, rules: Any, seed: int) -> Any:
        """A new game."""
        return self.game_class.new(rules, seed)

    def replay(self, rules: Any, seed: int, actions: Iterable[tuple[int, str]]) -> Any:
        """The game after ``actions``, each ``(seat, text)`` as the table stored it."""
        game = self.game_class.new(rules, seed)
        for seat, text in actions:
            game.apply(text, seat=seat)
        return game

    @staticmethod
    def players(rules: Any) -> int:
        """Seats at the table."""
        return int(rules.players)


def action_text(entry: str | tuple[int, str]) -> str:
    """The text of one entry of an engine's ``actions`` log (Oti logs ``(seat, text)`` pairs).

    >>> action_text("play TH"), action_text((2, "ready"))
    ('play TH', 'ready')
    """
    return entry if isinstance(entry, str) else entry[1]


def _omi_winners(rules: Any, summary: dict[str, Any]) -> list[int]:
    side = summary.get("winner")
    return [] if side is None else [s for s in range(rules.players) if rules.side_of(s) == side]


def _omi_summary(game: Any) -> dict[str, Any]:
    return {"winner": game.winner, "tokens": list(game.tokens), "hands": len(game.results)}


def _oti_winners(rules: Any, summary: dict[str, Any]) -> list[int]:
    return [] if summary.get("winner") is None else [summary["winner"]]


def _oti_summary(game: Any) -> dict[str, Any]:
    return {"winner": game.winner, "ranking": list(game.ranking), "end_reason": game.end_reason}


_RESULTS = {"omi": (_omi_summary, _omi_winners), "oti": (_oti_summary, _oti_winners)}
_CACHE: dict[str, GameSpec] = {}


def get_game(name: object) -> GameSpec:
    """The description of game ``name``; ``ValueError`` if there is no such game (here)."""
    if not isinstance(name, str) or name not in ENGINES:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(ENGINES)}")
    spec = _CACHE.get(name)
    if spec is None:
        module_name, game_name, rules_name = ENGINES[name]
        try:
            module = import_module(module_name)
            game_class, rules_class = getattr(module, game_name), getattr(module, rules_name)
        except (ImportError, AttributeError):
            raise ValueError(f"the {name} engine is not installed in this version of bistrot") from None
        summary, winners = _RESULTS[name]
        spec = _CACHE[name] = GameSpec(name, game_class, rules_class, summary, winners)
    return spec


def available_games() -> list[str]:
    """The games whose engine is present."""
    names = []
    for name in ENGINES:
        try:
            get_game(name)
        except ValueError:
            continue
        names.append(name)
    return names
