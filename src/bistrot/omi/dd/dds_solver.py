"""Bo Haglund's DDS through endplay, as an accelerator of the built-in solver.

Omi card play is bridge card play with shorter hands, so DDS solves Omi positions exactly.
Seats 0, 1, 2, 3 (play order) are DDS's North, East, South, West; a card's DDS rank bit is
``1 << rank`` (2-14).  ``SolveBoard`` with ``target=-1, solutions=3`` scores every legal card
with the tricks of the side to move from the start of the trick in progress, which is the
count :func:`bistrot.omi.dd.solve` returns.

**Three players** (one seat against the other two) are solved as four: a *phantom* fourth
hand sits as the lone seat's partner, between the other two (:func:`seating`), and holds only
low cards of side suits, below every card still in play in each of its suits.  It never holds
a trump and never has a card that beats the card led, so it never wins a trick, never leads,
and changes nothing: the lone seat's side takes exactly the tricks the lone seat takes.

Only endplay's ctypes binding of DDS (``endplay/_dds``, standard library only) is loaded, on
first use: importing the whole ``endplay`` package also imports its dealer and plotting
modules (matplotlib), which takes over a second.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from bistrot.cards import SUIT_BITS
from bistrot.omi.dd.position import FOUR_PLAYER_SIDES, Position

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


@dataclass(frozen=True)
class Seating:
    """Where the seats of a position sit at DDS's four-hand table (see the module docstring).

    ``hands`` and ``trick`` are DDS's (seat by seat, and the trick in progress from its
    leader), in DDS seats 0-3; ``seat_of[s]`` is the DDS seat of the position's seat ``s``.
    """

    hands: tuple[int, int, int, int]
    trick: tuple[int, ...]
    first: int
    seat_of: tuple[int, ...]


def seating(pos: Position) -> Seating | None:
    """The four-hand table DDS solves for ``pos``, or None when DDS cannot solve it: four
    players not in partnerships 0 & 2 against 1 & 3, or three players with too few low side
    cards free for the phantom (only with decks other than Omi's).

    >>> from bistrot.omi.dd.position import format_hand, parse_hand
    >>> hands = tuple(parse_hand(h) for h in ("AK...", "Q.A..", "J.T.."))
    >>> table = seating(Position(hands=hands, trump=1, players=3))  # seat 0 alone, hearts trump
    >>> table.seat_of, format_hand(table.hands[2])  # the phantom, South: spades below the jack
    ((0, 1, 3), '32...')
    """
    if pos.players == 4:
        if pos.sides != FOUR_PLAYER_SIDES:
            return None
        first = pos.trick[0][0] if pos.trick else pos.to_move
        hands4 = (pos.hands[0], pos.hands[1], pos.hands[2], pos.hands[3])
        return Seating(hands4, tuple(card for _, card in pos.trick), first, (0, 1, 2, 3))
    sides = pos.sides
    assert sides is not None
    lone = next(seat for seat in range(3) if sides.count(sides[seat]) == 1)
    # DDS seats: the lone seat North, the next East, the phantom South, the last West.
    seat_of = [0, 0, 0]
    for step, dds_seat in enumerate((0, 1, 3)):
        seat_of[(lone + step) % 3] = dds_seat
    first = seat_of[pos.trick[0][0]] if pos.trick else seat_of[pos.to_move]
    turn = seat_of[pos.to_move]
    led = pos.trick[0][1] // SUIT_BITS if pos.trick else None
    # as many cards as the seat to move holds; if the phantom has played to this trick, one is that card
    cards = _phantom_cards(pos, pos.tricks_left, avoid=led)
    if cards is None:
        return None
    phantom = sum(1 << c for c in cards)
    trick = []
    by_seat = dict(pos.trick)
    seat_at = {dds_seat: seat for seat, dds_seat in enumerate(seat_of)}
    for k in range((turn - first) % 4):
        dds_seat = (first + k) % 4
        if dds_seat == 2:
            trick.append(cards[0])  # a discard: the phantom holds none of the suit led
            phantom &= ~(1 << cards[0])
        else:
            trick.append(by_seat[seat_at[dds_seat]])
    hands = [0, 0, 0, 0]
    for seat, dds_seat in enumerate(seat_of):
        hands[dds_seat] = pos.hands[seat]
    hands[2] = phantom
    return Seating((hands[0], hands[1], hands[2], hands[3]), tuple(trick), first, tuple(seat_of))


def _phantom_cards(pos: Position, count: int, avoid: int | None) -> list[int] | None:
    """``count`` cards for the phantom: side suits only (not ``avoid``, the suit led), each
    below every card of its suit still in play, as few suits as may be; None if too few."""
    in_play = 0
    for hand in pos.hands:
        in_play |= hand
    for _, card in pos.trick:
        in_play |= 1 << card
    cards: list[int] = []
    for suit in range(4):
        if suit in (pos.trump, avoid):
            continue
        held = (in_play >> (SUIT_BITS * suit)) & ((1 << SUIT_BITS) - 1)
        lowest = (held & -held).bit_length() - 1 if held else SUIT_BITS
        cards.extend(SUIT_BITS * suit + rank for rank in range(lowest))
        if len(cards) >= count:
            return cards[:count]
    return None


def _deal(dds: ModuleType, table: Seating, trump: int) -> Any:
    deal = dds.deal()
    deal.trump = trump
    deal.first = table.first
    for i in range(3):
        deal.currentTrickSuit[i] = 0
        deal.currentTrickRank[i] = 0
    for i, card in enumerate(table.trick):
        deal.currentTrickSuit[i] = card // SUIT_BITS
        deal.currentTrickRank[i] = card % SUIT_BITS + 2
    for seat, hand in enumerate(table.hands):
        for suit in range(4):
            deal.remainCards[seat][suit] = ((hand >> (SUIT_BITS * suit)) & 0x1FFF) << 2
    return deal


def _table(pos: Position) -> Seating:
    table = seating(pos)
    if table is None:
        raise ValueError(
            "the 'dds' solver handles four players in two partnerships (0 & 2, 1 & 3), or three "
            "players with the low side cards of a 24-card deck free; use solver='python'"
        )
    return table


def solve_dds(pos: Position, table: Seating | None = None) -> dict[int, int]:
    """Tricks the side to move takes from now on after each legal card, by DDS (``table``:
    :func:`seating` of ``pos``, when the caller has it already)."""
    dds = _require()
    deal = _deal(dds, table or _table(pos), pos.trump)
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


def can_reach_dds(pos: Position, tricks: int, table: Seating | None = None) -> bool:
    """Can the side to move take at least ``tricks`` from now on?  (DDS with a target; ``table``
    as for :func:`solve_dds`.)"""
    dds = _require()
    table = table or _table(pos)
    if tricks <= 0:
        return True
    if tricks > pos.tricks_left:
        return False
    future = dds.futureTricks()
    deal = _deal(dds, table, pos.trump)
    with _lock:
        dds.SolveBoard(deal, tricks, 1, 1, future, 0)
    return bool(future.cards > 0 and future.score[0] >= tricks)
