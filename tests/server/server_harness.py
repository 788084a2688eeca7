"""Real servers on loopback and real WebSocket clients, for the server tests."""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bistrot.server import Settings, create_app
from bistrot.server.runner import address, bind, uvicorn_server
from tests.lanes import starting
from tests.output import read_output

TIMEOUT = 20.0


class ThreadServer:
    """The app under uvicorn in a thread of this process, on a free loopback port."""

    def __init__(self, settings: Settings) -> None:
        starting("server", "the card room's server in a thread")
        self.settings = settings
        self.app = create_app(settings)
        self.sock = bind("127.0.0.1", 0)
        self.url = address(self.sock).rstrip("/")
        self.server = uvicorn_server(self.app, settings, log_level="warning")
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + TIMEOUT
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(TIMEOUT)
        self.sock.close()

    @property
    def room(self) -> Any:
        return self.app.state.room


class ProcessServer:
    """``bistrot serve`` in a subprocess (for SIGKILL and log tests)."""

    #: Every one started in this process since the test began (the conftest empties it): a failed
    #: test's report shows their output, which is how a rare failure of a node is read.
    started: list[ProcessServer] = []  # noqa: RUF012 (a registry, shared on purpose)

    def __init__(self, db: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.db = db
        self.args = [sys.executable, "-m", "bistrot", "serve", "--port", "0", "--db", str(db), *extra]
        # (no Pyodide download for offline play from a test)
        self.env = {
            **os.environ,
            "BISTROT_BOT_EXECUTOR": "thread",
            "BISTROT_OFFLINE_FETCH": "0",
            # Scripted clients act faster than people (as make_settings says): the rate limit has
            # its own tests, and a burst here made the SIGKILL test fail now and then.
            "BISTROT_RATE_BURST": "1000",
            "BISTROT_RATE_PER_S": "1000",
            **(env or {}),
        }
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []
        self.first_line = 0

    def start(self) -> ProcessServer:
        starting("process", "a `bistrot serve` process")
        if self not in ProcessServer.started:
            ProcessServer.started.append(self)
        self.url = ""  # (port 0: a new one each start)
        self.first_line = len(self.output)  # where this start's output begins
        self.proc = subprocess.Popen(
            self.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=self.env
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.output.append(line)
            if "http://" in line and not self.url:
                self.url = line[line.index("http://") :].split()[0].rstrip("/")
            if "Application startup complete" in line:
                read_output(self.proc.stdout, self.output)
                return self
        self.stop()
        raise RuntimeError("bistrot serve did not start:\n" + "".join(self.output))

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(TIMEOUT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(TIMEOUT)


def http(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=TIMEOUT)


def open_table(base: str, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "omi")
    with http(base) as client:
        answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


class Client:
    """A WebSocket client that keeps every message it receives and the latest state."""

    def __init__(
        self,
        base: str,
        table: str,
        token: str | None,
        since: int | str | None = None,
        open_timeout: float = TIMEOUT,
    ) -> None:
        url = base.replace("http://", "ws://") + f"/ws/{table}"
        if since is not None:
            url += f"?since={since}"
        # The token in the handshake's header, as scripts send it (never in the URL); None: the
        # test sends its own hello, or nothing.
        self.ws: ClientConnection = connect(
            url,
            additional_headers=bearer(token) if token is not None else None,
            open_timeout=open_timeout,
            max_size=2**22,
            max_queue=None,
            legacy=True,
        )
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self._ids = 0

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.ws.close()

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def wait_for(self, test: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if test(message):
                return message

    def next_id(self) -> str:
        self._ids += 1
        return f"m{self._ids}"

    def act(self, action: str, id: Any = None, **extra: Any) -> dict[str, Any]:
        """Send an action and return its answer (ack or reject), keeping states met meanwhile."""
        id = self.next_id() if id is None else id
        self.send({"type": "act", "id": id, "action": action, **extra})
        answer = self.wait_for(lambda m: m["type"] in ("ack", "reject") and m.get("id") == id)
        if answer["type"] == "ack" and self.seq < answer["seq"]:
            self.wait_for(lambda m: m["type"] == "state" and m["seq"] >= answer["seq"])
        return answer

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None
        return self.state["view"]

    @property
    def seq(self) -> int:
        assert self.state is not None
        return self.state["seq"]

    def wait_turn_or_end(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read until it is this seat's turn, or the game is over."""
        if self.state is None or not (self.view["legal"] or self.view["is_over"]):
            self.wait_for(
                lambda m: m["type"] == "state" and (m["view"]["legal"] or m["view"]["is_over"]), timeout
            )
        return self.view


def play_out(
    client: Client, rng: random.Random | None = None, max_actions: int = 5000, choose: Any = None
) -> list[str]:
    """Play this seat's turns until the game is over: ``choose(legal)``, else a random legal
    action from ``rng``, else the first legal action."""
    played = []
    for _ in range(max_actions):
        view = client.wait_turn_or_end()
        if view["is_over"]:
            return played
        legal = view["legal"]
        action = choose(legal) if choose else rng.choice(legal) if rng else legal[0]
        answer = client.act(action)
        assert answer["type"] == "ack", answer
        played.append(action)
    raise AssertionError("the game did not end")


#: Oti's values from the lowest to keep to the highest: the plain values, then 2, 5 and 10 (they
#: go on anything, so a player keeps them for last).
OTI_ORDER = {value: i for i, value in enumerate("3 4 6 7 8 9 J Q K A 2 5 T".split())}


def oti_policy(rng: random.Random) -> Any:
    """A plain Oti player for :func:`play_out`'s ``choose``: ready at once, plays its lowest value
    (as many cards of it as it may; 2, 5 and 10 last), picks up only when it must, ``rng``
    breaking ties. Its two-player games take a median of 66 actions and at most 140 in 300
    deals, where random plays took up to 4,019 (a test waiting on thousands of round trips on a
    loaded machine once timed out)."""

    def choose(legal: list[str]) -> str:
        if "ready" in legal:
            return "ready"
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            return min(plays, key=lambda a: (OTI_ORDER[a.split()[1][:-1]], -len(a.split()), rng.random()))
        others = [a for a in legal if a != "pickup"]
        return others[0] if others else legal[0]

    return choose

def act_first_legal(client: Client, count: int) -> list[tuple[dict[str, Any], str]]:
    """On each of this seat's next ``count`` turns, play its first legal action with the ids
    ``a0``, ``a1``...; each answer (an ack, asserted) with its action."""
    acks = []
    for number in range(count):
        action = client.wait_turn_or_end()["legal"][0]
        answer = client.act(action, id=f"a{number}")
        assert answer["type"] == "ack", answer
        acks.append((answer, action))
    return acks


def play_to_end(client: Client) -> None:
    """This seat's turns until the end: Omi's first legal actions, a plain Oti player."""
    if client.state is None:
        client.wait_for(lambda m: m["type"] == "state")
    play_out(client, choose=oti_policy(random.Random(7)) if client.view["game"] == "oti" else None)


def finished(server: ThreadServer, **body: Any) -> dict[str, Any]:
    """A table against the computer (easy unless told), played out by its person."""
    opened = open_table(server.url, **{"level": "easy", **body})
    with Client(server.url, opened["table"], opened["seats"][0]["token"]) as client:
        play_to_end(client)
    return opened


def bearer(token: str) -> dict[str, str]:
    """The header that presents a seat token or watch key."""
    return {"Authorization": f"Bearer {token}"}


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "db": str(tmp_path / "room.db"),
        "bot_executor": "thread",
        "bot_workers": 1,
        "bot_delay_ms": 0,
        "analysis_executor": "thread",  # the process pool has its own test
        "grace_s": 30.0,
        # Scripted clients act faster than people; the rate limit has its own test.
        "rate_burst": 1000,
        "rate_per_s": 1000.0,
        "chat_burst": 1000,  # so does the chat rate of a seat
        "chat_per_s": 1000.0,
        "table_quota_burst": 10_000,  # tests open many tables; the quota has its own test
        "profile_quota_burst": 10_000,  # ... and make many profiles (tests/server/test_profiles.py)
        "abuse_wait_s": 0.0,  # tests reconnect after floods; the wait has its own test
        "tune_gc": False,  # process-wide: not inside the test process
    }
    values.update(overrides)
    return Settings(**values)


def drain(client: Client, wait: float = 0.0) -> None:
    """Read whatever has arrived (waiting up to ``wait`` for the first message)."""
    try:
        client.recv(wait)
        while True:
            client.recv(0.0)
    except (TimeoutError, ConnectionClosed):
        pass


def drive(clients: list[Client], rng: random.Random, timeout: float = 60.0, max_actions: int = 10**6) -> None:
    """Play every client's turns with random legal actions until the game is over for all
    (or ``max_actions`` were played)."""
    deadline = time.monotonic() + timeout
    played = 0
    while time.monotonic() < deadline and played < max_actions:
        for client in clients:
            drain(client)
        if all(c.state is not None and c.view["is_over"] for c in clients):
            return
        movers = [c for c in clients if c.state is not None and c.view["legal"]]
        if not movers:
            drain(clients[0], 0.05)
            continue
        mover = rng.choice(movers)
        answer = mover.act(rng.choice(mover.view["legal"]))
        assert answer["type"] == "ack", answer
        played += 1
    if played < max_actions:
        raise AssertionError("the game did not end in time")


def log_of(client: Client) -> list[tuple[int, int, str]]:
    """The actions this client saw, as (seq, seat, action), from the ``last`` of its states."""
    return [
        (m["last"]["seq"], m["last"]["seat"], m["last"]["action"])
        for m in client.messages
        if m["type"] == "state" and m["last"]
    ]


def assert_gap_free(client: Client) -> None:
    """Each state's seq is the previous one or the next one."""
    seqs = [m["seq"] for m in client.messages if m["type"] == "state"]
    assert seqs, "no state received"
    for a, b in itertools.pairwise(seqs):
        assert b in (a, a + 1), f"seq went from {a} to {b}"


def settle(client: Client) -> None:
    """Read until the answer to a fresh ping: everything the server sent before it has arrived."""
    id = client.next_id()
    client.send({"type": "ping", "id": id})
    client.wait_for(lambda m: m["type"] == "pong" and m["id"] == id)


class BlockingBot:
    """A computer player that thinks until :attr:`release` is set (a stand-in for a slow one)."""

    level = "hard"
    release = threading.Event()
    started = threading.Event()

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.seed = seed

    def act(self, view: dict[str, Any]) -> str:
        BlockingBot.started.set()
        BlockingBot.release.wait(60)
        return view["legal"][0]


class AllRecords(logging.Handler):
    """Keeps every log record."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if self.keeps(record):
            self.records.append(record)

    def keeps(self, record: logging.LogRecord) -> bool:
        return True


class ErrorRecords(AllRecords):
    """Keeps every log record at error level or with a traceback."""

    def keeps(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.ERROR or bool(record.exc_info)
