"""The match-aware hard Omi player, its equity table, and the frozen ``hard-v1`` level."""

from __future__ import annotations

import json
import random
from functools import partial
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bistrot import bots, games
from bistrot.cards import CARD_BY_NAME, CARD_NAMES, bits
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.bots import three_player_equity
from bistrot.omi.bots.hard import HardOmiBot, hand_value, match_trump, match_value
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


THREE_DECK = list(bits(OmiRules(players=3).deck))


def _three_player_trump_view(hand: list[int], tokens: list[int]) -> dict:
    """The chooser's view holding ``hand`` first, ``tokens`` from the chooser round the table."""
    game = OmiGame.new(OmiRules(players=3), seed=1)
    chooser = game.to_move
    assert chooser is not None
    view = dict(game.view(chooser))
    view.update(tokens=[tokens[(seat - chooser) % 3] for seat in range(3)], carry=0,
                hand=[CARD_NAMES[c] for c in hand])
    return view


def test_the_three_player_table_covers_every_first_four_cards_of_the_24_card_deck() -> None:
    from bistrot.omi.bots.trump_table import load_counts, shape_key

    counts = load_counts(3)
    assert set(counts) == {shape_key(h)[0] for h in combinations(THREE_DECK, 4)}
    for places in counts.values():
        assert len(places) == 4 and all(len(c) == 9 and sum(c) >= 400 for c in places)
    for hand in (random.Random(2).sample(THREE_DECK, 4) for _ in range(50)):
        assert all(sum(spread) == pytest.approx(1) for spread in suit_tricks(hand, players=3))


@pytest.mark.slow
def test_three_players_hard_names_trump_by_the_table_and_the_score_hard_v1_by_the_rule() -> None:
    from bistrot.omi.bots.medium import choose_trump as medium_rule

    hard, frozen = HardOmiBot(seed=1, samples=4), bots.make_bot("omi", "hard-v1", seed=1)
    # The three top trumps and a side nine: that suit, whatever the score.
    top = [CARD_BY_NAME[c] for c in "AD KD QD 9S".split()]
    for tokens in ([0, 0, 0], [9, 0, 0], [0, 9, 9]):
        assert hard.act(_three_player_trump_view(top, tokens)) == "trump D"
    rng = random.Random(3)
    drawn = [rng.sample(THREE_DECK, 4) for _ in range(300)]
    differ = {score: 0 for score in (0, 9)}
    for hand in drawn:
        rule = "trump " + "SHDC"[medium_rule(hand)]
        assert frozen.act(_three_player_trump_view(hand, [0, 0, 0])) == rule  # hard-v1 is frozen
        for score in differ:
            differ[score] += hard.act(_three_player_trump_view(hand, [score, 0, 0])) != rule
    # The table disagrees with the simple rule on some hands, and the score moves some choices.
    assert 0 < differ[0] < 300 and differ[9] != differ[0]


def test_match_value_orders_outcomes_like_tokens_when_nothing_is_at_stake() -> None:
    game = OmiGame.new(OmiRules(), seed=3)
    game.apply("trump S")
    know = Knowledge.from_view(game.view(1))
    values = [match_value(know, t, None, 0, [0, 0]) for t in range(9)]
    assert values == sorted(values) and values[0] < 0.5 < values[5]
    assert values[4] == pytest.approx(win_chance(OmiRules(), 10, 10, 1, True))


@pytest.mark.slow
@pytest.mark.parametrize("players, tokens", [(4, [2, 2]), (3, [2, 1, 2])])
def test_match_aware_play_is_reproducible_and_legal(players: int, tokens: list[int]) -> None:
    game = OmiGame.new(OmiRules(players=players, target=3), seed=9)
    game.tokens = tokens  # everybody one hand or two from the match
    hard = [HardOmiBot(seed=s, samples=6) for s in range(players)]
    again = [HardOmiBot(seed=s, samples=6) for s in range(players)]
    while not game.results:
        seat = game.to_move
        view = json.loads(json.dumps(game.view(seat)))
        action = hard[seat].act(view)
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


