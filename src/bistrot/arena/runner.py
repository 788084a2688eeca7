"""Where an arena's deals (or games, or matches) are played: in this process, over a process pool,
or as tasks over a Ray cluster (:mod:`bistrot.arena.onray`) — with the same results everywhere.

Every arena has one work function, ``work(indices) -> results`` (each result with its ``index``),
that plays the units ``indices`` of a run from the run's seed alone.  :func:`run_indexed` cuts
``0 .. count - 1`` into chunks, runs them where told and gathers the results **by index**: the
order chunks finish in, the number of workers and a chunk played twice (a Ray task retried after
its worker was lost) change nothing.  With a checkpoint file the results so far are saved as
chunks finish (atomically: a new file renamed over the old), and a run started again with the
same checkpoint plays only what is missing.

>>> [r.value for r in run_indexed(_squares, 5, chunk=2)]
[0, 1, 4, 9, 16]
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Work = Callable[[list[int]], Sequence[Any]]
"""Plays the units of the given indices and returns their results, each with an ``index``."""


@dataclass(frozen=True)
class Where:
    """Where a run plays: ``workers`` processes on this machine, or over Ray when ``ray`` is an
    address (``"local"``: a Ray started for this run; ``"auto"``: the cluster this machine
    joined with ``ray start``; else ``host:port`` of a head node); ``checkpoint`` a file the
    results so far are kept in."""

    workers: int = 1
    ray: str | None = None
    checkpoint: str | None = None


def run_indexed(work: Work, count: int, chunk: int = 1, where: Where = Where(), key: str = "",
                progress: Callable[[int], None] | None = None) -> list[Any]:
    """The results of units ``0 .. count - 1`` in index order; ``key`` names the run in its
    checkpoint (a checkpoint of another run is refused); ``progress(k)`` as units finish."""
    done: dict[int, Any] = load_checkpoint(where.checkpoint, key) if where.checkpoint else {}
    missing = [i for i in range(count) if i not in done]
    chunks = [missing[i:i + chunk] for i in range(0, len(missing), chunk)]
    if progress and done:
        progress(len(done))
    for results in _play(work, chunks, where):
        for result in results:
            done.setdefault(result.index, result)  # a chunk played twice is counted once
        if where.checkpoint:
            save_checkpoint(where.checkpoint, key, done)
        if progress:
            progress(len(done))
    return [done[i] for i in range(count)]


def _play(work: Work, chunks: list[list[int]], where: Where) -> Iterator[Sequence[Any]]:
    if not chunks:  # all in the checkpoint already: no pool, no cluster to join
        return
    if where.ray is not None:
        from bistrot.arena import onray

        yield from onray.play(work, chunks, where.ray, where.workers)
    elif where.workers <= 1:
        yield from map(work, chunks)
    else:
        with ProcessPoolExecutor(max_workers=where.workers) as pool:
            yield from pool.map(work, chunks)


def load_checkpoint(path: str, key: str) -> dict[int, Any]:
    """The results a checkpoint holds by index (none if there is no such file yet)."""
    try:
        with open(path, "rb") as file:
            saved = pickle.load(file)
    except FileNotFoundError:
        return {}
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError) as err:
        raise ValueError(f"{path} is not an arena checkpoint ({err})") from None
    if not isinstance(saved, dict) or saved.get("key") != key:
        raise ValueError(f"{path} is the checkpoint of another run (other bots, seed, rules or count): "
                         "give another file, or remove it to start again")
    results: dict[int, Any] = saved["results"]
    return results


def save_checkpoint(path: str, key: str, results: dict[int, Any]) -> None:
    """Write the checkpoint atomically: a stopped run leaves the old file or the new one whole."""
    target = Path(path)
    fd, temporary = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "wb") as file:
            pickle.dump({"key": key, "results": results}, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


@dataclass(frozen=True)
class _Square:
    index: int
    value: int


def _squares(indices: list[int]) -> list[_Square]:
    return [_Square(i, i * i) for i in indices]
