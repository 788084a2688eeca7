from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from server_harness import AllRecords, ErrorRecords, ThreadServer, make_settings

H = TypeVar("H", bound=logging.Handler)


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ThreadServer]:
    """A server on make_settings, with a test's ``@pytest.mark.settings(name=value)`` (a table's
    pace is the server's setting, not the client's)."""
    marker = request.node.get_closest_marker("settings")
    with ThreadServer(make_settings(tmp_path, **(marker.kwargs if marker else {}))) as running:
        yield running


def _listening(handler: H) -> Iterator[H]:
    loggers = [logging.getLogger(), logging.getLogger("uvicorn")]  # uvicorn's does not propagate
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


@pytest.fixture
def error_records() -> Iterator[ErrorRecords]:
    """Every record at error level or with a traceback logged while the test runs."""
    yield from _listening(ErrorRecords())


@pytest.fixture
def all_records() -> Iterator[AllRecords]:
    """Every record logged while the test runs."""
    yield from _listening(AllRecords())
