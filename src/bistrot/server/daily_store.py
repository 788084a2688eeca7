"""The daily deal's SQL, written once for both stores (run through their ``transaction`` and
``snapshot``, as profiles and ratings are): the shared secret, each profile's counted game of a
day, the results board and the streaks.

>>> from sqlalchemy import create_engine
>>> from bistrot.server.schema import metadata
>>> engine = create_engine("sqlite://")
>>> metadata.create_all(engine)
>>> with engine.begin() as conn:
...     first = shared_secret(conn, "daily", now=1.0)
...     first == shared_secret(conn, "daily", now=2.0) and len(first) >= 22
True
>>> with engine.begin() as conn:
...     add_attempt(conn, Attempt("2026-12-06", "omi", "p" * 16, "t1", 0, 5.0)).table_id
...     add_attempt(conn, Attempt("2026-12-06", "omi", "p" * 16, "t2", 0, 6.0)).table_id  # kept: t1
't1'
't1'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from bistrot.server.schema import daily_games, profiles, server_secrets
from bistrot.server.storage import InTransaction
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.records import new_secret

T = TypeVar("T")


@dataclass(frozen=True)
class Attempt:
    """A profile's counted game of a day's deal: its table and seat; once over, its score (and,
    once the analysis is done, the seat's accuracy)."""

    day: str
    game: str
    profile: str
    table_id: str
    seat: int
    started_at: float
    finished_at: float | None = None
    score: int | None = None
    accuracy: float | None = None

    @property
    def over(self) -> bool:
        """Whether its game has ended (stored with the game's end)."""
        return self.finished_at is not None


def insert_new(conn: Connection, table: Any, row: dict[str, Any]) -> int:
    """Insert ``row`` unless a row of the same key is there (kept as it is): one statement on
    either database, so two nodes inserting together never fail the transaction; how many rows
    were inserted."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return int(conn.execute(dialect.insert(table).values(**row).on_conflict_do_nothing()).rowcount)


def shared_secret(conn: Connection, name: str, now: float) -> str:
    """The secret called ``name``, made on first use (the first node to ask makes it; every other
    node, sharing the database, reads the same)."""
    insert_new(conn, server_secrets, {"name": name, "secret": new_secret(), "created_at": now})
    query = select(server_secrets.c.secret).where(server_secrets.c.name == name)
    return str(conn.execute(query).scalar_one())


class RoomSecret:
    """The room's secret called ``name`` (:func:`shared_secret`), read once through ``store``'s
    ``write``, then kept: it never changes."""

    def __init__(self, store: SecretStore, name: str, clock: Callable[[], float]) -> None:
        self.store = store
        self.name = name
        self.clock = clock
        self._value: str | None = None

    async def get(self) -> str:
        """The secret (made by the first node that asks)."""
        if self._value is None:
            made = functools.partial(shared_secret, name=self.name, now=self.clock())
            self._value = await self.store.write(made)
        return self._value


class SecretStore(Protocol):
    """What :class:`RoomSecret` needs of a store (the profiles' has it)."""

    async def write(self, work: Callable[[Connection], T]) -> T: ...


def _attempt(row: Any) -> Attempt:
    m = row._mapping
    return Attempt(
        m["day"], m["game"], m["profile"], m["table_id"], m["seat"], m["started_at"], m["finished_at"],
        m["score"], m["accuracy"],
    )  # fmt: skip


_ATTEMPT = (
    daily_games.c.day, daily_games.c.game, daily_games.c.profile, daily_games.c.table_id, daily_games.c.seat,
    daily_games.c.started_at, daily_games.c.finished_at, daily_games.c.score, daily_games.c.accuracy,
)  # fmt: skip


def find_attempt(conn: Connection, day: str, game: str, profile: str) -> Attempt | None:
    """The profile's counted game of ``day``'s deal of ``game``, if any."""
    row = conn.execute(
        select(*_ATTEMPT).where(
            daily_games.c.day == day, daily_games.c.game == game, daily_games.c.profile == profile
        )
    ).first()
    return None if row is None else _attempt(row)


def add_attempt(conn: Connection, attempt: Attempt) -> Attempt:
    """Count ``attempt``, unless the profile has one of that day and game already: the attempt
    kept (the one given, or the earlier one, whose table is then the one that counts)."""
    insert_new(conn, daily_games, {
        "day": attempt.day, "game": attempt.game, "profile": attempt.profile, "table_id": attempt.table_id,
        "seat": attempt.seat, "started_at": attempt.started_at,
    })  # fmt: skip
    kept = find_attempt(conn, attempt.day, attempt.game, attempt.profile)
    assert kept is not None  # just inserted, or there already
    return kept


def finish(conn: Connection, table_id: str, seat: int, score: int, at: float) -> None:
    """The game of ``table_id`` ended, ``seat`` scoring ``score``: run in the transaction that
    stores the end (a table that is nobody's daily game: nothing to change)."""
    conn.execute(
        update(daily_games)
        .where(daily_games.c.table_id == table_id, daily_games.c.seat == seat)
        .values(finished_at=at, score=score)
    )


def seat_score(game: Any, seat: int) -> int:
    """The daily score of ``seat`` in the finished ``game`` (see the module docstring).

    >>> from bistrot.omi import OmiGame, OmiRules
    >>> match = OmiGame.new(OmiRules(hands=1), seed=5)
    >>> while not match.is_over:
    ...     match.apply(match.legal_actions()[0])
    >>> seat_score(match, 0) == match.tokens[0] - match.tokens[1] == -seat_score(match, 1)
    True
    """
    tokens = getattr(game, "tokens", None)
    if tokens is not None:  # Omi: a side's tokens against the others'
        mine = game.rules.side_of(seat)
        return int(tokens[mine]) - sum(int(t) for side, t in enumerate(tokens) if side != mine)
    return -int(game.cards_left(seat))  # Oti


def finished_work(core: TableCore, at: float) -> InTransaction | None:
    """What the end of ``core``'s game stores for the daily deal, in the transaction that stores
    the end: the score of its one profile's seat, if it is a daily deal's game (None for any other
    table: its game may have no daily score, as a game registered besides Omi and Oti)."""
    if core.table.mode != "computer" or core.table.daily is None:
        return None
    owned = [s.record.seat for s in core.seats if s.record.profile is not None]
    if len(owned) != 1:
        return None
    score = seat_score(core.game, owned[0])
    return functools.partial(finish, table_id=core.id, seat=owned[0], score=score, at=at)


def to_analyse(conn: Connection, limit: int) -> list[tuple[str, int]]:
    """Finished daily games whose accuracy is still to be found, oldest first: ``(table, seat)``."""
    query = (
        select(daily_games.c.table_id, daily_games.c.seat)
        .where(daily_games.c.finished_at.is_not(None), daily_games.c.analysed == 0)
        .order_by(daily_games.c.finished_at)
        .limit(limit)
    )
    return [(r.table_id, r.seat) for r in conn.execute(query)]


def set_accuracy(conn: Connection, table_id: str, accuracy: float | None) -> None:
    """The analysis of ``table_id`` is done (or failed: ``None``): its seat's accuracy."""
    statement = update(daily_games).where(daily_games.c.table_id == table_id)
    conn.execute(statement.values(analysed=1, accuracy=accuracy))


def board(conn: Connection, day: str, game: str, limit: int) -> tuple[int, list[dict[str, Any]]]:
    """How many finished ``day``'s deal of ``game``, and the best ``limit`` of them, ranked: the
    highest score first, equal scores sharing a rank (1, 2, 2, 4), the first to finish first."""
    finished = (daily_games.c.day == day, daily_games.c.game == game, daily_games.c.finished_at.is_not(None))
    count = conn.execute(select(func.count()).select_from(daily_games).where(*finished)).scalar_one()
    query = (
        select(daily_games.c.profile, profiles.c.name, daily_games.c.score, daily_games.c.accuracy)
        .join(profiles, profiles.c.id == daily_games.c.profile, isouter=True)
        .where(*finished)
        .order_by(daily_games.c.score.desc(), daily_games.c.finished_at, daily_games.c.profile)
        .limit(limit)
    )
    rows: list[dict[str, Any]] = []
    for place, r in enumerate(conn.execute(query), 1):
        rank = rows[-1]["rank"] if rows and rows[-1]["score"] == r.score else place
        line = {"profile": r.profile, "name": r.name, "score": r.score, "rank": rank, "accuracy": r.accuracy}
        rows.append(line)
    return int(count), rows


def rank_of(conn: Connection, attempt: Attempt) -> int:
    """The rank of a finished ``attempt`` on its day's board: 1 + how many scored more."""
    better = conn.execute(
        select(func.count()).select_from(daily_games).where(
            daily_games.c.day == attempt.day, daily_games.c.game == attempt.game,
            daily_games.c.finished_at.is_not(None), daily_games.c.score > attempt.score,
        )
    ).scalar_one()  # fmt: skip
    return int(better) + 1


def streak(days: list[str], today: str) -> int:
    """How many consecutive days, ending today or yesterday, are among ``days`` (the days a daily
    game was finished, any order).

    >>> streak(["2026-12-06", "2026-12-05", "2026-12-03"], "2026-12-06")
    2
    >>> streak(["2026-12-05", "2026-12-04"], "2026-12-06"), streak(["2026-12-04"], "2026-12-06")
    (2, 0)
    """
    have = set(days)
    day = date.fromisoformat(today)
    if today not in have:
        day -= timedelta(days=1)
    count = 0
    while day.isoformat() in have:
        count += 1
        day -= timedelta(days=1)
    return count


#: The days read for a streak: a streak longer than this is shown as this.
STREAK_READ = 366


def streaks(conn: Connection, profile: str, games: list[str], today: str) -> dict[str, int]:
    """The profile's daily streak in each of ``games`` (:func:`streak`)."""
    found: dict[str, int] = {}
    for game in games:
        query = (
            select(daily_games.c.day)
            .where(
                daily_games.c.profile == profile, daily_games.c.game == game,
                daily_games.c.finished_at.is_not(None), daily_games.c.day <= today,
            )
            .order_by(daily_games.c.day.desc())
            .limit(STREAK_READ)
        )  # fmt: skip
        found[game] = streak([r.day for r in conn.execute(query)], today)
    return found