THREE = [OmiRules(players=3), OmiRules(players=3, kapothi="wins_match"),
         OmiRules(players=3, deal_rotation="against_play", target=5)]


@pytest.mark.parametrize("rules", THREE, ids=lambda r: f"{r.kapothi}-{r.deal_rotation}-{r.target}")
@settings(max_examples=40, deadline=None)
@given(needs=st.tuples(needs, needs, needs), carry=st.integers(0, 4))
def test_three_player_equity_is_a_probability_shared_by_the_three(
        rules: OmiRules, needs: tuple[int, int, int], carry: int) -> None:
    chances = three_player_equity.win_chances(rules, needs, carry)
    assert all(0 <= c <= 1 for c in chances) and sum(chances) == pytest.approx(1)
    for player in range(3):  # needing fewer tokens never hurts
        fewer = list(needs)
        fewer[player] -= 1
        assert three_player_equity.win_chances(rules, fewer, carry)[player] >= chances[player] - 1e-12
    # The table agrees with the hands it is built from, read through the public after_hand.
    expected = [0.0, 0.0, 0.0]
    for tricks, p in three_player_equity.hand_outcomes():
        for i, c in enumerate(three_player_equity.after_hand(rules, needs, carry, tricks)):
            expected[i] += p * c
    assert list(chances) == pytest.approx(expected)


@pytest.mark.parametrize("rotation", ["with_play", "against_play"])
def test_three_player_equity_passes_the_choice_on_as_the_engine_does(rotation: str) -> None:
    # Medium players play hands; after each, the equity's chances (in play order from that
    # hand's chooser) must be those of the next hand's state as the engine dealt it.
    rules = OmiRules(players=3, deal_rotation=rotation, target=30)
    game = OmiGame.new(rules, seed=4)
    players = [bots.make_bot("omi", "medium", seed=s) for s in range(3)]
    while len(game.results) < 8:
        needs, carry, chooser = [30 - t for t in game.tokens], game.carry, game.chooser
        played = len(game.results)
        while len(game.results) == played:  # one hand
            seat = game.to_move
            game.apply(players[seat].act(game.view(seat)), seat=seat)
        tricks = game.results[-1]["tricks"]
        order = [(chooser + i) % 3 for i in range(3)]  # play order from the hand's chooser
        after = three_player_equity.after_hand(rules, [needs[s] for s in order], carry,
                                               [tricks[s] for s in order])
        assert game.chooser == (chooser + rules.deal_step) % 3
        following = [(game.chooser + i) % 3 for i in range(3)]
        now = three_player_equity.win_chances(rules, [30 - game.tokens[s] for s in following],
                                              game.carry)
        assert [after[order.index(s)] for s in range(3)] == \
            pytest.approx([now[following.index(s)] for s in range(3)])


def test_three_player_match_value_weighs_the_score() -> None:
    game = OmiGame.new(OmiRules(players=3), seed=3)
    game.apply("trump S")
    know = Knowledge.from_view(game.view(0))  # the chooser
    # At 0 : 0 : 0 it orders the ways the hand may end as their tokens do.
    even = [match_value(know, t, None, 0, [0, 0, 0]) for t in range(9)]
    tokens = [hand_value(know, t, None, 0) for t in range(9)]
    for a, b in combinations(range(9), 2):
        assert (round(even[a] - even[b], 9) > 0) == (round(tokens[a] - tokens[b], 9) > 0)
    assert even[3] < 1 / 3 < even[5]
    # Needing one token, any hand this seat wins is the match.
    assert [match_value(know, t, None, 0, [9, 0, 0]) for t in (5, 6, 8)] == [1.0, 1.0, 1.0]
    # When another player needs one token, a hand that player may win costs far more than it
    # does at 0 : 0 : 0.
    assert match_value(know, 2, None, 0, [0, 9, 0]) < 0.1 < match_value(know, 2, None, 0, [0, 0, 0])
