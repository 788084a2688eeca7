"""Safe retries (duplicate ids), reconnecting with since, and seats kept or taken over (their
presence stored, or not, as the store allows)."""

from __future__ import annotations

import random
import sqlite3
import time

import pytest
from server_harness import (
    TIMEOUT,
    AllRecords,
    Client,
    ThreadServer,
    drive,
    http,
    log_of,
    make_settings,
    open_table,
    settle,
)


def test_a_repeated_id_gets_its_first_answer_again_and_acts_once(server):
    table = open_table(server.url, mode="hotseat", seed=42)
    tokens = [s["token"] for s in table["seats"]]
    me = Client(server.url, table["table"], tokens[0])
    first = me.act("trump H", id="once")
    assert first == {"type": "ack", "id": "once", "seq": 1}
    me.send({"type": "act", "id": "once", "action": "trump H"})
    me.send({"type": "act", "id": "once", "action": "trump S"})  # same id, other action: same answer
    me.send({"type": "ping", "id": "after"})
    replies = [me.wait_for(lambda m: m["type"] in ("ack", "pong")) for _ in range(3)]
    assert replies == [first, first, {"type": "pong", "id": "after", "seq": 1}]
    assert me.view["trump"] == "H"
    # A reject is remembered too: the same id gets it again even once the action became legal.
    bad = me.act("play 7C", id=7)
    assert bad["type"] == "reject"
    assert me.act("play 7C", id=7) == bad
    # Integer and text ids are different ids.
    assert me.act("trump H", id="7")["code"] == "wrong_phase"
    me.close()
    # A new connection (say, after a network drop) retrying the same id gets the same ack.
    again = Client(server.url, table["table"], tokens[0], since=1)
    assert again.act("trump H", id="once") == first
    assert again.seq == 1
    # Ids are per seat: another seat may use the same id for its own action.
    again.close()


def test_reconnect_with_since_replays_the_missed_states_in_order(server):
    table = open_table(server.url, mode="hotseat", rules={"target": 1})
    tid, tokens = table["table"], [s["token"] for s in table["seats"]]
    clients = [Client(server.url, tid, t) for t in tokens]
    rng = random.Random(7)
    # Seat 0 chooses trumps and leads; then it drops while the others play on.
    for _ in range(2):
        clients[0].wait_turn_or_end()
        clients[0].act(rng.choice(clients[0].view["legal"]))
    seen = clients[0].seq
    clients[0].close()
    for seat in (1, 2, 3):
        c = clients[seat]
        c.wait_for(lambda m: m["type"] == "state" and m["view"]["legal"])
        c.act(rng.choice(c.view["legal"]))
    now = clients[3].seq
    assert now == seen + 3
    clients[1].wait_for(lambda m: m["type"] == "state" and m["seq"] == now)
    back = Client(server.url, tid, tokens[0], since=seen)
    settle(back)
    states = [m for m in back.messages if m["type"] == "state"]
    assert [m["seq"] for m in states] == list(range(seen + 1, now + 1))
    assert log_of(back) == [e for e in log_of(clients[1]) if e[0] > seen]
    assert bool(states[-1]["view"]["legal"]) == (states[-1]["view"]["to_move"] == 0)
    # The replayed views are the ones seat 0 would have had.
    assert [len(m["view"]["trick"]) for m in states] == [2, 3, 0]
    # Up to date: one fresh state; far behind (or no since): one fresh state too.
    for since in (now, None, -5):
        c = Client(server.url, tid, tokens[0], since=since if since != -5 else None)
        settle(c)
        assert [m["seq"] for m in c.messages if m["type"] == "state"] == [now]
        assert [m["last"] for m in c.messages if m["type"] == "state"] == [None]
        c.close()
    for c in [back, *clients[1:]]:
        c.close()


def test_beyond_the_replay_limit_a_fresh_state_is_sent(tmp_path):
    with ThreadServer(make_settings(tmp_path, replay_limit=2)) as server:
        table = open_table(server.url, mode="hotseat", seed=42)
        clients = [Client(server.url, table["table"], s["token"]) for s in table["seats"]]
        drive(clients, random.Random(8), max_actions=3)
        now = max(c.seq for c in clients)
        assert now == 3
        back = Client(server.url, table["table"], table["seats"][0]["token"], since=0)
        settle(back)
        assert [(m["seq"], m["last"]) for m in back.messages if m["type"] == "state"] == [(now, None)]
        for c in [back, *clients]:
            c.close()


