"""A challenge's results side by side (``GET /api/challenges/{id}``).

Every game played on a challenge's deal is listed, the original first: its player's name, where
it stands, whether the challenge's seat won and the stored summary (the headline: "Ama won 10:4
in 9 hands").  Nothing in the answer is a card: the same deal is still to be played by whoever
opens the link next, and a game in play shows only that it is being played.

A finished game's public facts (the registry's ``facts``: Omi's hands one by one, who chose
which trump and how each hand went; Oti's order of going out, cards left and turns), taken from
a spectator's view of it, go only to a caller who has finished a game on this deal: one who
names a table of this challenge (its original game, or one opened from it) whose game is over,
with a seat token or the watch key of that table (:func:`facts_shown`).  Before that they would
spoil the challenge: the trumps the computer players chose tell of hands the caller is about to
play against.

A finished game never changes, so its facts are kept (a few hundred, least recently asked
dropped first) rather than replayed from the store at every look.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from bistrot.server import history
from bistrot.server.protocol import ApiError
from bistrot.server.storage import ChallengeRecord, DamagedRecord, Storage
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.plan import OVER
from bistrot.tablecore.records import ResultRow

log = logging.getLogger("bistrot.server.challenges")

#: Finished games whose facts are kept in memory.
FACTS_KEPT = 512


class FactsCache:
    """The public facts of finished games by table id, at most ``size`` of them."""

    def __init__(self, size: int = FACTS_KEPT) -> None:
        self.size = size
        self._facts: OrderedDict[str, dict[str, Any] | None] = OrderedDict()

    def get(self, table_id: str) -> tuple[bool, dict[str, Any] | None]:
        """``(known, facts)``."""
        if table_id not in self._facts:
            return False, None
        self._facts.move_to_end(table_id)
        return True, self._facts[table_id]

    def put(self, table_id: str, facts: dict[str, Any] | None) -> None:
        """Keep ``facts``, dropping the least recently asked beyond the size."""
        self._facts[table_id] = facts
        self._facts.move_to_end(table_id)
        while len(self._facts) > self.size:
            self._facts.popitem(last=False)


async def finished_facts(storage: Storage, row: ResultRow, cache: FactsCache) -> dict[str, Any] | None:
    """The public facts of the finished game of ``row`` (None while it is played, or if its
    game cannot be rebuilt: the summary is still shown)."""
    if row.status != OVER:
        return None
    known, facts = cache.get(row.table)
    if known:
        return facts
    try:
        stored = await storage.load_table(row.table)
        if stored is None:
            return None
        core = TableCore(stored)
        # A spectator's view: what anybody may see of the table, the registry's facts from it.
        facts = core.entry.finished_facts(core.view(core.game, None))
    except (DamagedRecord, ValueError) as err:
        log.warning("challenge results: table %s cannot be rebuilt: %s", row.table[:6], err)
        return None
    cache.put(row.table, facts)
    return facts


def asked_with(table: str | None, token: str | None) -> str | None:
    """The table a request names to be shown the facts (None: it names none, and a token alone
    is ignored, as wherever the API needs none); ApiError ``missing_token`` (403) for a table
    named without a token: the request is malformed, it is refused rather than answered as if
    the table had not been named."""
    if table is not None and token is None:
        raise ApiError(
            403,
            "missing_token",
            "a table named with ?table= goes with a seat token or the watch key of that table,"
            " as Authorization: Bearer <token>",
        )
    return table


async def facts_shown(
    storage: Storage, record: ChallengeRecord, table: str | None, token: str | None
) -> bool:
    """Whether the caller is shown the facts of the challenge's games: it names ``table``, the
    challenge's source or a table opened from it, holds ``token`` of it (a seat's or its watch
    key) and that table's game is over.  A table of this challenge still being played: False.
    Refused, nothing changed: ``not_challenge_table`` (403) for a table that is not this
    challenge's (or no table at all: the same answer, whatever the token, so that it tells
    nothing of any other table or token), ``bad_token`` (403) for a token that is neither a seat
    token nor the watch key of this table.  Only the named table is read."""
    if table is None:
        return False
    stored = await history.stored_table(storage, table)
    if stored is None or not (stored.table.id == record.table or stored.table.challenge == record.id):
        raise ApiError(
            403,
            "not_challenge_table",
            "this table was not played on this challenge's deal: name its original game or a"
            " table opened from this challenge",
        )
    if not history.holds(history.rebuild(stored), token):
        raise ApiError(403, "bad_token", "this token holds no seat at this table and is not its watch key")
    return stored.table.status == OVER


async def challenge_info(
    storage: Storage, record: ChallengeRecord, source: TableCore, cache: FactsCache, shown: bool
) -> dict[str, Any]:
    """The answer of ``GET /api/challenges/{id}`` (docs/protocol.md): the challenge, and every
    game on its deal with its result, and with its public facts if ``shown``
    (:func:`facts_shown`; otherwise the results have no ``facts`` at all)."""
    entry = source.entry
    rules = source.rules
    results = []
    for row in await storage.challenge_results(record):
        result = row.result if row.status == OVER else None
        line: dict[str, Any] = {
            "table": row.table,
            "name": row.name,
            "status": row.status,
            "seq": row.seq,
            "won": None if result is None else record.seat in entry.winners(rules, result),
            "summary": result,
        }
        if row.table == record.table:
            # Who played the original game: its other seats may have been people (an attempt's
            # are the challenge's computers, which the answer lists).
            line["seats"] = history.seat_entries(s.record for s in source.seats)
        if shown:
            line["facts"] = None if result is None else await finished_facts(storage, row, cache)
        results.append(line)
    return {
        "challenge": record.id,
        "game": source.table.game,
        "rules": dict(source.table.rules),
        "seat": record.seat,
        "players": entry.players(rules),
        "computers": record.computers,
        # Who acts first on this deal, as anyone sitting down sees at once (Omi: the first
        # trump's chooser); not a fact of how any game went.
        "first_to_move": source.rebuilt(0).to_move,
        "facts_shown": shown,
        "results": results,
    }
