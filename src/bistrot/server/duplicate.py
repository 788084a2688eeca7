"""The arithmetic of a duplicate event (docs/events.md): its size, its movement, each board's
dealer and seats, and the matchpoints.

**Boards.** Board ``b`` (numbered from 1) is a fixed deal and a fixed dealer: its seed comes from
the event (:func:`board_seed`), its dealer goes round the table as in bridge (board 1 North,
2 East, 3 South, 4 West, 5 North...).  The engine's dealer is always seat 3, so a board seats its
compass positions where that makes the board's dealer deal (:func:`seat_of`): every table that
plays board ``b`` deals the same cards to the same compass positions, with the same dealer, and
so the same player chooses trumps.

**Movement** (:func:`movement`): a Mitchell movement in which every table plays the same boards in
a round, as clubs that play online do (no board has to travel between tables, so it works for any
number of tables, odd or even).  With ``T`` tables, pair ``t`` sits North-South at table ``t`` all
event long; the East-West pairs are ``T+1 .. 2T`` and move up one table a round.  Round ``r``
plays boards ``r*k+1 .. r*k+k`` (``k`` boards a round).  Every pair plays every board once, and
meets ``min(rounds, T)`` different pairs.  Pairs missing from ``2T`` are the computer's.

**Matchpoints** (:func:`matchpoints`): a side's result on a board is the tricks it took (0 to 8),
compared with every other side that held the same cards (the same direction on that board):
2 for each it beat, 1 for each it tied.  A pair's score is its matchpoints as a percentage of the
most it could have had (the "top" of each board it played, summed); pairs rank by it.

>>> [COMPASS[dealer(b)] for b in range(1, 6)]
['N', 'E', 'S', 'W', 'N']
>>> [seat_of(c, 1) for c in range(4)]  # board 1: North deals, so North is seat 3
[3, 0, 1, 2]
>>> tables_for(3), tables_for(4), tables_for(5)
(2, 2, 3)
>>> [(s.round, s.table, s.ns, s.ew, s.boards) for s in movement(2, 4, 2)]
[(1, 1, 1, 3, (1, 2)), (1, 2, 2, 4, (1, 2)), (2, 1, 1, 4, (3, 4)), (2, 2, 2, 3, (3, 4))]
>>> matchpoints({1: 5, 2: 5, 3: 3})  # NS tricks at tables 1, 2, 3: (NS, EW) matchpoints
{1: (3, 1), 2: (3, 1), 3: (0, 4)}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bistrot.seeding import derive

COMPASS = ("N", "E", "S", "W")
NS, EW = (0, 2), (1, 3)
"""The compass positions of each direction's two players (a pair's first member, then the other)."""
MIN_TABLES, MAX_TABLES = 2, 20
MIN_BOARDS, MAX_BOARDS = 4, 36
MAX_PAIRS = 2 * MAX_TABLES
MIN_PAIRS = 2
TRICKS = 8
"""Tricks in an Omi hand: North-South's and East-West's add up to it."""


def tables_for(pairs: int) -> int:
    """The tables an event of ``pairs`` partnerships plays at: two pairs a table, at least
    :data:`MIN_TABLES` (computers fill what is missing)."""
    return max(MIN_TABLES, -(-pairs // 2))


def dealer(board: int) -> int:
    """The compass position (an index of :data:`COMPASS`) that deals ``board``."""
    return (board - 1) % 4


def seat_of(compass: int, board: int) -> int:
    """The engine's seat of ``compass`` on ``board``: the dealer is seat 3, the others follow in
    play order (so partners, opposite, are two seats apart)."""
    return (compass - dealer(board) + 3) % 4


def compass_of(seat: int, board: int) -> int:
    """The compass position of the engine's ``seat`` on ``board`` (:func:`seat_of` undone).

    >>> all(compass_of(seat_of(c, b), b) == c for c in range(4) for b in range(1, 9))
    True
    """
    return (seat + dealer(board) - 3) % 4


def ns_side(board: int) -> int:
    """The engine's side (0: seats 0 and 2, 1: seats 1 and 3) of North-South on ``board``."""
    return seat_of(0, board) % 2


