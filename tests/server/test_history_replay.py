"""Finished games (issue 14): ``POST /api/history``, ``GET /api/tables/{id}/record`` and
``GET /api/tables/{id}/replay`` on a real server, against the games rebuilt from the store.

The rule for a challenge's deal (src/bistrot/server/history.py): its record and replay go only to
the holders of that table's seat tokens or watch key.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from secrecy import cards_in, hidden, replay, stored_events, stored_seed
from server_harness import Client, ThreadServer, bearer, finished, http, open_table, play_to_end

from bistrot import dealcode, games
from bistrot.tablecore.replay import replay_views


def rebuilt(server: ThreadServer, table: str, game: str, rules: dict[str, Any]) -> list[Any]:
    """The game at every seq, from the store's rows."""
    entry = games.get(game)
    db = server.settings.db
    return replay(entry, entry.rules_from_dict(rules), stored_seed(db, table), stored_events(db, table))


GAMES = [("omi", {"target": 1}), ("oti", {"players": 3})]


@pytest.mark.parametrize(("game", "rules"), GAMES)
def test_the_record_is_refused_before_the_end_then_read_back_into_the_same_game(
    server: ThreadServer, game: str, rules: dict[str, Any]
) -> None:
    opened = open_table(server.url, game=game, rules=rules, level="easy")
    table, token = opened["table"], opened["seats"][0]["token"]
    with Client(server.url, table, token) as client, http(server.url) as api:
        client.wait_turn_or_end()
        client.act(client.view["legal"][0])
        # Before the end: refused with its code, even to the seat's own token, and nothing of
        # the deal in the answers.
        for path in ("record", "replay"):
            for headers in ({}, bearer(token)):
                answer = api.get(f"/api/tables/{table}/{path}", headers=headers)
                assert answer.status_code == 409, answer.text
                assert answer.json()["code"] == "not_over"
                played = rebuilt(server, table, game, rules)
                assert not cards_in(answer.json()) & hidden(played[-1], None)
                assert dealcode.encode(stored_seed(server.settings.db, table)) not in answer.text
        assert api.post("/api/history", json={"tables": [table]}).json() == {"games": []}
        play_to_end(client)
        answer = api.get(f"/api/tables/{table}/record")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    assert answer.headers["content-disposition"] == f'attachment; filename="bistrot-{game}-{table[:6]}.txt"'
    played = rebuilt(server, table, game, rules)
    assert played[-1].is_over
    assert games.get(game).game_class().from_record(answer.text) == played[-1]
    assert answer.text == played[-1].record()


@pytest.mark.parametrize(("game", "rules"), GAMES)
def test_the_replay_steps_are_the_stored_events_with_every_hand(
    server: ThreadServer, game: str, rules: dict[str, Any]
) -> None:
    table = finished(server, game=game, rules=rules, name="Ama")["table"]
    with http(server.url) as api:
        answer = api.get(f"/api/tables/{table}/replay")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    played = rebuilt(server, table, game, rules)
    events = stored_events(server.settings.db, table)
    assert [(s["index"], s["seq"], s["seat"], s["action"], s["by"]) for s in body["steps"]] == [
        (seq - 1, seq, actor, action, by) for seq, actor, action, by, _ in events
    ]
    # The record's actions, counted from 0, are these very steps.
    assert list(played[-1].actions) == [(s["seat"], s["action"]) for s in body["steps"]]
    n = played[0].rules.players
    views = replay_views(body)  # each step is the change from the view before it
    for at, view in enumerate(views):
        game_then = played[at]
        expected = game_then.view(None)
        assert {k: v for k, v in view.items() if k != "hands"} == expected
        assert view["hands"] == [game_then.view(seat)["hand"] for seat in range(n)]
    last = views[-1]
    assert last["is_over"] and body["result"] == played[-1].summary()
    assert body["winners"] == games.get(game).winners(played[-1].rules, played[-1].summary())
    assert body["seats"][0]["name"] == "Ama" and body["seats"][0]["connected"]
    assert {s["kind"] for s in body["seats"][1:]} == {"computer"}
    # Every hand is shown: an Omi hand in play holds every card not yet played.
    if game == "omi":
        mid = next(v for v in views if v["phase"] == "play")
        assert [len(h) for h in mid["hands"]] == mid["hand_counts"] and sum(mid["hand_counts"]) > 4


