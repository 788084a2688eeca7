"""``bistrot serve --database-url``: the card room on a real, throwaway PostgreSQL.

A server killed with SIGKILL comes back from PostgreSQL with nothing acknowledged lost; a second
server on the same database is refused at start; a database that cannot be reached is one line;
while PostgreSQL is down actions are refused ``storage_error`` (never acknowledged) and
``/healthz`` says so, and the server carries on by itself once it is back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
from server_harness import Client, ProcessServer, act_first_legal, http, open_table, play_out, settle

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]


def stored(url: str, table: str) -> list[tuple[int, int, str, str | None]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT seq, actor, action, client_id FROM events WHERE table_id = %s ORDER BY seq", [table]
        ).fetchall()
    return [(int(r[0]), int(r[1]), str(r[2]), r[3]) for r in rows]


def serve(tmp_path: Path, url: str, **env: str) -> ProcessServer:
    # --db names a file that must never appear: everything goes to PostgreSQL.
    return ProcessServer(tmp_path / "unused.db", "--database-url", url, env=env)


@pytest.mark.process
def test_sigkill_then_restart_on_postgresql_continues_with_nothing_lost(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres.create_database("serve_recovery")
    env = {"BISTROT_BOT_DELAY_MS": "0"}
    first = serve(tmp_path, url, **env).start()
    try:
        assert "PostgreSQL at 127.0.0.1" in "".join(first.output)
        table = open_table(first.url, mode="computer", level="medium", rules={"target": 2})
        tid, token = table["table"], table["seats"][0]["token"]
        me = Client(first.url, tid, token)
        acks = act_first_legal(me, 5)
        me.wait_turn_or_end()
        seq = me.seq
        first.kill()
    finally:
        first.stop()
    assert not (tmp_path / "unused.db").exists()
    events = stored(url, tid)
    assert [e[0] for e in events] == list(range(1, seq + 1))
    for answer, action in acks:
        assert events[answer["seq"] - 1][1:] == (0, action, json.dumps(answer["id"]))

    second = serve(tmp_path, url, **env).start()
    try:
        back = Client(second.url, tid, token, since=seq)
        settle(back)
        assert [m["seq"] for m in back.messages if m["type"] == "state"] == [seq]
        last_answer, last_action = acks[-1]
        assert back.act(last_action, id=last_answer["id"]) == last_answer  # once, not twice
        play_out(back)
        assert back.view["is_over"]
        back.close()
    finally:
        second.stop()
    final = stored(url, tid)
    assert final[:seq] == events and [e[0] for e in final] == list(range(1, len(final) + 1))


@pytest.mark.process
def test_a_second_server_on_the_same_database_is_refused_at_start(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres.create_database("serve_exclusive")
    first = serve(tmp_path, url).start()
    try:
        second = subprocess.run(
            [sys.executable, "-m", "bistrot", "serve", "--port", "0", "--database-url", url],
            capture_output=True, text=True, timeout=60, env=first.env,
        )  # fmt: skip
        assert second.returncode == 1
        assert second.stderr.strip().splitlines() == [
            f"bistrot serve: database PostgreSQL at 127.0.0.1:{postgres.port}, database serve_exclusive: "
            "another bistrot server is using this database; one server per database"
        ]
        with http(first.url) as client:  # the first one is untouched
            assert client.get("/healthz").json()["ok"] is True
    finally:
        first.stop()


@pytest.mark.postgres
def test_a_database_that_cannot_be_reached_is_one_line_without_the_password(tmp_path: Path) -> None:
    from tests.postgres_server import PostgresServer  # (loaded by pytest_plugins first)

    with PostgresServer() as gone:
        port = gone.port
    url = f"postgresql://ama:s3cret-pw@127.0.0.1:{port}/room"
    run = subprocess.run(
        [sys.executable, "-m", "bistrot", "serve", "--port", "0", "--database-url", url],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot connect" in lines[0] and f"127.0.0.1:{port}" in lines[0]
    assert "s3cret-pw" not in run.stderr + run.stdout


@pytest.mark.postgres
@pytest.mark.process
def test_postgresql_down_refuses_actions_and_health_then_recovers_by_itself(tmp_path: Path) -> None:
    # A server of its own: this test stops it, the session's shared one must stay up.
    from tests.postgres_server import PostgresServer  # (loaded by pytest_plugins first)

    with PostgresServer() as pg:
        url = pg.create_database("outage")
        server = serve(tmp_path, url, BISTROT_BOT_DELAY_MS="0").start()
        try:
            table = open_table(server.url, mode="computer", level="easy", rules={"target": 1})
            tid, token = table["table"], table["seats"][0]["token"]
            me = Client(server.url, tid, token)
            view = me.wait_turn_or_end()
            seq = me.seq
            pg.stop()
            answer = me.act(view["legal"][0], id="during")
            assert answer["type"] == "reject" and answer["code"] == "storage_error", answer
            settle(me)
            assert me.seq == seq  # nothing applied, nothing fanned out
            with http(server.url) as client:
                health = client.get("/healthz")
                assert health.status_code == 503 and health.json()["store_reachable"] is False
            pg.start()
            with http(server.url) as client:
                health = client.get("/healthz")
                assert health.status_code == 200 and health.json()["ok"] is True
            answer = me.act(view["legal"][0], id="after")
            assert answer["type"] == "ack" and answer["seq"] == seq + 1
            me.close()
        finally:
            server.stop()
        assert [e[0] for e in stored(url, tid)] == list(range(1, seq + 2))
