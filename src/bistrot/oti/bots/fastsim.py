"""Fast playouts for search: the rules and the medium player's rules of thumb on value counts
(with its play against a next player down to face-up or face-down cards, but not its
``voluntary_pickup`` habit of picking up a small pile rather than spend a magic card).

Suits never matter in Oti, so a playout keeps, for each player, how many cards of each value
(2-14) they hold in hand and face up, and lists of values for the face-down cards, the draw pile
and the pile.  The whole game loop is one function with local variables: several times faster
than driving :class:`~bistrot.oti.game.OtiGame` with :func:`~bistrot.oti.bots.policy.choose_play`,
and it plays the same moves (``tests/test_oti_bots.py`` checks the two agree).

Instead of the engine's repetition rule a playout stops when nothing irreversible has happened
for :data:`STALL` moves (no card drawn, burnt, turned or played face up, nobody out): the
players are then going round in circles and the cards left decide.

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.from_position(OtiRules(players=2), ["5D QD", ""], ["", "KC"], ["", ""],
...     pile="2C")
>>> start = Start.of(game)
>>> start.playout(0, (PLAY, 5, 1)), start.playout(0, (PLAY, 12, 1))
(1.0, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from bistrot.oti.bots.policy import BIG_PILE, HIGH, LOW, beats_of
from bistrot.oti.game import OtiGame
from bistrot.oti.values import RANK_OF

PLAY, PICKUP, FLIP = 0, 1, 2
STALL = 150
MAX_MOVES = 2000
_PLAIN_FROM: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(max(need, 3), 15) if r not in (5, 10)) for need in range(15)
)
_LOW_VALUES = tuple(r for r in range(3, LOW) if r != 5)


def _counts(mask: int) -> list[int]:
    counts = [0] * 15
    while mask:
        low = mask & -mask
        counts[RANK_OF[low.bit_length() - 1]] += 1
        mask ^= low
    return counts


@dataclass
class Start:
    """A position to play out from, in value counts (see the module docstring)."""

    hands: list[list[int]]
    ups: list[list[int]]
    downs: list[list[int]]
    """Face-down values, the next one to turn last."""
    draw: list[int]
    """Draw pile values, the next one to draw last."""
    pile: list[int]
    out: list[int]
    to_move: int
    ten_plays_again: bool
    play_to_last: bool

    @classmethod
    def of(cls, game: OtiGame) -> Start:
        """The position of a game in the play phase."""
        assert game.to_move is not None
        return cls(
            [_counts(h) for h in game.hands],
            [_counts(u) for u in game.up],
            [[RANK_OF[c] for c in reversed(d)] for d in game.down],
            [RANK_OF[c] for c in reversed(game.draw[game.draw_pos:])],
            [RANK_OF[c] for c in game.pile],
            list(game.out),
            game.to_move,
            game.rules.ten_plays_again,
            game.rules.play_to_last,
        )

    def playout(self, me: int, first: tuple[int, int, int] | None = None) -> float:
        """Play to the end from here (``first``: the mover's first move as ``(kind, value,
        count)``), everybody by the rules of thumb; ``me``'s score as
        :func:`bistrot.oti.bots.hard.score` gives it.  The start is left unchanged."""
        return _playout(
            [list(h) for h in self.hands], [list(u) for u in self.ups], [list(d) for d in self.downs],
            list(self.draw), list(self.pile), list(self.out), self.to_move, self.ten_plays_again,
            self.play_to_last, me, first,
        )


def _playout(  # one loop on purpose: function calls are what costs in Python
    hands: list[list[int]], ups: list[list[int]], downs: list[list[int]], draw: list[int],
    pile: list[int], out: list[int], mover: int, ten_again: bool, to_last: bool, me: int,
    first: tuple[int, int, int] | None,
) -> float:
    n = len(hands)
    hn = [sum(h) for h in hands]
    un = [sum(u) for u in ups]
    top = pile[-1] if pile else 0
    run = 0
    for value in reversed(pile):
        if value != top:
            break
        run += 1
    moves = stall = 0
    while True:
        moves += 1
        stall += 1
        if moves > MAX_MOVES or stall > STALL:
            return _by_cards(hn, un, downs, out, me, to_last)
        from_hand = hn[mover] > 0
        if first is not None:
            kind, rank, count = first
            first = None
            src = hands[mover] if from_hand else ups[mover]
        elif from_hand or un[mover]:
            src = hands[mover] if from_hand else ups[mover]
            kind, rank, count = PICKUP, 0, 0
            # closing the value on top
            if top and top != 10 and run < 4:
                missing = 4 - run
                if missing <= 2 and src[top] >= missing:
                    kind, rank, count = PLAY, top, missing
            if kind == PICKUP:
                need = 0 if top in (0, 2, 5) else top
                beats = None if draw else _pressure(ups, downs, hn, un, out, mover)
                if beats is not None:  # the next player is down to face-up or face-down cards
                    best = 0
                    for r in _PLAIN_FROM[need]:
                        if src[r] and (not best or beats[r] < beats[best]):
                            best = r
                    if best:
                        have = src[best]
                        kind, rank, count = PLAY, best, 2 if have == 3 else have
                else:
                    for r in _PLAIN_FROM[need]:
                        if src[r]:
                            if r >= HIGH and src[5] and any(src[v] for v in _LOW_VALUES):
                                kind, rank, count = PLAY, 5, 1
                            else:
                                have = src[r]
                                kind, rank, count = PLAY, r, 2 if have == 3 else have
                            break
                if kind == PICKUP:
                    if src[5] and (hn[mover] if from_hand else un[mover]) > src[5]:
                        kind, rank, count = PLAY, 5, 1
                    elif src[10] and len(pile) >= BIG_PILE:
                        kind, rank, count = PLAY, 10, 1
                    elif src[2]:
                        kind, rank, count = PLAY, 2, 1
                    elif src[10]:
                        kind, rank, count = PLAY, 10, 1
                    elif src[5]:
                        have = src[5]
                        kind, rank, count = PLAY, 5, 2 if have == 3 else have
        else:
            kind, rank, count = FLIP, 0, 0
            src = None

        if kind == FLIP:
            rank = downs[mover].pop()
            stall = 0
            if not (rank in (2, 5, 10) or top in (0, 2, 5) or rank >= top):
                hand = hands[mover]
                hand[rank] += 1
                for value in pile:
                    hand[value] += 1
                hn[mover] += len(pile) + 1
                pile.clear()
                top = run = 0
                mover = (mover + 1) % n
                while mover in out:
                    mover = (mover + 1) % n
                continue
            count = 1
        elif kind == PICKUP:
            hand = hands[mover]
            for value in pile:
                hand[value] += 1
            hn[mover] += len(pile)
            pile.clear()
            top = run = 0
            mover = (mover + 1) % n
            while mover in out:
                mover = (mover + 1) % n
            continue
        else:
            assert src is not None
            src[rank] -= count
            if from_hand:
                hn[mover] -= count
                if draw:
                    stall = 0
                    hand = hands[mover]
                    while hn[mover] < 3 and draw:
                        hand[draw.pop()] += 1
                        hn[mover] += 1
            else:
                un[mover] -= count
                stall = 0
        # the cards are on the pile: effects
        pile.extend([rank] * count)
        if rank == top:
            run += count
        else:
            top, run = rank, count
        if rank == 10:
            again = count == 4 or ten_again
            pile.clear()
            top = run = 0
            stall = 0
        elif run >= 4:
            again = True
            pile.clear()
            top = run = 0
            stall = 0
        else:
            again = rank == 5
        if not (hn[mover] or un[mover] or downs[mover]):
            out.append(mover)
            stall = 0
            if not to_last:
                return 1.0 if out[0] == me else 0.0
            if len(out) == n - 1:
                out.extend(s for s in range(n) if s not in out)
                return 1.0 - out.index(me) / (n - 1)
            again = False
        if not again:
            mover = (mover + 1) % n
            while mover in out:
                mover = (mover + 1) % n


def _pressure(
    ups: list[list[int]], downs: list[list[int]], hn: list[int], un: list[int], out: list[int], mover: int,
) -> tuple[int, ...] | None:
    """With the draw pile empty: medium's ``pressure`` when the next player holds no hand (how
    many of their possible cards beat each value: their face-up cards, else the cards the mover
    has not seen).  Those are every face-down card and the cards of the others' hands never
    shown; the playout does not know which hand cards were shown, and by the time the draw pile
    is empty nearly all were (picked up), so it counts the face-down cards alone."""
    n = len(ups)
    nxt = (mover + 1) % n
    while nxt in out:
        nxt = (nxt + 1) % n
    if nxt == mover or hn[nxt]:
        return None
    if un[nxt]:
        return beats_of(ups[nxt])
    unseen = [0] * 15
    for down in downs:
        for value in down:
            unseen[value] += 1
    return beats_of(unseen)


def _by_cards(
    hn: list[int], un: list[int], downs: list[list[int]], out: list[int], me: int, to_last: bool
) -> float:
    """A playout going round in circles: fewest cards left ranks first (ties: lower seat)."""
    n = len(hn)
    left = sorted((hn[s] + un[s] + len(downs[s]), s) for s in range(n) if s not in out)
    ranking = out + [s for _, s in left]
    if to_last:
        return 1.0 - ranking.index(me) / (n - 1)
    return 1.0 if ranking[0] == me else 0.0
