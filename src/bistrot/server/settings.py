"""Typed settings of the card room server, read from arguments or ``BISTROT_*`` variables.

>>> s = Settings(db="room.db", grace_s=5)
>>> s.grace_s, s.max_message_bytes, s.sqlite_synchronous
(5.0, 4096, 'FULL')
>>> from pydantic import ValidationError
>>> try:
...     Settings(grace_s=-1)
... except ValidationError as err:
...     print(err.errors()[0]["msg"])
Input should be greater than or equal to 0
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"


def _default_bot_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


class Settings(BaseSettings):
    """Everything the server can be told; each field is also ``BISTROT_<NAME>`` in the environment."""

    model_config = SettingsConfigDict(env_prefix="BISTROT_", frozen=True, extra="forbid")

    db: str = "bistrot.db"
    """The SQLite database file (created on first run, in WAL mode)."""
    sqlite_synchronous: Literal["FULL", "NORMAL"] = "FULL"
    """FULL: every commit reaches the disk before its ack (survives power loss); NORMAL: survives
    a killed process but not a power cut, and commits faster."""
    sqlite_commit: Literal["thread", "inline"] = "thread"
    """thread: a writer thread commits whatever is waiting in one transaction (group commit),
    off the event loop; inline: each write commits at once on the event loop (no thread hop;
    sensible only with synchronous=NORMAL, whose commits do not wait for the disk)."""
    grace_s: float = Field(30.0, ge=0, le=3600)
    """Default time a dropped player keeps the seat before a computer player takes over."""
    bot_delay_ms: int = Field(700, ge=0, le=10_000)
    """Default pause before each computer move, so people can follow them."""
    bot_executor: Literal["process", "thread"] = "process"
    """Where computer moves are computed: a process pool (never stalls the event loop) or threads."""
    bot_workers: int = Field(default_factory=_default_bot_workers, ge=1, le=64)
    """Size of that pool."""
    analysis_executor: Literal["process", "thread"] = "process"
    """Where finished games are analysed: processes of their own (never stalls the event loop,
    nor the computer's moves) or threads."""
    analysis_workers: int = Field(1, ge=1, le=64)
    """Games analysed at once by this node (each analysis keeps one core busy)."""
    analysis_queue: int = Field(8, ge=1, le=10_000)
    """Most analyses one node holds (running or waiting); beyond, ``analysis_busy``.  A caller
    who is not a player of the game asked finds only the first half of it (rounded up)."""
    daily_sweep_s: float = Field(5.0, gt=0, le=3600)
    """How often a node looks for finished daily games to analyse (server/daily.py)."""
    analysis_per_client: int = Field(2, ge=1, le=10_000)
    """Most analyses one client address has under way on a node; beyond, ``too_many_analyses``
    (429): asking needs no token, and one stranger's games would fill the queue otherwise."""
    max_message_bytes: int = Field(4096, ge=256)
    """Messages over this size get a ``too_large`` reject."""
    abuse_message_bytes: int = Field(65536, ge=1024)
    """Messages over this size close the connection (the WebSocket layer refuses them)."""
    rate_burst: int = Field(20, ge=1)
    """Messages a connection may send at once ..."""
    rate_per_s: float = Field(10.0, gt=0)
    """... and per second after that (a token bucket)."""
    abuse_strikes: int = Field(50, ge=1)
    """Strikes (messages over the rate limit) after which a connection is closed as abusive."""
    abuse_forget_per_s: float = Field(5.0, ge=0)
    """Strikes forgotten per second: a client that pauses between bursts is never closed, one
    that keeps sending faster than ``rate_per_s + abuse_forget_per_s`` messages a second is."""
    chat_burst: int = Field(10, ge=1)
    """Chat messages one seat may send at once (all its connections together) ..."""
    chat_per_s: float = Field(1.0, gt=0)
    """... and per second after that (a token bucket per table and seat, kept by the table's
    owner node); beyond, ``rate_limited``.  Each message goes to every connection at the table,
    so it is counted per seat, not per connection; spectators do not chat."""
    max_connections_per_seat: int = Field(4, ge=0)
    """WebSockets one seat token may hold open at once at its table (counted by the table's owner
    node, sockets relayed from other nodes included); one more is refused (``reject``
    ``too_many_connections``, close 4429).  Four: a phone, a computer and a tab or two, or a
    dropped socket not yet noticed.  0: no cap.  The watch key is not capped this way: a table's
    spectators all share it."""
    abuse_wait_s: float = Field(60.0, ge=0)
    """A client address whose WebSocket was closed as abusive (too many strikes, or a frame over
    ``abuse_message_bytes``) may not open another for this long: its handshakes get HTTP 429
    with ``Retry-After`` (:mod:`bistrot.server.penalty`).  0: no wait."""
    allowed_origins: tuple[str, ...] = ()
    """Other web origins (``https://cards.example``) whose pages may open WebSockets here; the
    page's own origin (that of the request's ``Host``) and clients sending no ``Origin`` always
    may.  In the environment: a JSON list."""
    replay_limit: int = Field(64, ge=0)
    """Most missed actions replayed one by one on reconnect; beyond, one fresh state is sent."""
    catch_up_bytes: int = Field(64 * 1024, ge=0)
    """Most bytes of missed states sent one by one on reconnect; beyond, one fresh state is sent
    instead: a long match's states repeat its history of hands (16 KB each, 1 MB for 64)."""
    ws_deflate: bool = False
    """Compress WebSocket messages (permessage-deflate).  A state is about 2 KB, so the saving is
    small, and compressing costs about a quarter of the server's CPU: off by default."""
    send_queue_limit: int = Field(1024, ge=8)
    """Messages waiting for a slow client before it is disconnected (it then resyncs)."""
    tune_gc: bool = True
    """Freeze what lives at start-up out of the garbage collector's sight and collect the young
    generation less often (see :func:`bistrot.server.runner.tune_gc`); process-wide."""
    evict_after_s: float = Field(600.0, ge=0)
    """Finished tables nobody watches leave memory after this long (they stay in the database)."""
    unattended_pause_s: float = Field(120.0, ge=0)
    """Computer players stop playing a table at which no seat has had a connection for this long
    (a table of computers alone would otherwise play forever, even after a restart); they go on
    as soon as someone connects."""
    static_dir: Path = STATIC_DIR
    """The page's static files."""
    request_timeout_s: float = Field(10.0, gt=0, le=3600)
    """Time a request has to arrive whole (headers and body; for a WebSocket, its upgrade
    request), counted from its first byte, or for a connection's first request from connecting.
    Slower ones get 408 and are closed.  10 s is ample for a few KiB from a phone on a bad network,
    and keeps a client that connects and sends nothing, or trickles its headers, from holding a
    socket (uvicorn itself only bounds the idle time between requests)."""
    auth_timeout_s: float = Field(10.0, gt=0, le=3600)
    """Time a WebSocket opened without an ``Authorization`` header has to send its ``hello``; then
    it is closed (4401 ``auth_timeout``).  The page sends it at once, so 10 s only waits out a
    slow network."""
    max_connections_per_client: int = Field(128, ge=0)
    """Open TCP connections from one client address (counted from connecting, before any request,
    WebSockets included); further ones are refused at once (503).  0: no cap.  128 is far more
    than one household sharing an address needs (a page holds one WebSocket and a few HTTP
    connections).  Behind a reverse proxy every client has the proxy's address: raise it or set 0
    there and cap at the proxy (nginx ``limit_conn``)."""
    forwarded_allow_ips: str = ""
    """The reverse proxies whose ``X-Forwarded-For`` (and ``-Proto``) headers are believed, as
    uvicorn's ``--forwarded-allow-ips`` writes them: addresses or networks separated by commas
    (``127.0.0.1,::1``, ``10.0.0.0/8``), or ``*`` for any peer (only where nothing but the proxy
    can reach the server).  Empty (the default): no header is believed, a client's address is
    always its TCP peer's.  The table quota and the abuse wait count by that address, so a
    header believed from anyone would let every request name its own (uvicorn alone believes
    127.0.0.1: any local program, or a proxy that passes the header on unchanged)."""
    table_quota_burst: int = Field(30, ge=1)
    """Tables one client address may open at once (``POST /api/tables`` and a challenge's
    ``play``; refused ones count too), then ``table_quota_per_s``; more get 429
    ``too_many_tables`` with ``Retry-After``.  30: a class of 30 pupils behind one school NAT
    address opening their tables at the same moment."""
    table_quota_per_s: float = Field(0.2, gt=0)
    """Tables an address may open per second after its burst: one every 5 s, 720 an hour, ample
    for a whole class starting a game every few minutes, while a script opening thousands is
    slowed to a trickle that eviction and expiry keep up with."""
    replay_quota_burst: int = Field(20, ge=1)
    """Replays (``GET /api/tables/{id}/replay``) one client address may ask for at once, then
    ``replay_quota_per_s``; more get 429 ``too_many_replays`` with ``Retry-After``.  A replay
    needs no token and a long match's costs this node seconds to build (once: it is kept)."""
    replay_quota_per_s: float = Field(0.2, gt=0)
    """Replays an address may ask for per second after its burst: one every 5 s, for someone
    going through their past games; a script asking for thousands is slowed to a trickle."""
    replay_cache_bytes: int = Field(32 * 2**20, ge=0)
    """Built replays this node keeps (gzip-compressed, the least recently read dropped first):
    32 MiB holds a few hundred long matches, or thousands of ordinary games."""
    profile_quota_burst: int = Field(10, ge=1)
    """Profiles one client address may make at once (``POST /api/profiles``; refused ones count
    too), then ``profile_quota_per_s``; more get 429 ``too_many_profiles`` with ``Retry-After``.
    10: a family or a few friends behind one address, each on a device of their own."""
    profile_quota_per_s: float = Field(1 / 60, gt=0)
    """Profiles an address may make per second after its burst: one a minute, so a script
    cannot fill the database with names."""
    quickmatch_wait_s: float = Field(60.0, gt=0, le=3600)
    """A public table (the lobby's, "Play now"'s) with a player connected and nobody else
    joining for this long starts with computer players (hard) in its free seats."""
    quickmatch_level: Literal["easy", "medium", "hard"] = "hard"
    """... who takes those seats (the game's strongest level below it where it has no such one)."""
    lobby_poll_s: float = Field(1.0, gt=0, le=60)
    """How often a node reads the lobby from the store while anyone follows it live (one
    read per game for all its followers; every node sees the others' tables so)."""
    lobby_streams: int = Field(1000, ge=1)
    """Live lobby connections (Server-Sent Events) a node holds at once."""
    lobby_streams_per_address: int = Field(4, ge=1)
    """... and from one address."""
    expire_waiting_s: float = Field(86_400.0, gt=0)
    """A table still waiting for players (friends who never joined) with no connection at all
    for this long is retired (``table_expired``): one day, as an unanswered invitation."""
    expire_playing_s: float = Field(604_800.0, gt=0)
    """A game in progress with no connection at all for this long is retired (``table_expired``):
    a week lets friends come back to a long match after a weekend away."""
    wal_max_bytes: int = Field(64 * 2**20, ge=0)
    """The WAL file is truncated back to nothing (a TRUNCATE checkpoint) when the store is quiet,
    or at once once it has grown past this (64 MiB), so a burst of writes does not leave a huge
    file behind (SQLite never shrinks it by itself)."""

    public_url: str | None = None
    """The address people reach this card room at, ``scheme://host[:port]`` (behind a reverse
    proxy, or a name for this machine): invite, watch and challenge links and their QR codes use
    it.  Unset, links use the address the page was opened at, or, when that is this machine's
    loopback and the server listens on every interface, the machine's network address."""

    database_url: str | None = None
    """A PostgreSQL database (``postgresql://USER@HOST:PORT/DB``) instead of the SQLite file
    ``db``.  Its schema is created or upgraded on start (Alembic migrations).  Alone, one server
    per database (a second one is refused at start); with ``redis_url``, several nodes on it form
    one card room."""
    redis_url: str | None = None
    """The Redis server (``redis://HOST:PORT/N``) the nodes of one card room talk through: a
    seat's messages forwarded to the table's owner node, its events relayed back, and the shared
    table quota.  Needs ``database_url``."""
    node_lease_s: float = Field(3.0, ge=0.5, le=60)
    """How long a node's ownership of its tables lasts without a renewal (renewed every third of
    it).  A node that stops renewing (dead, paused, cut off) loses its tables to the others after
    this, and can no longer store anything for them."""

    @model_validator(mode="after")
    def _cluster(self) -> Settings:
        if self.redis_url is not None and self.database_url is None:
            raise ValueError("redis_url joins nodes over a shared database: set database_url too")
        return self

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        return _origin(value, "public_url")

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _proxies(cls, value: str) -> str:
        for entry in filter(None, (part.strip() for part in value.split(","))):
            if entry == "*":
                continue
            try:
                ipaddress.ip_network(entry, strict=False)
            except ValueError:
                what = "addresses or networks separated by commas, or *"
                raise ValueError(f"forwarded_allow_ips holds {what}: not {entry!r}") from None
        return value

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(_origin(v, "an origin") for v in value)


def _origin(value: str, what: str) -> str:
    """``value`` as an origin (``scheme://host[:port]``, lower case, no trailing slash);
    ValueError naming ``what`` otherwise."""
    origin = value.strip().rstrip("/").lower()
    scheme, sep, rest = origin.partition("://")
    if scheme not in ("http", "https") or not sep or not rest or "/" in rest:
        raise ValueError(f"{what} is scheme://host[:port], not {value!r}")
    return origin
