"""A node that hangs instead of dying (issue 38): SIGSTOP for 10 s, as a long GC pause, a frozen
VM or a saturated host, then SIGCONT.

Three ``bistrot serve`` nodes on one throwaway PostgreSQL and Redis, nginx in front of them as
docs/deploy.md sets it up.  Three friends tables are played at once, each by four players behaving
as the page does (cluster_harness.PagePlayer: a ping after a quiet moment, a silent connection
given up, reconnections through the proxy with ``since``, an unanswered action sent again with its
id): two tables owned by the node that will hang, one by another node, and every table has
players whose sockets are on each of the three nodes (so some sockets sit on the hung node,
others are relayed to it, others are relayed from it).

The owner is paused for 10 s; every table must acknowledge an action again within
:data:`RECOVERY_BOUND_S` of the pause starting (its median and max printed), nothing acknowledged
lost or stored twice, seqs contiguous, everything shown is what was stored.  Once resumed, the
node must have dropped its tables before doing anything for them: an action a player sent to it
during the pause (on a fourth table, all of whose players are on it) is never acknowledged nor
stored, its socket is closed 1012, and the node logs that it lost its lease, never that a write
was refused (it tried none).
"""

from __future__ import annotations

import contextlib
import random
import signal
import statistics
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from cluster_harness import (
    LEASE_S,
    PING_IDLE_S,
    SILENCE_S,
    PagePlayer,
    check_table,
    friends_table,
    next_mover,
    owner_of,
    start_nodes,
    stored,
)
from server_harness import Client, settle
from websockets.exceptions import ConnectionClosed

from bistrot.server.cluster import SILENT_AFTER_LEASES, SWEEP_S
from bistrot.server.room import CLOSE_MOVED
from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

#: What this test needs (tests/lanes.py).
pytestmark = [pytest.mark.cluster, pytest.mark.postgres, pytest.mark.redis, pytest.mark.process,
              pytest.mark.nginx]

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]

PAUSE_S = 10.0
#: The issue's aim: every table acknowledges again within 6 s of its owner hanging (with the
#: default 3 s lease: the lease, a 1 s sweep, and the page's reconnection).
RECOVERY_BOUND_S = 6.0
#: What a table waits for, at worst, here: the owner's lease to run out and a sweep (or a
#: reconnecting player's node) to claim the table, or, if later, a player on the hung node to
#: find its socket silent (a ping after PING_IDLE_S, given up SILENCE_S later); then one more
#: SILENCE_S for a reconnection that the proxy sent to the hung node again.  The aim leaves
#: 2.5 s over it, for a busy machine.
EXPECTED_WORST_S = max(LEASE_S + SWEEP_S, PING_IDLE_S + SILENCE_S) + SILENCE_S
assert EXPECTED_WORST_S + 2.0 <= RECOVERY_BOUND_S
#: Players of a table: their first sockets' nodes (nodes[0] hangs), each table with all three.
HOMES = ([0, 1, 2, 1], [1, 0, 2, 0], [2, 1, 0, 2])


class TablePlay(threading.Thread):
    """One table played (random legal actions, each waited for as the page does) until ``done``
    is set and it has had an action acknowledged after ``after`` (or the game ends); the time of
    every acknowledgement."""

    def __init__(self, players: list[PagePlayer], seed: int) -> None:
        super().__init__(daemon=True)
        self.players, self.rng = players, random.Random(seed)
        self.acked: list[float] = []
        self.done = threading.Event()
        self.after = float("inf")
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not (self.done.is_set() and any(t > self.after for t in self.acked)):
                mover = next_mover(self.players)
                if mover is None:
                    return
                action = self.rng.choice(mover.view["legal"])
                answer = mover.answer(mover.send_act(action), action)
                assert answer["type"] == "ack", answer
                self.acked.append(time.monotonic())
                if not self.done.is_set():
                    time.sleep(0.05)  # a steady game, not a flood, before the pause is measured
        except BaseException as err:  # reported by the test's thread
            self.error = err


