"""The table quota shared in Redis (issue 12, item 6), against a real throwaway Redis: several
nodes count one bucket per client, it refills and expires on Redis's clock, and a node keeps
answering (from its own memory) while Redis is dead or hung, sharing again once it is back."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter

import pytest
import redis.asyncio as aioredis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot.server.quota import LocalTableQuota, client_key
from bistrot.server.redis_quota import RedisTableQuota
from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (the session's Redis)

#: Refills one table in ~12 days: no refill while a test runs.
NO_REFILL = 1e-6
#: The clients of the property: two addresses and a /64 network.
CLIENTS = ["192.0.2.1", "192.0.2.2", "2001:db8::/64"]
#: How long a call may take when Redis is dead or hung: far above the quota's own bound
#: (timeout_s), far below the many seconds of a client that retries and backs off.
ANSWER_BOUND_S = 3.0


def nodes(url: str, burst: int, per_s: float, n: int = 2, **kwargs: float) -> list[RedisTableQuota]:
    """``n`` nodes' quotas on one Redis, under a prefix of the test's own (the session's Redis
    is shared)."""
    prefix = f"test:{uuid.uuid4().hex}:"
    return [RedisTableQuota(url, burst, per_s, prefix=prefix, **kwargs) for _ in range(n)]


async def close(*quotas: RedisTableQuota) -> None:
    for quota in quotas:
        await quota.aclose()


def test_two_nodes_count_one_bucket_per_client(redis_server: RedisServer):
    async def main() -> None:
        a, b = nodes(redis_server.url(), burst=4, per_s=0.01)
        assert [await a.wait("203.0.113.7"), await a.wait("203.0.113.7")] == [0.0, 0.0]
        assert [await b.wait("203.0.113.7"), await b.wait("203.0.113.7")] == [0.0, 0.0]
        for node in (a, b, a, b):  # refused on both, nothing taken: the wait only shrinks
            wait = await node.wait("203.0.113.7")
            assert 95.0 < wait <= 100.0, wait  # a whole token at 0.01 a second
        assert await b.wait("198.51.100.1") == 0.0  # another client has its own bucket
        await close(a, b)

    asyncio.run(main())


def test_a_bucket_refills_on_redis_clock(redis_server: RedisServer):
    async def main() -> None:
        (quota,) = nodes(redis_server.url(), burst=2, per_s=20.0, n=1)  # a token every 50 ms
        assert [await quota.wait("192.0.2.1"), await quota.wait("192.0.2.1")] == [0.0, 0.0]
        refusals = [await quota.wait("192.0.2.1") for _ in range(20)]
        refusals = [w for w in refusals if w > 0]  # (a slow machine may have refilled one)
        assert refusals and all(0.0 < w <= 0.05 for w in refusals), refusals
        # Refusals took nothing: once the first one's wait is over, a table may be opened.
        await asyncio.sleep(refusals[0] + 0.01)
        assert await quota.wait("192.0.2.1") == 0.0
        await close(quota)

    asyncio.run(main())


def test_an_ipv6_64_network_shares_one_bucket(redis_server: RedisServer):
    async def main() -> None:
        a, b = nodes(redis_server.url(), burst=2, per_s=NO_REFILL)
        assert await a.wait(client_key("2001:db8:1:2:aaaa::1")) == 0.0
        assert await b.wait(client_key("2001:db8:1:2:bbbb::9")) == 0.0
        assert await a.wait(client_key("2001:db8:1:2::77")) > 0
        assert await b.wait(client_key("2001:db8:1:3::1")) == 0.0  # the next /64: its own
        assert await a.redis.exists(a.key("2001:db8:1:2::/64")) == 1
        await close(a, b)

    asyncio.run(main())


def test_a_bucket_full_again_leaves_redis(redis_server: RedisServer):
    async def main() -> None:
        (quota,) = nodes(redis_server.url(), burst=3, per_s=50.0, n=1)  # a token every 20 ms
        client = quota.redis
        assert await quota.wait("192.0.2.1") == 0.0
        assert 0 < await client.pttl(quota.key("192.0.2.1")) <= 20  # one token short: 20 ms
        assert [await quota.wait("192.0.2.1") for _ in range(2)] == [0.0, 0.0]
        assert await client.pttl(quota.key("192.0.2.1")) <= 60
        for n in range(50):
            assert await quota.wait(f"198.51.100.{n}") == 0.0
        deadline = time.monotonic() + 20
        while [k async for k in client.scan_iter(match=quota.prefix + "*")]:
            assert time.monotonic() < deadline, "buckets full again stayed in Redis"
            await asyncio.sleep(0.02)
        assert [await quota.wait("192.0.2.1") for _ in range(4)][:3] == [0.0, 0.0, 0.0]  # full
        await close(quota)

    asyncio.run(main())


@pytest.mark.redis
def test_a_node_answers_while_redis_is_down_and_shares_again_once_it_is_back(
    caplog: pytest.LogCaptureFixture,
):
    async def timed(quota: RedisTableQuota, client: str) -> float:
        started = time.monotonic()
        wait = await quota.wait(client)
        assert time.monotonic() - started < ANSWER_BOUND_S
        return wait

    async def shared(a: RedisTableQuota, b: RedisTableQuota, client: str) -> None:
        assert [await a.wait(client), await b.wait(client)] == [0.0, 0.0]
        assert await a.wait(client) > 0 and await b.wait(client) > 0

    caplog.set_level(logging.INFO, logger="bistrot.server.redis_quota")
    with RedisServer() as own:  # its own: this test kills it
        # retry_s=0: every call tries Redis, so the test sees it back at once.
        a, b = nodes(own.url(), burst=2, per_s=NO_REFILL, timeout_s=0.2, retry_s=0.0)

        async def dead() -> None:
            await shared(a, b, "192.0.2.1")
            own.kill()
            # Each node counts alone: a fresh burst on each, then refusals, all answered at once.
            for node in (a, b):
                answers = [await timed(node, "192.0.2.1") for _ in range(3)]
                assert answers[:2] == [0.0, 0.0] and answers[2] > 0, answers
            assert not a.reachable and not b.reachable

        asyncio.run(dead())
        ours = [r for r in caplog.records if r.name == "bistrot.server.redis_quota"]
        warnings = [r for r in ours if r.levelno == logging.WARNING]
        assert len(warnings) == 2, warnings  # once per node for the whole outage, not per call
        assert "Redis unreachable" in warnings[0].getMessage()

        own.restart()  # empty, on the same port

        async def back() -> None:
            await shared(a, b, "192.0.2.2")
            assert a.reachable and b.reachable
            # Restarted between two calls: the connection it dropped is replaced at once, no
            # call sees an outage.
            own.restart()
            await shared(a, b, "192.0.2.3")
            await close(a, b)

        asyncio.run(back())
        ours = [r for r in caplog.records if r.name == "bistrot.server.redis_quota"]
        assert sum("answers again" in r.getMessage() for r in ours) == 2
        assert [r for r in ours if r.levelno == logging.WARNING] == warnings


@pytest.mark.redis
def test_a_hung_redis_costs_one_timeout_then_answers_from_memory(caplog: pytest.LogCaptureFixture):
    with RedisServer() as own:
        (quota,) = nodes(own.url(), burst=2, per_s=NO_REFILL, n=1, timeout_s=0.2, retry_s=60.0)

        async def hung() -> None:
            watch = aioredis.from_url(own.url())
            assert await quota.wait("192.0.2.1") == 0.0  # connected
            connections = (await watch.info("stats"))["total_connections_received"]
            own.pause()
            try:
                started = time.monotonic()
                answers = [await quota.wait("192.0.2.1") for _ in range(3)]
                assert time.monotonic() - started < ANSWER_BOUND_S
                assert answers[:2] == [0.0, 0.0] and answers[2] > 0, answers
                assert not quota.reachable
            finally:
                own.resume()
            # The first call waited timeout_s on its open connection; the others answered from
            # memory without trying Redis again (retry_s): a hung Redis slows one call, not each.
            assert (await watch.info("stats"))["total_connections_received"] == connections
            await close(quota)
            await watch.aclose()

        asyncio.run(hung())
        assert any("TimeoutError" in r.getMessage() for r in caplog.records)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    burst=st.integers(1, 6),
    calls=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(CLIENTS))),
)
def test_at_one_instant_each_client_gets_exactly_its_burst(
    redis_server: RedisServer,
    burst: int,
    calls: list[tuple[int, str]],
):
    """Three nodes' calls all at once (atomic in Redis), no refill: each client gets exactly
    min(its calls, burst) tables, as from one process's LocalTableQuota."""

    async def main() -> tuple[list[float], list[float]]:
        quotas = nodes(redis_server.url(), burst, NO_REFILL, n=3)
        answers = await asyncio.gather(*(quotas[node].wait(client) for node, client in calls))
        await close(*quotas)
        local = LocalTableQuota(burst, NO_REFILL, clock=lambda: 0.0)
        return list(answers), [await local.wait(client) for _, client in calls]

    answers, expected = asyncio.run(main())

    def granted(waits: list[float]) -> Counter[str]:
        return Counter(client for (_, client), wait in zip(calls, waits, strict=True) if wait == 0.0)

    assert granted(answers) == granted(expected)
    asked = Counter(client for _, client in calls)
    assert granted(answers) == Counter({client: min(n, burst) for client, n in asked.items()})
    assert all(0.0 < w <= 1 / NO_REFILL for w in answers if w != 0.0)
