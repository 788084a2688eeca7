"""The bus: any messages bundled for one node come out as they went in, in order; over a real
Redis, frames and messages keep their order and a node nobody hears is reported."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from bistrot.server.bus import Bus, bundle, pack, pack_frame, unpack_all
from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (a fixture)

# Any text a frame may carry (colons, digits, a leading "b" or "f": the framing must not care).
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
no_space = st.characters(blacklist_characters=" ", blacklist_categories=("Cs",))
conn_ids = st.text(no_space, min_size=1, max_size=12)
frames = st.tuples(conn_ids, texts)
objects = st.dictionaries(st.sampled_from(["op", "c", "t", "id"]), texts, min_size=1)


@given(st.lists(frames | objects, min_size=1, max_size=8))
def test_a_bundle_unpacks_to_its_messages_in_order(items):
    packed = [pack_frame(*item) if isinstance(item, tuple) else pack(item) for item in items]
    assert unpack_all(bundle(packed)) == items


# ---------------------------------------------------------------- on a real Redis

def test_a_real_redis_carries_frames_and_messages_in_order_and_reports_the_unheard(
    redis_server: RedisServer,
) -> None:
    """Over a throwaway Redis: a node's frames (published without a reply) and JSON messages
    (with one) arrive in the order sent; a message to a node nobody listens as is reported
    unheard, frames to it are not (nobody waits on them); a Redis restarted is reported lost and
    the bus carries messages again afterwards."""

    async def scenario() -> None:
        got: list[object] = []
        unheard: list[str] = []
        lost: list[bool] = []
        receiver = Bus(redis_server.url(), got.append, lambda: None)
        sender = Bus(redis_server.url(), lambda _m: None, lambda: lost.append(True), unheard.append)
        receiver.start("b")
        sender.start("a")
        await wait_until(lambda: receiver.up and sender.up)
        sent: list[object] = []
        for i in range(40):
            if i % 3 == 0:
                message: dict[str, object] = {"op": "msg", "c": f"b/{i}", "t": str(i)}
                sender.send("b", pack(message))
                sent.append(message)
            else:
                sender.send("b", pack_frame(f"b/{i}", f'{{"n": {i}}}'))
                sent.append((f"b/{i}", f'{{"n": {i}}}'))
            if i % 7 == 0:
                await asyncio.sleep(0.01)  # (some alone, some bundled)
        await wait_until(lambda: len(got) == len(sent))
        assert got == sent

        sender.send("nobody", pack_frame("nobody/1", "{}"))
        sender.send("b", pack_frame("b/last", "{}"))
        await wait_until(lambda: len(got) == len(sent) + 1)
        assert unheard == []
        sender.send("nobody", pack({"op": "call", "id": "a:1"}))
        await wait_until(lambda: unheard == ["nobody"])

        redis_server.restart()
        await wait_until(lambda: lost and receiver.up and sender.up, timeout=20)
        await asyncio.sleep(0.2)
        before = len(got)
        for attempt in range(50):  # the first sends after a restart may fall in the gap
            sender.send("b", pack({"op": "detach", "c": f"b/{attempt}"}))
            await asyncio.sleep(0.1)
            if len(got) > before:
                break
        assert len(got) > before
        await sender.close()
        await receiver.close()

    asyncio.run(scenario())


async def wait_until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "not in time"
        await asyncio.sleep(0.01)
