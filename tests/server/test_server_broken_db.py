"""Corrupted or foreign database files: ``bistrot serve`` refuses a file it cannot use in one
line, and a table whose stored rows cannot be rebuilt is answered ``broken_table`` while the
others play on (docs/server.md, "Damaged and foreign databases")."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from server_harness import TIMEOUT, Client, ThreadServer, http, make_settings, open_table, play_out
from websockets.exceptions import ConnectionClosed

from bistrot.server.sqlite import APPLICATION_ID


def serve(db: Path) -> subprocess.CompletedProcess[str]:
    """``bistrot serve --db db``, expected to refuse the file and exit at once."""
    env = {**os.environ, "BISTROT_BOT_EXECUTOR": "thread", "BISTROT_OFFLINE_FETCH": "0"}
    return subprocess.run(
        [sys.executable, "-m", "bistrot", "serve", "--port", "0", "--db", str(db)],
        capture_output=True, text=True, env=env, timeout=TIMEOUT, check=False,
    )


def sql(db: Path, *statements: str, args: tuple[object, ...] = ()) -> None:
    with sqlite3.connect(db) as conn:
        for statement in statements:
            conn.execute(statement, args if "?" in statement else ())
    conn.close()


def real_database(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """A database of ours with one table in it, made by a real server (then stopped)."""
    settings = make_settings(tmp_path)
    with ThreadServer(settings) as server:
        table = open_table(server.url)
    return Path(settings.db), table


def text_file(tmp_path: Path) -> Path:
    db = tmp_path / "notes.db"
    db.write_text("a shopping list, not a database\n" * 200)
    return db


def random_bytes(tmp_path: Path) -> Path:
    db = tmp_path / "noise.db"
    db.write_bytes(bytes((i * 7919 + 13) % 256 for i in range(50_000)))
    return db


def damaged(tmp_path: Path) -> Path:
    db, _ = real_database(tmp_path)
    with sqlite3.connect(db) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    assert pages >= 4
    with db.open("r+b") as f:  # a page in the middle (every page is some table's or index's)
        f.seek(page * (pages // 2))
        f.write(b"\xff" * page)
    return db


def foreign(tmp_path: Path) -> Path:
    db = tmp_path / "notes.sqlite"
    sql(db, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)", "INSERT INTO notes VALUES (1, 'hi')")
    return db


def foreign_id(tmp_path: Path) -> Path:
    db = tmp_path / "other.sqlite"
    sql(db, "PRAGMA application_id = 1234")  # another program's mark, even with no table yet
    return db


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (text_file, "is not a SQLite database"),
        (random_bytes, "is not a SQLite database"),
        (damaged, "is damaged"),
        (foreign, "is another program's SQLite database"),
        (foreign_id, "is another program's SQLite database"),
        (lambda tmp_path: tmp_path, "is a folder"),
    ],
    ids=["text", "random-bytes", "damaged", "foreign", "foreign-application-id", "folder"],
)
def test_serve_refuses_a_file_it_cannot_use_in_one_line(
    tmp_path: Path, make: Callable[[Path], Path], says: str
):
    db = make(tmp_path)
    before = None if db.is_dir() else db.read_bytes()
    done = serve(db)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(db.resolve()) in lines[0] and says in lines[0]
    assert "Traceback" not in done.stderr + done.stdout
    assert "http://" not in done.stdout  # it never said it was up
    if before is not None:
        assert db.read_bytes() == before  # refused, untouched


def test_our_database_made_before_the_application_id_is_accepted_and_marked(tmp_path: Path):
    db, table = real_database(tmp_path)
    sql(db, "PRAGMA application_id = 0")  # as every file made before the id was
    with ThreadServer(make_settings(tmp_path)) as server, http(server.url) as client:
        assert client.get(f"/api/tables/{table['table']}").status_code == 200
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


def test_our_database_made_before_hints_and_analyses_gains_them_and_keeps_its_tables(tmp_path: Path):
    db, table = real_database(tmp_path)
    # As the version before them left a file: no seats.hints, no analyses (SQLite 3.35+ drops columns).
    sql(db, "ALTER TABLE seats DROP COLUMN hints", "DROP TABLE analyses")
    with ThreadServer(make_settings(tmp_path)) as server, http(server.url) as client:
        assert client.get(f"/api/tables/{table['table']}").status_code == 200
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT DISTINCT hints FROM seats").fetchall() == [(0,)]
        assert conn.execute("SELECT count(*) FROM analyses").fetchone() == (0,)
    conn.close()


def test_a_file_lacking_a_column_without_a_default_is_another_version_s(tmp_path: Path):
    db, _ = real_database(tmp_path)
    sql(db, "ALTER TABLE chat DROP COLUMN text")  # a column every row must have: cannot be made up
    before = db.read_bytes()
    done = serve(db)
    assert done.returncode != 0
    assert "its table chat lacks the columns text, so another version of bistrot made it" in done.stderr
    assert db.read_bytes() == before


# ---------------------------------------------------------------------- broken tables

#: How each table's rows are spoiled (while the server is stopped).
SPOIL = {
    "bad-json-rules": ["UPDATE tables SET rules = '{not json' WHERE id = ?"],
    "unknown-game": ["UPDATE tables SET game = 'chess' WHERE id = ?"],
    "misnumbered": ["UPDATE tables SET seq = seq + 3 WHERE id = ?"],
    "illegal-event": [
        "INSERT INTO events (table_id, seq, actor, action, by, time)"
        " VALUES (?, 1, 0, 'castle kingside', 'human', 0)",
        "UPDATE tables SET seq = 1 WHERE id = ?",
    ],
    "seat-missing": ["DELETE FROM seats WHERE table_id = ? AND seat = 2"],
    # Finished, so not rebuilt at start: found broken when first asked for.
    "over-bad-json": ["UPDATE tables SET status = 'over', result = '{not json' WHERE id = ?"],
}


def test_a_table_that_cannot_be_rebuilt_is_broken_and_the_others_play(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    settings = make_settings(tmp_path)
    with ThreadServer(settings) as server:
        spoilt = {name: open_table(server.url, mode="friends") for name in SPOIL}
        sound = open_table(server.url, mode="computer")
    for name, statements in SPOIL.items():
        sql(Path(settings.db), *statements, args=(spoilt[name]["table"],))

    caplog.set_level(logging.INFO, logger="bistrot.server.room")
    with ThreadServer(settings) as server, http(server.url) as client:
        for name, table in spoilt.items():
            tid, token = table["table"], table["seats"][0]["token"]
            answers = [
                client.get(f"/api/tables/{tid}"),
                client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"]}),
                *(client.post(f"/api/tables/{tid}/{what}", json={"token": token}) for what in
                  ("start", "rematch", "challenge")),
            ]
            for answer in answers:
                assert answer.status_code == 500, (name, answer.text)
                assert answer.json()["code"] == "broken_table", name
            with Client(server.url, tid, token) as ws:
                assert ws.recv()["code"] == "broken_table"
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4500

        health = client.get("/healthz")
        assert health.status_code == 200
        body = health.json()
        assert body["ok"] is True and body["store_reachable"] is True  # one table is not the node
        assert body["broken_tables"] == len(SPOIL)
        assert set(body["broken"]) == {t["table"][:6] for t in spoilt.values()}

        # Another table still plays.
        with Client(server.url, sound["table"], sound["seats"][0]["token"]) as me:
            view = me.wait_turn_or_end()
            assert me.act(view["legal"][0])["type"] == "ack"

    for table in spoilt.values():  # logged once each, however often it was asked for
        said = [r.getMessage() for r in caplog.records]
        assert len([m for m in said if "is broken" in m and table["table"] in m]) == 1


def test_a_challenge_on_a_broken_table_is_broken_too(tmp_path: Path):
    settings = make_settings(tmp_path)
    with ThreadServer(settings) as server, http(server.url) as client:
        table = open_table(server.url, rules={"target": 1})  # one hand (or two, after a 4:4)
        token = table["seats"][0]["token"]
        with Client(server.url, table["table"], token) as me:
            play_out(me)
        challenge = client.post(f"/api/tables/{table['table']}/challenge", json={"token": token}).json()
    sql(Path(settings.db), "UPDATE tables SET game = 'chess' WHERE id = ?", args=(table["table"],))
    with ThreadServer(settings) as server, http(server.url) as client:
        answers = [
            client.get(f"/api/challenges/{challenge['challenge']}"),
            client.post(f"/api/challenges/{challenge['challenge']}/play", json={}),
        ]
    assert [(a.status_code, a.json()["code"]) for a in answers] == [(500, "broken_table")] * 2


def test_healthz_lists_no_broken_table_on_a_sound_database(server: ThreadServer):
    with http(server.url) as client:
        body = client.get("/healthz").json()
    assert body["ok"] is True and body["store_reachable"] is True
    assert body["broken_tables"] == 0 and body["broken"] == []
    assert body["store_writable"] is True and body["store"]["failed_writes"] == 0


def _wait_for_graces_stored(db: Path, table_ids: list[str]) -> None:
    deadline = time.monotonic() + TIMEOUT
    marks = ",".join("?" * len(table_ids))
    query = (
        "SELECT count(DISTINCT table_id) FROM seats"
        f" WHERE grace_ends IS NOT NULL AND table_id IN ({marks})"
    )
    while True:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            if conn.execute(query, table_ids).fetchone()[0] == len(table_ids):
                return
        assert time.monotonic() < deadline, "the tables' grace periods were not stored"
        time.sleep(0.02)


def _damage_an_index_of_seats(db: Path) -> None:
    """Overwrite the root page of the seats' key index while the server runs: reads of
    ``tables`` still work, every new table fails to store."""
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the pages in the file, not the WAL
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_seats_1'")
        (number,) = root.fetchone()
    conn.close()
    with db.open("r+b") as f:
        f.seek(page * (number - 1))
        f.write(b"\xff" * page)


def test_a_database_damaged_while_the_server_runs_is_reported_and_refusals_are_json(
    tmp_path: Path, error_records
):
    # Before: opening a table answered a plain-text 500 while /healthz said ok, and the failed
    # write's log line held the table's seed among the SQL parameters.
    settings = make_settings(tmp_path)
    with ThreadServer(settings) as server:
        made = [open_table(server.url, mode="hotseat") for _ in range(3)]
        # Nobody connected: each table stores that its seats' grace periods have started (a
        # write of its own, after the table's); damaged before that, it would fail too.
        _wait_for_graces_stored(Path(settings.db), [table["table"] for table in made])
        _damage_an_index_of_seats(Path(settings.db))
        answers = []
        for _ in range(2):
            with http(server.url) as client:
                answers.append(client.post("/api/tables", json={"game": "omi", "seed": 123456789}))
        with http(server.url) as client:
            health = client.get("/healthz")
    for answer in answers:
        assert answer.headers["content-type"] == "application/json", answer.text
        assert (answer.status_code, answer.json()["code"]) == (503, "storage_error")
    assert health.status_code == 503
    body = health.json()
    assert (body["ok"], body["store_reachable"], body["store_writable"]) == (False, True, False)
    assert body["store"]["failed_writes"] == 2 and body["tables"] == len(made)
    # Logged once with its cause; the second failure in one line; no seed.
    assert len(error_records.records) == 1, [r.getMessage() for r in error_records.records]
    logged = error_records.format(error_records.records[0])
    assert "malformed" in logged and "123456789" not in logged


def test_an_unexpected_failure_answers_the_documented_json_and_is_logged_once(
    server: ThreadServer, error_records, monkeypatch: pytest.MonkeyPatch
):
    async def fails(table_id: str) -> dict[str, object]:
        raise KeyError("a bug")

    monkeypatch.setattr(server.room, "info", fails)
    with http(server.url) as client:
        answer = client.get("/api/tables/SomeTable?token=secret")
        assert client.get("/healthz").status_code == 200  # the server goes on, on the same connection
    assert answer.headers["content-type"] == "application/json"
    assert (answer.status_code, answer.json()["code"]) == (500, "internal_error")
    assert answer.json()["message"] and "a bug" not in answer.json()["message"]
    assert len(error_records.records) == 1
    logged = error_records.format(error_records.records[0])
    assert "KeyError" in logged and "/api/tables/SomeTable" in logged and "secret" not in logged
