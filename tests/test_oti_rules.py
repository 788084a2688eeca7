"""Every rule of RULES.md's Oti section, on hand-built positions."""

from __future__ import annotations

import pytest

from bistrot.oti import IllegalAction, OtiGame, OtiRules

TWO = OtiRules(players=2)


def position(hands, pile="", up=None, down=None, draw="", to_move=0, rules=TWO):
    n = rules.players
    return OtiGame.from_position(
        rules, hands, up or [""] * n, down or [""] * n, draw=draw, pile=pile, to_move=to_move
    )


# ------------------------------------------------------------------ equal or higher


def test_equal_or_higher_on_the_top_card():
    game = position(["8S 9S 7S 3D", "KC"], pile="4H 8H")
    assert game.legal_actions() == ["play 8S", "play 9S"]
    game.apply("play 8S")  # equal goes
    assert game.view(1)["pile"] == ["4H", "8H", "8S"]


def test_lower_card_is_refused_with_the_reason():
    game = position(["7S 9S 3D", "KC"], pile="8H")
    with pytest.raises(IllegalAction) as err:
        game.apply("play 7S")
    assert err.value.code == "too_low"
    assert "8H" in str(err.value) and "8 or higher" in str(err.value)


def test_anything_goes_on_an_empty_pile():
    game = position(["3S AS 7D", "KC"])
    assert game.legal_actions() == ["play 3S", "play 7D", "play AS"]


def test_order_of_values_ace_is_highest_and_3_lowest():
    game = position(["AS 3D 4D", "KC"], pile="KH")
    assert game.legal_actions() == ["play AS"]
    game = position(["4S 3D 6D", "KC"], pile="3H")
    assert game.legal_actions() == ["play 3D", "play 4S", "play 6D"]


# ------------------------------------------------------------------ sets of 1, 2 or 4, never 3


def test_two_equal_cards_go_together():
    game = position(["9S 9H 3D", "KC"], pile="8H")
    assert "play 9S 9H" in game.legal_actions()
    game.apply("play 9H 9S")  # any order and case are read
    assert game.actions[-1] == (0, "play 9S 9H")
    assert game.view(1)["pile"] == ["8H", "9S", "9H"]


def test_never_three_equal_cards():
    game = position(["7S 7H 7D 3C", "KC"])
    legal = game.legal_actions()
    assert "play 7S 7H" in legal and "play 7S" in legal
    assert not [a for a in legal if len(a.split()) == 4]
    with pytest.raises(IllegalAction) as err:
        game.apply("play 7S 7H 7D")
    assert err.value.code == "three_cards"


def test_cards_of_different_values_are_refused():
    game = position(["7S 8H 3D", "KC"])
    with pytest.raises(IllegalAction) as err:
        game.apply("play 7S 8H")
    assert err.value.code == "mixed_values"


def test_four_equal_cards_close_at_once_and_play_again():
    game = position(["9S 9H 9D 9C 3D", "KC"], pile="4H")
    assert "play 9S 9H 9D 9C" in game.legal_actions()
    game.apply("play 9S 9H 9D 9C")
    view = game.view(1)
    assert view["pile"] == [] and {"9S", "9H", "9D", "9C", "4H"} <= set(view["burnt"])
    assert game.to_move == 0 and view["play_again"]
    assert view["history"][-1]["effect"] == "close"


# ------------------------------------------------------------------ closing a value


def test_closing_by_adding_two_to_two_on_the_pile():
    game = position(["7S 7H 3D", "KC"], pile="4C 7D 7C")
    game.apply("play 7S 7H")
    view = game.view(1)
    assert view["pile"] == [] and {"4C", "7D", "7C", "7S", "7H"} <= set(view["burnt"])
    assert game.to_move == 0  # you play again
    assert game.legal_actions() == ["play 3D"]  # on an empty pile


def test_closing_across_several_players():
    rules = OtiRules(players=3)
    game = position(["7S 3D 4D", "7H 3S 4S", "7D 7C KD"], rules=rules)
    game.apply("play 7S")
    game.apply("play 7H")
    game.apply("play 7D 7C")  # the fourth seven closes
    assert game.view(0)["pile"] == [] and game.to_move == 2


