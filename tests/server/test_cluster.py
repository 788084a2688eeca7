"""Three ``bistrot serve`` nodes on one throwaway PostgreSQL and Redis: one card room.

A friends table whose four players and a spectator are connected to different nodes plays
through the owner; the owner killed with SIGKILL mid-match, another node owns the table within
5 s and the match finishes with every acknowledged action stored once, seqs contiguous; a friend
away stays away and another's grace period goes on with what was left of it on the node that takes
the table over; an owner paused (SIGSTOP) past its lease stores nothing after it is resumed; a game
goes on across a Redis restart and a PostgreSQL outage longer than every lease; a table plays
through nginx set up by docs/deploy.md's own configuration; and a node says it has started only
once the others can reach it.
"""

from __future__ import annotations

import contextlib
import random
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
import redis
from cluster_harness import (
    LEASE_S,
    TAKEOVER_S,
    PagePlayer,
    acks_of,
    check_stored,
    check_table,
    friends_table,
    live_owner,
    node_env,
    owner_of,
    play,
    reconnect,
    start_nodes,
    stored,
    stored_presence,
)
from server_harness import TIMEOUT, Client, ProcessServer, drain, drive, settle
from websockets.exceptions import ConnectionClosed

from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

#: What these tests need (tests/lanes.py).
pytestmark = [pytest.mark.cluster, pytest.mark.postgres, pytest.mark.redis, pytest.mark.process,
              pytest.mark.nginx]

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]

#: How long Redis is frozen while a node starts: under the node's wait for the bus
#: (cluster.LISTEN_WITHIN_S), over its usual start.
FROZEN_S = 4.0


