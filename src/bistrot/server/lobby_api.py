"""The HTTP routes of the lobby (docs/protocol.md, "The lobby"): the public tables waiting for
players, followed live, and "Play now" (a quick match).

``POST /api/quickmatch`` seats a player with a profile at the oldest public table waiting with the
same game and rules, or opens one.  Every step goes through the store and the table's owner node
(:meth:`~bistrot.server.room.Room.join`), so two players are never given one seat and a table is
never over-filled, whichever nodes the requests reach; one match of a game is found at a time
(:mod:`bistrot.server.match_lock`), so players asking together meet.  A request costs a token of
the address's table quota (it may open a table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.background import BackgroundTask

from bistrot import games
from bistrot.server.lobby import Lobby, lobby_event
from bistrot.server.match_lock import MatchLock
from bistrot.server.players import Profile, Profiles
from bistrot.server.profile_api import ProfileKey, key_of
from bistrot.server.protocol import ApiError, ErrorBody, GameName, Joined, store_unreadable
from bistrot.server.quota import TableQuota, client_key, take_table
from bistrot.server.room import Room
from bistrot.server.settings import Settings
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import game_entry, table_rules

#: A join that lost a race for a table's last seats: the quick match tries the next table.
_TAKEN = {"table_full", "table_over", "table_expired", "already_started"}

_ERROR = {"model": ErrorBody}
LOBBY_ERRORS: dict[int | str, dict[str, Any]] = {422: _ERROR, 429: _ERROR, 503: _ERROR}
MATCH_ERRORS: dict[int | str, dict[str, Any]] = {code: _ERROR for code in (401, 409, 413, 422, 429, 503)}


class LobbySeat(BaseModel):
    seat: int
    name: str | None
    profile: str | None
    rating: float | None
    level: str | None = Field(description="a computer player's level (None: a person)")


class LobbyTable(BaseModel):
    table: str
    game: str
    rules: dict[str, Any]
    rated: bool
    seats: list[LobbySeat | None] = Field(description="null: a free seat")
    created: float
    fills_at: float = Field(description="when computer players take the free seats if nobody joins")


class PlayingTable(BaseModel):
    table: str
    game: str
    rules: dict[str, Any]
    seats: list[LobbySeat | None]
    watch_url: str = Field(description="watches it as a spectator: a public table needs no watch key")


class LobbyList(BaseModel):
    tables: list[LobbyTable] = Field(description="waiting for players, oldest first")
    playing: list[PlayingTable] = Field(description="in play, the latest first")


class QuickMatch(BaseModel):
    """``POST /api/quickmatch``."""

    model_config = ConfigDict(extra="forbid")

    game: GameName = Field(max_length=32, description="which game: a name listed by GET /api/games")
    rules: dict[str, Any] = Field(
        default_factory=dict, description="the game's rules options (defaults otherwise)"
    )


def _game(game: str | None) -> str | None:
    if game is not None and game not in games.names():
        raise ApiError(
            422, "unknown_game", f"unknown game {game!r}; the games are {', '.join(games.names())}"
        )
    return game


def already_waiting(table: str) -> ApiError:
    """The refusal of a quick match for a profile seated at a public table still waiting (409)."""
    return ApiError(409, "already_waiting", f"this profile already waits at table {table}: play there")


async def refuse_waiting_elsewhere(lobby: Lobby, profile: str, table: str) -> None:
    """Before ``profile`` takes a seat at the public table ``table``: ``already_waiting`` (409)
    if they hold a seat at another public table still waiting (one waiting seat at a time)."""
    waiting = await _listed(lobby, None)
    if not any(listed["table"] == table for listed in waiting):
        return  # not a public table waiting (the join says what it is)
    for listed in waiting:
        seated = any(s is not None and s["profile"] == profile for s in listed["seats"])
        if seated and listed["table"] != table:
            raise already_waiting(listed["table"])


async def _listed(lobby: Lobby, game: str | None) -> list[dict[str, Any]]:
    try:
        return await lobby.tables(game)
    except Exception as err:
        raise store_unreadable() from err


GameQuery = Annotated[
    str | None, Query(max_length=32, description="one game's tables (default: every game's)")
]


class Streams:
    """The live lobby connections of this node, within ``total`` and ``per_address``."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.open: Counter[str] = Counter()

    def take(self, address: str) -> None:
        """One more connection from ``address``; ``too_many_streams`` (429) beyond the limits."""
        if self.open[address] >= self.per_address or sum(self.open.values()) >= self.total:
            raise ApiError(
                429,
                "too_many_streams",
                "too many live lobby connections: close one (another tab?) and try again",
            )
        self.open[address] += 1

    def give_back(self, address: str) -> None:
        """``address`` closed one."""
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


