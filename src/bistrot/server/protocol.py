"""The messages of the protocol (docs/protocol.md): HTTP bodies as pydantic models, and the
WebSocket messages, parsed by hand so that every fault gets its own precise code.

>>> parse_client_message('{"type": "act", "id": "m1", "action": "play TH"}')
ClientMessage(type='act', id='m1', key='"m1"', action='play TH', seat=None)
>>> parse_client_message('{"type": "act", "action": "play TH"}')
Traceback (most recent call last):
...
bistrot.server.protocol.BadMessage: bad_id: an act needs an "id": a text of 1 to 64 characters or an integer
>>> reject(7, "revoke", "you must follow suit")
{'type': 'reject', 'id': 7, 'code': 'revoke', 'message': 'you must follow suit'}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

MAX_ID_CHARS = 64
MAX_SAFE_INT = 2**53
CLIENT_TYPES = ("act", "ping", "sync")

Level = Literal["easy", "medium", "hard"]
Mode = Literal["computer", "friends", "hotseat"]


class ApiError(Exception):
    """A refused HTTP request: status, code for programs, message for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _check_name(name: str) -> str:
    name = name.strip()
    if not 1 <= len(name) <= 24 or not name.isprintable():
        raise ValueError("a name has 1 to 24 printable characters")
    return name


Name = Annotated[str, AfterValidator(_check_name)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateTable(_Body):
    """``POST /api/tables``: see docs/protocol.md."""

    game: Literal["omi", "oti"] = Field(description="which game")
    mode: Mode = Field("computer", description="computer, friends or hotseat")
    rules: dict[str, Any] = Field(default_factory=dict, description="the game's rules options")
    level: Level | None = Field(None, description="computer level of every computer seat (default medium)")
    bots: dict[int, Level] = Field(default_factory=dict, description="per-seat computer levels")
    seat: int = Field(0, ge=0, le=7, description="the human seat of a computer table")
    seed: int | str | None = Field(None, description="a deal code (or integer seed) to play a known deal")
    bot_delay_ms: int | None = Field(None, ge=0, le=10_000, description="pause before each computer move")
    grace_s: float | None = Field(None, ge=0, le=3600, description="seconds a dropped player keeps the seat")
    name: Name | None = Field(None, description="the creator's display name")


class JoinTable(_Body):
    """``POST /api/tables/{table}/join``."""

    invite: str = Field(max_length=64, description="the invite of the join link")
    name: Name | None = None


class SeatAuth(_Body):
    """A request made as one seat: start, rematch, challenge."""

    token: str = Field(max_length=64, description="the seat's token")


class PlayChallenge(_Body):
    """``POST /api/challenges/{challenge}/play``."""

    name: Name | None = None


class SeatToken(BaseModel):
    seat: int
    token: str


class CreatedTable(BaseModel):
    """The answer to opening a table (or a challenge's table)."""

    table: str
    game: str
    mode: str
    status: str
    seats: list[SeatToken]
    table_url: str
    join_url: str | None
    watch_url: str
    invite: str | None
    watch: str


class Joined(BaseModel):
    table: str
    seat: int
    token: str
    table_url: str
    status: str


class SeatInfo(BaseModel):
    seat: int
    kind: str
    name: str | None
    level: str | None
    connected: bool
    away: bool
    you: bool


class TableInfo(BaseModel):
    """Public facts of a table: no secret, no card."""

    table: str
    game: str
    mode: str
    status: str
    seq: int
    players: int
    rules: dict[str, Any]
    seats: list[SeatInfo]
    rematch: str | None


class Rematch(BaseModel):
    table: str
    table_url: str
    seat: int
    token: str


class ChallengeLink(BaseModel):
    challenge: str
    challenge_url: str


class ChallengeResult(BaseModel):
    table: str
    name: str | None
    status: str
    seq: int
    won: bool | None
    summary: dict[str, Any] | None


class ChallengeInfo(BaseModel):
    challenge: str
    game: str
    rules: dict[str, Any]
    seat: int
    players: int
    computers: list[dict[str, Any]]
    results: list[ChallengeResult]


class Health(BaseModel):
    ok: bool
    tables: int
    acts: dict[str, float] | None = None
    store: dict[str, float] | None = None


class ErrorBody(BaseModel):
    code: str
    message: str


# ---------------------------------------------------------------------- WebSocket messages


class BadMessage(Exception):
    """A client message refused before reaching a table; ``id`` is echoed if it was readable."""

    def __init__(self, code: str, message: str, id: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.id = id


@dataclass(frozen=True)
class ClientMessage:
    """A well-formed client message.  ``key`` is the id as JSON: the idempotency key."""

    type: str
    id: Any
    key: str | None
    action: str | None = None
    seat: int | None = None


def _valid_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -MAX_SAFE_INT <= value <= MAX_SAFE_INT
    return isinstance(value, str) and 1 <= len(value) <= MAX_ID_CHARS


def peek_id(text: str) -> Any:
    """The message's ``id`` if it is readable and valid, else None (to echo in a reject)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if _valid_id(value) else None


def parse_client_message(text: str) -> ClientMessage:
    """Read one client message; :class:`BadMessage` names what is wrong."""
    try:
        data = json.loads(text)
    except ValueError:
        raise BadMessage("bad_json", "the message is not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("bad_message", 'a message is a JSON object such as {"type": "ping"}')
    raw_id = data.get("id")
    id_ok = _valid_id(raw_id)
    echo = raw_id if id_ok else None
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
        what = 'has no "type"' if kind is None else f"has the unknown type {shown!r}"
        raise BadMessage("unknown_type", f"the message {what}; the types are {', '.join(CLIENT_TYPES)}", echo)
    if (raw_id is not None and not id_ok) or (kind == "act" and raw_id is None):
        raise BadMessage(
            "bad_id",
            f'{"an act needs an" if kind == "act" else "the"} "id": a text of 1 to {MAX_ID_CHARS} '
            "characters or an integer",
        )
    key = None if raw_id is None else json.dumps(raw_id)
    if kind != "act":
        return ClientMessage(kind, raw_id, key)
    action = data.get("action")
    if not isinstance(action, str):
        raise BadMessage("bad_message", 'an act needs an "action" text such as "play TH"', echo)
    seat = data.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise BadMessage("bad_message", '"seat" is a seat number', echo)
    seq = data.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        raise BadMessage("bad_message", '"seq" is the last sequence number seen, a whole number', echo)
    return ClientMessage(kind, raw_id, key, action, seat)


def ack(id: Any, seq: int) -> dict[str, Any]:
    """The answer to an action stored as number ``seq``."""
    return {"type": "ack", "id": id, "seq": seq}


def reject(id: Any, code: str, message: str) -> dict[str, Any]:
    """The answer to a refused message (nothing changed)."""
    return {"type": "reject", "id": id, "code": code, "message": message}


def pong(id: Any, seq: int) -> dict[str, Any]:
    """The answer to a heartbeat."""
    return {"type": "pong", "id": id, "seq": seq}


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON, as sent on the wire."""
    return json.dumps(message, separators=(",", ":"))
