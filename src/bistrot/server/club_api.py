"""The HTTP routes of club events (docs/events.md, docs/protocol.md "Club events"): making one,
joining it as a pair, starting it, each player's next board, and the event with its live results
(:mod:`bistrot.server.club`).

A profile travels as on every profile route: its cookie, or the header
:data:`~bistrot.server.players.HEADER`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from bistrot.server import duplicate
from bistrot.server.club import ClubEvents
from bistrot.server.players import Profiles
from bistrot.server.profile_api import ProfileKey, key_of, optional_profile
from bistrot.server.protocol import ErrorBody

_ERROR = {"model": ErrorBody}

#: An event's id in a URL.
EventId = Annotated[str, Path(max_length=64, description="the event's id, from its link")]


class NewEvent(BaseModel):
    """An event to make."""

    model_config = ConfigDict(extra="forbid")

    game: Literal["omi"] = "omi"
    name: str | None = Field(
        None, max_length=60, description="shown on its page (default: the organiser's event)"
    )
    boards: int = Field(strict=True, ge=duplicate.MIN_BOARDS, le=duplicate.MAX_BOARDS)
    boards_per_round: int = Field(
        2, strict=True, ge=1, le=duplicate.MAX_BOARDS, description="boards a table plays a round"
    )
    starts_at: float | None = Field(
        None, description="when it starts by itself (seconds since 1970, UTC); none: the organiser starts it"
    )


class EventMade(BaseModel):
    event: str
    event_url: str


class JoinEvent(BaseModel):
    """Which pair to join: one with a free place, or none for a new pair."""

    model_config = ConfigDict(extra="forbid")

    pair: int | None = Field(None, strict=True, ge=1, le=duplicate.MAX_PAIRS)


class Joined(BaseModel):
    pair: int


class Left(BaseModel):
    left: bool


class Started(BaseModel):
    tables: int


class NextBoard(BaseModel):
    """Where the asking player plays now."""

    status: Literal["play", "wait", "done"]
    board: int | None = None
    round: int | None = None
    table: int | None = Field(None, description="the event's table number")
    table_id: str | None = Field(None, description="play: the board's game")
    table_url: str | None = None
    seat: int | None = None
    token: str | None = Field(None, description="play: the seat token (in the body only; ask again for it)")
    compass: str | None = Field(None, description="play: N, E, S or W")
    waiting_for: list[int] | None = Field(None, description="wait: the pairs still on their previous board")


class Person(BaseModel):
    profile: str
    name: str | None


class Pair(BaseModel):
    pair: int
    players: list[Person | None] = Field(
        description="North (or East) first, then South (or West); null: a computer"
    )
    computer: bool


class Me(BaseModel):
    pair: int | None
    organiser: bool


class BoardState(BaseModel):
    board: int
    status: Literal["to_play", "playing", "over"]


class Sitting(BaseModel):
    round: int
    table: int
    ns: int
    ew: int
    boards: list[BoardState]


class TableResult(BaseModel):
    table: int
    ns: int
    ew: int
    ns_tricks: int
    ew_tricks: int
    ns_points: int
    ew_points: int
    table_id: str


class BoardResult(BaseModel):
    board: int
    dealer: str
    hands: dict[str, list[str]] = Field(description="each compass position's 8 cards")
    top: int
    tables: list[TableResult]


class Standing(BaseModel):
    pair: int
    rank: int
    points: int
    top: int
    percent: float


class EventView(BaseModel):
    """An event as the asker may see it: the boards' cards and results only of boards its pair
    has played, or every board once the event is over."""

    event: str
    name: str
    game: str
    rules: dict[str, Any]
    organiser: Person
    status: Literal["open", "playing", "over"]
    boards: int
    boards_per_round: int
    rounds: int
    tables: int | None
    starts_at: float | None
    created_at: float
    movement: Literal["mitchell"]
    level: str
    pairs: list[Pair]
    me: Me
    progress: list[Sitting]
    results: list[BoardResult]
    ranking: list[Standing]


def add_club(app: FastAPI, events: ClubEvents, profiles: Profiles) -> None:
    """Register the club events' routes on ``app``."""

    @app.post(
        "/api/events", status_code=201, response_model=EventMade,
        responses={code: _ERROR for code in (401, 422, 429, 503)}, tags=["events"],
    )  # fmt: skip
    async def make_event(body: NewEvent, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Make an event (the asking profile is its organiser): its link for pairs to join."""
        profile = await profiles.by_key(key_of(request, key))
        return await events.create(profile, body.model_dump())

    @app.get(
        "/api/events/{event_id}", response_model=EventView,
        responses={code: _ERROR for code in (401, 404, 422, 503)}, tags=["events"],
    )  # fmt: skip
    async def show_event(event_id: EventId, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """The event, its pairs and tables, the boards played and the ranking; no card of a board
        the asker's pair has still to play."""
        return await events.info(event_id, await optional_profile(profiles, request, key))

    @app.post(
        "/api/events/{event_id}/join", response_model=Joined,
        responses={code: _ERROR for code in (401, 404, 409, 422, 503)}, tags=["events"],
    )  # fmt: skip
    async def join_event(
        event_id: EventId, body: JoinEvent, request: Request, key: ProfileKey = None
    ) -> dict[str, Any]:
        """Join the event before it starts: the free place of ``pair``, or a new pair."""
        profile = await profiles.by_key(key_of(request, key))
        return await events.join(event_id, profile, body.pair)

    @app.post(
        "/api/events/{event_id}/leave", response_model=Left,
        responses={code: _ERROR for code in (401, 404, 409, 422, 503)}, tags=["events"],
    )  # fmt: skip
    async def leave_event(event_id: EventId, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Leave the event before it starts."""
        profile = await profiles.by_key(key_of(request, key))
        return await events.leave(event_id, profile)

    @app.post(
        "/api/events/{event_id}/start", response_model=Started,
        responses={code: _ERROR for code in (401, 403, 404, 409, 422, 503)}, tags=["events"],
    )  # fmt: skip
    async def start_event(event_id: EventId, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Start the event (its organiser only): its pairs are seated, computers fill the rest."""
        profile = await profiles.by_key(key_of(request, key))
        return await events.start(event_id, profile)

    @app.post(
        "/api/events/{event_id}/next", response_model=NextBoard, response_model_exclude_none=True,
        responses={code: _ERROR for code in (401, 403, 404, 409, 422, 503)}, tags=["events"],
    )  # fmt: skip
    async def next_board(event_id: EventId, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Where the asking player plays now: ``play`` (the board's table, seat and seat token),
        ``wait`` (for the other pairs of its next table) or ``done``."""
        profile = await profiles.by_key(key_of(request, key))
        return await events.next(event_id, profile)
