"""A real ``bistrot serve`` killed with SIGKILL mid-match, restarted on the same database."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from server_harness import TIMEOUT, Client, ProcessServer, act_first_legal, http, open_table, play_out, settle


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


def with_a_friend(url: str) -> tuple[str, str, str]:
    """A friends table of Omi started by its creator (seat 0) with a friend at seat 1 and the
    computer at the others: (table, creator's token, friend's token)."""
    table = open_table(url, mode="friends", rules={"target": 1}, level="easy")
    tid, creator = table["table"], table["seats"][0]["token"]
    with http(url) as client:
        joined = client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"], "name": "Kasun"})
        client.post(f"/api/tables/{tid}/start", json={"token": creator}).raise_for_status()
    return tid, creator, joined.json()["token"]


def presence(db: Path, table: str, seat: int, until: Any = bool) -> tuple[int, float | None]:
    """(away, grace_ends) as stored for a seat, once ``until`` of it holds (within TIMEOUT)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        with sqlite3.connect(db) as conn:
            row = conn.execute(
                "SELECT away, grace_ends FROM seats WHERE table_id = ? AND seat = ?", (table, seat)
            ).fetchone()
        conn.close()
        if until(row) or time.monotonic() > deadline:
            return row
        time.sleep(0.02)


@pytest.mark.process
def test_a_grace_period_running_at_a_restart_goes_on_with_what_was_left_of_it(tmp_path: Path):
    db = tmp_path / "room.db"
    env = {"BISTROT_BOT_DELAY_MS": "0", "BISTROT_GRACE_S": "30"}
    first = ProcessServer(db, env=env).start()
    try:
        tid, creator, friend = with_a_friend(first.url)
        me = Client(first.url, tid, creator)
        with Client(first.url, tid, friend) as gone:
            settle(gone)
            assert presence(db, tid, 1, until=lambda row: row[1] is None) == (0, None)  # here
        # Stored as the grace starts (the friend left), in wall-clock time.
        _, ends = presence(db, tid, 1, until=lambda row: row[1] is not None)
        assert ends is not None and 0 < ends - time.time() <= 30
        first.kill()  # a crash: nothing more is stored
        me.close()
    finally:
        first.stop()
    second = ProcessServer(db, env=env).start()
    try:
        while time.time() < ends - 28:  # two seconds of the grace gone at least, restart included
            time.sleep(0.05)
        with Client(second.url, tid, creator) as back:
            back.wait_for(lambda m: m["type"] == "state")
            told_at = time.time()
            seat = back.view["seats"][1]
            # Everyone sees what is left of it, not a whole grace period again.
            assert not seat["connected"] and not seat["away"]
            assert seat["grace_left"] <= 28 and abs(seat["grace_left"] - (ends - told_at)) <= 1.5
            with Client(second.url, tid, friend):  # back in time: the grace is over, stored so
                assert presence(db, tid, 1, until=lambda row: row[1] is None) == (0, None)
    finally:
        second.stop()


@pytest.mark.process
def test_a_seat_away_at_a_restart_is_still_away_and_the_computer_plays_it_at_once(tmp_path: Path):
    db = tmp_path / "room.db"
    env = {"BISTROT_BOT_DELAY_MS": "0", "BISTROT_GRACE_S": "0.5"}
    first = ProcessServer(db, env=env).start()
    try:
        tid, creator, friend = with_a_friend(first.url)
        with Client(first.url, tid, creator) as me:
            with Client(first.url, tid, friend) as gone:
                settle(gone)
            me.wait_for(lambda m: m["type"] == "state" and m["view"]["seats"][1]["away"])
        assert presence(db, tid, 1, until=lambda row: row[0]) == (1, None)
        first.kill()
    finally:
        first.stop()
    second = ProcessServer(db, env=env).start()
    try:
        with Client(second.url, tid, creator) as me:
            first_state = me.wait_for(lambda m: m["type"] == "state")
            seat = first_state["view"]["seats"][1]
            assert seat["away"] and "grace_left" not in seat, "no new grace period: away from the start"
            # The game goes on at once: the computer plays seat 1 whenever it is its turn.
            def seat_1_played() -> bool:
                states = [m for m in me.messages if m["type"] == "state"]
                assert all(m["view"]["seats"][1]["away"] for m in states)
                moves = [m["last"] for m in states if m["last"]]
                return any(last["seat"] == 1 and last["by"] == "computer" for last in moves)

            while not seat_1_played():
                view = me.wait_turn_or_end()
                if seat_1_played():
                    break
                assert not view["is_over"], "seat 1 never played"
                me.act(view["legal"][0])
    finally:
        second.stop()
