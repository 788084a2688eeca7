"""After a table's game: whether it is rated and how it ranks, its rematch, a challenge from it.

A part of :class:`~bistrot.tablecore.core.TableCore` (see :mod:`bistrot.tablecore.base`).
"""

from __future__ import annotations

from typing import Any

from bistrot.tablecore.base import CoreBase
from bistrot.tablecore.plan import COMPUTER, HUMAN
from bistrot.tablecore.values import Out


class AfterGame(CoreBase):
    """Ratings, rematch and challenge."""

    @property
    def rated(self) -> bool:
        """Whether this table's game counts for ratings: a public table (the lobby's, a quick
        match's) every person at which has a profile.  Computer players count as fixed anchors."""
        people = [s.record for s in self.seats if s.record.kind == HUMAN]
        ranked = self.entry.places is not None  # the game declares a rated ranking
        return ranked and self.table.public and bool(people) and all(p.profile for p in people)

    def rated_places(self, result: dict[str, Any]) -> list[dict[str, Any]] | None:
        """What a rating of this finished game ranks (None if it is not :attr:`rated`): each seat's
        ``profile`` (a person) or ``level`` (a computer player), its ``team`` and its ``place``
        (0 first, equal places tie).  A person away at the end (their grace ran out, and they were
        not back) is placed last, with their team: in Omi their team loses.

        >>> from bistrot.tablecore.core import TableCore
        >>> from bistrot.tablecore.records import StoredTable
        >>> from bistrot.tablecore.plan import PlanDefaults, plan_table
        >>> plan = plan_table({"game": "oti", "mode": "friends", "public": True, "rules": {"players": 2},
        ...                    "bots": {"1": "hard"}}, PlanDefaults(), profile="p" * 16)
        >>> core = TableCore(StoredTable(plan.table, plan.seats))
        >>> [(p["profile"], p["level"], p["place"]) for p in core.rated_places({"ranking": [1, 0]})]
        [('pppppppppppppppp', None, 1), (None, 'hard', 0)]
        """
        ranking = self.entry.places
        if ranking is None or not self.rated:
            return None
        places = ranking(self.rules, result)
        teams = self.entry.teams(self.rules) or list(range(self.players))
        last = max(places) + 1
        for i, s in enumerate(self.seats):
            if s.record.kind == HUMAN and s.away:
                places = [last if teams[j] == teams[i] else place for j, place in enumerate(places)]
        # Places counted again without gaps: whoever finished ahead of only the absent is first.
        distinct = sorted(set(places))
        places = [distinct.index(place) for place in places]
        return [
            {
                "seat": i,
                "profile": s.record.profile if s.record.kind == HUMAN else None,
                "level": None if s.record.kind == HUMAN else s.record.level,
                "team": teams[i],
                "place": places[i],
            }
            for i, s in enumerate(self.seats)
        ]

    def mark_rematch(self, new_id: str) -> Out:
        """The rematch is open at table ``new_id``: everyone here is told."""
        self.table.rematch = new_id
        return self.broadcast()

    def challenge_computers(self, seat: int) -> list[dict[str, Any]]:
        """The computer players a challenge from ``seat`` sits the challenger with: the same
        levels at the computer seats, the replacement level at the people's."""
        replacement = self.entry.level_or_weaker(self.entry.default_level)
        return [
            {"seat": s.record.seat, "level": s.record.level if s.record.kind == COMPUTER else replacement}
            for s in self.seats
            if s.record.seat != seat
        ]
