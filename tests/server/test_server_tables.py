"""Whole games over real servers and real WebSocket clients: computer, friends, hot seat,
spectators, rematch, challenges."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import pytest
from server_harness import (
    Client,
    ThreadServer,
    assert_gap_free,
    drive,
    http,
    log_of,
    make_settings,
    open_table,
    oti_policy,
    play_out,
    settle,
)

SHORT = {"target": 1}  # an Omi match decided by one hand (or a few, after 4:4 ties)


def stored_actions(db: str, table: str) -> list[tuple[int, int, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT seq, actor, action FROM events WHERE table_id = ? ORDER BY seq", (table,)
        ).fetchall()


def test_a_whole_omi_match_against_the_computer_with_bots_in_a_process_pool(tmp_path: Path):
    settings = make_settings(tmp_path, bot_executor="process")
    with ThreadServer(settings) as server:
        table = open_table(server.url, mode="computer", level="medium", rules={"target": 3})
        [seat] = table["seats"]
        assert seat["seat"] == 0 and table["status"] == "playing"
        with Client(server.url, table["table"], seat["token"]) as me:
            played = play_out(me, random.Random(1))
            view = me.view
        assert view["is_over"] and max(view["tokens"]) >= 3
        assert view["deal_code"]  # revealed once the match is over
        assert_gap_free(me)
        seen = log_of(me)
        assert [s for s, _, _ in seen] == list(range(1, me.seq + 1))
        assert sum(1 for _, seat_, _ in seen if seat_ == 0) == len(played)
        assert {m["last"]["by"] for m in me.messages if m["type"] == "state" and m["last"]} == {
            "human",
            "computer",
        }
        with http(server.url) as client:
            info = client.get(f"/api/tables/{table['table']}").json()
        assert info["status"] == "over" and info["seq"] == me.seq
        assert [kind for kind in (s["kind"] for s in info["seats"])] == [
            "human",
            "computer",
            "computer",
            "computer",
        ]
    assert stored_actions(settings.db, table["table"]) == seen


def test_friends_table_filled_by_three_clients_joining_by_link(server):
    table = open_table(server.url, mode="friends", rules=SHORT, name="Ama")
    assert table["status"] == "waiting" and table["join_url"].endswith(f"#{table['invite']}.{table['watch']}")
    creator = Client(server.url, table["table"], table["seats"][0]["token"])
    clients = [creator]
    with http(server.url) as client:
        refused = client.post(f"/api/tables/{table['table']}/join", json={"invite": "not-the-invite"})
        assert refused.status_code == 403 and refused.json()["code"] == "bad_invite"
        for number, name in enumerate(["Kasun", "Nimal", "Dilani"], 1):
            joined = client.post(
                f"/api/tables/{table['table']}/join", json={"invite": table["invite"], "name": name}
            ).json()
            assert joined["seat"] == number
            assert joined["status"] == ("playing" if number == 3 else "waiting")
            clients.append(Client(server.url, table["table"], joined["token"]))
        full = client.post(f"/api/tables/{table['table']}/join", json={"invite": table["invite"]})
        assert full.status_code == 409 and full.json()["code"] == "table_full"
    for c in clients:
        c.wait_for(lambda m: m["type"] == "state" and m["view"]["table"]["status"] == "playing")
    settle(clients[0])
    seats = clients[0].view["seats"]
    assert [s["name"] for s in seats] == ["Ama", "Kasun", "Nimal", "Dilani"]
    assert all(s["kind"] == "human" and s["connected"] and not s["away"] for s in seats)
    assert [s["you"] for s in seats] == [True, False, False, False]
    drive(clients, random.Random(2))
    logs = [log_of(c) for c in clients]
    assert logs[0] == logs[1] == logs[2] == logs[3] and logs[0]
    for c in clients:
        assert_gap_free(c)
        c.close()


def test_a_join_link_says_what_it_invites_to(server):
    # The join page shows the game, who invites, the rules and the seats taken: the public
    # facts of the table (as GET /api/tables/{id}), never a card nor a token.
    table = open_table(server.url, mode="friends", rules=SHORT, name="Ama")
    tid, invite = table["table"], table["invite"]
    with http(server.url) as client:
        client.post(f"/api/tables/{tid}/join", json={"invite": invite, "name": "Kasun"})
        answer = client.post(f"/api/tables/{tid}/check-invite", json={"invite": invite}).json()
        info = client.get(f"/api/tables/{tid}").json()
    assert answer["host"] == "Ama" and answer["seat"] == 2 and answer["players"] == 4
    assert answer["rules"] == info["rules"] and answer["rules"]["target"] == SHORT["target"]
    assert [(s["seat"], s["kind"], s["name"]) for s in answer["seats"]] == [
        (0, "human", "Ama"), (1, "human", "Kasun"), (2, "open", None), (3, "open", None)]
    assert set(answer) == {"table", "seat", "game", "host", "players", "rules", "seats"}
    assert table["seats"][0]["token"] not in str(answer) and invite not in str(answer)


def test_a_join_link_is_checked_without_taking_a_seat(server):
    table = open_table(server.url, mode="friends", rules=SHORT)
    tid, invite = table["table"], table["invite"]

    def check(table_id: str, body: dict) -> tuple[int, dict]:
        answer = client.post(f"/api/tables/{table_id}/check-invite", json=body)
        return answer.status_code, answer.json()

    with http(server.url) as client:
        for _ in range(2):  # nothing is taken: the same seat each time
            status, answer = check(tid, {"invite": invite})
            assert status == 200
            seat = {k: answer[k] for k in ("table", "seat", "game")}
            assert seat == {"table": tid, "seat": 1, "game": "omi"}
        assert check(tid, {"invite": "not-the-invite"})[1]["code"] == "bad_invite"
        assert check("no-such-table", {"invite": invite})[1]["code"] == "unknown_table"
        assert check(tid, {})[1]["code"] == "bad_request"
        computer = open_table(server.url, level="easy")["table"]
        assert check(computer, {"invite": invite})[1]["code"] == "not_joinable"
        tokens = [table["seats"][0]["token"]]
        for seat in (1, 2, 3):
            joined = client.post(f"/api/tables/{tid}/join", json={"invite": invite}).json()
            assert joined["seat"] == seat  # the check took none of them
            tokens.append(joined["token"])
        full = {"code": "table_full", "message": "every seat of this table is taken"}
        assert check(tid, {"invite": invite}) == (409, full)
        clients = [Client(server.url, tid, token) for token in tokens]
        drive(clients, random.Random(4))
        status, over = check(tid, {"invite": invite})
        assert (status, over["code"]) == (409, "table_over")
        late = client.post(f"/api/tables/{tid}/join", json={"invite": invite})
        assert late.json()["code"] == "table_over"
    for c in clients:
        c.close()


def test_friends_table_started_early_fills_free_seats_with_computers(server):
    table = open_table(server.url, mode="friends", rules=SHORT, level="easy")
    tid = table["table"]
    with http(server.url) as client:
        joined = client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"]}).json()
        not_creator = client.post(f"/api/tables/{tid}/start", json={"token": joined["token"]})
        assert not_creator.status_code == 403 and not_creator.json()["code"] == "not_creator"
        started = client.post(f"/api/tables/{tid}/start", json={"token": table["seats"][0]["token"]})
        assert started.status_code == 200, started.text
        kinds = [(s["kind"], s["level"]) for s in started.json()["seats"]]
        assert kinds == [("human", None), ("human", None), ("computer", "easy"), ("computer", "easy")]
        again = client.post(f"/api/tables/{tid}/start", json={"token": table["seats"][0]["token"]})
        assert again.status_code == 409 and again.json()["code"] == "already_started"
        late = client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"]})
        assert late.status_code == 409 and late.json()["code"] == "table_full"
    clients = [Client(server.url, tid, table["seats"][0]["token"]), Client(server.url, tid, joined["token"])]
    drive(clients, random.Random(3))
    for c in clients:
        c.close()


def test_hot_seat_one_device_plays_every_seat(server):
    table = open_table(server.url, mode="hotseat", rules=SHORT)
    assert [s["seat"] for s in table["seats"]] == [0, 1, 2, 3]
    assert len({s["token"] for s in table["seats"]}) == 4
    clients = [Client(server.url, table["table"], s["token"]) for s in table["seats"]]
    drive(clients, random.Random(4))
    # One device: while any of its seats is connected, all of them are.
    for c in clients[1:]:
        c.close()
    time.sleep(0.3)  # let the server see the three closes
    settle(clients[0])
    assert all(s["connected"] for s in clients[0].view["seats"])
    clients[0].close()


def test_hot_seat_with_a_computer_partner(server):
    table = open_table(server.url, mode="hotseat", rules=SHORT, bots={"1": "easy", "3": "easy"})
    assert [s["seat"] for s in table["seats"]] == [0, 2]
    clients = [Client(server.url, table["table"], s["token"]) for s in table["seats"]]
    drive(clients, random.Random(5))
    assert clients[0].view["seats"][1]["kind"] == "computer"
    for c in clients:
        c.close()


def test_spectators_watch_without_seeing_hands_and_cannot_act(server):
    table = open_table(server.url, mode="computer", rules=SHORT, level="easy")
    with (
        Client(server.url, table["table"], table["watch"]) as watcher,
        Client(server.url, table["table"], table["seats"][0]["token"]) as me,
    ):
        first = watcher.wait_for(lambda m: m["type"] == "state")
        assert first["view"]["seat"] is None and first["view"]["hand"] == [] and first["view"]["legal"] == []
        answer = watcher.act("trump H")
        assert answer["type"] == "reject" and answer["code"] == "spectator"
        play_out(me, random.Random(6))
        watcher.wait_for(lambda m: m["type"] == "state" and m["seq"] == me.seq)
        states = [m for m in watcher.messages if m["type"] == "state"]
        assert all(m["view"]["hand"] == [] and m["view"]["legal"] == [] for m in states)
        assert_gap_free(watcher)
        assert log_of(watcher) == [e for e in log_of(me) if e[0] > first["seq"]]


def test_rematch_keeps_tokens_and_tells_everyone(server):
    table = open_table(server.url, mode="computer", rules=SHORT, level="easy")
    tid, token = table["table"], table["seats"][0]["token"]
    with http(server.url) as client:
        early = client.post(f"/api/tables/{tid}/rematch", json={"token": token})
        assert early.status_code == 409 and early.json()["code"] == "not_over"
        with Client(server.url, tid, token) as me, Client(server.url, tid, table["watch"]) as watcher:
            play_out(me)
            watcher.wait_for(lambda m: m["type"] == "state" and m["view"]["is_over"])
            bad = client.post(f"/api/tables/{tid}/rematch", json={"token": "wrong"})
            assert bad.status_code == 403 and bad.json()["code"] == "bad_token"
            rematch = client.post(f"/api/tables/{tid}/rematch", json={"token": token}).json()
            assert rematch["table"] != tid and rematch["seat"] == 0
            for c in (me, watcher):
                c.wait_for(
                    lambda m: m["type"] == "state" and m["view"]["table"]["rematch"] == rematch["table"]
                )
            again = client.post(f"/api/tables/{tid}/rematch", json={"token": token}).json()
            assert again["table"] == rematch["table"]
        info = client.get(f"/api/tables/{rematch['table']}").json()
        assert info["status"] == "playing" and info["rules"]["target"] == 1
    with (
        Client(server.url, rematch["table"], token) as me,
        Client(server.url, rematch["table"], table["watch"]) as watcher,
    ):
        assert me.wait_for(lambda m: m["type"] == "state")["view"]["seat"] == 0
        assert watcher.wait_for(lambda m: m["type"] == "state")["view"]["seat"] is None
        play_out(me)


@pytest.mark.parametrize("level", ["medium"])
def test_a_challenge_played_twice_gives_the_same_game_and_results_side_by_side(server, level):
    table = open_table(server.url, mode="computer", rules=SHORT, level=level, name="Ama")
    tid, token = table["table"], table["seats"][0]["token"]
    with Client(server.url, tid, token) as me:
        play_out(me)  # a scripted player: always the first legal action
        original = log_of(me)
        deal_code = me.view["deal_code"]
    with http(server.url) as client:
        link = client.post(f"/api/tables/{tid}/challenge", json={"token": token}).json()
        assert link["challenge_url"] == f"/challenge/{link['challenge']}"
        assert client.post(f"/api/tables/{tid}/challenge", json={"token": token}).json() == link
        attempts = []
        for name in ("Kasun", "Nimal"):
            client.cookies.clear()  # two people, each in their own browser: one attempt each
            opened = client.post(f"/api/challenges/{link['challenge']}/play", json={"name": name})
            assert opened.status_code == 201, opened.text
            attempt = opened.json()
            assert attempt["mode"] == "computer" and attempt["table"] != tid
            with Client(server.url, attempt["table"], attempt["seats"][0]["token"]) as player:
                first = player.wait_for(lambda m: m["type"] == "state")
                assert "deal_code" not in first["view"]  # the deal stays secret until the end
                play_out(player)
                attempts.append(log_of(player))
        assert attempts[0] == attempts[1] == original
        info = client.get(f"/api/challenges/{link['challenge']}").json()
        assert deal_code not in str(info)
    assert info["seat"] == 0 and info["players"] == 4
    assert info["computers"] == [{"seat": s, "level": level} for s in (1, 2, 3)]
    results = info["results"]
    assert [r["name"] for r in results] == ["Ama", "Kasun", "Nimal"]
    assert results[0]["table"] == tid
    assert all(r["status"] == "over" for r in results)
    assert results[0]["summary"] == results[1]["summary"] == results[2]["summary"]
    assert results[0]["won"] == results[1]["won"] == results[2]["won"]
    assert results[0]["won"] == (results[0]["summary"]["winner"] == 0)


def test_a_whole_oti_game_against_the_computer(server):
    table = open_table(server.url, game="oti", mode="computer", level="medium", rules={"players": 3})
    [seat] = table["seats"]
    with Client(server.url, table["table"], seat["token"]) as me:
        first = me.wait_for(lambda m: m["type"] == "state")
        assert first["view"]["game"] == "oti" and first["view"]["phase"] == "swap"
        assert first["view"]["face_down"] == [3, 3, 3] and len(first["view"]["hand"]) == 3
        played = play_out(me, choose=oti_policy(random.Random(9)))
        view = me.view
    assert view["is_over"] and view["winner"] in (0, 1, 2) and played
    assert_gap_free(me)
    assert [s for s, _, _ in log_of(me)] == list(range(first["seq"] + 1, me.seq + 1))
    assert {seat_ for _, seat_, _ in log_of(me)} == {0, 1, 2}
    assert stored_actions(server.settings.db, table["table"])[first["seq"] :] == log_of(me)
    with http(server.url) as client:
        info = client.get(f"/api/tables/{table['table']}").json()
    assert info["status"] == "over" and info["game"] == "oti"
