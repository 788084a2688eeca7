"""A token bucket: a burst of ``capacity`` messages, then ``rate`` per second.

>>> bucket = TokenBucket(capacity=2, rate=1.0, now=0.0)
>>> [bucket.take(now=0.0) for _ in range(3)]
[True, True, False]
>>> bucket.take(now=1.0), bucket.take(now=1.0)
(True, False)
"""

from __future__ import annotations

import time


class TokenBucket:
    """See the module docstring; ``now`` defaults to a monotonic clock."""

    __slots__ = ("capacity", "rate", "tokens", "updated")

    def __init__(self, capacity: int, rate: float, now: float | None = None) -> None:
        self.capacity = float(capacity)
        self.rate = rate
        self.tokens = float(capacity)
        self.updated = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        """Spend one token if there is one; False means the message is over the rate."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
