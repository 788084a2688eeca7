"""Ratings (issue 33, item 4), on SQLite and on a throwaway PostgreSQL.

A public table's game, every person at which has a profile, is rated once it is over, in the
transaction that stores its end: one rating per profile and game by openskill's Plackett-Luce
model, computer players as fixed anchors.  The stored ratings are checked against openskill's own
computation replayed from the stored results, independently of the server's code.
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest
from server_harness import Client, http, oti_policy, play_out
from store_rooms import Room, make, replayed

from bistrot.server.players import HEADER
from bistrot.server.ratings import shown

pytest_plugins = ["tests.postgres_server"]

TWO = {"players": 2}  # Oti between two: short games


def key(profile: dict[str, Any]) -> dict[str, str]:
    return {HEADER: profile["key"]}


def quickmatch(room: Room, profile: dict[str, Any], game: str = "oti", rules: Any = TWO) -> dict[str, Any]:
    with http(room.url) as client:
        answer = client.post("/api/quickmatch", json={"game": game, "rules": rules}, headers=key(profile))
    assert answer.status_code == 201, answer.text
    seated: dict[str, Any] = answer.json()
    return seated


def play(room: Room, seated: list[dict[str, Any]], seed: int) -> None:
    """Each seat's player plays their turns to the end, at once (a thread each)."""
    clients = [Client(room.url, s["table"], s["token"]) for s in seated]
    failures: list[BaseException] = []

    def turns(client: Client, rng: random.Random) -> None:
        try:
            play_out(
                client, choose=oti_policy(rng) if client.wait_for(is_state)["view"]["game"] == "oti" else None
            )
        except BaseException as err:  # reported by the test's thread
            failures.append(err)

    threads = [
        threading.Thread(target=turns, args=(c, random.Random(seed + i))) for i, c in enumerate(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for client in clients:
        client.close()
    assert not failures, failures


def is_state(message: dict[str, Any]) -> bool:
    return bool(message["type"] == "state")


def test_rated_games_move_ratings_as_openskill_computes_them(room: Room) -> None:
    with http(room.url) as client:
        people = [make(client, name) for name in ("Ama", "Kasun", "Nimal")]
    # Three games between the three of them, each a quick match of two.
    for number, (a, b) in enumerate([(0, 1), (1, 2), (0, 2)]):
        seated = [quickmatch(room, people[a]), quickmatch(room, people[b])]
        assert seated[0]["table"] == seated[1]["table"] and seated[1]["status"] == "playing"
        with http(room.url) as client:
            assert client.get(f"/api/tables/{seated[0]['table']}").json()["rated"] is True
        play(room, seated, seed=number)

    stored = {
        profile: (mu, sigma, games)
        for profile, mu, sigma, games in room.rows(
            "SELECT profile, mu, sigma, games FROM ratings WHERE game = 'oti'"
        )
    }
    expected = replayed(room, "oti")
    assert set(stored) == {p["profile"] for p in people} == set(expected)
    for profile, (mu, sigma, games) in stored.items():
        assert games == expected[profile][2] == 2
        assert mu == pytest.approx(expected[profile][0], abs=1e-9)
        assert sigma == pytest.approx(expected[profile][1], abs=1e-9)
    # Exactly once: one rated game per table played, two changes each.
    assert room.rows("SELECT count(*) FROM rated_games") == [(3,)]
    assert room.rows("SELECT count(*) FROM rating_changes") == [(6,)]

    # The leaderboard orders them by the shown figure, best first.
    with http(room.url) as client:
        board = client.get("/api/ratings/oti").json()["players"]
        assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
        assert {p["profile"] for p in board} == set(stored) and all(p["games"] == 2 for p in board)
        assert board[0]["rating"] == max(shown(mu, sigma) for mu, sigma, _ in stored.values())
        assert client.get("/api/ratings/omi").json() == {"players": []}
        assert client.get("/api/ratings/chess").status_code == 422
        assert client.get("/api/ratings/oti", params={"limit": 1}).json()["players"] == board[:1]
        # A public profile shows its rating and its rated games, with their replays.
        ama = client.get(f"/api/profiles/{people[0]['profile']}").json()
    rating = ama["ratings"]["oti"]
    assert (rating["rating"], rating["games"]) == (shown(*stored[people[0]["profile"]][:2]), 2)
    assert [p["rating"] for p in rating["history"]] == [g["after"] for g in reversed(ama["recent"])]
    assert rating["history"][-1]["rating"] == rating["rating"]
    assert len(ama["recent"]) == 2 and all(g["replay_url"] == f"/replay/{g['table']}" for g in ama["recent"])
    assert ama["recent"][0]["after"] == ama["ratings"]["oti"]["rating"]
    assert people[0]["key"] not in json.dumps(ama)


@pytest.mark.settings(quickmatch_wait_s=0.3, quickmatch_level="easy")
def test_computer_players_are_fixed_anchors(room: Room) -> None:
    with http(room.url) as client:
        [ama] = [make(client, "Ama")]
    seated = quickmatch(room, ama)
    with Client(room.url, seated["table"], seated["token"]) as client:
        client.wait_for(lambda m: is_state(m) and m["view"]["table"]["status"] == "playing")
        play_out(client, choose=oti_policy(random.Random(3)))
    [(places,)] = room.rows("SELECT places FROM rated_games")
    seats = json.loads(places) if isinstance(places, str) else places
    assert [(s["profile"], s["level"]) for s in seats] == [(ama["profile"], None), (None, "easy")]
    # Only the person's rating moved; the anchor has no row.
    assert [row[0] for row in room.rows("SELECT profile FROM ratings")] == [ama["profile"]]
    (mu, sigma), expected = (
        room.rows("SELECT mu, sigma FROM ratings")[0],
        replayed(room, "oti")[ama["profile"]],
    )
    assert (mu, sigma) == pytest.approx(expected[:2])


def test_games_that_are_not_public_or_have_a_person_without_profile_are_not_rated(room: Room) -> None:
    with http(room.url) as client:
        ama, kasun = make(client, "Ama"), make(client, "Kasun")
        # A private friends table between two profiles.
        private = client.post(
            "/api/tables", json={"game": "oti", "mode": "friends", "rules": TWO}, headers=key(ama)
        ).json()
        joined = client.post(f"/api/tables/{private['table']}/join", json={"invite": private["invite"]},
                             headers=key(kasun)).json()  # fmt: skip
        # A public table that someone joined with its invite and no profile.
        public = client.post(
            "/api/tables",
            json={"game": "oti", "mode": "friends", "rules": TWO, "public": True},
            headers=key(ama),
        ).json()
        anonymous = http(room.url).post(
            f"/api/tables/{public['table']}/join", json={"invite": public["invite"]}
        )
        assert anonymous.status_code == 200, anonymous.text
        assert client.get(f"/api/tables/{public['table']}").json()["rated"] is False
    play(room, [{"table": private["table"], "token": private["seats"][0]["token"]}, joined], seed=11)
    play(room, [{"table": public["table"], "token": public["seats"][0]["token"]}, anonymous.json()], seed=12)
    assert room.rows("SELECT count(*) FROM tables WHERE status = 'over'") == [(2,)]
    assert room.rows("SELECT count(*) FROM rated_games") == [(0,)]
    assert room.rows("SELECT count(*) FROM ratings") == [(0,)]


@pytest.mark.settings(grace_s=0.3)
def test_a_player_away_at_the_end_is_ranked_last(room: Room) -> None:
    with http(room.url) as client:
        ama, kasun = make(client, "Ama"), make(client, "Kasun")
    seated = [quickmatch(room, ama), quickmatch(room, kasun)]
    # Kasun leaves at once and never comes back: the computer plays his seat after the grace.
    with Client(room.url, seated[1]["table"], seated[1]["token"]) as gone:
        gone.wait_for(is_state)
    with Client(room.url, seated[0]["table"], seated[0]["token"]) as client:
        client.wait_for(lambda m: is_state(m) and m["view"]["seats"][seated[1]["seat"]]["away"])
        play_out(client, choose=oti_policy(random.Random(5)))
    [(places,)] = room.rows("SELECT places FROM rated_games")
    seats = {s["profile"]: s["place"] for s in (json.loads(places) if isinstance(places, str) else places)}
    assert seats[kasun["profile"]] > seats[ama["profile"]] == 0


def test_the_computer_anchors_sit_where_openskill_predicts_the_measured_win_rates() -> None:
    from bench.rating_anchors import anchors, win_rate

    from bistrot.server.ratings import ANCHORS

    # The README's measured win rates (bench/rating_anchors.py's defaults).
    assert anchors("omi", 0.791, 0.712) == ANCHORS["omi"]
    assert anchors("oti", 0.932, 0.853) == ANCHORS["oti"]
    for game in ("omi", "oti"):
        levels = ANCHORS[game]
        assert levels["easy"][0] < levels["medium"][0] == 25.0 < levels["hard"][0]
        assert win_rate(game, levels["hard"][0], levels["easy"][0]) > win_rate(game, levels["hard"][0], 25.0)
