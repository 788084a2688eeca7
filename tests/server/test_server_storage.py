"""What only the SQLite store does (its file, WAL, commit order, stats), and tables leaving memory
and coming back from it.  What every store does is in test_storage_contract.py."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
from server_harness import Client, ThreadServer, http, make_settings, open_table, play_out

from bistrot.server.sqlite import SQLiteStorage
from bistrot.server.storage import EventRecord, PresenceRecord, SeatRecord, TableRecord


def record(table_id: str, status: str = "playing") -> TableRecord:
    return TableRecord(table_id, "omi", "hotseat", {}, 42, "easy", 0, 30.0, status, None, "w", time.time())


def event(seq: int, action: str = "play TH", client_id: str | None = None) -> EventRecord:
    return EventRecord(seq, 0, action, "human", client_id, time.time())


def run(coro):
    return asyncio.run(coro)


@pytest.mark.parametrize("inline", [False, True], ids=["writer thread", "inline"])
def test_concurrent_appends_of_one_table_commit_in_call_order(tmp_path: Path, inline: bool):
    # SQLite's own promise, beyond the contract (tests/server/test_storage_contract.py): writes
    # go through one queue, so appends of one table issued together are stored in call order.
    async def scenario() -> None:
        store = SQLiteStorage(tmp_path / "room.db", inline=inline)
        await store.start()
        for name in ("a", "b", "c"):
            await store.create_table(record(name), [SeatRecord(0, "human", token_hash="h")])
        await store.append("a", [event(1)], "playing", None)
        results = await asyncio.gather(
            *(store.append("b", [event(seq)], "playing", None) for seq in range(1, 101)),
            store.append("a", [event(1, "trump S")], "playing", None),
            *(store.append("c", [event(seq)], "playing", None) for seq in range(1, 101)),
            return_exceptions=True,
        )
        failed = [r for r in results if isinstance(r, BaseException)]
        assert len(failed) == 1 and results[100] is failed[0]
        await store.close()

        again = SQLiteStorage(tmp_path / "room.db")
        await again.start()
        b, c = [await again.load_table(name) for name in "bc"]
        assert [e.seq for e in b.events] == list(range(1, 101)) and b.table.seq == 100
        assert [e.seq for e in c.events] == list(range(1, 101)) and c.table.seq == 100
        stats = again.stats()  # reads are not writes
        assert stats["commits"] == 0 and stats["writes"] == 0
        await again.close()

    run(scenario())


def test_the_database_is_one_wal_file_left_whole_on_close(tmp_path: Path):
    path = tmp_path / "deep" / "room.db"

    async def scenario() -> None:
        store = SQLiteStorage(path, synchronous="NORMAL")
        await store.start()
        await store.create_table(record("t"), [SeatRecord(0, "human", token_hash="h")])
        await store.append("t", [event(1, client_id='"k"')], "over", {"winner": 0})
        with sqlite3.connect(path) as conn:  # the parent folder was made; WAL beside it
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        conn.close()
        assert Path(f"{path}-wal").stat().st_size > 0
        assert store.stats()["commits"] == 2 and store.stats()["writes"] == 2
        await store.close()

    run(scenario())
    # Closing checkpoints everything into the database file and truncates the WAL.
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT seq, status, result FROM tables").fetchall() == [
            (1, "over", '{"winner": 0}')
        ]
        assert conn.execute("SELECT client_id FROM events").fetchall() == [('"k"',)]
    conn.close()


def test_a_file_made_before_presence_was_stored_gains_it_and_its_seats_start_as_before(tmp_path: Path):
    # As migration 0013 does for PostgreSQL: the columns are added on start, every old seat with
    # no presence stored (not away, no grace: what a table loaded back always had before).
    path = tmp_path / "room.db"

    async def made_before() -> None:
        store = SQLiteStorage(path)
        await store.start()
        await store.create_table(record("t"), [SeatRecord(0, "human", token_hash="h")])
        await store.close()

    async def opened_again() -> None:
        store = SQLiteStorage(path)
        await store.start()
        assert (await store.load_table("t")).presence == []
        await store.save_presence("t", [PresenceRecord(0, away=True)])
        assert (await store.load_table("t")).presence == [PresenceRecord(0, away=True)]
        await store.close()

    run(made_before())
    with sqlite3.connect(path) as conn:  # as the version before left its files
        conn.execute("ALTER TABLE seats DROP COLUMN grace_ends")
        conn.execute("ALTER TABLE seats DROP COLUMN away")
    conn.close()
    run(opened_again())


def test_a_finished_table_leaves_memory_and_comes_back_from_the_store(tmp_path: Path):
    with ThreadServer(make_settings(tmp_path, evict_after_s=0.05)) as server:
        table = open_table(server.url, mode="computer", level="easy", rules={"target": 1})
        with Client(server.url, table["table"], table["seats"][0]["token"]) as me:
            play_out(me)
            final = me.state
        with http(server.url) as client:
            deadline = time.monotonic() + 20
            while client.get("/healthz").json()["tables"] and time.monotonic() < deadline:
                time.sleep(0.05)
            assert client.get("/healthz").json()["tables"] == 0
            info = client.get(f"/api/tables/{table['table']}").json()
            assert info["status"] == "over" and info["seq"] == final["seq"]
        with Client(server.url, table["table"], table["seats"][0]["token"]) as me:
            back = me.wait_for(lambda m: m["type"] == "state")
        assert back["seq"] == final["seq"] and back["view"]["is_over"]
        assert (
            back["view"]["hand"] == final["view"]["hand"]
            and back["view"]["tokens"] == final["view"]["tokens"]
        )
