"""The Oti computer players: legal moves only, whole games, each level's rules of thumb, and
the hard player's search (reproducible with a fixed number of deals)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bistrot import bots
from bistrot.cards import bits
from bistrot.oti import OtiGame, OtiRules
from bistrot.oti.bots.fastsim import Start
from bistrot.oti.bots.hard import CLEAR, HardOtiBot, candidates, first_move, lead_z, playout, search
from bistrot.oti.bots.medium import MediumOtiBot
from bistrot.oti.bots.sampling import determinize, hand_inference, unseen_cards
from bistrot.oti.values import RANK_OF

TWO = OtiRules(players=2)


def run_game(game: OtiGame, players: list) -> OtiGame:
    for seat, bot in enumerate(players):
        while game.phase == "swap" and not game.ready[seat]:
            action = bot.act(game.view(seat))
            assert action in game.legal_actions(seat)
            game.apply(action, seat=seat)
    while not game.is_over:
        seat = game.to_move
        view = game.view(seat)
        action = players[seat].act(view)
        assert action in view["legal"], (players[seat].level, action, view["legal"])
        game.apply(action, seat=seat)
    return game


def test_every_level_is_registered():
    assert bots.available("oti") == ["easy", "medium", "hard"]
    for level in bots.LEVELS:
        bot = bots.make_bot("oti", level, seed=3)
        assert bot.level == level


@pytest.mark.parametrize("rules", [
    OtiRules(players=2), OtiRules(players=3, voluntary_pickup=True),
    OtiRules(players=4, ten_plays_again=True), OtiRules(players=5, play_to_last=True),
])
@pytest.mark.slow
def test_easy_and_medium_play_whole_games_legally(rules):
    for seed in range(3):
        players = [bots.make_bot("oti", ("easy", "medium")[(seat + seed) % 2], seed=seat)
                   for seat in range(rules.players)]
        game = run_game(OtiGame.new(rules, seed=seed), players)
        assert game.is_over and game.winner is not None


def test_hard_plays_a_whole_game_legally():
    rules = OtiRules(players=3, voluntary_pickup=True)
    players = [HardOtiBot(seed=1, iterations=3), MediumOtiBot(), bots.make_bot("oti", "easy", seed=2)]
    game = run_game(OtiGame.new(rules, seed=21), players)
    assert game.is_over


def test_bots_refuse_to_act_without_a_legal_action():
    game = OtiGame.new(TWO, seed=1)
    game.apply("ready", seat=0)
    for level in bots.LEVELS:
        with pytest.raises(ValueError, match="no legal action"):
            bots.make_bot("oti", level).act(game.view(0))


def test_bot_options_are_checked():
    with pytest.raises(TypeError):
        bots.make_bot("oti", "easy", depth=3)
    with pytest.raises(ValueError):
        HardOtiBot(time_budget=0)
    with pytest.raises(ValueError):
        HardOtiBot(iterations=0)
    for max_deals in (10, 100.5, "800", True):
        with pytest.raises(ValueError, match="max_deals must be a whole number of at least 24"):
            HardOtiBot(max_deals=max_deals)


# ------------------------------------------------------------------ easy


def test_easy_keeps_its_cards_as_dealt_and_varies_with_its_seed():
    game = OtiGame.new(TWO, seed=4)
    assert bots.make_bot("oti", "easy").act(game.view(0)) == "ready"
    game = OtiGame.from_position(TWO, ["3S 4S 6S 7S 8S 9S", "KC"], ["", ""], ["", ""])
    chosen = {bots.make_bot("oti", "easy", seed=s).act(game.view(0)) for s in range(20)}
    assert len(chosen) > 2


# ------------------------------------------------------------------ medium


def test_medium_swaps_strong_cards_face_up_before_play():
    game = OtiGame.from_deal(TWO, ["TS 2H AD", "3C 4C 6C"], ["3S 4H 6D", "7C 8C 9C"],
                             ["9S 9H 9D", "JC QC KC"], draw=[])
    bot = MediumOtiBot()
    while not game.ready[0]:
        game.apply(bot.act(game.view(0)), seat=0)
    assert sorted(game.view(0)["face_up"][0]) == ["2H", "AD", "TS"]
    assert game.view(0)["hand"] == ["3S", "4H", "6D"]


def position(hands, pile="", up=("", ""), down=("", ""), draw=""):
    return OtiGame.from_position(TWO, list(hands), list(up), list(down), draw=draw, pile=pile)


@pytest.mark.parametrize("hands, pile, expected, why", [
    (["3S 8H 8D KC 2C TC 4D 4H", "QS QH QD"], "7S", "play 8H 8D", "the lowest value that fits, as a pair"),
    (["3S 8H 8D 8C", "QS QH QD"], "7S", "play 8H 8D", "never three: two of the three"),
    (["7S 7H 3D KC", "QS QH QD"], "9D 7D 7C", "play 7S 7H", "close the value"),
    (["2S TS 9D", "QS QH QD"], "8C", "play 9D", "keep 2s and 10s while a plain card fits"),
    (["2S TS 3D", "QS QH QD"], "8C KC", "play 2S", "a 2 on a small pile"),
    (["2S TS 3D", "QS QH QD"], "8C 9C KC", "play TS", "a 10 on a big pile"),
    (["5S AS 3D", "QS QH QD"], "8C", "play 5S", "facing only high cards: a 5, then the 3"),
    (["3D 4D 6D", "QS QH QD"], "8C", "pickup", "nothing fits"),
])
def test_medium_rules_of_thumb(hands, pile, expected, why):
    draw = ["6C", "6D", "6H", "6S", "7C", "7D", "7H", "7S"]
    draw = [c for c in draw if c not in pile.split() and c not in " ".join(hands).split()]
    game = position(hands, pile=pile, draw=" ".join(draw))
    assert MediumOtiBot().act(game.view(0)) == expected, why


def test_medium_presses_a_player_down_to_face_up_cards():
    # the next player can still lay the 9 on a 7, not on a jack
    game = position(["7S JS 3D", ""], up=("", "9C 4C"))
    assert MediumOtiBot().act(game.view(0)) == "play JS"


@pytest.mark.parametrize("my_down, expected", [
    ("", "play 6S"),  # only the 4 is unseen: the 6 already beats the blind card for sure
    ("AH 9H", "play JS"),  # the ace, 9 and 4 are unseen: a jack or queen is beaten by one card
])
def test_medium_remembers_what_was_burnt_against_a_blind_card(my_down, expected):
    # Every card named nowhere is burnt; the next player has one blind card left, one of
    # the cards medium has not seen.  It plays the lowest value the fewest unseen cards beat.
    game = position(["6S JS QS", ""], down=(my_down, "4C"))
    view = game.view(0)
    assert len(view["burnt"]) == 52 - 4 - len(my_down.split())
    assert MediumOtiBot().act(view) == expected


# ------------------------------------------------------------------ hard


@pytest.mark.parametrize("hand, up, pile, winning", [
    ("4D 7S", "6C 8H AH", "", "play 4D"),  # the 4 first: the 7 then goes out over their 6
    ("5D QD", "KC", "2C", "play 5D"),  # a 5 and the queen on it: out at once
])
def test_hard_finds_the_win_the_rules_of_thumb_miss(hand, up, pile, winning):
    game = position([hand, ""], up=("", up), pile=pile)
    view = game.view(0)
    assert MediumOtiBot().act(view) != winning
    assert HardOtiBot(seed=0, iterations=4).act(view) == winning
    game.apply(winning)
    medium = MediumOtiBot()
    while not game.is_over:
        game.apply(medium.act(game.view(game.to_move)))
    assert game.winner == 0


def test_hard_is_reproducible_with_a_fixed_number_of_deals():
    def actions(seed: int) -> list:
        game = OtiGame.new(OtiRules(players=3), seed=8)
        players = [HardOtiBot(seed=seed, iterations=4), MediumOtiBot(), MediumOtiBot()]
        return run_game(game, players).actions

    assert actions(5) == actions(5)


def test_hard_answers_forced_moves_without_searching():
    game = position(["3S 4S", "KC"], pile="AH")
    bot = HardOtiBot(seed=0, time_budget=10)
    assert bot.act(game.view(0)) == "pickup" and bot.last_deals == 0


def test_candidates_merge_plays_that_differ_only_by_suit():
    legal = ["play 7S", "play 7H", "play 7S 7H", "play 9C", "pickup"]
    assert candidates(legal) == ["play 7S", "play 7S 7H", "play 9C", "pickup"]


def _z(ahead: list[float], behind: list[float]) -> float:
    diffs = [a - b for a, b in zip(ahead, behind, strict=True)]
    return lead_z(sum(diffs), sum(d * d for d in diffs), len(diffs))


def test_a_clear_lead_on_the_same_deals_is_needed_to_drop_a_move():
    assert _z([1.0] * 30, [0.0] * 30) >= CLEAR
    assert _z([1.0, 0.0] * 15, [1.0, 0.0] * 15) == 0  # cannot be told apart
    noisy = random.Random(1)
    assert _z(*[[float(noisy.random() < 0.5) for _ in range(30)] for _ in range(2)]) < CLEAR


def _a_five_or_aces() -> tuple[dict[str, Any], list[str]]:
    """A two-player view (medium's game, seed 11, 14 moves in) whose choices are a lone 5, an
    ace, or two aces: the 5 is clearly worse, the aces cannot be told apart."""
    game = medium_game(TWO, 11)
    medium = MediumOtiBot()
    for _ in range(14):
        game.apply(medium.act(game.view(game.to_move)))
    view = dict(game.view(game.to_move))
    return view, candidates(view["legal"])


@pytest.mark.slow
def test_hard_deals_no_more_to_a_move_clearly_behind():
    view, options = _a_five_or_aces()
    assert options == ["play 5C", "play AD", "play AD AC"]
    results = search(view, options, random.Random(0), time_budget=10)
    lone_five, ace, aces = (len(r) for r in results)
    assert lone_five < ace == aces  # the 5 dropped out of the race early; the aces went on
    assert sum(results[0]) / lone_five < min(sum(r) / len(r) for r in results[1:])
    assert HardOtiBot(seed=0, time_budget=10).act(view) in ("play AD", "play AD AC")


def test_hard_deals_no_more_than_max_deals():
    view, options = _a_five_or_aces()
    results = search(view, options, random.Random(0), time_budget=10, max_deals=48)
    assert max(len(r) for r in results) == 48  # the two aces cannot be told apart: they ran to the cap
    bot = HardOtiBot(seed=0, time_budget=10, max_deals=48)
    bot.act(view)
    assert bot.last_deals == 48


def test_determinize_deals_only_unseen_cards_and_keeps_what_is_known():
    game = OtiGame.new(OtiRules(players=3), seed=17)
    players = [MediumOtiBot() for _ in range(3)]
    for seat in range(3):
        while not game.ready[seat]:
            game.apply(players[seat].act(game.view(seat)), seat=seat)
    for _ in range(40):
        game.apply(players[game.to_move].act(game.view(game.to_move)))
    seat = game.to_move
    view = game.view(seat)
    unseen = set(unseen_cards(view))
    rng = random.Random(2)
    for _ in range(20):
        guess = determinize(view, rng)
        assert guess.hands[seat] == game.hands[seat] and guess.up == game.up
        assert guess.pile == game.pile and guess.burnt == game.burnt
        for other in range(3):
            assert guess.hands[other].bit_count() == game.hands[other].bit_count()
            assert guess.known[other] & guess.hands[other] == game.known[other]
            assert len(guess.down[other]) == len(game.down[other])
            assert {c for c in guess.down[other]} <= unseen
        assert set(guess.draw) <= unseen and guess.draw_left == game.draw_left
        assert 0.0 <= playout(guess.copy(history=False), seat) <= 1.0


def test_fast_playouts_play_the_same_game_as_the_engine():
    rng = random.Random(5)
    compared = 0
    for index in range(60):
        rules = OtiRules(players=rng.choice([2, 3, 4, 5]), ten_plays_again=rng.random() < 0.3,
                         play_to_last=rng.random() < 0.3)
        game = OtiGame.new(rules, seed=index)
        medium = MediumOtiBot()
        for seat in range(rules.players):
            while not game.ready[seat]:
                game.apply(medium.act(game.view(seat)), seat=seat)
        for _ in range(rng.randrange(60)):
            if game.is_over:
                break
            game.apply(medium.act(game.view(game.to_move)))
        if game.is_over:
            continue
        me = game.to_move
        deal = determinize(game.view(me), rng)
        start = Start.of(deal)
        before = repr(start)
        engine = deal.copy(history=False)
        expected = playout(engine, me)
        assert start.playout(me) == expected or engine.end_reason == "repetition"
        assert repr(start) == before  # a playout leaves its start alone
        compared += engine.end_reason == "out"
    assert compared > 40


def test_first_moves_of_playouts():
    assert first_move("play 9C 9D") == (0, 9, 2)
    with pytest.raises(ValueError):
        first_move("ready")


def test_a_spent_time_budget_still_judges_every_candidate_on_one_whole_deal():
    game = position(["3S 4S 6S 7S 9S", "KC QC JC"], draw="2D 2H")
    bot = HardOtiBot(seed=0, time_budget=1e-9)
    assert bot.act(game.view(0)) in game.legal_actions() and bot.last_deals == 1


def medium_game(rules: OtiRules, seed: int) -> OtiGame:
    game = OtiGame.new(rules, seed=seed)
    medium = MediumOtiBot()
    for seat in range(rules.players):
        while not game.ready[seat]:
            game.apply(medium.act(game.view(seat)), seat=seat)
    return game


def test_hand_inference_reads_what_medium_cannot_hold():
    def dealt(draw):
        game = OtiGame.from_deal(TWO, ["3S 4S 6S", "7C 8C 9C"], ["AS KS QS", "AC KC QC"],
                                 ["JS JH JD", "JC 3C 4C"], draw=draw)
        for seat in (0, 1):
            game.apply("ready", seat=seat)
        game.apply("play 3S")
        game.apply("play 8C")  # the 8, not the 7: as medium it holds no 3, 4, 6 or 7
        return game

    no_3_to_7 = sum(1 << v for v in (3, 4, 6, 7))
    game = dealt(["6H", "4D"])  # each draws a card after playing: that one is free again
    assert sorted(hand_inference(game.view(0))[1]) == [0, no_3_to_7, no_3_to_7]
    assert hand_inference(game.view(1))[0] == [0, 0, 0]  # the 3 on nothing: the lowest, no news
    game = dealt([])
    assert hand_inference(game.view(0))[1] == [no_3_to_7, no_3_to_7]
    game.apply("pickup")  # forced: 4S 6S do not go on the 8
    game.apply("play 7C")  # a 7 it "could not hold": not medium, so no model of it
    assert hand_inference(game.view(0))[1] == []


def test_hand_inference_holds_for_medium_players_and_shapes_the_deals():
    # Over whole games between medium players, the cards each seat cannot see in another's
    # hand are (nearly always) of values the inference allows, and determinize deals them so.
    checked = wrong = 0
    rng = random.Random(3)
    for players, seed in [(2, s) for s in range(8)] + [(3, s) for s in range(4)]:
        game = medium_game(OtiRules(players=players), seed)
        medium = MediumOtiBot()
        while not game.is_over:
            view = game.view(game.to_move)
            excluded = hand_inference(view)
            for seat in range(players):
                true_values = sorted(RANK_OF[c] for c in bits(game.hands[seat] & ~game.known[seat]))
                if seat == view["seat"] or not excluded[seat]:
                    continue
                checked += 1
                wrong += any(all(no >> v & 1 for no in excluded[seat]) for v in true_values)
                guess = determinize(view, rng, excluded=excluded)
                dealt = [RANK_OF[c] for c in bits(guess.hands[seat] & ~guess.known[seat])]
                allowed = sum(any(not no >> v & 1 for no in excluded[seat]) for v in dealt)
                assert allowed == len(dealt) or len(unseen_cards(view)) < 20
            game.apply(medium.act(view))
    assert checked > 300 and wrong <= checked // 50


def test_hard_reads_hands_only_when_told():
    assert HardOtiBot().infer and not HardOtiBot(infer=0).infer
    with pytest.raises(ValueError):
        HardOtiBot(infer="maybe")


def test_hand_inference_reads_a_game_the_repetition_rule_stopped():
    game = medium_game(TWO, 65)
    medium = MediumOtiBot()
    while not game.is_over:
        game.apply(medium.act(game.view(game.to_move)))
    assert game.end_reason == "repetition"  # the history ends with a stop event (no seat)
    assert len(hand_inference(game.view(0))) == 2
