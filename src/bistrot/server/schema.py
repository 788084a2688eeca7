"""The room's tables, in one place for every store, and how records become rows and back.

:data:`metadata` is what the SQLite store creates.  PostgreSQL, where several nodes share one
database, adds what only a cluster needs (:func:`room_metadata` with ``cluster=True``): the node
that owns each table (``tables.owner``) and the nodes with their leases (``nodes``).  Its schema
is made by the migrations in :mod:`bistrot.server.migrations`, which must match this one.

>>> sorted(metadata.tables), "owner" in tables.c  # doctest: +NORMALIZE_WHITESPACE
(['analyses', 'attempts', 'challenges', 'chat', 'club_boards', 'club_events', 'club_players', 'daily_games',
  'events', 'passkey_ceremonies', 'passkeys', 'profile_keys', 'profile_transfers', 'profiles', 'rated_games',
  'rating_changes', 'ratings', 'reports',
  'seats', 'server_secrets', 'tables'],
 False)
>>> cluster = room_metadata(cluster=True)
>>> sorted(set(cluster.tables) - set(metadata.tables)), "owner" in cluster.tables["tables"].c
(['nodes'], True)
"""

from __future__ import annotations

from collections.abc import Iterable
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
    TextClause,
    bindparam,
    delete,
    exists,
    insert,
    literal,
    select,
    text,
)
from sqlalchemy.sql import Delete, Insert, Select
from sqlalchemy.sql.elements import ColumnElement

