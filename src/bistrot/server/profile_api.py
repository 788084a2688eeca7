"""The HTTP routes of profiles (docs/protocol.md, "Profiles"): make one, see and rename one's own,
see anyone's public profile.

The key travels only in the answer that makes a profile, in the cookie :data:`~bistrot.server.
players.COOKIE` (HttpOnly, SameSite=Lax, Secure when the page came over https), and in the header
:data:`~bistrot.server.players.HEADER` that scripts send: never in a URL, so never in an access
log.  Making profiles costs a token of the address's own bucket (the table quota's machinery,
:mod:`bistrot.server.quota`, with its own size).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from bistrot.server.players import (
    COOKIE,
    COOKIE_MAX_AGE_S,
    HEADER,
    Profile,
    Profiles,
    TooManyProfiles,
    profile_name,
)
from bistrot.server.protocol import ErrorBody, GameName
from bistrot.server.quota import TableQuota, client_key
from bistrot.server.ratings import leaderboard, profile_ratings

#: The rated games a public profile lists.
RECENT = 20

ProfileName = Annotated[str, AfterValidator(profile_name)]

#: The header, as the routes declare it (so the OpenAPI schema shows it).
ProfileKey = Annotated[
    str | None,
    Header(
        alias=HEADER,
        max_length=200,
        description="the profile's key, for a client without the profile cookie (never in a URL)",
    ),
]

_ERROR = {"model": ErrorBody}
RETRY_AFTER = {"Retry-After": {"description": "whole seconds to wait", "schema": {"type": "integer"}}}
# 413: any request's body past the server's limit (middleware.BodyLimit).
AUTH_ERRORS: dict[int | str, dict[str, Any]] = {code: _ERROR for code in (401, 413, 422, 503)}
CREATE_ERRORS: dict[int | str, dict[str, Any]] = {
    413: _ERROR, 422: _ERROR, 503: _ERROR, 429: {"model": ErrorBody, "headers": RETRY_AFTER},
}  # fmt: skip


class NewProfile(BaseModel):
    """``POST /api/profiles``."""

    model_config = ConfigDict(extra="forbid")

    name: ProfileName = Field(max_length=200, description="1 to 24 characters, shown to others")


class Rename(NewProfile):
    """``PATCH /api/profile``."""


class MadeProfile(BaseModel):
    """A new profile and its key: the only answer that ever holds the key."""

    profile: str
    name: str
    key: str


class Transfer(BaseModel):
    """A one-time link that opens one's profile on another device."""

    code: Annotated[str, Field(description="used once within 10 minutes; in no URL but a fragment")]
    expires: float
    link: str = Field(description="the page that claims it, the code in its fragment (sent to no server)")


class Claim(BaseModel):
    """``POST /api/profile/claim``."""

    model_config = ConfigDict(extra="forbid")

    code: Annotated[str, Field(max_length=64, description="the code of a move link")]


class OwnProfile(BaseModel):
    """One's own profile (the key is not repeated)."""

    profile: str
    name: str
    created: float
    daily_streak: dict[str, int] | None = Field(
        None, description="by game: consecutive UTC days, ending today or yesterday, with a finished"
        " daily deal (in the answers of GET)",
    )


class RatingPoint(BaseModel):
    at: float
    rating: int


class GameRating(BaseModel):
    rating: int = Field(description="the shown rating: 1000 for a new player (docs/protocol.md)")
    games: int
    history: list[RatingPoint] = Field(description="the rating after each last rated game, oldest first")


class RatedGame(BaseModel):
    table: str
    game: str
    at: float
    place: int = Field(description="0: first (equal places tie)")
    before: int
    after: int
    replay_url: str


class PublicProfile(BaseModel):
    """What anyone may see of a profile: its name, its ratings, its last rated games."""

    profile: str
    name: str
    created: float
    daily_streak: dict[str, int] = Field(description="as in one's own profile")
    ratings: dict[str, GameRating]
    recent: list[RatedGame]


class RatedPlayer(BaseModel):
    profile: str
    name: str
    rating: int
    games: int


class Leaderboard(BaseModel):
    players: list[RatedPlayer]


def set_profile_cookie(request: Request, response: Response, key: str) -> None:
    """Keep ``key`` in the browser's profile cookie: HttpOnly, SameSite=Lax, Secure over https."""
    response.set_cookie(
        COOKIE, key, max_age=COOKIE_MAX_AGE_S, path="/", httponly=True, samesite="lax",
        secure=request.url.scheme == "https",
    )  # fmt: skip


