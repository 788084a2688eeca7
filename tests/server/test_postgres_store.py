"""What only the PostgreSQL store does: its migrations, its cluster calls (leases, ownership,
fencing), its start-up errors, and PostgreSQL going away and coming back.  What every store does
is in test_storage_contract.py (which runs on PostgreSQL too).

Against the session's throwaway server (tests/postgres_server.py), one database per test.
"""

from __future__ import annotations

import asyncio
import functools
import re
import socket
import time
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from test_storage_contract import SEATS, ev, table

from bistrot.server import migrations
from bistrot.server.postgres import PostgresStorage
from bistrot.server.schema import room_metadata
from bistrot.server.storage import ChatLine, LeaseLost, PresenceRecord, SeatRecord, StoredTable, StoreUnusable

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]


def run(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run a coroutine test with :func:`asyncio.run` (fixtures are passed through)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper


@pytest.fixture
def url(postgres: PostgresServer, tmp_path: Path) -> str:
    """A new, empty database of this test's own."""
    return postgres.create_database("store_" + re.sub(r"[^a-z0-9]+", "_", tmp_path.name.lower())[:50])


def sql(url: str, statement: str, *params: Any) -> list[tuple[Any, ...]]:
    """One statement through a connection of the test's own (as an operator would)."""
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement, params)
        return cursor.fetchall() if cursor.description else []


def expire(url: str, node: str) -> None:
    """End ``node``'s lease now, as if it had stopped renewing it long enough."""
    sql(url, "UPDATE nodes SET lease_until = clock_timestamp() - interval '1 second' WHERE id = %s", node)


async def started(url: str, node: str | None = None, lease_s: float = 3.0) -> PostgresStorage:
    store = PostgresStorage(url, node=node, lease_s=lease_s)
    await store.start()
    if node is not None:
        await store.register_node()
    return store


# ---------------------------------------------------------------------------- migrations


def test_migrating_creates_the_schema_of_the_models_and_again_changes_nothing(url: str) -> None:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    tables_now = "SELECT relname, oid FROM pg_class WHERE relnamespace = 'public'::regnamespace"
    try:
        assert sql(url, tables_now) == []
        with engine.connect() as conn:
            migrations.upgrade(conn)
        with engine.connect() as conn:
            assert sorted(inspect(conn).get_table_names()) == [
                "alembic_version", "analyses", "attempts", "challenges", "chat", "club_boards", "club_events",
                "club_players", "daily_games", "events",
                "nodes", "passkey_ceremonies", "passkeys", "profile_keys", "profile_transfers", "profiles",
                "rated_games", "rating_changes", "ratings", "reports", "seats", "server_secrets", "tables",
            ]  # fmt: skip
            assert {i["name"] for i in inspect(conn).get_indexes("tables")} == {
                "tables_status", "tables_challenge", "tables_owner",
            }  # fmt: skip
            # The migrations build exactly what bistrot.server.schema describes.
            assert compare_metadata(MigrationContext.configure(conn), room_metadata(cluster=True)) == []
        made = sql(url, tables_now)
        with engine.connect() as conn:
            migrations.upgrade(conn)  # at head already: nothing is made again
        assert sql(url, tables_now) == made
        assert sql(url, "SELECT version_num FROM alembic_version") == [(migrations.head(),)]
    finally:
        engine.dispose()


def test_a_database_of_an_older_bistrot_is_upgraded_keeping_its_rows(url: str) -> None:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.begin() as conn:
            command.upgrade(migrations.config(conn), "0001")  # as the first release left it
            conn.execute(text("INSERT INTO nodes VALUES ('old', now(), now())"))
            conn.execute(text(
                "INSERT INTO seats (table_id, seat, kind) VALUES ('t', 0, 'human')"
            ))
        with engine.connect() as conn:
            migrations.upgrade(conn)
        with engine.connect() as conn:
            assert "chat" in inspect(conn).get_table_names()
            assert compare_metadata(MigrationContext.configure(conn), room_metadata(cluster=True)) == []
        assert sql(url, "SELECT id FROM nodes") == [("old",)]
        assert sql(url, "SELECT table_id, hints FROM seats") == [("t", 0)]  # 0003's column, on old rows
        # 0013's presence, on old rows: none stored (not away, no grace), so as before it.
        assert sql(url, "SELECT away, grace_ends FROM seats") == [(0, None)]
    finally:
        engine.dispose()


