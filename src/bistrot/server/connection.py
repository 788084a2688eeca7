"""One WebSocket connection: who it is, what it may send, and the queue of what it is sent.

A browser page of another site may not connect (:func:`origin_allowed`; refused before the
handshake completes, HTTP 403).  The client says who it is with its first message, a ``hello``
carrying its token (:func:`parse_hello`; the page's way), or, for scripts, with the handshake's
header ``Authorization: Bearer <token>`` (:func:`bearer_token`); without either within
``auth_timeout_s`` it is closed.  A token in the URL (``?token=``) is refused, never read: URLs
end up in proxies' access logs and browsers' histories.  Later messages pass, in order: the rate
limit, for every message whatever its size or content (``rate_limited``; strikes pile up and are
forgotten over time, and too many close the connection as abusive), UTF-8 (``bad_message``), the size cap
(``too_large``), the parser (``bad_json``, ``bad_message``, ``unknown_type``, ``bad_id``),
then the connection's rights (``spectator``, ``not_your_seat``) before an action reaches the
table's actor.  Outgoing messages wait in a queue drained by one sender task, so the table never
waits for a slow client; a client that falls too far behind is disconnected and resyncs with
``since`` (ASCII digits only: :func:`parse_since`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import time
from collections.abc import Mapping
from typing import Any

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from bistrot.server.metrics import LatencyWindow
from bistrot.server.penalty import PenaltyBox
from bistrot.server.ratelimit import Guard
from bistrot.server.room import Room
from bistrot.server.settings import Settings
from bistrot.server.table import TableHandle
from bistrot.tablecore.errors import TableError
from bistrot.wire import MAX_DEPTH, BadMessage, dumps, loads, peek_id, reject, too_deep

log = logging.getLogger("bistrot.server.connection")

CLOSE_UNAUTHORIZED = 4401
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_TOO_SLOW = 4408
CLOSE_ABUSE = 1008
CLOSE_TOO_BIG = 1009
CLOSE_FORBIDDEN_ORIGIN = 4403
#: ``since``: ASCII digits only (``str.isdigit`` also takes ``²`` or ``①``), at most 9 of them.
_SINCE = re.compile(r"[0-9]{1,9}")
HELLO_FIELDS = ("type", "token", "since")


TOKEN_IN_URL = (
    "a token never goes in a URL (proxies and browsers keep URLs): send it in the first message,"
    ' {"type": "hello", "token": "..."}, or as the header Authorization: Bearer <token>'
)


def bearer_token(header: str) -> str:
    """The token of a handshake's ``Authorization`` header: ``Bearer <token>``.

    >>> bearer_token("Bearer abc")
    'abc'
    >>> bearer_token("Basic abc")
    Traceback (most recent call last):
    ...
    bistrot.wire.BadMessage: bad_authorization: use the header "Authorization: Bearer <token>"
    """
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise BadMessage("bad_authorization", 'use the header "Authorization: Bearer <token>"')
    return token


def parse_since(value: object) -> int | None:
    """The ``since`` of a connection's query (a text) or hello (a text or a JSON whole number),
    or None if absent; ValueError if malformed.

    >>> parse_since("12"), parse_since(12), parse_since(None)
    (12, 12, None)
    >>> for bad in ("", "-1", "²", "①", "1e3", "0x10", " 1", "1234567890", -1, 1.0, True, [1]):
    ...     try:
    ...         parse_since(bad)
    ...     except ValueError:
    ...         pass
    ...     else:
    ...         print("accepted", bad)
    """
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # the same digits rule for both forms
    if not isinstance(value, str) or not _SINCE.fullmatch(value):
        raise ValueError(value)
    return int(value)


def frame_text(message: Mapping[str, Any]) -> str:
    """The text of a received WebSocket frame, text or binary; :class:`BadMessage`
    ``bad_message`` if a binary one is not UTF-8.

    >>> frame_text({"text": "hi"}), frame_text({"bytes": b"hi"})
    ('hi', 'hi')
    """
    text: str | None = message.get("text")
    if text is not None:
        return text
    try:
        return bytes(message.get("bytes") or b"").decode()
    except UnicodeDecodeError:
        raise BadMessage("bad_message", "messages are UTF-8 JSON text") from None


def parse_hello(text: str) -> tuple[str, object]:
    """The token and the raw ``since`` of a first message ``{"type": "hello", "token": ...,
    "since": n}`` (``since`` is checked later by :func:`parse_since`, as the query's is);
    :class:`BadMessage` names what is wrong.

    >>> parse_hello('{"type": "hello", "token": "abc", "since": 3}')
    ('abc', 3)
    >>> parse_hello('{"type": "act", "id": 1, "action": "play TH"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bistrot.wire.BadMessage: expected_hello: the first message must be {"type": "hello", ...
    >>> parse_hello('{"type": "hello"}')
    Traceback (most recent call last):
    ...
    bistrot.wire.BadMessage: missing_token: the hello has no "token": your seat token or the watch key
    """
    try:
        data = loads(text)
    except BadMessage as err:
        if err.code == "too_deep":  # abuse, not a mistake: the caller closes for it
            raise
        data = None
    if not isinstance(data, dict) or data.get("type") != "hello":
        raise BadMessage(
            "expected_hello",
            'the first message must be {"type": "hello", "token": "<your seat token or the watch key>"}'
            " (or connect with the header Authorization: Bearer <token>)",
        )
    unknown = sorted(str(key)[:20] for key in data if key not in HELLO_FIELDS)
    if unknown:
        raise BadMessage("bad_message", f"the hello has unknown fields: {', '.join(unknown)}")
    token = data.get("token")
    if token is None or token == "":
        raise BadMessage("missing_token", 'the hello has no "token": your seat token or the watch key')
    if not isinstance(token, str):
        raise BadMessage("bad_message", 'the hello\'s "token" is a text')
    return token, data.get("since")


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """May a connection with this ``Origin`` header open a WebSocket?  Yes without one (scripts,
    other programs: browsers always send it), for the page's own origin (the request's ``Host``)
    and for the origins of the ``allowed_origins`` setting.

    >>> origin_allowed(None, "cards.example", ())
    True
    >>> origin_allowed("https://cards.example", "cards.example", ())
    True
    >>> origin_allowed("https://evil.example", "cards.example", ())
    False
    >>> origin_allowed("null", "cards.example", ())
    False
    >>> origin_allowed("https://friend.example", "cards.example", ("https://friend.example",))
    True
    """
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in allowed:
        return True
    if not host:
        return False
    host = host.strip().lower()
    return origin in (f"http://{host}", f"https://{host}")


class WsConnection:
    """See the module docstring."""

    def __init__(self, websocket: WebSocket, settings: Settings, penalties: PenaltyBox) -> None:
        self.ws = websocket
        self.settings = settings
        self.penalties = penalties
        self.guard = Guard(
            settings.rate_burst, settings.rate_per_s, settings.abuse_strikes, settings.abuse_forget_per_s
        )
        self.closing = False
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self._latency: LatencyWindow | None = None

    # ------------------------------------------------------------------ sending

    def deliver(self, text: str) -> None:
        """Queue a text for the client (the fan-out calls this)."""
        if self.closing:
            return
        if self._queue.qsize() >= self.settings.send_queue_limit:
            self.close(CLOSE_TOO_SLOW, "too slow: reconnect with since")
            return
        self._queue.put_nowait(text)

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the client."""
        self.deliver(dumps(message))

    async def _send_loop(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                await self.ws.send_text(text)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client is gone; the reader will see it
            self.closing = True

    def close(self, code: int, reason: str) -> None:
        """Close the connection (abuse, or a client too slow to keep up)."""
        if self.closing:
            return
        self.closing = True
        log.info("closing a connection: %s", reason)
        self._closer = asyncio.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        if self._sender is not None:
            self._sender.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    # ------------------------------------------------------------------ the whole life

    async def serve(self, room: Room, table_id: str) -> None:
        """Accept, identify, bring up to date, then read messages until the client leaves."""
        ws = self.ws
        self._latency = room.act_latency
        origin, host = ws.headers.get("origin"), ws.headers.get("host")
        if not origin_allowed(origin, host, self.settings.allowed_origins):
            log.info("refused a WebSocket from another site's page")
            await ws.close(CLOSE_FORBIDDEN_ORIGIN, "forbidden_origin")  # before accept: HTTP 403
            return
        wait = self.penalties.wait(ws.client.host) if ws.client is not None else 0.0
        if wait > 0:
            # Refused before anything else costs: no accept, no table, no state.
            log.debug("refused a WebSocket: its address waits %.0f s more after abuse", wait)
            await ws.send_denial_response(
                JSONResponse(
                    {"code": "abuse_wait", "message": f"too many messages before: wait {math.ceil(wait)} s"},
                    status_code=429,
                    headers={"Retry-After": str(math.ceil(wait))},
                )
            )
            return
        await ws.accept()
        try:
            table = await room.handle(table_id)
        except TableError as err:  # broken_table (closed 4500), storage_error, table_moving (4503)
            await self._refuse(err.code, err.message, 4000 + err.status)
            return
        if table is None:
            await self._refuse("unknown_table", "there is no table with this id", CLOSE_UNKNOWN_TABLE)
            return
        credentials = await self._credentials()
        if credentials is None:
            return
        token, raw_since = credentials
        if not token:
            await self._refuse(
                "missing_token",
                'send {"type": "hello", "token": "<your seat token or the watch key>"} first,'
                " or connect with the header Authorization: Bearer <token>",
                CLOSE_UNAUTHORIZED,
            )
            return
        try:
            who = await table.admit(token)
        except TableError as err:  # its node did not answer (4503): the client tries again
            await self._refuse(err.code, err.message, 4000 + err.status)
            return
        if who is None:
            await self._refuse(
                "bad_token",
                "this token holds no seat at this table and is not its watch key",
                CLOSE_UNAUTHORIZED,
            )
            return
        try:
            since = parse_since(raw_since)
        except ValueError:
            since = None
            self.send(
                reject(None, "bad_since", "since is the last seq seen, a whole number; sending a fresh state")
            )
        self._sender = asyncio.create_task(self._send_loop())
        try:
            await table.connect(self, who, since)
        except TableError as err:  # too_many_connections (4429), busy, table_moving (4503)...
            await self._finish()
            await self._refuse(err.code, err.message, 4000 + err.status)
            return
        try:
            await self._read_loop(table, who)
        finally:
            with contextlib.suppress(TableError):
                await table.disconnect(self, who)
            await self._finish()

    async def _credentials(self) -> tuple[str, object] | None:
        """The token and raw ``since``: the ``Authorization`` header's token and the query's
        ``since`` if the handshake has that header, else the hello's (the first message, within
        ``auth_timeout_s``).  None: refused, or the client left."""
        query = self.ws.query_params
        if "token" in query:
            await self._refuse("token_in_url", TOKEN_IN_URL, CLOSE_UNAUTHORIZED)
            return None
        header = self.ws.headers.get("authorization")
        if header is not None:
            try:
                return bearer_token(header), query.get("since")
            except BadMessage as err:
                await self._refuse(err.code, err.message, CLOSE_UNAUTHORIZED)
                return None
        wait = self.settings.auth_timeout_s
        try:
            message = await asyncio.wait_for(self.ws.receive(), wait)
        except TimeoutError:
            await self._refuse(
                "auth_timeout", f'no {{"type": "hello", "token": ...}} within {wait:g} s', CLOSE_UNAUTHORIZED
            )
            return None
        if message["type"] == "websocket.disconnect":
            return None
        try:
            text = frame_text(message)
            if len(text.encode()) > self.settings.max_message_bytes:
                raise BadMessage("too_large", f"a message is at most {self.settings.max_message_bytes} bytes")
            return parse_hello(text)
        except BadMessage as err:
            if err.code == "too_deep":
                await self._abuse(err.code, err.message)
            else:
                await self._refuse(err.code, err.message, CLOSE_UNAUTHORIZED)
        return None

    def _penalise(self) -> None:
        if self.ws.client is not None:
            self.penalties.put(self.ws.client.host)

    async def _abuse(self, code: str, message: str) -> None:
        """Refuse a message that only an attacker sends (``code``), close the connection as
        abusive (1008) and hold its address back (``abuse_wait_s``)."""
        self._penalise()
        self.closing = True
        await self._finish()  # the sender stops first: the refusal is the last message
        log.info("closing a connection: abuse: %s", code)
        await self._refuse(code, message, CLOSE_ABUSE)

    async def _refuse(self, code: str, message: str, close_code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send_text(dumps(reject(None, code, message)))
            await self.ws.close(close_code, code)

    async def _finish(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender

    async def _read_loop(self, table: TableHandle, who: int | str) -> None:
        while not self.closing:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return  # (a frame over the abuse cap: the WebSocket layer put it in the box)
            # The rate limit is this host's, and comes first for every message, whatever its
            # size or content; the size cap, the parser and the seat's rights are the table
            # core's, the same on the player's device.
            verdict = self.guard.admit()
            if verdict == "close":
                self._penalise()
                self.close(CLOSE_ABUSE, "abuse: too many messages over the rate limit")
                return
            if verdict == "limited":
                cap = self.settings.max_message_bytes  # only the head: its id is all we need
                raw: str | bytes = message.get("text") or message.get("bytes") or b""
                head = raw[:cap] if isinstance(raw, str) else raw[:cap].decode(errors="replace")
                self.send(
                    reject(
                        peek_id(head),
                        "rate_limited",
                        f"slow down: at most {self.settings.rate_per_s:g} messages a second",
                    )
                )
                continue
            try:
                text = frame_text(message)
            except BadMessage as err:
                self.send(reject(None, err.code, err.message))
                continue
            # Over the size cap the table core refuses it unread; within it, nesting no client
            # sends is abuse (json.loads would recurse into a RecursionError).
            if len(text) <= self.settings.max_message_bytes and too_deep(text):
                await self._abuse("too_deep", f"a message nests at most {MAX_DEPTH} arrays or objects")
                return
            await self._handle(text, table, who)

    async def _handle(self, text: str, table: TableHandle, who: int | str) -> None:
        started = time.perf_counter()
        try:
            await table.receive(self, who, text, self.send)
        except TableError as err:
            self.send(reject(peek_id(text), err.code, err.message))
            return
        if self._latency is not None:
            self._latency.record(time.perf_counter() - started)
