"""Hints on the server (issue 14, item 4): in a game against the computer a seat may ask what the
hard player would do from its own view; the hint is counted and stored before it is sent, the
count survives a restart and the result records it; friends and challenge tables refuse."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from server_harness import Client, ThreadServer, finished, http, make_settings, open_table, play_out

from bistrot import bots, games
from bistrot.omi import OmiGame, OmiRules
from bistrot.seeding import derive


def hint(client: Client, id: str) -> dict[str, Any]:
    """Ask for a hint; its answer (a hint or a reject)."""
    client.send({"type": "hint", "id": id})
    return client.wait_for(lambda m: m["type"] in ("hint", "reject") and m.get("id") == id)


def stored(db: Path, table: str) -> tuple[int, dict[str, Any] | None, int]:
    """(seat 0's hints, the result, the seed) as the store holds them."""
    with sqlite3.connect(db) as conn:
        query = "SELECT hints FROM seats WHERE table_id = ? AND seat = 0"
        hints = conn.execute(query, (table,)).fetchone()[0]
        result, seed = conn.execute("SELECT result, seed FROM tables WHERE id = ?", (table,)).fetchone()
    return hints, None if result is None else json.loads(result), int(seed)


def test_a_hint_is_the_hard_players_choice_counted_stored_and_recorded_in_the_result(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    db = Path(settings.db)
    with ThreadServer(settings) as server:
        table = open_table(server.url, mode="computer", level="easy", rules={"target": 1}, seed=42)
        tid, token = table["table"], table["seats"][0]["token"]
        with Client(server.url, tid, token) as me, Client(server.url, tid, table["watch"]) as watching:
            view = me.wait_turn_or_end()
            assert view["table"]["hints"] is True and view["legal"][0].startswith("trump")
            first = hint(me, "h1")
            assert first["type"] == "hint" and first["seq"] == 0
            # The hard player's trump choice from seat 0's own view (its first four cards), with
            # the seed of the table, the seat and the seq: what the server answered.
            seed = stored(db, tid)[2]
            hard = bots.make_bot("omi", games.get("omi").levels[-1], seed=derive(seed, "hint", 0, 0))
            assert first["action"] == hard.act(OmiGame.new(OmiRules(target=1), seed).view(0))
            assert stored(db, tid)[0] == 1
            assert hint(me, "h2") == {**first, "id": "h2"}  # the same hint, not counted again
            assert stored(db, tid)[0] == 1
            assert me.act(first["action"])["type"] == "ack"
            me.wait_turn_or_end()
            # Two asks at once for a card: one hint worked out, the same answer to both, one count.
            me.send({"type": "hint", "id": "h3"})
            me.send({"type": "hint", "id": "h3b"})
            second = me.wait_for(lambda m: m["type"] in ("hint", "reject") and m.get("id") == "h3")
            assert second["type"] == "hint", second
            assert second["seq"] == me.seq and second["action"] in me.view["legal"]
            twin = me.wait_for(lambda m: m["type"] in ("hint", "reject") and m.get("id") == "h3b")
            assert twin == {**second, "id": "h3b"}
            assert stored(db, tid)[0] == 2
            # Only the asking connection is told: a spectator never sees a hint.
            watching.wait_for(lambda m: m["type"] == "state" and m["seq"] == me.seq)
            assert all(m["type"] != "hint" for m in watching.messages)

    with ThreadServer(settings) as server:  # the count is the store's: it survives a restart
        assert stored(db, tid)[0] == 2
        with Client(server.url, tid, token) as me:
            play_out(me)
            assert me.view["is_over"] and me.view["table"]["hints_used"] == {"0": 2}
            assert hint(me, "h4")["code"] == "game_over"
    hints, result, _seed = stored(db, tid)
    assert hints == 2 and result is not None and result["hints"] == {"0": 2}


def test_hints_are_refused_at_a_friends_table_and_in_a_challenge(server: ThreadServer) -> None:
    friends = open_table(server.url, mode="friends", name="Ama")
    token = friends["seats"][0]["token"]
    with http(server.url) as client:
        assert client.post(f"/api/tables/{friends['table']}/start", json={"token": token}).status_code < 300
    with Client(server.url, friends["table"], token) as me:
        view = me.wait_turn_or_end()
        assert view["legal"] and view["table"]["hints"] is False
        assert hint(me, "f1")["code"] == "hints_off"

    original = finished(server, rules={"target": 1})
    with http(server.url) as client:
        token = original["seats"][0]["token"]
        made = client.post(f"/api/tables/{original['table']}/challenge", json={"token": token})
        challenge = made.json()["challenge"]
        opened = client.post(f"/api/challenges/{challenge}/play", json={"name": "Kasun"}).json()
    with Client(server.url, opened["table"], opened["seats"][0]["token"]) as me:
        view = me.wait_turn_or_end()
        assert view["legal"] and view["table"]["hints"] is False
        answer = hint(me, "c1")
        assert answer["type"] == "reject" and answer["code"] == "hints_off"
