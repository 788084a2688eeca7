"""Duplicate events for clubs (issue 34, item 2), on SQLite and on a throwaway PostgreSQL: an
organiser's event, pairs joining it, a 3-table event played through by WebSocket clients with
computers in the free seats, the matchpoints against a computation by hand, and never a card of a
board before its players have played it."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secrecy import cards_in, no_cards
from server_harness import AllRecords, Client, http, play_out
from store_rooms import Room, make

from bistrot import dealcode
from bistrot.omi import OmiGame, OmiRules
from bistrot.server import duplicate
from bistrot.server.club import board_rules, seat_token
from bistrot.server.players import HEADER

pytest_plugins = ["tests.postgres_server"]


def key(profile: dict[str, Any]) -> dict[str, str]:
    return {HEADER: profile["key"]}


def post(url: str, path: str, profile: dict[str, Any], body: Any = None) -> Any:
    with http(url) as client:
        return client.post(path, json=body, headers=key(profile))


def shown(url: str, event: str, profile: dict[str, Any] | None) -> dict[str, Any]:
    with http(url) as client:
        answer = client.get(f"/api/events/{event}", headers=key(profile) if profile else {})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


# ---------------------------------------------------------------------------- the arithmetic


def test_matchpoints_on_a_known_board_by_hand() -> None:
    # Four tables played a board: North-South took 6, 4, 6 and 3 tricks.
    # NS at table 1 beat tables 2 and 4 (2 + 2) and tied table 3 (1): 5 of a top of 6.
    points = duplicate.matchpoints({1: 6, 2: 4, 3: 6, 4: 3})
    assert points == {1: (5, 1), 2: (2, 4), 3: (5, 1), 4: (0, 6)}
    assert duplicate.top(4) == 6
    # Two boards: pair 1 scored 5 of 6 then 1 of 2: 6 of 8 is 75 %.
    standings = duplicate.ranking({1: [(5, 6), (1, 2)], 2: [(1, 6), (1, 2)], 3: [(6, 6), (0, 2)]})
    assert [(s.pair, s.points, s.top, s.percent, s.rank) for s in standings] == [
        (1, 6, 8, 75.0, 1), (3, 6, 8, 75.0, 1), (2, 2, 8, 25.0, 3),
    ]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    tables=st.integers(duplicate.MIN_TABLES, duplicate.MAX_TABLES),
    per_round=st.integers(1, 6),
    rounds=st.integers(1, 12),
)
def test_the_movement_plays_every_board_once_against_as_many_pairs_as_it_can(
    tables: int, per_round: int, rounds: int
) -> None:
    boards = per_round * rounds
    sittings = duplicate.movement(tables, boards, per_round)
    pairs = range(1, 2 * tables + 1)
    played: dict[int, list[int]] = {p: [] for p in pairs}
    met: dict[int, set[int]] = {p: set() for p in pairs}
    for s in sittings:
        assert s.ns <= tables < s.ew
        for b in s.boards:
            played[s.ns].append(b)
            played[s.ew].append(b)
        met[s.ns].add(s.ew)
        met[s.ew].add(s.ns)
        for p in (s.ns, s.ew):
            assert duplicate.sitting_of(p, s.boards[0], tables, per_round) == s
    for p in pairs:
        assert played[p] == list(range(1, boards + 1))  # every board once, in order
        assert len(met[p]) == min(rounds, tables)
    # Each board: one deal, its dealer's seat, partners two seats apart, dealers going round.
    for b in range(1, 9):
        seats = [duplicate.seat_of(c, b) for c in range(4)]
        assert sorted(seats) == [0, 1, 2, 3] and seats[duplicate.dealer(b)] == 3
        assert (seats[0] - seats[2]) % 4 == 2 and duplicate.ns_side(b) == seats[0] % 2


# ---------------------------------------------------------------------------- making and joining


def test_an_event_is_made_joined_and_refuses_what_it_cannot_be(room: Room) -> None:
    with http(room.url) as client:
        org, ama, ben = (make(client, name) for name in ("Organiser", "Ama", "Ben"))
        for body, code in (
            ({"boards": 3}, 422), ({"boards": 37}, 422), ({"boards": 8, "boards_per_round": 3}, 422),
            ({"boards": 8, "game": "oti"}, 422), ({"boards": "8"}, 422),
            ({"boards": 8, "starts_at": 1.0}, 422),
            ({"boards": 8, "name": "x" * 61}, 422), ({"boards": 8, "extra": 1}, 422),
        ):  # fmt: skip
            answer = client.post("/api/events", json=body, headers=key(org))
            assert answer.status_code == code, (body, answer.text)
            assert answer.json()["message"]
        with http(room.url) as stranger:  # a profile makes one
            assert stranger.post("/api/events", json={"boards": 8}).status_code == 401
        made = client.post("/api/events", json={"boards": 8, "name": "Thursday club"}, headers=key(org))
        assert made.status_code == 201, made.text
        event = made.json()["event"]
        assert made.json()["event_url"] == f"/e/{event}"
        assert room.rows("SELECT count(*) FROM club_events") == [(1,)]

        assert client.post(f"/api/events/{event}/join", json={}, headers=key(ama)).json() == {"pair": 1}
        joined = client.post(f"/api/events/{event}/join", json={"pair": 1}, headers=key(ben))
        assert joined.json() == {"pair": 1}
        for who, body, code in (
            (ama, {}, "already_joined"), (org, {"pair": 1}, "pair_full"), (org, {"pair": 7}, "no_pair"),
        ):  # fmt: skip
            refused = client.post(f"/api/events/{event}/join", json=body, headers=key(who))
            assert refused.json()["code"] == code
        # Too few pairs to start; only the organiser starts.
        assert client.post(f"/api/events/{event}/start", headers=key(ama)).json()["code"] == "not_organiser"
        assert client.post(f"/api/events/{event}/start", headers=key(org)).json()["code"] == "too_few_pairs"
        assert client.post(f"/api/events/{event}/next", headers=key(ama)).json()["code"] == "not_started"
        assert client.post(f"/api/events/{event}/leave", headers=key(ben)).json() == {"left": True}
        assert client.get("/api/events/nope").json()["code"] == "unknown_event"
        client.cookies.clear()  # the last profile made is in the client's cookie: only headers below
        view = shown(room.url, event, ama)
        assert view["status"] == "open" and view["me"] == {"pair": 1, "organiser": False}
        assert view["pairs"] == [
            {"pair": 1, "players": [{"profile": ama["profile"], "name": "Ama"}, None], "computer": False}
        ]
        assert view["organiser"] == {"profile": org["profile"], "name": "Organiser"}
        # An organiser has at most MAX_WAITING events waiting: a clear refusal beyond.
        for _ in range(4):
            assert client.post("/api/events", json={"boards": 4}, headers=key(org)).status_code == 201
        refused = client.post("/api/events", json={"boards": 4}, headers=key(org))
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_events")
        assert room.rows("SELECT count(*) FROM club_events") == [(5,)]


# ---------------------------------------------------------------------------- a whole event


def play_event(
    url: str, event: str, profile: dict[str, Any], seen: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Play every board of ``profile``'s pair in ``event``: each board's final view."""
    finals = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        answer = post(url, f"/api/events/{event}/next", profile)
        assert answer.status_code == 200, answer.text
        step = answer.json()
        if step["status"] == "done":
            return finals
        if step["status"] == "wait":
            # The pairs of its next table are still playing: nothing of theirs is shown.
            seen.append(shown(url, event, profile))
            time.sleep(0.1)
            continue
        with Client(url, step["table_id"], step["token"]) as player:
            player.wait_for(lambda m: m["type"] == "state")
            assert [s["seat"] for s in player.view["seats"] if s["you"]] == [step["seat"]]
            assert player.view["table"]["event"] == event
            play_out(player)
            finals.append({**step, "view": player.view})
        seen.append(shown(url, event, profile))
    raise AssertionError(f"{profile['name']} did not finish the event")