def test_three_of_a_value_on_the_pile_do_not_close():
    game = position(["7S 3D 4D", "KC"], pile="7D 7C")
    game.apply("play 7S")
    assert game.view(1)["pile"] == ["7D", "7C", "7S"] and game.to_move == 1


def test_a_five_between_equal_cards_breaks_the_set():
    game = position(["7S 7H 3D", "KC"], pile="7D 5S 7C")
    game.apply("play 7S 7H")
    assert game.view(1)["pile"] == ["7D", "5S", "7C", "7S", "7H"] and game.to_move == 1


# ------------------------------------------------------------------ magic cards


def test_ten_goes_on_anything_burns_and_the_turn_passes():
    game = position(["TS 3D 4D", "KC QC"], pile="6H AH")
    assert "play TS" in game.legal_actions()
    game.apply("play TS")
    view = game.view(1)
    assert view["pile"] == [] and {"6H", "AH", "TS"} <= set(view["burnt"])
    assert game.to_move == 1 and not view["play_again"]
    assert game.legal_actions() == ["play QC", "play KC"]  # the next player starts an empty pile


def test_ten_plays_again_option():
    rules = OtiRules(players=2, ten_plays_again=True)
    game = position(["TS 3D 4D", "KC"], pile="AH", rules=rules)
    game.apply("play TS")
    assert game.to_move == 0 and game.view(0)["pile"] == []


def test_two_tens_burn_once_and_four_tens_close():
    game = position(["TS TH 3D", "KC"], pile="AH")
    game.apply("play TS TH")
    assert game.to_move == 1 and game.view(0)["pile"] == []
    game = position(["TS TH TD TC 3D", "KC"], pile="AH")
    game.apply("play TS TH TD TC")
    assert game.to_move == 0, "four equal cards close the value, and closing plays again"


def test_five_goes_on_anything_and_you_play_again_with_anything():
    game = position(["5S 3D 4D", "KC"], pile="AH")
    assert game.legal_actions() == ["play 5S"]
    game.apply("play 5S")
    assert game.to_move == 0 and game.view(0)["play_again"]
    assert game.legal_actions() == ["play 3D", "play 4D"]  # anything goes on the 5
    game.apply("play 3D")
    assert game.to_move == 1
    assert game.legal_actions() == ["play KC"]


def test_two_goes_on_anything_and_the_next_player_plays_anything():
    game = position(["2S 3D 4D", "3C KC"], pile="AH")
    assert game.legal_actions() == ["play 2S"]
    game.apply("play 2S")
    assert game.to_move == 1 and game.view(1)["to_beat"] is None
    assert game.legal_actions() == ["play 3C", "play KC"]


def test_magic_cards_go_with_equal_companions():
    game = position(["2S 2H 3D", "KC"], pile="AH")
    assert "play 2S 2H" in game.legal_actions()
    game = position(["5S 5H 3D", "KC"], pile="AH")
    game.apply("play 5S 5H")
    assert game.to_move == 0  # plays again once


# ------------------------------------------------------------------ drawing and picking up


def test_draw_back_up_to_three_while_the_draw_pile_lasts():
    game = position(["8S 8H 3D", "KC QC JC"], draw="4S 6S")
    game.apply("play 8S 8H")
    assert game.view(0)["hand"] == ["3D", "4S", "6S"] and game.view(0)["draw_pile"] == 0
    assert game.view(1)["hand_counts"][0] == 3


def test_drawing_stops_when_the_draw_pile_is_empty():
    game = position(["8S 8H 3D", "KC QC JC"], draw="4S")
    game.apply("play 8S 8H")
    assert game.view(0)["hand"] == ["3D", "4S"]


def test_no_draw_above_three():
    game = position(["3S 4S 6S 7S 8S", "KC QC JC"], draw="4H")
    game.apply("play 3S")
    assert len(game.view(0)["hand"]) == 4 and game.view(0)["draw_pile"] == 1


def test_who_cannot_play_picks_up_the_pile_and_the_turn_ends():
    game = position(["3S 4S", "KC QC JC"], pile="9H AH")
    assert game.legal_actions() == ["pickup"]
    with pytest.raises(IllegalAction) as err:
        game.apply("play 3S")
    assert err.value.code == "too_low" and "pick up" in str(err.value)
    game.apply("pickup")
    assert game.view(0)["hand"] == ["3S", "4S", "9H", "AH"]
    assert game.view(1)["known_in_hand"][0] == ["9H", "AH"]
    assert game.to_move == 1 and game.view(1)["pile"] == []


