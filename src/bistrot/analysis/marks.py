"""Marks for decisions and an accuracy figure per player, as chess sites give them.

A decision's ``loss`` is what the move played gave away against the best move, in the game's
unit: **tokens** for Omi (the expected tokens of the hand, given what the seat knew), **win
chance** for Oti (0 to 1).  A loss at or above a threshold earns the mark:

========  ============  ===========  ============
game      inaccuracy    mistake      blunder
========  ============  ===========  ============
Omi       0.15 tokens   0.4 tokens   1.0 token
Oti       0.05          0.10         0.20
========  ============  ===========  ============

Omi's thresholds sit above the sampling noise of a loss (paired layouts: a few hundredths of a
token at the default number of layouts); one token is a whole hand's plain win.  Oti's follow
lichess, whose marks are drops of about 5, 10 and 15 points of winning chance, a little wider
at the top because a Monte Carlo chance is noisier than an engine's evaluation.

**Accuracy** of a player over a game: each analysed decision scores ``1 - loss / blunder``
(at least 0: a perfect move 1, a blunder or worse 0, linear between), and the accuracy is the
mean score in percent.  Only analysed decisions count (a forced move proves nothing).  It is
worked out exactly from the losses as reported (decimal fractions), so the same losses give the
same figure on every Python, whatever the order of the decisions or how a version adds floats
(CPython 3.12 and later, so the browser's Pyodide, sum them otherwise than 3.11).

>>> OMI.mark(0.1), OMI.mark(0.5), OMI.mark(2.0), OTI.mark(0.07)
(None, 'mistake', 'blunder', 'inaccuracy')
>>> accuracy(OMI, [0.0, 0.5, 1.5])
50.0
>>> accuracy(OTI, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

#: The marks, from the mildest.
MARKS = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """The losses from which a decision is an inaccuracy, a mistake, a blunder (in ``unit``)."""

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float) -> str | None:
        """The mark a decision losing ``loss`` earns, or None."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None

    def to_dict(self) -> dict[str, float | str]:
        """JSON-ready."""
        return {"unit": self.unit, "inaccuracy": self.inaccuracy, "mistake": self.mistake,
                "blunder": self.blunder}


OMI = Thresholds("tokens", 0.15, 0.4, 1.0)
OTI = Thresholds("win chance", 0.05, 0.10, 0.20)


def accuracy(thresholds: Thresholds, losses: Sequence[float]) -> float | None:
    """The accuracy (percent, one decimal) of a player whose decisions lost ``losses``; None
    without any analysed decision."""
    if not losses:
        return None
    blunder = Fraction(str(thresholds.blunder))
    scores = [max(Fraction(0), 1 - Fraction(str(loss)) / blunder) for loss in losses]
    percent: Fraction = 100 * sum(scores, Fraction(0)) / len(scores)
    return float(round(percent, 1))
