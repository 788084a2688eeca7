"""The fast path plays exactly the engine's rules."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bistrot.cards import CARD_BY_NAME
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.fast import playout, random_match, trick_winner


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 2**32), st.sampled_from([3, 4]), st.integers(0, 3))
def test_playout_plays_the_same_cards_as_the_engine_for_the_same_random_draws(seed, draws, players, trump):
    game = OmiGame.new(OmiRules(players=players), seed=seed)
    game.apply(f"trump {'SHDC'[trump]}")
    won = playout(list(game.hands), trump, game.to_move, random.Random(draws).random, players)
    # The engine lists legal cards lowest first, as the fast path counts set bits.
    rnd = random.Random(draws).random
    while not game.results:
        legal = game.legal_actions()
        game.apply(legal[int(rnd() * len(legal))])
    assert won == game.results[0]["tricks"]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 2**32))
def test_trick_winner_agrees_with_every_trick_of_a_random_match(seed, policy):
    game = OmiGame.new(OmiRules(target=2), seed=seed)
    rng = random.Random(policy)
    checked = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        if game.completed and len(game.completed) > checked:
            trick = game.completed[-1]
            trump = "SHDC".index(game.view(0)["trump"])
            pairs = [((trick["leader"] + i) % 4, 1 << CARD_BY_NAME[c]) for i, c in enumerate(trick["cards"])]
            assert trick_winner(pairs, trump) == trick["winner"]
            checked = len(game.completed)
        elif not game.completed:
            checked = 0


def test_random_matches_on_the_fast_path_reach_the_target():
    rng = random.Random(3)
    for rules in (OmiRules(), OmiRules(players=3, target=5), OmiRules(kapothi="wins_match")):
        outcome = random_match(rules, rng.random, rng.shuffle)
        assert len(outcome.tokens) == rules.sides and outcome.hands >= 1
        assert max(outcome.tokens) >= rules.target or rules.kapothi == "wins_match"