def test_a_challenge_s_deal_goes_only_to_the_tokens_of_its_own_tables(server: ThreadServer) -> None:
    source = finished(server, rules={"target": 1})
    table, token, watch = source["table"], source["seats"][0]["token"], source["watch"]
    other = finished(server, rules={"target": 1})
    with http(server.url) as api:
        def status(tid: str, headers: dict[str, str]) -> tuple[int, str | None]:
            answers = [api.get(f"/api/tables/{tid}/{path}", headers=headers) for path in ("record", "replay")]
            assert answers[0].status_code == answers[1].status_code
            first = answers[0]
            return first.status_code, None if first.status_code == 200 else first.json()["code"]

        assert status(table, {}) == (200, None)  # no challenge yet: the id is enough
        made = api.post(f"/api/tables/{table}/challenge", json={"token": token})
        assert made.status_code == 200, made.text
        challenge = made.json()["challenge"]
        # Now the deal is the next challenger's: only this table's own tokens read it.
        assert status(table, {}) == (403, "challenge_deal")
        assert status(table, bearer(other["seats"][0]["token"])) == (403, "challenge_deal")
        assert status(table, bearer("nonsense")) == (403, "challenge_deal")
        assert status(table, {"Authorization": f"Basic {token}"}) == (403, "challenge_deal")
        assert status(table, bearer(token)) == (200, None)
        assert status(table, bearer(watch)) == (200, None)
        assert status(other["table"], {}) == (200, None)  # another deal: unaffected
        # A challenger: never the deal, not even from their own table once played (another
        # browser may play the challenge again).
        attempt = api.post(f"/api/challenges/{challenge}/play", json={"name": "Kasun"}).json()
        mine = attempt["seats"][0]["token"]
        assert status(attempt["table"], bearer(mine)) == (409, "not_over")
        with Client(server.url, attempt["table"], mine) as client:
            play_to_end(client)
        assert status(attempt["table"], {}) == (403, "challenge_deal")
        assert status(attempt["table"], bearer(mine)) == (403, "challenge_deal")
        assert status(table, bearer(mine)) == (403, "challenge_deal")
        # The results page names the tables; their ids alone open nothing of the deal.
        results = api.get(f"/api/challenges/{challenge}").json()["results"]
        for row in results:
            assert status(row["table"], {}) == (403, "challenge_deal")


def test_a_challenger_plays_once_per_browser_and_address_and_never_reads_the_deal(
    server: ThreadServer,
) -> None:
    # Before: a finished challenger's own token fetched the record (the original's seed, every
    # hand), and the same client then opened a second attempt (201).
    source = finished(server, rules={"target": 1})
    with http(server.url) as api:
        token = source["seats"][0]["token"]
        made = api.post(f"/api/tables/{source['table']}/challenge", json={"token": token})
        play = f"/api/challenges/{made.json()['challenge']}/play"
        first = api.post(play, json={"name": "Kasun"})
        assert first.status_code == 201, first.text
        mine = first.json()["seats"][0]["token"]
        with Client(server.url, first.json()["table"], mine) as client:
            play_to_end(client)
        for path in ("record", "replay", "analysis"):
            answer = api.get(f"/api/tables/{first.json()['table']}/{path}", headers=bearer(mine))
            assert (answer.status_code, answer.json()["code"]) == (403, "challenge_deal"), path
        again = api.post(play, json={"name": "Kasun"})
        assert (again.status_code, again.json()["code"]) == (409, "challenge_played")
        assert "httponly" in first.headers["set-cookie"].lower()  # the browser's key, out of scripts' reach
        results = api.get(f"/api/challenges/{made.json()['challenge']}").json()["results"]
        assert len(results) == 2  # the original and the one attempt: the refusal opened nothing
        api.cookies.clear()  # another browser at the same address: its own attempt
        assert api.post(play, json={"name": "Nimal"}).status_code == 201


def test_the_history_lists_the_finished_games_asked_for_without_a_card(server: ThreadServer) -> None:
    first = finished(server, rules={"target": 1}, name="Ama")
    second = finished(server, game="oti", rules={"players": 3}, name="Ama")
    playing = open_table(server.url, level="easy")
    with http(server.url) as api:
        asked = [first["table"], "no-such-table", playing["table"], second["table"], "x" * 64]
        answer = api.post("/api/history", json={"tables": asked})
        assert answer.status_code == 200, answer.text
        listed = answer.json()["games"]
        assert [g["table"] for g in listed] == [second["table"], first["table"]]  # the latest first
        assert not cards_in(listed), cards_in(listed)
        secrets = {first["seats"][0]["token"], first["watch"], second["seats"][0]["token"], second["watch"]}
        assert not any(secret in answer.text for secret in secrets)
        oti, omi = listed
        played = rebuilt(server, first["table"], "omi", {"target": 1})[-1]
        assert omi["result"] == played.summary() and omi["winners"] == [played.winner, played.winner + 2]
        seats = [(s["seat"], s["kind"], s["name"]) for s in omi["seats"]]
        assert seats[:2] == [(0, "human", "Ama"), (1, "computer", None)]
        assert {s["level"] for s in omi["seats"][1:]} == {"easy"}
        assert (omi["game"], omi["mode"], omi["players"], omi["rules"]["target"]) == ("omi", "computer", 4, 1)
        assert oti["game"] == "oti" and oti["ended_at"] >= oti["created_at"] and not oti["challenge"]
        too_many = api.post("/api/history", json={"tables": ["t"] * 101})
        assert too_many.status_code == 422 and too_many.json()["code"] == "bad_request"
        assert api.post("/api/history", json={"tables": []}).json() == {"games": []}


def test_unknown_tables_are_refused(server: ThreadServer) -> None:
    with http(server.url) as api:
        for table in ("nope", "y" * 65):
            for path in ("record", "replay"):
                answer = api.get(f"/api/tables/{table}/{path}")
                assert (answer.status_code, answer.json()["code"]) == (404, "unknown_table")
        page = api.get("/replay/anything", headers={"Accept": "text/html"})
        assert page.status_code == 200 and "<html" in page.text.lower()
        paths = json.loads(api.get("/openapi.json").text)["paths"]
        routes = {"/api/history", "/api/tables/{table_id}/record", "/api/tables/{table_id}/replay"}
        assert routes <= set(paths)
