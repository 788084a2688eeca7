"""The bus between the nodes of one card room: Redis pub/sub, one channel per node.

Each node listens on its own channel and sends to another node's channel.  Messages from one
node to another arrive in the order they were sent (one sending task, one Redis connection, and
Redis keeps a publisher's order), or not at all: pub/sub keeps nothing for a node that is not
listening.  So every loss of the connection is reported (``on_lost``), and the node then drops
whatever relied on messages (relayed connections, calls waiting for an answer): clients
reconnect and are brought up to date from the database, which holds the truth.  A message that
no node heard (its node's channel has no listener: the node died, or is reconnecting) is
reported too (``on_unheard``), so a call to a dead node fails at once, not after its timeout.

Two kinds of message: a *frame*, text for one relayed connection, sent as
``"f" + connection id + " " + text`` (no JSON around JSON); and anything else, a JSON object.
Messages for one node that wait to be sent together go as one *bundle* (one PUBLISH instead of
one each): ``"b"`` then each message as its length, ``":"``, and itself.  A bundle of frames
only (states and answers for relayed connections, most of the traffic) is published without a
reply (``CLIENT REPLY SKIP``): nobody waits on its listener count, and the node is spared a
wake-up per action to read it; a node gone is then found by the sweep (its lease) rather than at
once.  The others (calls, replies, closes, a relayed client's messages) keep theirs.

>>> pack_frame("n1/7", '{"type": "state"}')
'fn1/7 {"type": "state"}'
>>> unpack("fn1/7 " + '{"type": "state"}')
('n1/7', '{"type": "state"}')
>>> unpack(pack({"op": "detach", "c": "n1/7"}))
{'op': 'detach', 'c': 'n1/7'}
>>> unpack_all(bundle(["fa/1 x:y", pack({"op": "detach", "c": "a/1"})]))
[('a/1', 'x:y'), {'op': 'detach', 'c': 'a/1'}]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import RedisError

log = logging.getLogger("bistrot.server.bus")

#: Most messages published in one round trip.
BATCH = 512
#: How long the listener waits for a message before checking the connection (seconds).
POLL_S = 1.0


def channel(node: str) -> str:
    """The channel node ``node`` listens on."""
    return f"bistrot:node:{node}"


def pack(message: dict[str, Any]) -> str:
    """A message as sent."""
    return json.dumps(message, separators=(",", ":"))


def pack_frame(conn: str, text: str) -> str:
    """A frame for relayed connection ``conn``, as sent."""
    return f"f{conn} {text}"


def bundle(messages: list[str]) -> str:
    """Several messages for one node as one (a single message as itself)."""
    if len(messages) == 1:
        return messages[0]
    return "b" + "".join(f"{len(m)}:{m}" for m in messages)


def unpack_all(data: str) -> list[tuple[str, str] | dict[str, Any]]:
    """Every message of ``data`` (a bundle, or one message), unpacked, in order."""
    if not data.startswith("b"):
        return [unpack(data)]
    out: list[tuple[str, str] | dict[str, Any]] = []
    at = 1
    while at < len(data):
        colon = data.index(":", at)
        end = colon + 1 + int(data[at:colon])
        out.append(unpack(data[colon + 1 : end]))
        at = end
    return out


def unpack(data: str) -> tuple[str, str] | dict[str, Any]:
    """A frame as ``(connection id, text)``, or a message as a dict."""
    if data.startswith("f"):
        conn, _, text = data[1:].partition(" ")
        return conn, text
    message = json.loads(data)
    if not isinstance(message, dict):
        raise ValueError("a bus message is a JSON object")
    return message


class Bus:
    """See the module docstring.  ``on_message`` gets each unpacked message (it must not block);
    ``on_lost`` is called once per outage, when sending or listening fails."""

    def __init__(
        self,
        url: str,
        on_message: Callable[[tuple[str, str] | dict[str, Any]], None],
        on_lost: Callable[[], None],
        on_unheard: Callable[[str], None] = lambda _node: None,
    ) -> None:
        # Short timeouts: a Redis that stopped answering is noticed in seconds, not minutes.
        self._redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=2.0, socket_timeout=5.0, health_check_interval=2
        )
        self._on_message = on_message
        self._on_lost = on_lost
        self._on_unheard = on_unheard
        #: (node, data) waiting to be published.
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        #: The one connection everything is published on (in order), without the client's
        #: pipeline and pool: they cost about 60 µs of CPU a PUBLISH.
        pool = self._redis.connection_pool
        self._publisher = cast("Callable[[], AbstractConnection]", pool.make_connection)()
        self._tasks: list[asyncio.Task[None]] = []
        self._channel = ""
        self._resubscribe = asyncio.Event()
        #: Set once the node listens on the channel it was last told (:meth:`listening`).
        self._subscribed = asyncio.Event()
        #: Whether the node listens on its channel now.
        self.up = False

    def start(self, node: str) -> None:
        """Listen on ``node``'s channel and start sending."""
        self._channel = channel(node)
        self._tasks = [
            asyncio.create_task(self._listen(), name="bus-listen"),
            asyncio.create_task(self._send_loop(), name="bus-send"),
        ]

    def listen_as(self, node: str) -> None:
        """Listen on another node id's channel from now on (a node reborn under a new id)."""
        self._channel = channel(node)
        self._subscribed.clear()
        self._resubscribe.set()

    async def listening(self, within_s: float) -> bool:
        """Wait until the node listens on its channel (at most ``within_s``); whether it does.

        A node must not say it is there before it is: another node's message to a channel
        nobody listens on yet is lost, and its call is refused at once (``on_unheard``)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), within_s)
        return self._subscribed.is_set()

    async def close(self) -> None:
        """Stop listening and sending (what is queued is dropped) and close the connections."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._publisher.disconnect()
        await self._redis.aclose()

    def send(self, node: str, data: str) -> None:
        """Queue ``data`` (see :func:`pack`, :func:`pack_frame`) for ``node``; never blocks."""
        self._outbox.put_nowait((node, data))

    def _lost(self, err: Exception) -> None:
        if self.up:
            self.up = False
            log.warning("lost the connection to Redis: %s: %s", type(err).__name__, err)
            self._on_lost()

    async def _send_loop(self) -> None:
        outbox = self._outbox
        while True:
            batch = [await outbox.get()]
            while len(batch) < BATCH and not outbox.empty():
                batch.append(outbox.get_nowait())
            per_node: dict[str, list[str]] = {}
            for node, data in batch:  # (each node's messages in the order they were sent)
                per_node.setdefault(node, []).append(data)
            commands: list[tuple[str, ...]] = []
            answered: list[str] = []
            for node, messages in per_node.items():
                if all(m.startswith("f") for m in messages):
                    commands.append(("CLIENT", "REPLY", "SKIP"))  # (no reply to itself either)
                else:
                    answered.append(node)
                commands.append(("PUBLISH", channel(node), bundle(messages)))
            publisher = self._publisher
            try:
                await _untyped(publisher.connect)()  # (returns at once once connected)
                await publisher.send_packed_command(publisher.pack_commands(commands))
                # PUBLISH answers how many listeners got the message.
                heard = [await publisher.read_response() for _ in answered]
            except (RedisError, OSError) as err:
                # What was in this batch is lost: on_lost makes everyone resync.
                await publisher.disconnect()
                self._lost(err)
                continue
            for node, listeners in zip(answered, heard, strict=True):
                if not listeners:
                    self._on_unheard(node)

    async def _listen(self) -> None:
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                subscribed = self._channel
                self._resubscribe.clear()
                await pubsub.subscribe(subscribed)
                if subscribed == self._channel:  # (not told another one meanwhile)
                    self._subscribed.set()
                if not self.up:
                    self.up = True
                    log.info("listening on Redis as %s", subscribed)
                while not self._resubscribe.is_set():
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=POLL_S)
                    if message is None:
                        continue
                    data = message["data"]
                    try:
                        for item in unpack_all(data.decode() if isinstance(data, bytes) else data):
                            self._on_message(item)
                    except Exception:
                        log.exception("a bus message could not be handled")
            except (RedisError, OSError) as err:
                self._subscribed.clear()
                self._lost(err)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await _untyped(pubsub.aclose)()


def _untyped(method: Callable[..., Any]) -> Callable[[], Awaitable[None]]:
    """``method`` as the coroutine method it is.  redis-py types some of its methods only in some
    releases (``PubSub.aclose`` from 8.2): a cast holds for every release the dependency allows,
    where a ``type: ignore`` would be unused in some and missing in others."""
    return cast("Callable[[], Awaitable[None]]", method)
