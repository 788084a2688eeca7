"""A token bucket: a burst of ``capacity`` messages, then ``rate`` per second; and the strikes
of a connection that keeps sending over it.

>>> bucket = TokenBucket(capacity=2, rate=1.0, now=0.0)
>>> [bucket.take(now=0.0) for _ in range(3)]
[True, True, False]
>>> bucket.take(now=1.0), bucket.take(now=1.0)
(True, False)

A :class:`Guard` counts a strike for each message over the rate, forgets strikes at
``forget_per_s`` a second, and says ``close`` once ``max_strikes`` have piled up:

>>> guard = Guard(burst=2, rate=1.0, max_strikes=3, forget_per_s=1.0, now=0.0)
>>> [guard.admit(now=0.0) for _ in range(4)]
['ok', 'ok', 'limited', 'limited']
>>> guard.admit(now=10.0), guard.strikes  # ten quiet seconds: the two strikes are forgotten
('ok', 0.0)
>>> [guard.admit(now=10.0) for _ in range(4)]
['ok', 'limited', 'limited', 'close']
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

#: The clock of buckets and guards made without an explicit ``now`` (a test may replace it).
clock: Callable[[], float] = time.monotonic

Verdict = Literal["ok", "limited", "close"]


class TokenBucket:
    """See the module docstring; ``now`` defaults to :data:`clock`."""

    __slots__ = ("capacity", "rate", "tokens", "updated")

    def __init__(self, capacity: int, rate: float, now: float | None = None) -> None:
        self.capacity = float(capacity)
        self.rate = rate
        self.tokens = float(capacity)
        self.updated = clock() if now is None else now

    def take(self, now: float | None = None) -> bool:
        """Spend one token if there is one; False means the message is over the rate."""
        now = clock() if now is None else now
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Guard:
    """The rate limit of one connection: every message it sends, whatever its size or content,
    passes :meth:`admit` first.  A message over the rate is a strike; strikes are forgotten at
    ``forget_per_s`` a second, so a client that pauses between bursts is never closed, while
    one that keeps sending faster than ``rate + forget_per_s`` a second is."""

    __slots__ = ("bucket", "forget_per_s", "max_strikes", "strikes", "struck")

    def __init__(
        self, burst: int, rate: float, max_strikes: int, forget_per_s: float, now: float | None = None
    ) -> None:
        now = clock() if now is None else now
        self.bucket = TokenBucket(burst, rate, now)
        self.max_strikes = max_strikes
        self.forget_per_s = forget_per_s
        self.strikes = 0.0
        self.struck = now

    def admit(self, now: float | None = None) -> Verdict:
        """``ok``: handle the message; ``limited``: refuse it (a strike); ``close``: the strikes
        have piled up, close the connection."""
        now = clock() if now is None else now
        if self.strikes:
            self.strikes = max(0.0, self.strikes - (now - self.struck) * self.forget_per_s)
        self.struck = now
        if self.bucket.take(now):
            return "ok"
        self.strikes += 1.0
        return "close" if self.strikes >= self.max_strikes else "limited"
