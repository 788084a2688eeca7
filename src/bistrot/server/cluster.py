"""Several nodes, one card room: who owns which table, and how the others reach it.

**Ownership** lives in PostgreSQL, on the database's clock: each node has a row in ``nodes`` with
a lease it renews every third of ``node_lease_s``, and each table names its owner node. A node may
claim a table nobody owns, or whose owner's lease has run out; every write of a table is fenced in
its own transaction (owner is this node *and* its lease is live *and*, for actions, the seq
follows), so a node that was paused or cut off past its lease cannot store anything, whatever it
still believes. A node takes its row (at its start, or under a new id) only once it listens on its
channel of the bus: from then on it may own tables, and the others send to it. A node that finds
its lease gone drops every table from memory and comes back under a new id. It need not wait for
its renewal to learn it: before any command of its tables runs (:meth:`Cluster.lease_lost`, the
tables' fence) it compares its own monotonic clock with the last renewal it asked for, so a node
woken from a pause longer than its lease drops its tables and closes their sockets (1012) before
it does anything else for them.

Failover: every second each node claims a few *orphans* (unfinished tables whose owner is not
live) and rebuilds them from the database; they resume at once.

**Reaching the owner** goes over the :mod:`~bistrot.server.bus`.  An HTTP request about a table
owned elsewhere becomes a *call* to the owner's room: one typed message per request
(:mod:`~bistrot.server.node_calls`), run there as it would have been here.  A WebSocket
landing on another node is *relayed*: the edge node keeps the socket (rate limits, sizes), the
owner keeps a :class:`RemoteConn` in the table's fan-out like any connection, so presence, the
grace period and the "away" badge are the table's own, wherever the socket is.  When an owner
dies, or the bus is lost, relayed sockets are closed with 1012 (service restart): the page
reconnects to any node with ``since`` and misses nothing.  A node that hangs instead (paused,
starved) is found sooner than its lease: every node pings, over the bus, each node it relays
sockets to or waits on for a call, and one that has not answered within two thirds of a lease
is *silent*: its relayed sockets are closed (1012), the calls waiting on it fail, and new ones
fail at once (``node_unreachable``) until it answers again or its lease runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, assert_never

from bistrot.server.bus import Bus, pack, pack_frame
from bistrot.server.node_calls import AdmitCall, Call, ConnectCall, NodeCall, RelayCall, decode
from bistrot.server.outage import one_line
from bistrot.server.protocol import ApiError
from bistrot.server.room import CLOSE_MOVED, moving
from bistrot.server.storage import Storage
from bistrot.tablecore.errors import TableError
from bistrot.wire import dumps, peek_id, reject

if TYPE_CHECKING:
    from bistrot.server.room import Room
    from bistrot.server.table import Connection

log = logging.getLogger("bistrot.server.cluster")
R = TypeVar("R")

#: Orphans a node claims per sweep (the others take the rest).
ORPHANS_PER_SWEEP = 25
#: Seconds between sweeps (orphans, dead peers).
SWEEP_S = 1.0
#: Sweeps between two deletions of long-dead nodes' rows, and how long dead they must be.
FORGET_EVERY = 600
FORGET_DEAD_AFTER_S = 3600.0
#: Seconds a call to another node may take.
CALL_TIMEOUT_S = 5.0
#: How long a node joining waits to listen on the bus first (see ``Bus.listening``).
LISTEN_WITHIN_S = 5.0
#: A node not answering a ping within this share of a lease is silent (see the module docstring);
#: pings are sent every sixth of a lease.
SILENT_AFTER_LEASES = 2 / 3


class Ownership(Storage, Protocol):
    """What the cluster needs of its store besides :class:`Storage` (see postgres.py)."""

    node: str | None

    async def register_node(self) -> None: ...

    async def renew_node(self) -> bool: ...

    async def retire_node(self) -> None: ...

    async def live_nodes(self) -> set[str]: ...

    async def owner(self, table_id: str) -> str | None: ...

    async def claim(self, table_id: str) -> bool: ...

    async def release(self, table_id: str) -> None: ...

    async def claim_orphans(self, limit: int) -> list[str]: ...

    async def forget_nodes(self, dead_for_s: float) -> int: ...


def new_node_id() -> str:
    """A node id: the host, the process and a random part (a node reborn gets a new one)."""
    return f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(3)}"


def unreachable() -> ApiError:
    """The refusal of a request whose table's node did not answer in time."""
    return ApiError(503, "node_unreachable", "the server holding this table did not answer; try again")


