"""Club events' SQL, written once for both stores (run through their ``transaction`` and
``snapshot``, as the daily deal's is): the events, their pairs' players, and each board played
at each table.

>>> from sqlalchemy import create_engine
>>> from bistrot.server.schema import metadata
>>> engine = create_engine("sqlite://")
>>> metadata.create_all(engine)
>>> with engine.begin() as conn:
...     add_event(conn, ClubEvent("e1", "omi", "Thursday", "org", 8, 2, OPEN, None, None, 1.0))
...     join(conn, "e1", "ama", None, 2.0), join(conn, "e1", "ben", 1, 3.0), join(conn, "e1", "ama", None, 4)
...     join(conn, "e1", "cy", 1, 5.0), join(conn, "e1", "cy", None, 6.0)
(1, 1, 'already_joined')
('pair_full', 2)
>>> with engine.begin() as conn:
...     [(p.profile, p.pair, p.place) for p in players(conn, "e1")]
...     start(conn, "e1", tables=2, now=7.0), start(conn, "e1", tables=2, now=8.0)
[('ama', 1, 0), ('ben', 1, 1), ('cy', 2, 0)]
(True, False)
>>> with engine.begin() as conn:
...     claim(conn, "e1", 1, 1, "t1", 9.0), claim(conn, "e1", 1, 1, "t2", 9.5)
(True, False)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sqlalchemy import Connection, delete, func, select, update

from bistrot.omi import OmiGame
from bistrot.server.daily_store import insert_new
from bistrot.server.duplicate import MAX_PAIRS
from bistrot.server.schema import club_boards, club_events, club_players, profiles
from bistrot.server.storage import InTransaction
from bistrot.tablecore.core import TableCore

OPEN, PLAYING = "open", "playing"
"""An event's stored status: taking pairs, then played (it is over once every board is)."""


@dataclass(frozen=True)
class ClubEvent:
    """An event as stored."""

    id: str
    game: str
    name: str
    organiser: str
    boards: int
    per_round: int
    status: str
    tables: int | None
    starts_at: float | None
    created_at: float
    started_at: float | None = None


@dataclass(frozen=True)
class Player:
    """A profile in a pair of an event: ``place`` 0 sits North (or East), 1 South (or West)."""

    profile: str
    name: str | None
    pair: int
    place: int


@dataclass(frozen=True)
class Played:
    """A board opened at a table of the event: its game's table and, once over, side 0's tricks."""

    board: int
    table_no: int
    table_id: str
    side0_tricks: int | None
    finished_at: float | None


def add_event(conn: Connection, event: ClubEvent) -> None:
    """Store a new event."""
    conn.execute(club_events.insert().values(**event.__dict__))


def find_event(conn: Connection, event_id: str) -> ClubEvent | None:
    """The event ``event_id``, if there is one."""
    row = conn.execute(select(club_events).where(club_events.c.id == event_id)).first()
    return None if row is None else ClubEvent(**row._mapping)


def waiting_events(conn: Connection, organiser: str) -> int:
    """How many of ``organiser``'s events have not started."""
    query = select(func.count()).select_from(club_events)
    return int(
        conn.execute(
            query.where(club_events.c.organiser == organiser, club_events.c.status == OPEN)
        ).scalar_one()
    )


def players(conn: Connection, event_id: str) -> list[Player]:
    """The players of the event's pairs, by pair then place, with their profiles' names."""
    query = (
        select(club_players.c.profile, profiles.c.name, club_players.c.pair, club_players.c.place)
        .join(profiles, profiles.c.id == club_players.c.profile, isouter=True)
        .where(club_players.c.event_id == event_id)
        .order_by(club_players.c.pair, club_players.c.place)
    )
    return [Player(r.profile, r.name, r.pair, r.place) for r in conn.execute(query)]


def join(conn: Connection, event_id: str, profile: str, pair: int | None, now: float) -> int | str:
    """Put ``profile`` in ``pair`` (its free place), or in a new pair: the pair, or why not
    (``not_open``, ``already_joined``, ``no_pair``, ``pair_full``, ``event_full``).  Two joins at
    once never take one place: the store's keys decide, and the loser looks again."""
    for _ in range(MAX_PAIRS + 1):
        event = find_event(conn, event_id)
        if event is None or event.status != OPEN:
            return "not_open"
        seated = players(conn, event_id)
        if any(p.profile == profile for p in seated):
            return "already_joined"
        if pair is None:
            wanted, place = max((p.pair for p in seated), default=0) + 1, 0
            if wanted > MAX_PAIRS:
                return "event_full"
        else:
            taken = {p.place for p in seated if p.pair == pair}
            if not taken:
                return "no_pair"
            if len(taken) == 2:
                return "pair_full"
            wanted, place = pair, 1 - min(taken)
        row = {"event_id": event_id, "profile": profile, "pair": wanted, "place": place, "joined_at": now}
        if insert_new(conn, club_players, row):
            return wanted
    return "event_full"


