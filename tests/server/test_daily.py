"""The daily deal (issue 34, item 1), on SQLite and on a throwaway PostgreSQL: the same deal for
everyone on a UTC day, one counted game per profile, the results ranked for those who played, and
never a card in what is not the player's own table."""

from __future__ import annotations

import json
import logging
import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secrecy import cards_in, no_cards
from server_harness import (
    AllRecords,
    Client,
    ThreadServer,
    bearer,
    http,
    make_settings,
    oti_policy,
    play_out,
)
from sqlalchemy import create_engine
from store_rooms import Room, make

from bistrot.omi import OmiGame, OmiRules
from bistrot.server import daily_store
from bistrot.server.daily import daily_rules, daily_seed, utc_day
from bistrot.server.players import HEADER
from bistrot.server.schema import metadata

pytest_plugins = ["tests.postgres_server"]


def key(profile: dict[str, Any]) -> dict[str, str]:
    return {HEADER: profile["key"]}


def start(url: str, profile: dict[str, Any], game: str = "omi") -> dict[str, Any]:
    with http(url) as client:
        answer = client.post(f"/api/daily/{game}", headers=key(profile))
    assert answer.status_code == 201, answer.text
    started: dict[str, Any] = answer.json()
    return started


def first_view(url: str, started: dict[str, Any]) -> tuple[Client, dict[str, Any]]:
    client = Client(url, started["table"], started["token"])
    client.wait_for(lambda m: m["type"] == "state")
    return client, client.view


def board(url: str, profile: dict[str, Any] | None, game: str = "omi", day: str | None = None) -> Any:
    day = day or utc_day(time.time())
    with http(url) as client:
        answer = client.get(f"/api/daily/{game}/{day}", headers=key(profile) if profile else {})
    assert answer.status_code == 200, answer.text
    no_cards(answer.json())
    return answer.json()


def test_two_profiles_play_the_same_deal_and_are_ranked_a_third_sees_only_the_count(room: Room) -> None:
    records = AllRecords()
    logging.getLogger().addHandler(records)
    try:
        with http(room.url) as client:
            ama, kasun, nimal = (make(client, name) for name in ("Ama", "Kasun", "Nimal"))
            described = client.get("/api/daily/omi", headers=key(ama)).json()
        assert described == {
            "date": utc_day(time.time()), "game": "omi", "rules": daily_rules("omi"), "level": "medium",
            "hands": 4, "seat": 0, "played": False, "finished": False, "table": None,
        }  # fmt: skip
        first, second = start(room.url, ama), start(room.url, kasun)
        assert first["table"] != second["table"] and first["seat"] == second["seat"] == 0
        day = utc_day(time.time())
        assert room.rows(f"SELECT daily FROM tables WHERE id = '{first['table']}'") == [(day,)]
        one, view_one = first_view(room.url, first)
        two, view_two = first_view(room.url, second)
        # The same seat's first view: the same four cards, the same trump to choose.
        assert view_one["hand"] == view_two["hand"] and len(view_one["hand"]) == 4
        assert view_one["to_move"] == view_two["to_move"] == 0

        with http(room.url) as client:
            # A second attempt while the game is on: the same table, no second game.
            again = client.post("/api/daily/omi", headers=key(ama))
            assert again.status_code == 409 and again.json()["code"] == "daily_unfinished"
            assert again.json()["table"] == first["table"]
            assert client.get("/api/daily/omi", headers=key(ama)).json()["played"] is True
        nobody_yet = {"date": utc_day(time.time()), "game": "omi", "played": 0, "results": None}
        assert board(room.url, ama) == nobody_yet

        with one, two:
            play_out(one)
            play_out(two)
            finals = [one.view, two.view]
        assert all(v["is_over"] and len(v["results"]) == 4 and "deal_code" not in v for v in finals)
        scores = [v["tokens"][0] - v["tokens"][1] for v in finals]

        shown = board(room.url, ama)
        assert shown["played"] == 2
        ranked = [(r["profile"], r["name"], r["score"]) for r in shown["results"]]
        expected = sorted(
            [(ama["profile"], "Ama", scores[0]), (kasun["profile"], "Kasun", scores[1])], key=lambda r: -r[2]
        )
        if scores[0] == scores[1]:
            assert sorted(ranked) == sorted(expected) and [r["rank"] for r in shown["results"]] == [1, 1]
        else:
            assert ranked == expected and [r["rank"] for r in shown["results"]] == [1, 2]
        # Before playing: how many played, nothing else.
        assert board(room.url, nimal) == {**shown, "results": None}
        assert board(room.url, None) == {**shown, "results": None}

        with http(room.url) as client:
            after = client.post("/api/daily/omi", headers=key(ama))
            assert after.status_code == 409 and after.json()["code"] == "daily_played"
            mine = client.get("/api/daily/omi", headers=key(ama)).json()
            assert mine["finished"] is True and mine["table"] == first["table"]
            assert client.get("/api/profile", headers=key(ama)).json()["daily_streak"] == {"omi": 1, "oti": 0}
            public = client.get(f"/api/profiles/{nimal['profile']}").json()
            assert public["daily_streak"] == {"omi": 0, "oti": 0}
        stored = room.rows(f"SELECT table_id, score FROM daily_games WHERE profile = '{ama['profile']}'")
        assert stored == [(first["table"], scores[0])]
    finally:
        logging.getLogger().removeHandler(records)
    # No card and no credential in any log line of the whole day.
    text = "\n".join(r.getMessage() for r in records.records)
    assert not cards_in(text.replace(first["table"], "").replace(second["table"], ""))
    for secret in (first["token"], second["token"], ama["key"], kasun["key"], nimal["key"]):
        assert secret not in text