def failed() -> ApiError:
    """The refusal of a request whose call failed unexpectedly (transient for the client)."""
    return ApiError(503, "busy", "the table's server failed; try again")


class RemoteConn:
    """A connection whose socket is on another node (the *edge*), as the owner's table sees it."""

    def __init__(self, cluster: Cluster, edge: str, conn_id: str, table_id: str, who: int | str) -> None:
        self.cluster = cluster
        self.edge = edge
        self.id = conn_id
        self.table_id = table_id
        self.who = who

    def deliver(self, text: str) -> None:
        self.cluster.bus.send(self.edge, pack_frame(self.id, text))

    def send(self, message: dict[str, Any]) -> None:
        self.deliver(dumps(message))

    def close(self, code: int, reason: str) -> None:
        self.cluster.bus.send(self.edge, pack({"op": "close", "c": self.id, "code": code, "r": reason}))


@dataclass
class _Relay:
    conn: Connection
    owner: str
    table_id: str


class RemoteTable:
    """A table owned by another node, as a WebSocket on this node uses it (the same calls as
    :class:`~bistrot.server.table.Table`'s)."""

    def __init__(self, cluster: Cluster, owner: str, table_id: str) -> None:
        self.cluster = cluster
        self.owner = owner
        self.id = table_id
        self._conn_id: str | None = None

    async def admit(self, token: str) -> int | str | None:
        return await self.cluster.call(self.owner, AdmitCall(self.id, token))

    async def connect(self, conn: Connection, who: int | str, since: int | None) -> None:
        conn_id = self.cluster.relay(conn, self.owner, self.id)
        self._conn_id = conn_id
        try:
            await self.cluster.call(self.owner, ConnectCall(self.id, conn_id, who, since))
        except BaseException:
            self.cluster.unrelay(conn_id)
            raise

    async def receive(self, conn: Connection, who: int | str, text: str, reply: Any) -> None:
        # Sent on; the owner's answers (ack or reject) come back as frames, in order.
        if self._conn_id is not None:
            self.cluster.bus.send(self.owner, pack({"op": "msg", "c": self._conn_id, "t": text}))

    async def disconnect(self, conn: Connection, who: int | str) -> None:
        if self._conn_id is not None:
            self.cluster.bus.send(self.owner, pack({"op": "detach", "c": self._conn_id}))
            self.cluster.unrelay(self._conn_id)


