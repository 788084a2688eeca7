"""A throwaway Redis server for the tests and benches: Debian's ``redis-server`` in a temporary
folder, on a free loopback port, keeping nothing on disk, never the machine's own Redis.

A test module takes the session's server by importing the fixture, as it imports any helper::

    from tests.redis_server import RedisServer, redis_server_fixture  # noqa: F401 (a fixture)

(the fixture's name is ``redis_server``: a test takes ``redis_server: RedisServer``), and a
test that kills or restarts Redis starts a server of its own (``with RedisServer() as r``)
so the others keep theirs.  :meth:`RedisServer.restart` comes back on the same port, as a real
Redis restarted under running nodes does.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lanes import starting
from tests.output import read_output
from tests.ports import free_port

#: How long Redis may take to start or stop (seconds): generous, the tests share a busy machine.
TIMEOUT = 20.0

#: What Redis logs once it listens.
READY = "Ready to accept connections"


def redis_binary() -> str:
    """The path of ``redis-server``; missing, a loud error saying how to install it (the tests
    need a real Redis: scripts/test installs it, and a skipped test would hide a missing one)."""
    found = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/sbin:/usr/bin")
    if found is None:
        raise RuntimeError("redis-server is not installed: apt-get install redis-server (scripts/test does)")
    return found




class RedisServer:
    """``redis-server`` as a child process (``--daemonize no``), on ``127.0.0.1:port``, without
    persistence (``--save "" --appendonly no``): a restart starts empty, as a Redis that lost its
    memory does."""

    def __init__(self) -> None:
        self.binary = redis_binary()
        self.port = 0
        self.folder: Path | None = None
        self.proc: subprocess.Popen[str] | None = None
        self.output: list[str] = []
        self._drainer: threading.Thread | None = None

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def url(self, db: int = 0) -> str:
        """The server's ``redis://`` URL for database ``db``."""
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> RedisServer:
        """Start Redis (on the port it had, if it ran before) and return once it accepts
        connections."""
        starting("redis", "a Redis server")
        if self.running:
            raise RuntimeError(f"Redis already runs on port {self.port}")
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="bistrot-redis-"))
        if self.port:
            self._launch()  # a restart keeps its port, as clients know it
            return self
        for _ in range(5):  # another process may take the free port first
            self.port = free_port()
            try:
                self._launch()
                return self
            except RuntimeError:
                if "Address already in use" not in "".join(self.output):
                    raise
        raise RuntimeError("no free port for Redis after 5 tries")

    def _launch(self) -> None:
        assert self.folder is not None
        args = [
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
            "--dir", str(self.folder),
            "--logfile", "",  # to stdout, which the test keeps
        ]  # fmt: skip
        self.output = []
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.proc = proc
        assert proc.stdout is not None
        # Its log says when it listens (an event, no polling); readline returns "" once it exited.
        timer = threading.Timer(TIMEOUT, proc.kill)  # a Redis that hangs before saying so
        timer.start()
        try:
            for line in proc.stdout:
                self.output.append(line)
                if READY in line:
                    break
        finally:
            timer.cancel()
        if not self.running or READY not in "".join(self.output):
            self._reap()
            raise RuntimeError(f"redis-server did not start on port {self.port}:\n" + "".join(self.output))
        # Drain its log from now on: an unread pipe would block Redis in its next log line.
        self._drainer = read_output(proc.stdout, self.output)

    def stop(self) -> None:
        """Shut Redis down (SIGTERM, SIGKILL if it does not exit) and remove its folder."""
        if self.running:
            assert self.proc is not None
            self.proc.terminate()
            self.proc.send_signal(signal.SIGCONT)  # a paused Redis handles SIGTERM only once resumed
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._reap()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def kill(self) -> None:
        """Kill Redis with SIGKILL, as a crash does: nothing is closed cleanly."""
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
        self._reap()

    def pause(self) -> None:
        """Freeze Redis (SIGSTOP): connections stay open and nothing answers, as a hung server
        or a partition that drops packets.  :meth:`resume` undoes it."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a paused Redis go on (SIGCONT)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def restart(self) -> None:
        """Stop Redis (if it still runs) and start it again on the same port, empty."""
        self.stop()
        self.start()

    def _reap(self) -> None:
        if self.proc is not None:
            self.proc.wait(TIMEOUT)
            if self._drainer is not None:
                self._drainer.join(TIMEOUT)  # its log ends with the process
                self._drainer = None
            else:
                assert self.proc.stdout is not None
                self.proc.stdout.close()
            self.proc = None


@pytest.fixture(scope="session", name="redis_server")
def redis_server_fixture() -> Iterator[RedisServer]:
    """One throwaway Redis for the whole session: tests share it, each under keys of its own
    (or a database number of its own); a test that kills or restarts Redis starts its own."""
    with RedisServer() as server:
        yield server
        if not server.running:  # it broke the tests after it: say which rule it broke
            raise RuntimeError("a test stopped the session's Redis: start a RedisServer of your own")
