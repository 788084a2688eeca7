"""The storage contract: what every :class:`~bistrot.server.storage.Storage` must do.

Every test here runs against each entry of :data:`BACKENDS`, on a fresh store of its own.

How a backend joins the suite: add one :class:`Backend` to :data:`BACKENDS` with

* ``open(place)``: a new, not yet started store for the data at ``place`` (the test's own
  ``tmp_path``).  Opening the same place again must give a store on the same data (durability
  is checked by closing a store and opening another); different places must never share data.
* ``prepare(request, place)``, if the backend needs a server: make the place's data somewhere
  before the test (PostgreSQL: a database named after ``place`` on the session's throwaway
  server, tests/postgres_server.py, whose URL it writes into ``place``).
* ``break_table(store, place, table_id)`` / ``heal_table(...)``: make every write that changes
  that table (its appends, its seats, a rematch marking it) fail *inside* the database, after the
  write has begun (so a store that is not atomic would keep part of it), and undo that.  Real
  failures, not mocks: SQLite uses triggers that ``RAISE(ABORT)``; PostgreSQL a trigger
  function that ``RAISE EXCEPTION``.
* ``refused``, ``refused_match``: the exception a refused write raises, and its message.
* ``batches(store)``: ``(commits, writes)`` so far, if the backend counts them, and
  ``groups_writes`` if concurrent writes are expected to share commits (group commit).

No pytest-asyncio here: each test is a coroutine run by :func:`asyncio.run` (see :func:`contract`).
"""

from __future__ import annotations

import asyncio
import functools
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from sqlalchemy import select

from bistrot.server.postgres import PostgresStorage
from bistrot.server.schema import tables
from bistrot.server.sqlite import SQLiteStorage
from bistrot.server.storage import (
    AnalysisRecord,
    ChallengeRecord,
    ChatLine,
    EventRecord,
    PresenceRecord,
    SeatRecord,
    Storage,
    StoredTable,
    TableRecord,
)
from bistrot.tablecore.chat import KEPT as CHAT_KEPT

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]  # the session's throwaway PostgreSQL: `postgres`

# ---------------------------------------------------------------------------- the backends

Hook = Callable[[Storage, Path, str], Awaitable[None]]


@dataclass(frozen=True)
class Backend:
    name: str
    open: Callable[[Path], Storage]
    break_table: Hook
    heal_table: Hook
    refused: type[Exception] = Exception
    refused_match: str = ""
    batches: Callable[[Storage], tuple[int, int]] | None = None
    groups_writes: bool = False
    prepare: Callable[[pytest.FixtureRequest, Path], None] | None = None


def _sqlite_file(place: Path) -> Path:
    return place / "room.db"


def _sqlite_trigger_names(table_id: str) -> tuple[str, str]:
    key = "".join(c if c.isalnum() else "_" for c in table_id)
    return f"contract_fail_events_{key}", f"contract_fail_tables_{key}"


async def _sqlite_break(store: Storage, place: Path, table_id: str) -> None:
    # Through a connection of our own, as an operator (or a failing disk) would: the store's
    # connections see the new schema on their next statement.  The first trigger fires on the
    # second event of an append (the first is already inserted), the second on the table's row,
    # which every write of an existing table updates after its other rows.
    on_events, on_tables = _sqlite_trigger_names(table_id)
    quoted = table_id.replace("'", "''")
    with sqlite3.connect(_sqlite_file(place), timeout=10) as conn:
        conn.execute(
            f"CREATE TRIGGER {on_events} AFTER INSERT ON events "
            f"WHEN NEW.table_id = '{quoted}' "
            f"AND NEW.seq > (SELECT seq FROM tables WHERE id = '{quoted}') + 1 "
            "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
        )
        conn.execute(
            f"CREATE TRIGGER {on_tables} BEFORE UPDATE ON tables WHEN NEW.id = '{quoted}' "
            "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
        )
    conn.close()


async def _sqlite_heal(store: Storage, place: Path, table_id: str) -> None:
    with sqlite3.connect(_sqlite_file(place), timeout=10) as conn:
        for name in _sqlite_trigger_names(table_id):
            conn.execute(f"DROP TRIGGER {name}")
    conn.close()


def _sqlite_batches(store: Storage) -> tuple[int, int]:
    assert isinstance(store, SQLiteStorage)
    stats = store.stats()
    return int(stats["commits"]), int(stats["writes"])


_SQLITE = Backend(
    name="sqlite",
    open=lambda place: SQLiteStorage(_sqlite_file(place)),
    break_table=_sqlite_break,
    heal_table=_sqlite_heal,
    refused=RuntimeError,
    refused_match="refused",
    batches=_sqlite_batches,
    groups_writes=True,
)


def _postgres_url(place: Path) -> str:
    return (place / "postgres.url").read_text()