def add_lobby(
    app: FastAPI,
    room: Room,
    lobby: Lobby,
    profiles: Profiles,
    quota: TableQuota,
    settings: Settings,
    matching: MatchLock,
) -> None:
    """Register the lobby's routes on ``app``."""
    streams = Streams(settings.lobby_streams, settings.lobby_streams_per_address)
    finding: set[str] = set()  # profiles whose quick match this node is finding now

    @app.get("/api/lobby", response_model=LobbyList, responses=LOBBY_ERRORS, tags=["lobby"])
    async def lobby_now(game: GameQuery = None) -> dict[str, Any]:
        """The public tables waiting for players now, oldest first."""
        wanted = _game(game)
        try:
            return await lobby.now(wanted)
        except Exception as err:
            raise store_unreadable() from err

    @app.get(
        "/api/lobby/events",
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}, **LOBBY_ERRORS},
        tags=["lobby"],
    )
    async def lobby_events(request: Request, game: GameQuery = None) -> StreamingResponse:
        """The lobby live, as Server-Sent Events: a ``lobby`` event with the whole list at once
        and whenever it changes (a ``: keepalive`` comment every 15 s otherwise)."""
        wanted = _game(game)
        address = client_key(request.client.host if request.client else "")
        streams.take(address)
        given_back = False

        def give_back() -> None:  # from the stream's end, or its background if it never began
            nonlocal given_back
            if not given_back:
                given_back = True
                streams.give_back(address)

        async def events() -> AsyncIterator[bytes]:
            try:
                async for listed in lobby.follow(wanted):
                    yield b": keepalive\n\n" if listed is None else lobby_event(listed)
            finally:
                give_back()

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},  # nginx: pass each event on
            background=BackgroundTask(give_back),
        )

    @app.post(
        "/api/quickmatch", status_code=201, response_model=Joined, responses=MATCH_ERRORS, tags=["lobby"]
    )
    async def quickmatch(body: QuickMatch, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Play now: a seat at the oldest public table waiting with this game and rules, or at a
        new one (a profile needed).  A table starts when full; computer players (hard) take the
        seats nobody took in ``quickmatch_wait_s``."""
        profile = await profiles.by_key(key_of(request, key))
        await take_table(quota, request.client.host if request.client else "")
        rules = table_rules(game_entry(body.game), body.rules).to_dict()
        if profile.id in finding:
            raise ApiError(409, "quickmatch_busy", "this profile's quick match is already being found")
        finding.add(profile.id)
        try:
            async with matching.hold(body.game):
                return await match(room, lobby, profile, body.game, rules)
        finally:
            finding.discard(profile.id)


async def match(
    room: Room, lobby: Lobby, profile: Profile, game: str, rules: dict[str, Any]
) -> dict[str, Any]:
    """Seat ``profile``'s player at the oldest public table waiting with ``game`` and ``rules``
    and a free seat, or at a new one: the answer of ``POST /api/quickmatch``."""
    waiting = await _listed(lobby, None)
    for listed in waiting:
        if any(s is not None and s["profile"] == profile.id for s in listed["seats"]):
            raise already_waiting(listed["table"])
    for listed in waiting:
        if listed["game"] != game or listed["rules"] != rules or None not in listed["seats"]:
            continue
        try:
            joined: dict[str, Any] = await room.join(listed["table"], None, profile.name, profile.id)
        except TableError as err:
            if err.code in _TAKEN:
                continue  # another node's player took the last seat first
            raise
        lobby.nudge()
        return joined
    asked = {"game": game, "mode": "friends", "rules": rules, "public": True, "name": profile.name}
    opened = await room.create(asked, profile=profile.id)
    lobby.nudge()
    return {
        "table": opened["table"],
        "seat": 0,
        "token": opened["seats"][0]["token"],
        "table_url": opened["table_url"],
        "status": opened["status"],
    }
