"""The contract every game engine keeps, and the shell both engines share.

Hosts (the card room, the offline page), bots and the arena drive any game through
:class:`Game` alone: build it (:meth:`~Game.new`, :meth:`~Game.replay`,
:meth:`~Game.from_record`), ask who may act (:meth:`~Game.actors`) and what
(:meth:`~Game.legal_actions`), :meth:`~Game.apply` texts, show each seat its
:meth:`~Game.view`, and store :meth:`~Game.record` and :meth:`~Game.summary` at the end.
:class:`GameBase` holds what is the same in every engine.  Pure Python: it runs in the browser.

>>> from bistrot.omi import OmiGame, OmiRules
>>> from bistrot.oti import OtiGame, OtiRules
>>> omi, oti = OmiGame.new(OmiRules(), seed=1), OtiGame.new(OtiRules(players=3), seed=1)
>>> isinstance(omi, Game), isinstance(oti, Game)
(True, True)
>>> omi.actors(), oti.actors()  # everybody swaps at once before Oti's play
([0], [0, 1, 2])
>>> omi.apply("trump H"); oti.apply("ready", seat=2)
>>> omi.actions, oti.actions  # one log shape: (seat, text)
([(0, 'trump H')], [(2, 'ready')])
>>> OmiGame.replay(omi.rules, omi.seed, ["trump H"]) == omi
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, Generic, NotRequired, Protocol, Self, TypedDict, TypeVar, cast, runtime_checkable

from bistrot import dealcode
from bistrot.errors import IllegalAction
from bistrot.records import read_record, write_record
from bistrot.ruleset import Ruleset

Logged = tuple[int, str]
"""One entry of a game's action log: the seat that acted and the action, as canonical text."""

ActionItem = str | tuple[int, str]
"""An action to replay: its text (played by the seat to move), or a ``(seat, text)`` pair."""

RulesT = TypeVar("RulesT", bound=Ruleset)


class GameView(TypedDict):
    """What every game's :meth:`Game.view` holds; each game's view adds its own keys.

    ``deal_code`` appears once the game is over; ``seats`` and ``table`` are added by hosts
    (which also set ``legal`` as they decide), never by engines.
    """

    game: str
    seat: int | None
    players: int
    rules: dict[str, Any]
    phase: str
    to_move: int | None
    legal: list[str]
    is_over: bool
    winner: int | None
    deal_code: NotRequired[str]
    seats: NotRequired[list[dict[str, Any]]]
    table: NotRequired[dict[str, Any]]


ViewT = TypeVar("ViewT", bound=GameView)


