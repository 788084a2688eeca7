"""A throwaway Ray cluster on loopback for the tests: a head node (127.0.0.2) and one more node
(127.0.0.3), each a `ray start --block` process group of its own with 1 CPU and a small object
store, in a temporary folder; stopped by killing exactly those process groups."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from tests.lanes import starting
from tests.ports import free_port

RAY = str(Path(sys.executable).with_name("ray"))
HEAD_IP, NODE_IP = "127.0.0.2", "127.0.0.3"
#: Ray's token authentication is on: every node and the driver (the test) share one token.
TOKEN = secrets.token_hex(32)
AUTH = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": TOKEN}
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", **AUTH}
#: Each node's object store: Ray's smallest is 75 MiB.
OBJECT_STORE = 80 * 1024 * 1024


@dataclass
class RayCluster:
    address: str
    head: subprocess.Popen[bytes]
    node: subprocess.Popen[bytes]

    def kill_node(self) -> None:
        """The second node dies at once, with its raylet and its workers."""
        _kill(self.node)


def _ports() -> list[str]:
    low = free_port()
    args = ["--min-worker-port", str(low), "--max-worker-port", str(low + 30)]
    for name in ("node-manager", "object-manager", "dashboard-agent-listen", "dashboard-agent-grpc",
                 "runtime-env-agent", "metrics-export"):
        args += [f"--{name}-port", str(free_port())]
    return args


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    common = ["--num-cpus", "1", "--object-store-memory", str(OBJECT_STORE), "--block",
              "--disable-usage-stats"]
    with log.open("wb") as out:
        return subprocess.Popen([RAY, "start", *args, *common, *_ports()], env=ENV, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


def _kill(process: subprocess.Popen[bytes]) -> None:
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)


def _wait_for(test: Callable[[], bool], process: subprocess.Popen[bytes], what: str, logs: Path,
              timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if test():
            return
        time.sleep(0.5)
    tails = "\n".join(f"{p.name}: {p.read_text()[-2000:]}" for p in logs.glob("*.log"))
    raise RuntimeError(f"the test's Ray cluster: {what} not up (stopped, or {timeout} s)\n{tails}")


def _listening(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), 1).close()
    except OSError:
        return False
    return True


@contextmanager
def ray_cluster() -> Iterator[RayCluster]:
    starting("ray", "a Ray cluster")
    folder = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))  # Ray's socket paths must stay short
    port = free_port()
    address = f"{HEAD_IP}:{port}"
    head = _start(["--head", "--node-ip-address", HEAD_IP, "--port", str(port),
                   "--include-dashboard=false", "--temp-dir", str(folder)], folder / "head.log")
    node = None
    try:
        _wait_for(lambda: _listening(HEAD_IP, port), head, "the head", folder)
        node = _start(["--address", address, "--node-ip-address", NODE_IP], folder / "node.log")
        _wait_for(lambda: "Ray runtime started" in (folder / "node.log").read_text(), node,
                  "the second node", folder)
        saved = {name: os.environ.get(name) for name in AUTH}
        os.environ.update(AUTH)  # for the driver: this process
        try:
            yield RayCluster(address, head, node)
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
    finally:
        if node is not None:
            _kill(node)
        _kill(head)
        shutil.rmtree(folder, ignore_errors=True)