def leave(conn: Connection, event_id: str, profile: str) -> bool:
    """Take ``profile`` out of the event before it starts (its pair's partner stays, in its place):
    whether it was in it."""
    event = find_event(conn, event_id)
    if event is None or event.status != OPEN:
        return False
    gone = conn.execute(
        delete(club_players).where(club_players.c.event_id == event_id, club_players.c.profile == profile)
    )
    return bool(gone.rowcount)


def renumber(conn: Connection, event_id: str) -> int:
    """Number the event's pairs 1, 2, ... in the order of their numbers (a pair whose players
    all left leaves no gap): how many there are."""
    numbers = sorted({p.pair for p in players(conn, event_id)})
    for new, old in enumerate(numbers, 1):
        if new != old:  # ``new`` is free: no pair had it, or its pair moved down already
            conn.execute(
                update(club_players)
                .where(club_players.c.event_id == event_id, club_players.c.pair == old)
                .values(pair=new)
            )
    return len(numbers)


def names(conn: Connection, profile_ids: list[str]) -> dict[str, str]:
    """The names of the profiles ``profile_ids`` (those that exist)."""
    query = select(profiles.c.id, profiles.c.name).where(profiles.c.id.in_(profile_ids))
    return {r.id: r.name for r in conn.execute(query)}


def start(conn: Connection, event_id: str, tables: int, now: float) -> bool:
    """Start the event at ``tables`` tables, unless it has started: whether this call started it."""
    started = conn.execute(
        update(club_events)
        .where(club_events.c.id == event_id, club_events.c.status == OPEN)
        .values(status=PLAYING, tables=tables, started_at=now)
    )
    return bool(started.rowcount)


def played(conn: Connection, event_id: str) -> list[Played]:
    """Every board opened at every table of the event, by board then table."""
    query = (
        select(
            club_boards.c.board, club_boards.c.table_no, club_boards.c.table_id, club_boards.c.side0_tricks,
            club_boards.c.finished_at,
        )
        .where(club_boards.c.event_id == event_id)
        .order_by(club_boards.c.board, club_boards.c.table_no)
    )  # fmt: skip
    return [
        Played(r.board, r.table_no, r.table_id, r.side0_tricks, r.finished_at) for r in conn.execute(query)
    ]


def claim(conn: Connection, event_id: str, board: int, table_no: int, table_id: str, now: float) -> bool:
    """Claim ``board`` at table ``table_no`` for the game ``table_id``: False if another game has
    it (two players asking at once: the first one's table is the board's)."""
    row = {"event_id": event_id, "board": board, "table_no": table_no, "table_id": table_id, "opened_at": now}
    return bool(insert_new(conn, club_boards, row))


def finish(conn: Connection, table_id: str, side0_tricks: int, at: float) -> None:
    """The game of ``table_id`` ended with side 0 taking ``side0_tricks``: run in the transaction
    that stores the end."""
    conn.execute(
        update(club_boards)
        .where(club_boards.c.table_id == table_id)
        .values(side0_tricks=side0_tricks, finished_at=at)
    )


def finished_work(core: TableCore, at: float) -> InTransaction | None:
    """What the end of ``core``'s game stores for its club event, in the transaction that stores
    the end: the tricks of its one hand (None for a table that plays no event's board)."""
    if core.table.event is None:
        return None
    game = core.game
    if not isinstance(game, OmiGame):  # a board is a hand of Omi (club.BOARD_RULES)
        raise TypeError(f"table {core.id} plays an event's board but is not an Omi game")
    tricks = int(game.results[-1]["tricks"][0])
    return functools.partial(finish, table_id=core.id, side0_tricks=tricks, at=at)


def finished_event_of(conn: Connection, table_id: str) -> str | None:
    """The event whose board ``table_id`` plays, if it is over (every board played at every
    table): its deals are then no secret."""
    row = conn.execute(select(club_boards.c.event_id).where(club_boards.c.table_id == table_id)).first()
    if row is None:
        return None
    event = find_event(conn, row.event_id)
    if event is None or event.tables is None:
        return None
    done = conn.execute(
        select(func.count()).select_from(club_boards)
        .where(club_boards.c.event_id == event.id, club_boards.c.finished_at.is_not(None))
    ).scalar_one()  # fmt: skip
    return event.id if done == event.boards * event.tables else None
