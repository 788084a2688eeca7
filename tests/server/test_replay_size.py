"""A replay stays small, is built once, and is limited per address (issue 37, item 10).

An attacker builds a long match (hot seat, thousands of actions) and asks for its replay, which
needs no token: before, each step carried the whole view (the match's history of hands again at
every step: 42 MB for 4,488 actions), built anew for every request, without a limit."""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path

import pytest
from server_harness import ThreadServer, http, make_settings

from bistrot.server.replays import ReplayCache
from bistrot.server.sqlite import SQLiteStorage
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.records import StoredTable
from bistrot.tablecore.replay import replay_views
from tests.long_tables import finished_omi


def store(db: str, stored: StoredTable) -> None:
    """Put a finished table in the store the server will open, as if it had been played there."""

    async def put() -> None:
        storage = SQLiteStorage(db)
        await storage.start()
        try:
            table = stored.table
            events, status, result, seq = stored.events, table.status, table.result, table.seq
            table.seq, table.status, table.result = 0, "playing", None
            await storage.create_table(table, stored.seats)
            await storage.append(table.id, events, status, result)
            table.seq, table.status, table.result = seq, status, result
        finally:
            await storage.close()

    asyncio.run(put())


@pytest.mark.server
@pytest.mark.slow
def test_a_long_match_s_replay_is_small_built_once_and_limited(tmp_path: Path) -> None:
    stored = finished_omi(4_000, seed=37)
    table, actions = stored.table.id, stored.table.seq
    expected = TableCore(stored)
    settings = make_settings(tmp_path, replay_quota_burst=3, replay_quota_per_s=0.001)
    store(settings.db, stored)
    with ThreadServer(settings) as server, http(server.url) as api:
        plain = api.get(f"/api/tables/{table}/replay", headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200, plain.text
        squeezed = api.get(f"/api/tables/{table}/replay", headers={"Accept-Encoding": "gzip"})
        assert squeezed.headers["content-encoding"] == "gzip"
        sent = int(squeezed.headers["content-length"])
        # Small: under 400 bytes an action as JSON (each whole view here is over 10 KB), and
        # what goes over the wire to a browser under 40 bytes an action.
        assert len(plain.content) < 400 * actions, len(plain.content)
        assert sent < 40 * actions, sent
        body = plain.json()
        assert squeezed.json() == body
        views = replay_views(body)
        assert len(views) == actions + 1
        assert views[-1]["is_over"] and views[-1]["tokens"] == expected.game.view(None)["tokens"]
        assert views[-1]["results"] == expected.game.view(None)["results"]
        # Built once: the second answer came from the cache.
        assert server.app.state.replays.builds == 1
        # Limited per address: a burst of 3, then the fourth is refused, in JSON.
        assert api.get(f"/api/tables/{table}/replay").status_code == 200
        refused = api.get(f"/api/tables/{table}/replay")
        assert refused.status_code == 429
        assert refused.json()["code"] == "too_many_replays"
        assert "your address" in refused.json()["message"]
        assert int(refused.headers["retry-after"]) >= 1
        # A refused request builds nothing and reads nothing.
        assert server.app.state.replays.builds == 1


@pytest.mark.server
def test_a_table_not_found_counts_against_the_quota_too(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, replay_quota_burst=2, replay_quota_per_s=0.001)
    with ThreadServer(settings) as server, http(server.url) as api:
        codes = [api.get("/api/tables/nope/replay").json()["code"] for _ in range(3)]
    assert codes == ["unknown_table", "unknown_table", "too_many_replays"]


def test_the_cache_keeps_at_most_its_bytes_the_latest_read() -> None:
    cache = ReplayCache(max_bytes=600)

    async def fill() -> list[bytes]:
        bodies = [await cache.get(f"t{i}", lambda i=i: {"steps": list(range(i * 10))}) for i in range(20)]
        again = await cache.get("t19", lambda: {"steps": "never built"})
        return [*bodies, again]

    bodies = asyncio.run(fill())
    assert 0 < cache.bytes <= 600 and 0 < len(cache) < 20 and cache.builds == 20
    assert bodies[-1] == bodies[-2]  # kept: not built again
    assert json.loads(gzip.decompress(bodies[3])) == {"steps": list(range(30))}
