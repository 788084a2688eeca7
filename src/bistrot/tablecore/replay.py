"""A finished game step by step, every hand shown, and its record: what a replay page draws.

Sans-I/O, on a :class:`~bistrot.tablecore.core.TableCore`, so that the server
(:mod:`bistrot.server.history`) and the player's device (:mod:`bistrot.local`) answer alike.  The
game is replayed by the registry's engine from the table's stored actions: no rule of any game is
written here.  Both refuse a game that is not over (``not_over``): a record, and a view with every
hand, would show the cards still hidden.

>>> from bistrot.tablecore.plan import PlanDefaults, plan_table
>>> from bistrot.tablecore.records import StoredTable
>>> plan = plan_table({"game": "omi", "seed": 5}, PlanDefaults(bot_delay_ms=0))
>>> try:
...     replay_of(TableCore(StoredTable(plan.table, plan.seats)))
... except TableError as err:
...     print(err.code, err.status)
not_over 409
"""

from __future__ import annotations

from typing import Any

from bistrot.tablecore.core import TableCore
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import OVER


def not_over() -> TableError:
    """The refusal of a record or a replay before the end (HTTP 409)."""
    text = "a game's record and replay are given once it is over: they show every hand"
    return TableError("not_over", text, 409)


def record_of(core: TableCore) -> str:
    """The record of the finished game (docs/records.md), as ``bistrot analyze`` reads it."""
    if core.status != OVER:
        raise not_over()
    text: str = core.game.record()
    return text


def replay_view(core: TableCore, game: Any) -> dict[str, Any]:
    """What the replay shows of ``game``: the spectators' view, with ``hands``, every seat's hand
    as that seat saw it then."""
    view = core.view(game, None)
    view["hands"] = [core.view(game, seat)["hand"] for seat in range(core.players)]
    return view


def replay_of(core: TableCore) -> dict[str, Any]:
    """The finished game: its facts, the ``start`` view, then one step per action of the record
    (its ``index`` counts the record's actions from 0; ``seq`` is the table's) with the view as it
    stood after that action (docs/protocol.md, "Finished games")."""
    if core.status != OVER:
        raise not_over()
    game = core.rebuilt(0)
    start = replay_view(core, game)
    steps = []
    for index, event in enumerate(core.history):
        game.apply(event.action, seat=event.actor)
        steps.append(
            {
                "index": index,
                "seq": event.seq,
                "seat": event.actor,
                "action": event.action,
                "by": event.by,
                "view": replay_view(core, game),
            }
        )
    table = core.table
    # Nobody is connected to a replay: every seat is shown present.
    seats = [{**info, "connected": True, "away": False} for info in core.seats_info(None)]
    return {
        "table": table.id,
        "game": table.game,
        "mode": table.mode,
        "players": core.players,
        "rules": core.rules.to_dict(),
        "seats": seats,
        "result": table.result,
        "winners": core.entry.winners(core.rules, table.result or {}),
        "start": start,
        "steps": steps,
    }