class Cluster:
    """One node of a card room of several; see the module docstring."""

    def __init__(self, store: Ownership, redis_url: str, lease_s: float) -> None:
        self.store = store
        self.lease_s = lease_s
        self.node = store.node or new_node_id()
        store.node = self.node
        self.bus = Bus(redis_url, self._on_message, self._on_bus_lost, self._on_unheard)
        self._room: Room | None = None
        #: Calls waiting for their answer: the node called, the answer to come.
        self._calls: dict[str, tuple[str, asyncio.Future[Any]]] = {}
        self._call_ids = itertools.count(1)
        self._conn_ids = itertools.count(1)
        #: Sockets here whose table is elsewhere.
        self._relays: dict[str, _Relay] = {}
        #: Connections elsewhere to tables here.
        self._remote: dict[str, RemoteConn] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[Any]] = set()
        #: Whether this node's lease is live, as far as it knows.
        self.leased = False
        #: When (loop time) the last successful renewal was asked for: the lease runs to at
        #: least this plus ``lease_s`` on the database's clock.
        self._renewed_at = 0.0
        #: Set when the lease is found lost: the lease loop joins again under a new id.
        self._rejoin = asyncio.Event()
        #: Nodes pinged and not answered yet, and since when (loop time).
        self._pinged: dict[str, float] = {}
        #: Nodes that did not answer a ping in time (see the module docstring).
        self.silent: set[str] = set()

    # ------------------------------------------------------------------ lifecycle

    async def start(self, room: Room) -> None:
        """Join the card room: a lease, the bus, the sweeps."""
        self._room = room
        # Listening first: once registered, the node may own tables, and the others send to it.
        self.bus.start(self.node)
        await self._listen_before_joining()
        asked = asyncio.get_running_loop().time()
        await self.store.register_node()
        self._renewed_at = asked
        self.leased = True
        self._tasks = [
            asyncio.create_task(self._lease_loop(), name="cluster-lease"),
            asyncio.create_task(self._sweep_loop(), name="cluster-sweep"),
            asyncio.create_task(self._watch_loop(), name="cluster-watch"),
        ]
        log.info("node %s joined the card room", self.node)

    async def stop(self) -> None:
        """Leave: the lease is given up at once, so the others take the tables in a second."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for relay in self._relays.values():
            relay.conn.close(CLOSE_MOVED, "this server is stopping: reconnect")
        self._relays.clear()
        with contextlib.suppress(Exception):
            await self.store.retire_node()
        await self.bus.close()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._running.add(task)  # a reference until done (the loop keeps only weak ones)
        task.add_done_callback(self._running.discard)

    @property
    def room(self) -> Room:
        assert self._room is not None, "the cluster is started by its room"
        return self._room

    # ------------------------------------------------------------------ ownership

    async def where(self, table_id: str) -> str | None:
        """The node that owns ``table_id`` if it is another live node; None if the table is (or
        now becomes) this node's, or does not exist.  ApiError ``table_moving`` while this node
        may own nothing, ``storage_error`` if the store cannot be read (logged once per outage:
        every WebSocket connect and call about a table not in memory asks this)."""
        try:
            return await self._where(table_id)
        except TableError:
            raise
        except Exception as err:
            raise self.room.store_failed(err) from err

    async def _where(self, table_id: str) -> str | None:
        for _ in range(3):
            owner = await self.store.owner(table_id)
            if owner == self.node:
                return None
            if owner is not None:
                return owner
            if not self.leased:
                raise moving()  # this node is rejoining: it may own nothing now
            if await self.store.claim(table_id):
                return None
            # Not claimed: another node claimed it just now, or there is no such table, or this
            # node's own lease ran out (say, PostgreSQL was away longer than it) and it has not
            # noticed yet: then it must not load the table, it could not store a thing.
            if await self.store.owner(table_id) is None:
                if not await self.store.renew_node():
                    raise moving()  # the lease loop makes this node rejoin
                return None
        raise moving()

    async def release(self, table_id: str) -> None:
        """A table leaves this node's memory: anyone may claim it next."""
        await self.store.release(table_id)

    def lease_lost(self) -> bool:
        """Whether this node has lost its lease: it knew so already, or its own clock says the
        last renewal it asked for is a lease old (it was paused, or its renewals failed).  Then,
        at once, before anything else runs, every table is dropped from memory and its sockets
        closed (1012), every relay closed, and the lease loop is told to join again."""
        if self.leased and asyncio.get_running_loop().time() - self._renewed_at >= self.lease_s:
            self._lease_ran_out()
        return not self.leased

    def _lease_ran_out(self) -> None:
        if not self.leased:
            return
        self.leased = False
        log.warning("node %s lost its lease: dropping its tables and joining again", self.node)
        self.room.drop_all()
        self._drop_links("this server lost its tables: reconnect")
        self._rejoin.set()

    async def _lease_loop(self) -> None:
        every = self.lease_s / 3
        loop = asyncio.get_running_loop()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._rejoin.wait(), every)
            if self.leased:
                asked = loop.time()
                try:
                    renewed = await self.store.renew_node()
                except Exception as err:
                    # Said once per outage, with the refusals it causes (not every third of a
                    # lease); past the lease without a renewal, its tables may be elsewhere now.
                    self.room.outage.failed(err)
                    self.lease_lost()
                else:
                    if renewed:
                        self.room.outage.answered()
                        if self.leased:  # (not found lost meanwhile)
                            self._renewed_at = asked
                    else:
                        self._lease_ran_out()
            if not self.leased:
                await self._reborn()

    async def _reborn(self) -> None:
        """This node lost its lease (its tables and links are dropped): join again as new."""
        old = self.node
        self.node = new_node_id()
        self.store.node = self.node
        self.bus.listen_as(self.node)
        await self._listen_before_joining()
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            try:
                await self.store.register_node()
                break
            except Exception as err:
                self.room.outage.failed(err)
                await asyncio.sleep(self.lease_s / 3)
        self._renewed_at = asked
        self._rejoin.clear()
        self.leased = True
        log.info("node %s is back as %s", old, self.node)

    async def _listen_before_joining(self) -> None:
        # Without Redis the node still serves its own tables (the bus comes back by itself), so
        # a Redis that does not answer delays joining by LISTEN_WITHIN_S, no more.
        if not await self.bus.listening(LISTEN_WITHIN_S):
            log.warning(
                "node %s joins before it listens on Redis: calls to it fail until it does", self.node
            )

    async def _sweep_loop(self) -> None:
        for sweeps in itertools.count():
            try:
                if self.leased:
                    await self._sweep()
                    if sweeps % FORGET_EVERY == 0:
                        # Every crash or lost lease leaves its node's row: keep the table small.
                        await self.store.forget_nodes(FORGET_DEAD_AFTER_S)
            except Exception as err:
                if not self.room.outage.down:  # else the outage was said, and this is it
                    log.warning("a sweep failed: %s", one_line(err))
            await asyncio.sleep(SWEEP_S)

    async def _sweep(self) -> None:
        for table_id in await self.store.claim_orphans(ORPHANS_PER_SWEEP):
            log.info("took over table %s from a node that is gone", table_id[:6])
            with contextlib.suppress(TableError):
                await self.room.get(table_id)
        live = await self.store.live_nodes()
        self._cut_links(lambda node: node not in live)
        self.silent &= live  # (a node gone is found by its lease from now on)

    def _cut_links(self, gone: Callable[[str], bool]) -> None:
        """Close the relays to nodes that are ``gone`` (their clients reconnect anywhere) and
        forget the connections relayed from them."""
        for conn_id, relay in list(self._relays.items()):
            if gone(relay.owner):
                self._relays.pop(conn_id, None)
                relay.conn.close(CLOSE_MOVED, "the server holding this table is gone: reconnect")
        for conn_id, remote in list(self._remote.items()):
            if gone(remote.edge):
                self._forget_remote(conn_id)

    # ------------------------------------------------------------------ the bus

    # ------------------------------------------------------------------ silent nodes

    async def _watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.lease_s / 6)
            self._watch(loop.time())

    def _watch(self, now: float) -> None:
        """Ping every node this one relays sockets to, waits on, or found silent; a node that has
        not answered its ping for two thirds of a lease becomes silent (see the module docstring)."""
        if not self.bus.up or self.lease_lost():
            self._pinged.clear()
            return
        watched = {relay.owner for relay in self._relays.values()}
        watched |= {node for node, _future in self._calls.values()}
        watched |= self.silent
        deadline = self.lease_s * SILENT_AFTER_LEASES
        for node in list(self._pinged):
            if node not in watched:
                del self._pinged[node]
        for node in watched:
            since = self._pinged.get(node)
            if since is not None and now - since < deadline:
                continue
            if since is not None and node not in self.silent:
                quiet = now - since
                said = "node %s did not answer for %.1f s: closing the sockets relayed to it"
                log.warning(said, node, quiet)
                self.silent.add(node)
                self._unreachable(node)
            # A first ping, or another for a silent node (the last one may have been lost).
            self._pinged[node] = now
            self.bus.send(node, pack({"op": "ping", "from": self.node}))

    def _on_pong(self, node: str) -> None:
        self._pinged.pop(node, None)
        if node in self.silent:
            self.silent.discard(node)
            log.info("node %s answers again", node)

    def _on_bus_lost(self) -> None:
        # Messages may have been lost both ways: everyone relayed reconnects and resyncs.
        self._drop_links("the link between servers broke: reconnect")

    def _drop_links(self, reason: str) -> None:
        for relay in self._relays.values():
            relay.conn.close(CLOSE_MOVED, reason)
        self._relays.clear()
        for conn_id in list(self._remote):
            self._forget_remote(conn_id)
        for _node, future in self._calls.values():
            if not future.done():
                future.set_exception(unreachable())
        self._calls.clear()

    def _on_unheard(self, node: str) -> None:
        # Nobody listens on that node's channel: it is gone, or lost Redis (and then dropped its
        # links itself). Its calls would only time out, the caller answers node_unreachable and
        # the client retries; relays through it are dead, their clients reconnect anywhere.
        self._unreachable(node)

    def _unreachable(self, node: str) -> None:
        for called, future in self._calls.values():
            if called == node and not future.done():
                future.set_exception(unreachable())
        self._cut_links(lambda other: other == node)

    def _forget_remote(self, conn_id: str) -> None:
        remote = self._remote.pop(conn_id, None)
        if remote is None:
            return
        table = self.room.tables.get(remote.table_id)
        if table is not None:
            self._spawn(_quietly(table.disconnect(remote, remote.who)))

    def remote_table(self, owner: str, table_id: str) -> RemoteTable:
        """A WebSocket's handle on ``table_id``, owned by ``owner``."""
        return RemoteTable(self, owner, table_id)

    def relay(self, conn: Connection, owner: str, table_id: str) -> str:
        """Keep ``conn`` here for a table at ``owner``: its frames arrive under the id returned."""
        conn_id = f"{self.node}/{next(self._conn_ids)}"
        self._relays[conn_id] = _Relay(conn, owner, table_id)
        return conn_id

    def unrelay(self, conn_id: str) -> None:
        """Forget a relayed connection (its socket closed)."""
        self._relays.pop(conn_id, None)

    async def call(self, node: str, call: NodeCall[R]) -> R:
        """Run ``call`` on ``node`` and return its answer (or raise its refusal); an answer not of
        the call's type is a failure of that node (``busy``, 503)."""
        if not self.bus.up or node in self.silent:
            raise unreachable()
        call_id = f"{self.node}:{next(self._call_ids)}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = (node, future)
        self.bus.send(node, pack({"op": "call", "id": call_id, "from": self.node, "call": call.encode()}))
        try:
            answer = await asyncio.wait_for(future, CALL_TIMEOUT_S)
        except TimeoutError:
            raise unreachable() from None
        finally:
            self._calls.pop(call_id, None)
        try:
            return call.result(answer)
        except ValueError as err:
            log.error("node %s answered a call %r wrongly: %s", node, call.tag, err)
            raise failed() from None

    def _on_message(self, message: tuple[str, str] | dict[str, Any]) -> None:
        if isinstance(message, tuple):
            conn_id, text = message
            relay = self._relays.get(conn_id)
            if relay is not None:
                relay.conn.deliver(text)
            return
        op = message.get("op")
        if op == "msg":
            remote = self._remote.get(message["c"])
            if remote is not None:
                self._receive(remote, message["t"])
        elif op == "call":
            self._spawn(self._answer(message))
        elif op == "reply":
            _node, future = self._calls.get(message["id"], ("", None))
            if future is not None and not future.done():
                if "e" in message:
                    status, code, text = message["e"]
                    future.set_exception(ApiError(status, code, text))
                else:
                    future.set_result(message.get("r"))
        elif op == "ping":
            if not self.lease_lost():  # (a node that lost its lease is no one's owner now)
                self.bus.send(str(message["from"]), pack({"op": "pong", "from": self.node}))
        elif op == "pong":
            self._on_pong(str(message["from"]))
        elif op == "detach":
            self._forget_remote(message["c"])
        elif op == "close":
            relay = self._relays.pop(message["c"], None)
            if relay is not None:
                relay.conn.close(int(message["code"]), str(message["r"]))

    def _receive(self, remote: RemoteConn, text: str) -> None:
        table = self.room.tables.get(remote.table_id)
        if table is None:
            self._remote.pop(remote.id, None)
            remote.close(CLOSE_MOVED, "this table moved to another server: reconnect")
            return

        async def run() -> None:
            try:
                await table.receive(remote, remote.who, text, remote.send)
            except TableError as err:
                remote.send(reject(peek_id(text), err.code, err.message))

        # Started now, in arrival order: Table.receive queues its command before its first await.
        self._spawn(run())

    async def _answer(self, message: dict[str, Any]) -> None:
        origin = str(message["from"])
        answer: dict[str, Any] = {"op": "reply", "id": message["id"]}
        refusal: TableError | None = None
        try:
            call = decode(message.get("call"))
        except ValueError as err:  # a node of another version, or a bug: nothing is run
            log.error("a call from %s was refused: %s", origin, err)
            refusal = failed()
        else:
            try:
                answer["r"] = await self._serve(origin, call)
            except TableError as err:
                refusal = err
            except Exception:
                log.exception("a call from %s failed: %s", origin, call.tag)
                refusal = failed()  # unexpected here, transient for the caller's client
        if refusal is not None:
            answer["e"] = [refusal.status, refusal.code, refusal.message]
        self.bus.send(origin, pack(answer))

    async def _serve(self, origin: str, call: Call) -> object:
        match call:
            case AdmitCall() | ConnectCall():
                return await self._serve_relayed(origin, call)
            case _:
                return await self.room.forwarded(call)

    async def _serve_relayed(self, origin: str, call: RelayCall) -> object:
        # A socket's call, relayed from the node that holds it: run here, never forwarded on.
        if await self.where(call.table_id) is not None:
            raise moving()
        table = await self.room.require(call.table_id)
        match call:
            case AdmitCall():
                return await table.admit(call.token)
            case ConnectCall():
                remote = RemoteConn(self, origin, call.conn_id, call.table_id, call.who)
                await table.connect(remote, call.who, call.since)
                self._remote[call.conn_id] = remote
                return None
            case _:
                assert_never(call)


async def _quietly(awaitable: Awaitable[Any]) -> None:
    with contextlib.suppress(TableError):
        await awaitable

