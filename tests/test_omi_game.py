"""The Omi match engine, rule by rule, with hand-built deals."""

import itertools

import pytest

from bistrot.errors import IllegalAction
from bistrot.omi import OmiGame, OmiRules
from tests.omi_helpers import BROKEN_SWEEP_DEAL, SWEEP_DEAL, WORKED_DEAL, play_scripted, snapshot


def worked_game(rules: OmiRules | None = None) -> OmiGame:
    return OmiGame.from_deal(rules or OmiRules(), WORKED_DEAL, dealer=3)


# ----------------------------------------------------------------- RULES.md's worked examples

def test_worked_example_1_the_chooser_sees_four_cards_and_chooses_hearts():
    game = worked_game()
    assert game.chooser == 0 and game.to_move == 0 and game.phase == "trump"
    assert game.view(0)["hand"] == ["AH", "JH", "8H", "KC"]
    assert game.legal_actions() == ["trump S", "trump H", "trump D", "trump C"]
    game.apply("trump H")
    assert game.phase == "play" and game.view(0)["trump"] == "H"
    assert len(game.view(0)["hand"]) == 8
    assert game.to_move == 0  # the chooser leads to the first trick


def test_worked_example_2_three_tricks_as_the_rule_sheet_plays_them():
    game = worked_game()
    game.apply("trump H")
    # Player 1 leads A♥, all follow hearts: player 1 wins.
    for card in ["AH", "9H", "QH", "TH"]:
        game.apply(f"play {card}")
    assert game.completed[-1]["winner"] == 0 and game.to_move == 0
    # Player 1 leads K♣, player 3 plays A♣ and wins.
    for card in ["KC", "AC", "7C", "8C"]:
        game.apply(f"play {card}")
    assert game.completed[-1]["winner"] == 1 and game.to_move == 1
    # Player 3 leads 10♠, player 4 has no spades and trumps with 7♥, player 2 plays Q♠: player 4 wins.
    for card in ["TS", "7H", "QS", "7S"]:
        game.apply(f"play {card}")
    assert game.completed[-1]["winner"] == 2 and game.to_move == 2
    assert game.tricks_won == [2, 1]


def test_worked_example_2_scoring_players_1_and_4_with_six_tricks():
    # "If players 1 & 4 end with 6 tricks they win the hand (1 token if one of them chose trumps,
    # else 2)": seats 0 & 2 are players 1 & 4.
    game = worked_game()
    game.apply("trump H")
    play_scripted(game, {})
    result = game.results[0]
    assert sum(result["tricks"]) == 8 and result["chooser"] == 0
    side = 0 if result["tricks"][0] >= 5 else 1 if result["tricks"][1] >= 5 else None
    assert result["side"] == side
    if side is not None:
        assert result["tokens"] == (1 if side == 0 else 2)


# ----------------------------------------------------------------- deal, order, rotation

def test_first_dealer_is_the_last_seat_and_the_chooser_follows_him():
    game = OmiGame.new(OmiRules(), seed=1)
    assert (game.dealer, game.chooser, game.to_move) == (3, 0, 0)
    three = OmiGame.new(OmiRules(players=3), seed=1)
    assert (three.dealer, three.chooser) == (2, 0)


def test_each_seat_gets_eight_distinct_cards_from_the_deck():
    for rules in (OmiRules(), OmiRules(players=3)):
        game = OmiGame.new(rules, seed=5)
        hands = game.hands
        assert all(h.bit_count() == 8 for h in hands)
        union = 0
        for h in hands:
            assert not union & h
            union |= h
        assert union == rules.deck


@pytest.mark.parametrize(("rotation", "dealers"), [("with_play", [3, 0, 1, 2, 3]),
                                                   ("against_play", [3, 2, 1, 0, 3])])
def test_the_deal_passes_with_or_against_play(rotation, dealers):
    game = OmiGame.new(OmiRules(deal_rotation=rotation, target=99), seed=3)
    seen = []
    while len(seen) < 5:
        seen.append(game.dealer)
        assert game.chooser == (game.dealer + 1) % 4
        game.apply(game.legal_actions()[0])
        play_scripted(game, {})
    assert seen == dealers


def test_direction_is_a_display_option_only():
    a = OmiGame.new(OmiRules(direction="clockwise"), seed=9)
    b = OmiGame.new(OmiRules(), seed=9)
    assert a.hands == b.hands and a.to_move == b.to_move
    assert a.view(0)["rules"]["direction"] == "clockwise"


def test_follow_suit_is_enforced_and_trumping_or_discarding_allowed_when_void():
    game = worked_game()
    game.apply("trump H")
    game.apply("play KC")  # seat 1 holds A♣ and 9♣: must follow clubs
    assert game.legal_actions() == ["play 9C", "play AC"]
    game.apply("play AC")
    # Seat 2 holds clubs too.
    assert set(game.legal_actions()) == {"play 7C", "play TC", "play JC"}
    game.apply("play 7C")
    game.apply("play 8C")
    # Seat 1 leads spades: seat 2 has none and may play anything.
    game.apply("play TS")
    assert len(game.legal_actions()) == game.hands[2].bit_count() == 7


