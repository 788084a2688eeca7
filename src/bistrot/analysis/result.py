"""What an analysis finds: one :class:`Decision` per decision judged, a :class:`PlayerSummary`
per seat, gathered in an :class:`Analysis` that turns into the JSON ``bistrot analyze --json``
prints.

>>> from bistrot.analysis.marks import OMI
>>> move = Decision(index=3, seat=1, action="play TH", best=["play AH"], loss=0.5,
...     values={"play AH": 1.0, "play TH": 0.5}, kind="card", mark="mistake", dd_loss=1)
>>> found = Analysis("omi", OMI, [move], samples=8, seed=0, over=True, double_dummy=True)
>>> found.players[1].accuracy, found.players[0].accuracy
(50.0, None)
>>> found.to_dict()["moves"][0]["dd_loss"], found.to_dict()["players"]["1"]["mistakes"]
(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bistrot.analysis.marks import Thresholds, accuracy

Progress = Callable[[int, int], None]
"""Called after each decision analysed with ``(done, total)``."""

#: Decimals kept in losses and values.
DIGITS = 4


@dataclass(frozen=True)
class Decision:
    """One decision judged.

    ``index`` is the action's place among the record's actions (from 0); ``best`` the best
    actions (for an Omi card, double dummy; else by the seat's knowledge); ``loss`` (>= 0) what
    the action gave away against the best, given what the seat knew (tokens for Omi, win
    chance for Oti); ``values`` each legal action's expected worth on that scale; ``kind`` is
    ``trump``, ``card`` or ``kapothi`` (Omi) or ``move`` (Oti).  Omi card plays add ``dd_loss``
    (tricks lost against the best card with every hand open) and ``dd_tricks`` (each legal
    card's tricks from there), and ``best_expected``, the best cards by the seat's knowledge.
    """

    index: int
    seat: int
    action: str
    best: list[str]
    loss: float
    values: dict[str, float]
    kind: str
    mark: str | None = None
    dd_loss: int | None = None
    dd_tricks: dict[str, int] | None = None
    best_expected: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; the double-dummy keys only where they apply."""
        found: dict[str, Any] = {
            "index": self.index, "seat": self.seat, "action": self.action, "kind": self.kind,
            "best": list(self.best), "loss": round(self.loss, DIGITS), "mark": self.mark,
            "values": {a: round(v, DIGITS) for a, v in self.values.items()},
        }
        if self.dd_loss is not None:
            found["dd_loss"] = self.dd_loss
        if self.dd_tricks is not None:
            found["dd_tricks"] = dict(self.dd_tricks)
        if self.best_expected is not None:
            found["best_expected"] = list(self.best_expected)
        return found


@dataclass(frozen=True)
class PlayerSummary:
    """A seat's game: decisions analysed, marks earned, accuracy (see :mod:`.marks`)."""

    seat: int
    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int
    accuracy: float | None
    dd_loss: int | None = None
    """Omi: the tricks lost double dummy over the seat's analysed card plays."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        found: dict[str, Any] = {
            "accuracy": self.accuracy, "decisions": self.decisions, "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes, "blunders": self.blunders,
        }
        if self.dd_loss is not None:
            found["dd_loss"] = self.dd_loss
        return found


@dataclass
class Analysis:
    """A game's analysis: its decisions in order and each seat's summary."""

    game: str
    thresholds: Thresholds
    moves: list[Decision]
    samples: int
    seed: int
    over: bool
    players: dict[int, PlayerSummary] = field(default_factory=dict)
    seats: int = 0
    draws: str = "deals"
    """What ``samples`` counts: Omi's ``layouts`` of the unseen cards, Oti's ``deals``."""
    double_dummy: bool = False
    """Whether card plays are also judged with every hand open (``dd_loss``, in tricks)."""

    def __post_init__(self) -> None:
        seats = max([self.seats - 1, *(m.seat for m in self.moves)]) + 1
        self.seats = seats
        self.players = {seat: self._summary(seat) for seat in range(seats)}

    def _summary(self, seat: int) -> PlayerSummary:
        mine = [m for m in self.moves if m.seat == seat]
        marks = [m.mark for m in mine]
        dd = [m.dd_loss for m in mine if m.dd_loss is not None]
        return PlayerSummary(
            seat, len(mine), marks.count("inaccuracy"), marks.count("mistake"), marks.count("blunder"),
            accuracy(self.thresholds, [m.loss for m in mine]),
            sum(dd) if self.double_dummy else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``bistrot analyze --json``."""
        return {
            "game": self.game,
            "over": self.over,
            "samples": self.samples,
            "draws": self.draws,
            "double_dummy": self.double_dummy,
            "seed": self.seed,
            "thresholds": self.thresholds.to_dict(),
            "moves": [m.to_dict() for m in self.moves],
            "players": {str(seat): p.to_dict() for seat, p in self.players.items()},
        }


#: Values closer than this are equal (sums of floats).
TIE = 1e-9


def best_and_loss(values: dict[str, float], chosen: str) -> tuple[list[str], float]:
    """The actions of highest value and what ``chosen`` loses against them (>= 0).

    >>> best_and_loss({"play AH": 1.0, "play TH": 0.25, "play 9H": 1.0}, "play TH")
    (['play AH', 'play 9H'], 0.75)
    """
    top = max(values.values())
    best = [action for action, value in values.items() if value >= top - TIE]
    loss = top - values[chosen]
    # Rounded as reported: the mark and the accuracy then follow from the loss shown, and the
    # last bits of a sum (which differ between CPython and the browser's Pyodide, or with the
    # order of a set) cannot tip them over a threshold or a rounding edge.
    return best, 0.0 if loss <= TIE else round(loss, DIGITS)
