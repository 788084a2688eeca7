"""A throwaway PostgreSQL server for the tests and benches, from Debian's binaries.

It lives in a temporary folder of its own, listens on 127.0.0.1 on a free port (and on a unix
socket in that folder), trusts loopback connections only, and keeps ``fsync`` on (the tests
check durability).  It never touches a PostgreSQL the machine already runs.  As root (initdb
refuses root), it runs as the ``postgres`` system user.

Tests get one server per session through the ``postgres`` fixture: a test module says
``pytest_plugins = ["tests.postgres_server"]`` and takes ``postgres`` as an argument, then makes a
database of its own with :meth:`PostgresServer.create_database`.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from tests.lanes import starting
from tests.ports import free_port

START_TIMEOUT = 30.0
SUPERUSER = "postgres"
INSTALL_HINT = "apt-get install postgresql (scripts/test installs it)"


class PostgresMissing(RuntimeError):
    """Debian's PostgreSQL binaries are not installed."""


def binaries() -> Path:
    """The ``bin`` folder of the highest PostgreSQL version installed."""
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if not found:
        raise PostgresMissing(f"no PostgreSQL server binaries in /usr/lib/postgresql: {INSTALL_HINT}")

    def version(path: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", Path(path).parent.parent.name))

    return Path(max(found, key=version)).parent




class PostgresServer:
    """One PostgreSQL server in a temporary folder; :meth:`start` it, or use it with ``with``."""

    def __init__(self) -> None:
        starting("postgres", "a PostgreSQL server")
        self.bin = binaries()
        self.root = Path(tempfile.mkdtemp(prefix="bistrot-pg-"))  # not under pytest's 0700 tmp
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        # initdb and postgres refuse to run as root: drop to the postgres system user.
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        self._initdb()

    def _initdb(self) -> None:
        # --no-sync only skips initdb's own final flush of the template files; the server below
        # runs with fsync on.
        subprocess.run(
            [str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "-E", "UTF8",
             "--locale=C", "--auth=trust", "--no-sync", "--no-instructions"],
            check=True, capture_output=True, **self._as,
        )  # fmt: skip
        # Trust loopback (and the folder's own socket) only.
        (self.data / "pg_hba.conf").write_text(
            "local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n"
        )

    # ------------------------------------------------------------------ life

    def start(self) -> PostgresServer:
        """Start the server and wait until it accepts connections."""
        if self.process is not None and self.process.poll() is None:
            return self
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port),
                 "-k", str(self.root), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=on",
                 "-c", "max_connections=200", "-c", "shared_buffers=32MB"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True, **self._as,
            )  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return self
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    tail = self.log.read_text(errors="replace")[-2000:]
                    self.kill()
                    raise RuntimeError(f"PostgreSQL did not start; its log ends with:\n{tail}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """Fast shutdown (SIGINT): clients are disconnected, everything committed is kept."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)
                try:
                    self.process.wait(START_TIMEOUT)
                except subprocess.TimeoutExpired:
                    self.kill()
            self.process = None

    def kill(self) -> None:
        """SIGKILL to the server and every backend at once, as a crash of its machine would."""
        if self.process is not None:
            if self.process.poll() is None:
                self.signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def signal(self, signum: int) -> None:
        """Send ``signum`` to the postmaster and each of its children (every backend calls
        setsid(), so one signal to the process group would miss them)."""
        assert self.process is not None
        pid = self.process.pid
        os.kill(pid, signal.SIGSTOP)  # no new child while we list them
        children = []
        for status in Path("/proc").glob("[0-9]*/status"):
            try:
                if f"\nPPid:\t{pid}\n" in status.read_text():
                    children.append(int(status.parent.name))
            except OSError:  # it exited meanwhile
                continue
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signum)
        os.kill(pid, signum)
        if signum not in (signal.SIGSTOP, signal.SIGKILL):
            os.kill(pid, signal.SIGCONT)

    def restart(self) -> None:
        self.stop()
        self.start()

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        self.kill()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.remove()

    # ------------------------------------------------------------------ databases

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create the database ``name`` unless it exists already; its URL."""
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One throwaway server for the whole session; each test makes its own database on it."""
    try:
        server = PostgresServer()
    except PostgresMissing as err:
        pytest.fail(str(err), pytrace=False)
    with server:
        yield server
