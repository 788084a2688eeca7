"""The public lobby: friends tables opened ``"public": true``, listed while they wait for players.

The store is the lobby's only truth: a table's seats are stored before a join is answered, so a
read of the store shows every node's public tables as they stand.  Followers of the live lobby
(``GET /api/lobby/events``, Server-Sent Events) share one reader per game on each node, which
reads the store every ``lobby_poll_s`` while anyone follows, and at once when this node changed
a public table (:meth:`Lobby.nudge`); each follower is sent the list whenever it changed.

The SQL is written once, as a function of a synchronous SQLAlchemy connection, which both stores
run (:meth:`~bistrot.server.storage.Storage.snapshot`).

>>> lobby_event({"tables": [], "playing": []}) == b'event: lobby\\ndata: {"tables":[],"playing":[]}\\n\\n'
True
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, select

from bistrot.server.ratings import shown_ratings
from bistrot.server.schema import seats, tables
from bistrot.tablecore.core import PUBLIC_WATCH
from bistrot.tablecore.plan import COMPUTER, HUMAN, PLAYING, WAITING

log = logging.getLogger(__name__)
T = TypeVar("T")

#: The most tables one lobby answer lists (the oldest first: they are the ones to fill).
LISTED = 100
#: A comment line sent to an idle follower this often, so proxies keep the connection open.
KEEPALIVE_S = 15.0


class LobbyStore(Protocol):
    """What the lobby needs of a store: a consistent read running SQL written once."""

    async def snapshot(self, work: Callable[[Connection], T]) -> T: ...


def read_lobby(conn: Connection, game: str | None, wait_s: float) -> list[dict[str, Any]]:
    """The public tables waiting for players (of ``game``, or of every game), oldest first: each
    with its rules, whether its game will be rated, its seats (``null`` where free; a person's
    shown rating in this game, ``null`` before their first rated game) and when computer players
    take the free seats if nobody joins (``fills_at``: ``wait_s`` after the last seat was taken)."""
    query = select(
        tables.c.id, tables.c.game, tables.c.rules, tables.c.created_at, tables.c.updated_at
    ).where(tables.c.public == 1, tables.c.status == WAITING)
    if game is not None:
        query = query.where(tables.c.game == game)
    rows = list(conn.execute(query.order_by(tables.c.created_at, tables.c.id).limit(LISTED)))
    if not rows:
        return []
    seated = _seats_of(conn, [r.id for r in rows])
    rating: dict[str, dict[str, int]] = {}
    for name in {r.game for r in rows}:
        people = [s["profile"] for r in rows if r.game == name for s in seated[r.id] if s and s["profile"]]
        rating[name] = shown_ratings(conn, name, people)
    for r in rows:
        for seat in seated[r.id]:
            if seat is not None and seat["profile"] is not None:
                seat["rating"] = rating[r.game].get(seat["profile"])
    return [
        {
            "table": r.id,
            "game": r.game,
            "rules": r.rules,
            # As TableCore.rated: every person at it has a profile (one with the invite may not).
            "rated": all(s["profile"] for s in seated[r.id] if s is not None and s["level"] is None),
            "seats": seated[r.id],
            "created": r.created_at,
            "fills_at": r.updated_at + wait_s,
        }
        for r in rows
    ]


def _seats_of(conn: Connection, table_ids: list[str]) -> dict[str, list[dict[str, Any] | None]]:
    """The seats of each of ``table_ids``, in seat order, as the lobby lists them."""
    seated: dict[str, list[dict[str, Any] | None]] = {table_id: [] for table_id in table_ids}
    rows = conn.execute(
        select(seats.c.table_id, seats.c.seat, seats.c.kind, seats.c.level, seats.c.name, seats.c.profile)
        .where(seats.c.table_id.in_(table_ids))
        .order_by(seats.c.table_id, seats.c.seat)
    )
    for row in rows:
        seated[row.table_id].append(_seat(row))
    return seated


def _seat(s: Any) -> dict[str, Any] | None:
    if s.kind == HUMAN:
        return {"seat": s.seat, "name": s.name, "profile": s.profile, "rating": None, "level": None}
    if s.kind == COMPUTER:
        return {"seat": s.seat, "name": None, "profile": None, "rating": None, "level": s.level}
    return None


def read_playing(conn: Connection, game: str | None) -> list[dict[str, Any]]:
    """The public tables whose game is on (of ``game``, or every game), the latest first, each
    with the link that watches it (:data:`~bistrot.tablecore.core.PUBLIC_WATCH`: a public table
    may be watched by anyone, as a spectator, who sees no hidden card)."""
    query = select(tables.c.id, tables.c.game, tables.c.rules).where(
        tables.c.public == 1, tables.c.status == PLAYING
    )
    if game is not None:
        query = query.where(tables.c.game == game)
    rows = list(conn.execute(query.order_by(tables.c.updated_at.desc(), tables.c.id).limit(LISTED)))
    if not rows:
        return []
    seated = _seats_of(conn, [r.id for r in rows])
    return [
        {
            "table": r.id,
            "game": r.game,
            "rules": r.rules,
            "seats": seated[r.id],
            "watch_url": f"/watch/{r.id}#{PUBLIC_WATCH}",
        }
        for r in rows
    ]


def lobby_event(now: dict[str, Any]) -> bytes:
    """One Server-Sent Event of the whole lobby (small: at most :data:`LISTED` tables a list)."""
    data = json.dumps(now, separators=(",", ":"))
    return f"event: lobby\ndata: {data}\n\n".encode()


def _moved_on(watch: _Watch, seen: int) -> bool:
    return watch.version != seen


@dataclass
class _Watch:
    """One game's shared reader on this node and the latest list it read."""

    listed: dict[str, Any] | None = None
    version: int = 0
    followers: int = 0
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    nudged: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class Lobby:
    """The lobby of one node: answers now, and follows it live."""

    def __init__(self, store: LobbyStore, *, wait_s: float, poll_s: float) -> None:
        self.store = store
        self.wait_s = wait_s
        self.poll_s = poll_s
        self._watches: dict[str | None, _Watch] = {}

    async def tables(self, game: str | None) -> list[dict[str, Any]]:
        """The public tables waiting now (of ``game``, or every game)."""
        wait_s = self.wait_s
        return await self.store.snapshot(lambda conn: read_lobby(conn, game, wait_s))

    async def now(self, game: str | None) -> dict[str, Any]:
        """The lobby now: the public tables waiting (``tables``) and those in play (``playing``)."""
        wait_s = self.wait_s

        def read(conn: Connection) -> dict[str, Any]:
            return {"tables": read_lobby(conn, game, wait_s), "playing": read_playing(conn, game)}

        return await self.store.snapshot(read)

    def nudge(self) -> None:
        """This node changed a public table: its followers' readers read again now."""
        for watch in self._watches.values():
            watch.nudged.set()

    async def follow(self, game: str | None) -> AsyncIterator[dict[str, Any] | None]:
        """``game``'s lobby now (:meth:`now`), then each time it changes; ``None`` when nothing
        changed for :data:`KEEPALIVE_S` (time for a keep-alive).  Ends when the caller stops."""
        watch = self._watches.get(game)
        if watch is None:
            watch = self._watches[game] = _Watch()
        watch.followers += 1
        if watch.task is None:
            watch.task = asyncio.get_running_loop().create_task(self._read_loop(game, watch))
        seen = 0
        try:
            while True:
                async with watch.changed:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(KEEPALIVE_S):
                            await watch.changed.wait_for(functools.partial(_moved_on, watch, seen))
                if watch.version == seen:
                    yield None
                    continue
                seen = watch.version
                yield watch.listed
        finally:
            watch.followers -= 1
            if watch.followers == 0:
                if watch.task is not None:
                    watch.task.cancel()
                del self._watches[game]

    async def _read_loop(self, game: str | None, watch: _Watch) -> None:
        while True:
            watch.nudged.clear()
            try:
                listed = await self.now(game)
            except Exception as err:  # the store is down: followers keep the last list
                log.warning("the lobby could not be read: %s", err)
            else:
                if listed != watch.listed:
                    async with watch.changed:
                        watch.listed = listed
                        watch.version += 1
                        watch.changed.notify_all()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_s):
                    await watch.nudged.wait()
