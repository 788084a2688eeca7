"""An arena's chunks as Ray tasks (``bistrot arena ... --ray [ADDRESS]``; docs/arena.md).

Ray is the optional extra ``bistrot[ray]``: without it :func:`require_ray` says how to install it.
The driver's own ``bistrot`` package (its code and the bots' data files) travels to the workers
in the job's runtime environment (``py_modules``), so every node plays the very code the driver
runs; the package's dependencies (and DDS, through endplay, for the double-dummy measures) are the
workers' installed ones.  A task whose worker or node is lost is run again elsewhere
(``max_retries``); the runner counts each index once (:mod:`bistrot.arena.runner`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import bistrot

#: How often Ray runs a task again after its worker or node died (a bot's own error is not retried).
RETRIES = 5
#: Tasks in flight per CPU of the cluster: enough to keep every worker busy, few enough that a
#: run of a million deals does not hold a million task objects.
IN_FLIGHT_PER_CPU = 4
INSTALL = "Ray is not installed: pip install 'bistrot[ray]'"


def require_ray() -> Any:
    """The ``ray`` module, or a clear error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ValueError(f"--ray: {INSTALL}") from None
    return ray


def connect(address: str, workers: int) -> Any:
    """Join the cluster at ``address`` (``local``: start a Ray of ``workers`` CPUs on loopback)."""
    ray = require_ray()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    runtime_env = {"py_modules": [str(Path(bistrot.__file__).parent)]}
    if address == "local":
        ray.init(num_cpus=max(workers, 1), include_dashboard=False, log_to_driver=False,
                 runtime_env=runtime_env, _node_ip_address="127.0.0.1")
    else:
        # A head on a loopback address (a cluster of one machine, as in the tests): this driver is
        # on that node too, though its outward address differs.
        host = address.rpartition(":")[0]
        local = {"_node_ip_address": host} if host.startswith("127.") else {}
        ray.init(address=address, log_to_driver=False, runtime_env=runtime_env, **local)
    return ray


def _run(work: Any, indices: list[int]) -> Sequence[Any]:
    return work(indices)  # type: ignore[no-any-return]


def play(work: Any, chunks: list[list[int]], address: str, workers: int) -> Iterator[Sequence[Any]]:
    """Each chunk's results as its task finishes (in any order).  In a program that started Ray
    itself (``ray.init``) the tasks go to that Ray, which is left running."""
    ray = require_ray()
    ours = not ray.is_initialized()
    if ours:
        connect(address, workers)
    try:
        remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(_run)
        shared = ray.put(work)
        limit = max(2, IN_FLIGHT_PER_CPU * int(ray.cluster_resources().get("CPU", 1)))
        waiting = iter(chunks)
        running = [remote.remote(shared, chunk) for chunk in _take(waiting, limit)]
        while running:
            finished, running = ray.wait(running, num_returns=1)
            for ref in finished:
                yield ray.get(ref)
            running += [remote.remote(shared, chunk) for chunk in _take(waiting, len(finished))]
    finally:
        if ours:
            ray.shutdown()


def _take(chunks: Iterator[list[int]], n: int) -> list[list[int]]:
    return [chunk for _, chunk in zip(range(n), chunks, strict=False)]
