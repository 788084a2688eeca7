"""Small ASGI middleware and logging guards: request body cap, access log without query strings,
and a filter that strips query strings (which carry tokens) from uvicorn's own log lines.

>>> _strip_query('"WebSocket /ws/abc?token=SECRET&since=3"')
'"WebSocket /ws/abc?…"'
"""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

Scope = dict[str, Any]
_QUERY = re.compile(r"\?[^\s\"']*")

access_log = logging.getLogger("bistrot.server.access")


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


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuses HTTP request bodies over ``max_bytes`` with ``413 too_large``."""

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
        seen = 0
        started = False

        async def limited_receive() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge
            return message

        async def tracking_send(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Any) -> None:
        body = json.dumps(
            {"code": "too_large", "message": f"a request body is at most {self.max_bytes} bytes"}
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body.encode()})


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
