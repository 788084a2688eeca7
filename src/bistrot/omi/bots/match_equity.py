"""What a score is worth in four-player Omi: the chance of winning the match from it.

A player who plays the match rather than the hand values each way a hand can end by the chance it
leaves its side of winning the match (its *equity*), not by its tokens: 4 : 4 is worth more to the
side that needs few tokens while the carry grows, a loss costs nothing more once the opponents
need only one token, and kapothi under ``wins_match`` is the match.

The equity assumes the hands still to come go as a double-dummy deal does when the chooser names
the trump table's best suit (:func:`~.trump_table.chooser_tricks`: the chooser's team wins a
little over half of them), scored by the engine's own :func:`~bistrot.omi.scoring.score_hand`,
the chooser changing side every hand.  It depends on the tokens each side still *needs*, the
carry and who chooses next, so one table serves every target.

>>> from bistrot.omi import OmiRules
>>> rules = OmiRules()
>>> round(win_chance(rules, need=10, their_need=10, carry=0, choosing=True), 2)  # choosing first
0.51
>>> win_chance(rules, need=1, their_need=9, carry=0, choosing=False) > 0.9
True
>>> after_hand(rules, need=8, their_need=1, carry=0, chooser_side=0, side=0, tricks=[3, 5])
0.0
"""

from __future__ import annotations

from functools import cache

from bistrot.omi.bots.trump_table import chooser_tricks
from bistrot.omi.rules import HAND_SIZE, OmiRules
from bistrot.omi.scoring import score_hand

MAX_CARRY = 12
"""Carry beyond which the equity is taken as even: twelve 4 : 4 hands in a row almost never happen."""
MAX_NEED = 20
"""Tokens needed beyond which a match is valued as if 20 were needed: twice the usual target, where
a hand's tokens move the chance nearly in proportion; it keeps the table small (every state is
solved once per process: about 0.2 s for targets above 20, 0.03 s for 10)."""


def win_chance(rules: OmiRules, need: int, their_need: int, carry: int, choosing: bool) -> float:
    """The chance that a side needing ``need`` tokens beats one needing ``their_need`` from the
    start of a hand with ``carry`` tokens carried, its own team choosing trump if ``choosing``."""
    if need <= 0:
        return 1.0
    if their_need <= 0:
        return 0.0
    return _chance(rules.kapothi, min(need, MAX_NEED), min(their_need, MAX_NEED), carry, choosing)


def tricks_by_side(tricks: int, side: int) -> list[int]:
    """The tricks of side 0 and side 1 when side ``side`` ends a four-player hand with ``tricks``.

    >>> tricks_by_side(3, 1)
    [5, 3]
    """
    return [tricks, HAND_SIZE - tricks] if side == 0 else [HAND_SIZE - tricks, tricks]


def after_hand(rules: OmiRules, need: int, their_need: int, carry: int, chooser_side: int,
               side: int, tricks: list[int], announced: int | None = None) -> float:
    """Side ``side``'s chance of winning the match once the hand in play ends with ``tricks``
    (tricks of side 0, side 1), from the tokens each side needed and the carry before it, and who
    chose trump (``chooser_side``) or announced kapothi (``announced``).  Four players."""
    score = score_hand(rules, tricks, chooser_side, announced, carry)
    choosing_next = chooser_side != side  # the chooser's side changes every hand
    if score.side is None:
        return win_chance(rules, need, their_need, score.carry, choosing_next)
    if score.wins_match:
        return 1.0 if score.side == side else 0.0
    if score.side == side:
        return win_chance(rules, need - score.tokens, their_need, 0, choosing_next)
    return win_chance(rules, need, their_need - score.tokens, 0, choosing_next)


@cache
def _chance(kapothi: str, need: int, their_need: int, carry: int, choosing: bool) -> float:
    if carry > MAX_CARRY:
        return 0.5
    rules = OmiRules(kapothi=kapothi)
    chooser_side = 0 if choosing else 1
    total = 0.0
    for chooser_won, p in enumerate(chooser_tricks()):
        if p:
            tricks = tricks_by_side(chooser_won, chooser_side)
            total += p * after_hand(rules, need, their_need, carry, chooser_side, 0, tricks)
    return total
