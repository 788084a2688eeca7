"""Seats and teams in a friends table's lobby (``POST /api/tables/{id}/seat``): real servers on
SQLite and on PostgreSQL, real clients.  A player moves to a free seat, the creator exchanges
two players or moves one; the moved players' connections are closed (4409) and their tokens,
unchanged, hold the new seats; everyone connected is sent the new seating at once; refusals
change nothing; the game starts with the seats as arranged and each token plays its own.  In a
cluster, a move asked of any node is stored by the table's owner (fenced as every write: see
test_postgres_store) and closes the moved player's connection wherever it is."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from cluster_harness import node_ids, owner_of, start_nodes
from server_harness import Client, ThreadServer, drive, http, make_settings, open_table, settle
from websockets.exceptions import ConnectionClosed

from bistrot.server.table import CLOSE_SEAT_MOVED
from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]  # the session's throwaway PostgreSQL: `postgres`


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def settings_for(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """Settings of a server on SQLite (in ``tmp_path``) or on a PostgreSQL database of its own."""
    overrides: dict[str, Any] = {}
    if request.param == "postgres":
        postgres: PostgresServer = request.getfixturevalue("postgres")
        name = "seats_" + re.sub(r"\W+", "_", request.node.name).lower()[-50:]
        overrides["database_url"] = postgres.create_database(name)
    return make_settings(tmp_path, **overrides)


@pytest.fixture
def server(settings_for: Any) -> Iterator[ThreadServer]:
    with ThreadServer(settings_for) as running:
        yield running


def friends(url: str, names: tuple[str, ...] = ("Kasun", "Nimal"), **body: Any) -> tuple[str, list[str], str]:
    """A friends table opened by Ama, the ``names`` seated after her: (id, tokens by seat, invite)."""
    table = open_table(url, mode="friends", name="Ama", **body)
    tokens = [table["seats"][0]["token"]]
    for name in names:
        tokens.append(join(url, table["table"], table["invite"], name)["token"])
    return table["table"], tokens, table["invite"]


def join(url: str, table_id: str, invite: str, name: str) -> dict[str, Any]:
    with http(url) as client:
        answer = client.post(f"/api/tables/{table_id}/join", json={"invite": invite, "name": name})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def move(url: str, table_id: str, **body: Any) -> tuple[int, dict[str, Any]]:
    with http(url) as client:
        answer = client.post(f"/api/tables/{table_id}/seat", json=body)
    return answer.status_code, answer.json()


def seating(url: str, table_id: str) -> list[tuple[str, str | None]]:
    with http(url) as client:
        info = client.get(f"/api/tables/{table_id}").json()
    return [(s["kind"], s["name"]) for s in info["seats"]]


def shown(client: Client) -> list[tuple[str, str | None]]:
    return [(s["kind"], s["name"]) for s in client.view["seats"]]


def my_seat(client: Client) -> int:
    return next(s["seat"] for s in client.view["seats"] if s["you"])


def closed_for_moving(client: Client) -> None:
    """The connection is closed with the seat-moved code (after whatever came before it)."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_SEAT_MOVED


def connected(url: str, table_id: str, tokens: list[str]) -> list[Client]:
    clients = [Client(url, table_id, token) for token in tokens]
    for client in clients:
        settle(client)
    return clients


def test_a_player_moves_to_a_free_seat_and_everyone_sees_the_teams_at_once(server: ThreadServer) -> None:
    url = server.url
    tid, tokens, _invite = friends(url)
    ama, kasun, nimal = connected(url, tid, tokens)
    # Omi with 4 players: partners sit opposite, seats 0 and 2 against 1 and 3.
    assert ama.view["table"]["teams"] == [0, 1, 0, 1]
    assert shown(ama) == [("human", "Ama"), ("human", "Kasun"), ("human", "Nimal"), ("open", None)]

    status, answer = move(url, tid, token=tokens[1], to=3)  # Kasun leaves Ama's team for seat 3
    assert status == 200, answer
    after = [("human", "Ama"), ("open", None), ("human", "Nimal"), ("human", "Kasun")]
    assert [(s["kind"], s["name"]) for s in answer["seats"]] == after
    for client in (ama, nimal):  # told at once, without asking
        client.wait_for(lambda m: m["type"] == "state" and shown_in(m) == after)
        assert client.seq == 0
    closed_for_moving(kasun)
    # The same token, now Kasun's at seat 3.
    with Client(url, tid, tokens[1]) as back:
        settle(back)
        assert my_seat(back) == 3 and shown(back) == after
        assert back.view["table"]["teams"][3] != back.view["table"]["teams"][0]
        assert back.view["table"]["status"] == "waiting"
    assert seating(url, tid) == after
    for client in (ama, nimal):
        client.close()


