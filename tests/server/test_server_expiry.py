"""Tables that pile up (issue 15, items 1 and 9): unfinished tables nobody is connected to leave
memory and come back as they were; tables nobody came back to expire (``table_expired``, never
recovered); a table's pace is the server's setting, not the client's."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ThreadServer, http, make_settings, open_table
from websockets.exceptions import ConnectionClosed


def wait_for_tables(base: str, count: int, timeout: float = 20.0) -> None:
    """Until ``/healthz`` says ``count`` tables are in memory."""
    deadline = time.monotonic() + timeout
    with http(base) as client:
        while client.get("/healthz").json()["tables"] != count:
            assert time.monotonic() < deadline, f"never {count} tables in memory"
            time.sleep(0.05)


def info(base: str, table: str) -> Any:
    with http(base) as client:
        return client.get(f"/api/tables/{table}")


def test_an_unfinished_table_nobody_is_at_leaves_memory_and_comes_back_as_it_was(tmp_path: Path):
    with ThreadServer(make_settings(tmp_path, evict_after_s=0.2)) as server:
        made = open_table(server.url, mode="computer", level="easy", seed=42)
        table, token = made["table"], made["seats"][0]["token"]
        with Client(server.url, table, token) as me:
            me.wait_turn_or_end()
            assert me.act(me.view["legal"][0])["type"] == "ack"
            me.wait_turn_or_end()  # the computers played up to this seat's turn
            before = me.state
        wait_for_tables(server.url, 0)
        assert info(server.url, table).json()["seq"] == before["seq"]
        with Client(server.url, table, token) as me:  # loaded back: the same game goes on
            back = me.wait_for(lambda m: m["type"] == "state")
            assert (back["seq"], back["view"]["hand"], back["view"]["legal"]) == (
                before["seq"], before["view"]["hand"], before["view"]["legal"],
            )
            assert me.act(back["view"]["legal"][0])["type"] == "ack"


def test_computers_paused_for_want_of_people_stay_paused_when_their_table_is_loaded_back(tmp_path: Path):
    settings = make_settings(
        tmp_path, grace_s=0.05, bot_delay_ms=20, unattended_pause_s=0.3, evict_after_s=0.6
    )
    with ThreadServer(settings) as server:
        made = open_table(server.url, mode="computer", level="easy", rules={"target": 99})
        table = made["table"]
        wait_for_tables(server.url, 0)  # the computers paused, then the table left memory
        seq = info(server.url, table).json()["seq"]  # this loads it back ...
        wait_for_tables(server.url, 0)  # ... and, nobody being there, it leaves again
        assert info(server.url, table).json()["seq"] == seq, "the computers played on after loading"


def test_tables_nobody_came_back_to_expire_and_say_so(tmp_path: Path):
    settings = make_settings(tmp_path, expire_waiting_s=0.3, expire_playing_s=0.6, evict_after_s=3600)
    with ThreadServer(settings) as server:
        friends = open_table(server.url, mode="friends", level="easy")  # nobody ever joins
        game = open_table(server.url, mode="computer", level="easy", seed=42)
        with Client(server.url, game["table"], game["seats"][0]["token"]) as me:
            me.wait_turn_or_end()
            assert me.act(me.view["legal"][0])["type"] == "ack"
        wait_for_tables(server.url, 0)
        for made in (friends, game):
            answer = info(server.url, made["table"])
            assert (answer.status_code, answer.json()["code"]) == (410, "table_expired"), answer.text
            assert answer.json()["message"]
        with http(server.url) as client:
            joined = client.post(f"/api/tables/{friends['table']}/join", json={"invite": friends["invite"]})
            assert (joined.status_code, joined.json()["code"]) == (410, "table_expired")
        me = Client(server.url, game["table"], game["seats"][0]["token"])
        assert me.recv()["code"] == "table_expired"
        with pytest.raises(ConnectionClosed) as closed:
            me.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4410
    # Marked in the store: the next start does not recover them.
    with ThreadServer(settings) as server:
        assert server.room.tables == {}
        assert info(server.url, game["table"]).status_code == 410
    statuses = sqlite3.connect(settings.db).execute("SELECT status FROM tables").fetchall()
    assert sorted(statuses) == [("expired",), ("expired",)]


def test_a_table_whose_time_ran_out_out_of_memory_expires_when_loaded(tmp_path: Path):
    # Evicted at once, so the room's sweep never sees it expire: loading it back must.
    # (3 s: on a loaded machine half a second could pass before the table's creation was even
    # answered, which then found it expired already)
    settings = make_settings(tmp_path, expire_playing_s=3.0, evict_after_s=0.05)
    with ThreadServer(settings) as server:
        game = open_table(server.url, mode="hotseat", seed=42)
        wait_for_tables(server.url, 0)
        # the expiry time itself, counted from the eviction: nothing to wait for but the clock
        time.sleep(3.1)
        me = Client(server.url, game["table"], game["seats"][0]["token"])
        assert me.recv()["code"] == "table_expired"
        me.close()
        assert info(server.url, game["table"]).status_code == 410


def test_the_pace_of_a_table_is_the_servers_not_the_clients(server: ThreadServer):
    with http(server.url) as client:
        for body in ({"game": "omi", "bot_delay_ms": 0}, {"game": "oti", "grace_s": 0}):
            answer = client.post("/api/tables", json=body)
            assert (answer.status_code, answer.json()["code"]) == (422, "server_setting"), answer.text
            key = next(k for k in body if k != "game")
            assert key in answer.json()["message"] and f"BISTROT_{key.upper()}" in answer.json()["message"]
        assert client.get("/healthz").json()["tables"] == 0
        schema = client.get("/openapi.json").json()["components"]["schemas"]["CreateTable"]["properties"]
        assert "bot_delay_ms" not in schema and "grace_s" not in schema
