"""A server and a way to read its store's rows, on SQLite or on a throwaway PostgreSQL: the rooms
of the tests of what players own across tables (profiles, the lobby).  The ``room`` fixture
(tests/server/conftest.py) makes one on each; a module using it loads the PostgreSQL fixture
with ``pytest_plugins = ["tests.postgres_server"]``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import httpx
import psycopg
from server_harness import ThreadServer


class Room:
    """A running server and a way to read its store's rows (SQL for either backend)."""

    def __init__(self, server: ThreadServer, rows: Any) -> None:
        self.server = server
        self.url = server.url
        self.rows = rows


def sqlite_rows(db: Path) -> Any:
    def rows(sql: str) -> list[tuple[Any, ...]]:
        with sqlite3.connect(db) as conn:
            return list(conn.execute(sql))

    return rows


def postgres_rows(url: str) -> Any:
    def rows(sql: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(url) as conn:
            return list(conn.execute(sql))  # type: ignore[arg-type]

    return rows


def make(client: httpx.Client, name: str = "Ama") -> dict[str, Any]:
    answer = client.post("/api/profiles", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()
