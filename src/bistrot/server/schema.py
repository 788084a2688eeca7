"""The room's tables, in one place for every store, and how records become rows and back.

:data:`metadata` is what the SQLite store creates.  PostgreSQL, where several nodes share one
database, adds what only a cluster needs (:func:`room_metadata` with ``cluster=True``): the node
that owns each table (``tables.owner``) and the nodes with their leases (``nodes``).  Its schema
is made by the migrations in :mod:`bistrot.server.migrations`, which must match this one.

>>> sorted(metadata.tables), "owner" in tables.c
(['challenges', 'events', 'seats', 'tables'], False)
>>> cluster = room_metadata(cluster=True)
>>> sorted(cluster.tables), "owner" in cluster.tables["tables"].c
(['challenges', 'events', 'nodes', 'seats', 'tables'], True)
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
)

from bistrot.tablecore.records import ChallengeRecord, SeatRecord, TableRecord


def room_metadata(*, cluster: bool = False) -> MetaData:
    """A new :class:`~sqlalchemy.MetaData` holding the room's tables (and, with ``cluster``,
    the owner of each table and the nodes)."""
    metadata = MetaData()
    owner = (Column("owner", String), Index("tables_owner", "owner")) if cluster else ()
    Table(
        "tables",
        metadata,
        Column("id", String, primary_key=True),
        Column("game", String, nullable=False),
        Column("mode", String, nullable=False),
        Column("rules", JSON, nullable=False),
        # Seeds are 64-bit (SQLite's INTEGER always was).
        Column("seed", BigInteger, nullable=False),
        Column("level", String, nullable=False),
        Column("bot_delay_ms", Integer, nullable=False),
        Column("grace_s", Float, nullable=False),
        Column("status", String, nullable=False),
        Column("seq", Integer, nullable=False),
        Column("invite_hash", String),
        Column("watch_hash", String, nullable=False),
        Column("rematch", String),
        Column("rematch_of", String),
        Column("challenge", String),
        Column("result", JSON),
        Column("created_at", Float, nullable=False),
        Column("updated_at", Float, nullable=False),
        *owner,
        Index("tables_status", "status"),
        Index("tables_challenge", "challenge"),
    )
    Table(
        "seats",
        metadata,
        Column("table_id", String, primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("kind", String, nullable=False),
        Column("level", String),
        Column("token_hash", String),
        Column("name", String),
    )
    Table(
        "events",
        metadata,
        Column("table_id", String, primary_key=True),
        Column("seq", Integer, primary_key=True),
        Column("actor", Integer, nullable=False),
        Column("action", String, nullable=False),
        Column("by", String, nullable=False),
        Column("client_id", String),
        Column("time", Float, nullable=False),
    )
    Table(
        "challenges",
        metadata,
        Column("id", String, primary_key=True),
        Column("table_id", String, nullable=False),
        Column("seat", Integer, nullable=False),
        Column("computers", JSON, nullable=False),
        Column("created_at", Float, nullable=False),
        Index("challenges_source", "table_id", "seat", unique=True),
    )
    if cluster:
        # A node owns tables while its lease (renewed by the node, on the database's clock)
        # lasts; see bistrot.server.postgres.
        Table(
            "nodes",
            metadata,
            Column("id", String, primary_key=True),
            Column("lease_until", DateTime(timezone=True), nullable=False),
            Column("started_at", DateTime(timezone=True), nullable=False),
        )
    return metadata


#: The room's tables as the SQLite store keeps them.
metadata = room_metadata()
tables = metadata.tables["tables"]
seats = metadata.tables["seats"]
events = metadata.tables["events"]
challenges = metadata.tables["challenges"]


# ---------------------------------------------------------------------------- rows and records


def table_row(t: TableRecord) -> dict[str, Any]:
    """The ``tables`` row of a new table (its update time is its creation time)."""
    return {
        "id": t.id,
        "game": t.game,
        "mode": t.mode,
        "rules": t.rules,
        "seed": t.seed,
        "level": t.level,
        "bot_delay_ms": t.bot_delay_ms,
        "grace_s": t.grace_s,
        "status": t.status,
        "seq": t.seq,
        "invite_hash": t.invite_hash,
        "watch_hash": t.watch_hash,
        "rematch": t.rematch,
        "rematch_of": t.rematch_of,
        "challenge": t.challenge,
        "result": t.result,
        "created_at": t.created_at,
        "updated_at": t.created_at,
    }


def table_record(r: Any) -> TableRecord:
    """A :class:`TableRecord` from a ``tables`` row (a mapping)."""
    return TableRecord(
        id=r["id"],
        game=r["game"],
        mode=r["mode"],
        rules=r["rules"],
        seed=r["seed"],
        level=r["level"],
        bot_delay_ms=r["bot_delay_ms"],
        grace_s=r["grace_s"],
        status=r["status"],
        invite_hash=r["invite_hash"],
        watch_hash=r["watch_hash"],
        created_at=r["created_at"],
        seq=r["seq"],
        rematch=r["rematch"],
        rematch_of=r["rematch_of"],
        challenge=r["challenge"],
        result=r["result"],
    )


def seat_row(table_id: str, s: SeatRecord) -> dict[str, Any]:
    """The ``seats`` row of one seat of ``table_id``."""
    return {
        "table_id": table_id,
        "seat": s.seat,
        "kind": s.kind,
        "level": s.level,
        "token_hash": s.token_hash,
        "name": s.name,
    }


def challenge_row(c: ChallengeRecord) -> dict[str, Any]:
    """The row of a challenge."""
    return {
        "id": c.id,
        "table_id": c.table,
        "seat": c.seat,
        "computers": c.computers,
        "created_at": c.created_at,
    }


def challenge_record(r: Any) -> ChallengeRecord:
    """A :class:`ChallengeRecord` from a ``challenges`` row (a mapping)."""
    return ChallengeRecord(r["id"], r["table_id"], r["seat"], r["computers"], r["created_at"])