@pytest.mark.server
def test_an_oti_daily_game_scores_the_cards_left_and_is_analysed(tmp_path: Any) -> None:
    settings = make_settings(tmp_path, daily_sweep_s=0.2)
    with ThreadServer(settings) as server, http(server.url) as client:
        ama = make(client, "Ama")
        assert client.get("/api/daily/oti").json()["hands"] == 1
        started = start(server.url, ama, "oti")
        with Client(server.url, started["table"], started["token"]) as player:
            player.wait_for(lambda m: m["type"] == "state")
            play_out(player, choose=oti_policy(random.Random(3)))
            left = player.view
        mine = left["hand_counts"][0] + len(left["face_up"][0]) + left["face_down"][0]
        deadline = time.monotonic() + 120
        while True:
            line = board(server.url, ama, "oti")["results"][0]
            if line["accuracy"] is not None or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert line["score"] == -mine and line["rank"] == 1
        assert isinstance(line["accuracy"], float) and 0 <= line["accuracy"] <= 100
        # The record, replay and analysis of a daily game go to its player only (its token).
        path = f"/api/tables/{started['table']}"
        for what in ("analysis", "record", "replay"):
            assert client.get(f"{path}/{what}").json()["code"] == "challenge_deal"
        analysis = client.get(f"{path}/analysis", headers=bearer(started["token"])).json()
        assert analysis["result"]["players"]["0"]["accuracy"] == line["accuracy"]
        # Nor is the deal shown to its player, or made a challenge: others play it today.
        assert "deal_code" not in left
        refused = client.post(f"{path}/challenge", json={"token": started["token"]})
        assert (refused.status_code, refused.json()["code"]) == (409, "daily_deal")


def test_the_deal_differs_with_another_secret_or_another_day() -> None:
    rules = OmiRules.from_dict(daily_rules("omi"))

    def hands(secret: str, day: str) -> list[int]:
        return OmiGame.new(rules, seed=daily_seed(secret, day, "omi")).hands

    today = hands("secret-a", "2026-12-06")
    assert today == hands("secret-a", "2026-12-06")
    assert today != hands("secret-b", "2026-12-06")
    assert today != hands("secret-a", "2026-12-07")
    assert daily_seed("secret-a", "2026-12-06", "omi") != daily_seed("secret-a", "2026-12-06", "oti")


@pytest.mark.server
def test_one_secret_for_the_room_kept_across_restarts(tmp_path: Any) -> None:
    settings = make_settings(tmp_path)
    views = []
    for name in ("Ama", "Kasun"):
        with ThreadServer(settings) as server, http(server.url) as client:
            started = start(server.url, make(client, name))
            seen, view = first_view(server.url, started)
            seen.close()
            views.append(view["hand"])
    assert views[0] == views[1]


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/daily/chess", 422, "bad_request"),
        ("/api/daily/omi/yesterday", 422, "bad_date"),
        ("/api/daily/omi/2026-02-30", 422, "bad_date"),
        ("/api/daily/omi/2026-1-06", 422, "bad_date"),
        ("/api/daily/omi/9999-12-31", 404, "daily_not_yet"),
        ("/api/daily/omi/2026-12-06%20", 422, "bad_date"),
        ("/api/daily/omi/" + "2" * 41, 422, "bad_request"),
    ],
)
def test_bad_games_and_days_are_refused(server: ThreadServer, path: str, status: int, code: str) -> None:
    with http(server.url) as client:
        answer = client.get(path)
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text


