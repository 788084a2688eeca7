"""Property: whatever nodes are killed, whenever, no acknowledged action is ever lost and no
seq is ever written twice.

Each example is a friends table on three real ``bistrot serve`` nodes (one throwaway PostgreSQL
and Redis), its players and a spectator on random nodes, behaving as the page does (any live
node, ``since``, an unanswered action sent again with its id).  Hypothesis draws rounds of a
few actions then a SIGKILL of the table's owner or of another node, with or without an action in
flight at that moment; the killed node is started again, and the match is played to its end.
Then :func:`cluster_harness.check_table` holds: seqs contiguous, nothing stored twice, every ack
stored at its seq, everything anyone was shown is what was stored.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from cluster_harness import (
    TAKEOVER_S,
    PagePlayer,
    alive,
    check_table,
    friends_table,
    live_owner,
    next_mover,
    play,
    start_nodes,
)
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
from server_harness import ProcessServer

from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

#: What these tests need (tests/lanes.py).
pytestmark = [pytest.mark.cluster, pytest.mark.postgres, pytest.mark.redis, pytest.mark.process]

if TYPE_CHECKING:
    from tests.postgres_server import PostgresServer

pytest_plugins = ["tests.postgres_server"]

#: A round: ``plays`` actions, then a SIGKILL of the table's owner or of another node (``target``
#: "owner" or "other"), an action sent just before it if ``in_flight``.
Round = tuple[int, str, bool]

rounds = st.lists(
    st.tuples(st.integers(0, 10), st.sampled_from(["owner", "other"]), st.booleans()), min_size=1, max_size=3
)


class Room:
    """The module's three nodes and its database."""

    def __init__(self, nodes: list[ProcessServer], db_url: str) -> None:
        self.nodes, self.db_url = nodes, db_url

    def owner(self, table: str) -> ProcessServer:
        """The live node owning ``table`` (after a kill: once another took it over)."""
        return live_owner(self.nodes, self.db_url, table, within_s=TAKEOVER_S)


@pytest.fixture(scope="module")
def room(
    postgres: PostgresServer, redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Room]:
    db_url = postgres.create_database("cluster_property")
    nodes = start_nodes(tmp_path_factory.mktemp("nodes"), db_url, redis_server.url())
    try:
        yield Room(nodes, db_url)
    finally:
        for node in nodes:
            node.stop()


@settings(
    max_examples=5,
    deadline=None,
    # Real processes and timing: a shrunk example would not replay the same run.
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
# A seed, not st.randoms(): how often the players draw depends on timing (reconnections), and
# Hypothesis wants the same draws from the same example.
@given(run=rounds, seed=st.integers(0, 2**32 - 1))
def test_no_acknowledged_action_is_lost_and_no_seq_written_twice(
    room: Room, run: list[Round], seed: int
) -> None:
    rng = random.Random(seed)
    for node in room.nodes:
        if not alive(node):
            node.start()
    tid, tokens, watch = friends_table(room.nodes)
    players = [PagePlayer(room.nodes, tid, token, rng, home=rng.randrange(3)) for token in tokens]
    spectator = PagePlayer(room.nodes, tid, watch, rng, home=rng.randrange(3))
    try:
        for plays, target, in_flight in run:
            play(players, rng, plays)
            owner = room.owner(tid)
            victim = owner if target == "owner" else rng.choice([n for n in room.nodes if n is not owner])
            mover = next_mover(players)
            if mover is None:
                break
            action = rng.choice(mover.view["legal"])
            act_id = mover.send_act(action) if in_flight else None
            victim.kill()
            event(f"killed the {target}" + (" with an action in flight" if in_flight else ""))
            if act_id is not None:
                answer = mover.answer(act_id, action)
                assert answer["type"] == "ack", answer
            victim.start()
        play(players, rng)
        assert all(p.view["is_over"] for p in players)
        check_table(room.db_url, tid, players, spectator)
        event(f"reconnections: {sum(p.connections - 1 for p in [*players, spectator])}")
    finally:
        for someone in [*players, spectator]:
            someone.close()
