"""Markers of the whole suite (tests/lanes.py): tests that take a service's fixture are marked
with what they need, so that ``scripts/test --fast`` (``-m "not (browser or ...)"``) leaves them
out without each test having to say it twice."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# No per-example deadline anywhere: speed is measured in bench/, never by timing inside tests,
# and on a shared 2-core machine a loaded moment made a 0.2 s deadline fail an exact-arithmetic
# property (test_analysis_oti, 282 ms at load 8).  A test's own @settings still wins.
settings.register_profile("bistrot", deadline=None)
settings.load_profile("bistrot")

#: Fixture name -> the marker a test that takes it needs.
FIXTURE_MARKERS = {
    "postgres": "postgres",
    "redis_server": "redis",
    "browser": "browser",
    "pages": "browser",
}
#: Folder -> the marker of every test in it.
FOLDER_MARKERS = {
    Path(__file__).parent / "browser": "browser",  # each drives Chromium or serves the page to it
    Path(__file__).parent / "server": "server",  # each runs the card room's server, or its storage
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        needed = {marker for fixture, marker in FIXTURE_MARKERS.items() if fixture in item.fixturenames}
        needed |= {marker for folder, marker in FOLDER_MARKERS.items() if folder in Path(item.path).parents}
        for marker in sorted(needed):
            item.add_marker(marker)