@pytest.mark.settings(grace_s=0.3)
def test_a_dropped_player_keeps_the_seat_then_a_computer_plays_it_until_they_return(server):
    table = open_table(server.url, mode="friends", rules={"target": 1}, level="easy")
    tid = table["table"]
    with http(server.url) as client:
        body = {"invite": table["invite"], "name": "Kasun"}
        joined = client.post(f"/api/tables/{tid}/join", json=body).json()
        client.post(f"/api/tables/{tid}/start", json={"token": table["seats"][0]["token"]}).raise_for_status()
    creator = Client(server.url, tid, table["seats"][0]["token"])
    friend = Client(server.url, tid, joined["token"])
    friend.wait_for(lambda m: m["type"] == "state")
    friend.close()
    # Everybody sees the friend drop, then go away; a medium computer player takes the seat.
    dropped = creator.wait_for(lambda m: m["type"] == "state" and not m["view"]["seats"][1]["connected"])
    assert dropped["view"]["seats"][1]["away"] is False
    away = creator.wait_for(lambda m: m["type"] == "state" and m["view"]["seats"][1]["away"], timeout=10)
    assert away["view"]["seats"][1]["level"] in ("medium", "easy")
    # The game goes on: seat 1's turns are played by the computer.
    for _ in range(3):
        creator.wait_turn_or_end()
        if creator.view["is_over"]:
            break
        creator.act(creator.view["legal"][0])
    assert any(
        last["seat"] == 1 and last["by"] == "computer"
        for last in (m["last"] for m in creator.messages if m["type"] == "state")
        if last
    )
    # The friend comes back: the seat is theirs again at once.
    friend = Client(server.url, tid, joined["token"])
    back = friend.wait_for(lambda m: m["type"] == "state")
    assert back["view"]["seats"][1] == {
        "seat": 1,
        "kind": "human",
        "name": "Kasun",
        "level": None,
        "connected": True,
        "away": False,
        "you": True,
        "profile": None,
    }
    creator.wait_for(lambda m: m["type"] == "state" and m["view"]["seats"][1]["connected"])
    creator.close()
    friend.close()


def test_a_player_back_within_the_grace_period_was_never_replaced(server):
    table = open_table(server.url, mode="computer", level="easy")  # make_settings: grace_s 30
    token = table["seats"][0]["token"]
    watcher = Client(server.url, table["table"], table["watch"])
    me = Client(server.url, table["table"], token)
    me.wait_turn_or_end()
    me.close()
    left = watcher.wait_for(lambda m: m["type"] == "state" and not m["view"]["seats"][0]["connected"])
    # The others are told how long the seat waits for its player (seconds left of grace_s 30).
    assert 28 <= left["view"]["seats"][0]["grace_left"] <= 30
    assert all("grace_left" not in s for s in left["view"]["seats"][1:])  # computer players
    me = Client(server.url, table["table"], token)
    view = me.wait_turn_or_end()
    assert view["legal"] and not view["seats"][0]["away"]
    assert all(not (m["last"] and m["last"]["seat"] == 0) for m in watcher.messages if m["type"] == "state")
    me.close()
    watcher.close()


def test_a_presence_the_store_refuses_is_logged_and_the_table_plays_on(server, all_records: AllRecords):
    # Who is away and how much grace is left are advisory (stored so a restart goes on from
    # them): a write of them that fails loses nothing of the game, and the next one stores it all.
    table = open_table(server.url, mode="computer", level="easy")
    tid, token = table["table"], table["seats"][0]["token"]

    def sql(statement: str) -> list[tuple[object, ...]]:
        with sqlite3.connect(server.settings.db) as conn:
            rows = conn.execute(statement, (tid,) if "?" in statement else ()).fetchall()
        conn.close()
        return rows

    def until(done, what: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not done():
            assert time.monotonic() < deadline, what
            time.sleep(0.02)

    sql(
        "CREATE TRIGGER no_presence BEFORE UPDATE OF away, grace_ends ON seats "
        "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    )
    with Client(server.url, tid, token) as me:
        me.wait_turn_or_end()
    refused = "presence could not be stored"
    until(lambda: any(refused in r.getMessage() for r in all_records.records), "the refusal was not logged")
    grace_ends = "SELECT grace_ends FROM seats WHERE table_id = ? AND seat = 0"
    [(stale,)] = sql(grace_ends)  # what was stored before the trigger, if anything
    with Client(server.url, tid, token) as me:
        view = me.wait_turn_or_end()
        assert view["seats"][0]["connected"] and me.act(view["legal"][0])["type"] == "ack"
        sql("DROP TRIGGER no_presence")
    # The store takes writes again: the grace this leaving starts is stored.
    until(lambda: sql(grace_ends)[0][0] not in (None, stale), "the grace was not stored")
    assert 0 < sql(grace_ends)[0][0] - time.time() <= 30
