"""The match-aware hard Omi player, its equity table, and the frozen ``hard-v1`` level."""

from __future__ import annotations

import json
import random
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bistrot import bots, games
from bistrot.cards import CARD_BY_NAME, bits
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.bots.hard import HardOmiBot, match_trump, match_value
from bistrot.omi.bots.match_equity import after_hand, win_chance
from bistrot.omi.bots.tracking import Knowledge
from bistrot.omi.bots.trump_table import best_suit, chooser_tricks, suit_tricks, suit_values
from bistrot.omi.dd import solve

FROZEN = json.loads((Path(__file__).parent / "data" / "hard_v1_choices.json").read_text())
RULES = [OmiRules(), OmiRules(kapothi="wins_match"), OmiRules(kapothi="announced"), OmiRules(target=5)]

needs = st.integers(min_value=1, max_value=12)


@pytest.mark.parametrize("case", FROZEN["games"], ids=lambda c: f"seed{c['seed']}")
def test_the_frozen_level_still_chooses_as_hard_did(case: dict) -> None:
    game = OmiGame.new(OmiRules.from_dict(case["rules"]), seed=case["seed"])
    players = [bots.make_bot("omi", "hard-v1", seed=100 + s, samples=8) for s in range(4)]
    chosen = []
    while not game.results:
        seat = game.to_move
        chosen.append(players[seat].act(game.view(seat)))
        game.apply(chosen[-1], seat=seat)
    assert chosen == case["actions"]


def test_the_frozen_level_is_for_the_arena_only() -> None:
    omi = games.get("omi")
    assert "hard-v1" not in omi.levels and "hard-v1" not in omi.describe()["levels"]
    assert bots.make_bot("omi", "hard-v1").level == "hard-v1"
    with pytest.raises(ValueError, match="hard-v1"):  # named among what exists
        bots.make_bot("omi", "hard-v9")


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.kapothi + str(r.target))
@settings(max_examples=40, deadline=None)
@given(need=needs, their_need=needs, carry=st.integers(0, 4), choosing=st.booleans())
def test_equity_is_a_probability_shared_by_the_two_sides(rules: OmiRules, need: int, their_need: int,
                                                        carry: int, choosing: bool) -> None:
    mine = win_chance(rules, need, their_need, carry, choosing)
    theirs = win_chance(rules, their_need, need, carry, not choosing)
    assert 0 <= mine <= 1 and mine + theirs == pytest.approx(1)
    # Needing fewer tokens never hurts.
    assert win_chance(rules, need - 1, their_need, carry, choosing) >= mine - 1e-12
    assert win_chance(rules, need, their_need + 1, carry, choosing) >= mine - 1e-12


def test_equity_weighs_the_score_not_the_tokens() -> None:
    rules = OmiRules()
    # The opponents need 1: every loss ends the match, however many tricks it took.
    assert {after_hand(rules, 9, 1, 0, 0, 0, [t, 8 - t]) for t in range(4)} == {0.0}
    # Needing 1, any win wins; so does kapothi under wins_match whatever the score.
    assert after_hand(rules, 1, 10, 0, 0, 0, [5, 3]) == 1.0
    assert after_hand(OmiRules(kapothi="wins_match"), 10, 2, 0, 1, 0, [8, 0]) == 1.0
    # A 4 : 4 with a carry is worth more to the side that chooses next.
    rules = OmiRules()
    tie_next_mine = after_hand(rules, 5, 5, 1, 1, 0, [4, 4])
    tie_next_theirs = after_hand(rules, 5, 5, 1, 0, 0, [4, 4])
    assert tie_next_mine > 0.5 > tie_next_theirs


def test_the_continuation_model_is_a_distribution_of_the_table() -> None:
    p = chooser_tricks()
    assert len(p) == 9 and sum(p) == pytest.approx(1)
    hand = [CARD_BY_NAME[c] for c in "AH JH 8H KC".split()]
    for spread, value in zip(suit_tricks(hand), suit_values(hand), strict=True):
        tokens = (-3, -2, -2, -2, 0, 1, 1, 1, 3)
        assert sum(q * t for q, t in zip(spread, tokens, strict=True)) == pytest.approx(value, abs=1e-4)


DECK = list(bits(OmiRules().deck))
hands = st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True)


def _trump_view(hand: list[int], tokens: list[int], carry: int = 0) -> dict:
    view = dict(OmiGame.new(OmiRules(), seed=1).view(0))
    view.update(tokens=tokens, carry=carry)
    return view


@settings(max_examples=60, deadline=None)
@given(hand=hands)
def test_when_the_hand_decides_the_match_trump_maximises_the_chance_of_winning_it(hand: list[int]) -> None:
    # Both sides need 1: a win is the match, a 4 : 4 hands the next choice to the others.
    tie = win_chance(OmiRules(), 1, 1, 1, False)
    chance = [sum(spread[5:]) + tie * spread[4] for spread in suit_tricks(hand)]
    chosen = match_trump(_trump_view(hand, [9, 9]), hand)
    assert chance[chosen] == pytest.approx(max(chance))


def test_the_score_changes_some_trump_choices() -> None:
    # At 9 : 9 the hand is the match: about 4% of first four cards then name another suit than
    # the table (which counts tokens), and at 0 : 0 about 1%.
    rng = random.Random(1)
    drawn = [rng.sample(DECK, 4) for _ in range(500)]
    differ = {score: sum(match_trump(_trump_view(hand, [score, score]), hand) != best_suit(hand)
                         for hand in drawn) for score in (0, 9)}
    assert 0 < differ[0] < differ[9] < 50


def test_match_value_orders_outcomes_like_tokens_when_nothing_is_at_stake() -> None:
    game = OmiGame.new(OmiRules(), seed=3)
    game.apply("trump S")
    know = Knowledge.from_view(game.view(1))
    values = [match_value(know, t, None, 0, [0, 0]) for t in range(9)]
    assert values == sorted(values) and values[0] < 0.5 < values[5]
    assert values[4] == pytest.approx(win_chance(OmiRules(), 10, 10, 1, True))


def test_match_aware_play_is_reproducible_and_legal() -> None:
    game = OmiGame.new(OmiRules(target=3), seed=9)
    game.tokens = [2, 2]  # both sides one hand from the match
    players = [HardOmiBot(seed=s, samples=6) for s in range(4)]
    again = [HardOmiBot(seed=s, samples=6) for s in range(4)]
    while not game.results:
        seat = game.to_move
        view = json.loads(json.dumps(game.view(seat)))
        action = players[seat].act(view)
        assert action in view["legal"] and again[seat].act(view) == action
        game.apply(action, seat=seat)


def test_the_solver_is_chosen_by_name_as_the_browser_plays() -> None:
    # The browser has no DDS: the arena plays hard as there with solver=python.
    game = OmiGame.new(OmiRules(), seed=2)
    game.apply(game.legal_actions()[0])
    view = game.view(game.to_move)
    by_name = bots.make_bot("omi", "hard", seed=3, samples=3, solver="python").act(view)
    by_function = HardOmiBot(seed=3, samples=3, solver=partial(solve, solver="python")).act(view)
    assert by_name == by_function and by_name in view["legal"]
    with pytest.raises(ValueError, match="unknown solver 'fast'"):
        bots.make_bot("omi", "hard", solver="fast")
