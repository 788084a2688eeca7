"""Double-dummy analysis of Omi card play: every hand open, best play by all.

:func:`solve` gives, for each legal card of the seat to move, the tricks its side takes from
now on (the trick in progress included); :func:`can_reach` answers "can this side still take
N tricks?".  Two solvers give the same answers: the built-in pure-Python one, and Bo
Haglund's DDS through the ``endplay`` package when it is installed (three players through a
phantom fourth hand that never wins a trick, :func:`~.dds_solver.seating`).

>>> from bistrot.cards import CARD_BY_NAME
>>> from bistrot.omi.dd.position import parse_hand
>>> hands = tuple(parse_hand(h) for h in (".AQ..", "K.K..", "AJ...", "Q.J.."))
>>> pos = Position(hands=hands, trump=1)          # hearts trump, seat 0 to lead
>>> values = solve(pos, solver="python")          # the queen first lets the king score
>>> values[CARD_BY_NAME["AH"]], values[CARD_BY_NAME["QH"]]
(2, 1)
>>> can_reach(pos, 2, solver="python"), can_reach(pos, 3, solver="python")
(True, False)
>>> "python" in available_solvers()
True
"""

from __future__ import annotations

from bistrot.omi.dd.dds_solver import Seating, can_reach_dds, dds_available, seating, solve_dds
from bistrot.omi.dd.position import Position, format_hand, parse_hand
from bistrot.omi.dd.python_solver import can_reach_python, solve_python

__all__ = ["SOLVERS", "Position", "available_solvers", "can_reach", "format_hand", "parse_hand", "solve"]

#: The names ``solver=`` accepts.
SOLVERS = ("auto", "python", "dds")


def available_solvers() -> list[str]:
    """The solvers usable here: always ``python``, and ``dds`` when endplay imports."""
    return ["python", "dds"] if dds_available() else ["python"]


def _pick(pos: Position, solver: str) -> tuple[str, Seating | None]:
    """The solver to use, and DDS's table for ``pos`` when ``auto`` already worked it out."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}: use one of {', '.join(SOLVERS)}")
    if solver == "auto":
        table = seating(pos) if dds_available() else None
        return ("python", None) if table is None else ("dds", table)
    return solver, None


def solve(pos: Position, solver: str = "auto") -> dict[int, int]:
    """For each legal card of the seat to move, the tricks its side takes from now on.

    The trick in progress counts; every player plays their best, all hands open.  ``solver``
    is ``auto`` (DDS when endplay is installed and DDS can seat the position, else the built-in
    solver), ``python`` or ``dds``.  Keys are card ints; equal cards have equal values.
    """
    name, table = _pick(pos, solver)
    if name == "dds":
        return solve_dds(pos, table)
    return solve_python(pos)


def can_reach(pos: Position, tricks: int, solver: str = "auto") -> bool:
    """Can the side to move take at least ``tricks`` tricks from now on, with best play by all?"""
    name, table = _pick(pos, solver)
    if name == "dds":
        return can_reach_dds(pos, tricks, table)
    return can_reach_python(pos, tricks)
