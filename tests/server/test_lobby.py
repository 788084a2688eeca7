"""The public lobby and "Play now" (issue 33, items 2 and 3), on SQLite and on a throwaway
PostgreSQL.

A friends table opened ``"public": true`` by a player with a profile is listed while it waits; any
player with a profile joins it without an invite; ``POST /api/quickmatch`` seats a player at the
oldest such table with the same game and rules, or opens one; nobody waits for ever (computer
players take the free seats after ``quickmatch_wait_s``); the lobby is followed live through
Server-Sent Events.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_harness import Client, http
from store_rooms import Room, make

from bistrot.server.players import HEADER

pytest_plugins = ["tests.postgres_server"]


def key(profile: dict[str, Any]) -> dict[str, str]:
    return {HEADER: profile["key"]}


def profiles(room: Room, *names: str) -> list[dict[str, Any]]:
    with http(room.url) as client:
        return [make(client, name) for name in names]


def lobby(room: Room, game: str | None = "omi") -> list[dict[str, Any]]:
    with http(room.url) as client:
        answer = client.get("/api/lobby", params={} if game is None else {"game": game})
    assert answer.status_code == 200, answer.text
    listed: list[dict[str, Any]] = answer.json()["tables"]
    return listed


def open_public(room: Room, profile: dict[str, Any], **body: Any) -> httpx.Response:
    with http(room.url) as client:
        return client.post("/api/tables", json={"game": "omi", "mode": "friends", "public": True, **body},
                           headers=key(profile))  # fmt: skip


def join(room: Room, table: str, profile: dict[str, Any] | None, **body: Any) -> httpx.Response:
    with http(room.url) as client:
        return client.post(
            f"/api/tables/{table}/join", json=body, headers={} if profile is None else key(profile)
        )


def quickmatch(base: str, profile: dict[str, Any], **body: Any) -> httpx.Response:
    with http(base) as client:
        return client.post("/api/quickmatch", json={"game": "omi", **body}, headers=key(profile))


def test_a_public_table_waits_in_the_lobby_and_players_with_a_profile_join_it(room: Room) -> None:
    ama, kasun, nimal, saman = profiles(room, "Ama", "Kasun", "Nimal", "Saman")
    opened = open_public(room, ama, name="not my profile's name")
    assert opened.status_code == 201, opened.text
    table = opened.json()["table"]
    [listed] = lobby(room)
    assert listed["table"] == table and listed["game"] == "omi" and listed["rated"] is True
    assert listed["seats"] == [
        {"seat": 0, "name": "Ama", "profile": ama["profile"], "rating": None, "level": None},
        None,
        None,
        None,
    ]
    assert listed["fills_at"] >= listed["created"]
    assert lobby(room, "oti") == [] and lobby(room, None) == [listed]

    joined = join(room, table, kasun)  # no invite: the profile is the ticket
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1 and joined.json()["status"] == "waiting"
    assert [s and s["name"] for s in lobby(room)[0]["seats"]] == ["Ama", "Kasun", None, None]
    assert room.rows(f"SELECT seat, profile FROM seats WHERE table_id = '{table}' AND kind = 'human'") == [
        (0, ama["profile"]),
        (1, kasun["profile"]),
    ]
    # The table's public facts say whose seats these are, and that it is public.
    with http(room.url) as client:
        info = client.get(f"/api/tables/{table}").json()
    assert info["public"] is True and [s["profile"] for s in info["seats"][:2]] == [
        ama["profile"],
        kasun["profile"],
    ]

    # Refusals change nothing.
    again = join(room, table, kasun)
    assert (again.status_code, again.json()["code"]) == (409, "already_seated")
    anonymous = join(room, table, None)
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "no_profile")
    wrong = join(room, table, {"key": "x" * 22})
    assert (wrong.status_code, wrong.json()["code"]) == (401, "bad_profile_key")
    assert [s and s["name"] for s in lobby(room)[0]["seats"]] == ["Ama", "Kasun", None, None]

    # Full: the game starts and the table leaves the lobby.
    assert join(room, table, nimal).json()["status"] == "waiting"
    last = join(room, table, saman).json()
    assert last["seat"] == 3 and last["status"] == "playing"
    assert lobby(room) == []
    # No key or token in what the lobby or the table's facts show.
    with http(room.url) as client:
        shown = client.get("/api/lobby").text + client.get(f"/api/tables/{table}").text
    for secret in [p["key"] for p in (ama, kasun, nimal, saman)] + [
        opened.json()["seats"][0]["token"],
        last["token"],
    ]:
        assert secret not in shown


def test_a_private_friends_table_is_not_listed_and_needs_its_invite(room: Room) -> None:
    [ama, kasun] = profiles(room, "Ama", "Kasun")
    with http(room.url) as client:
        private = client.post("/api/tables", json={"game": "omi", "mode": "friends"}, headers=key(ama)).json()
    assert lobby(room) == []
    refused = join(room, private["table"], kasun)
    assert (refused.status_code, refused.json()["code"]) == (403, "bad_invite")
    # A private table is watched with its watch key only.
    with Client(room.url, private["table"], "public") as stranger:
        refusal = stranger.wait_for(lambda m: m["type"] == "reject")
    assert refusal["code"] == "bad_token"
    # With the invite, a profile's player sits under the profile's name and id.
    joined = join(room, private["table"], kasun, invite=private["invite"], name="Someone else")
    assert joined.status_code == 200, joined.text
    with http(room.url) as client:
        seats = client.get(f"/api/tables/{private['table']}").json()["seats"]
    assert [(s["name"], s["profile"]) for s in seats[:2]] == [
        ("Ama", ama["profile"]),
        ("Kasun", kasun["profile"]),
    ]


@pytest.mark.parametrize(
    ("body", "headers", "status", "code"),
    [
        ({"public": True, "mode": "friends"}, {}, 401, "no_profile"),
        ({"public": True, "mode": "computer"}, "key", 422, "public_needs_friends"),
        ({"public": True, "mode": "hotseat"}, "key", 422, "public_needs_friends"),
        ({"public": "yes", "mode": "friends"}, "key", 422, "bad_request"),
        ({"public": 1, "mode": "friends"}, "key", 422, "bad_request"),
        ({"public": True, "mode": "friends"}, {HEADER: "y" * 22}, 401, "bad_profile_key"),
    ],
)
def test_a_public_table_needs_a_profile_and_friends_mode(
    room: Room, body: dict[str, Any], headers: Any, status: int, code: str
) -> None:
    [ama] = profiles(room, "Ama")
    with http(room.url) as client:
        answer = client.post(
            "/api/tables", json={"game": "omi", **body}, headers=key(ama) if headers == "key" else headers
        )
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert room.rows("SELECT count(*) FROM tables") == [(0,)]


def test_play_now_seats_four_players_at_one_table_that_starts(room: Room) -> None:
    players = profiles(room, "Ama", "Kasun", "Nimal", "Saman", "Dilani")
    seated = [quickmatch(room.url, p) for p in players[:4]]
    assert all(s.status_code == 201 for s in seated), [s.text for s in seated]
    answers = [s.json() for s in seated]
    assert len({a["table"] for a in answers}) == 1
    assert sorted(a["seat"] for a in answers) == [0, 1, 2, 3]
    assert answers[-1]["status"] == "playing" and lobby(room) == []
    # Each token is its seat's: the table greets each player at their own seat.
    for answer in answers:
        with Client(room.url, answer["table"], answer["token"]) as client:
            view = client.wait_for(lambda m: m["type"] == "state")["view"]
            assert view["seat"] == answer["seat"]
    # In play, the table is listed to watch: anyone watches a public table, as a spectator.
    with http(room.url) as client:
        [playing] = client.get("/api/lobby", params={"game": "omi"}).json()["playing"]
    assert playing["table"] == answers[0]["table"]
    assert playing["watch_url"] == f"/watch/{playing['table']}#public"
    assert [s["name"] for s in playing["seats"]] == ["Ama", "Kasun", "Nimal", "Saman"]
    with Client(room.url, playing["table"], "public") as spectator:
        view = spectator.wait_for(lambda m: m["type"] == "state")["view"]
    assert view["seat"] is None and view["legal"] == [] and view["hand"] == []  # no card seen
    # The fifth opens the next table; asking again while it waits is refused, nothing changed.
    fifth = quickmatch(room.url, players[4])
    assert fifth.status_code == 201 and fifth.json()["table"] != answers[0]["table"]
    again = quickmatch(room.url, players[4])
    assert (again.status_code, again.json()["code"]) == (409, "already_waiting")
    assert len(lobby(room)) == 1


def test_play_now_meets_only_players_asking_for_the_same_rules(room: Room) -> None:
    ama, kasun, nimal = profiles(room, "Ama", "Kasun", "Nimal")
    first = quickmatch(room.url, ama, rules={"target": 5}).json()
    other = quickmatch(room.url, kasun, rules={"target": 3}).json()
    same = quickmatch(room.url, nimal, rules={"target": 5}).json()
    assert first["table"] == same["table"] != other["table"]
    # The defaults spelled out or left out are the same rules.
    listed = {t["table"]: t["rules"] for t in lobby(room)}
    assert listed[first["table"]]["target"] == 5 and listed[other["table"]]["target"] == 3


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess"}, 422, "bad_request"),
        ({"game": "omi", "rules": {"target": -4}}, 422, "bad_rules"),
        ({"game": "omi", "rules": {"no such option": 1}}, 422, "bad_rules"),
        ({"game": "omi", "seat": 2}, 422, "bad_request"),
    ],
)
def test_play_now_refuses_bad_requests_and_opens_nothing(
    room: Room, body: dict[str, Any], status: int, code: str
) -> None:
    [ama] = profiles(room, "Ama")
    with http(room.url) as client:
        answer = client.post("/api/quickmatch", json=body, headers=key(ama))
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
        anonymous = client.post("/api/quickmatch", json={"game": "omi"})
        assert (anonymous.status_code, anonymous.json()["code"]) == (401, "no_profile")
    assert room.rows("SELECT count(*) FROM tables") == [(0,)]


# One room for every example (a server each would take seconds): each example's players are new
# profiles, and the checks count their seats only, among the earlier examples' tables.
@settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(count=st.integers(min_value=5, max_value=14))
def test_players_asking_at_once_never_share_a_seat_or_overfill_a_table(room: Room, count: int) -> None:
    players = profiles(room, *[f"P{i}" for i in range(count)])
    answers: list[httpx.Response] = []
    start = threading.Barrier(count)

    def ask(profile: dict[str, Any]) -> None:
        start.wait()
        answers.append(quickmatch(room.url, profile, game="oti"))

    threads = [threading.Thread(target=ask, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(a.status_code == 201 for a in answers), [a.text for a in answers if a.status_code != 201]
    given_seats = Counter((a.json()["table"], a.json()["seat"]) for a in answers)
    assert max(given_seats.values()) == 1  # no seat given twice
    mine = [p["profile"] for p in players]
    stored = room.rows("SELECT table_id, seat, profile FROM seats WHERE kind = 'human'")
    stored = [row for row in stored if row[2] in mine]
    assert sorted(row[2] for row in stored) == sorted(mine)  # each player seated exactly once
    assert {(t, s) for t, s, _ in stored} == set(given_seats)
    per_table = Counter(t for t, _, _ in stored)
    seats_of = dict(room.rows("SELECT table_id, count(*) FROM seats GROUP BY table_id"))
    assert all(per_table[t] <= seats_of[t] for t in per_table)  # never over-filled
    # Players are brought together: a node finds one match of a game at a time, so a new table
    # is opened only when every waiting one is full, and at most one is left waiting.
    waiting = [t for t in lobby(room, "oti") if {s["profile"] for s in t["seats"] if s} & set(mine)]
    assert len(waiting) <= 1


@pytest.mark.settings(quickmatch_wait_s=1.0)
def test_computers_take_the_free_seats_when_nobody_joins_in_time(room: Room) -> None:
    [ama] = profiles(room, "Ama")
    seated = quickmatch(room.url, ama).json()
    assert lobby(room)[0]["fills_at"] <= lobby(room)[0]["created"] + 1.0 + 0.01
    with Client(room.url, seated["table"], seated["token"]) as client:
        started = client.wait_for(
            lambda m: m["type"] == "state" and m["view"]["table"]["status"] == "playing"
        )
    seats = started["view"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "computer", "computer", "computer"]
    assert {s["level"] for s in seats[1:]} == {"hard"}
    assert lobby(room) == []


@pytest.mark.settings(quickmatch_wait_s=0.2)
def test_a_table_nobody_is_at_is_not_filled(room: Room) -> None:
    # Computers fill a waiting table for the players at it, not for a page closed long ago.
    [ama] = profiles(room, "Ama")
    seated = quickmatch(room.url, ama).json()
    threading.Event().wait(1.5)  # the wait passed several times over (checked every 0.05 s)
    assert [t["table"] for t in lobby(room)] == [seated["table"]]


# ---------------------------------------------------------------------------- the live lobby


class Events:
    """A follower of ``GET /api/lobby/events``: the lists it was sent, in order."""

    def __init__(self, base: str, game: str | None = "omi") -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        params = {} if game is None else {"game": game}
        self.stream = self.client.stream("GET", "/api/lobby/events", params=params)
        self.response = self.stream.__enter__()
        self.lines = self.response.iter_lines()

    def next(self) -> list[dict[str, Any]]:
        event = None
        for line in self.lines:
            if line.startswith("event: "):
                event = line[len("event: ") :]
            elif line.startswith("data: ") and event == "lobby":
                listed: list[dict[str, Any]] = json.loads(line[len("data: ") :])["tables"]
                return listed
        raise AssertionError("the stream ended")

    def until(self, test: Any) -> list[dict[str, Any]]:
        while True:
            listed = self.next()
            if test(listed):
                return listed

    def close(self) -> None:
        self.stream.__exit__(None, None, None)
        self.client.close()


@pytest.fixture
def follow(room: Room) -> Iterator[Any]:
    opened: list[Events] = []

    def start(game: str | None = "omi") -> Events:
        opened.append(Events(room.url, game))
        return opened[-1]

    yield start
    for events in opened:
        events.close()


def test_the_lobby_is_followed_live(room: Room, follow: Any) -> None:
    watcher = follow()
    assert watcher.response.headers["content-type"].startswith("text/event-stream")
    assert watcher.next() == []
    ama, kasun = profiles(room, "Ama", "Kasun")
    table = open_public(room, ama).json()["table"]
    listed = watcher.until(lambda tables: tables != [])
    assert [t["table"] for t in listed] == [table]
    join(room, table, kasun)
    listed = watcher.until(lambda tables: tables[0]["seats"][1] is not None)
    assert listed[0]["seats"][1]["name"] == "Kasun"
    for name in ("Nimal", "Saman"):
        join(room, table, profiles(room, name)[0])
    assert watcher.until(lambda tables: tables == []) == []


@pytest.mark.settings(lobby_streams_per_address=2)
def test_live_lobby_connections_are_limited_per_address(room: Room, follow: Any) -> None:
    first, _second = follow(), follow()
    first.next()
    with http(room.url) as client:
        refused = client.get("/api/lobby/events")
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_streams")
        bad = client.get("/api/lobby/events", params={"game": "chess"})
        assert (bad.status_code, bad.json()["code"]) == (422, "unknown_game")
    first.close()
    # A closed connection gives its place back (the server notices it within its next event).
    for _ in range(100):
        with http(room.url) as client, client.stream("GET", "/api/lobby/events") as answer:
            if answer.status_code == 200:
                break
        threading.Event().wait(0.1)
    else:
        raise AssertionError("a closed lobby connection kept its place")


@settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(game=st.one_of(st.sampled_from(["omi", "oti", "", "OMI", "omi "]), st.text(max_size=40)))
def test_any_game_parameter_is_answered_or_refused_clearly(room: Room, game: str) -> None:
    # The fuzzing of GET /api/lobby/events (schemathesis leaves out its endless stream).
    with http(room.url) as client:
        for path in ("/api/lobby", "/api/lobby/events"):
            with client.stream("GET", path, params={"game": game}) as answer:
                if game in ("omi", "oti"):
                    assert answer.status_code == 200
                    continue
                answer.read()
                assert answer.status_code == 422, (game, answer.text)
                assert answer.json()["code"] in ("unknown_game", "bad_request")


# ---------------------------------------------------------------------------- reporting a player


def test_a_player_reports_another_at_their_table_for_the_operator(room: Room) -> None:
    ama, kasun = profiles(room, "Ama", "Kasun")
    seated = [quickmatch(room.url, ama, game="oti", rules={"players": 2}).json()]
    seated.append(quickmatch(room.url, kasun, game="oti", rules={"players": 2}).json())
    table = seated[0]["table"]
    with http(room.url) as client:

        def report(token: str, seat: int, reason: str = "rude in the chat") -> httpx.Response:
            return client.post(
                f"/api/tables/{table}/report", json={"token": token, "seat": seat, "reason": reason}
            )

        made = report(seated[0]["token"], 1)
        assert (made.status_code, made.json()) == (201, {"reported": 1})
        # Refusals change nothing.
        for answer, (status, code) in [
            (report(seated[0]["token"], 1), (409, "already_reported")),
            (report(seated[0]["token"], 0), (422, "bad_seat")),  # oneself
            (report(seated[0]["token"], 5), (422, "bad_seat")),
            (report("x" * 22, 1), (403, "bad_token")),
            (report(seated[1]["token"], 0, "\u202eevil"), (422, "bad_request")),
            (report(seated[1]["token"], 0, " "), (422, "bad_request")),
        ]:
            assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert room.rows("SELECT table_id, by_seat, seat, by_profile, profile, name, reason FROM reports") == [
        (table, 0, 1, ama["profile"], kasun["profile"], "Kasun", "rude in the chat")
    ]


def test_two_players_of_one_name_are_told_apart_by_their_profiles(room: Room) -> None:
    first, second = profiles(room, "Ama", "Ama")
    table = open_public(room, first).json()["table"]
    assert join(room, table, second).status_code == 200
    names = [s and s["name"] for s in lobby(room)[0]["seats"][:2]]
    assert names == ["Ama", f"Ama #{second['profile'][:4]}"]


def test_a_player_waits_at_one_public_table_at_a_time(room: Room) -> None:
    ama, kasun = profiles(room, "Ama", "Kasun")
    first = open_public(room, ama).json()["table"]
    second = open_public(room, kasun).json()["table"]
    refused = join(room, second, ama)  # Ama already waits at her own table
    assert (refused.status_code, refused.json()["code"]) == (409, "already_waiting")
    assert [t["table"] for t in lobby(room)] == [first, second]
    assert [s and s["name"] for s in lobby(room)[1]["seats"]] == ["Kasun", None, None, None]