def test_starting_needs_a_profile_and_a_refusal_changes_nothing(room: Room) -> None:
    with http(room.url) as client:
        assert client.post("/api/daily/omi").json()["code"] == "no_profile"
        bad = client.post("/api/daily/omi", headers={HEADER: "x" * 22})
        assert (bad.status_code, bad.json()["code"]) == (401, "bad_profile_key")
        assert client.get("/api/daily/omi", headers={HEADER: "x" * 22}).status_code == 401
        assert client.post("/api/daily/chess", headers=key(make(client))).status_code == 422
    assert room.rows("SELECT count(*) FROM daily_games") == [(0,)]
    assert room.rows("SELECT count(*) FROM tables") == [(0,)]


def test_a_past_day_nobody_played_answers_its_count(server: ThreadServer) -> None:
    with http(server.url) as client:
        answer = client.get("/api/daily/oti/2020-02-29")
    assert answer.json() == {"date": "2020-02-29", "game": "oti", "played": 0, "results": None}


def test_no_answer_of_the_daily_api_is_json_with_a_card(server: ThreadServer) -> None:
    with http(server.url) as client:
        ama = make(client)
        for game in ("omi", "oti"):
            no_cards(client.get(f"/api/daily/{game}", headers=key(ama)).json())
            started = client.post(f"/api/daily/{game}", headers=key(ama)).json()
            no_cards(started)
            no_cards(json.loads(client.post(f"/api/daily/{game}", headers=key(ama)).text))


def test_no_hint_at_a_daily_table(server: ThreadServer) -> None:
    with http(server.url) as client:
        started = start(server.url, make(client))
    with Client(server.url, started["table"], started["token"]) as player:
        player.wait_for(lambda m: m["type"] == "state")
        player.send({"type": "hint", "id": "h1"})
        answer = player.wait_for(lambda m: m["type"] == "reject")
    assert answer["code"] == "hints_off"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-12, 12), min_size=1, max_size=30), st.integers(1, 10))
def test_the_board_ranks_by_score_ties_sharing_a_rank_and_is_bounded(scores: list[int], limit: int) -> None:
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.begin() as conn:
        for n, score in enumerate(scores):
            attempt = daily_store.Attempt("2026-12-06", "omi", f"p{n:02}", f"t{n}", 0, float(n))
            daily_store.add_attempt(conn, attempt)
            daily_store.finish(conn, f"t{n}", 0, score, at=100.0 + n)
        daily_store.add_attempt(conn, daily_store.Attempt("2026-12-06", "omi", "playing", "tx", 0, 0.0))
        count, rows = daily_store.board(conn, "2026-12-06", "omi", limit)
        assert count == len(scores)  # the game still on is not counted
        assert [r["score"] for r in rows] == sorted(scores, reverse=True)[:limit]
        for row in rows:
            assert row["rank"] == 1 + sum(s > row["score"] for s in scores)
            mine = daily_store.find_attempt(conn, "2026-12-06", "omi", row["profile"])
            assert mine is not None and daily_store.rank_of(conn, mine) == row["rank"]


def test_a_streak_counts_finished_days_ending_today_or_yesterday() -> None:
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.begin() as conn:
        for n, day in enumerate(["2026-12-01", "2026-12-03", "2026-12-04", "2026-12-05"]):
            daily_store.add_attempt(conn, daily_store.Attempt(day, "omi", "p", f"t{n}", 0, 0.0))
            daily_store.finish(conn, f"t{n}", 0, 1, at=1.0)
        # Started today, not finished: the streak still ends yesterday.
        daily_store.add_attempt(conn, daily_store.Attempt("2026-12-06", "omi", "p", "t9", 0, 0.0))
        assert daily_store.streaks(conn, "p", ["omi", "oti"], "2026-12-06") == {"omi": 3, "oti": 0}
        assert daily_store.streaks(conn, "p", ["omi"], "2026-12-07") == {"omi": 0}
