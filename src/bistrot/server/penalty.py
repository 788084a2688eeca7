"""The penalty box: a client address whose WebSocket was closed as abusive waits before it
may open another.

Closing a flooding connection is not enough: the flooder reconnects at once, and every new
connection costs a handshake, a token check and a whole state.  So the connection's closing
puts its address (an IPv6 /64 as one, like the table quota) in the box for ``seconds``; its
WebSocket handshakes are refused meanwhile (HTTP 429 with ``Retry-After``), before any table
is looked at.  Behind a reverse proxy the address is the client's as a proxy named in
``forwarded_allow_ips`` forwards it (:mod:`bistrot.server.runner`), so one flooder never locks
out everyone behind the same proxy, and no other client escapes by naming another address.

>>> now = [0.0]
>>> box = PenaltyBox(60.0, clock=lambda: now[0])
>>> box.put("203.0.113.7")
>>> box.wait("203.0.113.7"), box.wait("198.51.100.1")
(60.0, 0.0)
>>> now[0] = 59.5
>>> box.wait("203.0.113.7")
0.5
>>> now[0] = 60.0
>>> box.wait("203.0.113.7"), len(box)
(0.0, 0)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from bistrot.server.quota import MAX_CLIENTS, client_key


class PenaltyBox:
    """Addresses that must wait, and until when; at most ``max_clients`` of them (the oldest
    sentence is dropped first).  ``seconds`` 0: nobody ever waits."""

    def __init__(
        self, seconds: float, *, clock: Callable[[], float] = time.monotonic, max_clients: int = MAX_CLIENTS
    ) -> None:
        self.seconds = seconds
        self.clock = clock
        self.max_clients = max_clients
        self._until: OrderedDict[str, float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._until)

    def put(self, host: str) -> None:
        """``host`` was abusive: it waits ``seconds`` from now."""
        if self.seconds <= 0:
            return
        key, now = client_key(host), self.clock()
        self._until.pop(key, None)
        self._until[key] = now + self.seconds
        # Every sentence is as long, so the oldest ends first: drop those over, then any excess.
        while next(iter(self._until.values())) <= now:
            self._until.popitem(last=False)
        while len(self._until) > self.max_clients:
            self._until.popitem(last=False)

    def wait(self, host: str) -> float:
        """Seconds ``host`` must still wait (0.0: it may connect)."""
        key = client_key(host)
        until = self._until.get(key)
        if until is None:
            return 0.0
        left = until - self.clock()
        if left <= 0:
            del self._until[key]
            return 0.0
        return left
