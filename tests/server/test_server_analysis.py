"""The analysis of finished games on the server (issue 14): ``POST``/``GET /api/tables/{id}/analysis``
on a real server, the jobs computed in the analysis pool once per game and stored
(src/bistrot/server/analysis_jobs.py).
"""

from __future__ import annotations

import asyncio
import queue
import re
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from server_harness import ThreadServer, bearer, finished, http, make_settings, open_table

from bistrot.analysis import analyze_record
from bistrot.server import analysis_jobs
from bistrot.server.analysis_jobs import SEED, AnalysisJobs, run_analysis
from bistrot.server.postgres import PostgresStorage
from bistrot.server.sqlite import SQLiteStorage
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.replay import record_of

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]  # the session's throwaway PostgreSQL: `postgres`

TIMEOUT = 120.0


def wait_done(api: httpx.Client, table: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every answer of ``GET .../analysis`` until it is done (or failed)."""
    seen = []
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        answer = api.get(f"/api/tables/{table}/analysis", headers=headers or {})
        assert answer.status_code == 200, answer.text
        seen.append(answer.json())
        if seen[-1]["status"] in ("done", "failed"):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"no analysis after {TIMEOUT} s: {seen[-3:]}")


def test_a_finished_game_is_analysed_once_with_the_cli_s_figures(server: ThreadServer) -> None:
    # A known deal: its game is 42 decisions long.  A random one ran from 42 to 602 decisions
    # (6 to 132 s of analysis on this machine), past the timeout on a loaded one.
    table = finished(server, game="oti", rules={"players": 3}, seed=8)["table"]
    with http(server.url) as api:
        assert api.get(f"/api/tables/{table}/analysis").json() == {
            "status": "none", "done": None, "total": None, "result": None,
        }  # fmt: skip
        started = api.post(f"/api/tables/{table}/analysis")
        assert started.status_code == 200, started.text
        assert started.json()["status"] in ("queued", "running", "done")
        seen = wait_done(api, table)
        record = api.get(f"/api/tables/{table}/record").text
        # Asked again: the stored one, no second job.
        again = api.post(f"/api/tables/{table}/analysis")
    done = seen[-1]
    assert done["status"] == "done", seen[-3:]
    assert done["result"] == analyze_record(record, seed=SEED).to_dict()
    assert done["done"] == done["total"] == len(done["result"]["moves"]) > 0
    assert [s["status"] for s in seen] == sorted(
        (s["status"] for s in seen), key=["queued", "running", "done"].index
    )
    assert [s["done"] for s in seen] == sorted(s["done"] for s in seen)  # progress only grows
    assert again.json() == done
    assert server.app.state.analyses.jobs == {}


def test_the_analysis_is_refused_as_the_record_is(server: ThreadServer) -> None:
    opened = open_table(server.url, level="easy", rules={"target": 1})
    source = finished(server, rules={"target": 1})
    with http(server.url) as api:
        for method in (api.get, api.post):
            early = method(f"/api/tables/{opened['table']}/analysis")
            assert (early.status_code, early.json()["code"]) == (409, "not_over")
            unknown = method("/api/tables/no-such-table/analysis")
            assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_table")
        token = source["seats"][0]["token"]
        made = api.post(f"/api/tables/{source['table']}/challenge", json={"token": token})
        assert made.status_code == 200, made.text
        for method in (api.get, api.post):
            refused = method(f"/api/tables/{source['table']}/analysis")
            assert (refused.status_code, refused.json()["code"]) == (403, "challenge_deal")
        # Nothing was started by the refusals.
        assert api.get(f"/api/tables/{source['table']}/analysis", headers=bearer(source["watch"])).json()[
            "status"
        ] == "none"
    assert server.app.state.analyses.jobs == {}


@pytest.mark.settings(analysis_queue=1)
def test_a_full_queue_says_when_to_ask_again(server: ThreadServer) -> None:
    first = finished(server, rules={"target": 1})["table"]
    second = finished(server, rules={"target": 1})["table"]
    with http(server.url) as api:
        assert api.post(f"/api/tables/{first}/analysis").json()["status"] in ("queued", "running")
        busy = api.post(f"/api/tables/{second}/analysis")
        assert (busy.status_code, busy.json()["code"]) == (503, "analysis_busy")
        assert int(busy.headers["Retry-After"]) >= 1
        assert api.get(f"/api/tables/{second}/analysis").json()["status"] == "none"  # nothing claimed
        assert wait_done(api, first)[-1]["status"] == "done"
        # The queue has room again.
        assert api.post(f"/api/tables/{second}/analysis").status_code == 200
        assert wait_done(api, second)[-1]["status"] == "done"


def test_a_job_whose_node_died_is_taken_over(server: ThreadServer) -> None:
    table = finished(server, rules={"target": 1})["table"]
    # A node took it a minute ago, judged 3 decisions and was never heard of again.
    with sqlite3.connect(server.settings.db) as conn:
        conn.execute(
            "INSERT INTO analyses VALUES (?, 'running', 3, 40, NULL, 'dead-node-job', ?)",
            (table, time.time() - 60),
        )
    conn.close()
    with http(server.url) as api:
        assert api.get(f"/api/tables/{table}/analysis").json()["status"] == "none"
        assert api.post(f"/api/tables/{table}/analysis").status_code == 200
        assert wait_done(api, table)[-1]["status"] == "done"


def test_the_worker_reports_each_decision_judged() -> None:
    from bistrot.oti import OtiGame, OtiRules

    game = OtiGame.from_position(OtiRules(players=2), ["5D QD 9S", ""], ["", "KC 3H"], ["", ""], pile="2C")
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    channel: queue.SimpleQueue[tuple[str, int, int]] = queue.SimpleQueue()
    found = run_analysis("job-1", game.record(), channel)
    reports = []
    while not channel.empty():
        reports.append(channel.get())
    total = len(found["moves"])
    assert total > 0 and reports == [("job-1", n, total) for n in range(1, total + 1)]


def test_progress_is_stored_as_the_pool_s_process_works(tmp_path: Path) -> None:
    # The real process pool, with frequent beats: a reader of the store (any node) sees the job
    # queued, then running with its decisions counted, then done.
    server = ThreadServer(make_settings(tmp_path))
    with server:
        table = finished(server, rules={"target": 1})["table"]
    seen: list[tuple[str, int, int]] = []

    async def scenario() -> dict[str, Any]:
        storage = SQLiteStorage(tmp_path / "room.db")
        await storage.start()
        jobs = AnalysisJobs(storage, "process", beat_s=0.02)
        jobs.start()
        try:
            stored = await storage.load_table(table)
            assert stored is not None
            assert (await jobs.request(TableCore(stored)))["status"] == "queued"
            # Asked again meanwhile: where it stands, not a second job, even with no room left.
            jobs.queue_max = 1
            assert (await jobs.request(TableCore(stored)))["status"] in ("queued", "running")
            assert len(jobs.jobs) == 1
            deadline = time.monotonic() + TIMEOUT
            while time.monotonic() < deadline:
                state = await jobs.state(table)
                seen.append((state["status"], state.get("done", 0), state.get("total", 0)))
                if state["status"] == "done":
                    return state
                await asyncio.sleep(0.005)
            raise AssertionError(f"not done: {seen[-3:]}")
        finally:
            await jobs.close()
            await storage.close()

    done = asyncio.run(scenario())
    running = [s for s in seen if s[0] == "running"]
    assert running and any(0 < n < total for _, n, total in running), seen[:5]
    record = record_of(TableCore(asyncio.run(_load(tmp_path, table))))
    assert done["result"] == analyze_record(record, seed=SEED).to_dict()


async def _load(tmp_path: Path, table: str) -> Any:
    storage = SQLiteStorage(tmp_path / "room.db")
    await storage.start()
    try:
        return await storage.load_table(table)
    finally:
        await storage.close()


def test_nodes_sharing_postgresql_compute_a_game_s_analysis_once(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres.create_database("analysis_" + re.sub(r"[^a-z0-9]+", "_", tmp_path.name.lower())[:40])
    with ThreadServer(make_settings(tmp_path, database_url=url)) as server:
        table = finished(server, rules={"target": 1})["table"]

    async def scenario() -> tuple[dict[str, Any], list[str]]:
        stores = [PostgresStorage(url), PostgresStorage(url)]
        nodes = [AnalysisJobs(store, "thread", beat_s=0.05) for store in stores]
        for store, node in zip(stores, nodes, strict=True):
            await store.start()
            node.start()
        try:
            stored = await stores[0].load_table(table)
            assert stored is not None
            assert (await nodes[0].request(TableCore(stored)))["status"] == "queued"
            # The other node, asked too, finds the job taken and runs none of its own.
            assert (await nodes[1].request(TableCore(stored)))["status"] in ("queued", "running")
            assert len(nodes[0].jobs) == 1 and nodes[1].jobs == {}
            seen = []
            deadline = time.monotonic() + TIMEOUT
            while (state := await nodes[1].state(table))["status"] != "done":
                seen.append(state["status"])
                assert time.monotonic() < deadline, seen[-3:]
                await asyncio.sleep(0.01)
            return state, seen
        finally:
            for store, node in zip(stores, nodes, strict=True):
                await node.close()
                await store.close()

    done, seen = asyncio.run(scenario())
    assert "running" in seen and done["result"]["game"] == "omi"


@pytest.mark.settings(analysis_queue=4, analysis_per_client=2)
def test_strangers_cannot_fill_the_queue_and_a_game_s_players_come_first(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: the one queue took anyone's jobs without a token, one address could fill it, and
    # the players of a game then waited behind strangers' analyses.
    release = threading.Event()

    def held(*args: Any) -> dict[str, Any]:
        release.wait(TIMEOUT)
        return run_analysis(*args)

    monkeypatch.setattr(analysis_jobs, "run_analysis", held)
    games = [finished(server, rules={"target": 1}) for _ in range(4)]
    elsewhere = httpx.Client(
        base_url=server.url, timeout=TIMEOUT, transport=httpx.HTTPTransport(local_address="127.0.0.2")
    )
    try:
        with http(server.url) as api, elsewhere:
            path = [f"/api/tables/{game['table']}/analysis" for game in games]
            assert [api.post(p).status_code for p in path[:2]] == [200, 200]
            mine = api.post(path[2])  # a third from one address: refused, nothing claimed
            assert (mine.status_code, mine.json()["code"]) == (429, "too_many_analyses")
            assert int(mine.headers["Retry-After"]) >= 1
            assert api.get(path[2]).json()["status"] == "none"
            # Strangers hold the first half of the queue: another stranger waits ...
            other = elsewhere.post(path[2])
            assert (other.status_code, other.json()["code"]) == (503, "analysis_busy")
            # ... while the game's own player goes in (its seat token, from the same address).
            player = elsewhere.post(path[2], headers=bearer(games[2]["seats"][0]["token"]))
            assert player.status_code == 200, player.text
            release.set()
            for p in path[:3]:
                assert wait_done(api, p.split("/")[3])[-1]["status"] == "done"
    finally:
        release.set()