@run
async def test_stores_starting_at_once_on_an_empty_database_all_succeed(url: str) -> None:
    stores = [PostgresStorage(url) for _ in range(4)]
    await asyncio.gather(*(store.start() for store in stores))
    await stores[0].create_table(table("t1"), SEATS)
    for store in stores:
        assert await store.load_table("t1") == StoredTable(table("t1"), SEATS, [])
        await store.close()
    assert sql(url, "SELECT version_num FROM alembic_version") == [(migrations.head(),)]


# ---------------------------------------------------------------------------- start-up errors


@run
async def test_an_unreachable_server_is_named_without_its_password(postgres: PostgresServer) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    began = time.monotonic()
    with pytest.raises(StoreUnusable) as caught:
        await PostgresStorage(f"postgresql://ama:s3cret-pw@127.0.0.1:{port}/room").start()
    message = str(caught.value)
    assert f"127.0.0.1:{port}, database room" in message and "cannot connect" in message
    assert "s3cret" not in message and "\n" not in message
    assert time.monotonic() - began < 5

    with pytest.raises(StoreUnusable, match=r"database nowhere.*does not exist"):
        await PostgresStorage(postgres.url("nowhere")).start()
    with pytest.raises(StoreUnusable, match="must be postgresql://USER@HOST:PORT/DB, not mysql"):
        await PostgresStorage("mysql://db/room").start()


@run
async def test_another_programs_database_is_refused_and_left_alone(url: str) -> None:
    sql(url, "CREATE TABLE tables (id integer PRIMARY KEY, price numeric)")
    with pytest.raises(StoreUnusable, match="its schema cannot be created or upgraded"):
        await PostgresStorage(url).start()
    columns = "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND "
    assert sql(url, columns + "table_name = 'tables' ORDER BY ordinal_position") == [("id",), ("price",)]
    assert sql(url, "SELECT count(*) FROM pg_tables WHERE tablename IN ('seats', 'alembic_version')") == [
        (0,)
    ]


# ---------------------------------------------------------------------------- leases and fencing


@run
async def test_a_node_whose_lease_ran_out_can_store_nothing_more(url: str) -> None:
    # (a 2 s lease: with 0.5 s, the five steps below outlasted it on a machine loaded to 8)
    a = await started(url, "node-a", lease_s=2.0)
    b = await started(url, "node-b")
    await a.create_table(table("t"), SEATS)
    await a.append("t", [ev(1)], "playing", None)
    assert await a.owner("t") == "node-a" and await b.live_nodes() == {"node-a", "node-b"}
    assert not await b.claim("t")  # its owner is live

    await asyncio.sleep(2.2)  # a stops renewing (paused, cut off...)
    assert await b.live_nodes() == {"node-b"} and await b.owner("t") is None
    assert not await a.renew_node()
    assert await b.claim("t")
    before = await b.load_table("t")
    with pytest.raises(LeaseLost):
        await a.append("t", [ev(2, client_id='"late"')], "over", {"winner": 0})
    with pytest.raises(LeaseLost):
        await a.save_seats("t", [SeatRecord(0, "computer", "easy")], "over")
    with pytest.raises(LeaseLost):  # a seat move before the start: two seats exchanged
        await a.save_seats("t", [replace(SEATS[1], seat=0), replace(SEATS[0], seat=1)], "waiting")
    with pytest.raises(LeaseLost):  # marking a's old table as rematched is a write of it too
        await a.create_table(table("rematch", rematch_of="t"), SEATS)
    with pytest.raises(LeaseLost):  # so is a seat's presence (a grace period a's timer started)
        await a.save_presence("t", [PresenceRecord(0, grace_ends=time.time() + 30)])
    assert await b.load_table("t") == before and await b.load_table("rematch") is None
    assert not await a.claim("t")  # not live: a takes nothing back

    await b.append("t", [ev(2)], "playing", None)  # the new owner goes on from the same seq
    await b.save_presence("t", [PresenceRecord(0, away=True)])
    assert (await b.load_table("t")) == replace(
        before, table=replace(before.table, seq=2), events=[ev(1), ev(2)], presence=[PresenceRecord(0, True)]
    )
    assert await b.owner("t") == "node-b"
    for store in (a, b):
        await store.close()


