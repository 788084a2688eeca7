"""A challenge's results side by side (``GET /api/challenges/{id}``).

Every game played on a challenge's deal is listed, the original first: its player's name, where
it stands, whether the challenge's seat won, the stored summary and, once it is over, the
game's public facts (the registry's ``facts``: Omi's hands one by one, Oti's order of going out,
cards left and turns), taken from a spectator's view of the finished game.  So nothing in the
answer is a card: the same deal is still to be played by whoever opens the link next, and a
game in play shows only that it is being played.

A finished game never changes, so its facts are kept (a few hundred, least recently asked
dropped first) rather than replayed from the store at every look.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from bistrot import games
from bistrot.server.storage import ChallengeRecord, DamagedRecord, Storage, TableRecord
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


async def challenge_info(
    storage: Storage, record: ChallengeRecord, source: TableRecord, cache: FactsCache
) -> dict[str, Any]:
    """The answer of ``GET /api/challenges/{id}`` (docs/protocol.md): the challenge, and every
    game on its deal with its result and public facts."""
    entry = games.get(source.game)
    rules = entry.rules_from_dict(dict(source.rules))
    results = []
    for row in await storage.challenge_results(record):
        result = row.result if row.status == OVER else None
        results.append(
            {
                "table": row.table,
                "name": row.name,
                "status": row.status,
                "seq": row.seq,
                "won": None if result is None else record.seat in entry.winners(rules, result),
                "summary": result,
                "facts": None if result is None else await finished_facts(storage, row, cache),
            }
        )
    return {
        "challenge": record.id,
        "game": source.game,
        "rules": dict(source.rules),
        "seat": record.seat,
        "players": entry.players(rules),
        "computers": record.computers,
        "results": results,
    }
