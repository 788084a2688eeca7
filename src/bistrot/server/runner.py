"""Running the app under uvicorn: one place for the server options the protocol relies on.

The WebSocket layer refuses frames over ``abuse_message_bytes`` (closing with 1009), access
logs are ours (paths only, see :mod:`bistrot.server.middleware`), requests must arrive in time
and each client address may hold only so many connections (:mod:`bistrot.server.limits`), and
the listening socket is bound before uvicorn starts so that port 0 works and the real address
can be printed.

>>> sock = bind("127.0.0.1", 0)
>>> address(sock).startswith("http://127.0.0.1:")
True
>>> sock.close()
"""

from __future__ import annotations

import gc
import socket
from typing import Any

import uvicorn

from bistrot.server.limits import protocols
from bistrot.server.settings import Settings


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket) -> str:
    """The URL to open for a socket from :func:`bind`."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def tune_gc(young: int = 10_000) -> None:
    """Fewer, cheaper garbage collections for a long-running server.

    Everything alive once the server has started (modules, recovered tables) is moved out of
    the collector's sight (``gc.freeze``), and the youngest generation is collected every
    ``young`` allocations instead of 700: the full collections that scanned every object were
    the longest pauses in the load benchmark.
    """
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, old)


def uvicorn_server(app: Any, settings: Settings, log_level: str = "info") -> uvicorn.Server:
    """A uvicorn server for ``app`` with the options the protocol needs."""
    penalties = getattr(getattr(app, "state", None), "penalties", None)  # create_app's
    http, ws = protocols(settings, None if penalties is None else penalties.put)
    config = uvicorn.Config(
        app,
        http=http,
        ws=ws,
        log_level=log_level,
        access_log=False,
        # X-Forwarded-For only from the proxies named (uvicorn believes 127.0.0.1 by default,
        # so from loopback a header escaped the table quota and the abuse wait).
        proxy_headers=bool(settings.forwarded_allow_ips.strip()),
        forwarded_allow_ips=settings.forwarded_allow_ips or None,
        ws_max_size=settings.abuse_message_bytes,
        ws_per_message_deflate=settings.ws_deflate,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        lifespan="on",
        timeout_graceful_shutdown=5,
        backlog=2048,
    )
    return uvicorn.Server(config)