from bistrot.tablecore.chat import KEPT as CHAT_KEPT
from bistrot.tablecore.records import (
    AnalysisRecord,
    ChallengeRecord,
    ChatLine,
    EventRecord,
    HistoryRow,
    PresenceRecord,
    SeatRecord,
    StoredTable,
    TableRecord,
)


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
        # Added by migration 0006: listed in the lobby while waiting (0 or 1, as SQLite keeps it).
        Column("public", Integer, nullable=False, server_default="0"),
        # Added by migration 0011: the day whose daily deal the table plays (server/daily.py).
        Column("daily", String),
        # Added by migration 0012: the club event whose board the table plays (server/club.py).
        Column("event", String),
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
        # Added by migration 0003 (and to older SQLite files on start): a later column must
        # have a default.
        Column("hints", Integer, nullable=False, server_default="0"),
        Column("profile", String),  # migration 0006: its player's public profile id
        # Migration 0013: its presence (tablecore/presence.py), kept across a restart or a
        # takeover: its player is away (0 or 1), or their grace period ends then (epoch seconds).
        Column("away", Integer, nullable=False, server_default="0"),
        Column("grace_ends", Float),
        Index("seats_profile", "profile"),
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
        "chat",  # a table's chat messages, numbered from 1 (tablecore/chat.py)
        metadata,
        Column("table_id", String, primary_key=True),
        Column("n", Integer, primary_key=True),
        Column("seat", Integer, nullable=False),
        Column("name", String),
        Column("text", String, nullable=False),
        Column("at", Float, nullable=False),
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
    Table(
        "attempts",  # who played each challenge: one attempt per challenger (server/room.py)
        metadata,
        Column("challenge_id", String, primary_key=True),
        Column("challenger", String, primary_key=True),  # a hash: no address or cookie stored
        Column("table_id", String, nullable=False),
        Column("at", Float, nullable=False),
    )
    Table(
        "analyses",  # a finished table's analysis, computed once (server/analysis_jobs.py)
        metadata,
        Column("table_id", String, primary_key=True),
        Column("status", String, nullable=False),
        Column("done", Integer, nullable=False),
        Column("total", Integer, nullable=False),
        Column("result", JSON),
        Column("claim", String, nullable=False),
        Column("updated_at", Float, nullable=False),
    )
    Table(
        "profiles",  # a player's lasting name, without signing up (server/profiles.py)
        metadata,
        Column("id", String, primary_key=True),  # public
        Column("name", String, nullable=False),
        Column("key_hash", String, nullable=False),  # the key itself is never stored
        Column("created_at", Float, nullable=False),
        Index("profiles_key", "key_hash", unique=True),
    )
    Table(
        "profile_keys",  # more keys of a profile: one per device it moved to (migration 0008)
        metadata,
        Column("key_hash", String, primary_key=True),
        Column("profile", String, nullable=False),
        Column("created_at", Float, nullable=False),
        Index("profile_keys_profile", "profile"),
    )
    Table(
        "profile_transfers",  # one-time codes that open a profile on another device (10 minutes)
        metadata,
        Column("code_hash", String, primary_key=True),
        Column("profile", String, nullable=False),
        Column("expires_at", Float, nullable=False),
        Column("used_at", Float),
        Index("profile_transfers_profile", "profile"),
    )
    Table(
        "passkeys",  # a profile's passkeys (WebAuthn public keys: server/passkeys.py), migration 0009
        metadata,
        Column("credential_id", String, primary_key=True),  # base64url
        Column("profile", String, nullable=False),
        Column("public_key", String, nullable=False),  # COSE, base64url
        Column("sign_count", Integer, nullable=False),
        Column("rp_id", String, nullable=False),
        Column("created_at", Float, nullable=False),
        Index("passkeys_profile", "profile"),
    )
    Table(
        "passkey_ceremonies",  # a challenge handed out, used once within its minutes
        metadata,
        Column("id", String, primary_key=True),
        Column("challenge", String, nullable=False),  # base64url
        Column("profile", String),  # registering for this profile; None: signing in
        Column("rp_id", String, nullable=False),
        Column("origin", String, nullable=False),
        Column("expires_at", Float, nullable=False),
    )
    Table(
        "reports",  # a player reported by another at their table, for the operator (migration 0010)
        metadata,
        Column("table_id", String, primary_key=True),
        Column("by_seat", Integer, primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("by_profile", String),
        Column("profile", String),
        Column("name", String),
        Column("reason", String, nullable=False),
        Column("at", Float, nullable=False),
        Index("reports_profile", "profile"),
    )
    Table(
        "ratings",  # a profile's rating in a game (server/ratings.py); added by migration 0007
        metadata,
        Column("profile", String, primary_key=True),
        Column("game", String, primary_key=True),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("games", Integer, nullable=False),
        Column("updated_at", Float, nullable=False),
        Index("ratings_game", "game"),
    )
    Table(
        "rated_games",  # what each rated game ranked: every rating can be computed again from these
        metadata,
        Column("table_id", String, primary_key=True),
        Column("game", String, nullable=False),
        Column("at", Float, nullable=False),
        Column("places", JSON, nullable=False),  # per seat: profile or level, team, place
    )
    Table(
        "rating_changes",  # how each rated game moved each of its people's rating
        metadata,
        Column("table_id", String, primary_key=True),
        Column("profile", String, primary_key=True),
        Column("game", String, nullable=False),
        Column("at", Float, nullable=False),
        Column("mu_before", Float, nullable=False),
        Column("sigma_before", Float, nullable=False),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Index("rating_changes_profile", "profile", "at"),
    )
    Table(
        "server_secrets",  # secrets every node must share, made once on first use (migration 0011)
        metadata,
        Column("name", String, primary_key=True),
        Column("secret", String, nullable=False),
        Column("created_at", Float, nullable=False),
    )
    Table(
        "daily_games",  # each profile's one counted game of a day's deal (server/daily.py)
        metadata,
        Column("day", String, primary_key=True),  # YYYY-MM-DD, UTC
        Column("game", String, primary_key=True),
        Column("profile", String, primary_key=True),
        Column("table_id", String, nullable=False),
        Column("seat", Integer, nullable=False),
        Column("started_at", Float, nullable=False),
        Column("finished_at", Float),  # set with the game's end, in its transaction
        Column("score", Integer),
        Column("analysed", Integer, nullable=False, server_default="0"),
        Column("accuracy", Float),  # the analysis' accuracy of the seat; null until computed
        Index("daily_games_table", "table_id", unique=True),
        Index("daily_games_board", "day", "game", "score"),
        Index("daily_games_profile", "profile", "game", "day"),
    )
    Table(
        "club_events",  # duplicate events for clubs (server/club.py, migration 0012)
        metadata,
        Column("id", String, primary_key=True),
        Column("game", String, nullable=False),
        Column("name", String, nullable=False),
        Column("organiser", String, nullable=False),  # the organiser's profile
        Column("boards", Integer, nullable=False),
        Column("per_round", Integer, nullable=False),
        Column("status", String, nullable=False),  # open | playing
        Column("tables", Integer),  # set at the start
        Column("starts_at", Float),
        Column("created_at", Float, nullable=False),
        Column("started_at", Float),
        Index("club_events_organiser", "organiser", "status"),
    )
    Table(
        "club_players",  # who plays in which pair of an event, joined before its start
        metadata,
        Column("event_id", String, primary_key=True),
        Column("profile", String, primary_key=True),
        Column("pair", Integer, nullable=False),
        Column("place", Integer, nullable=False),  # 0: North or East, 1: South or West
        Column("joined_at", Float, nullable=False),
        Index("club_players_place", "event_id", "pair", "place", unique=True),
    )
    Table(
        "club_boards",  # each board played at each table of an event: its table, once opened
        metadata,
        Column("event_id", String, primary_key=True),
        Column("board", Integer, primary_key=True),
        Column("table_no", Integer, primary_key=True),
        Column("table_id", String, nullable=False),
        Column("opened_at", Float, nullable=False),
        Column("side0_tricks", Integer),  # the engine's side 0's tricks, set with the game's end
        Column("finished_at", Float),
        Index("club_boards_table", "table_id", unique=True),
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
chat = metadata.tables["chat"]
attempts = metadata.tables["attempts"]
challenges = metadata.tables["challenges"]
analyses = metadata.tables["analyses"]
profiles = metadata.tables["profiles"]
profile_keys = metadata.tables["profile_keys"]
profile_transfers = metadata.tables["profile_transfers"]
passkeys = metadata.tables["passkeys"]
passkey_ceremonies = metadata.tables["passkey_ceremonies"]
reports = metadata.tables["reports"]
ratings = metadata.tables["ratings"]
rated_games = metadata.tables["rated_games"]
rating_changes = metadata.tables["rating_changes"]
server_secrets = metadata.tables["server_secrets"]
daily_games = metadata.tables["daily_games"]
club_events = metadata.tables["club_events"]
club_players = metadata.tables["club_players"]
club_boards = metadata.tables["club_boards"]


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
        "public": int(t.public),
        "daily": t.daily,
        "event": t.event,
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
        public=bool(r["public"]),
        daily=r["daily"],
        event=r["event"],
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
        "hints": s.hints,
        "profile": s.profile,
    }


def seat_record(r: Any) -> SeatRecord:
    """A :class:`SeatRecord` from a ``seats`` row (a mapping)."""
    return SeatRecord(r["seat"], r["kind"], r["level"], r["token_hash"], r["name"], r["hints"], r["profile"])


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


def chat_row(table_id: str, line: ChatLine) -> dict[str, Any]:
    """The ``chat`` row of one message of ``table_id``."""
    return {
        "table_id": table_id, "n": line.n, "seat": line.seat, "name": line.name, "text": line.text,
        "at": line.at,
    }


def table_queries(table_id: str) -> tuple[Select[Any], Select[Any], Select[Any], Select[Any]]:
    """What loading a table reads: its row, its seats, its events, its last chat messages."""
    last_chat = select(chat).where(chat.c.table_id == table_id).order_by(chat.c.n.desc()).limit(CHAT_KEPT)
    return (
        select(tables).where(tables.c.id == table_id),
        select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat),
        select(events).where(events.c.table_id == table_id).order_by(events.c.seq),
        last_chat,
    )


