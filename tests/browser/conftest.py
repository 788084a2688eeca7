"""Fixtures of the real-browser tests: a real ``bistrot serve`` and Debian's headless Chromium.

See browser_kit.py for the server runner and helpers, and docs/web.md for how to run them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

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


#: Set on a test whose call failed: its pages are photographed before they close.
FAILED = pytest.StashKey[bool]()
FAILURES = Path(__file__).resolve().parents[2] / "test-artifacts" / "failures"
#: How much of each server's output a failed test's report shows.
OUTPUT_LINES = 80


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    """A failed test's pages are photographed (``pages``), and its report ends with where each
    page was and what it said, and what each running ``bistrot serve`` printed last: a rare
    failure is read from these."""
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
        opened = getattr(item, "funcargs", {}).get("pages")
        if isinstance(opened, Pages):
            report.sections.append(("pages", opened.describe()))
        for n, server in enumerate(Server.running):
            tail = "".join(server.output[-OUTPUT_LINES:])
            report.sections.append((f"bistrot serve #{n} ({server.base})", tail))
    return report


@pytest.fixture
def pages(browser: object, request: pytest.FixtureRequest) -> Iterator[Pages]:
    opened = Pages(browser)
    try:
        yield opened
    finally:
        if request.node.stash.get(FAILED, False):
            # What each page showed when the test failed: a rare failure is read from these.
            FAILURES.mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)[-150:]
            for i, context in enumerate(opened.contexts):
                for j, page in enumerate(context.pages):
                    try:
                        page.screenshot(path=str(FAILURES / f"{name}-{i}-{j}.png"), timeout=5000)
                    except Exception as error:  # (a closed or hung page: the others still)
                        print(f"no screenshot of page {i}-{j}: {error}")
        opened.close()
    assert not opened.errors, f"JavaScript errors on the page: {opened.errors}"
    assert not opened.csp, f"Content-Security-Policy violations: {opened.csp}"
