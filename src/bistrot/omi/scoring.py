"""Scoring one Omi hand: RULES.md's token table, kapothi options and the 4 : 4 carry.

>>> rules = OmiRules()
>>> score_hand(rules, tricks=[6, 2], chooser_side=0)
HandScore(side=0, tokens=1, carry=0, kapothi=False, wins_match=False)
>>> score_hand(rules, tricks=[4, 4], chooser_side=0, carry=1)
HandScore(side=None, tokens=0, carry=2, kapothi=False, wins_match=False)
>>> score_hand(rules, tricks=[0, 8], chooser_side=0, carry=2)
HandScore(side=1, tokens=5, carry=0, kapothi=True, wins_match=False)
"""

from __future__ import annotations

from typing import NamedTuple

from bistrot.omi.rules import HAND_SIZE, OmiRules

ANNOUNCED_KAPOTHI = 3
FAILED_KAPOTHI = 4
PLAIN_KAPOTHI = 3


class HandScore(NamedTuple):
    """What a hand is worth: tokens to ``side`` (None when tied), and the carry left after."""

    side: int | None
    tokens: int
    carry: int
    kapothi: bool
    wins_match: bool


def score_hand(
    rules: OmiRules,
    tricks: list[int],
    chooser_side: int,
    announced_side: int | None = None,
    carry: int = 0,
) -> HandScore:
    """Score a finished hand.

    ``tricks`` holds the tricks of each side (2 teams, or 3 players), ``chooser_side`` is the
    side of the trump chooser, ``announced_side`` the side that announced kapothi (only with
    ``kapothi="announced"``), ``carry`` the tokens carried from tied hands.
    """
    if sum(tricks) != HAND_SIZE or len(tricks) != rules.sides:
        raise ValueError(f"a hand has {HAND_SIZE} tricks between {rules.sides} sides, not {tricks}")
    if announced_side is not None:
        if rules.kapothi != "announced":
            raise ValueError("kapothi can be announced only under the 'announced' rule")
        if tricks[announced_side] == HAND_SIZE:
            return HandScore(announced_side, ANNOUNCED_KAPOTHI + carry, 0, True, False)
        # Only a partnership can announce, so "the opponents" is the other team.
        return HandScore(1 - announced_side, FAILED_KAPOTHI + carry, 0, False, False)

    most = max(tricks)
    if tricks.count(most) > 1:
        return HandScore(None, 0, carry + 1, False, False)
    side = tricks.index(most)
    if most == HAND_SIZE and rules.kapothi != "announced":
        return HandScore(side, PLAIN_KAPOTHI + carry, 0, True, rules.kapothi == "wins_match")
    return HandScore(side, (1 if side == chooser_side else 2) + carry, 0, False, False)