def test_a_table_plays_across_nodes_and_survives_its_owner_killed(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    db_url = postgres.create_database("cluster_kill")
    nodes = start_nodes(tmp_path, db_url, redis_server.url())
    try:
        tid, tokens, watch = friends_table(nodes)
        first_owner = owner_of(db_url, tid)
        # Seat 0 on the owner, the others on the two other nodes, the spectator on a third.
        homes = [0, 1, 2, 1]
        players = [Client(nodes[homes[s]].url, tid, tokens[s]) for s in range(4)]
        spectator = Client(nodes[2].url, tid, watch)
        for client in [*players, spectator]:
            settle(client)
        drive(players, random.Random(1), max_actions=10)
        for client in [*players, spectator]:
            settle(client)
        seq = players[1].seq
        assert seq >= 10 and {c.seq for c in [*players, spectator]} == {seq}
        before = acks_of(players)

        nodes[0].kill()
        killed_at = time.monotonic()
        while owner_of(db_url, tid) == first_owner:
            assert time.monotonic() - killed_at < TAKEOVER_S, "nobody took the table over"
            time.sleep(0.05)
        took = time.monotonic() - killed_at
        assert took < TAKEOVER_S

        # Everyone reconnects to a live node with since, as the page does.
        last = {s: players[s].seq for s in range(4)}
        for client in [*players, spectator]:
            client.close()
        players = [Client(nodes[1 + s % 2].url, tid, tokens[s], since=last[s]) for s in range(4)]
        for client in players:
            settle(client)
        assert {c.seq for c in players} == {seq}
        drive(players, random.Random(2), timeout=120)
        assert all(c.view["is_over"] for c in players)
        check_stored(db_url, tid, {**before, **acks_of(players)})
        for client in players:
            client.close()
    finally:
        for node in nodes:
            node.stop()


def test_who_is_away_and_the_grace_left_survive_the_owner_killed(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    grace_s = 12.0
    db_url = postgres.create_database("cluster_presence")
    nodes = start_nodes(tmp_path, db_url, redis_server.url(), count=2, env={"BISTROT_GRACE_S": str(grace_s)})

    def until(seat: int, holds: Callable[[tuple[int, float | None]], bool]) -> tuple[int, float | None]:
        deadline = time.monotonic() + 20
        while not holds(found := stored_presence(db_url, tid, seat)):
            assert time.monotonic() < deadline, f"seat {seat} stored as {found}"
            time.sleep(0.05)
        return found

    try:
        tid, tokens, _watch = friends_table(nodes)
        owner = live_owner(nodes, db_url, tid)
        other = next(n for n in nodes if n is not owner)
        players = [Client(other.url, tid, t) for t in tokens]  # relayed to the owner
        for client in players:
            settle(client)
        # Seat 1 leaves and its grace runs out: away, a computer plays it.  Seat 2 leaves then.
        players[1].close()
        players[0].wait_for(lambda m: m["type"] == "state" and m["view"]["seats"][1]["away"], timeout=30)
        assert until(1, lambda found: found[0] == 1) == (1, None)
        players[2].close()
        _, ends = until(2, lambda found: found[1] is not None and found[1] > time.time())
        assert ends is not None
        while time.time() < ends - grace_s + 2:  # two seconds of seat 2's grace gone, then the crash
            time.sleep(0.05)
        first_owner = owner_of(db_url, tid)
        owner.kill()
        killed_at = time.monotonic()
        while owner_of(db_url, tid) == first_owner:
            assert time.monotonic() - killed_at < TAKEOVER_S, "nobody took the table over"
            time.sleep(0.05)

        back = reconnect(other.url, tid, tokens[0], since=players[0].seq)
        told_at = time.time()
        seats = back.view["seats"]
        assert seats[1]["away"] and seats[1]["level"] and "grace_left" not in seats[1], "still away"
        assert not seats[2]["away"] and not seats[2]["connected"]
        # What was left of seat 2's grace, not a whole one again.
        assert seats[2]["grace_left"] <= grace_s - 2 and abs(seats[2]["grace_left"] - (ends - told_at)) <= 1.5
        # Seat 2 back: its grace is over, stored so by the new owner (fenced by its own lease).
        returned = reconnect(other.url, tid, tokens[2], since=0)
        assert until(2, lambda found: found[1] is None) == (0, None)
        for client in (*players, back, returned):
            client.close()
    finally:
        for node in nodes:
            node.stop()


def test_an_owner_paused_past_its_lease_stores_nothing_when_resumed(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    db_url = postgres.create_database("cluster_pause")
    nodes = start_nodes(tmp_path, db_url, redis_server.url(), count=2)
    try:
        tid, tokens, _watch = friends_table([nodes[0], nodes[1], nodes[1]])
        first_owner = owner_of(db_url, tid)
        players = [Client(nodes[0].url, tid, t) for t in tokens]  # all on the owner
        for client in players:
            settle(client)
        mover = next(c for c in players if c.view["legal"])
        seq = mover.seq
        assert nodes[0].proc is not None
        nodes[0].proc.send_signal(signal.SIGSTOP)
        try:
            # Sent while the owner is frozen: it will read it only once resumed.
            mover.send({"type": "act", "id": "late", "action": mover.view["legal"][0]})
            paused_at = time.monotonic()
            while owner_of(db_url, tid) == first_owner:
                assert time.monotonic() - paused_at < TAKEOVER_S, "nobody took the table over"
                time.sleep(0.05)
        finally:
            nodes[0].proc.send_signal(signal.SIGCONT)
        # Resumed: the action is refused, or the socket closed (1012) for the client to go
        # elsewhere; never acknowledged, never stored.
        deadline = time.monotonic() + 10
        with contextlib.suppress(ConnectionClosed):
            while time.monotonic() < deadline:
                drain(mover, 0.2)
                mover.recv(0.2)
        assert not [m for m in mover.messages if m["type"] == "ack" and m.get("id") == "late"]
        assert [e[0] for e in stored(db_url, tid)] == list(range(1, seq + 1))
        # The new owner serves the table from where it was.
        with Client(nodes[1].url, tid, tokens[0], since=seq) as back:
            settle(back)
            assert back.seq == seq
    finally:
        for node in nodes:
            node.stop()


def match_across_a_fault(
    fault: Callable[[list[ProcessServer]], None], db_url: str, redis_url: str, tmp_path: Path
) -> None:
    """A friends table on three nodes, its four players on different nodes from its owner and
    the spectator on a third; ``fault(nodes)`` mid-match; everyone carries on as the page does
    (reconnecting anywhere with since, sending an unanswered action again) and the match
    finishes with every acknowledged action stored once at its seq."""
    nodes = start_nodes(tmp_path, db_url, redis_url)
    rng = random.Random(7)
    try:
        tid, tokens, watch = friends_table(nodes)
        homes = [0, 1, 2, 1]  # the table's owner is nodes[0], where it was opened
        players = [PagePlayer(nodes, tid, t, rng, home=home) for t, home in zip(tokens, homes, strict=True)]
        spectator = PagePlayer(nodes, tid, watch, rng, home=2)
        play(players, rng, actions=10)
        fault(nodes)
        play(players, rng)
        assert all(p.view["is_over"] for p in players)
        check_table(db_url, tid, players, spectator)
        assert sum(p.connections for p in players) > 4, "the fault closed no relayed socket"
    finally:
        for node in nodes:
            node.stop()


def test_redis_restarted_mid_match_loses_nothing(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    db_url = postgres.create_database("cluster_redis")
    match_across_a_fault(lambda _nodes: redis_server.restart(), db_url, redis_server.url(), tmp_path)


def test_postgresql_stopped_and_started_mid_match_loses_nothing(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    from tests.postgres_server import PostgresServer  # (loaded by pytest_plugins first)

    with PostgresServer() as pg:  # its own: the session's server must stay up

        def outage(_nodes: list[ProcessServer]) -> None:
            pg.stop()
            time.sleep(2 * LEASE_S)  # past every lease: the nodes must rejoin by themselves
            pg.start()

        match_across_a_fault(outage, pg.create_database("cluster_pg"), redis_server.url(), tmp_path)


def test_behind_nginx_configured_as_docs_deploy_says(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    from tests.nginx_server import NginxServer

    db_url = postgres.create_database("cluster_nginx")
    nodes = start_nodes(tmp_path, db_url, redis_server.url())
    try:
        upstreams = [node.url.removeprefix("http://") for node in nodes]
        with NginxServer(upstreams) as proxy:
            # Every request and socket through the one address, landing on whichever node.
            tid, tokens, watch = friends_table([proxy, proxy, proxy])
            players = [Client(proxy.url, tid, token) for token in tokens]
            spectator = Client(proxy.url, tid, watch)
            drive(players, random.Random(5), timeout=120)
            settle(spectator)
            assert all(c.view["is_over"] for c in players)
            assert spectator.seq == players[0].seq
            check_stored(db_url, tid, acks_of(players))
            for client in [*players, spectator]:
                client.close()
    finally:
        for node in nodes:
            node.stop()


def test_a_node_starts_only_once_the_others_can_reach_it(postgres: PostgresServer, tmp_path: Path) -> None:
    """A node that said it had started (and had joined: it could own tables) before it listened
    on Redis lost what the others sent it meanwhile: the first join of a table it had just opened,
    relayed by another node, was refused node_unreachable (on loaded machines, 3 runs in 8)."""
    db_url = postgres.create_database("cluster_listen_first")
    with RedisServer() as own:  # (its own: this test freezes it)
        own.pause()
        node = ProcessServer(
            tmp_path / "unused.db", "--database-url", db_url, "--redis-url", own.url(), env=node_env()
        )
        started = threading.Event()
        starter = threading.Thread(target=lambda: (node.start(), started.set()), daemon=True)
        starter.start()
        try:
            assert not started.wait(FROZEN_S), "the node said it had started, deaf to the others"
            own.resume()
            starter.join(TIMEOUT)
            assert started.is_set(), "the node did not start once Redis answered"
            with redis.Redis.from_url(own.url()) as client:
                listening = client.pubsub_channels("bistrot:node:*")
            with psycopg.connect(db_url) as conn:
                joined = [row[0] for row in conn.execute("SELECT id FROM nodes").fetchall()]
            assert [c.decode() for c in listening] == [f"bistrot:node:{n}" for n in joined]
        finally:
            own.resume()
            node.stop()
