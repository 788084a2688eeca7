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

from bistrot.engine import Game
from bistrot.games import GameEntry
from bistrot.ruleset import Ruleset
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.delta import diff, patched
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import OVER


def not_over() -> TableError:
    """The refusal of a record or a replay before the end (HTTP 409)."""
    text = "a game's record and replay are given once it is over: they show every hand"
    return TableError("not_over", text, 409)


def no_analysis(entry: GameEntry) -> TableError | None:
    """The refusal of an analysis of ``entry``'s games if its registry entry provides none (HTTP
    409, ``no_analysis``), else None.

    >>> from bistrot import games
    >>> no_analysis(games.get("omi")) is None
    True
    """
    if entry.capabilities["analysis"]:
        return None
    return TableError("no_analysis", f"{entry.title} games have no analysis in this card room", 409)


def require_analysis(core: TableCore) -> None:
    """Refuse (:func:`no_analysis`) the analysis of ``core``'s game unless its game has one."""
    refused = no_analysis(core.entry)
    if refused is not None:
        raise refused


def record_of(core: TableCore) -> str:
    """The record of the finished game (docs/records.md), as ``bistrot analyze`` reads it."""
    if core.status != OVER:
        raise not_over()
    text: str = core.game.record()
    return text


def replay_view(core: TableCore, game: Game[Ruleset]) -> dict[str, Any]:
    """What the replay shows of ``game``: the spectators' view, with ``hands``, every seat's hand
    as that seat saw it then."""
    view = core.view(game, None)
    view["hands"] = [core.view(game, seat)["hand"] for seat in range(core.players)]
    return view


def replay_of(core: TableCore) -> dict[str, Any]:
    """The finished game: its facts, the ``start`` view, then one step per action of the record
    (its ``index`` counts the record's actions from 0; ``seq`` is the table's) with its
    ``change``: the :mod:`~bistrot.tablecore.delta` patch from the view before that action to
    the view after it (docs/protocol.md, "Finished games").  Whole views would repeat the match's
    history of hands at every step: a long match's replay would be tens of megabytes.

    >>> from bistrot.tablecore.plan import PlanDefaults, plan_table
    >>> from bistrot.tablecore.records import EventRecord, StoredTable
    >>> from bistrot.omi import OmiGame, OmiRules
    >>> game = OmiGame.new(OmiRules(target=1), seed=3)
    >>> while not game.is_over:
    ...     game.apply(game.legal_actions()[0])
    >>> plan = plan_table({"game": "omi", "mode": "hotseat", "seed": 3, "rules": {"target": 1}},
    ...                   PlanDefaults(bot_delay_ms=0))
    >>> plan.table.seq, plan.table.status = len(game.actions), OVER
    >>> events = [EventRecord(i, s, a, "human", None, 0.0) for i, (s, a) in enumerate(game.actions, 1)]
    >>> replay = replay_of(TableCore(StoredTable(plan.table, plan.seats, events)))
    >>> views = replay_views(replay)
    >>> len(views) == len(replay["steps"]) + 1, views[-1]["is_over"], views[-1]["hands"] == [[]] * 4
    (True, True, True)
    """
    if core.status != OVER:
        raise not_over()
    game = core.rebuilt(0)
    start = before = replay_view(core, game)
    steps = []
    for index, event in enumerate(core.history):
        game.apply(event.action, seat=event.actor)
        after = replay_view(core, game)
        steps.append(
            {
                "index": index,
                "seq": event.seq,
                "seat": event.actor,
                "action": event.action,
                "by": event.by,
                "change": diff(before, after),
            }
        )
        before = after
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


def replay_views(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """Every view of a replay (:func:`replay_of`'s answer), the ``start`` first: each step's
    ``change`` applied to the view before it, as the page does (``js/delta.js``)."""
    views = [replay["start"]]
    for step in replay["steps"]:
        views.append(patched(views[-1], step["change"]))
    return views