def board_seed(secret: str, event: str, board: int, bits: int) -> int:
    """The deal of ``board`` of ``event``: from the room's secret, so nobody outside works it out
    before the board is played; ``bits`` wide (a deal code's seed)."""
    return derive(0, "club-event", secret, event, board) >> (64 - bits)


@dataclass(frozen=True)
class Sitting:
    """One table in one round: its two pairs and the boards it plays, in order."""

    round: int
    table: int
    ns: int
    ew: int
    boards: tuple[int, ...]


def rounds_of(boards: int, per_round: int) -> int:
    """Rounds of an event of ``boards`` boards, ``per_round`` a round."""
    return boards // per_round


def movement(tables: int, boards: int, per_round: int) -> list[Sitting]:
    """Every sitting of the event, round by round, table by table (see the module docstring)."""
    out = []
    for r in range(rounds_of(boards, per_round)):
        played = tuple(range(r * per_round + 1, (r + 1) * per_round + 1))
        for t in range(1, tables + 1):
            out.append(Sitting(r + 1, t, t, tables + (t - 1 - r) % tables + 1, played))
    return out


def sitting_of(pair: int, board: int, tables: int, per_round: int) -> Sitting:
    """Where ``pair`` plays ``board``.

    >>> sitting_of(4, 3, 2, 2)
    Sitting(round=2, table=1, ns=1, ew=4, boards=(3, 4))
    """
    r = (board - 1) // per_round
    played = tuple(range(r * per_round + 1, (r + 1) * per_round + 1))
    if pair <= tables:
        return Sitting(r + 1, pair, pair, tables + (pair - 1 - r) % tables + 1, played)
    t = (pair - tables - 1 + r) % tables + 1
    return Sitting(r + 1, t, t, pair, played)


def matchpoints(ns_tricks: Mapping[int, int]) -> dict[int, tuple[int, int]]:
    """The matchpoints of each table's North-South and East-West on one board, from North-South's
    tricks at each table that played it (East-West took the rest)."""
    out = {}
    for table, mine in ns_tricks.items():
        beaten = sum(1 for t, other in ns_tricks.items() if t != table and other < mine)
        tied = sum(1 for t, other in ns_tricks.items() if t != table and other == mine)
        ns = 2 * beaten + tied
        out[table] = (ns, top(len(ns_tricks)) - ns)
    return out


def top(played: int) -> int:
    """The most matchpoints a side can score on a board ``played`` times."""
    return 2 * (played - 1)


@dataclass(frozen=True)
class Standing:
    """A pair's place: its matchpoints, the most it could have had, and its rank."""

    pair: int
    points: int
    top: int
    rank: int

    @property
    def percent(self) -> float:
        """Its matchpoints as a percentage of the top (50 before any comparison)."""
        return 50.0 if self.top == 0 else round(100.0 * self.points / self.top, 2)


def ranking(scores: Mapping[int, Sequence[tuple[int, int]]]) -> list[Standing]:
    """Pairs by percentage, best first, equal percentages sharing a rank: ``scores`` maps a pair
    to its ``(matchpoints, top)`` on each board compared so far.

    >>> [(s.pair, s.percent, s.rank) for s in ranking({1: [(3, 4)], 2: [(1, 4)], 3: [(3, 4)]})]
    [(1, 75.0, 1), (3, 75.0, 1), (2, 25.0, 3)]
    """
    totals = [
        Standing(pair, sum(p for p, _ in boards), sum(t for _, t in boards), 0)
        for pair, boards in scores.items()
    ]
    totals.sort(key=lambda s: (-s.percent, s.pair))
    out: list[Standing] = []
    for place, s in enumerate(totals, 1):
        rank = out[-1].rank if out and out[-1].percent == s.percent else place
        out.append(Standing(s.pair, s.points, s.top, rank))
    return out
