"""RULES.md's token table, every kapothi rule, the 4 : 4 carry, three players."""

import pytest

from bistrot.omi import OmiRules, score_hand

STANDARD = OmiRules()


@pytest.mark.parametrize("tricks", [5, 6, 7])
def test_choosing_team_with_five_to_seven_tricks_gets_one_token(tricks):
    score = score_hand(STANDARD, [tricks, 8 - tricks], chooser_side=0)
    assert (score.side, score.tokens, score.kapothi) == (0, 1, False)


@pytest.mark.parametrize("tricks", [5, 6, 7])
def test_other_team_with_five_to_seven_tricks_gets_two_tokens(tricks):
    score = score_hand(STANDARD, [8 - tricks, tricks], chooser_side=0)
    assert (score.side, score.tokens) == (1, 2)


@pytest.mark.parametrize("chooser", [0, 1])
def test_kapothi_is_three_tokens_for_either_team(chooser):
    score = score_hand(STANDARD, [0, 8], chooser_side=chooser)
    assert (score.side, score.tokens, score.kapothi, score.wins_match) == (1, 3, True, False)


def test_four_all_scores_nothing_and_carries_one_token_per_tied_hand():
    first = score_hand(STANDARD, [4, 4], chooser_side=0)
    second = score_hand(STANDARD, [4, 4], chooser_side=1, carry=first.carry)
    assert (first.side, first.tokens, first.carry) == (None, 0, 1)
    assert (second.side, second.carry) == (None, 2)
    decided = score_hand(STANDARD, [3, 5], chooser_side=0, carry=second.carry)
    assert (decided.side, decided.tokens, decided.carry) == (1, 2 + 2, 0)
    kapothi = score_hand(STANDARD, [8, 0], chooser_side=0, carry=3)
    assert (kapothi.tokens, kapothi.carry) == (3 + 3, 0)


def test_wins_match_kapothi_ends_the_match():
    score = score_hand(OmiRules(kapothi="wins_match"), [8, 0], chooser_side=1)
    assert (score.side, score.wins_match, score.kapothi) == (0, True, True)


def test_announced_kapothi_success_failure_and_silence():
    rules = OmiRules(kapothi="announced")
    assert score_hand(rules, [8, 0], 0, announced_side=0, carry=1)[:3] == (0, 3 + 1, 0)
    assert score_hand(rules, [7, 1], 0, announced_side=0, carry=2)[:3] == (1, 4 + 2, 0)
    assert score_hand(rules, [6, 2], 1, announced_side=0)[:2] == (1, 4)
    # All eight taken without announcing: an ordinary win.
    assert score_hand(rules, [8, 0], chooser_side=0)[:3] == (0, 1, 0)
    assert score_hand(rules, [0, 8], chooser_side=0)[:3] == (1, 2, 0)


def test_announcing_is_refused_outside_the_announced_rule():
    with pytest.raises(ValueError, match="announced"):
        score_hand(STANDARD, [8, 0], 0, announced_side=0)


def test_three_players_most_tricks_wins_and_a_tie_for_most_carries():
    rules = OmiRules(players=3)
    assert score_hand(rules, [4, 2, 2], chooser_side=0)[:2] == (0, 1)
    assert score_hand(rules, [2, 4, 2], chooser_side=0)[:2] == (1, 2)
    assert score_hand(rules, [3, 3, 2], chooser_side=0)[:3] == (None, 0, 1)
    assert score_hand(rules, [8, 0, 0], chooser_side=1, carry=1)[:3] == (0, 4, 0)


def test_impossible_trick_counts_are_refused():
    with pytest.raises(ValueError, match="8 tricks"):
        score_hand(STANDARD, [4, 3], chooser_side=0)
    with pytest.raises(ValueError, match="8 tricks"):
        score_hand(OmiRules(players=3), [4, 4], chooser_side=0)
