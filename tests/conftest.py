"""Markers of the whole suite (tests/lanes.py): tests that take a service's fixture are marked
with what they need, so that ``scripts/test --fast`` (``-m "not (browser or ...)"``) leaves them
out without each test having to say it twice."""

from __future__ import annotations

from pathlib import Path

import pytest

#: Fixture name -> the marker a test that takes it needs.
FIXTURE_MARKERS = {
    "postgres": "postgres",
    "redis_server": "redis",
    "browser": "browser",
    "pages": "browser",
}
BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        needed = {marker for fixture, marker in FIXTURE_MARKERS.items() if fixture in item.fixturenames}
        if BROWSER_TESTS in Path(item.path).parents:
            needed.add("browser")  # every test there drives Chromium or serves the page to it
        for marker in sorted(needed):
            item.add_marker(marker)