def shown_in(message: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(s["kind"], s["name"]) for s in message["view"]["seats"]]


def test_the_creator_arranges_the_seats_and_the_game_starts_as_arranged(
    settings_for: Any,
) -> None:
    with ThreadServer(settings_for) as server:
        url = server.url
        tid, tokens, invite = friends(url, rules={"target": 1})
        ama, kasun, nimal = connected(url, tid, tokens)
        # Ama exchanges Kasun (1) and Nimal (2): Kasun becomes her partner.
        status, answer = move(url, tid, token=tokens[0], seat=1, to=2)
        assert status == 200, answer
        swapped = [("human", "Ama"), ("human", "Nimal"), ("human", "Kasun"), ("open", None)]
        ama.wait_for(lambda m: m["type"] == "state" and shown_in(m) == swapped)
        for client in (kasun, nimal):
            closed_for_moving(client)
        # Then she moves Nimal on to the free seat 3.
        status, answer = move(url, tid, token=tokens[0], seat=1, to=3)
        assert status == 200, answer
        arranged = [("human", "Ama"), ("open", None), ("human", "Kasun"), ("human", "Nimal")]
        ama.wait_for(lambda m: m["type"] == "state" and shown_in(m) == arranged)
        ama.close()
    # Stored before it was answered: a new server on the same store has the seats as arranged.
    with ThreadServer(settings_for) as server:
        url = server.url
        assert seating(url, tid) == arranged
        ama, kasun, nimal = connected(url, tid, tokens)
        assert [my_seat(c) for c in (ama, kasun, nimal)] == [0, 2, 3]
        # The last friend takes the free seat, and the game starts.
        sunil = join(url, tid, invite, "Sunil")
        assert (sunil["seat"], sunil["status"]) == (1, "playing")
        players = [ama, kasun, nimal, Client(url, tid, sunil["token"])]
        for client in players:
            client.wait_for(lambda m: m["type"] == "state" and m["view"]["table"]["status"] == "playing")
        assert [my_seat(c) for c in players] == [0, 2, 3, 1]
        # Each token plays its own seat: the hand it is dealt, its own turns, to the end.
        for client in players:
            seat = my_seat(client)
            assert client.view["hand"] and [s["seat"] for s in client.view["seats"] if s["you"]] == [seat]
        drive(players, random.Random(7))
        assert all(c.view["is_over"] for c in players)
        actors = {m["last"]["seat"] for m in players[0].messages if m["type"] == "state" and m["last"]}
        assert actors == {0, 1, 2, 3}
        for client in players:
            client.close()


