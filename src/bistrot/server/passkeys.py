"""Passkeys: a profile signs in on any device with WebAuthn, never a password (the ``webauthn``
library does the cryptography; this module keeps the ceremonies and the keys).

A player with a profile adds a passkey (a *registration* ceremony); later, on any device, the
passkey opens the profile (an *authentication* ceremony, with a discoverable credential: no name
to type) and that device gets a key of its own.  Each ceremony's challenge is stored, used once,
within :data:`CEREMONY_S`; passkeys are public keys (nothing secret is stored), with their
signature counter.  The site's identity is ``public_url`` when the operator set it, else the
origin the page was opened at; a passkey only ever works for the site it was made for.

>>> site_of(None, "http", "localhost:8000")
Site(rp_id='localhost', origin='http://localhost:8000')
>>> site_of("https://cards.example", "http", "10.0.0.2:8000")
Site(rp_id='cards.example', origin='https://cards.example')
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Connection, delete, func, insert, select, update
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from bistrot.server.players import Profile, Profiles
from bistrot.server.protocol import ApiError
from bistrot.server.schema import passkey_ceremonies, passkeys, profile_keys
from bistrot.tablecore.records import new_secret, secret_hash

#: How long a ceremony's challenge may be answered.
CEREMONY_S = 300.0
#: Ceremonies waiting at once in the whole card room (each costs its address a token too).
CEREMONIES_MAX = 10_000
#: Passkeys one profile may hold.
PASSKEYS_PER_PROFILE = 10
#: The name the passkey dialogs show for this site.
RP_NAME = "bistrot"


@dataclass(frozen=True)
class Site:
    """Who a passkey is for: the WebAuthn relying party's id (a host name) and the page's origin."""

    rp_id: str
    origin: str


def site_of(public_url: str | None, scheme: str, host: str) -> Site:
    """The site of a request: the operator's ``public_url``, else the origin it came to."""
    origin = public_url or f"{scheme}://{host}"
    return Site(urlsplit(origin).hostname or "", origin.rstrip("/"))


def bad_ceremony() -> ApiError:
    """The refusal of an answer to a ceremony unknown, used, someone else's or too old (400)."""
    return ApiError(400, "bad_ceremony", "this passkey request is over or unknown: start again")


def bad_passkey(why: str) -> ApiError:
    """The refusal of a passkey's answer that does not verify (400), saying why."""
    return ApiError(400, "bad_passkey", f"the passkey's answer does not verify: {why}")


def unknown_passkey() -> ApiError:
    """The refusal of a passkey that opens no profile here (401)."""
    return ApiError(401, "unknown_passkey", "this passkey opens no profile on this site")


def passkeys_busy() -> ApiError:
    """The refusal of a new ceremony when too many are waiting (503: try again soon)."""
    return ApiError(503, "passkeys_busy", "too many passkey requests are waiting: try again in a minute")


@dataclass(frozen=True)
class _Ceremony:
    challenge: bytes
    profile: str | None
    site: Site


