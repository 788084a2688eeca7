from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import ErrorRecords, ThreadServer, make_settings


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ThreadServer]:
    """A server on make_settings, with a test's ``@pytest.mark.settings(name=value)`` (a table's
    pace is the server's setting, not the client's)."""
    marker = request.node.get_closest_marker("settings")
    with ThreadServer(make_settings(tmp_path, **(marker.kwargs if marker else {}))) as running:
        yield running


@pytest.fixture
def error_records() -> Iterator[ErrorRecords]:
    """Every record at error level or with a traceback logged while the test runs."""
    handler = ErrorRecords()
    loggers = [logging.getLogger(), logging.getLogger("uvicorn")]  # uvicorn's does not propagate
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
