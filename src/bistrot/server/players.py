"""Players' profiles: a lasting name without signing up.

``POST /api/profiles {"name": "Ama"}`` makes a profile: a public id anyone may see, a name, and a
key, the player's only credential.  The key is shown once (in that answer, and set as an HttpOnly
cookie); the store keeps only its :func:`~bistrot.tablecore.records.secret_hash`, as it does for
seat tokens.  A request proves its profile with the cookie :data:`COOKIE` or the header
:data:`HEADER` (scripts): never in a URL.

The SQL is written once, as functions of a synchronous SQLAlchemy connection, and each store runs
them in its own way (:meth:`~bistrot.server.sqlite.SQLiteStorage.transaction`, ``snapshot``).

>>> profile_name("  Ama ")
'Ama'
>>> profile_name("Ame\\u0301lie") == "Am\\u00e9lie"  # NFC: the accent joins its letter
True
>>> profile_name("\\u202eevil")
Traceback (most recent call last):
...
bistrot.tablecore.text.TextRefused: a name cannot hold U+202E (RIGHT-TO-LEFT OVERRIDE)
>>> key_shape("not a key!")
False
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from sqlalchemy import Connection, delete, func, insert, or_, select, update

from bistrot.server.protocol import MAX_NAME_CHARS, ApiError, store_refused, store_unreadable
from bistrot.server.quota import RetryLater
from bistrot.server.schema import profile_keys, profile_transfers, profiles
from bistrot.tablecore import text as text_rule
from bistrot.tablecore.records import new_secret, secret_hash

T = TypeVar("T")

#: The cookie that carries a browser's profile key (HttpOnly, SameSite=Lax, Secure over https).
COOKIE = "bistrot_profile"
#: The header that carries it for scripts.
HEADER = "X-Bistrot-Profile"
#: How long a browser keeps its profile cookie: ten years (the profile is the player's name).
COOKIE_MAX_AGE_S = 10 * 365 * 86400
#: What a key looks like (:func:`~bistrot.tablecore.records.new_secret` makes 22 characters).
_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: How long a link that moves a profile to another device lasts (it is used once).
TRANSFER_S = 600.0
#: How many unused, unexpired such links a profile may hold at once.
TRANSFERS_OPEN = 5
#: What a public profile id looks like.
PROFILE_ID = re.compile(r"[A-Za-z0-9_-]{16}")


def profile_name(text: str) -> str:
    """``text`` as a profile's name: NFC (one spelling for one look), then the one rule of every
    text shown to others (:func:`bistrot.tablecore.text.check`), 1 to 24 characters."""
    return text_rule.check(unicodedata.normalize("NFC", text), "a name", MAX_NAME_CHARS)


def key_shape(key: str) -> bool:
    """Whether ``key`` could be a profile key at all (else it is refused before any lookup)."""
    return _KEY.fullmatch(key) is not None


def new_profile_id() -> str:
    """A public profile id: 96 random bits, 16 URL-safe characters."""
    return secrets.token_urlsafe(12)


@dataclass(frozen=True)
class Profile:
    """A profile as anyone may see it (no key, no hash)."""

    id: str
    name: str
    created_at: float


class PlayerStore(Protocol):
    """What the profiles need of a store: a write transaction and a consistent read, each
    running SQL written once (both stores have them)."""

    async def transaction(self, work: Callable[[Connection], T]) -> T: ...

    async def snapshot(self, work: Callable[[Connection], T]) -> T: ...


def no_profile() -> ApiError:
    """The refusal of a request that needs a profile and carries no key (401)."""
    return ApiError(401, "no_profile", f"this needs a profile: make one, or send its key in {HEADER}")


def bad_profile_key() -> ApiError:
    """The refusal of a key that opens no profile (401): nothing is told about which exist."""
    return ApiError(401, "bad_profile_key", "this profile key opens no profile")


def unknown_profile() -> ApiError:
    """The refusal of a public id that names no profile (404)."""
    return ApiError(404, "unknown_profile", "there is no profile with this id")


class TooManyProfiles(RetryLater):
    """The ``429`` refusal of an address that made its share of profiles; ``retry_after`` whole
    seconds, which the app sends as ``Retry-After``.

    >>> TooManyProfiles(0.2).retry_after
    1
    """

    def __init__(self, wait_s: float) -> None:
        super().__init__("too_many_profiles", "new profiles", wait_s)


def transfer_used() -> ApiError:
    """The refusal of a move link used already (409)."""
    return ApiError(409, "transfer_used", "this link was used already: make a new one on the first device")


def bad_transfer() -> ApiError:
    """The refusal of a move link whose code opens no profile (403)."""
    return ApiError(403, "bad_transfer", "this link opens no profile: check it, or make a new one")


def _profile(row: object) -> Profile:
    mapping = row._mapping  # type: ignore[attr-defined]
    return Profile(mapping["id"], mapping["name"], mapping["created_at"])


_PUBLIC = (profiles.c.id, profiles.c.name, profiles.c.created_at)


class Profiles:
    """Making, finding and renaming profiles on a :class:`PlayerStore`."""

    def __init__(self, store: PlayerStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def write(self, work: Callable[[Connection], T]) -> T:
        """``work`` in one transaction of the store; ``storage_error`` (503, nothing changed)
        if the store refuses it."""
        try:
            return await self.store.transaction(work)
        except Exception as err:
            raise store_refused() from err

    async def read(self, work: Callable[[Connection], T]) -> T:
        """``work`` on one read of the store; ``storage_error`` (503) if it cannot be read."""
        try:
            return await self.store.snapshot(work)
        except Exception as err:
            raise store_unreadable() from err

    async def create(self, name: str) -> tuple[Profile, str]:
        """A new profile named ``name`` (already checked by :func:`profile_name`) and its key,
        stored (only the key's hash) before this returns."""
        profile, key = Profile(new_profile_id(), name, self.clock()), new_secret()
        row = {"id": profile.id, "name": name, "key_hash": secret_hash(key), "created_at": profile.created_at}

        def write(conn: Connection) -> None:
            conn.execute(insert(profiles), row)

        await self.write(write)
        return profile, key

    async def by_key(self, key: str | None) -> Profile:
        """The profile ``key`` opens; :func:`no_profile` or :func:`bad_profile_key` otherwise."""
        if not key:
            raise no_profile()
        if not key_shape(key):
            raise bad_profile_key()
        hashed = secret_hash(key)
        # The profile's first key, or one it was given on another device (a move or a passkey).
        query = select(*_PUBLIC).where(
            or_(
                profiles.c.key_hash == hashed,
                profiles.c.id.in_(select(profile_keys.c.profile).where(profile_keys.c.key_hash == hashed)),
            )
        )
        row = await self.read(lambda conn: conn.execute(query).first())
        if row is None:
            raise bad_profile_key()
        return _profile(row)

    async def by_id(self, profile_id: str) -> Profile:
        """The profile of public id ``profile_id``; :func:`unknown_profile` otherwise."""
        if PROFILE_ID.fullmatch(profile_id) is None:
            raise unknown_profile()
        query = select(*_PUBLIC).where(profiles.c.id == profile_id)
        row = await self.read(lambda conn: conn.execute(query).first())
        if row is None:
            raise unknown_profile()
        return _profile(row)

    async def named(self, profile_ids: list[str]) -> dict[str, str]:
        """The names of the profiles among ``profile_ids`` (unknown ones left out)."""
        ids = sorted(set(profile_ids))
        if not ids:
            return {}
        query = select(profiles.c.id, profiles.c.name).where(profiles.c.id.in_(ids))
        rows = await self.read(lambda conn: list(conn.execute(query)))
        return {r.id: r.name for r in rows}

    async def rename(self, profile: Profile, name: str) -> Profile:
        """``profile`` renamed ``name`` (already checked), stored before this returns."""
        statement = update(profiles).where(profiles.c.id == profile.id).values(name=name)

        def write(conn: Connection) -> None:
            if conn.execute(statement).rowcount != 1:
                raise LookupError(f"no profile {profile.id!r}")

        await self.write(write)
        return Profile(profile.id, name, profile.created_at)

    # ------------------------------------------------------------------ moving to another device

    async def new_transfer(self, profile: Profile) -> tuple[str, float]:
        """A one-time code that opens ``profile`` on another device within :data:`TRANSFER_S`:
        (the code, when it expires).  Stored hashed; a profile holds at most
        :data:`TRANSFERS_OPEN` unexpired codes (``too_many_transfers``, 429, otherwise)."""
        code, now = new_secret(), self.clock()
        expires = now + TRANSFER_S

        def write(conn: Connection) -> bool:
            mine = profile_transfers.c.profile == profile.id
            conn.execute(delete(profile_transfers).where(mine, profile_transfers.c.expires_at <= now))
            open_now = conn.execute(
                select(func.count())
                .select_from(profile_transfers)
                .where(mine, profile_transfers.c.used_at.is_(None))
            ).scalar_one()
            if open_now >= TRANSFERS_OPEN:
                return False
            row = {
                "code_hash": secret_hash(code),
                "profile": profile.id,
                "expires_at": expires,
                "used_at": None,
            }
            conn.execute(insert(profile_transfers), row)
            return True

        if not await self.write(write):
            raise ApiError(
                429, "too_many_transfers",
                f"this profile has {TRANSFERS_OPEN} move links open: use one, or wait 10 minutes",
            )  # fmt: skip
        return code, expires

    async def claim_transfer(self, code: str) -> tuple[Profile, str]:
        """Open the profile of a one-time ``code`` on this device: the profile and a new key of
        its own (stored hashed), the code used up.  ``bad_transfer`` (403) for a code that
        opens nothing, ``transfer_used`` (409), ``transfer_expired`` (410)."""
        if not key_shape(code):
            raise bad_transfer()
        key, now = new_secret(), self.clock()
        hashed = secret_hash(code)

        def write(conn: Connection) -> str | ApiError:
            # A refusal is returned, not raised: nothing was written, and the store would take
            # an exception for its own failure.
            row = conn.execute(
                select(
                    profile_transfers.c.profile, profile_transfers.c.expires_at, profile_transfers.c.used_at
                )
                .where(profile_transfers.c.code_hash == hashed)
                .with_for_update()
            ).first()
            if row is None:
                return bad_transfer()
            if row.used_at is not None:
                return transfer_used()
            if row.expires_at <= now:
                return ApiError(410, "transfer_expired", "this link is over 10 minutes old: make a new one")
            used = conn.execute(
                update(profile_transfers)
                .where(profile_transfers.c.code_hash == hashed, profile_transfers.c.used_at.is_(None))
                .values(used_at=now)
            )
            if used.rowcount != 1:  # claimed at this very moment on another connection
                return transfer_used()
            conn.execute(
                insert(profile_keys),
                {"key_hash": secret_hash(key), "profile": row.profile, "created_at": now},
            )
            return str(row.profile)

        claimed = await self.write(write)
        if isinstance(claimed, ApiError):
            raise claimed
        profile_id = claimed
        return await self.by_id(profile_id), key
