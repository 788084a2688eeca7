"""Bo Haglund's DDS through endplay, as an accelerator for four-player positions.

Omi card play is bridge card play with shorter hands, so DDS solves Omi positions exactly.
Seats 0, 1, 2, 3 (play order) are DDS's North, East, South, West; a card's DDS rank bit is
``1 << rank`` (2-14).  ``SolveBoard`` with ``target=-1, solutions=3`` scores every legal card
with the tricks of the side to move from the start of the trick in progress, which is the
count :func:`bistrot.omi.dd.solve` returns.  endplay is imported only when first used.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import Any

from bistrot.cards import SUIT_BITS
from bistrot.omi.dd.position import Position

_lock = threading.Lock()
_dds: ModuleType | None = None
_import_error: str | None = None


def _module() -> ModuleType | None:
    global _dds, _import_error
    if _dds is None and _import_error is None:
        try:
            import endplay._dds as dds
        except Exception as err:  # ImportError, or a DDS library that fails to load
            _import_error = f"{type(err).__name__}: {err}"
        else:
            _dds = dds
    return _dds


def dds_available() -> bool:
    """Whether endplay (and so DDS) can be imported here."""
    return _module() is not None


def _require() -> ModuleType:
    dds = _module()
    if dds is None:
        raise RuntimeError(
            "the 'dds' solver needs the endplay package (pip install endplay), which could not be "
            f"imported here ({_import_error}); use solver='python' or 'auto'"
        )
    return dds


def _deal(dds: ModuleType, pos: Position) -> Any:
    deal = dds.deal()
    deal.trump = pos.trump
    deal.first = pos.trick[0][0] if pos.trick else pos.to_move
    for i in range(3):
        deal.currentTrickSuit[i] = 0
        deal.currentTrickRank[i] = 0
    for i, (_, card) in enumerate(pos.trick):
        deal.currentTrickSuit[i] = card // SUIT_BITS
        deal.currentTrickRank[i] = card % SUIT_BITS + 2
    for seat, hand in enumerate(pos.hands):
        for suit in range(4):
            deal.remainCards[seat][suit] = ((hand >> (SUIT_BITS * suit)) & 0x1FFF) << 2
    return deal


def _check_players(pos: Position) -> None:
    if pos.players != 4 or pos.sides != (0, 1, 0, 1):
        raise ValueError("the 'dds' solver handles four players in two partnerships (0 & 2, 1 & 3) only")


def solve_dds(pos: Position) -> dict[int, int]:
    """Tricks the side to move takes from now on after each legal card, by DDS."""
    dds = _require()
    _check_players(pos)
    deal = _deal(dds, pos)
    future = dds.futureTricks()
    with _lock:
        dds.SolveBoard(deal, -1, 3, 1, future, 0)
    values: dict[int, int] = {}
    for i in range(future.cards):
        score = future.score[i]
        base = SUIT_BITS * future.suit[i]
        holding = (1 << future.rank[i]) | future.equals[i]
        for rank in range(2, 15):
            if holding >> rank & 1:
                values[base + rank - 2] = score
    legal = pos.legal_cards()
    missing = [c for c in range(52) if legal >> c & 1 and c not in values]
    if missing or len(values) != legal.bit_count():
        raise RuntimeError(f"DDS did not score every legal card of {pos}: got {sorted(values)}")
    return values


def can_reach_dds(pos: Position, tricks: int) -> bool:
    """Can the side to move take at least ``tricks`` from now on?  (DDS with a target.)"""
    dds = _require()
    _check_players(pos)
    if tricks <= 0:
        return True
    if tricks > pos.tricks_left:
        return False
    future = dds.futureTricks()
    deal = _deal(dds, pos)
    with _lock:
        dds.SolveBoard(deal, tricks, 1, 1, future, 0)
    return future.cards > 0 and future.score[0] >= tricks
