"""Fixtures of the real-browser tests: a real ``bistrot serve`` and Debian's headless Chromium.

See browser_kit.py for the server runner and helpers, and docs/web.md for how to run them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import sync_playwright

from tests.lanes import starting

from .browser_kit import CHROMIUM, CHROMIUM_ARGS, Pages, Server, free_port, missing_browser


# Package scope, not session: Playwright's sync API keeps an asyncio loop running in the main
# thread while it is open, and the tests after this package call asyncio.run().
@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("room") / "room.db")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def own_server(tmp_path: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of the test's own, on a fixed port: the test stops and starts it (a drop)."""
    srv = Server(tmp_path / "room.db", port=free_port())
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    missing = missing_browser()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(missing)
        pytest.skip(missing)
    starting("browser", "Chromium")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def pages(browser: object) -> Iterator[Pages]:
    opened = Pages(browser)
    try:
        yield opened
    finally:
        opened.close()
    assert not opened.errors, f"JavaScript errors on the page: {opened.errors}"
    assert not opened.csp, f"Content-Security-Policy violations: {opened.csp}"