@run
async def test_a_fenced_append_must_follow_the_stored_seq(url: str) -> None:
    a = await started(url, "node-a")
    await a.create_table(table("t"), SEATS)
    await a.append("t", [ev(1), ev(2)], "playing", None)
    before = await a.load_table("t")
    for stale in ([ev(2)], [ev(1), ev(2), ev(3)], [ev(4)]):  # a seq stored, or a gap
        with pytest.raises(LeaseLost, match="stored up to seq 2"):
            await a.append("t", stale, "over", {"winner": 1})
    assert await a.load_table("t") == before
    with pytest.raises(LookupError):  # a missing table stays what it is
        await a.append("ghost", [ev(1)], "playing", None)
    with pytest.raises(LookupError):
        await a.save_seats("ghost", [SeatRecord(0, "open")], "waiting")
    with pytest.raises(LookupError):
        await a.save_presence("ghost", [PresenceRecord(0, away=True)])
    await a.append("t", [ev(3)], "playing", None)
    await a.save_seats("t", [SeatRecord(2, "human", token_hash="h", name="Nimal")], "playing")
    assert (await a.load_table("t")).table.seq == 3
    await a.close()


@run
async def test_claims_are_exclusive_when_nodes_race(url: str) -> None:
    # Leases far longer than the test: on a loaded machine a 3 s lease ran out halfway, and the
    # second node then rightly took a table from the first (this test is not about expiry).
    a, b = await started(url, "node-a", lease_s=120), await started(url, "node-b", lease_s=120)
    dead = await started(url, "node-dead")
    for i in range(20):
        await dead.create_table(table(f"t{i}", float(i)), SEATS)
        if i % 2:  # half of them left memory (no owner), half belong to a dead node
            await dead.release(f"t{i}")
    expire(url, "node-dead")
    won = await asyncio.gather(*(claim for i in range(20) for claim in (a.claim(f"t{i}"), b.claim(f"t{i}"))))
    for i in range(20):
        a_won, b_won = won[2 * i], won[2 * i + 1]
        assert a_won != b_won, i
        assert await a.owner(f"t{i}") == ("node-a" if a_won else "node-b")
        assert await (a if a_won else b).claim(f"t{i}")  # claiming what one owns: still one's
    # Both claims made while the row is locked: they queue on it, and the second, once the
    # first has committed, finds a live owner.
    await dead.create_table(table("locked"), SEATS)
    with psycopg.connect(url) as locker:
        locker.execute("SELECT 1 FROM tables WHERE id = 'locked' FOR UPDATE")
        claims = [asyncio.create_task(store.claim("locked")) for store in (a, b)]
        await asyncio.sleep(0.3)
        assert not any(claim.done() for claim in claims)
        locker.commit()
    assert sorted(await asyncio.gather(*claims)) == [False, True]
    for store in (a, b, dead):
        await store.close()


@run
async def test_orphans_are_shared_between_nodes_without_overlap(url: str) -> None:
    gone = await started(url, "node-gone")
    unfinished = []
    for i in range(30):
        status = ("waiting", "playing", "over")[i % 3]
        await gone.create_table(table(f"t{i:02}", float(i), status), SEATS)
        if status != "over":
            unfinished.append(f"t{i:02}")
    await gone.create_table(table("released", 99.0), SEATS)
    await gone.release("released")  # no owner: not an orphan, claimed when someone asks for it
    a, b = await started(url, "node-a"), await started(url, "node-b")
    assert await a.claim_orphans(100) == []  # node-gone is live
    await gone.retire_node()  # a clean stop: orphans at once
    assert await a.owner("t00") is None

    taken: dict[str, list[str]] = {"node-a": [], "node-b": []}

    async def drain(store: PostgresStorage) -> None:
        while batch := await store.claim_orphans(4):
            assert batch == sorted(batch)  # oldest first
            assert store.node is not None
            taken[store.node] += batch
            await asyncio.sleep(0)

    await asyncio.gather(drain(a), drain(b))
    assert not set(taken["node-a"]) & set(taken["node-b"])
    assert sorted(taken["node-a"] + taken["node-b"]) == unfinished
    for node, ids in taken.items():
        for table_id in ids:
            assert await a.owner(table_id) == node
    assert await a.owner("t02") is None and await a.owner("released") is None
    # A node whose lease ran out takes no orphans.
    await b.create_table(table("b-only"), SEATS)
    expire(url, "node-b")
    expire(url, "node-a")
    assert await a.claim_orphans(100) == []
    for store in (a, b, gone):
        await store.close()


