"""Small ASGI middleware and logging guards: security headers, request body cap, access log
without query strings, and a filter that strips query strings (which carry tokens) from
uvicorn's own log lines.

>>> _strip_query('"WebSocket /ws/abc?token=SECRET&since=3"')
'"WebSocket /ws/abc?…"'
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
_QUERY = re.compile(r"\?[^\s\"']*")

access_log = logging.getLogger("bistrot.server.access")
error_log = logging.getLogger("bistrot.server.errors")
#: The message of a 500 ``internal_error``: the request failed in a way no refusal foresaw.
INTERNAL_ERROR = "the server failed to answer this request (the cause is in its log); try again later"


def _strip_query(value: str) -> str:
    return _QUERY.sub("?…", value)


class RedactQueries(logging.Filter):
    """Rewrites any ``?query`` in a record's message and arguments to ``?…``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "?" in record.msg:
            record.msg = _strip_query(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                _strip_query(a) if isinstance(a, str) and "?" in a else a for a in record.args
            )
        return True


def redact_uvicorn_logs() -> None:
    """Put :class:`RedactQueries` on uvicorn's loggers (idempotent)."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactQueries) for f in logger.filters):
            logger.addFilter(RedactQueries())


#: The page's Content-Security-Policy: nothing but this server's own files.  ``'wasm-unsafe-eval'``
#: lets the offline worker compile Pyodide's WebAssembly (no JavaScript ``eval``); ``'self'`` in
#: ``connect-src`` also covers the page's WebSocket to the same host (ws: and wss:).  No inline
#: script or style: the page sets styles through the CSSOM only.
PAGE_CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "worker-src 'self'",
        "connect-src 'self'",
        "img-src 'self'",
        "style-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", PAGE_CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
"""The headers :class:`SecurityHeaders` adds to every response, the same for all.

>>> dict(SECURITY_HEADERS)[b"content-security-policy"].decode().split("; ")[:2]
["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"]
"""


async def send_error(send: Any, status: int, code: str, message: str) -> None:
    """Answer with the documented error body, ``{"code": ..., "message": ...}``, from ASGI."""
    body = json.dumps({"code": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (the app wraps its whole stack in it,
    so even a 500 carries them); a header the response sets itself is kept."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuses HTTP request bodies over ``max_bytes`` with ``413 too_large``: at once when the
    ``Content-Length`` says so, else (a chunked body) as soon as that many bytes have come.  The
    body, small, is read whole before the app sees it, so the refusal never depends on how the
    app reads it."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_bytes):
                await self._refuse(send)
                return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: the app will see it
                pending = [message]
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]
                break

        async def replay() -> Any:
            return pending.pop(0) if pending else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Any) -> None:
        await send_error(send, 413, "too_large", f"a request body is at most {self.max_bytes} bytes")


class Unexpected:
    """Answers an exception that nothing else handled with the documented error body, 500
    ``internal_error``, logged here once with its traceback (and the path, never the query).
    Without it Starlette answered a plain-text 500 and uvicorn logged the traceback again.  Put
    inside :class:`AccessLog`, so that the access line shows the 500."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception:
            error_log.exception("%s %s failed", scope["method"], scope["path"])
            if started:  # too late for an answer: the client sees the connection close
                return
            await send_error(send, 500, "internal_error", INTERNAL_ERROR)


class AccessLog:
    """Logs ``METHOD /path status ms`` for each HTTP request: the path only, never the query."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def capture(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, capture)
        finally:
            access_log.info(
                "%s %s %d %.1fms",
                scope["method"],
                scope["path"],
                status,
                (time.perf_counter() - start) * 1000,
            )
