"""One quick match of a game at a time, so that players asking together fill one table before the
next is opened (``POST /api/quickmatch``: :mod:`bistrot.server.lobby_api`).

A node alone holds an :class:`asyncio.Lock` per game.  The nodes of a cluster also hold a lock in
Redis, so that two players asking through two nodes meet at one table; it expires by itself after
:data:`HOLD_S` (a node that died holding it), and a request that cannot get it within
:data:`WAIT_S` is refused ``matchmaking_busy`` (503: try again).  If Redis cannot be reached the
match goes on under the node's own lock: seats are still given once each by the table's owner,
the players may only end at two tables instead of one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Protocol

from redis import asyncio as aioredis
from redis.exceptions import LockError, RedisError

from bistrot.server.protocol import ApiError

log = logging.getLogger(__name__)

#: How long a match may hold the cluster's lock (a node that died holding it frees it so).
HOLD_S = 10.0
#: How long a request waits for it.
WAIT_S = 10.0
#: The Redis key of a game's lock.
KEY = "bistrot:quickmatch:{game}"


def matchmaking_busy() -> ApiError:
    """The refusal of a quick match that waited too long for its turn (503: try again)."""
    return ApiError(503, "matchmaking_busy", "many players are asking for a game at once: try again")


class MatchLock(Protocol):
    """What the quick match holds while it finds a player's seat."""

    def hold(self, game: str) -> contextlib.AbstractAsyncContextManager[None]: ...


class LocalMatchLock:
    """One match of a game at a time on this node."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def hold(self, game: str) -> AsyncIterator[None]:
        """Hold ``game``'s lock for the ``async with`` block."""
        async with self._locks.setdefault(game, asyncio.Lock()):
            yield


class RedisMatchLock:
    """One match of a game at a time across the nodes sharing the Redis at ``url``."""

    def __init__(self, url: str) -> None:
        self.redis = aioredis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
        self.local = LocalMatchLock()  # this node's requests wait here, not in Redis

    @contextlib.asynccontextmanager
    async def hold(self, game: str) -> AsyncIterator[None]:
        """Hold ``game``'s lock on this node and in Redis for the ``async with`` block."""
        async with self.local.hold(game):
            lock = self.redis.lock(KEY.format(game=game), timeout=HOLD_S, blocking_timeout=WAIT_S)
            try:
                held = await lock.acquire()
            except RedisError as err:
                log.warning("quick match without the cluster's lock (Redis: %s)", err)
                yield
                return
            if not held:
                raise matchmaking_busy()
            try:
                yield
            finally:
                with contextlib.suppress(LockError, RedisError):  # expired, or Redis gone: it expires
                    await lock.release()

    async def aclose(self) -> None:
        """Close the connection to Redis."""
        await self.redis.aclose()
