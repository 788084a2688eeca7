"""Game records: readable, exact round trips, clear errors."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bistrot.omi import OmiGame, OmiRules
from tests.omi_helpers import WORKED_DEAL
from tests.test_omi_properties import rules_strategy


@settings(max_examples=30, deadline=None)
@given(rules_strategy, st.integers(0, 2**40), st.integers(0, 2**32), st.integers(0, 400))
def test_records_round_trip_exactly_at_any_point_of_a_match(rules, seed, policy, stop):
    game = OmiGame.new(rules, seed=seed)
    rng = random.Random(policy)
    for _ in range(stop):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    text = game.record()
    again = OmiGame.from_record(text)
    assert again == game and again.record() == text
    assert again.view(0) == game.view(0)


def test_a_record_reads_like_pgn():
    game = OmiGame.from_deal(OmiRules(target=5), WORKED_DEAL, dealer=3, seed=42)
    game.apply("trump H")
    for card in ["AH", "9H", "QH", "TH", "KC"]:
        game.apply(f"play {card}")
    text = game.record()
    assert text.startswith('[Game "Omi"]\n[Players "4"]\n[Target "5"]\n')
    assert '[Seed "0000-0000-01A5"]' in text and '[Dealer "3"]' in text
    assert '[Deal "AH JH 8H KC 7S 8S 9D TD / 9H AC TS JS KS 7D 8D 9C / ' in text
    assert '[Result "*"]' in text
    assert "\ntrump H\n1. AH 9H QH TH\n2. KC\n" in text
    assert OmiGame.from_record(text) == game


def test_comments_and_spacing_are_ignored_when_reading():
    game = OmiGame.new(OmiRules(), seed=5)
    game.apply("trump S")
    text = game.record().replace("trump S", "; a remark\n  trump   s {chosen fast}")
    assert OmiGame.from_record(text) == game


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Game "Oti"]\n[Seed "0000-0000-01A5"]\n', "record of Oti, not of Omi"),
        ('[Game "Omi"]\n', "needs a Seed tag"),
        ('[Seed "0000-0000-01A5"]\n\ntrump H\n1. ZZ\n', "'ZZ' in the record"),
        ('[Seed "0000-0000-01A5"]\n\nplay\n', "'play' in the record"),
        ('[Seed "0000-0000-01A5"]\n\n1. AH\n', "action 1 .'play AH'. cannot be played"),
        ('[Seed "0000-0000-01A6"]\n', "check digit"),
        ('[Seed "0000-0000-01A5"]\n[Target "ten"]\n', "Target tag must be a whole number"),
        ('[Seed "0000-0000-01A5"]\n[RedealFewTrumps "yes"]\n', "must be on or off"),
        ('[Seed "0000-0000-01A5"]\n[Kapothi "never"]\n', "kapothi must be one of"),
    ],
)
def test_bad_records_are_refused_with_the_reason(text, message):
    with pytest.raises(ValueError, match=message):
        OmiGame.from_record(text)