def key_of(request: Request, header: str | None) -> str | None:
    """The profile key a request carries: its header, else its cookie."""
    return header if header is not None else request.cookies.get(COOKIE)


async def optional_profile(profiles: Profiles, request: Request, header: str | None) -> Profile | None:
    """The profile a request proves, or None if it carries no key; a key that opens none is
    refused (``bad_profile_key``, 401), never taken as no profile."""
    key = key_of(request, header)
    return None if key is None else await profiles.by_key(key)


def own(profile: Profile) -> dict[str, Any]:
    """The answer of one's own profile."""
    return {"profile": profile.id, "name": profile.name, "created": profile.created_at}


Streaks = Callable[[str], Awaitable[dict[str, int]]]
"""A profile's daily streak by game, from its public id (:meth:`bistrot.server.daily.DailyDeals.streaks`)."""


def add_profiles(app: FastAPI, profiles: Profiles, quota: TableQuota, streaks: Streaks) -> None:
    """Register the profile routes on ``app``."""

    @app.post(
        "/api/profiles",
        status_code=201,
        response_model=MadeProfile,
        responses=CREATE_ERRORS,
        tags=["players"],
    )
    async def make_profile(body: NewProfile, request: Request, response: Response) -> dict[str, Any]:
        """Make a profile (within the address's quota of new profiles): its public id, its name
        and its key, also set as the profile cookie.  Keep the key: it is shown only here."""
        wait = await quota.wait(client_key(request.client.host if request.client else ""))
        if wait > 0:
            raise TooManyProfiles(wait)
        profile, key = await profiles.create(body.name)
        set_profile_cookie(request, response, key)
        return {"profile": profile.id, "name": profile.name, "key": key}

    @app.get("/api/profile", response_model=OwnProfile, responses=AUTH_ERRORS, tags=["players"])
    async def my_profile(request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """The caller's own profile (by its cookie or header): ``no_profile``, ``bad_profile_key``
        (401) otherwise."""
        profile = await profiles.by_key(key_of(request, key))
        return own(profile) | {"daily_streak": await streaks(profile.id)}

    @app.patch("/api/profile", response_model=OwnProfile, responses=AUTH_ERRORS, tags=["players"])
    async def rename(body: Rename, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Rename the caller's profile."""
        profile = await profiles.by_key(key_of(request, key))
        return own(await profiles.rename(profile, body.name))

    @app.post(
        "/api/profile/transfer",
        status_code=201,
        response_model=Transfer,
        responses={**AUTH_ERRORS, 429: _ERROR},
        tags=["players"],
    )
    async def transfer(request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """A link (and its code) that opens the caller's profile on another device: used once,
        within 10 minutes.  The first device keeps its profile too."""
        profile = await profiles.by_key(key_of(request, key))
        code, expires = await profiles.new_transfer(profile)
        return {"code": code, "expires": expires, "link": f"/profile/claim#{code}"}

    @app.post(
        "/api/profile/claim",
        response_model=MadeProfile,
        responses={code: _ERROR for code in (403, 409, 410, 413, 422, 503)},
        tags=["players"],
    )
    async def claim(body: Claim, request: Request, response: Response) -> dict[str, Any]:
        """Open a profile on this device with the code of its move link: its id, name and a key
        of this device's own, also set as the profile cookie."""
        profile, new_key = await profiles.claim_transfer(body.code)
        set_profile_cookie(request, response, new_key)
        return {"profile": profile.id, "name": profile.name, "key": new_key}

    @app.get(
        "/api/profiles/{profile_id}",
        response_model=PublicProfile,
        responses={404: _ERROR, 503: _ERROR},
        tags=["players"],
    )
    async def public_profile(profile_id: str) -> dict[str, Any]:
        """A profile as anyone sees it (no key): its name, when it was made, its rating in each
        game it played rated, and its last rated games with links to their replays."""
        profile = await profiles.by_id(profile_id)
        rated = await profiles.read(lambda conn: profile_ratings(conn, profile.id, RECENT))
        return own(profile) | rated | {"daily_streak": await streaks(profile.id)}

    @app.get(
        "/api/ratings/{game}",
        response_model=Leaderboard,
        responses={422: _ERROR, 503: _ERROR},
        tags=["players"],
    )
    async def ratings(game: GameName, limit: Annotated[int, Query(ge=1, le=200)] = 50) -> dict[str, Any]:
        """The best-rated players of ``game`` (with at least one rated game), best first."""
        return {"players": await profiles.read(lambda conn: leaderboard(conn, game, limit))}
