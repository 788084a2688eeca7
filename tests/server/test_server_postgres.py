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
import time
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
from server_harness import Client, ProcessServer, act_first_legal, http, open_table, play_out, settle
from websockets.exceptions import ConnectionClosed

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


def _refusal(client: Client) -> tuple[list[tuple[str, str]], int | None]:
    """What a refused connection was sent, and its close code."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.recv()
    frame = closed.value.rcvd
    return [(m["type"], m.get("code", "")) for m in client.messages], None if frame is None else frame.code


def _not_access(lines: list[str]) -> list[str]:
    """The log lines that are not uvicorn's or our own line per request or socket."""
    access = ('"WebSocket /ws/', "connection open", "connection closed", "GET /healthz ")
    return [line for line in lines if not any(mark in line for mark in access)]


@pytest.mark.postgres
@pytest.mark.process
def test_postgresql_down_refuses_connections_in_one_log_line_then_recovers(tmp_path: Path) -> None:
    from tests.postgres_server import PostgresServer  # (loaded by pytest_plugins first)

    with PostgresServer() as pg:
        url = pg.create_database("outage_connect")
        # Tables leave memory at once: a connection then reads its table from the store.
        server = serve(tmp_path, url, BISTROT_BOT_DELAY_MS="0", BISTROT_EVICT_AFTER_S="0.1").start()
        try:
            table = open_table(server.url, mode="computer", level="easy", rules={"target": 1})
            tid, token = table["table"], table["seats"][0]["token"]
            with Client(server.url, tid, token) as me:
                view = me.wait_turn_or_end()
                seq = me.seq
            with http(server.url) as client:
                deadline = time.monotonic() + 20
                while client.get("/healthz").json()["tables"]:
                    assert time.monotonic() < deadline, "the table did not leave memory"
                    time.sleep(0.05)
            pg.stop()
            mark = len(server.output)
            for n in range(50):
                # Half as the page connects, without a token (its hello would follow): the table
                # is looked for first.
                refused = Client(server.url, tid, token if n % 2 else None)
                assert _refusal(refused) == ([("reject", "storage_error")], 4503)
            with http(server.url) as client:
                health = client.get("/healthz")
                assert health.status_code == 503 and health.json()["store_reachable"] is False
            time.sleep(0.5)  # (the server's output is read by a thread)
            during = "".join(server.output[mark:])
            assert "Traceback" not in during
            said = _not_access(server.output[mark:])
            assert len(said) <= 3, said
            assert any("the store cannot be reached" in line for line in said), said

            pg.start()
            with http(server.url) as client:
                deadline = time.monotonic() + 20
                while client.get("/healthz").status_code != 200:
                    assert time.monotonic() < deadline, "the store did not come back"
                    time.sleep(0.1)
            with Client(server.url, tid, token, since=seq) as back:
                back.wait_for(lambda m: m["type"] == "state")
                answer = back.act(view["legal"][0], id="after")
                assert answer["type"] == "ack" and answer["seq"] == seq + 1, answer
            time.sleep(0.3)
            assert any("the store answers again" in line for line in server.output[mark:])
            assert "Traceback" not in "".join(server.output[mark:])
        finally:
            server.stop()
        assert [e[0] for e in stored(url, tid)] == list(range(1, seq + 2))
