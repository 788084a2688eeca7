"""How many tables one client may open: a token bucket per client address.

Opening a table (``POST /api/tables``, ``POST /api/challenges/{id}/play``) costs a token of the
bucket of the caller's address: ``burst`` at once, then ``per_s`` a second.  A refusal says how
long to wait (``429`` with ``Retry-After``).  The room asks a :class:`TableQuota`; one process
keeps its buckets in memory (:class:`LocalTableQuota`), the nodes of a card room share theirs
in Redis (:class:`bistrot.server.redis_quota.RedisTableQuota`), so :meth:`TableQuota.wait` is a
coroutine.

>>> import asyncio
>>> quota = LocalTableQuota(burst=2, per_s=0.5, clock=lambda: 0.0)
>>> async def three(client: str) -> list[float]:
...     return [await quota.wait(client) for _ in range(3)]
>>> asyncio.run(three("203.0.113.7"))
[0.0, 0.0, 2.0]
>>> asyncio.run(quota.wait("198.51.100.1"))  # another address has its own bucket
0.0

IPv6 addresses count by their /64 network, which one household or host gets whole:

>>> client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9")
True
>>> client_key("203.0.113.7"), client_key("not an address")
('203.0.113.7', 'not an address')
"""

from __future__ import annotations

import ipaddress
import math
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from bistrot.server import ratelimit
from bistrot.server.protocol import ApiError
from bistrot.server.ratelimit import TokenBucket

#: Most addresses with a bucket at once: beyond, the least recently seen is forgotten (it gets
#: a full bucket again, which only ever helps a client that many others crowd out).
MAX_CLIENTS = 100_000


def client_key(host: str) -> str:
    """The key a client's quota is counted under: its IPv4 address, its IPv6 /64 network."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class TableQuota(Protocol):
    """What the room asks before opening a table."""

    async def wait(self, client: str) -> float:
        """Take a table from ``client``'s quota: 0.0 if it may open one now, else the seconds
        until it may (and nothing is taken)."""
        ...


class LocalTableQuota:
    """:class:`TableQuota` in this process's memory.  Buckets refilled to full are dropped (a
    new one is the same), so memory holds only the addresses seen in the last ``burst / per_s``
    seconds, and never more than :data:`MAX_CLIENTS`."""

    def __init__(
        self,
        burst: int,
        per_s: float,
        clock: Callable[[], float] | None = None,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        self.burst = burst
        self.per_s = per_s
        self.max_clients = max_clients
        self._clock = clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()  # least recently used first

    def __len__(self) -> int:
        return len(self._buckets)

    async def wait(self, client: str) -> float:
        """See :meth:`TableQuota.wait`."""
        now = ratelimit.clock() if self._clock is None else self._clock()
        self._forget(now)
        bucket = self._buckets.pop(client, None) or TokenBucket(self.burst, self.per_s, now)
        self._buckets[client] = bucket
        if bucket.take(now):
            return 0.0
        return (1.0 - bucket.tokens) / bucket.rate

    def _forget(self, now: float) -> None:
        full_after = self.burst / self.per_s
        buckets = self._buckets
        while buckets:
            key, oldest = next(iter(buckets.items()))
            if now - oldest.updated < full_after and len(buckets) < self.max_clients:
                return
            del buckets[key]


class RetryLater(ApiError):
    """A ``429`` refusal (``code``) of a client that must wait ``retry_after`` whole seconds
    (rounded up), which the app sends as ``Retry-After``; ``what`` says what it asked too much of.

    >>> err = RetryLater("too_many_things", "new things", 2.1)
    >>> err.status, err.code, err.retry_after, err.message
    (429, 'too_many_things', 3, 'too many new things from your address: try again in 3 s')
    """

    def __init__(self, code: str, what: str, wait_s: float) -> None:
        self.retry_after = max(1, math.ceil(wait_s))
        super().__init__(429, code, f"too many {what} from your address: try again in {self.retry_after} s")


class TooManyTables(RetryLater):
    """The ``429`` refusal of an address that opened too many tables of late.

    >>> err = TooManyTables(2.1)
    >>> err.status, err.code, err.retry_after
    (429, 'too_many_tables', 3)
    """

    def __init__(self, wait_s: float) -> None:
        super().__init__("too_many_tables", "new tables", wait_s)


async def take_table(quota: TableQuota, host: str) -> None:
    """Take a table from the quota of the address ``host`` (behind a proxy of
    ``forwarded_allow_ips``: the one it forwards); :class:`TooManyTables` if it has none left."""
    wait = await quota.wait(client_key(host))
    if wait > 0:
        raise TooManyTables(wait)
