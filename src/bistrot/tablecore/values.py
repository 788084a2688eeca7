"""The values a table core trades with its hosts: who a message is for (:data:`Audience`,
:data:`Out`), what a seat holds in memory (:class:`SeatState`), and the steps of an action
(:class:`Proposal`, :class:`Commit`, :class:`Step`), of a hint (:class:`HintAsk`,
:class:`HintCommit`) and of a computer move (:class:`BotTurn`).

Plain data, importing no part of the core: every part of it (:mod:`bistrot.tablecore.core` and
the modules it is made of) uses them, and :mod:`bistrot.tablecore.core` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bistrot.tablecore.records import ChatLine, EventRecord, SeatRecord

Audience = int | None
"""A seat, or ``None`` for spectators (who all see the same thing)."""
Out = list[tuple[Audience, dict[str, Any]]]
"""Messages to deliver, in order: each to every connection of its audience."""


@dataclass
class SeatState:
    """A seat's record and its presence: its connections (in memory only), whether it is away
    and its grace period (stored as they change: :meth:`TableCore.presence_records`)."""

    record: SeatRecord
    conns: int = 0
    away: bool = False
    #: When a computer player takes the seat if nobody comes back (the host's clock), while its
    #: grace period runs: see :meth:`TableCore.grace_deadlines`.
    grace_until: float | None = None


@dataclass(frozen=True)
class Proposal:
    """An action a seat (or a computer player) asks for; ``key`` is its idempotency key."""

    seat: int
    action: str
    by: str
    key: str | None = None
    id: Any = None


@dataclass
class Commit:
    """An applied action waiting to be stored: the events, and where the table then stands."""

    proposal: Proposal
    events: list[EventRecord]
    status: str
    result: dict[str, Any] | None


@dataclass
class Step:
    """What :meth:`TableCore.receive` makes of a message: answers now, or an action to propose."""

    replies: list[dict[str, Any]] = field(default_factory=list)
    proposal: Proposal | None = None
    chat: ChatLine | None = None  # a chat message to store (its ``at`` set by the host), then send
    id: Any = None  # the message's id (a refusal of the chat message by the host echoes it)
    hint: HintAsk | None = None  # a hint to compute (:meth:`TableCore.hint_ready`), store, then send


@dataclass(frozen=True)
class HintAsk:
    """A seat asks for a hint at ``seq``: what the ``level`` computer player (the game's
    strongest) seeded with ``seed`` would do from ``view``, that seat's own view, the very one
    a computer player playing that seat would be given."""

    seat: int
    seq: int
    level: str
    seed: int
    view: dict[str, Any]


@dataclass(frozen=True)
class HintCommit:
    """A computed hint waiting to be stored: the seat's record with one hint more."""

    ask: HintAsk
    action: str
    record: SeatRecord


@dataclass(frozen=True)
class BotTurn:
    """The computer move due: who plays, at which seq, at what level and seed, seeing what, and
    how long after the last change (the table's pause, so people can follow)."""

    seat: int
    seq: int
    level: str
    seed: int
    view: dict[str, Any]
    delay_s: float
