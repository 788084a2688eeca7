"""Quotas on what one client can pile up (issue 15, item 9): tables opened per address (429
``too_many_tables`` with ``Retry-After``), the quota's own memory, and the WAL file's size."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path

import pytest
from server_harness import TIMEOUT, Client, ThreadServer, bearer, http, make_settings, open_table, play_out
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from bistrot.server import ratelimit
from bistrot.server.quota import LocalTableQuota
from bistrot.server.sqlite import BUSY_TIMEOUT_MS, SQLiteStorage
from bistrot.server.storage import EventRecord, SeatRecord, TableRecord


class Clock:
    """A clock the test moves (the quota's, through :data:`bistrot.server.ratelimit.clock`)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_one_address_opens_a_burst_of_tables_then_waits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    clock = Clock()
    monkeypatch.setattr(ratelimit, "clock", clock)
    settings = make_settings(tmp_path, table_quota_burst=3, table_quota_per_s=0.1)
    with ThreadServer(settings) as server, http(server.url) as client:
        first = open_table(server.url, mode="computer", level="easy", rules={"target": 1})
        with Client(server.url, first["table"], first["seats"][0]["token"]) as me:
            play_out(me)
        token = first["seats"][0]["token"]
        link = client.post(f"/api/tables/{first['table']}/challenge", json={"token": token})
        challenge = link.json()["challenge"]
        # Tables and challenge tables share the address's bucket: 3 in all.
        assert client.post(f"/api/challenges/{challenge}/play", json={}).status_code == 201
        assert client.post("/api/tables", json={"game": "oti"}).status_code == 201
        for refused in (
            client.post("/api/tables", json={"game": "omi"}),
            client.post(f"/api/challenges/{challenge}/play", json={}),
        ):
            assert refused.status_code == 429, refused.text
            assert refused.json()["code"] == "too_many_tables" and "10 s" in refused.json()["message"]
            assert refused.headers["Retry-After"] == "10"
        assert client.get("/healthz").json()["tables"] == 3  # nothing opened by a refusal
        clock.now += 10  # Retry-After later, one more
        assert client.post("/api/tables", json={"game": "omi"}).status_code == 201
        assert client.post("/api/tables", json={"game": "omi"}).status_code == 429
        schema = client.get("/openapi.json").json()["paths"]
        for path in ("/api/tables", "/api/challenges/{challenge_id}/play"):
            assert "Retry-After" in schema[path]["post"]["responses"]["429"]["headers"]


def test_the_quota_forgets_addresses_whose_bucket_is_full_again():
    asyncio.run(the_quota_forgets_addresses_whose_bucket_is_full_again())


async def the_quota_forgets_addresses_whose_bucket_is_full_again() -> None:
    clock = Clock()
    quota = LocalTableQuota(burst=2, per_s=0.5, clock=clock, max_clients=500)
    for n in range(2000):  # one new address every 10 ms: 4 s to refill, so ~400 remembered
        clock.now += 0.01
        assert await quota.wait(f"10.0.{n // 256}.{n % 256}") == 0.0
    assert 300 < len(quota) <= 401
    clock.now += 2.0
    await quota.wait("192.0.2.1")
    await quota.wait("192.0.2.1")
    clock.now += 2.1  # every other bucket is full again (4 s); this one not yet
    assert await quota.wait("192.0.2.2") == 0.0 and len(quota) == 2
    crowd = LocalTableQuota(burst=2, per_s=0.001, clock=clock, max_clients=100)
    for n in range(1000):
        await crowd.wait(f"2001:db8:{n:x}::1")
    assert len(crowd) == 100


def test_the_wal_file_is_truncated_once_writes_stop(tmp_path: Path):
    async def run() -> tuple[int, int]:
        store = SQLiteStorage(tmp_path / "room.db", checkpoint_every_s=0.05, wal_max_bytes=2**30)
        await store.start()
        seats = [SeatRecord(0, "human", token_hash="h")]
        # A reader holding a snapshot keeps the WAL from being reused, as a long read does:
        # it grows with every write, and SQLite alone never shrinks it again.
        reader = sqlite3.connect(tmp_path / "room.db")
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM tables").fetchall()
        for n in range(300):
            table = TableRecord(f"t{n}", "omi", "computer", {}, n, "easy", 0, 30.0, "playing", None, "w", 0.0)
            await store.create_table(table, seats)
            await store.append(f"t{n}", [EventRecord(1, 0, "x" * 2000, "human", None, 1.0)], "playing", None)
        grown = store.wal_bytes()
        reader.rollback()
        reader.close()
        deadline = time.monotonic() + 20
        while store.wal_bytes() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        left = store.wal_bytes()
        await store.close()
        return grown, left

    grown, left = asyncio.run(run())
    assert grown > 1_000_000, grown  # the test did make the WAL grow
    assert left == 0, f"the WAL stayed at {left} bytes after the writes stopped"


def test_a_wal_over_its_bound_is_truncated_even_while_writes_go_on(tmp_path: Path):
    async def run() -> int:
        store = SQLiteStorage(tmp_path / "room.db", checkpoint_every_s=0.05, wal_max_bytes=256 * 1024)
        await store.start()
        seats = [SeatRecord(0, "human", token_hash="h")]
        table = TableRecord("t", "omi", "computer", {}, 1, "easy", 0, 30.0, "playing", None, "w", 0.0)
        await store.create_table(table, seats)
        largest = 0
        deadline = time.monotonic() + 3
        seq = 0
        while time.monotonic() < deadline:  # never quiet for a whole round
            seq += 1
            await store.append("t", [EventRecord(seq, 0, "x" * 4000, "human", None, 1.0)], "playing", None)
            largest = max(largest, store.wal_bytes())
        await store.close()
        return largest

    # Bounded: the limit plus what can be written between two checkpoint rounds.
    assert asyncio.run(run()) < 16 * 2**20


#: A client naming an address of its own in each request: believed only from a proxy named in
#: forwarded_allow_ips.  Before, uvicorn believed the header from 127.0.0.1 whatever the settings,
#: so a local client escaped both the table quota and the abuse wait.
PROXIES = ["", "127.0.0.1"]


def _forwarding_server(tmp_path: Path, proxy: str) -> ThreadServer:
    limits = {"table_quota_burst": 2, "table_quota_per_s": 0.001, "abuse_wait_s": 60.0}
    return ThreadServer(make_settings(tmp_path, forwarded_allow_ips=proxy, **limits))


@pytest.mark.parametrize("proxy", PROXIES)
def test_x_forwarded_for_names_another_quota_only_from_a_configured_proxy(tmp_path: Path, proxy: str):
    with _forwarding_server(tmp_path, proxy) as server, http(server.url) as client:
        body = {"game": "omi", "mode": "hotseat"}
        answers = [
            client.post("/api/tables", json=body, headers={"X-Forwarded-For": f"198.51.100.{n}"})
            for n in range(3)
        ]
        assert [a.status_code for a in answers] == ([201, 201, 201] if proxy else [201, 201, 429])


@pytest.mark.parametrize("proxy", PROXIES)
def test_x_forwarded_for_escapes_the_abuse_wait_only_from_a_configured_proxy(tmp_path: Path, proxy: str):
    with _forwarding_server(tmp_path, proxy) as server:
        table = open_table(server.url, mode="hotseat")
        token = table["seats"][0]["token"]
        url = server.url.replace("http://", "ws://") + f"/ws/{table['table']}"
        with connect(url, additional_headers={**bearer(token), "X-Forwarded-For": "203.0.113.1"}) as abuser:
            assert json.loads(abuser.recv(TIMEOUT))["type"] == "state"
            abuser.send("x" * 70_000)  # over abuse_message_bytes: closed (1009), its address waits
            with pytest.raises(ConnectionClosed):
                while True:
                    abuser.recv(TIMEOUT)
        other = {**bearer(token), "X-Forwarded-For": "203.0.113.2"}
        if proxy:  # another client behind the proxy may connect
            with connect(url, additional_headers=other, open_timeout=TIMEOUT) as ws:
                assert json.loads(ws.recv(TIMEOUT))["type"] == "state"
        else:  # the same client naming another address waits all the same
            with pytest.raises(InvalidStatus) as refused:
                connect(url, additional_headers=other, open_timeout=TIMEOUT)
            assert refused.value.response.status_code == 429


def test_a_checkpoint_never_holds_writes_back_behind_a_long_reader(tmp_path: Path):
    """Writes that pause (so that the WAL is truncated while quiet) go through at once while a
    reader holds a snapshot: the checkpoint does not wait for the reader, holding every writer
    back meanwhile (a write held past its busy timeout failed: "database is locked")."""

    async def run() -> list[float]:
        store = SQLiteStorage(tmp_path / "room.db", checkpoint_every_s=0.02)
        await store.start()
        seats = [SeatRecord(0, "human", token_hash="h")]
        reader = sqlite3.connect(tmp_path / "room.db")
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM tables").fetchall()
        waits = []
        try:
            for n in range(4):
                table = TableRecord(
                    f"t{n}", "omi", "computer", {}, n, "easy", 0, 30.0, "playing", None, "w", 0.0
                )
                await asyncio.sleep(0.2)  # quiet: the checkpointer tries a TRUNCATE meanwhile
                started = time.monotonic()
                await store.create_table(table, seats)
                waits.append(time.monotonic() - started)
        finally:
            reader.rollback()
            reader.close()
            await store.close()
        return waits

    waits = asyncio.run(run())
    # Far below the busy timeout that the writes waited out before (5 s each).
    assert max(waits) < BUSY_TIMEOUT_MS / 1000 / 2, waits