@run
async def test_release_lets_another_node_claim(url: str) -> None:
    a, b = await started(url, "node-a"), await started(url, "node-b")
    await a.create_table(table("t"), SEATS)
    assert not await b.claim("t")
    await b.release("t")  # not b's: nothing changes
    assert await a.owner("t") == "node-a"
    await a.release("t")
    assert await a.owner("t") is None
    assert await b.claim("t") and await a.owner("t") == "node-b"
    with pytest.raises(LeaseLost, match="owned by node-b"):
        await a.append("t", [ev(1)], "playing", None)
    with pytest.raises(LeaseLost, match="owned by node-b"):  # its chat is fenced too
        await a.add_chat("t", ChatLine(1, 0, None, "hi", 1.0))
    await b.add_chat("t", ChatLine(1, 0, None, "hi", 1.0))
    await b.append("t", [ev(1)], "playing", None)
    with pytest.raises(RuntimeError, match="live already"):  # a live id is one process's
        await b.register_node()
    for store in (a, b):
        await store.close()


@run
async def test_a_node_id_taken_over_after_its_lease_fences_out_the_old_process(url: str) -> None:
    # The old process was paused past its lease; a new one started with the same id (say, the
    # host's name).  Resumed, the old one must not renew, write, claim nor retire the new one.
    old = await started(url, "host-1")
    await old.create_table(table("t"), SEATS)
    await old.append("t", [ev(1)], "playing", None)
    expire(url, "host-1")
    new = await started(url, "host-1")  # a new generation of the id
    assert await new.claim("t") and await new.owner("t") == "host-1"
    assert not await old.renew_node()
    with pytest.raises(LeaseLost, match="lease of this node host-1 has run out"):
        await old.append("t", [ev(2, client_id='"stale"')], "playing", None)
    assert not await old.claim("t")
    await old.retire_node()
    assert await new.live_nodes() == {"host-1"} and await new.renew_node()
    await new.append("t", [ev(2)], "playing", None)
    assert [e.client_id for e in (await new.load_table("t")).events] == [None, None]
    for store in (old, new):
        await store.close()


@run
async def test_without_a_node_id_nothing_is_fenced_and_no_table_is_owned(url: str) -> None:
    store = await started(url)
    await store.create_table(table("t"), SEATS)
    await store.append("t", [ev(1)], "playing", None)
    assert sql(url, "SELECT owner FROM tables") == [(None,)]
    with pytest.raises(RuntimeError, match="node="):
        await store.claim("t")
    await store.close()


# ---------------------------------------------------------------------------- PostgreSQL away


@run
async def test_a_store_outlives_postgresql_stopping_and_crashing() -> None:
    # A server of its own: stopping and killing the session's would fail every PostgreSQL test
    # after this one on the same worker if it were slow to come back.
    from tests.postgres_server import PostgresServer as OwnServer  # (loaded by pytest_plugins first)

    with OwnServer() as postgres:
        await outlives_stopping_and_crashing(postgres, postgres.create_database("outage"))


async def outlives_stopping_and_crashing(postgres: PostgresServer, url: str) -> None:
    store = await started(url)
    await store.create_table(table("t"), SEATS)
    await store.append("t", [ev(1)], "playing", None)
    postgres.stop()
    try:
        for attempt in (
            store.append("t", [ev(2)], "playing", None),
            store.save_seats("t", [SeatRecord(1, "open")], "playing"),
            store.ping(),
        ):
            began = time.monotonic()
            with pytest.raises(Exception, match=r"connection|server"):
                await attempt
            assert time.monotonic() - began < 5  # an error, not a hang
    finally:
        postgres.start()
    # The same store object, not reopened: it reconnects by itself.
    await store.ping()
    await store.append("t", [ev(2)], "playing", None)
    for seq in range(3, 23):
        await store.append("t", [ev(seq)], "playing", None)
    postgres.kill()  # SIGKILL: everything acknowledged must be there after the restart
    postgres.start()
    loaded = await store.load_table("t")
    assert loaded is not None and [e.seq for e in loaded.events] == list(range(1, 23))
    await store.close()


@run
async def test_rows_of_long_dead_nodes_are_forgotten_and_their_tables_stay_orphans(url: str) -> None:
    gone, live = await started(url, "node-gone"), await started(url, "node-live")
    await gone.create_table(table("t"), SEATS)
    expire(url, "node-gone")
    assert await live.forget_nodes(3600) == 0  # dead, but not for an hour yet
    assert await live.forget_nodes(0) == 1  # only the dead one
    assert await live.live_nodes() == {"node-live"}
    assert await live.claim_orphans(10) == ["t"]  # its table is still an orphan, then taken
    assert await live.owner("t") == "node-live"
    for store in (gone, live):
        await store.close()
