"""The HTTP routes of the daily deal (docs/protocol.md, "The daily deal"): today's deal described,
a profile's one game of it a day, and a day's results (:mod:`bistrot.server.daily`).

A profile travels as on every profile route: its cookie, or the header
:data:`~bistrot.server.players.HEADER`.  Starting a game costs a token of the address's table
quota, as opening any table does.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Path, Request
from pydantic import BaseModel, Field

from bistrot.server.daily import DailyDeals
from bistrot.server.players import Profiles
from bistrot.server.profile_api import RETRY_AFTER, ProfileKey, key_of, optional_profile
from bistrot.server.protocol import ErrorBody, GameName
from bistrot.server.quota import TableQuota, take_table

_ERROR = {"model": ErrorBody}

#: A day in a URL: ``YYYY-MM-DD`` (checked as a date by the route, refused ``bad_date``).
Day = Annotated[str, Path(max_length=40, description="a UTC day, YYYY-MM-DD: today or before")]


class DailyDeal(BaseModel):
    """Today's deal of a game, described: never a card."""

    date: str = Field(description="the UTC day, YYYY-MM-DD")
    game: str
    rules: dict[str, Any] = Field(description="the rules of the day's game (Omi: hands=4)")
    level: str = Field(description="the computer players' level")
    hands: int = Field(description="hands in the day's match: Omi 4, Oti 1")
    seat: int = Field(description="the player's seat")
    played: bool = Field(description="whether the asking profile started today's game (none: false)")
    finished: bool = Field(description="whether its game is over")
    table: str | None = Field(description="its table, once started")


class DailyStarted(BaseModel):
    """The profile's game of today's deal, opened."""

    table: str
    seat: int
    token: str = Field(description="the seat token: given only here, once")
    table_url: str


class DailyRefusal(ErrorBody):
    """``daily_unfinished`` names the table of the game still on."""

    table: str | None = None


class DailyResult(BaseModel):
    profile: str
    name: str | None
    score: int = Field(description="Omi: own side's tokens minus the other's; Oti: minus the cards left")
    rank: int = Field(description="1 first; equal scores share a rank")
    accuracy: float | None = Field(description="from the game's analysis, percent; null until it is done")


class DailyResults(BaseModel):
    """How many finished a day's deal; the ranked results for a profile that finished it."""

    date: str
    game: str
    played: int = Field(description="how many finished that day's deal")
    results: list[DailyResult] | None = Field(
        description="null until the asking profile has finished that day's deal: the best 100, then"
        " its own line if it is not among them"
    )


def add_daily(app: FastAPI, deals: DailyDeals, profiles: Profiles, quota: TableQuota) -> None:
    """Register the daily deal's routes on ``app``."""

    @app.get(
        "/api/daily/{game}",
        response_model=DailyDeal,
        responses={code: _ERROR for code in (401, 404, 422, 503)},
        tags=["daily"],
    )
    async def daily_deal(game: GameName, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Today's deal of ``game`` (UTC): its rules, level and number of hands, and whether the
        asking profile (if any) played it; ``not_found`` (404) for a game dealt no daily deal."""
        return await deals.info(game, await optional_profile(profiles, request, key))

    @app.post(
        "/api/daily/{game}",
        status_code=201,
        response_model=DailyStarted,
        responses={
            **{code: _ERROR for code in (401, 404, 413, 422, 503)},
            409: {"model": DailyRefusal},
            429: {"model": ErrorBody, "headers": RETRY_AFTER},
        },
        tags=["daily"],
    )
    async def play_daily(game: GameName, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Start the profile's game of today's deal against the computer, once a day:
        ``daily_unfinished`` (409, with its ``table``) while it is on, ``daily_played`` (409) once
        it is over."""
        profile = await profiles.by_key(key_of(request, key))
        await take_table(quota, request.client.host if request.client else "")
        return await deals.start(game, profile)

    @app.get(
        "/api/daily/{game}/{day}",
        response_model=DailyResults,
        responses={code: _ERROR for code in (401, 404, 422, 503)},
        tags=["daily"],
    )
    async def daily_results(
        game: GameName, day: Day, request: Request, key: ProfileKey = None
    ) -> dict[str, Any]:
        """How many finished ``day``'s deal of ``game`` and, for a profile that finished it, the
        ranked results; ``bad_date`` (422), ``daily_not_yet`` (404) for a day to come."""
        return await deals.results(game, day, await optional_profile(profiles, request, key))