def test_pickup_is_refused_when_you_can_play():
    game = position(["3S KS", "KC QC JC"], pile="9H")
    with pytest.raises(IllegalAction) as err:
        game.apply("pickup")
    assert err.value.code == "cannot_pickup"
    game = position(["3S KS", "KC QC JC"])
    with pytest.raises(IllegalAction) as err:
        game.apply("pickup")
    assert err.value.code == "cannot_pickup" and "empty" in str(err.value)


def test_voluntary_pickup_option():
    rules = OtiRules(players=2, voluntary_pickup=True)
    game = position(["3S KS", "KC QC JC"], pile="9H", rules=rules)
    assert game.legal_actions() == ["play KS", "pickup"]
    game.apply("pickup")
    assert game.to_move == 1 and game.view(0)["hand"] == ["3S", "9H", "KS"]
    game = position(["3S KS", "KC QC JC"], rules=rules)
    assert "pickup" not in game.legal_actions()  # nothing to pick up


# ------------------------------------------------------------------ face-up and face-down cards


def test_face_up_cards_come_after_the_hand():
    game = position(["3S", "2C QC JC"], up=["9S 9H 4D", ""], down=["2D", ""])
    with pytest.raises(IllegalAction) as err:
        game.apply("play 9S")
    assert err.value.code == "face_up_later"
    game.apply("play 3S")
    game.apply("play 2C")
    assert game.source(0) == "face_up"
    assert game.legal_actions() == ["play 4D", "play 9S", "play 9H", "play 9S 9H"]
    game.apply("play 9S 9H")
    assert game.view(1)["face_up"][0] == ["4D"]


def test_face_up_cards_that_do_not_fit_mean_picking_up_the_pile():
    game = position(["", "KC QC JC"], up=["3S 4D", ""], down=["2C", ""], pile="JH")
    assert game.legal_actions() == ["pickup"]
    game.apply("pickup")
    assert game.view(0)["hand"] == ["JH"] and game.view(0)["face_up"][0] == ["3S", "4D"]
    game.apply("play KC")
    assert game.source(0) == "hand"  # play from the hand again before the face-up cards


def test_face_down_cards_are_turned_blind_one_at_a_time():
    game = position(["", "KC QC JC"], down=["9S 4D 2C", ""], pile="6H")
    assert game.legal_actions() == ["flip"]
    view = game.view(0)
    assert view["face_down"] == [3, 0] and view["source"] == "face_down"
    for name in ("9S", "4D", "2C"):
        assert name not in str(view)
    with pytest.raises(IllegalAction) as err:
        game.apply("play 9S")
    assert err.value.code == "must_flip" and "9S" not in str(err.value)
    game.apply("flip")  # the 9 goes on the 6
    assert game.view(1)["pile"] == ["6H", "9S"] and game.to_move == 1
    assert game.view(1)["history"][-1] == {
        "seat": 0, "action": "flip", "cards": ["9S"], "from": "face_down"
    }


def test_a_blind_card_that_does_not_fit_is_picked_up_with_the_pile():
    game = position(["", "KC QC JC"], down=["4D 9S", ""], pile="6H")
    game.apply("flip")
    view = game.view(1)
    assert view["pile"] == [] and view["hand_counts"][0] == 2
    assert view["known_in_hand"][0] == ["4D", "6H"] and view["face_down"][0] == 1
    assert view["history"][-1]["picked"] == ["6H"]
    assert game.to_move == 1
    game.apply("play JC")
    assert game.source(0) == "hand"  # then you play from hand again
    assert game.legal_actions() == ["pickup"]


def test_flip_is_refused_while_you_hold_cards():
    game = position(["3S", "KC"], down=["4D", ""])
    with pytest.raises(IllegalAction) as err:
        game.apply("flip")
    assert err.value.code == "cannot_flip"


def test_the_last_face_up_five_lets_you_flip_at_once():
    game = position(["", "KC QC JC"], up=["5S", ""], down=["3D 4D", ""], pile="KH")
    game.apply("play 5S")
    assert game.to_move == 0 and game.legal_actions() == ["flip"]
    game.apply("flip")  # a 3 goes on the 5: anything goes on it
    assert game.view(1)["pile"] == ["KH", "5S", "3D"] and game.to_move == 1