def test_refusals_change_nothing(server: ThreadServer) -> None:
    url = server.url
    tid, tokens, invite = friends(url)
    ama, kasun, nimal = connected(url, tid, tokens)
    before = seating(url, tid)
    refused = [
        ({"token": tokens[1], "to": 2}, 409, "seat_taken"),  # Nimal's seat: only the creator exchanges
        ({"token": tokens[1], "seat": 2, "to": 3}, 403, "not_creator"),  # moving someone else
        ({"token": tokens[0], "to": 3}, 409, "creator_seat"),  # the creator keeps seat 0
        ({"token": tokens[0], "seat": 1, "to": 0}, 409, "creator_seat"),
        ({"token": tokens[1], "to": 0}, 409, "creator_seat"),
        ({"token": tokens[0], "seat": 3, "to": 1}, 409, "seat_free"),  # nobody sits there
        ({"token": tokens[1], "to": 1}, 409, "same_seat"),
        ({"token": tokens[0], "seat": 1, "to": 4}, 422, "bad_seat"),  # a 4-seat table
        ({"token": tokens[1], "to": 8}, 422, "bad_request"),
        ({"token": tokens[1], "to": "3"}, 422, "bad_request"),
        ({"token": tokens[1], "to": 3.0}, 422, "bad_request"),
        ({"token": tokens[1]}, 422, "bad_request"),
        ({"token": tokens[1], "to": 3, "extra": 1}, 422, "bad_request"),
        ({"token": "not-a-token", "to": 3}, 403, "bad_token"),
        ({"token": invite, "to": 3}, 403, "bad_token"),  # the invite holds no seat
    ]
    for body, status, code in refused:
        got_status, got = move(url, tid, **body)
        assert (got_status, got["code"]) == (status, code), body
    status, got = move(url, "no-such-table", token=tokens[1], to=3)
    assert (status, got["code"]) == (404, "unknown_table")
    assert seating(url, tid) == before
    for client in (ama, kasun, nimal):  # nobody was told anything, nobody was disconnected
        count = len(client.messages)
        settle(client)
        assert [m["type"] for m in client.messages[count:]] == ["pong"]
    # After the start: refused, for a friends table as for a game against the computer.
    join(url, tid, invite, "Sunil")
    ama.wait_for(lambda m: m["type"] == "state" and m["view"]["table"]["status"] == "playing")
    started = seating(url, tid)
    status, got = move(url, tid, token=tokens[1], seat=1, to=2)
    assert (status, got["code"]) == (409, "already_started")
    computer = open_table(url, level="easy")
    status, got = move(url, computer["table"], token=computer["seats"][0]["token"], to=1)
    assert (status, got["code"]) == (409, "already_started")
    assert seating(url, tid) == started
    for client in (ama, kasun, nimal):
        client.close()


def test_oti_and_three_player_omi_have_no_teams(server: ThreadServer) -> None:
    for game, rules in (("oti", {}), ("omi", {"players": 3})):
        table = open_table(server.url, game=game, mode="friends", rules=rules)
        with Client(server.url, table["table"], table["seats"][0]["token"]) as creator:
            settle(creator)
            assert creator.view["table"]["teams"] is None


@pytest.mark.cluster
@pytest.mark.process
def test_in_a_cluster_a_move_asked_anywhere_reaches_the_owner_and_the_player_on_another_node(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    db_url = postgres.create_database("seats_cluster")
    nodes = start_nodes(tmp_path, db_url, redis_server.url())
    try:
        tid, tokens, _invite = friends(nodes[0].url)
        assert owner_of(db_url, tid) in node_ids(nodes[0])  # where it was opened
        # Ama on the owner, Kasun and Nimal on the two others (relayed to the owner).
        ama, kasun, nimal = (Client(nodes[n].url, tid, tokens[n]) for n in range(3))
        for client in (ama, kasun, nimal):
            settle(client)
        status, answer = move(nodes[2].url, tid, token=tokens[1], to=3)  # asked of a third node
        assert status == 200, answer
        after = [("human", "Ama"), ("open", None), ("human", "Nimal"), ("human", "Kasun")]
        for client in (ama, nimal):
            client.wait_for(lambda m: m["type"] == "state" and shown_in(m) == after)
        closed_for_moving(kasun)
        with psycopg.connect(db_url) as conn:
            rows = conn.execute("SELECT seat, kind, name FROM seats WHERE table_id = %s ORDER BY seat", [tid])
            assert [(kind, name) for _seat, kind, name in rows.fetchall()] == after
        with Client(nodes[2].url, tid, tokens[1]) as back:  # the same token, through any node
            settle(back)
            assert my_seat(back) == 3
        for client in (ama, nimal):
            client.close()
    finally:
        for node in nodes:
            node.stop()