def _postgres_prepare(request: pytest.FixtureRequest, place: Path) -> None:
    server: PostgresServer = request.getfixturevalue("postgres")
    name = "contract_" + re.sub(r"[^a-z0-9]+", "_", place.name.lower())
    (place / "postgres.url").write_text(server.create_database(name[:63]))


def _postgres_trigger_names(table_id: str) -> tuple[str, str]:
    key = "".join(c if c.isalnum() else "_" for c in table_id)
    return f"contract_fail_events_{key}", f"contract_fail_tables_{key}"


async def _postgres_break(store: Storage, place: Path, table_id: str) -> None:
    # As for SQLite, through a connection of our own.  The events trigger fires once the
    # statement has inserted its rows; the tables one on the table's row, which every write of
    # an existing table updates.
    on_events, on_tables = _postgres_trigger_names(table_id)
    quoted = table_id.replace("'", "''")
    with psycopg.connect(_postgres_url(place), autocommit=True) as conn:
        conn.execute(
            "CREATE OR REPLACE FUNCTION contract_fail() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'injected failure'; END $$"
        )
        conn.execute(
            f"CREATE TRIGGER {on_events} AFTER INSERT ON events FOR EACH ROW "
            f"WHEN (NEW.table_id = '{quoted}') EXECUTE FUNCTION contract_fail()"
        )
        conn.execute(
            f"CREATE TRIGGER {on_tables} BEFORE UPDATE ON tables FOR EACH ROW "
            f"WHEN (NEW.id = '{quoted}') EXECUTE FUNCTION contract_fail()"
        )


async def _postgres_heal(store: Storage, place: Path, table_id: str) -> None:
    on_events, on_tables = _postgres_trigger_names(table_id)
    with psycopg.connect(_postgres_url(place), autocommit=True) as conn:
        conn.execute(f"DROP TRIGGER {on_events} ON events")
        conn.execute(f"DROP TRIGGER {on_tables} ON tables")


def _postgres_batches(store: Storage) -> tuple[int, int]:
    assert isinstance(store, PostgresStorage)
    stats = store.stats()
    return int(stats["commits"]), int(stats["writes"])


#: Every backend the contract runs against.  A new backend appends its entry here.
BACKENDS: list[Backend] = [
    _SQLITE,
    # The same SQLite store committing inline on the event loop (settings.sqlite_commit="inline"):
    # a configuration shipped, with its own write path, so it keeps the contract too.
    replace(
        _SQLITE,
        name="sqlite-inline",
        open=lambda place: SQLiteStorage(_sqlite_file(place), inline=True),
        groups_writes=False,
    ),
    # A single node on PostgreSQL (no node id: no fencing; tests/server/test_postgres_store.py
    # has the cluster's).  Each test has its own database on the session's server.
    Backend(
        name="postgres",
        open=lambda place: PostgresStorage(_postgres_url(place)),
        break_table=_postgres_break,
        heal_table=_postgres_heal,
        refused=Exception,
        batches=_postgres_batches,
        prepare=_postgres_prepare,
    ),
]


@dataclass
class Kit:
    """One backend on one test's place."""

    backend: Backend
    place: Path

    @asynccontextmanager
    async def store(self) -> AsyncIterator[Storage]:
        store = self.backend.open(self.place)
        await store.start()
        try:
            yield store
        finally:
            await store.close()

    async def break_table(self, store: Storage, table_id: str) -> None:
        await self.backend.break_table(store, self.place, table_id)

    async def heal_table(self, store: Storage, table_id: str) -> None:
        await self.backend.heal_table(store, self.place, table_id)

    def refused(self) -> pytest.RaisesExc[Exception]:
        return pytest.raises(self.backend.refused, match=self.backend.refused_match or None)


@pytest.fixture(params=[
    pytest.param(backend, id=backend.name, marks=[pytest.mark.postgres] if backend.name == "postgres" else [])
    for backend in BACKENDS
])
def kit(request: pytest.FixtureRequest, tmp_path: Path) -> Kit:
    backend: Backend = request.param
    if backend.prepare is not None:
        backend.prepare(request, tmp_path)
    return Kit(backend, tmp_path)


