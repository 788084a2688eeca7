"""Replays of finished games, built once and kept: ``GET /api/tables/{id}/replay``'s answers.

A replay (:func:`bistrot.tablecore.replay.replay_of`) costs a view per action to build: seconds
of a core for a long match, which anyone may ask for without a token.  So a node:

- builds each table's replay once, one build at a time (more callers of the same table wait
  for that one build, callers of other tables for their turn), off the event loop;
- keeps the answer gzip-compressed (a long match's steps are alike: about a tenth of the
  JSON) in a cache bounded in bytes, the least recently read dropped first: a finished table's
  replay never changes;
- counts every request against its caller's address (:attr:`Settings.replay_quota_burst`, then
  :attr:`Settings.replay_quota_per_s`): beyond, ``429 too_many_replays`` with ``Retry-After``.

>>> import asyncio, gzip, json
>>> cache = ReplayCache(max_bytes=1_000_000)
>>> built = []
>>> def build() -> dict:
...     built.append(1)
...     return {"steps": []}
>>> async def twice() -> list[bytes]:
...     return [await cache.get("t1", build) for _ in range(2)]
>>> [json.loads(gzip.decompress(body)) for body in asyncio.run(twice())], len(built)
([{'steps': []}, {'steps': []}], 1)
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from bistrot.server.quota import RetryLater


class TooManyReplays(RetryLater):
    """The ``429`` refusal of an address that asked for too many replays of late.

    >>> err = TooManyReplays(4.2)
    >>> err.status, err.code, err.retry_after
    (429, 'too_many_replays', 5)
    """

    def __init__(self, wait_s: float) -> None:
        super().__init__("too_many_replays", "replays asked for", wait_s)


def encode(replay: dict[str, Any]) -> bytes:
    """A replay as the gzip-compressed JSON the cache keeps and the server sends."""
    text = json.dumps(replay, separators=(",", ":"), ensure_ascii=False)
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)


class ReplayCache:
    """Built replays by table id, gzip-compressed, at most ``max_bytes`` in all (one larger
    than that is sent, never kept)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._kept: OrderedDict[str, bytes] = OrderedDict()  # least recently read first
        self._building: dict[str, asyncio.Future[bytes]] = {}
        self._one_build = asyncio.Lock()
        self.builds = 0  # replays built (the cache's misses), for tests and metrics

    def __len__(self) -> int:
        return len(self._kept)

    async def get(self, table_id: str, build: Callable[[], dict[str, Any]]) -> bytes:
        """The replay of ``table_id``, compressed: kept, or being built for another caller, or
        ``build()`` now, in a worker thread (its errors are raised to every caller waiting)."""
        kept = self._kept.pop(table_id, None)
        if kept is not None:
            self._kept[table_id] = kept
            return kept
        pending = self._building.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._building[table_id] = future
        try:
            async with self._one_build:
                body = await asyncio.to_thread(lambda: encode(build()))
            self.builds += 1
            self._keep(table_id, body)
            future.set_result(body)
            return body
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: nobody else waiting is no error of its own
            raise
        finally:
            del self._building[table_id]

    def _keep(self, table_id: str, body: bytes) -> None:
        if len(body) > self.max_bytes:
            return
        self._kept[table_id] = body
        self.bytes += len(body)
        while self.bytes > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self.bytes -= len(dropped)
