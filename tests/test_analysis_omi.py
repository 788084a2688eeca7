"""Omi analysis: double-dummy losses card by card, knowledge losses from the seat's view only."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bistrot.analysis import analyze, analyze_record
from bistrot.analysis.marks import OMI
from bistrot.analysis.omi import judge, judge_cards, judge_dd, judge_trump, points
from bistrot.analysis.result import DIGITS
from bistrot.bots import play
from bistrot.cards import CARD_NAMES, SUIT_MASKS, bits
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd import Position, available_solvers, parse_hand, solve

DDS = "dds" in available_solvers()


def medium_hand(seed: int, rules: OmiRules | None = None) -> OmiGame:
    """The first hand of a match played by medium players."""
    return play(OmiGame.new(rules or OmiRules(), seed), "medium", until=lambda g: bool(g.results))


# ----------------------------------------------------------------------------- double dummy


def test_a_card_that_loses_a_trick_double_dummy_gets_dd_loss_and_the_best_card_none() -> None:
    # Hearts trump, seat 0 leads: the ace of hearts first takes both tricks, the queen only one.
    hands = tuple(parse_hand(h) for h in (".AQ..", "K.K..", "AJ...", "Q.J.."))
    pos = Position(hands=hands, trump=1)
    tricks, best, loss = judge_dd(pos, "play QH")
    assert tricks == {"play QH": 1, "play AH": 2} and best == ["play AH"] and loss == 1
    assert judge_dd(pos, "play AH")[2] == 0


def test_in_a_game_the_card_that_gives_a_trick_away_is_caught() -> None:
    game = OmiGame.from_deal(OmiRules(), [
        "AH JH 8H KC 7S 8S 9S TS".split(), "7H 9H AC 8C JS QS KS AS".split(),
        "TH QH KH 7C 7D 8D 9D TD".split(), "9C TC JC QC JD QD KD AD".split(),
    ])
    game.apply("trump H")
    found = analyze(game, samples=4)
    assert [m.kind for m in found.moves] == ["trump"]
    tricks, best, _ = judge_dd(Position.from_game(game), "play AH")
    worst = min(tricks, key=tricks.__getitem__)
    assert tricks[worst] < max(tricks.values())
    for action, losing in ((worst, True), (best[0], False)):
        played = game.copy()
        played.apply(action)
        card = analyze(played, samples=4).moves[-1]
        assert card.kind == "card" and card.index == 1 and card.dd_tricks == tricks
        assert (card.dd_loss is not None and card.dd_loss >= 1) == losing
        assert card.dd_loss == max(tricks.values()) - tricks[action]
        assert card.best == best and card.mark == OMI.mark(card.loss) and card.loss >= 0


@st.composite
def positions(draw: st.DrawFn) -> OmiGame:
    """A random four-player Omi game part-way through its first hand, in the play phase."""
    game = OmiGame.new(OmiRules(), draw(st.integers(0, 2**32)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    game.apply(rng.choice(game.legal_actions()))
    for _ in range(draw(st.integers(0, 27))):
        game.apply(rng.choice(game.legal_actions()))
    return game


@settings(max_examples=60, deadline=None)
@given(positions())
def test_dd_loss_agrees_with_dds_card_by_card(game: OmiGame) -> None:
    pos = Position.from_game(game)
    reference = solve(pos, solver="dds" if DDS else "python")
    top = max(reference.values())
    for card in bits(pos.legal_cards()):
        action = f"play {CARD_NAMES[card]}"
        _, best, loss = judge_dd(pos, action)
        assert loss == top - reference[card] >= 0
        assert (loss == 0) == (action in best)
        if DDS and pos.tricks_left <= 5:  # the built-in solver too, where it is quick
            assert judge_dd(pos, action, solver="python")[2] == loss


# ----------------------------------------------------------------------------- what the seat knew


@pytest.mark.slow
def test_loss_is_reproducible_with_a_seed_and_depends_on_it() -> None:
    game = medium_hand(21)
    one = analyze(game, samples=6, seed=3).to_dict()
    assert one == analyze(game, samples=6, seed=3).to_dict()
    other = analyze(game, samples=6, seed=4).to_dict()
    assert [m["dd_loss"] for m in one["moves"] if "dd_loss" in m] == [
        m["dd_loss"] for m in other["moves"] if "dd_loss" in m]
    assert [m["values"] for m in one["moves"]] != [m["values"] for m in other["moves"]]


def _hidden_swapped(game: OmiGame, seat: int, rng: random.Random) -> OmiGame:
    """The same game (same actions) with the cards ``seat`` has not seen played exchanged
    between the other hands, suit by suit, so every play stays legal and ``seat``'s view is
    the same."""
    n = game.rules.players
    now = game.hands
    dealt = [list(cards) for cards in game.dealt]
    others = [s for s in range(n) if s != seat]
    for suit in range(4):
        pool = [c for s in others for c in bits(now[s] & SUIT_MASKS[suit])]
        shuffled = pool[:]
        rng.shuffle(shuffled)
        swap = dict(zip(pool, shuffled, strict=True))
        for s in others:
            dealt[s] = [swap.get(c, c) for c in dealt[s]]
    other = OmiGame.from_deal(game.rules, dealt, game.dealer)
    other.apply_all(game.actions)
    return other


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(1, 26), shuffle=st.integers(0, 2**32))
def test_a_decision_is_judged_the_same_whatever_the_cards_the_seat_could_not_see(
        seed: int, moves: int, shuffle: int) -> None:
    game = OmiGame.new(OmiRules(), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game.apply(rng.choice(game.legal_actions()))
    seat = game.to_move
    assert seat is not None
    other = _hidden_swapped(game, seat, random.Random(shuffle))
    assert other.view(seat) == game.view(seat)
    action = rng.choice(game.legal_actions())
    view = game.view(seat)
    assert judge_cards(view, action, 4, 1) == judge_cards(other.view(seat), action, 4, 1)
    game.apply(action)
    other.apply(action)
    one, two = analyze(game, samples=4, seed=1), analyze(other, samples=4, seed=1)
    judged = [(m.index, m.loss, m.values, m.best_expected) for m in one.moves if m.seat == seat]
    assert judged == [(m.index, m.loss, m.values, m.best_expected) for m in two.moves if m.seat == seat]
    assert (judged and judged[-1][0] == moves) or len(view["legal"]) < 2


def test_the_trump_choice_is_judged_from_the_four_cards_seen_only() -> None:
    game = OmiGame.new(OmiRules(), 12)
    view = game.view(0)
    dealt = [list(cards) for cards in game.dealt]
    rest = dealt[0][4:] + [c for s in (1, 2, 3) for c in dealt[s]]
    random.Random(5).shuffle(rest)
    changed = [dealt[0][:4] + rest[:4], rest[4:12], rest[12:20], rest[20:28]]
    other = OmiGame.from_deal(OmiRules(), changed, game.dealer)
    assert other.view(0) == view and other.dealt != game.dealt
    values, best, loss = judge_trump(view, "trump S", 6, 2)
    assert (values, best, loss) == judge_trump(other.view(0), "trump S", 6, 2)
    assert set(values) == {"trump S", "trump H", "trump D", "trump C"}
    assert loss == round(max(values.values()) - values["trump S"], DIGITS) >= 0 and best


def test_every_decision_with_a_choice_is_judged_and_only_those() -> None:
    game = medium_hand(30)
    replay = game.restart()
    expected = []
    for index, (seat, action) in enumerate(game.actions):
        if len(replay.legal_actions()) >= 2:
            expected.append(index)
        replay.apply(action, seat=seat)
    found = analyze(game, samples=2)
    assert [m.index for m in found.moves] == expected == [p.index for p in points(game)]
    for move in found.moves:
        assert move.action == game.actions[move.index][1] and move.seat == game.actions[move.index][0]
        assert move.loss >= 0 and move.mark == OMI.mark(move.loss)
        assert (move.dd_loss is not None) == (move.kind == "card")
        assert move.action in move.values
    assert set(found.players) == {0, 1, 2, 3}


def test_unfinished_records_are_analysed_up_to_their_last_action() -> None:
    game = OmiGame.new(OmiRules(), 40)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    found = analyze_record(game.record(), samples=2)
    assert not found.over and max(m.index for m in found.moves) <= 5


def test_announced_kapothi_is_a_decision_of_its_own() -> None:
    # Seat 0's side takes every trick: at trick 7 seat 0 may announce, and should.
    rules = OmiRules(kapothi="announced")
    game = OmiGame.from_deal(rules, [
        "AS KS QS JS AH KH QH JH".split(), "7S 8S 9S TS 7H 8H 9H TH".split(),
        "AD KD QD JD AC KC QC JC".split(), "7D 8D 9D TD 7C 8C 9C TC".split(),
    ])
    game.apply("trump S")
    while "kapothi" not in game.legal_actions():
        game.apply(game.legal_actions()[-1] if game.to_move == 0 else game.legal_actions()[0])
    point_index = len(game.actions)
    game.apply("kapothi")
    found = analyze(game, samples=2)
    move = found.moves[-1]
    assert move.index == point_index and move.kind == "kapothi" and move.dd_loss is None
    assert move.best == ["kapothi"] and move.loss == 0


def test_three_players() -> None:
    found = analyze(medium_hand(8, OmiRules(players=3)), samples=2, solver="python")
    assert set(found.players) == {0, 1, 2}
    assert all(m.loss >= 0 for m in found.moves)


def test_judge_needs_only_a_point() -> None:
    game = medium_hand(2)
    first = points(game)[1]
    assert judge(first, 2, 0) == judge(first, 2, 0)


def test_a_trump_that_forces_a_redeal_is_worth_nothing_on_that_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    from bistrot.analysis import omi

    rules = OmiRules(redeal_few_trumps=True)
    deal = ["AC KC QC JC AH KH QH JH", "7S 8S 9S TS 7H 8H 9H TH", "TC 9C 8C 7C AD KD QD JD",
            "AS KS QS JS 7D 8D 9D TD"]
    game = OmiGame.from_deal(rules, [d.split() for d in deal])
    dealt = [list(cards) for cards in game.dealt]
    assert omi._redealt(game.view(0), dealt, 3)  # seats 1 and 3 hold no club
    assert not omi._redealt(game.view(0), dealt, 1)
    monkeypatch.setattr(omi, "_redealt", lambda view, dealt, suit: suit == 3)
    values, _, _ = judge_trump(game.view(0), "trump C", 4, 1)
    assert values["trump C"] == 0 and values["trump S"] != 0
