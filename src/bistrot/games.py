"""The game registry: one entry per game, and everything that lists games or levels reads it.

An entry names where a game's engine, rules, computer players, arena and terminal table live
(``"module:attribute"`` texts, imported on first use, so listing games imports no engine), which
sub-packages the browser's wheel needs, and how a finished game's summary names its winners.
The server's ``GET /api/games``, the table core, the device's tables, ``bistrot play``,
``bistrot arena`` and the offline wheel all derive from it; adding a game is a package and one
:func:`register` call (docs/architecture.md).  The model is python-chess's ``VARIANTS``.

>>> [entry.name for entry in all_games()]
['omi', 'oti']
>>> omi = get("omi")
>>> omi.levels, omi.default_level
(('easy', 'medium', 'hard'), 'medium')
>>> rules = omi.rules_from_dict({"target": 5})
>>> game = omi.game_class().new(rules, 42)
>>> omi.players(rules), game.to_move
(4, 0)
>>> omi.winners(rules, {"winner": 1, "tokens": [3, 5], "hands": 4})
[1, 3]
>>> get("chess")
Traceback (most recent call last):
...
ValueError: unknown game 'chess'; the games are omi, oti
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:  # types only: listing games imports no engine, no bot, no analysis
    from bistrot.analysis.result import Analysis, Progress
    from bistrot.bots import Bot
    from bistrot.engine import Game
    from bistrot.ruleset import Ruleset

#: Computer levels, easiest first: the vocabulary every game's ``bots`` draws from.
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

#: How a table may be played: against the computer, with friends by link, on one device.
MODES: tuple[str, ...] = ("computer", "friends", "hotseat")

Winners = Callable[["Ruleset", Mapping[str, Any]], list[int]]
"""The seats that won, from the rules and the game's ``summary()``."""
Places = Callable[["Ruleset", Mapping[str, Any]], list[int]]
"""Each seat's place in a finished game (0 first; equal places tie), from the rules and the
game's ``summary()``: what a rating ranks."""
GameClass = type["Game[Ruleset]"]
"""An engine's class, as the registry hands it out: everything hosts may ask of it is the
:class:`~bistrot.engine.Game` contract."""
BotClass = Callable[..., "Bot"]
"""A computer player's class: ``BotClass(seed=..., **options)`` is a :class:`~bistrot.bots.Bot`."""


class Sided(Protocol):
    """Rules of a game played by sides (Omi's partnerships): which side a seat plays for."""

    players: int

    def side_of(self, seat: int) -> int:
        """The side of ``seat``."""
        ...


class Analyser(Protocol):
    """What a game's analysis module provides (:attr:`GameEntry.analysis` names one; a module
    is a valid implementation): the layouts or deals judged per decision unless told, and the
    analysis of a game.  ``solver`` is Omi's double-dummy solver; other games ignore it."""

    def default_samples(self, solver: str = "auto", browser: bool = False) -> int:
        """The draws per decision unless told (``browser``: in the page's worker)."""
        ...

    def analyze(self, game: object, samples: int | None = None, seed: int = 0,
                progress: Progress | None = None, solver: str = "auto") -> Analysis:
        """Judge every decision of ``game`` with a choice; ``ValueError`` for a game of
        another kind or options that do not fit."""
        ...


def load(path: str) -> Any:
    """The object a ``"module:attribute"`` text names.

    >>> load("bistrot.games:LEVELS")
    ('easy', 'medium', 'hard')
    """
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


def load_class(path: str) -> type:
    """The class a ``"module:Class"`` text names; ``TypeError`` if it names something else.

    >>> load_class("bistrot.games:GameEntry").__name__
    'GameEntry'
    >>> load_class("bistrot.games:LEVELS")
    Traceback (most recent call last):
    ...
    TypeError: bistrot.games:LEVELS is not a class
    """
    found = load(path)
    if not isinstance(found, type):
        raise TypeError(f"{path} is not a class")
    return found


def winner_is_the_seat(rules: Ruleset, summary: Mapping[str, Any]) -> list[int]:
    """Winners for a game where each plays for themselves: the seat ``summary["winner"]``."""
    winner = summary.get("winner")
    return [] if winner is None else [int(winner)]


def winner_is_a_side(rules: Ruleset, summary: Mapping[str, Any]) -> list[int]:
    """Winners for a game of sides (``rules.side_of(seat)``): every seat of side ``winner``."""
    side = summary.get("winner")
    sided = sides(rules)
    return [] if side is None else [s for s in range(sided.players) if sided.side_of(s) == side]