def stored_table(
    row: Any, seat_rows: Iterable[Any], event_rows: Iterable[Any], chat_rows: Iterable[Any]
) -> StoredTable:
    """A :class:`StoredTable` from the rows of :func:`table_queries` (mappings)."""
    said = [ChatLine(r["n"], r["seat"], r["name"], r["text"], r["at"]) for r in chat_rows]
    done = [
        EventRecord(r["seq"], r["actor"], r["action"], r["by"], r["client_id"], r["time"]) for r in event_rows
    ]
    seat_rows = list(seat_rows)
    return StoredTable(
        table_record(row),
        [seat_record(r) for r in seat_rows],
        done,
        sorted(said, key=lambda line: line.n),
        [
            PresenceRecord(r["seat"], bool(r["away"]), r["grace_ends"])
            for r in seat_rows
            if r["away"] or r["grace_ends"] is not None
        ],
    )


def presence_values(p: PresenceRecord) -> dict[str, Any]:
    """The ``seats`` columns of one seat's presence."""
    return {"away": int(p.away), "grace_ends": p.grace_ends}


#: Most tables one history request may name (``POST /api/history``; the stores read them at once).
HISTORY_MAX = 100


def history_queries(table_ids: list[str]) -> tuple[Select[Any], Select[Any]]:
    """What a history reads: the rows of the finished tables among ``table_ids``, and their seats."""
    ids = list(dict.fromkeys(table_ids))[:HISTORY_MAX]
    return (
        select(tables).where(tables.c.id.in_(ids), tables.c.status == "over"),
        select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.table_id, seats.c.seat),
    )