def contract(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run a coroutine test with :func:`asyncio.run` (fixtures are passed through)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


# ---------------------------------------------------------------------------- records


def table(table_id: str, created_at: float = 1000.0, status: str = "playing", **fields: Any) -> TableRecord:
    return TableRecord(
        table_id,
        "omi",
        "friends",
        {"target": 10, "trumps": ["H", "S"], "nested": {"a": 1.5, "b": None}},
        1234567890123,
        "medium",
        250,
        30.5,
        status,
        "invite-hash",
        "watch-hash",
        created_at,
        **fields,
    )


SEATS = [
    SeatRecord(0, "human", token_hash="token-0", name="Ama"),
    SeatRecord(1, "computer", "hard"),
    SeatRecord(2, "open"),
    SeatRecord(3, "human", None, "token-3", "Kasun ✓"),
]


def ev(seq: int, action: str = "play TH", client_id: str | None = None, actor: int = 0) -> EventRecord:
    return EventRecord(seq, actor, action, "human" if client_id else "computer", client_id, 1.7e9 + seq / 8)


async def loaded(store: Storage, table_id: str) -> StoredTable:
    found = await store.load_table(table_id)
    assert found is not None, table_id
    return found


# ---------------------------------------------------------------------------- tables


@contract
async def test_a_table_comes_back_exactly_as_created_and_unknown_ids_give_none(kit: Kit) -> None:
    created = table("t1", challenge="ch-1", result={"note": "kept"}, rematch="later")
    async with kit.store() as store:
        await store.create_table(created, SEATS)
        assert await store.load_table("t1") == StoredTable(created, SEATS, [])
        assert await store.load_table("nope") is None
        assert await store.load_challenge("nope") is None
        assert await store.find_challenge("nope", 0) is None
    async with kit.store() as store:
        assert await store.load_table("t1") == StoredTable(created, SEATS, [])


@contract
async def test_a_table_id_is_stored_once(kit: Kit) -> None:
    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        with kit.refused():
            await store.create_table(table("t1", status="waiting", created_at=5.0), SEATS[:1])
        assert await store.load_table("t1") == StoredTable(table("t1"), SEATS, [])


@contract
async def test_unfinished_lists_the_tables_not_over_oldest_first(kit: Kit) -> None:
    async with kit.store() as store:
        for table_id, created_at, status in [
            ("c", 30.0, "playing"),
            ("a", 10.0, "waiting"),
            ("done", 5.0, "over"),
            ("b", 20.0, "playing"),
            ("ends", 1.0, "playing"),
        ]:
            await store.create_table(table(table_id, created_at, status), SEATS)
        assert await store.unfinished() == ["ends", "a", "b", "c"]
        await store.append("ends", [ev(1)], "over", {"winner": 0})
        await store.save_seats("a", [SeatRecord(2, "human", token_hash="h", name="Nimal")], "playing")
        assert await store.unfinished() == ["a", "b", "c"]
    async with kit.store() as store:
        assert await store.unfinished() == ["a", "b", "c"]


# ---------------------------------------------------------------------------- appends


@contract
async def test_append_stores_every_field_and_moves_the_table_durably(kit: Kit) -> None:
    first = [ev(1, "trump H", '"msg-1"', actor=3)]
    # One action of the engine may log several (a computer's reply, a deal): they go together.
    second = [
        ev(2, "play TH", '{"id": 7, "nonce": "é\\"x"}', actor=0),
        ev(3, "play 9H", None, actor=1),
        ev(4, "play AH", None, actor=2),
    ]
    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        await store.create_table(table("other"), SEATS)
        await store.append("t1", first, "playing", None)
        after_first = await loaded(store, "t1")
        assert after_first.events == first
        assert (after_first.table.seq, after_first.table.status, after_first.table.result) == (
            1,
            "playing",
            None,
        )
        await store.append("t1", second, "over", {"winner": 1, "tokens": [4, 10], "by": "kapothi"})
        now = await loaded(store, "t1")
    expected = StoredTable(
        replace(table("t1"), seq=4, status="over", result={"winner": 1, "tokens": [4, 10], "by": "kapothi"}),
        SEATS,
        first + second,
    )
    assert now == expected
    async with kit.store() as store:  # closed and opened again: all of it is there
        assert await store.load_table("t1") == expected
        assert await store.load_table("other") == StoredTable(table("other"), SEATS, [])


@contract
async def test_many_concurrent_appends_are_all_durable_in_order(kit: Kit) -> None:
    n_tables, n_appends = 40, 12

    def events_of(table_no: int, step: int) -> list[EventRecord]:
        # Every third append carries three events; the others one.
        size = 3 if step % 3 == 2 else 1
        start = 1 + sum(3 if s % 3 == 2 else 1 for s in range(step))
        return [
            ev(start + i, f"play {table_no}/{step}/{i}", f'"{table_no}-{start + i}"') for i in range(size)
        ]

    async def play(store: Storage, table_no: int) -> None:
        # As the table actor does: one append at a time per table, many tables at once.
        for step in range(n_appends):
            status = "over" if step == n_appends - 1 else "playing"
            result = {"winner": table_no % 2} if status == "over" else None
            await store.append(f"t{table_no}", events_of(table_no, step), status, result)

    async with kit.store() as store:
        await asyncio.gather(*(store.create_table(table(f"t{i}", float(i)), SEATS) for i in range(n_tables)))
        before = kit.backend.batches(store) if kit.backend.batches else None
        await asyncio.gather(*(play(store, i) for i in range(n_tables)))
        # Several tables' single appends at once too, many events each.
        await asyncio.gather(
            *(store.create_table(table(f"big{i}", 100.0 + i), SEATS) for i in range(n_tables))
        )
        await asyncio.gather(
            *(
                store.append(
                    f"big{i}", [ev(s, client_id=f'"b{i}-{s}"') for s in range(1, 31)], "playing", None
                )
                for i in range(n_tables)
            )
        )
        if kit.backend.batches is not None and before is not None:
            commits, writes = (a - b for a, b in zip(kit.backend.batches(store), before, strict=True))
            assert writes == n_tables * n_appends + 2 * n_tables
            if kit.backend.groups_writes:  # group commit: writes really shared commits
                assert commits < writes / 2, (commits, writes)
            else:
                assert commits == writes
    async with kit.store() as store:
        for i in range(n_tables):
            stored = await loaded(store, f"t{i}")
            expected = [e for step in range(n_appends) for e in events_of(i, step)]
            assert stored.events == expected  # in order, nothing lost, nothing twice
            assert stored.table.seq == expected[-1].seq and stored.table.status == "over"
            assert stored.table.result == {"winner": i % 2}
            big = await loaded(store, f"big{i}")
            assert [e.seq for e in big.events] == list(range(1, 31)) and big.table.seq == 30
        assert await store.unfinished() == [f"big{i}" for i in range(n_tables)]


@contract
async def test_readers_never_see_half_an_append(kit: Kit) -> None:
    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        seen: list[tuple[int, int]] = []
        done = asyncio.Event()

        async def write() -> None:
            seq = 0
            for _ in range(30):
                await store.append("t1", [ev(seq + i) for i in range(1, 6)], "playing", None)
                seq += 5
                await asyncio.sleep(0)  # an inline store returns without ever yielding
            done.set()

        async def read() -> None:
            while not done.is_set():
                now = await loaded(store, "t1")
                seen.append((now.table.seq, len(now.events)))

        await asyncio.gather(write(), read(), read())
        assert seen and [(seq, n) for seq, n in seen if seq != n or seq % 5] == []


# ---------------------------------------------------------------------------- idempotency


@contract
async def test_client_ids_come_back_on_their_events_after_a_reload(kit: Kit) -> None:
    # A rebuilt table answers a retried message with its first ack: the message's id must come
    # back on the very event it made (the last of its append), and only there.
    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        await store.create_table(table("t2"), SEATS)
        await store.append("t1", [ev(1, client_id='"m-1"')], "playing", None)
        await store.append("t2", [ev(1, client_id='"m-1"')], "playing", None)  # same id, other table
        await store.append(
            "t1", [ev(2, "play 9H", None, 1), ev(3, "play TH", '{"n": 2}', 0)], "playing", None
        )
        await store.append("t1", [ev(4, "play AH", None, 2)], "playing", None)
    async with kit.store() as store:
        acks = {e.client_id: e.seq for e in (await loaded(store, "t1")).events if e.client_id is not None}
        assert acks == {'"m-1"': 1, '{"n": 2}': 3}
        assert [(e.seq, e.client_id) for e in (await loaded(store, "t2")).events] == [(1, '"m-1"')]


@contract
async def test_a_stored_seq_is_refused_and_changes_nothing(kit: Kit) -> None:
    async with kit.store() as store:
        for name in ("a", "b", "c"):
            await store.create_table(table(name), SEATS)
        await store.append("a", [ev(1, "play TH", '"first"')], "playing", None)
        await store.append("a", [ev(2, "play 9H")], "playing", None)
        before = await loaded(store, "a")
        with kit.refused():  # the same seq again, moving the table on: refused
            await store.append("a", [ev(2, "trump S", '"retry"')], "over", {"winner": 1})
        with kit.refused():  # a new seq, then a stored one: none of it is kept
            await store.append("a", [ev(3, "play AH"), ev(1, "play KH")], "over", {"winner": 0})
        assert await store.load_table("a") == before
        # Among many appends sharing commits, only the duplicate fails.
        results = await asyncio.gather(
            *(store.append("b", [ev(seq)], "playing", None) for seq in range(1, 101)),
            store.append("a", [ev(1, "trump S")], "playing", None),
            *(store.append("c", [ev(seq)], "playing", None) for seq in range(1, 101)),
            return_exceptions=True,
        )
        failed = [r for r in results if isinstance(r, BaseException)]
        assert len(failed) == 1 and results[100] is failed[0]
        assert isinstance(failed[0], kit.backend.refused)
        await store.append("c", [ev(101, "kapothi", '"x"')], "over", {"winner": 1})
        # The table goes on from where it was.
        await store.append("a", [ev(3, "play AH")], "playing", None)
    async with kit.store() as store:
        a, b, c = [await loaded(store, name) for name in "abc"]
        # The duplicates changed nothing.
        assert [e.action for e in a.events] == ["play TH", "play 9H", "play AH"]
        assert a.table.seq == 3 and a.table.status == "playing" and a.table.result is None
        assert sorted(e.seq for e in b.events) == list(range(1, 101)) and len(b.events) == 100
        assert c.table.status == "over" and c.table.result == {"winner": 1} and c.table.seq == 101
        assert c.events[-1].client_id == '"x"'
        assert await store.unfinished() == ["a", "b"]
        assert await store.load_table("nope") is None


@contract
async def test_writes_to_an_unknown_table_are_refused(kit: Kit) -> None:
    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        with kit.refused():
            await store.append("ghost", [ev(1)], "playing", None)
        with kit.refused():
            await store.save_seats("ghost", [SeatRecord(0, "open")], "waiting")
        assert await store.load_table("ghost") is None
        # Nothing of it waits to surface under that id either.
        await store.create_table(table("ghost"), SEATS)
        assert await store.load_table("ghost") == StoredTable(table("ghost"), SEATS, [])
        assert await store.load_table("t1") == StoredTable(table("t1"), SEATS, [])


# ---------------------------------------------------------------------------- chat


@contract
async def test_chat_comes_back_with_its_table_the_last_ones_in_order(kit: Kit) -> None:
    names = ["Kasun ✓", None, None]
    lines = [ChatLine(n, n % 4, names[n % 3], f"message {n} é\"'", 1.7e9 + n) for n in range(1, 56)]
    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        await store.create_table(table("other"), SEATS)
        for line in lines[:3]:
            await store.add_chat("t1", line)
        assert (await loaded(store, "t1")).chat == lines[:3]
        for line in lines[3:]:
            await store.add_chat("t1", line)
        with kit.refused():  # a number is stored once (older ones than the last KEPT are dropped)
            await store.add_chat("t1", replace(lines[-1], text="again"))
        with kit.refused():  # and only for a table that exists
            await store.add_chat("ghost", lines[0])
        assert (await loaded(store, "other")).chat == []
    async with kit.store() as store:  # durable; the last KEPT, oldest first
        assert (await loaded(store, "t1")).chat == lines[-CHAT_KEPT:]
        assert await store.load_table("ghost") is None


@contract
async def test_a_challenger_s_attempt_is_remembered_once(kit: Kit) -> None:
    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        assert not await store.attempted("c1", "someone")
        await store.add_attempt("c1", "someone", "t1", 1.7e9)
        with kit.refused():  # one attempt each
            await store.add_attempt("c1", "someone", "t1", 1.7e9)
        await store.add_attempt("c2", "someone", "t1", 1.7e9)  # another challenge
    async with kit.store() as store:  # durable
        assert await store.attempted("c1", "someone") and await store.attempted("c2", "someone")
        assert not await store.attempted("c1", "someone else")


# ---------------------------------------------------------------------------- seats, rematches


@contract
async def test_save_seats_replaces_the_seats_given_and_the_status(kit: Kit) -> None:
    async with kit.store() as store:
        await store.create_table(table("t1", status="waiting"), SEATS)
        await store.create_table(table("t2", status="waiting"), SEATS)
        taken = [SeatRecord(2, "human", token_hash="new-token", name="Nimal"), SeatRecord(1, "open")]
        await store.save_seats("t1", taken, "playing")
        expected = StoredTable(
            replace(table("t1"), status="playing"), [SEATS[0], SeatRecord(1, "open"), taken[0], SEATS[3]]
        )
        assert await store.load_table("t1") == expected
        # A human seat handed to the computer: token and name go.
        await store.save_seats("t1", [SeatRecord(0, "computer", "easy")], "playing")
        expected.seats[0] = SeatRecord(0, "computer", "easy")
        assert await store.load_table("t1") == expected
    async with kit.store() as store:
        assert await store.load_table("t1") == expected
        assert await store.load_table("t2") == StoredTable(table("t2", status="waiting"), SEATS, [])


@contract
async def test_a_seat_move_exchanges_two_seats_records_tokens_included_at_once(kit: Kit) -> None:
    # A player moved before the start (TableCore.move_seat): their record, token hash and name,
    # goes to the new seat and the other seat's (a player, or a free seat) to theirs, in one
    # write; a refused write moves neither.
    async with kit.store() as store:
        await store.create_table(table("t1", status="waiting"), SEATS)
        await store.create_table(table("t2", status="waiting"), SEATS)
        swap = [replace(SEATS[3], seat=0), replace(SEATS[0], seat=3)]
        await store.save_seats("t1", swap, "waiting")
        to_free = [replace(SEATS[2], seat=0), replace(SEATS[3], seat=2)]  # Kasun, now at 0, moves on to 2
        await store.save_seats("t1", to_free, "waiting")
        moved = [SeatRecord(0, "open"), SEATS[1], replace(SEATS[3], seat=2), replace(SEATS[0], seat=3)]
        expected = StoredTable(table("t1", status="waiting"), moved)
        assert await store.load_table("t1") == expected

        await kit.break_table(store, "t1")
        with kit.refused():
            await store.save_seats("t1", [replace(moved[3], seat=1), replace(moved[1], seat=3)], "waiting")
        assert await store.load_table("t1") == expected
        await kit.heal_table(store, "t1")
    async with kit.store() as store:  # durable, and the other table untouched
        assert await store.load_table("t1") == expected
        assert await store.load_table("t2") == StoredTable(table("t2", status="waiting"), SEATS, [])


@contract
async def test_a_seat_s_hints_are_stored_with_it(kit: Kit) -> None:
    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        assert [s.hints for s in (await loaded(store, "t1")).seats] == [0, 0, 0, 0]
        await store.save_seats("t1", [replace(SEATS[0], hints=3)], "playing")
    async with kit.store() as store:
        assert [s.hints for s in (await loaded(store, "t1")).seats] == [3, 0, 0, 0]


@contract
async def test_a_seat_s_presence_is_stored_with_it_and_nothing_else_moves(kit: Kit) -> None:
    # Who is away, and when a grace period ends, outlive the process hosting the table
    # (tablecore/presence.py): given back with the table; only seats with either come back.
    def updated_at(conn: Any) -> float:
        return float(conn.execute(select(tables.c.updated_at).where(tables.c.id == "t1")).scalar_one())

    async with kit.store() as store:
        await store.create_table(table("t1"), SEATS)
        await store.create_table(table("t2"), SEATS)
        assert (await loaded(store, "t1")).presence == [], "nothing stored: nobody away, no grace"
        before = await store.snapshot(updated_at)
        presence = [PresenceRecord(0, grace_ends=1.7e9 + 30.25), PresenceRecord(3, away=True)]
        await store.save_presence("t1", [presence[0], PresenceRecord(1), presence[1]])
        assert await store.load_table("t1") == StoredTable(table("t1"), SEATS, presence=presence)
        assert await store.snapshot(updated_at) == before, "presence is no move of the table"
        await store.save_seats("t1", [replace(SEATS[0], hints=2)], "playing")  # seats keep it
        assert (await loaded(store, "t1")).presence == presence
        # Seat 0 back, seat 3 back then gone again: a grace of its own.
        later = [PresenceRecord(0), PresenceRecord(3, grace_ends=1.7e9 + 90.5)]
        await store.save_presence("t1", later)
        with kit.refused():  # only a table that exists
            await store.save_presence("ghost", presence)
    async with kit.store() as store:  # durable, and the other table untouched
        assert (await loaded(store, "t1")).presence == later[1:]
        assert (await loaded(store, "t2")).presence == []


@contract
async def test_a_rematch_marks_the_old_table_in_the_same_transaction(kit: Kit) -> None:
    async with kit.store() as store:
        await store.create_table(table("old", 1.0, "over", seq=9, result={"winner": 0}), SEATS)
        await store.create_table(table("bystander", 2.0, "over"), SEATS)
        # Two records for one seat: the new table cannot be stored, nor the old one marked.
        with kit.refused():
            await store.create_table(table("broken", 3.0, rematch_of="old"), [SEATS[0], SEATS[0]])
        assert await store.load_table("broken") is None
        assert (await loaded(store, "old")).table.rematch is None
        # Marking the old table fails: the new table is not stored either.
        await kit.break_table(store, "old")
        with kit.refused():
            await store.create_table(table("new", 4.0, rematch_of="old"), SEATS)
        assert await store.load_table("new") is None
        assert (await loaded(store, "old")).table.rematch is None
        await kit.heal_table(store, "old")
        await store.create_table(table("new", 4.0, rematch_of="old"), SEATS)
    async with kit.store() as store:
        old, new = await loaded(store, "old"), await loaded(store, "new")
        assert old.table == replace(table("old", 1.0, "over", seq=9, result={"winner": 0}), rematch="new")
        assert new == StoredTable(table("new", 4.0, rematch_of="old"), SEATS, [])
        assert (await loaded(store, "bystander")).table.rematch is None
        assert await store.unfinished() == ["new"]


# ---------------------------------------------------------------------------- challenges


@contract
async def test_challenges_and_their_results(kit: Kit) -> None:
    async with kit.store() as store:
        source = table("src", 100.0, "over", seq=20, result={"winner": 0, "tokens": [10, 3]})
        await store.create_table(
            source, [SeatRecord(0, "human", name="Ama"), SeatRecord(1, "computer", "easy")]
        )
        await store.create_table(table("elsewhere", 50.0), [SeatRecord(0, "human", name="Saman")])
        challenge = ChallengeRecord("ch", "src", 0, [{"seat": 1, "level": "easy"}], 150.0)
        await store.create_challenge(challenge)
        with kit.refused():  # one challenge per table and seat
            await store.create_challenge(ChallengeRecord("ch2", "src", 0, [], 160.0))
        other_seat = ChallengeRecord("ch3", "src", 1, [{"seat": 0, "level": "hard"}], 170.0)
        await store.create_challenge(other_seat)
        # The attempts, opened from the challenge, created out of order; one of another challenge.
        for table_id, created_at, name, chal in [
            ("late", 300.0, "Kasun", "ch"),
            ("early", 200.0, "Nimal", "ch"),
            ("before-src", 90.0, "Odd clock", "ch"),
            ("not-this", 250.0, "Ruwan", "ch3"),
        ]:
            await store.create_table(
                table(table_id, created_at, challenge=chal),
                [SeatRecord(0, "human", name=name), SeatRecord(1, "human", name=f"{name} at 1")],
            )
        await store.append("early", [ev(1), ev(2)], "over", {"winner": 1})

        assert await store.find_challenge("src", 0) == challenge
        assert await store.find_challenge("src", 1) == other_seat
        assert await store.find_challenge("early", 0) is None
        assert await store.find_challenge("src", 2) is None
        assert await store.load_challenge("ch") == challenge
        assert await store.load_challenge("ch2") is None
        rows = await store.challenge_results(challenge)
        assert [(r.table, r.name, r.status, r.seq, r.result, r.created_at) for r in rows] == [
            ("src", "Ama", "over", 20, {"winner": 0, "tokens": [10, 3]}, 100.0),  # the source first
            ("before-src", "Odd clock", "playing", 0, None, 90.0),
            ("early", "Nimal", "over", 2, {"winner": 1}, 200.0),
            ("late", "Kasun", "playing", 0, None, 300.0),
        ]
        rows_3 = await store.challenge_results(other_seat)  # the challenger's seat names each row
        assert [(r.table, r.name) for r in rows_3] == [("src", None), ("not-this", "Ruwan at 1")]
    async with kit.store() as store:
        assert await store.load_challenge("ch") == challenge
        assert await store.challenge_results(challenge) == rows


@contract
async def test_history_gives_the_finished_tables_named_with_their_seats_latest_first(kit: Kit) -> None:
    async with kit.store() as store:
        seats_a = [SeatRecord(0, "human", token_hash="t", name="Ama"), SeatRecord(1, "computer", "hard")]
        for table_id in ("a", "b", "on", "other"):
            await store.create_table(table(table_id), seats_a if table_id == "a" else SEATS)
        await store.append("a", [ev(1), ev(2)], "over", {"winner": 1, "tokens": [2, 10]})
        await store.append("on", [ev(1)], "playing", None)
        await store.append("b", [ev(1)], "over", {"winner": 0})  # ends after "a"
        await store.append("other", [ev(1)], "over", {"winner": 0})  # over, but not asked for
        rows = await store.history(["a", "on", "nope", "b", "a"])
        assert [r.table.id for r in rows] == ["b", "a"]  # unfinished and unknown ids left out
        b, a = rows
        assert a.seats == seats_a and b.seats == SEATS
        assert (a.table.status, a.table.seq, a.table.result) == ("over", 2, {"winner": 1, "tokens": [2, 10]})
        assert a.table == (await loaded(store, "a")).table
        assert b.ended_at >= a.ended_at >= a.table.created_at
        assert await store.history([]) == []
    async with kit.store() as store:  # durable, as everything else
        assert [r.table.id for r in await store.history(["a", "b"])] == ["b", "a"]


@contract
async def test_challenges_from_a_table_are_every_seat_s(kit: Kit) -> None:
    async with kit.store() as store:
        await store.create_table(table("src", status="over"), SEATS)
        await store.create_table(table("plain", status="over"), SEATS)
        assert await store.challenges_from("src") == []
        second = ChallengeRecord("c3", "src", 3, [{"seat": 0, "level": "hard"}], 20.0)
        first = ChallengeRecord("c0", "src", 0, [{"seat": 1, "level": "easy"}], 30.0)
        await store.create_challenge(second)
        await store.create_challenge(first)
        assert await store.challenges_from("src") == [first, second]
        assert await store.challenges_from("plain") == []
        assert await store.challenges_from("nope") == []


# ---------------------------------------------------------------------------- failures


@contract
async def test_a_failed_write_stores_nothing_and_the_store_keeps_working(kit: Kit) -> None:
    async with kit.store() as store:
        for name in ("x", "y"):
            await store.create_table(table(name, status="waiting"), SEATS)
            await store.save_seats(name, [SeatRecord(2, "human", token_hash="t", name="Nimal")], "playing")
            await store.append(name, [ev(1, client_id='"one"'), ev(2)], "playing", None)
        before = await loaded(store, "x")

        await kit.break_table(store, "x")
        with kit.refused():  # one event
            await store.append("x", [ev(3, client_id='"three"')], "over", {"winner": 0})
        with kit.refused():  # several: the first reached the database before the failure
            await store.append("x", [ev(3), ev(4), ev(5, client_id='"five"')], "over", {"winner": 1})
        with kit.refused():
            await store.save_seats("x", [SeatRecord(0, "computer", "easy")], "over")
        assert await store.load_table("x") == before  # seq, status, seats, events: unchanged
        # Other tables go on, alone and beside failing writes sharing their commits.
        await store.append("y", [ev(3)], "playing", None)
        results = await asyncio.gather(
            store.append("x", [ev(3)], "playing", None),
            *(store.append("y", [ev(seq)], "playing", None) for seq in range(4, 40)),
            store.save_seats("x", [SeatRecord(1, "open")], "waiting"),
            store.save_seats("y", [SeatRecord(1, "open")], "playing"),
            return_exceptions=True,
        )
        assert [i for i, r in enumerate(results) if isinstance(r, BaseException)] == [0, 37]
        y = await loaded(store, "y")
        assert [e.seq for e in y.events] == list(range(1, 40)) and y.seats[1] == SeatRecord(1, "open")
        assert await store.load_table("x") == before

        await kit.heal_table(store, "x")
        # The same table, with the same seqs it failed to store, once the fault is gone.
        await store.append("x", [ev(3), ev(4), ev(5, client_id='"five"')], "over", {"winner": 1})
    async with kit.store() as store:
        x = await loaded(store, "x")
        assert x.events == [*before.events, ev(3), ev(4), ev(5, client_id='"five"')]
        assert (x.table.seq, x.table.status, x.table.result) == (5, "over", {"winner": 1})
        assert x.seats == before.seats
        assert await store.unfinished() == ["y"]


# ---------------------------------------------------------------------------- analyses


@contract
async def test_one_job_claims_an_analysis_until_it_is_done_or_stale(kit: Kit) -> None:
    async with kit.store() as store:
        assert await store.load_analysis("t1") is None
        assert await store.claim_analysis("t1", "job-a", now=100.0, stale_before=40.0)
        assert await store.load_analysis("t1") == AnalysisRecord("t1", "queued", 0, 0, None, "job-a", 100.0)
        # Another job (another node) finds it taken while job-a shows signs of life.
        assert not await store.claim_analysis("t1", "job-b", now=101.0, stale_before=41.0)
        running = AnalysisRecord("t1", "running", 3, 40, None, "job-a", 102.0)
        assert await store.save_analysis(running)
        assert await store.load_analysis("t1") == running
        # Silent since 102 (its node died): a later job takes it over, from the start, and the
        # first one's writes then change nothing.
        assert await store.claim_analysis("t1", "job-b", now=200.0, stale_before=140.0)
        assert await store.load_analysis("t1") == AnalysisRecord("t1", "queued", 0, 0, None, "job-b", 200.0)
        assert not await store.save_analysis(replace(running, done=4, updated_at=201.0))
        result = {"game": "omi", "moves": [{"index": 3, "mark": "blunder", "loss": 1.25}], "players": {}}
        done = AnalysisRecord("t1", "done", 40, 40, result, "job-b", 230.0)
        assert await store.save_analysis(done)
        # Done is done: a progress beat of the same job written after the result changes nothing
        # (it once turned the result back into "running", lost), and it is never claimed again.
        assert not await store.save_analysis(AnalysisRecord("t1", "running", 40, 40, None, "job-b", 231.0))
        assert await store.load_analysis("t1") == done
        assert not await store.claim_analysis("t1", "job-c", now=10_000.0, stale_before=9_000.0)
        assert await store.load_analysis("t2") is None
    async with kit.store() as store:  # durable
        assert await store.load_analysis("t1") == done


@contract
async def test_a_failed_analysis_may_be_claimed_again_once_stale(kit: Kit) -> None:
    async with kit.store() as store:
        assert await store.claim_analysis("t1", "job-a", now=100.0, stale_before=40.0)
        assert await store.save_analysis(AnalysisRecord("t1", "failed", 2, 40, None, "job-a", 101.0))
        assert not await store.save_analysis(AnalysisRecord("t1", "running", 2, 40, None, "job-a", 101.5))
        assert not await store.claim_analysis("t1", "job-b", now=102.0, stale_before=42.0)
        assert await store.claim_analysis("t1", "job-b", now=300.0, stale_before=240.0)


@contract
async def test_a_transaction_is_whole_or_nothing_and_durable_and_a_snapshot_reads_it(kit: Kit) -> None:
    from sqlalchemy import Connection, func, insert, select

    from bistrot.server.schema import profiles

    def row(n: int) -> dict[str, Any]:
        return {"id": f"p{n}", "name": f"P{n}", "key_hash": f"h{n}", "created_at": float(n)}

    def two(conn: Connection) -> str:
        conn.execute(insert(profiles), [row(1), row(2)])
        return "written"

    def one_then_a_clash(conn: Connection) -> None:
        conn.execute(insert(profiles), row(3))
        conn.execute(insert(profiles), row(1))  # the id is taken: the whole transaction fails

    def count(conn: Connection) -> int:
        return int(conn.execute(select(func.count()).select_from(profiles)).scalar_one())

    async with kit.store() as store:
        assert await store.transaction(two) == "written"
        with pytest.raises(Exception):  # noqa: B017 (each store words its refusal its own way)
            await store.transaction(one_then_a_clash)
        assert await store.snapshot(count) == 2  # p3 was not kept
    async with kit.store() as store:  # durable
        assert await store.snapshot(count) == 2
