"""A table core as each of its parts sees it: the state, and the methods one part calls in another.

:class:`~bistrot.tablecore.core.TableCore` is made of parts, a class and a module each
(:mod:`~bistrot.tablecore.presence`, :mod:`~bistrot.tablecore.rendering`,
:mod:`~bistrot.tablecore.computer`, :mod:`~bistrot.tablecore.seats`,
:mod:`~bistrot.tablecore.aftergame`), which it inherits.  Each part is written against
:class:`CoreBase`: the state the core's constructor sets, and, abstract here, the methods it
calls that the core or another part defines.  So every part is type-checked on its own, mypy
checks each definition against its declaration, and refuses a ``TableCore`` that misses one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from bistrot.engine import Game
from bistrot.games import GameEntry
from bistrot.ruleset import Ruleset
from bistrot.tablecore.records import ChatLine, EventRecord, TableRecord
from bistrot.tablecore.values import Audience, Out, SeatState


class CoreBase(ABC):
    """The state of a table core (set, and told, in
    :class:`~bistrot.tablecore.core.TableCore`'s constructor) and what its parts call across
    modules."""

    table: TableRecord
    id: str
    local: bool
    clock: Callable[[], float] | None
    replay_limit: int
    max_message_bytes: int
    snapshot_every: int
    catch_up_bytes: int
    entry: GameEntry
    rules: Ruleset
    players: int
    history: list[EventRecord]
    game: Game[Ruleset]
    seats: list[SeatState]
    spectators: int
    acks: dict[tuple[int, str], int]
    rejects: dict[int, OrderedDict[str, dict[str, Any]]]
    token_seats: dict[str, int]
    last_hint: dict[int, tuple[int, str]]
    chat: deque[ChatLine]

    # ---- the facts (core.py)

    @property
    @abstractmethod
    def seq(self) -> int: ...

    @property
    @abstractmethod
    def status(self) -> str: ...

    @abstractmethod
    def rebuilt(self, seq: int) -> Game[Ruleset]: ...

    @abstractmethod
    def seat_of(self, token: str) -> int: ...

    @abstractmethod
    def computer_plays(self, seat: int) -> bool: ...

    @abstractmethod
    def level(self, seat: int) -> str | None: ...

    # ---- who is here (presence.py)

    @abstractmethod
    def present(self, seat: int) -> bool: ...

    @abstractmethod
    def grace_deadlines(self) -> dict[int, float]: ...

    # ---- rendering (rendering.py)

    @abstractmethod
    def seats_info(self, audience: Audience) -> list[dict[str, Any]]: ...

    @abstractmethod
    def view(self, game: Game[Ruleset], audience: Audience) -> dict[str, Any]: ...

    @abstractmethod
    def broadcast(self) -> Out: ...

    # ---- hints (computer.py) and ratings (aftergame.py)

    @property
    @abstractmethod
    def hints_allowed(self) -> bool: ...

    @property
    @abstractmethod
    def rated(self) -> bool: ...
