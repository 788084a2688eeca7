"""Bo Haglund's DDS through endplay, as an accelerator for four-player positions.

Omi card play is bridge card play with shorter hands, so DDS solves Omi positions exactly.
Seats 0, 1, 2, 3 (play order) are DDS's North, East, South, West; a card's DDS rank bit is
``1 << rank`` (2-14).  ``SolveBoard`` with ``target=-1, solutions=3`` scores every legal card
with the tricks of the side to move from the start of the trick in progress, which is the
count :func:`bistrot.omi.dd.solve` returns.

Only endplay's ctypes binding of DDS (``endplay/_dds``, standard library only) is loaded, on
first use: importing the whole ``endplay`` package also imports its dealer and plotting
modules (matplotlib), which takes over a second.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

from bistrot.cards import SUIT_BITS
from bistrot.omi.dd.position import Position

_lock = threading.Lock()
_dds: ModuleType | None = None
_import_error: str | None = None


def _load_binding() -> ModuleType:
    """endplay's DDS binding, loaded from its file when possible, without the rest of endplay."""
    loaded = sys.modules.get("endplay._dds")
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec("endplay")
    if spec is None:
        raise ImportError("No module named 'endplay'")
    for folder in spec.submodule_search_locations or ():
        path = Path(folder) / "_dds" / "__init__.py"
        if path.is_file():
            binding = importlib.util.spec_from_file_location("bistrot_endplay_dds", path)
            if binding is not None and binding.loader is not None:
                module = importlib.util.module_from_spec(binding)
                binding.loader.exec_module(module)
                return module
    import endplay._dds as dds  # another layout: the ordinary (slower) import

    return dds


def _module() -> ModuleType | None:
    global _dds, _import_error
    if _dds is None and _import_error is None:
        try:
            _dds = _load_binding()
        except Exception as err:  # ImportError, or a DDS library that fails to load
            _import_error = f"{type(err).__name__}: {err}"
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
    return bool(future.cards > 0 and future.score[0] >= tricks)
