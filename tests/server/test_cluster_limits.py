"""The limits of one seat and a PostgreSQL outage on two ``bistrot serve`` nodes (a throwaway
PostgreSQL and Redis): a seat's connections and its chat are counted by the table's owner,
relayed sockets included; while PostgreSQL is down a socket landing on a node that does not hold
its table is refused as documented (close 4503), never with an error, and play resumes after."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from cluster_harness import LEASE_S, TRANSIENT, friends_table, owner_of, reconnect, start_nodes
from server_harness import Client, open_table, settle
from test_server_chat import chats
from test_server_seat_limits import refusal
from websockets.exceptions import ConnectionClosed

from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]

#: uvicorn's lines for each socket.
ACCESS = ('"WebSocket /ws/', "connection open", "connection closed")

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.cluster, pytest.mark.process]


def test_a_seats_connections_and_chat_are_counted_on_the_tables_owner(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    db_url = postgres.create_database("cluster_seat_limits")
    nodes = start_nodes(tmp_path, db_url, redis_server.url(), count=2)
    try:
        tid, tokens, _watch = friends_table(nodes)  # opened on nodes[0], which owns it
        assert owner_of(db_url, tid) is not None
        with contextlib.ExitStack() as stack:
            # Two sockets on the owner, two relayed from the other node: the cap (4) is reached.
            ama = [stack.enter_context(Client(nodes[n % 2].url, tid, tokens[0])) for n in range(4)]
            kasun = stack.enter_context(Client(nodes[1].url, tid, tokens[1]))
            for client in [*ama, kasun]:
                settle(client)
            for node in nodes:
                assert refusal(Client(node.url, tid, tokens[0]))[:2] == (
                    [("reject", "too_many_connections")], 4429,
                )  # fmt: skip
            started = time.monotonic()
            for round_ in range(8):
                for n, client in enumerate(ama):
                    client.send({"type": "chat", "id": f"{n}-{round_}", "text": f"spam {n} {round_}"})
            for client in ama:
                settle(client)
            settle(kasun)
            elapsed = time.monotonic() - started
            said = chats(kasun)
            refused: list[dict[str, Any]] = [m for c in ama for m in c.messages if m["type"] == "reject"]
            assert {m["code"] for m in refused} == {"rate_limited"}
            assert len(said) + len(refused) == 32
            assert 10 <= len(said) <= 10 + elapsed + 1, (len(said), elapsed)  # the seat's rate, once
    finally:
        for node in nodes:
            node.stop()


def test_postgresql_down_refuses_relayed_connections_as_documented_then_play_resumes(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    from tests.postgres_server import PostgresServer  # (loaded by pytest_plugins first)

    with PostgresServer() as pg:  # its own: the session's server must stay up
        db_url = pg.create_database("cluster_pg_connect")
        nodes = start_nodes(tmp_path, db_url, redis_server.url(), count=2)
        try:
            table = open_table(nodes[0].url, mode="computer", level="easy", rules={"target": 1})
            tid, token = table["table"], table["seats"][0]["token"]
            pg.stop()
            stopped = time.monotonic()
            marks = [len(node.output) for node in nodes]
            for _ in range(20):  # on the node that does not hold the table: it must ask the store
                said, code, _reason = refusal(Client(nodes[1].url, tid, token))
                assert code == 4503 and len(said) == 1 and said[0][1] in TRANSIENT, (said, code)
            time.sleep(max(0.5, stopped + 3 * LEASE_S - time.monotonic()))  # past every lease
            for node, mark in zip(nodes, marks, strict=True):
                # The outage, a sweep that met it first, the lease lost, its table dropped, the
                # node back: once each, not once per connection or per lease renewal.
                said = [line for line in node.output[mark:] if not any(a in line for a in ACCESS)]
                assert "Traceback" not in "".join(said)
                assert len(said) <= 6, said
            pg.start()
            # As the page does: connect again (the nodes rejoin meanwhile and may close it, 1012)
            # and retry what is refused for now, until an action is stored.
            deadline = time.monotonic() + 30
            while True:
                answer: dict[str, Any] | None = None
                with (
                    contextlib.suppress(ConnectionClosed),
                    reconnect(nodes[1].url, tid, token, since=0, within_s=30) as back,
                ):
                    answer = back.act(back.wait_turn_or_end()["legal"][0])
                if answer is not None and answer["type"] == "ack":
                    break
                assert answer is None or answer["code"] in TRANSIENT, answer
                assert time.monotonic() < deadline, "play did not resume"
                time.sleep(0.2)
        finally:
            for node in nodes:
                node.stop()
