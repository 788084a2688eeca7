"""The HTTP routes of passkeys (docs/protocol.md, "Passkeys"): add one to one's profile, and sign
in with one on any device.  Beginning a sign-in needs no profile, so it costs a token of the
address's own bucket (:data:`SIGN_IN_BURST`, :data:`SIGN_IN_PER_S`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from bistrot.server.passkeys import Passkeys, Site, site_of
from bistrot.server.players import Profiles
from bistrot.server.profile_api import MadeProfile, ProfileKey, key_of, set_profile_cookie
from bistrot.server.protocol import ErrorBody
from bistrot.server.quota import LocalTableQuota, RetryLater, client_key

#: Sign-ins an address may begin at once, then one every 5 s.
SIGN_IN_BURST = 20
SIGN_IN_PER_S = 0.2

_ERROR = {"model": ErrorBody}


class Ceremony(BaseModel):
    """A passkey ceremony begun: its id, and the options to hand to the browser's WebAuthn call."""

    ceremony: str
    options: dict[str, Any] = Field(description="the options of the browser's WebAuthn call, as JSON")


class Answer(BaseModel):
    """The browser's answer to a ceremony."""

    model_config = ConfigDict(extra="forbid")

    ceremony: Annotated[str, Field(max_length=64)]
    credential: dict[str, Any] = Field(description="the PublicKeyCredential, as JSON (base64url fields)")


class Added(BaseModel):
    passkeys: int = Field(description="how many passkeys the profile holds now")


class TooManySignIns(RetryLater):
    """The ``429`` refusal of an address that began too many sign-ins of late."""

    def __init__(self, wait_s: float) -> None:
        super().__init__("too_many_signins", "passkey sign-ins", wait_s)


def add_passkeys(app: FastAPI, profiles: Profiles, public_url: str | None) -> None:
    """Register the passkey routes on ``app``."""
    keys = Passkeys(profiles)
    sign_ins = LocalTableQuota(SIGN_IN_BURST, SIGN_IN_PER_S)

    def site(request: Request) -> Site:
        return site_of(public_url, request.url.scheme, request.headers.get("host", ""))

    @app.post(
        "/api/profile/passkeys/options",
        response_model=Ceremony,
        responses={code: _ERROR for code in (401, 409, 413, 422, 503)},
        tags=["players"],
    )
    async def add_options(request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Begin adding a passkey to the caller's profile."""
        profile = await profiles.by_key(key_of(request, key))
        ceremony, options = await keys.registration(profile, site(request))
        return {"ceremony": ceremony, "options": options}

    @app.post(
        "/api/profile/passkeys",
        status_code=201,
        response_model=Added,
        responses={code: _ERROR for code in (400, 401, 409, 413, 422, 503)},
        tags=["players"],
    )
    async def add(body: Answer, request: Request, key: ProfileKey = None) -> dict[str, Any]:
        """Finish adding a passkey with the browser's answer."""
        profile = await profiles.by_key(key_of(request, key))
        return {"passkeys": await keys.register(profile, body.ceremony, body.credential)}

    @app.post(
        "/api/passkeys/options",
        response_model=Ceremony,
        responses={code: _ERROR for code in (413, 422, 429, 503)},
        tags=["players"],
    )
    async def sign_in_options(request: Request) -> dict[str, Any]:
        """Begin signing in with a passkey (no profile needed yet)."""
        wait = await sign_ins.wait(client_key(request.client.host if request.client else ""))
        if wait > 0:
            raise TooManySignIns(wait)
        ceremony, options = await keys.sign_in_options(site(request))
        return {"ceremony": ceremony, "options": options}

    @app.post(
        "/api/passkeys/signin",
        response_model=MadeProfile,
        responses={code: _ERROR for code in (400, 401, 413, 422, 503)},
        tags=["players"],
    )
    async def sign_in(body: Answer, request: Request, response: Response) -> dict[str, Any]:
        """Finish signing in: the passkey's profile, with a key of this device's own, also set as
        the profile cookie."""
        profile, new_key = await keys.sign_in(body.ceremony, body.credential)
        set_profile_cookie(request, response, new_key)
        return {"profile": profile.id, "name": profile.name, "key": new_key}
