"""A server and a way to read its store's rows, on SQLite or on a throwaway PostgreSQL: the rooms
of the tests of what players own across tables (profiles, the lobby, ratings).  The ``room`` fixture
(tests/server/conftest.py) makes one on each; a module using it loads the PostgreSQL fixture
with ``pytest_plugins = ["tests.postgres_server"]``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import psycopg
from openskill.models import PlackettLuce
from server_harness import ThreadServer

from bistrot.server.ratings import ANCHORS


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


def replayed(room: Any, game: str) -> dict[str, tuple[float, float, int]]:
    """Every rating of ``game``, computed again with openskill from the stored results alone."""
    model = PlackettLuce()
    ratings: dict[str, tuple[float, float, int]] = {}
    stored = room.rows(
        f"SELECT table_id, at, places FROM rated_games WHERE game = '{game}' ORDER BY at, table_id"
    )
    for _table, _at, places in stored:
        seats = json.loads(places) if isinstance(places, str) else places
        teams: dict[int, list[dict[str, Any]]] = {}
        for seat in seats:
            teams.setdefault(seat["team"], []).append(seat)
        order = sorted(teams)
        rated_teams = []
        for team in order:
            members = []
            for seat in teams[team]:
                if seat["profile"] is None:
                    mu, sigma = ANCHORS[game][seat["level"]]
                else:
                    mu, sigma, _ = ratings.get(seat["profile"], (model.mu, model.sigma, 0))
                members.append(model.rating(mu=mu, sigma=sigma))
            rated_teams.append(members)
        ranks = [min(seat["place"] for seat in teams[team]) for team in order]
        for team, new_team in zip(order, model.rate(rated_teams, ranks=ranks), strict=True):
            for seat, new in zip(teams[team], new_team, strict=True):
                if seat["profile"] is not None:
                    games = ratings.get(seat["profile"], (0, 0, 0))[2]
                    ratings[seat["profile"]] = (new.mu, new.sigma, games + 1)
    return ratings
