"""What a score is worth in three-player Omi: each player's chance of winning the match from it.

With three players each plays for themselves: the player with most tricks wins the hand (1 token
for the chooser, 2 for another, 3 for all 8) and a tie for most carries a token.  A player who
plays the match values each way a hand can end by the chance it leaves them of winning the match,
which depends on who gains: a token to the player about to win the match costs more than one to
the player furthest behind.

The hands still to come are taken to end as hands between three medium players did
(``scripts/make_three_player_hands.py`` counted 100,000 of them into ``data/three_player_hands.json``),
scored by the engine's own :func:`~bistrot.omi.scoring.score_hand`, the chooser moving on every
hand as the table's ``deal_rotation`` says.  A state is the tokens each player still *needs*, in
play order from the chooser of the hand about to start, and the carry.

>>> from bistrot.omi import OmiRules
>>> rules = OmiRules(players=3)
>>> [round(p, 2) for p in win_chances(rules, (10, 10, 10), carry=0)]  # the chooser first
[0.34, 0.33, 0.33]
>>> win_chances(rules, (1, 10, 10), carry=0)[0] > 0.6
True
>>> after_hand(rules, (1, 10, 10), carry=0, tricks=(4, 2, 2))  # the chooser wins the match
(1.0, 0.0, 0.0)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import cache, partial
from importlib import resources
from itertools import product

from bistrot.omi.bots.match_equity import MAX_CARRY
from bistrot.omi.rules import OmiRules
from bistrot.omi.scoring import HandScore, score_hand

HANDS_FILE = "three_player_hands.json"
MAX_NEED = 12
"""Tokens needed beyond which a player is valued as if 12 were needed: above the usual target of
10, and it keeps the table small (12 ** 3 * 13 states, about 0.15 s once per process and rules)."""

Chances = tuple[float, float, float]
EVEN: Chances = (1 / 3, 1 / 3, 1 / 3)
"""The chances once twelve hands in a row have carried, which almost never happens."""


@cache
def hand_outcomes() -> tuple[tuple[tuple[int, int, int], float], ...]:
    """How a hand ends: each sharing of the 8 tricks (the chooser's, the next player's, the
    last's) with its chance, from the shipped counts.

    >>> outcomes = hand_outcomes()
    >>> round(sum(p for _, p in outcomes), 6), all(sum(t) == 8 for t, _ in outcomes)
    (1.0, True)
    """
    text = resources.files("bistrot.omi.bots").joinpath("data", HANDS_FILE).read_text()
    counts: dict[str, int] = json.loads(text)["tricks"]
    total = sum(counts.values())
    outcomes = []
    for key, n in counts.items():
        first, second, third = (int(t) for t in key.split("."))
        outcomes.append(((first, second, third), n / total))
    return tuple(outcomes)


def win_chances(rules: OmiRules, needs: Sequence[int], carry: int) -> Chances:
    """Each player's chance of winning the match from the start of a hand, ``needs`` giving the
    tokens each still needs in play order from this hand's chooser, ``carry`` the tokens carried."""
    for i, need in enumerate(needs):
        if need <= 0:
            return _won_by(i)
    if carry > MAX_CARRY:
        return EVEN
    table = _table(rules.kapothi, rules.deal_rotation)
    return table[(min(needs[0], MAX_NEED), min(needs[1], MAX_NEED), min(needs[2], MAX_NEED), carry)]


def prepare(rules: OmiRules) -> None:
    """Compute the table of ``rules`` now (about 0.15 s, once per process), so that a player's
    first decision does not pay for it."""
    _table(rules.kapothi, rules.deal_rotation)


def after_hand(rules: OmiRules, needs: Sequence[int], carry: int, tricks: Sequence[int]) -> Chances:
    """Each player's chance of winning the match once the hand in play ends with ``tricks``, from
    the tokens each needed and the carry before it; ``needs``, ``tricks`` and the chances are in
    play order from this hand's chooser."""
    return _after(rules, needs, score_hand(rules, list(tricks), 0, None, carry), partial(win_chances, rules))


def _after(rules: OmiRules, needs: Sequence[int], score: HandScore,
           chances_of: Callable[[tuple[int, int, int], int], Chances]) -> Chances:
    """The chances once a hand scored ``score``: the match's result, or ``chances_of`` the next
    hand's state (its needs in play order from its chooser, and the carry) in this hand's order."""
    left = list(needs)
    if score.side is not None:
        left[score.side] -= score.tokens
        if score.wins_match or left[score.side] <= 0:
            return _won_by(score.side)
    if score.carry > MAX_CARRY:
        return EVEN
    shift = rules.deal_step % 3  # where the next hand's chooser sits from this hand's
    following = chances_of((left[shift], left[(shift + 1) % 3], left[(shift + 2) % 3]), score.carry)
    back = 3 - shift
    return following[back % 3], following[(back + 1) % 3], following[(back + 2) % 3]


def _won_by(player: int) -> Chances:
    won = [0.0, 0.0, 0.0]
    won[player] = 1.0
    return won[0], won[1], won[2]


@cache
def _table(kapothi: str, deal_rotation: str) -> dict[tuple[int, int, int, int], Chances]:
    """Every state's chances, from the fewest tokens needed up: a hand either brings a player
    closer to the target or carries, so a state needs only states of fewer tokens needed in all,
    or the same needs in another order with a larger carry."""
    rules = OmiRules(players=3, kapothi=kapothi, deal_rotation=deal_rotation)
    # Tricks scored alike (with no carry) lead to the same states: group them, keeping one of
    # each group to score with every carry.
    weights: dict[HandScore, float] = {}
    examples: dict[HandScore, list[int]] = {}
    for tricks, p in hand_outcomes():
        score = score_hand(rules, list(tricks), 0)
        weights[score] = weights.get(score, 0.0) + p
        examples.setdefault(score, list(tricks))
    by_carry = [[(score_hand(rules, examples[score], 0, None, carry), p) for score, p in weights.items()]
                for carry in range(MAX_CARRY + 1)]
    table: dict[tuple[int, int, int, int], Chances] = {}

    def known(following: tuple[int, int, int], carry: int) -> Chances:
        return table[(*following, carry)]

    states = [(a, b, c) for a, b, c in product(range(1, MAX_NEED + 1), repeat=3)]
    for total in range(3, 3 * MAX_NEED + 1):
        level = [s for s in states if sum(s) == total]
        for carry in range(MAX_CARRY, -1, -1):
            for needs in level:
                chances = [0.0, 0.0, 0.0]
                for score, p in by_carry[carry]:
                    for i, c in enumerate(_after(rules, needs, score, known)):
                        chances[i] += p * c
                table[(*needs, carry)] = chances[0], chances[1], chances[2]
    return table