# ------------------------------------------------------------------ the end


def test_first_to_get_rid_of_all_cards_wins_and_the_game_ends():
    game = position(["", "KC QC JC"], down=["9S", ""], pile="6H")
    game.apply("flip")
    assert game.is_over and game.winner == 0 and game.to_move is None
    assert game.view(1)["end_reason"] == "out" and game.ranking == [0]
    with pytest.raises(IllegalAction) as err:
        game.apply("play KC")
    assert err.value.code == "game_over"


def test_no_win_while_the_draw_pile_lasts():
    game = position(["8S 8H 8D", "KC QC JC"], draw="4S")
    game.apply("play 8S 8H")
    assert not game.is_over and game.view(0)["hand"] == ["4S", "8D"]


def test_going_out_on_a_five_ends_the_game_at_once():
    game = position(["5S", "KC QC JC"], pile="AH")
    game.apply("play 5S")
    assert game.is_over and game.winner == 0


def test_play_to_last_ranks_everyone_and_skips_those_out():
    rules = OtiRules(players=3, play_to_last=True)
    game = position(["9S", "3C 4C", "8D KD"], rules=rules)
    game.apply("play 9S")
    assert not game.is_over and game.winner == 0 and game.view(1)["out"] == [0]
    assert game.to_move == 1
    game.apply("pickup")
    game.apply("play KD")
    assert game.to_move == 1, "seat 0 is out and skipped"
    game.apply("pickup")
    game.apply("play 8D")
    assert game.is_over and game.ranking == [0, 2, 1] and game.winner == 0


# ------------------------------------------------------------------ the first player


def _start(rules, hands, up=None):
    n = rules.players
    ups = up or ["QS KS AS", "QH KH AH", "QD KD AD", "QC KC AC", "JS JH JD"][:n]
    downs = ["2S 3S 4S", "2H 3H 4H", "2D 3D 4D", "2C 3C 4C", "JC 9S 9H"][:n]
    game = OtiGame.from_deal(rules, hands, ups, downs, draw=[])
    for seat in range(n):
        game.apply("ready", seat=seat)
    return game


def test_the_lowest_card_in_hand_starts():
    game = _start(OtiRules(players=3), ["9C 8C 7C", "6C 9D 8D", "7D 7H 7S"])
    assert game.to_move == 1 and game.first_player == 1


def test_two_five_and_ten_do_not_count_as_low():
    game = _start(OtiRules(players=3), ["2C 5C TC", "5D TD 9D", "8D 8H 8S"])
    assert game.to_move == 2  # the 8 is the lowest card that counts


def test_a_tie_goes_to_the_first_from_seat_zero():
    game = _start(OtiRules(players=3), ["9C 8C 7C", "6C 9D 8D", "6D 6H 6S"])
    assert game.to_move == 1
    game = _start(OtiRules(players=2), ["6C 9D 8D", "6D 6H 6S"])
    assert game.to_move == 0


def test_the_first_player_is_chosen_after_the_swap():
    rules = OtiRules(players=2)
    game = OtiGame.from_deal(rules, ["9C 8C 7C", "9D 8D 7D"], ["3S KS AS", "QH KH AH"],
                             ["2S 3C 4S", "2H 3H 4H"], draw=[])
    game.apply("swap 9C 3S", seat=0)
    game.apply("ready", seat=1)
    game.apply("ready", seat=0)
    assert game.to_move == 0


# ------------------------------------------------------------------ a real loop


LOOP = dict(
    hands=["7S 7H 7C 8S 8D 9S 9D JD QS KD KC AD", "3H 4C AC"], up=["", ""],
    down=["TS JC", "KS"], to_move=1,
)


def test_a_position_seen_three_times_stops_the_game():
    game = position(LOOP["hands"], up=LOOP["up"], down=LOOP["down"], to_move=LOOP["to_move"])
    while not game.is_over:  # the same simple choice each time goes round in circles
        game.apply(game.legal_actions()[0])
        assert len(game.actions) < 200
    assert game.end_reason == "repetition"
    assert game.winner == 1 and game.cards_left(1) < game.cards_left(0)
    assert game.view(0)["history"][-1]["action"] == "stop"