def test_an_owner_paused_10_s_loses_no_table_for_more_than_a_few_seconds(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> None:
    from tests.nginx_server import NginxServer

    db_url = postgres.create_database("cluster_hung")
    nodes = start_nodes(tmp_path, db_url, redis_server.url())
    plays: list[TablePlay] = []
    quiet: list[Client] = []
    hung = nodes[0]
    try:
        upstreams = [node.url.removeprefix("http://") for node in nodes]
        with NginxServer(upstreams) as proxy:
            rng = random.Random(38)
            tables = []
            for owner, homes in zip((0, 0, 1), HOMES, strict=True):  # opened on a node: owned by it
                order = [nodes[owner], *(n for n in nodes if n is not nodes[owner])]
                tid, tokens, _watch = friends_table(order, target=10)  # (no end soon)
                players = [
                    PagePlayer(nodes, tid, token, rng, home=home, via=proxy.url)
                    for token, home in zip(tokens, homes, strict=True)
                ]
                tables.append((tid, owner_of(db_url, tid), players))
                plays.append(TablePlay(players, seed=len(plays)))
            assert [t[1] for t in tables].count(tables[0][1]) == 2, "two tables owned by nodes[0]"
            # And a table of the hung node whose players are all on it, one of whom acts while
            # it is paused: on waking, the node must drop the table before reading that.
            quiet_tid, quiet_tokens, _watch = friends_table([hung, hung, hung], target=10)
            quiet = [Client(hung.url, quiet_tid, token) for token in quiet_tokens]
            for client in quiet:
                settle(client)
            late = next(c for c in quiet if c.view["legal"])
            quiet_seq = late.seq
            for play in plays:
                play.start()
            time.sleep(2.0)  # every table under way
            assert all(play.acked for play in plays), "a table did not start"
            assert hung.proc is not None
            mark = len(hung.output)
            paused_at = time.monotonic()
            hung.proc.send_signal(signal.SIGSTOP)
            for play in plays:
                play.after = paused_at
            try:
                late.send({"type": "act", "id": "late", "action": late.view["legal"][0]})
                time.sleep(PAUSE_S)
            finally:
                hung.proc.send_signal(signal.SIGCONT)
            resumed_at = time.monotonic()
            for play in plays:
                play.after = resumed_at  # and each table goes on after the resumption too
                play.done.set()
            for play in plays:
                play.join(60)
                assert not play.is_alive(), "a table never went on"
                if play.error is not None:
                    raise play.error

            recovery = [min(t for t in play.acked if t > paused_at) - paused_at for play in plays]
            print(
                f"next ack after the pause began, {len(recovery)} tables:"
                f" median {statistics.median(recovery):.2f} s, max {max(recovery):.2f} s"
                f" (lease {LEASE_S:g} s, sweep {SWEEP_S:g} s, ping after {PING_IDLE_S:g} s,"
                f" silent after {SILENCE_S:g} s)"
            )
            for (tid, _owner, players), took in zip(tables, recovery, strict=True):
                print(
                    f"table {tid[:6]}: {took:.2f} s; connections {[p.connections for p in players]},"
                    f" given up silent {[p.silences for p in players]}"
                )
            assert max(recovery) <= RECOVERY_BOUND_S, recovery
            for tid, first_owner, players in tables:
                check_table(db_url, tid, players)
                if first_owner == tables[0][1]:
                    assert owner_of(db_url, tid) != first_owner, "the hung node still owns a table"
                assert sum(p.connections for p in players) > 4, "no socket moved"
            # Silent sockets were given up by the players, relayed ones closed by their nodes.
            assert sum(p.silences for _t, _o, ps in tables for p in ps) > 0
            # The late action: never acknowledged nor stored; its socket closed 1012 (reconnect).
            with contextlib.suppress(ConnectionClosed):
                while True:
                    late.recv(10)
            assert late.ws.close_code == CLOSE_MOVED, (late.ws.close_code, late.messages[-3:])
            assert not [m for m in late.messages if m["type"] == "ack"]
            assert [seq for seq, _id in stored(db_url, quiet_tid)] == list(range(1, quiet_seq + 1))
            said = hung.output[mark:]
            assert any(" lost its lease: dropping its tables" in line for line in said), said[-20:]
            assert not [line for line in said if "not stored, this node lost it" in line]
            relays = [line for node in nodes[1:] for line in node.output if "did not answer for" in line]
            assert relays, f"no node closed its relays to the silent one ({SILENT_AFTER_LEASES:.2f} lease)"
    finally:
        for play in plays:
            play.done.set()
            play.after = 0.0
        for play in plays:
            play.join(30)
            for player in play.players:
                player.close()
        for client in quiet:
            client.close()
        for node in nodes:
            node.stop()