def test_a_three_table_event_is_played_through_and_scored_by_matchpoints(room: Room) -> None:
    records = AllRecords()
    logging.getLogger().addHandler(records)
    try:
        with http(room.url) as client:
            org = make(client, "Organiser")
            people = [make(client, name) for name in ("Ama", "Ben", "Chandi", "Dilan", "Eshan", "Fathima")]
            made = client.post("/api/events", json={"boards": 4, "boards_per_round": 2}, headers=key(org))
            event_id = made.json()["event"]
            # Pairs 1 (Ama, Ben), then Chandi, Dilan, Eshan and Fathima each with a computer partner;
            # the organiser only runs it.
            for who, pair in ((0, None), (1, 1), (2, None), (3, None), (4, None), (5, None)):
                path = f"/api/events/{event_id}/join"
                answer = client.post(path, json={"pair": pair}, headers=key(people[who]))
                assert answer.status_code == 200, answer.text
            # Five pairs: three tables, the sixth pair the computer's.
            assert client.post(f"/api/events/{event_id}/start", headers=key(org)).json() == {"tables": 3}
            before = shown(room.url, event_id, people[0])
        assert before["status"] == "playing" and before["tables"] == 3 and before["results"] == []
        assert [p["computer"] for p in before["pairs"]] == [False] * 5 + [True]
        no_cards(before)

        seen: list[dict[str, Any]] = []
        with ThreadPoolExecutor(len(people)) as pool:
            runs = [pool.submit(play_event, room.url, event_id, p, seen) for p in people]
            finals = {p["profile"]: run.result() for p, run in zip(people, runs, strict=True)}
        # Every player played the four boards, in order.
        assert all([f["board"] for f in played] == [1, 2, 3, 4] for played in finals.values())

        # Until the event was over, a player saw the cards and results of its pair's boards only.
        for view in seen:
            me = view["me"]["pair"]
            if view["status"] == "over":
                continue
            for result in view["results"]:
                table = duplicate.sitting_of(me, result["board"], 3, 2).table
                played = view["progress"][(result["board"] - 1) // 2 * 3 + table - 1]
                assert {"board": result["board"], "status": "over"} in played["boards"]
            shown_boards = {r["board"] for r in view["results"]}
            for sitting in view["progress"]:
                if me in (sitting.get("ns"), sitting.get("ew")):
                    for b in sitting["boards"]:
                        if b["status"] != "over":
                            assert b["board"] not in shown_boards

        final = shown(room.url, event_id, None)
        assert final["status"] == "over" and len(final["results"]) == 4
        # The matchpoints, computed again by hand from the tricks each player saw at its table.
        tricks: dict[tuple[int, int], int] = {}
        for played in finals.values():
            for f in played:
                sides = f["view"]["results"][0]["tricks"]
                ns = sides[duplicate.ns_side(f["board"])]
                assert tricks.setdefault((f["board"], f["table"]), ns) == ns
        assert len(tricks) == 12
        totals = {p: 0 for p in range(1, 7)}
        for board in range(1, 5):
            line = final["results"][board - 1]
            assert line["top"] == 4 and [t["table"] for t in line["tables"]] == [1, 2, 3]
            for t in line["tables"]:
                mine = tricks[(board, t["table"])]
                others = [tricks[(board, o)] for o in (1, 2, 3) if o != t["table"]]
                ns_points = sum(2 if mine > o else 1 if mine == o else 0 for o in others)
                assert (t["ns_tricks"], t["ns_points"], t["ew_points"]) == (mine, ns_points, 4 - ns_points)
                totals[t["ns"]] += ns_points
                totals[t["ew"]] += 4 - ns_points
            # The hands shown are the board's deal, from its dealer's seat.
            assert sorted(len(h) for h in line["hands"].values()) == [8] * 4
            assert line["dealer"] == "NESW"[(board - 1) % 4]
        ranking = final["ranking"]
        assert {r["pair"]: r["points"] for r in ranking} == totals
        assert all(r["top"] == 16 and r["percent"] == round(100 * r["points"] / 16, 2) for r in ranking)
        percents = [r["percent"] for r in ranking]
        assert percents == sorted(percents, reverse=True)
        assert ranking[0]["rank"] == 1
        # Once over, every table's replay is open: the deals are no secret any more.
        with http(room.url) as client:
            replay = client.get(f"/api/tables/{final['results'][0]['tables'][1]['table_id']}/record")
            assert replay.status_code == 200, replay.text
            # A board's game is no table to rematch or challenge from.
            mine = finals[people[0]["profile"]][0]
            for what in ("rematch", "challenge"):
                refused = client.post(f"/api/tables/{mine['table_id']}/{what}", json={"token": mine["token"]})
                assert refused.json()["code"] == "event_board", refused.text
    finally:
        logging.getLogger().removeHandler(records)
    text = "\n".join(r.getMessage() for r in records.records)
    boards = [f for played in finals.values() for f in played]
    # No seat token nor profile key in any log line, and no card (random ids aside).
    for secret in [p["key"] for p in people] + [org["key"]] + [f["token"] for f in boards]:
        assert secret not in text
    for table_id in {f["table_id"] for f in boards} | {event_id}:
        text = text.replace(table_id, "").replace(table_id[:6], "")
    assert not cards_in(text)


def test_a_board_is_the_same_deal_and_dealer_at_every_table() -> None:
    rules = OmiRules.from_dict(board_rules("omi"))
    seed = duplicate.board_seed("secret", "event", 3, dealcode.SEED_BITS)
    first, again = OmiGame.new(rules, seed=seed), OmiGame.new(rules, seed=seed)
    assert first.dealt == again.dealt and first.dealer == 3
    assert duplicate.board_seed("secret", "event", 4, dealcode.SEED_BITS) != seed
    assert seat_token("a", "t", 1) != seat_token("b", "t", 1)


def test_an_event_with_a_start_time_starts_by_itself_once_it_has_two_pairs(room: Room) -> None:
    with http(room.url) as client:
        org, ama, ben = (make(client, name) for name in ("Organiser", "Ama", "Ben"))
        client.cookies.clear()
        body = {"boards": 4, "starts_at": time.time() + 1.5}
        event = client.post("/api/events", json=body, headers=key(org)).json()["event"]
        client.post(f"/api/events/{event}/join", json={}, headers=key(ama))
        assert shown(room.url, event, ama)["status"] == "open"
        assert client.post(f"/api/events/{event}/next", headers=key(ama)).json()["code"] == "not_started"
        client.post(f"/api/events/{event}/join", json={}, headers=key(ben))
        time.sleep(1.6)
        # The first request after its time starts it: two pairs, two tables.
        step = client.post(f"/api/events/{event}/next", headers=key(ben)).json()
        assert (step["status"], step["board"], step["compass"]) == ("play", 1, "N")
        view = shown(room.url, event, ben)
        assert (view["status"], view["tables"]) == ("playing", 2)
        assert view["progress"][1]["boards"][0] == {"board": 1, "status": "playing"}
        # Too late to join; a stranger is told they are in no pair.
        late = make(client, "Late")
        joined = client.post(f"/api/events/{event}/join", json={}, headers=key(late))
        assert joined.json()["code"] == "not_open"
        assert client.post(f"/api/events/{event}/next", headers=key(late)).json()["code"] == "not_in_event"


@pytest.mark.settings(grace_s=1.0)
def test_a_player_who_never_comes_has_their_board_played_by_the_computer(room: Room) -> None:
    """A board's table opened for a player who does not come to it is not left waiting: after the
    grace period the computer plays the seat, and the event goes on."""
    with http(room.url) as client:
        org, ama, ben = (make(client, name) for name in ("Organiser", "Ama", "Ben"))
        client.cookies.clear()
        event = client.post("/api/events", json={"boards": 4, "boards_per_round": 4}, headers=key(org)).json()
        for who in (ama, ben):
            client.post(f"/api/events/{event['event']}/join", json={}, headers=key(who))
        client.post(f"/api/events/{event['event']}/start", headers=key(org))
        opened = client.post(f"/api/events/{event['event']}/next", headers=key(ama)).json()
        assert opened["status"] == "play"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            again = client.post(f"/api/events/{event['event']}/next", headers=key(ama)).json()
            if again["board"] == 2:
                break
            time.sleep(0.2)
        assert again["board"] == 2, again
        board_one = shown(room.url, event["event"], ama)["results"][0]
        assert [t["table"] for t in board_one["tables"]] == [1]  # Ben's table has not played it
