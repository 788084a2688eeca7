"""The daily deal and club events on a cluster (issue 34): `bistrot serve` nodes on a throwaway PostgreSQL and
Redis.  Every node describes the same day's deal and deals the same cards: the secret the deal
comes from is made once, in the database the nodes share; a club event's boards are played on
every node."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from cluster_harness import start_nodes
from server_harness import Client, http, play_out
from store_rooms import make, postgres_rows

from bistrot.server.players import HEADER
from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

#: What these tests need (tests/lanes.py).
pytestmark = [pytest.mark.cluster, pytest.mark.postgres, pytest.mark.redis, pytest.mark.process]

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]


def test_every_node_gives_the_same_daily_deal(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    db_url = postgres.create_database("cluster_daily")
    nodes = start_nodes(tmp_path, db_url, redis_server.url(), count=2)
    try:
        described = []
        for node in nodes:
            with http(node.url) as client:
                described.append(client.get("/api/daily/omi").json())
        assert described[0] == described[1] and described[0]["rules"]["hands"] == 4
        # Two profiles start their game through different nodes, at once.
        hands = []
        for node, name in zip(nodes, ("Ama", "Kasun"), strict=True):
            with http(node.url) as client:
                profile = make(client, name)
                started = client.post("/api/daily/omi", headers={HEADER: profile["key"]})
                assert started.status_code == 201, started.text
                again = client.post("/api/daily/omi", headers={HEADER: profile["key"]})
                assert again.json()["code"] == "daily_unfinished"
            with Client(node.url, started.json()["table"], started.json()["token"]) as player:
                player.wait_for(lambda m: m["type"] == "state")
                hands.append(player.view["hand"])
        assert hands[0] == hands[1] and len(hands[0]) == 4
    finally:
        for node in nodes:
            node.stop()


def test_a_club_events_boards_are_played_on_two_nodes(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Two pairs of one event, each asking through its own node: their boards' tables are opened
    on both nodes, deal the same cards to the same compass place, and are compared as one event."""
    db_url = postgres.create_database("cluster_events")
    nodes = start_nodes(tmp_path, db_url, redis_server.url(), count=2)
    try:
        with http(nodes[0].url) as client:
            org, ama = make(client, "Organiser"), make(client, "Ama")
            made = client.post("/api/events", json={"boards": 4, "boards_per_round": 2}, headers=key(org))
            event = made.json()["event"]
            client.post(f"/api/events/{event}/join", json={}, headers=key(ama))
        with http(nodes[1].url) as client:
            ben = make(client, "Ben")
            assert client.post(f"/api/events/{event}/join", json={}, headers=key(ben)).json() == {"pair": 2}
            assert client.post(f"/api/events/{event}/start", headers=key(org)).json() == {"tables": 2}
        first_views: dict[int, list[list[str]]] = {}
        for board in range(1, 5):
            for node, player in ((nodes[0], ama), (nodes[1], ben)):
                with http(node.url) as client:
                    step = client.post(f"/api/events/{event}/next", headers=key(player)).json()
                assert (step["status"], step["board"], step["compass"]) == ("play", board, "N"), step
                with Client(node.url, step["table_id"], step["token"]) as seat:
                    play_out(seat)
                # North's eight cards, once trumps are chosen: before, a seat sees its first four
                # only, and a computer choosing trumps may or may not have chosen them by the
                # first state North gets.
                states = [m["view"] for m in seat.messages if m["type"] == "state"]
                dealt = [view["hand"] for view in states if view["phase"] != "trump"]
                assert len(dealt[0]) == 8, dealt[0]
                first_views.setdefault(board, []).append(dealt[0])
        # The same board: the same cards for North at both tables, one table on each node.
        assert all(hands[0] == hands[1] for hands in first_views.values())
        owners = {row[0] for row in postgres_rows(db_url)("SELECT owner FROM tables WHERE event IS NOT NULL")}
        assert len(owners) == 2
        with http(nodes[1].url) as client:
            shown = client.get(f"/api/events/{event}").json()
        assert shown["status"] == "over" and len(shown["results"]) == 4
        assert sorted(r["pair"] for r in shown["ranking"]) == [1, 2, 3, 4]
    finally:
        for node in nodes:
            node.stop()


def key(profile: dict[str, str]) -> dict[str, str]:
    return {HEADER: profile["key"]}
