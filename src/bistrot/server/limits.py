"""Connection limits below the app: a time limit for a request to arrive, and a cap on the open
TCP connections of one client address.

uvicorn bounds the idle time between keep-alive requests (``timeout_keep_alive``) and a silent
WebSocket (its pings), but nothing bounds how long a request takes to arrive: a client that
connects and sends nothing, trickles its headers or never finishes a WebSocket upgrade held its
socket for ever.  Nor does it count connections per client.  :func:`protocols` adds both as
subclasses of uvicorn's own protocol classes (``uvicorn.Config(http=..., ws=...)``), so a
connection counts from the moment it is made, before it has sent anything.

>>> count = ClientCount(2)
>>> count.admit("10.0.0.1"), count.admit("10.0.0.1"), count.admit("10.0.0.1")
(True, True, False)
>>> count.release("10.0.0.1")
>>> count.admit("10.0.0.1"), count.admit("10.0.0.2")
(True, True)
>>> ClientCount(0).admit("10.0.0.1")  # 0: no cap
True
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode

from bistrot.server.settings import Settings

log = logging.getLogger("bistrot.server.limits")


class ClientCount:
    """Open connections per client address, at most ``cap`` each (0: no cap)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: Counter[str] = Counter()

    def admit(self, host: str) -> bool:
        """Count one more connection from ``host``, or False (counting nothing) if it has ``cap``."""
        if self.cap and self.open[host] >= self.cap:
            return False
        self.open[host] += 1
        return True

    def release(self, host: str) -> None:
        """One connection from ``host`` closed."""
        self.open[host] -= 1
        if self.open[host] <= 0:
            del self.open[host]


def error_response(status: HTTPStatus, code: str, message: str) -> bytes:
    """A whole HTTP response with our error body, closing the connection.

    >>> error_response(HTTPStatus.REQUEST_TIMEOUT, "request_timeout", "too slow").split(b"\\r\\n")[0]
    b'HTTP/1.1 408 Request Timeout'
    """
    body = json.dumps({"code": code, "message": message}).encode()
    head = (
        f"HTTP/1.1 {status.value} {status.phrase}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


def protocols(
    settings: Settings, too_big: Callable[[str], None] | None = None
) -> tuple[type[HttpToolsProtocol], type[WebSocketsSansIOProtocol]]:
    """uvicorn's HTTP and WebSocket protocol classes with ``request_timeout_s`` and
    ``max_connections_per_client``; one count per call (per server).  ``too_big(address)`` is
    called as the WebSocket layer refuses a frame over ``abuse_message_bytes`` (close 1009): the
    app's abuse wait (:class:`~bistrot.server.penalty.PenaltyBox`), at once, whatever the app
    was doing (a hello awaited, a state being sent), before the client can connect again."""
    count = ClientCount(settings.max_connections_per_client)
    timeout = settings.request_timeout_s

    class LimitedWebSocket(WebSocketsSansIOProtocol):
        """Made only by :class:`LimitedHttp`'s upgrade, which hands it the connection and so the
        count: it releases it when the connection closes."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # websockets' debug lines show every frame, the hello's token among them (and the
            # upgrade request's query): never, whatever the log level.
            self.conn.debug = False

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            if self.client is not None:
                count.release(self.client[0])

        def data_received(self, data: bytes) -> None:
            refused_before = self.conn.close_sent is not None
            super().data_received(data)
            refused = self.conn.close_sent
            if too_big is None or refused_before or refused is None:
                return
            if refused.code != CloseCode.MESSAGE_TOO_BIG:
                return
            # The app's view of the client (behind a trusted proxy, the forwarded address).
            client = getattr(self, "scope", {}).get("client") or self.client
            if client:
                too_big(client[0])

        async def send(self, message: Any) -> None:
            await super().send(message)
            # uvicorn 0.54 never marks the handshake done after a denial response (HTTP 429 to an
            # address waiting after abuse), so it logs "ASGI callable returned without completing
            # handshake" at ERROR for every one: a flood of refusals became a flood of error
            # lines.  The fix proposed upstream (Kludex/uvicorn#3138), done here meanwhile.
            if message["type"] == "websocket.http.response.body" and not message.get("more_body", False):
                self.handshake_complete = True

    class LimitedHttp(HttpToolsProtocol):
        """Counts the connection, and closes it when a request does not arrive in time."""

        timer: asyncio.TimerHandle | None = None
        host: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client is not None else None
            if host is not None and not count.admit(host):
                log.debug("refused a connection from %s: %d open already", host, count.cap)
                self.transport.write(
                    error_response(
                        HTTPStatus.SERVICE_UNAVAILABLE,
                        "too_many_connections",
                        f"at most {count.cap} open connections from one address",
                    )
                )
                self.transport.close()
                return
            self.host = host
            self._arm()  # the first request's time runs from connecting: silence is no escape

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.host is not None:
                count.release(self.host)
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.timer is None:  # a later request on a kept-alive connection
                self._arm()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()
            self.host = None  # the connection, and its count, are LimitedWebSocket's now

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def _arm(self) -> None:
            self.timer = self.loop.call_later(timeout, self._expire)

        def _disarm(self) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

        def _expire(self) -> None:
            self.timer = None
            if self.transport.is_closing():
                return
            log.debug("closed a connection from %s: no whole request within %g s", self.host, timeout)
            cycle = self.cycle  # the request being answered, or the last one answered
            if cycle is None or cycle.response_complete or not cycle.response_started:
                self.transport.write(
                    error_response(
                        HTTPStatus.REQUEST_TIMEOUT,
                        "request_timeout",
                        f"a request must arrive whole within {timeout:g} s",
                    )
                )
            self.transport.close()

    return LimitedHttp, LimitedWebSocket
