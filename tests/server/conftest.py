from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest
from server_harness import AllRecords, ErrorRecords, ProcessServer, ThreadServer, make_settings
from store_rooms import Room, postgres_rows, sqlite_rows

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

H = TypeVar("H", bound=logging.Handler)
_databases = itertools.count()
#: How much of each server process's output a failed test's report shows.
OUTPUT_LINES = 80


@pytest.fixture(autouse=True)
def _forget_processes() -> Iterator[None]:
    ProcessServer.started.clear()
    yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    """A failed test's report ends with what each ``bistrot serve`` it started printed (a node's
    warnings say why it refused: a lease lost, another node silent)."""
    report = yield
    if report.when == "call" and report.failed:
        for n, process in enumerate(ProcessServer.started):
            tail = "".join(process.output[-OUTPUT_LINES:])
            report.sections.append((f"bistrot serve #{n} ({process.url or 'not started'})", tail))
    return report


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


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def room(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Room]:
    """A server on SQLite, then on PostgreSQL (the ``settings`` marker applies to both)."""
    marker = request.node.get_closest_marker("settings")
    overrides = dict(marker.kwargs if marker else {})
    if request.param == "postgres":
        postgres: PostgresServer = request.getfixturevalue("postgres")
        url = postgres.create_database(f"room_{next(_databases)}_{tmp_path.name[-12:].lower()}")
        overrides["database_url"] = url
        rows = postgres_rows(url)
    else:
        rows = sqlite_rows(tmp_path / "room.db")
    with ThreadServer(make_settings(tmp_path, **overrides)) as server:
        yield Room(server, rows)
