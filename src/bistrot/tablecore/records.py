"""What a table is made of, as plain values: the table, its seats, its stored actions, its
challenges.  The table core works on these; every store (SQLite, PostgreSQL) keeps exactly these.

Tokens, invites and watch keys are never stored, only their :func:`secret_hash`.

>>> len(secret_hash("a token")), secret_hash("a") == secret_hash("a") != secret_hash("b")
(64, True)
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any


def new_secret() -> str:
    """A 128-bit unguessable text (table ids, tokens, invites, watch keys)."""
    return secrets.token_urlsafe(16)


def secret_hash(secret: str) -> str:
    """What is stored instead of a secret: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class TableRecord:
    """One table: its game, how it was opened, and where it stands."""

    id: str
    game: str
    mode: str  # computer | friends | hotseat
    rules: dict[str, Any]
    seed: int
    level: str  # computer level for seats filled later
    bot_delay_ms: int
    grace_s: float
    status: str  # waiting | playing | over
    invite_hash: str | None
    watch_hash: str
    created_at: float
    seq: int = 0
    rematch: str | None = None
    rematch_of: str | None = None
    challenge: str | None = None
    result: dict[str, Any] | None = None
    public: bool = False  # listed in the lobby while it waits; any profile may join it
    daily: str | None = None  # the day (YYYY-MM-DD) whose daily deal this table plays (server/daily.py)
    event: str | None = None  # the club event whose board this table plays (server/club.py)


@dataclass
class SeatRecord:
    """One seat: ``human`` (with the hash of its token), ``computer`` (with a level) or ``open``;
    ``hints``: the decisions at which its player asked for a hint."""

    seat: int
    kind: str
    level: str | None = None
    token_hash: str | None = None
    name: str | None = None
    hints: int = 0
    profile: str | None = None  # the public id of its player's profile, if they had one


@dataclass(frozen=True)
class EventRecord:
    """One stored action: the ``seq``-th of its table."""

    seq: int
    actor: int
    action: str
    by: str  # human | computer
    client_id: str | None  # the client's message id, JSON-encoded, for safe retries
    time: float


@dataclass(frozen=True)
class ChatLine:
    """One chat message of a table, the ``n``-th: who wrote it (``seat``, its ``name`` then), what,
    and when (seconds since the epoch)."""

    n: int
    seat: int
    name: str | None
    text: str
    at: float


@dataclass
class ChallengeRecord:
    """A challenge on the deal of ``table``, played from ``seat``."""

    id: str
    table: str
    seat: int
    computers: list[dict[str, Any]]  # [{"seat": n, "level": ...}] for every other seat
    created_at: float


@dataclass(frozen=True)
class PresenceRecord:
    """What of a seat's presence outlives the process that hosts its table (a restart, another
    node taking it over): whether its player is ``away`` (a computer plays the seat until they
    come back) or, while their grace period runs, when it ends: ``grace_ends``, in seconds since
    the epoch, a clock another process or node shares, where the host's own (monotonic) clock
    means nothing.  Neither: the player is there, or a whole grace period awaits them."""

    seat: int
    away: bool = False
    grace_ends: float | None = None


@dataclass
class StoredTable:
    """A table as loaded back: enough to rebuild it exactly."""

    table: TableRecord
    seats: list[SeatRecord]
    events: list[EventRecord] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)  # the last CHAT_KEPT, oldest first
    presence: list[PresenceRecord] = field(default_factory=list)  # only seats away or in their grace


@dataclass(frozen=True)
class ResultRow:
    """One line of a challenge's results."""

    table: str
    status: str
    seq: int
    result: dict[str, Any] | None
    name: str | None
    created_at: float


@dataclass(frozen=True)
class AnalysisRecord:
    """The analysis of a finished table, as stored: ``queued``, ``running`` (``done`` of ``total``
    decisions judged), ``done`` (with its ``result``, :meth:`bistrot.analysis.Analysis.to_dict`)
    or ``failed``; ``claim`` names the job computing it, ``updated_at`` its last sign of life
    (seconds since the epoch)."""

    table_id: str
    status: str
    done: int
    total: int
    result: dict[str, Any] | None
    claim: str
    updated_at: float


@dataclass(frozen=True)
class HistoryRow:
    """A finished table as a history lists it: its record, its seats, and when it ended (its
    last change, in seconds since the epoch)."""

    table: TableRecord
    seats: list[SeatRecord]
    ended_at: float
