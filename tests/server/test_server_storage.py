"""The SQLite store, and tables leaving memory and coming back from it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from server_harness import Client, ThreadServer, http, make_settings, open_table, play_out

from bistrot.server.sqlite import SQLiteStorage
from bistrot.server.storage import ChallengeRecord, EventRecord, SeatRecord, TableRecord


def record(table_id: str, status: str = "playing") -> TableRecord:
    return TableRecord(table_id, "omi", "hotseat", {}, 42, "easy", 0, 30.0, status, None, "w", time.time())


def event(seq: int, action: str = "play TH", client_id: str | None = None) -> EventRecord:
    return EventRecord(seq, 0, action, "human", client_id, time.time())


def run(coro):
    return asyncio.run(coro)


@pytest.mark.parametrize("inline", [False, True], ids=["writer thread", "inline"])
def test_writes_are_durable_and_a_failing_write_spoils_no_other(tmp_path: Path, inline: bool):
    async def scenario() -> None:
        store = SQLiteStorage(tmp_path / "room.db", inline=inline)
        await store.start()
        for name in ("a", "b", "c"):
            await store.create_table(record(name), [SeatRecord(0, "human", token_hash="h")])
        await store.append("a", [event(1)], "playing", None)
        # Many appends at once (they share commits), one of them a duplicate seq.
        results = await asyncio.gather(
            *(store.append("b", [event(seq)], "playing", None) for seq in range(1, 101)),
            store.append("a", [event(1, "trump S")], "playing", None),
            *(store.append("c", [event(seq)], "playing", None) for seq in range(1, 101)),
            return_exceptions=True,
        )
        failed = [r for r in results if isinstance(r, BaseException)]
        assert len(failed) == 1 and results[100] is failed[0]
        await store.append("c", [event(101, "kapothi", '"x"')], "over", {"winner": 1})
        await store.close()

        again = SQLiteStorage(tmp_path / "room.db")
        await again.start()
        a, b, c = [await again.load_table(name) for name in "abc"]
        assert [e.action for e in a.events] == ["play TH"]  # the duplicate changed nothing
        assert [e.seq for e in b.events] == list(range(1, 101)) and b.table.seq == 100
        assert c.table.status == "over" and c.table.result == {"winner": 1} and c.table.seq == 101
        assert c.events[-1].client_id == '"x"'
        assert await again.unfinished() == ["a", "b"]
        assert await again.load_table("nope") is None
        stats = again.stats()
        assert stats["commits"] == 0 and stats["writes"] == 0
        await again.close()

    run(scenario())


def test_challenges_and_their_results(tmp_path: Path):
    async def scenario() -> None:
        store = SQLiteStorage(tmp_path / "room.db")
        await store.start()
        await store.create_table(record("src", "over"), [SeatRecord(0, "human", name="Ama")])
        challenge = ChallengeRecord("ch", "src", 0, [{"seat": 1, "level": "easy"}], time.time())
        await store.create_challenge(challenge)
        with pytest.raises(RuntimeError, match="refused"):  # one challenge per table and seat
            await store.create_challenge(ChallengeRecord("ch2", "src", 0, [], time.time()))
        attempt = record("try")
        attempt.challenge = "ch"
        await store.create_table(attempt, [SeatRecord(0, "human", name="Kasun")])
        assert (await store.find_challenge("src", 0)).id == "ch"
        assert await store.find_challenge("src", 1) is None
        assert (await store.load_challenge("ch")).computers == [{"seat": 1, "level": "easy"}]
        rows = await store.challenge_results(challenge)
        assert [(r.table, r.name, r.status) for r in rows] == [
            ("src", "Ama", "over"),
            ("try", "Kasun", "playing"),
        ]
        await store.close()

    run(scenario())


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
