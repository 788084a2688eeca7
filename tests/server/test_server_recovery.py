"""A real ``bistrot serve`` killed with SIGKILL mid-match, restarted on the same database."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from server_harness import Client, ProcessServer, act_first_legal, http, open_table, play_out, settle


def stored(db: Path, table: str) -> list[tuple[int, int, str, str | None]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT seq, actor, action, client_id FROM events WHERE table_id = ? ORDER BY seq", (table,)
        ).fetchall()


@pytest.mark.process
def test_sigkill_mid_match_then_restart_continues_at_the_same_seq_with_nothing_lost(tmp_path: Path):
    db = tmp_path / "room.db"
    env = {"BISTROT_BOT_EXECUTOR": "process", "BISTROT_BOT_DELAY_MS": "0"}
    first = ProcessServer(db, env=env).start()
    try:
        table = open_table(first.url, mode="computer", level="medium", rules={"target": 2})
        tid, token = table["table"], table["seats"][0]["token"]
        me = Client(first.url, tid, token)
        acks = act_first_legal(me, 6)
        before = me.wait_turn_or_end()  # our turn: every computer move is in too
        seq = me.seq
        first.kill()
    finally:
        first.stop()
    events = stored(db, tid)
    assert [e[0] for e in events] == list(range(1, seq + 1))
    for answer, action in acks:  # every acknowledged action is stored, with its client id
        assert events[answer["seq"] - 1][1:] == (0, action, json.dumps(answer["id"]))

    second = ProcessServer(db, env=env).start()
    try:
        back = Client(second.url, tid, token, since=seq)
        settle(back)
        states = [m for m in back.messages if m["type"] == "state"]
        assert [m["seq"] for m in states] == [seq]
        after = states[0]["view"]
        for key in ("hand", "legal", "trick", "tokens", "tricks_won", "trump", "to_move", "results"):
            assert after[key] == before[key], key
        # A retry of the last action after the restart gets its original ack, and acts once.
        last_answer, last_action = acks[-1]
        assert back.act(last_action, id=last_answer["id"]) == last_answer
        play_out(back)
        assert back.view["is_over"]
        with http(second.url) as client:
            info = client.get(f"/api/tables/{tid}").json()
        assert info["status"] == "over" and info["seq"] == back.seq
        back.close()
    finally:
        second.stop()
    final = stored(db, tid)
    assert final[:seq] == events and [e[0] for e in final] == list(range(1, len(final) + 1))


@pytest.mark.process
def test_secrets_never_reach_the_log(tmp_path: Path):
    server = ProcessServer(tmp_path / "room.db", "--log-level", "debug").start()
    try:
        table = open_table(server.url, mode="friends", rules={"target": 1}, level="easy")
        tid = table["table"]
        secrets = [table["seats"][0]["token"], table["invite"], table["watch"]]
        with http(server.url) as client:
            joined = client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"]}).json()
            secrets.append(joined["token"])
            client.post(f"/api/tables/{tid}/start", json={"token": "wrong-token-123"})
            client.post(f"/api/tables/{tid}/start", json={"token": table["seats"][0]["token"]})
        with (
            Client(server.url, tid, table["seats"][0]["token"]) as me,
            Client(server.url, tid, table["watch"]),
            Client(server.url, tid, joined["token"], since=0),
        ):
            me.wait_turn_or_end()
        Client(server.url, tid, "wrong-token-456").close()
        settle(Client(server.url, tid, table["seats"][0]["token"]))
    finally:
        server.stop()
    log = "".join(server.output)
    assert "WebSocket /ws/" in log and "POST /api/tables" in log  # the log does speak of them ...
    for secret in [*secrets, "wrong-token-123", "wrong-token-456"]:
        assert secret not in log  # ... but never of a token, an invite or a watch key