def sides(rules: Ruleset) -> Sided:
    """``rules`` as the rules of a game of sides; ``TypeError`` if they say no sides."""
    if not callable(getattr(rules, "side_of", None)):
        raise TypeError(f"{type(rules).__name__} has no side_of: not a game of sides")
    return cast("Sided", rules)


def places_by_side(rules: Ruleset, summary: Mapping[str, Any]) -> list[int]:
    """Places for a game of sides: the winning side's seats first, every other seat second.

    >>> omi = get("omi")
    >>> places_by_side(omi.rules_from_dict({}), {"winner": 1, "tokens": [3, 5], "hands": 4})
    [1, 0, 1, 0]
    """
    won = set(winner_is_a_side(rules, summary))
    return [0 if seat in won else 1 for seat in range(rules.players)]


def places_by_ranking(rules: Ruleset, summary: Mapping[str, Any]) -> list[int]:
    """Places for a game where players go out in turn: ``summary["ranking"]``, seats in the order
    they went out; a seat not in it (the game ended first) ties for last.

    >>> oti = get("oti")
    >>> places_by_ranking(oti.rules_from_dict({"players": 4}), {"ranking": [2, 0]})
    [1, 2, 0, 2]
    """
    ranking = [int(seat) for seat in summary.get("ranking") or []]
    last = len(ranking)
    return [ranking.index(seat) if seat in ranking else last for seat in range(rules.players)]


