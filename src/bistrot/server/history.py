"""Finished games: the history a browser lists, a game's record, and its replay step by step.

Everything here reads the store, never a table in memory: a finished table's rows no longer
change, so any node of a cluster answers alike and nothing is loaded into the room.  A game is
rebuilt through the table core (:class:`~bistrot.tablecore.core.TableCore`: the registry's engine
replaying the stored actions); its record and replay are :mod:`bistrot.tablecore.replay`'s, which
the player's device shares, so no rule of any game is written here.

Who may read a record or a replay (docs/server.md, "History and replays"):

- nobody before the game is over (``not_over``, 409): a record holds the seed, that is every
  hand;
- anyone with the table's id once it is over, except where the deal is a challenge's: the
  next challenger plays that very deal, and the challenge's results page lists the ids of its
  tables.  A table opened from a challenge: nobody, not even its own player (who would read
  every hand, then try again from another browser); the table a challenge was made from: only
  the holders of one of its seat tokens or of its watch key, sent as ``Authorization: Bearer
  <token>`` (``challenge_deal``, 403, otherwise): its player chose to make the challenge.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from bistrot import games
from bistrot.server import club_store
from bistrot.server.protocol import ApiError, broken_table, store_unreadable, unknown_table
from bistrot.server.storage import DamagedRecord, HistoryRow, SeatRecord, Storage, StoredTable
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.plan import OVER
from bistrot.tablecore.replay import not_over

log = logging.getLogger("bistrot.server.history")


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if there is one.

    >>> bearer("Bearer abc"), bearer("bearer  abc "), bearer("Basic abc"), bearer(None)
    ('abc', 'abc', None, None)
    """
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


async def finished_game(storage: Storage, table_id: str, token: str | None) -> TableCore:
    """The finished table ``table_id`` rebuilt, once ``token`` may read it (see the module
    docstring); else ApiError ``unknown_table`` (404), ``not_over`` (409), ``challenge_deal``
    (403), ``broken_table`` (500) or ``storage_error`` (503)."""
    stored = await stored_table(storage, table_id)
    if stored is None:
        raise unknown_table()
    if stored.table.status != OVER:
        raise not_over()
    # Off the event loop: a long match is thousands of actions to replay (a tenth of a second).
    core = await asyncio.to_thread(rebuild, stored)
    if stored.table.challenge is not None:
        # An attempt's deal is the challenge's, which anyone may still play: not even its own
        # player may read it (a finished challenger read every hand, then tried again).
        raise ApiError(
            403,
            "challenge_deal",
            "this game was a challenge's, which others may still play: its record, replay and"
            " analysis are not shown",
        )
    if await _challenge_deal(storage, stored) and not holds(core, token):
        raise ApiError(
            403,
            "challenge_deal",
            "this game's deal is a challenge's, a daily deal's or a club event's: its record and replay go"
            " only to the players and watchers of this table",
        )
    return core


async def stored_table(storage: Storage, table_id: str) -> StoredTable | None:
    """The table ``table_id`` as stored, None if there is none; ApiError ``broken_table`` (500)
    if its rows cannot be read, ``storage_error`` (503) if the store could not be read."""
    if len(table_id) > 64:
        return None
    try:
        return await storage.load_table(table_id)
    except DamagedRecord as err:
        log.error("table %s is damaged: %s", table_id[:6], err)
        raise broken_table() from None
    except Exception as err:
        log.exception("table %s could not be read from the store", table_id[:6])
        raise store_unreadable() from err


def rebuild(stored: StoredTable) -> TableCore:
    """The table's game rebuilt from its stored actions; ApiError ``broken_table`` (500) if they
    cannot be replayed."""
    try:
        return TableCore(stored)
    except Exception as err:  # its rows cannot be replayed
        log.error("table %s cannot be rebuilt: %s: %s", stored.table.id[:6], type(err).__name__, err)
        raise broken_table() from None


def holds(core: TableCore, token: str | None) -> bool:
    """Whether ``token`` is one of the table's seat tokens or its watch key: what proves its
    holder played or watched that very table (a challenge's deal, here and in challenges.py)."""
    return token is not None and core.identify(token) is not None


async def _challenge_deal(storage: Storage, stored: StoredTable) -> bool:
    """Whether the table's deal is a challenge's (opened from one, or one made from it) or a
    daily deal's, which others play too, or a board of a club event still played."""
    table = stored.table
    if table.challenge is not None or table.daily is not None:
        return True
    if table.event is not None:
        return await storage.snapshot(lambda conn: club_store.finished_event_of(conn, table.id)) is None
    return bool(await storage.challenges_from(stored.table.id))


def record_filename(core: TableCore) -> str:
    """The name a downloaded record is saved under.

    >>> from bistrot.tablecore.plan import PlanDefaults, plan_table
    >>> plan = plan_table({"game": "oti", "seed": 5}, PlanDefaults(bot_delay_ms=0))
    >>> plan.table.id = "AbC-d_9xyz"
    >>> record_filename(TableCore(StoredTable(plan.table, plan.seats)))
    'bistrot-oti-AbC-d_.txt'
    """
    return f"bistrot-{core.table.game}-{core.id[:6]}.txt"


def seat_entries(seats: Iterable[SeatRecord]) -> list[dict[str, Any]]:
    """Who sat where at a game, by seat: kind, name, level (no token, no presence)."""
    return [
        {"seat": s.seat, "kind": s.kind, "name": s.name, "level": s.level}
        for s in sorted(seats, key=lambda s: s.seat)
    ]


def history_entry(row: HistoryRow) -> dict[str, Any]:
    """One finished game of ``POST /api/history``: no secret and no card (as ``GET
    /api/tables/{id}``), with its result, winners and times."""
    table = row.table
    entry = games.get(table.game)
    rules = entry.rules_from_dict(dict(table.rules))
    return {
        "table": table.id,
        "game": table.game,
        "mode": table.mode,
        "players": entry.players(rules),
        "rules": rules.to_dict(),
        "seats": seat_entries(row.seats),
        "result": table.result,
        "winners": entry.winners(rules, table.result or {}),
        "created_at": table.created_at,
        "ended_at": row.ended_at,
        "challenge": table.challenge is not None,
    }


async def history(storage: Storage, table_ids: list[str]) -> dict[str, Any]:
    """``POST /api/history``: the finished games among ``table_ids``, the latest ended first
    (unknown ids, unfinished tables and tables of a game this server no longer has are left
    out: the browser asks about every table it remembers)."""
    try:
        rows = await storage.history([t for t in table_ids if len(t) <= 64])
    except Exception as err:
        log.exception("the history could not be read from the store")
        raise store_unreadable() from err
    found = []
    for row in rows:
        try:
            found.append(history_entry(row))
        except ValueError as err:  # another game, or rules this version refuses
            log.warning("table %s left out of a history: %s", row.table.id[:6], err)
    return {"games": found}