def history_rows(table_rows: Iterable[Any], seat_rows: Iterable[Any]) -> list[HistoryRow]:
    """The :class:`HistoryRow` s of :func:`history_queries`' rows (mappings), the latest ended
    first (then by id: two tables may end at the same instant)."""
    by_table: dict[str, list[SeatRecord]] = {}
    for r in seat_rows:
        by_table.setdefault(r["table_id"], []).append(seat_record(r))
    found = [HistoryRow(table_record(r), by_table.get(r["id"], []), r["updated_at"]) for r in table_rows]
    return sorted(found, key=lambda row: (-row.ended_at, row.table.id))


def challenges_from_query(table_id: str) -> Select[Any]:
    """The challenges made on the deal of ``table_id``, by seat."""
    return select(challenges).where(challenges.c.table_id == table_id).order_by(challenges.c.seat)


def chat_insert(
    into: Table, tables_of: Table, table_id: str, line: ChatLine, *fence: ColumnElement[bool]
) -> Insert:
    """Insert one chat message of ``table_id`` (into ``into``) only if that table exists (in
    ``tables_of``) and ``fence`` holds; it returns the number of the row added (none otherwise:
    RETURNING, as the drivers' row counts of an INSERT ... SELECT differ)."""
    row = chat_row(table_id, line)
    values = select(*(literal(v).label(k) for k, v in row.items()))
    there = exists().where(tables_of.c.id == table_id, *fence)
    return insert(into).from_select(list(row), values.where(there)).returning(into.c.n)


def chat_trim(into: Table, table_id: str, line: ChatLine) -> Delete:
    """Drop the messages of ``table_id`` older than the last :data:`CHAT_KEPT` once ``line`` is
    stored (in the same transaction): only those are ever read, and a table's chat rows stay
    bounded however long people talk."""
    return delete(into).where(into.c.table_id == table_id, into.c.n <= line.n - CHAT_KEPT)


# ---------------------------------------------------------------------------- analyses

#: Take the job of analysing ``:table_id`` (as ``:claim``): a new row, or one whose job is not
#: done and gave no sign of life since ``:stale_before`` (its node died, or it failed a while
#: ago); it returns the claim only if taken.  The same SQL for SQLite (3.35+) and PostgreSQL.
CLAIM_ANALYSIS: TextClause = text(
    """
INSERT INTO analyses (table_id, status, done, total, result, claim, updated_at)
VALUES (:table_id, 'queued', 0, 0, NULL, :claim, :now)
ON CONFLICT (table_id) DO UPDATE
    SET status = 'queued', done = 0, total = 0, result = NULL, claim = excluded.claim,
        updated_at = excluded.updated_at
    WHERE analyses.status != 'done' AND analyses.updated_at < :stale_before
RETURNING claim
"""
)

#: Where the job ``:claim`` stands; it changes nothing once another job has taken the row, nor
#: once the job has ended (done or failed): a progress beat that reaches the writer after the
#: result must not turn a stored result back into "running".
SAVE_ANALYSIS: TextClause = text(
    "UPDATE analyses SET status = :status, done = :done, total = :total, result = :result,"
    " updated_at = :now WHERE table_id = :table_id AND claim = :claim"
    " AND status NOT IN ('done', 'failed')"
).bindparams(bindparam("result", type_=JSON))  # each dialect writes its JSON


def analysis_params(record: AnalysisRecord) -> dict[str, Any]:
    """The parameters of :data:`SAVE_ANALYSIS` for ``record``."""
    return {
        "table_id": record.table_id, "claim": record.claim, "status": record.status, "done": record.done,
        "total": record.total, "now": record.updated_at, "result": record.result,
    }


def analysis_record(r: Any) -> AnalysisRecord:
    """An :class:`AnalysisRecord` from an ``analyses`` row (a mapping)."""
    return AnalysisRecord(
        r["table_id"], r["status"], r["done"], r["total"], r["result"], r["claim"], r["updated_at"]
    )