class Passkeys:
    """Registering passkeys and signing in with them, on the profiles' store."""

    def __init__(self, profiles: Profiles, clock: Callable[[], float] = time.time) -> None:
        self.profiles = profiles
        self.clock = clock

    # ------------------------------------------------------------------ ceremonies

    async def _begin(self, challenge: bytes, profile: str | None, site: Site) -> str:
        ceremony, now = new_secret(), self.clock()
        row = {
            "id": ceremony, "challenge": bytes_to_base64url(challenge), "profile": profile,
            "rp_id": site.rp_id, "origin": site.origin, "expires_at": now + CEREMONY_S,
        }  # fmt: skip

        def write(conn: Connection) -> bool:
            conn.execute(delete(passkey_ceremonies).where(passkey_ceremonies.c.expires_at <= now))
            waiting = conn.execute(select(func.count()).select_from(passkey_ceremonies)).scalar_one()
            if waiting >= CEREMONIES_MAX:
                return False
            conn.execute(insert(passkey_ceremonies), row)
            return True

        if not await self.profiles.write(write):
            raise passkeys_busy()
        return ceremony

    async def _take(self, ceremony: str, profile: str | None) -> _Ceremony:
        """Use up a ceremony (whatever its answer turns out to be): its challenge and site."""
        now = self.clock()
        taken = (
            delete(passkey_ceremonies)
            .where(passkey_ceremonies.c.id == ceremony)
            .returning(
                passkey_ceremonies.c.challenge, passkey_ceremonies.c.profile, passkey_ceremonies.c.rp_id,
                passkey_ceremonies.c.origin, passkey_ceremonies.c.expires_at,
            )
        )  # fmt: skip
        row = await self.profiles.write(lambda conn: conn.execute(taken).first())
        if row is None or row.profile != profile or row.expires_at <= now:
            raise bad_ceremony()
        return _Ceremony(base64url_to_bytes(row.challenge), row.profile, Site(row.rp_id, row.origin))

    # ------------------------------------------------------------------ adding a passkey

    async def registration(self, profile: Profile, site: Site) -> tuple[str, dict[str, Any]]:
        """Begin adding a passkey to ``profile``: the ceremony's id and the options for the
        browser's ``navigator.credentials.create``."""
        mine = select(passkeys.c.credential_id).where(passkeys.c.profile == profile.id)
        held = await self.profiles.read(lambda conn: [r.credential_id for r in conn.execute(mine)])
        if len(held) >= PASSKEYS_PER_PROFILE:
            raise ApiError(
                409, "too_many_passkeys", f"a profile holds at most {PASSKEYS_PER_PROFILE} passkeys"
            )
        options = generate_registration_options(
            rp_id=site.rp_id,
            rp_name=RP_NAME,
            user_name=profile.name,
            user_id=profile.id.encode(),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,  # signing in needs no name typed
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in held],
        )
        ceremony = await self._begin(options.challenge, profile.id, site)
        return ceremony, json.loads(options_to_json(options))

    async def register(self, profile: Profile, ceremony: str, credential: dict[str, Any]) -> int:
        """Finish adding a passkey: verify the browser's answer and keep its public key; how
        many passkeys the profile holds now."""
        begun = await self._take(ceremony, profile.id)
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=begun.challenge,
                expected_rp_id=begun.site.rp_id,
                expected_origin=begun.site.origin,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as err:
            raise bad_passkey(str(err) or type(err).__name__) from None
        row = {
            "credential_id": bytes_to_base64url(verified.credential_id),
            "profile": profile.id,
            "public_key": bytes_to_base64url(verified.credential_public_key),
            "sign_count": verified.sign_count,
            "rp_id": begun.site.rp_id,
            "created_at": self.clock(),
        }
        count = select(func.count()).select_from(passkeys).where(passkeys.c.profile == profile.id)

        def write(conn: Connection) -> int | None:
            known = select(passkeys.c.profile).where(passkeys.c.credential_id == row["credential_id"])
            if conn.execute(known).first() is not None:
                return None
            conn.execute(insert(passkeys), row)
            return int(conn.execute(count).scalar_one())

        held = await self.profiles.write(write)
        if held is None:
            raise ApiError(409, "passkey_known", "this passkey is already a profile's")
        return held

    # ------------------------------------------------------------------ signing in

    async def sign_in_options(self, site: Site) -> tuple[str, dict[str, Any]]:
        """Begin signing in with a passkey: the ceremony's id and the options for the browser's
        ``navigator.credentials.get`` (any of this site's passkeys: discoverable ones)."""
        options = generate_authentication_options(
            rp_id=site.rp_id, user_verification=UserVerificationRequirement.PREFERRED
        )
        ceremony = await self._begin(options.challenge, None, site)
        return ceremony, json.loads(options_to_json(options))

    async def sign_in(self, ceremony: str, credential: dict[str, Any]) -> tuple[Profile, str]:
        """Finish signing in: verify the passkey's answer; its profile and a new key of this
        device's own (stored hashed)."""
        begun = await self._take(ceremony, None)
        raw_id = credential.get("rawId", credential.get("id")) if isinstance(credential, dict) else None
        if not isinstance(raw_id, str) or len(raw_id) > 1400:
            raise bad_passkey("the credential names no id")
        query = select(passkeys).where(
            passkeys.c.credential_id == raw_id, passkeys.c.rp_id == begun.site.rp_id
        )
        stored = await self.profiles.read(lambda conn: conn.execute(query).first())
        if stored is None:
            raise unknown_passkey()
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=begun.challenge,
                expected_rp_id=begun.site.rp_id,
                expected_origin=begun.site.origin,
                credential_public_key=base64url_to_bytes(stored.public_key),
                credential_current_sign_count=stored.sign_count,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as err:
            raise bad_passkey(str(err) or type(err).__name__) from None
        key, now = new_secret(), self.clock()

        def write(conn: Connection) -> bool:
            counted = conn.execute(
                update(passkeys)
                .where(passkeys.c.credential_id == raw_id, passkeys.c.sign_count == stored.sign_count)
                .values(sign_count=verified.new_sign_count)
            )
            if counted.rowcount != 1:  # another sign-in with this passkey at the same moment
                return False
            conn.execute(
                insert(profile_keys),
                {"key_hash": secret_hash(key), "profile": stored.profile, "created_at": now},
            )
            return True

        if not await self.profiles.write(write):
            raise bad_passkey("the passkey was used at the same moment elsewhere: try again")
        return await self.profiles.by_id(stored.profile), key
