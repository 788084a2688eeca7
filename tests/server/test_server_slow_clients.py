"""Slow and greedy clients (hardening issue, item 7): a connection that sends nothing, trickles
its headers or never finishes its WebSocket upgrade is closed after ``request_timeout_s``; a
WebSocket that never says who it is, after ``auth_timeout_s``; one client address holds at most
``max_connections_per_client`` connections, half-open ones included.

Raw sockets against a real server on loopback.  The only timing asserted is "closed before a
generous deadline": each test sets its limit to 1 s and allows 15.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import Client, ThreadServer, make_settings, open_table, settle
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

LIMIT_S = 1.0
DEADLINE_S = 15.0  # far more than LIMIT_S: a noisy machine must not make these fail


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[ThreadServer]:
    """A server whose requests and hellos must come within a second."""
    settings = make_settings(tmp_path, request_timeout_s=LIMIT_S, auth_timeout_s=LIMIT_S)
    with ThreadServer(settings) as running:
        yield running


def _raw(server: ThreadServer) -> socket.socket:
    host, port = server.sock.getsockname()[:2]
    sock = socket.create_connection((host, port), timeout=DEADLINE_S)
    return sock


def _until_closed(sock: socket.socket, trickle: bytes = b"") -> bytes:
    """Everything the server sends until it closes the connection, sending ``trickle`` a byte at
    a time meanwhile (one byte whenever the server has been quiet for 0.2 s); fails if the
    connection is still open after DEADLINE_S."""
    received = b""
    deadline = time.monotonic() + DEADLINE_S
    pending = trickle
    while time.monotonic() < deadline:
        if pending:
            with contextlib.suppress(OSError):  # the server may have closed already
                sock.sendall(pending[:1])
            pending = pending[1:]
        sock.settimeout(0.2 if pending else max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    raise AssertionError(f"the connection is still open after {DEADLINE_S} s; got {received!r}")


def _request_timeout(answer: bytes) -> None:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), answer
    assert json.loads(body)["code"] == "request_timeout"


def test_a_connection_that_sends_nothing_is_closed(quick: ThreadServer):
    with _raw(quick) as sock:
        _request_timeout(_until_closed(sock))


def test_trickled_headers_are_closed(quick: ThreadServer):
    # Half a request, a byte every 0.2 s: each byte used to reset nothing but the idle timer.
    half = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 200
    with _raw(quick) as sock:
        _request_timeout(_until_closed(sock, trickle=half))


def test_a_trickled_body_is_closed(quick: ThreadServer):
    head = b"POST /api/tables HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    with _raw(quick) as sock:
        sock.sendall(head + b"Content-Length: 100\r\n\r\n{")
        _request_timeout(_until_closed(sock, trickle=b'"game": "omi"' * 5))


def test_an_unfinished_websocket_upgrade_is_closed(quick: ThreadServer):
    upgrade = (
        b"GET /ws/some-table HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    )  # ... and never the blank line that ends it
    with _raw(quick) as sock:
        sock.sendall(upgrade)
        _request_timeout(_until_closed(sock))


def test_the_time_limit_spares_websockets_and_kept_alive_connections(quick: ThreadServer):
    table = open_table(quick.url, mode="hotseat")
    with Client(quick.url, table["table"], table["seats"][0]["token"]) as player, _raw(quick) as sock:
        player.recv()
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        sock.settimeout(DEADLINE_S)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
        # A second socket, opened after both, is closed for its silence: by then the limit has
        # run out for the first two as well, which must still work.
        with _raw(quick) as silent:
            _request_timeout(_until_closed(silent))
        settle(player)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert _until_closed(sock).startswith(b"HTTP/1.1 200 ")


def test_a_websocket_that_never_says_hello_is_closed(quick: ThreadServer):
    table = open_table(quick.url, mode="hotseat")
    url = quick.url.replace("http://", "ws://") + f"/ws/{table['table']}"
    with connect(url, open_timeout=DEADLINE_S) as ws:
        answer = json.loads(ws.recv(DEADLINE_S))
        assert answer["type"] == "reject" and answer["code"] == "auth_timeout", answer
        with pytest.raises(ConnectionClosed):
            ws.recv(DEADLINE_S)
        assert ws.close_code == 4401 and ws.close_reason == "auth_timeout"


# ---------------------------------------------------------------------- connections per address


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[ThreadServer]:
    """At most 3 connections from one address (the test's, 127.0.0.1)."""
    with ThreadServer(make_settings(tmp_path, max_connections_per_client=3)) as running:
        yield running


def _served(sock: socket.socket, close: bool = False) -> bytes:
    """Send a request on ``sock`` and return the answer's head (all of it when ``close``)."""
    sock.sendall(
        b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n"
        + (b"Connection: close\r\n" if close else b"")
        + b"\r\n"
    )
    if close:
        return _until_closed(sock)
    sock.settimeout(DEADLINE_S)
    return sock.recv(65536)


def test_connections_over_the_cap_are_refused_at_once(capped: ThreadServer):
    table = open_table(capped.url, mode="hotseat")
    with contextlib.ExitStack() as stack:
        player = stack.enter_context(Client(capped.url, table["table"], table["seats"][0]["token"]))
        player.recv()
        idle = stack.enter_context(_raw(capped))  # sends nothing: it counts all the same
        served = stack.enter_context(_raw(capped))
        assert _served(served).startswith(b"HTTP/1.1 200 ")
        with _raw(capped) as extra:  # the fourth
            answer = _until_closed(extra)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503 "), answer
        assert json.loads(body)["code"] == "too_many_connections"
        assert "3" in json.loads(body)["message"]
        settle(player)  # the others are untouched
        assert _served(served).startswith(b"HTTP/1.1 200 ")
        # One of the three is closed by the server (so its count is gone before we see EOF):
        # a new connection is let in, and the cap holds again after it.
        assert _served(served, close=True).startswith(b"HTTP/1.1 200 ")
        with _raw(capped) as again:
            assert _served(again).startswith(b"HTTP/1.1 200 ")
            with _raw(capped) as over:
                assert _until_closed(over).startswith(b"HTTP/1.1 503 ")
        del idle


def test_no_cap_with_zero(tmp_path: Path):
    settings = make_settings(tmp_path, max_connections_per_client=0, request_timeout_s=60)
    with ThreadServer(settings) as running, contextlib.ExitStack() as stack:
        socks = [stack.enter_context(_raw(running)) for _ in range(200)]
        assert all(_served(sock).startswith(b"HTTP/1.1 200 ") for sock in socks)
