"""Invite links a friend's phone can open: the public address, else the machine's network
address, else a word that the link works on this computer only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bistrot.server.sharing import network_address

from .browser_kit import Server, shot


def friends_lobby_link(page, base: str) -> str:
    page.goto(base + "/play/omi?mode=friends")
    page.wait_for_selector("[data-testid=join-link]")
    return page.locator("[data-testid=join-link]").input_value()


@pytest.fixture
def started(tmp_path: Path) -> Iterator[list[Server]]:
    servers: list[Server] = []
    yield servers
    for server in servers:
        server.stop()


def run(started: list[Server], tmp_path: Path, **options) -> Server:
    server = Server(tmp_path / f"room{len(started)}.db", **options)
    server.start()
    started.append(server)
    return server


def test_on_loopback_the_lobby_says_the_link_works_here_only(server, pages):
    page = pages.new()
    link = friends_lobby_link(page, server.base)
    assert link.startswith(server.base + "/join/")
    note = page.locator("[data-testid=share-local-only]")
    assert note.is_visible() and "--host 0.0.0.0" in note.inner_text() and "--public-url" in note.inner_text()
    shot(page, "share-local-only")


def test_links_use_the_public_url(started, tmp_path, pages):
    server = run(started, tmp_path, extra=("--public-url", "https://Cards.Example:8443/"))
    page = pages.new()
    link = friends_lobby_link(page, server.base)
    assert link.startswith("https://cards.example:8443/join/")
    assert page.locator("[data-testid=share-local-only]").count() == 0


def test_listening_on_every_interface_links_use_the_network_address(started, tmp_path, pages):
    server = run(started, tmp_path, host="0.0.0.0")
    page = pages.new()
    link = friends_lobby_link(page, server.base)  # opened at 127.0.0.1, as on the machine itself
    network = network_address()
    if network is None:  # a machine without a network: the link can only work here, and says so
        assert link.startswith(server.base) and page.locator("[data-testid=share-local-only]").count() == 1
    else:
        assert link.startswith(f"http://{network}:{server.port}/join/")
        assert page.locator("[data-testid=share-local-only]").count() == 0
