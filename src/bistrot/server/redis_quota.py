"""The table quota shared by the nodes of a card room: the token buckets in Redis.

A client that opens tables through several nodes (a load balancer spreads its requests) counts
against one bucket, wherever its requests land.  Each :meth:`RedisTableQuota.wait` is one Lua
script, so a take is atomic across nodes, on Redis's own clock (``TIME``: the nodes' clocks need
not agree), and the bucket's key expires once it would be full again: Redis holds only the
clients seen in the last ``burst / per_s`` seconds.  The answers are those of
:class:`~bistrot.server.quota.LocalTableQuota`.

When Redis cannot be reached the node keeps serving: it answers from a
:class:`~bistrot.server.quota.LocalTableQuota` of the same size (each node then counts on its
own, a client gets at most a burst per node until Redis is back), waits at most ``timeout_s``
for Redis, and tries it again once every ``retry_s`` until it answers.

>>> quota = RedisTableQuota("redis://127.0.0.1:6379/0", burst=30, per_s=0.2)  # connects on use
>>> quota.key("203.0.113.7")
'bistrot:quota:203.0.113.7'
>>> RedisTableQuota("redis://127.0.0.1:6379/0", burst=30, per_s=0)
Traceback (most recent call last):
ValueError: per_s must be more than 0 tables a second, not 0
"""

from __future__ import annotations

import asyncio
import logging
import time

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as LostConnection
from redis.exceptions import RedisError

from bistrot.server.quota import LocalTableQuota

log = logging.getLogger("bistrot.server.redis_quota")

#: The keys' prefix (one key per client: ``bistrot:quota:203.0.113.7``).
PREFIX = "bistrot:quota:"
#: The longest a call waits for Redis before answering from the node's memory (seconds): table
#: creation must not stall on a dead or hung Redis.
TIMEOUT_S = 0.5
#: While Redis is unreachable, how often a call tries it again (seconds): the others answer
#: from memory at once instead of each waiting ``TIMEOUT_S`` for a hung Redis.
RETRY_S = 1.0

# KEYS[1]: the client's bucket, a hash: t = tokens left, at = when they were counted (Redis's
# clock, seconds).  ARGV: burst, per_s.  Returns "0" (one token taken) or the seconds to wait
# (nothing taken, nothing written), as a string: Lua numbers would come back as integers.
# TIME in a script needs effects replication, the only kind since Redis 7 (the default from 5).
TAKE = """
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local tokens = burst
local saved = redis.call('HMGET', KEYS[1], 't', 'at')
if saved[1] then
  tokens = math.min(burst, tonumber(saved[1]) + math.max(0, now - tonumber(saved[2])) * rate)
end
if tokens < 1 then
  return string.format('%.17g', (1 - tokens) / rate)
end
tokens = tokens - 1
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'at', string.format('%.17g', now))
-- Gone once full again (a new bucket is the same); capped at ~30 years for absurd rates.
local full_ms = math.min(math.ceil((burst - tokens) / rate * 1000), 1e12)
redis.call('PEXPIRE', KEYS[1], string.format('%d', full_ms))
return '0'
"""


class RedisTableQuota:
    """:class:`~bistrot.server.quota.TableQuota` in Redis, for ``redis`` (a client, or a URL
    to make one with short timeouts, closed by :meth:`aclose`); see the module docstring."""

    def __init__(
        self,
        redis: aioredis.Redis | str,
        burst: int,
        per_s: float,
        prefix: str = PREFIX,
        timeout_s: float = TIMEOUT_S,
        retry_s: float = RETRY_S,
    ) -> None:
        if burst < 1:
            raise ValueError(f"burst must be at least 1 table, not {burst}")
        if not per_s > 0:
            raise ValueError(f"per_s must be more than 0 tables a second, not {per_s}")
        self.burst = burst
        self.per_s = per_s
        self.prefix = prefix
        self.timeout_s = timeout_s
        self.retry_s = retry_s
        self._owns_client = isinstance(redis, str)
        if isinstance(redis, str):
            # One retry at once on a lost connection (the one a restarted Redis dropped: a new
            # one answers), none on a timeout (a hung Redis would cost each call twice).
            retry = Retry(NoBackoff(), 1, supported_errors=(LostConnection,))
            redis = aioredis.from_url(
                redis, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, retry=retry
            )
        self.redis = redis
        self._take = redis.register_script(TAKE)
        self.fallback = LocalTableQuota(burst, per_s)
        self._down_since: float | None = None  # monotonic, while Redis is unreachable
        self._next_try = 0.0

    @property
    def reachable(self) -> bool:
        """Whether Redis answered the last call that tried it."""
        return self._down_since is None

    def key(self, client: str) -> str:
        """The Redis key of ``client``'s bucket."""
        return self.prefix + client

    async def wait(self, client: str) -> float:
        """See :meth:`bistrot.server.quota.TableQuota.wait`."""
        now = time.monotonic()
        if self._down_since is not None:
            if now < self._next_try:
                return await self.fallback.wait(client)
            self._next_try = now + self.retry_s  # the calls meanwhile do not pile up on Redis
        try:
            async with asyncio.timeout(self.timeout_s):
                answer = await self._take(keys=[self.key(client)], args=[self.burst, self.per_s])
        except (RedisError, OSError, TimeoutError) as err:
            if self._down_since is None:  # once per outage, not once per call
                self._down_since = now
                self._next_try = now + self.retry_s
                log.warning(
                    "Redis unreachable (%s: %s): table quotas count on this node alone until it answers",
                    type(err).__name__,
                    err,
                )
            return await self.fallback.wait(client)
        if self._down_since is not None:
            down_s = now - self._down_since
            log.info("Redis answers again after %.1f s: table quotas are shared again", down_s)
            self._down_since = None
        return float(answer)

    async def aclose(self) -> None:
        """Close the client this quota made from a URL (a client given is its owner's to close)."""
        if self._owns_client:
            await self.redis.aclose()