def test_highest_trump_beats_the_suit_led_and_off_suit_discards_never_win():
    game = worked_game()
    game.apply("trump D")
    for card in ["AH", "9H", "QH", "KH"]:
        game.apply(f"play {card}")
    assert game.completed[-1]["winner"] == 0  # KH < AH; hearts are not trump now
    for card in ["KC", "AC", "7C", "8C"]:
        game.apply(f"play {card}")
    for card in ["TS", "JD", "AS", "7S"]:  # seat 2, void in spades, trumps the ace with J♦
        game.apply(f"play {card}")
    assert game.completed[-1]["winner"] == 2


# ----------------------------------------------------------------- refusals

@pytest.mark.parametrize(
    ("prepare", "action", "seat", "code", "message"),
    [
        ([], "play AH", None, "wrong_phase", "trump suit must be chosen"),
        (["trump H"], "trump S", None, "wrong_phase", "trump is chosen once"),
        (["trump H"], "play AS", None, "not_held", "you do not hold A♠"),
        (["trump H", "play AH"], "play AC", None, "revoke", "you must follow suit: hearts were led"),
        (["trump H"], "play 9H", 1, "not_your_turn", "seat 0's turn, not seat 1's"),
        ([], "trump Z", None, "unknown_action", "'z' is not a suit"),
        (["trump H"], "play 1H", None, "unknown_action", "'1h' is not a card"),
        ([], "pass", None, "unknown_action", "is not an Omi action"),
        ([], "", None, "unknown_action", "is not an Omi action"),
        ([], 42, None, "unknown_action", "an action is a text"),
        (["trump H"], "kapothi", None, "wrong_phase", "'announced' kapothi rule"),
    ],
)
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing(prepare, action, seat, code, message):
    game = worked_game()
    for step in prepare:
        game.apply(step)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=message) as refused:
        game.apply(action, seat=seat)
    assert refused.value.code == code
    assert isinstance(refused.value, ValueError)
    assert snapshot(game) == before


def test_actions_after_the_match_are_refused():
    game = OmiGame.new(OmiRules(target=1), seed=2)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.to_move is None and game.legal_actions() == [] and game.winner in (0, 1)
    with pytest.raises(IllegalAction, match="the match is over") as refused:
        game.apply("trump H")
    assert refused.value.code == "game_over"


def test_forgiving_spelling_is_stored_in_canonical_form():
    game = worked_game()
    game.apply("  Trump   h ")
    game.apply("PLAY 10h".replace("10h", "ah"))
    game.apply("play 9h")
    assert game.actions == [(0, "trump H"), (0, "play AH"), (1, "play 9H")]


# ----------------------------------------------------------------- kapothi

def sweep(rules: OmiRules, deal=SWEEP_DEAL, announce: bool = False) -> OmiGame:
    game = OmiGame.from_deal(rules, deal, dealer=3)
    game.apply("trump H")
    hearts = ["AH", "KH", "QH", "JH", "TH", "9H"]
    play_scripted(game, {0: list(hearts)}, until_tricks=6)
    if announce:
        assert "kapothi" in game.legal_actions()
        game.apply("kapothi")
    play_scripted(game, {0: ["AS", "KS", "7C"]})
    return game


def test_all_eight_tricks_is_three_tokens_by_default():
    game = sweep(OmiRules())
    assert game.results[0]["tricks"] == [8, 0] and game.tokens == [3, 0] and game.results[0]["kapothi"]


def test_all_eight_tricks_wins_the_match_at_once_under_wins_match():
    game = sweep(OmiRules(kapothi="wins_match"))
    assert game.is_over and game.winner == 0 and game.tokens == [3, 0]


def test_announced_kapothi_taken_scores_three():
    game = sweep(OmiRules(kapothi="announced"), announce=True)
    assert game.results[0]["announced"] == 0 and game.tokens == [3, 0]


def test_announced_kapothi_lost_gives_the_opponents_four():
    game = sweep(OmiRules(kapothi="announced"), BROKEN_SWEEP_DEAL, announce=True)
    assert game.results[0]["tricks"] == [7, 1] and game.tokens == [0, 4]


def test_unannounced_sweep_under_the_announced_rule_is_an_ordinary_win():
    game = sweep(OmiRules(kapothi="announced"))
    assert game.results[0]["tricks"] == [8, 0] and game.tokens == [1, 0]


def test_kapothi_is_offered_only_to_the_leader_of_trick_7_after_six_straight_tricks():
    game = OmiGame.from_deal(OmiRules(kapothi="announced"), SWEEP_DEAL, dealer=3)
    game.apply("trump H")
    hearts = ["AH", "KH", "QH", "JH", "TH", "9H"]
    while len(game.completed) < 6:
        assert "kapothi" not in game.legal_actions()
        play_scripted(game, {0: list(hearts[len(game.completed):])}, until_tricks=len(game.completed) + 1)
    assert game.legal_actions()[-1] == "kapothi" and game.to_move == 0
    game.apply("kapothi")
    assert "kapothi" not in game.legal_actions()
    with pytest.raises(IllegalAction, match="already been announced"):
        game.apply("kapothi")
    game.apply("play AS")
    assert "kapothi" not in game.legal_actions()  # the next seat is mid-trick


