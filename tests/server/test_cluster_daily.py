"""The daily deal on a cluster (issue 34): `bistrot serve` nodes on a throwaway PostgreSQL and
Redis.  Every node describes the same day's deal and deals the same cards: the secret the deal
comes from is made once, in the database the nodes share."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from cluster_harness import start_nodes
from server_harness import Client, http
from store_rooms import make

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