@dataclass(frozen=True)
class GameEntry:
    """One game of the card room; see the module docstring."""

    name: str
    """The game's id in URLs, records, the protocol and the command line (``omi``)."""
    title: str
    """Its name for people (``Omi``); the page translates ``game.<name>``."""
    engine: str
    """``"module:Class"`` of the game (a :class:`bistrot.engine.Game`)."""
    rules: str
    """``"module:Class"`` of its rules (a :class:`bistrot.ruleset.Ruleset` dataclass)."""
    bots: Mapping[str, str]
    """Computer players by level (a subset of :data:`LEVELS`): ``"module:Class"``."""
    winners: Winners = winner_is_the_seat
    places: Places | None = None
    """Each seat's place in a finished game, which ratings rank; None: the game is never rated."""
    arena_bots: Mapping[str, str] = field(default_factory=dict)
    """Computer players that only the arena and the library make, never offered to players (a
    frozen earlier version to measure progress against): name -> ``"module:Class"``."""
    default_level: str = "medium"
    """The level of computer seats nobody chose, and of players away too long."""
    arena: str | None = None
    """A module whose ``register(subparsers, entry)`` adds ``bistrot arena <name>``."""
    terminal: str | None = None
    """``"module:function"`` playing it in the terminal: ``function(rules, seed=, level=)``."""
    terminal_help: str = ""
    """One line saying what ``bistrot play <name>`` plays."""
    terminal_options: tuple[str, ...] = ()
    """Rules options that ``bistrot play <name>`` offers as flags of their own."""
    terminal_defaults: Mapping[str, Any] = field(default_factory=dict)
    """Rules the terminal starts from when no flag says otherwise (e.g. fewer players)."""
    packages: tuple[str, ...] = ()
    """Sub-packages of :mod:`bistrot` the browser's wheel must hold for this game."""
    browser_bot_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Options of computer players in the browser, by level (smaller time budgets)."""
    facts: str | None = None
    """``"module:function"`` giving the public facts of a finished game that a challenge's
    results compare (Omi: each hand; Oti: who went out when), from its spectator's view; never
    a card: someone may still play that deal.  None: the stored summary alone."""
    analysis: str | None = None
    """The module judging a finished game's decisions (an :class:`Analyser`); None: the game has
    no analysis, and the page offers none."""

    # ------------------------------------------------------------------ what it is made of

    def game_class(self) -> GameClass:
        """The engine's game class."""
        return cast("GameClass", load_class(self.engine))

    def rules_class(self) -> type[Ruleset]:
        """The rules class."""
        return cast("type[Ruleset]", load_class(self.rules))

    @property
    def levels(self) -> tuple[str, ...]:
        """Its computer levels, easiest first."""
        return tuple(level for level in LEVELS if level in self.bots)

    def level_or_weaker(self, wanted: str) -> str:
        """``wanted`` if that level exists here, else the strongest weaker one, else the easiest.

        >>> get("oti").level_or_weaker("hard")
        'hard'
        """
        if wanted in self.bots:
            return wanted
        rank = LEVELS.index(wanted) if wanted in LEVELS else len(LEVELS)
        weaker = [level for level in self.levels if LEVELS.index(level) < rank]
        if not self.levels:
            raise ValueError(f"there is no computer player for {self.name}")
        return weaker[-1] if weaker else self.levels[0]

    @property
    def arena_levels(self) -> tuple[str, ...]:
        """Every computer player the arena can seat: the levels, then the :attr:`arena_bots`."""
        return (*self.levels, *self.arena_bots)

    def require_arena_level(self, level: str) -> None:
        """``ValueError`` naming what exists unless the arena can seat ``level``.

        >>> get("omi").require_arena_level("expert")
        Traceback (most recent call last):
        ...
        ValueError: no Omi level 'expert'; levels: easy, medium, hard, hard-v1
        """
        if level not in self.arena_levels:
            raise ValueError(f"no {self.title} level {level!r}; levels: {', '.join(self.arena_levels)}")

    def bot_class(self, level: str) -> BotClass:
        """The class of the ``level`` computer player (or of an :attr:`arena_bots` one);
        ``ValueError`` naming them otherwise."""
        path = self.bots.get(level) or self.arena_bots.get(level)
        if path is None:
            known = ", ".join(self.arena_levels) or "none"
            raise ValueError(f"no {level!r} computer player for {self.name!r}; levels: {known}")
        return cast("BotClass", load_class(path))

    def analyser(self) -> Analyser:
        """This game's analysis; ``ValueError`` saying so when it has none.

        >>> get("oti").analyser().default_samples()
        200
        """
        if self.analysis is None:
            raise ValueError(f"there is no analysis of {self.title} games")
        return cast("Analyser", import_module(self.analysis))

    @functools.cached_property  # read by every state a table renders (its hints): made once
    def capabilities(self) -> dict[str, bool]:
        """What this game provides beyond being played, which the page and the API ask instead
        of naming games: ``analysis`` of a finished game, ``hints`` (a computer player to ask),
        ``terminal`` (``bistrot play``), ``rated`` (ratings rank its public games), ``facts``
        (its challenges compared game by game).

        >>> get("oti").capabilities
        {'analysis': True, 'hints': True, 'terminal': True, 'rated': True, 'facts': True}
        """
        return {
            "analysis": self.analysis is not None,
            "hints": bool(self.levels),
            "terminal": self.terminal is not None,
            "rated": self.places is not None,
            "facts": self.facts is not None,
        }

    # ------------------------------------------------------------------ rules

    def rules_from_dict(self, options: object) -> Ruleset:
        """The rules for ``options``; ``ValueError`` with the engine's reason otherwise."""
        if not isinstance(options, dict):
            raise ValueError("rules are an object of options")
        try:
            return self.rules_class().from_dict(options)
        except TypeError as err:  # e.g. a wrong keyword slipping past from_dict
            raise ValueError(str(err)) from None

    def finished_facts(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """What :attr:`facts` makes of the spectator's ``view`` of a finished game, or None.

        >>> game = get("omi").game_class().new(get("omi").rules_from_dict({}), 1)
        >>> get("omi").finished_facts(game.view(None))
        {'hands': []}
        """
        return None if self.facts is None else dict(load(self.facts)(view))

    @staticmethod
    def players(rules: Ruleset) -> int:
        """Seats at the table."""
        return int(rules.players)

    def teams(self, rules: Ruleset) -> list[int] | None:
        """Each seat's team when seats play in partnerships (a game won by sides, fewer sides
        than seats), else None: each plays for themselves.

        >>> omi = get("omi")
        >>> omi.teams(omi.rules_from_dict({})), omi.teams(omi.rules_from_dict({"players": 3}))
        ([0, 1, 0, 1], None)
        >>> get("oti").teams(get("oti").rules_from_dict({}))
        """
        if self.winners is not winner_is_a_side:
            return None
        sided = sides(rules)
        teams = [sided.side_of(seat) for seat in range(self.players(rules))]
        return teams if len(set(teams)) < len(teams) else None

    def describe(self) -> dict[str, Any]:
        """What ``GET /api/games`` says of this game: options with their schema, levels, modes."""
        return {
            "name": self.name,
            "title": self.title,
            "label": f"game.{self.name}",
            "options": [o.to_dict() for o in self.rules_class().options()],
            "levels": list(self.levels),
            "default_level": self.default_level,
            "modes": list(MODES),
            "capabilities": dict(self.capabilities),
        }


_REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game (or replace the entry of that name); returns it."""
    if not entry.name.isidentifier() or not entry.name.islower():
        raise ValueError(f"a game's name is a lower-case identifier, not {entry.name!r}")
    unknown = set(entry.bots) - set(LEVELS)
    if unknown:
        raise ValueError(f"levels are {', '.join(LEVELS)}, not {', '.join(sorted(unknown))}")
    _REGISTRY[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove a game (tests that register one of their own clean up with this)."""
    _REGISTRY.pop(name, None)


@contextlib.contextmanager
def registered(entry: GameEntry) -> Iterator[GameEntry]:
    """Register ``entry`` for a ``with`` block only, then put back what was there (tests that
    add a game of their own, or swap a game's computer player, use this).

    >>> import dataclasses
    >>> with registered(dataclasses.replace(get("oti"), name="oti2")):
    ...     names()
    ['omi', 'oti', 'oti2']
    >>> names()
    ['omi', 'oti']
    """
    before = _REGISTRY.get(entry.name)
    register(entry)
    try:
        yield entry
    finally:
        if before is None:
            unregister(entry.name)
        else:
            _REGISTRY[entry.name] = before


def names() -> list[str]:
    """Every game's name, in the order registered."""
    return list(_REGISTRY)


def all_games() -> list[GameEntry]:
    """Every entry, in the order registered."""
    return list(_REGISTRY.values())


def entry_of(game: object) -> GameEntry:
    """The entry of the game ``game`` is a game of (by its engine's class); ``ValueError`` for
    anything else.

    >>> from bistrot.oti import OtiGame
    >>> entry_of(OtiGame.new(seed=1)).name
    'oti'
    """
    for entry in _REGISTRY.values():
        if isinstance(game, entry.game_class()):
            return entry
    known = ", ".join(_REGISTRY)
    raise ValueError(f"{type(game).__name__} is not a game of this card room (it plays {known})")


def get(name: object) -> GameEntry:
    """The entry of game ``name``; ``ValueError`` naming the games otherwise."""
    entry = _REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(_REGISTRY)}")
    return entry