# ----------------------------------------------------------------- carry, target, redeal, 3 players

@pytest.mark.slow
def test_carry_and_tokens_follow_the_results_through_a_match():
    # Search seeds for matches with consecutive 4 : 4 hands, then check the bookkeeping.
    from tests.omi_helpers import random_match

    found = 0
    for seed in range(400):
        game = random_match(OmiRules(), seed)
        ties = [r["side"] is None for r in game.results]
        if any(a and b for a, b in itertools.pairwise(ties)):
            found += 1
            carry, tokens = 0, [0, 0]
            for r in game.results:
                if r["side"] is None:
                    carry += 1
                    assert r["carry"] == carry and r["tokens"] == 0
                else:
                    assert r["tokens"] >= 1 + carry
                    tokens[r["side"]] += r["tokens"]
                    carry = 0
            assert tokens == game.tokens
            assert max(tokens) >= 10 and game.winner == tokens.index(max(tokens))
            assert sorted(tokens)[0] < 10
    assert found >= 3


def test_redeal_when_a_team_holds_fewer_than_two_trumps():
    redealt = 0
    for seed in range(300):
        game = OmiGame.new(OmiRules(redeal_few_trumps=True), seed=seed)
        for suit in "SHDC":
            trial = game.copy()
            before = trial.hands
            trial.apply(f"trump {suit}")
            teams = [((before[s] >> (13 * "SHDC".index(suit))) & 0x1FFF).bit_count() for s in range(4)]
            short = min(teams[0] + teams[2], teams[1] + teams[3]) < 2
            if short:
                redealt += 1
                assert trial.phase == "trump" and trial.redeals == 1
                assert trial.dealer == game.dealer and trial.hands != before
                assert trial.view(0)["trump"] is None
            else:
                assert trial.phase == "play" and trial.redeals == 0
    assert redealt >= 5


def test_redeal_rule_off_never_redeals():
    for seed in range(50):
        game = OmiGame.new(OmiRules(), seed=seed)
        game.apply("trump S")
        assert game.phase == "play"


def test_three_player_match_each_for_themselves():
    from tests.omi_helpers import random_match

    game = random_match(OmiRules(players=3, target=5), seed=11)
    assert len(game.tokens) == 3 and max(game.tokens) >= 5
    assert game.winner == game.tokens.index(max(game.tokens))
    for result in game.results:
        assert len(result["tricks"]) == 3 and sum(result["tricks"]) == 8
    fresh = OmiGame.new(OmiRules(players=3), seed=11)
    assert {c for h in fresh.hands for c in range(52) if h >> c & 1} == {
        c for c in range(52) if OmiRules(players=3).deck >> c & 1
    }


def test_from_deal_refuses_bad_deals():
    with pytest.raises(ValueError, match="has 4 hands, not 3"):
        OmiGame.from_deal(OmiRules(), WORKED_DEAL[:3])
    bad = [list(h) for h in WORKED_DEAL]
    bad[1][0] = "AH"
    with pytest.raises(ValueError, match="AH is dealt twice"):
        OmiGame.from_deal(OmiRules(), bad)
    bad[1][0] = "2H"
    with pytest.raises(ValueError, match="2H is not in the 32-card deck"):
        OmiGame.from_deal(OmiRules(), bad)
    with pytest.raises(ValueError, match="must get 8 cards"):
        OmiGame.from_deal(OmiRules(), [h[:7] for h in WORKED_DEAL])
    with pytest.raises(ValueError, match="the dealer is a seat"):
        OmiGame.from_deal(OmiRules(), WORKED_DEAL, dealer=4)


# ----------------------------------------------------------------- views

def test_views_show_own_cards_and_only_counts_of_others():
    game = worked_game()
    for seat in range(4):
        view = game.view(seat)
        assert view["hand"] == [str(c) for c in sorted_hand(WORKED_DEAL[seat][:4])]
        assert view["hand_counts"] == [4, 4, 4, 4]
        assert view["legal"] == (game.legal_actions() if seat == 0 else [])
        assert "deal_code" not in view
    game.apply("trump H")
    assert game.view(1)["hand_counts"] == [8, 8, 8, 8]
    spectator = game.view(None)
    assert spectator["hand"] == [] and spectator["legal"] == []


def sorted_hand(cards):
    from bistrot.cards import CardSet

    return list(CardSet.parse(cards))


def test_the_deal_code_appears_in_views_only_when_the_match_is_over():
    game = OmiGame.new(OmiRules(target=1), seed=77)
    while not game.is_over:
        assert "deal_code" not in game.view(0)
        game.apply(game.legal_actions()[0])
    assert game.view(0)["deal_code"] == game.deal_code
    assert OmiGame.new(OmiRules(target=1), seed=game.view(0)["deal_code"]).hands == OmiGame.new(
        OmiRules(target=1), seed=77).hands
