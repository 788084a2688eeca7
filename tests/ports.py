"""Free loopback ports for the throwaway servers of the tests and benches."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A loopback port nobody listens on now (a server may still lose it to a race: callers
    that can, retry on another)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
