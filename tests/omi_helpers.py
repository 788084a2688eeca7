"""Shared helpers for the Omi tests: building deals, playing scripted or random moves."""

from __future__ import annotations

import copy
import random

from bistrot.omi import OmiGame, OmiRules

# RULES.md's worked example: play order 1, 3, 4, 2 are seats 0-3, so players 1 & 4 are seats 0 & 2.
WORKED_DEAL = [
    "AH JH 8H KC 7S 8S 9D TD".split(),   # player 1, the chooser (dealer is seat 3)
    "9H AC TS JS KS 7D 8D 9C".split(),   # player 3
    "QH 7H 7C TC JC JD QD KD".split(),   # player 4: no spades
    "TH KH 8C QS AS QC AD 9S".split(),   # player 2
]

# Seat 0 holds the six top hearts and two spade winners: team 0 can take all eight tricks.
SWEEP_DEAL = [
    "AH KH QH JH TH 9H AS KS".split(),
    "AC KC QC JC AD KD QD JD".split(),
    "8H 7H 8S 7S TD 9D 8D 7D".split(),
    "TC 9C 8C 7C QS JS TS 9S".split(),
]
# The same, but seat 0's last card is the 7 of clubs, which the ace of clubs beats.
BROKEN_SWEEP_DEAL = [
    "AH KH QH JH TH 9H AS 7C".split(),
    "AC KC QC JC AD KD QD JD".split(),
    "8H 7H 8S 7S TD 9D 8D 7D".split(),
    "TC 9C 8C KS QS JS TS 9S".split(),
]


def play_scripted(game: OmiGame, script: dict[int, list[str]], until_tricks: int | None = None) -> None:
    """Play the current hand: each seat plays its scripted cards in order, else its first legal card."""
    hand = game.hand_index
    while not game.is_over and game.hand_index == hand:
        if until_tricks is not None and len(game.completed) == until_tricks and not game.trick:
            return
        seat = game.to_move
        wanted = script.get(seat, [])
        legal = game.legal_actions()
        if wanted and f"play {wanted[0]}" in legal:
            game.apply(f"play {wanted.pop(0)}")
        else:
            game.apply(next(a for a in legal if a != "kapothi"))


def random_match(rules: OmiRules, seed: int, policy_seed: int | None = None) -> OmiGame:
    """A whole match of random legal actions."""
    game = OmiGame.new(rules, seed=seed)
    rng = random.Random(seed if policy_seed is None else policy_seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def snapshot(game: OmiGame) -> dict:
    """Everything about a game, to check that a refused action changed nothing."""
    return copy.deepcopy(game.__dict__)