@runtime_checkable
class Game(Protocol[RulesT]):
    """What hosts, bots and the arena ask of any game (see the module docstring).

    A game is determined by its rules, its seed (shown as a deal code) and its actions.
    """

    @property
    def rules(self) -> RulesT:
        """The table's rules."""

    @property
    def seed(self) -> int:
        """The seed every hidden card comes from."""

    @property
    def deal_code(self) -> str:
        """The seed as a deal code (shown once the game is over)."""

    @property
    def players(self) -> int:
        """The number of seats."""

    @property
    def to_move(self) -> int | None:
        """The one seat to act, or None (game over, or several seats act at once)."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    def winner(self) -> int | None:
        """The winner (a seat, or Omi's side) once known."""

    @property
    def actions(self) -> Sequence[Logged]:
        """Every action applied so far, as ``(seat, text)``."""

    @classmethod
    def new(cls, rules: RulesT | None = None, seed: int | str | None = None) -> Self:
        """A new game; ``seed`` is an int, a deal code, or None for a fresh random one."""

    @classmethod
    def replay(cls, rules: RulesT, seed: int | str, actions: Sequence[ActionItem]) -> Self:
        """The game after ``actions``; ``ValueError`` names the first that cannot be played."""

    @classmethod
    def from_record(cls, text: str) -> Self:
        """The game a :meth:`record` describes; ``ValueError`` says what is wrong."""

    def actors(self) -> list[int]:
        """The seats that may act now: one, several (simultaneous phases) or none (over)."""

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """What ``seat`` (default: the seat to move) may do now."""

    def apply(self, action: str, seat: int | None = None) -> None:
        """Play ``action``; :class:`~bistrot.errors.IllegalAction` leaves the game unchanged."""

    def view(self, seat: int | None) -> GameView:
        """All that ``seat`` may know (None: a spectator), JSON-ready."""

    def record(self) -> str:
        """The game as a readable record that :meth:`from_record` reads back."""

    def copy(self) -> Self:
        """An independent copy."""

    def summary(self) -> dict[str, Any]:
        """The JSON-ready result the card room stores when the game ends."""


class GameBase(ABC, Generic[RulesT]):
    """The shell shared by the engines: construction, replay, equality, records.

    A subclass keeps ``rules``, ``seed`` and the ``actions`` log here and provides the game:
    :meth:`rules_class`, ``to_move``, ``is_over``, ``winner``, :meth:`apply`, and the hooks
    ``_start`` (what besides rules and seed fixed the start), ``_status`` (for ``repr``),
    ``_record_tags``/``_record_body`` (the game-specific part of :meth:`record`) and
    ``_from_record`` (the game and actions a parsed record describes).
    """

    winner: int | None

    def __init__(self, rules: RulesT, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self.actions: list[Logged] = []

    # ----------------------------------------------------------------- what a game provides

    _rules_type: type[Ruleset]

    def __init_subclass__(cls, rules: type[Ruleset] | None = None, **kwargs: Any) -> None:
        # ``class OmiGame(GameBase[OmiRules], rules=OmiRules)``: the rules class, said once.
        super().__init_subclass__(**kwargs)
        if rules is not None:
            cls._rules_type = rules

    @classmethod
    def rules_class(cls) -> type[RulesT]:
        """The class of this game's rules (given as ``rules=`` in the class statement)."""
        return cast("type[RulesT]", cls._rules_type)

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The one seat to act, or None."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def apply(self, action: str, seat: int | None = None) -> None:
        """Play ``action``; :class:`~bistrot.errors.IllegalAction` leaves the game unchanged."""

    @abstractmethod
    def _start(self) -> tuple[Any, ...]:
        """What besides rules and seed fixed the start (a given deal, a dealer): for equality."""

    @abstractmethod
    def _status(self) -> str:
        """Where the game stands, in a few words, for ``repr``."""

    @abstractmethod
    def _record_tags(self) -> list[tuple[str, str]]:
        """The record's tags besides the rules and the seed."""

    @abstractmethod
    def _record_body(self) -> list[str]:
        """The record's lines of moves."""

    @classmethod
    @abstractmethod
    def _from_record(cls, rules: RulesT, seed: int, tags: dict[str, str], words: list[str]) -> tuple[
        Self, list[ActionItem]
    ]:
        """The game and the actions a parsed record describes."""

    # ----------------------------------------------------------------- shared

    @classmethod
    def new(cls, rules: RulesT | None = None, seed: int | str | None = None) -> Self:
        """A new game; ``seed`` is an int, a deal code, or None for a fresh random one."""
        return cls(cls.rules_class()() if rules is None else rules, dealcode.seed_from(seed))

    @classmethod
    def replay(cls, rules: RulesT, seed: int | str, actions: Sequence[ActionItem]) -> Self:
        """Rebuild a game from rules, seed and actions (texts, or ``(seat, text)`` pairs)."""
        game = cls(rules, dealcode.seed_from(seed))
        game.apply_all(actions)
        return game

    def apply_all(self, actions: Iterable[ActionItem]) -> None:
        """Apply actions in turn (texts, or ``(seat, text)`` pairs, as :attr:`actions` logs
        them); ``ValueError`` names the first that cannot be played."""
        for number, item in enumerate(actions, 1):
            seat, action = (None, item) if isinstance(item, str) else item
            try:
                self.apply(action, seat=seat)
            except IllegalAction as err:
                raise ValueError(f"action {number} ({action!r}) cannot be played: {err}") from None

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def deal_code(self) -> str:
        """The deal code of this game's seed."""
        return dealcode.encode(self.seed)

    def _revealed(self, view: ViewT) -> ViewT:
        """``view`` with the deal code once the game is over (before, it would reveal every hand)."""
        if self.is_over:
            view["deal_code"] = self.deal_code
        return view

    def actors(self) -> list[int]:
        """The seats that may act now: the seat to move, or none."""
        seat = self.to_move
        return [] if seat is None else [seat]

    def record(self) -> str:
        """The game as a record (see docs/records.md): the common tags (game, rules, seed),
        the game's own, then its moves."""
        return write_record(self.rules, self.seed, self._record_tags(), self._record_body())

    @classmethod
    def from_record(cls, text: str) -> Self:
        """Rebuild the game written by :meth:`record`; ``ValueError`` says what is wrong."""
        found = read_record(text, cls.rules_class())
        game, actions = cls._from_record(found.rules, found.seed, found.tags, found.words)
        game.apply_all(actions)
        return game

    def _key(self) -> tuple[Any, ...]:
        return (self.rules, self.seed, *self._start(), tuple(self.actions))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameBase) and type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.deal_code} {self._status()}>"