register(
    GameEntry(
        name="omi",
        title="Omi",
        engine="bistrot.omi:OmiGame",
        rules="bistrot.omi:OmiRules",
        bots={
            "easy": "bistrot.omi.bots.easy:EasyOmiBot",
            "medium": "bistrot.omi.bots.medium:MediumOmiBot",
            "hard": "bistrot.omi.bots.hard:HardOmiBot",
        },
        arena_bots={"hard-v1": "bistrot.omi.bots.hard:FrozenHardOmiBot"},
        winners=winner_is_a_side,
        places=places_by_side,
        analysis="bistrot.analysis.omi",
        arena="bistrot.arena.omi",
        terminal="bistrot.cli.play_omi:play_omi",
        terminal_help="an Omi match: you and a computer partner against two computer players"
        " (with --rule players=3: you and two computer players, each for themselves)",
        terminal_options=("target",),
        packages=("omi",),
        facts="bistrot.omi.view:challenge_facts",
        browser_bot_options={"hard": {"budget": 0.35}},
    )
)
register(
    GameEntry(
        name="oti",
        title="Oti",
        engine="bistrot.oti:OtiGame",
        rules="bistrot.oti:OtiRules",
        bots={
            "easy": "bistrot.oti.bots.easy:EasyOtiBot",
            "medium": "bistrot.oti.bots.medium:MediumOtiBot",
            "hard": "bistrot.oti.bots.hard:HardOtiBot",
        },
        winners=winner_is_the_seat,
        places=places_by_ranking,
        analysis="bistrot.analysis.oti",
        arena="bistrot.arena.rotation",
        terminal="bistrot.cli.play_oti:play_oti",
        terminal_help="an Oti game: you against 1 to 4 computer players",
        terminal_options=("players",),
        terminal_defaults={"players": 3},
        packages=("oti",),
        facts="bistrot.oti.view:challenge_facts",
        # 800 deals at most: what the browser's hard was measured with (docs/oti.md)
        browser_bot_options={"hard": {"time_budget": 0.35, "max_deals": 800}},
    )
)
