"""The Oti engine's API: the swap phase, refusals that change nothing, views, determinism,
deal codes and records."""

from __future__ import annotations

import pytest

from bistrot.cards import CARD_NAMES
from bistrot.oti import IllegalAction, OtiGame, OtiRules, deal

TWO = OtiRules(players=2)


def fingerprint(game: OtiGame) -> tuple:
    return (
        tuple(game.hands), tuple(game.up), tuple(game.down), tuple(game.pile), game.burnt,
        game.draw_pos, game.to_move, game.phase, tuple(game.actions), game.again, tuple(game.out),
        tuple(game.ready), tuple(game.known), len(game.history or ()), game.winner,
    )


def ready_all(game: OtiGame) -> None:
    for seat in range(game.rules.players):
        if not game.ready[seat]:
            game.apply("ready", seat=seat)


def play_out(game: OtiGame) -> OtiGame:
    ready_all(game)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game


# ------------------------------------------------------------------ rules object


def test_rules_defaults_and_options():
    rules = OtiRules()
    assert rules.to_dict() == {
        "players": 4, "ten_plays_again": False, "voluntary_pickup": False, "play_to_last": False
    }
    assert OtiRules.from_dict(rules.to_dict()) == rules
    for players in (2, 3, 4, 5):
        assert OtiRules(players=players).players == players


@pytest.mark.parametrize("options, message", [
    ({"players": 1}, "players must be"),
    ({"players": True}, "players must be"),
    ({"players": "3"}, "players must be"),
    ({"ten_plays_again": 1}, "true or false"),
    ({"jokers": True}, "unknown Oti rules option jokers"),
])
def test_bad_rules_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        OtiRules.from_dict(options)


# ------------------------------------------------------------------ the deal


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_deal_gives_three_of_each_and_keeps_the_rest_to_draw(players):
    position = deal(OtiRules(players=players), 11)
    for zone in (position.hands, position.face_up, position.face_down):
        assert [len(cards) for cards in zone] == [3] * players
    assert sorted(position.cards()) == list(range(52))
    assert len(position.draw) == 52 - 9 * players


def test_same_seed_same_deal_and_deal_codes_name_seeds():
    a, b = OtiGame.new(TWO, seed=99), OtiGame.new(TWO, seed=99)
    assert a.view(0) == b.view(0) and a.down == b.down and a.draw == b.draw
    c = OtiGame.new(TWO, seed=a.deal_code)
    assert c.seed == 99 and c.down == a.down
    assert OtiGame.new(TWO, seed=100).down != a.down
    assert OtiGame.new(TWO).seed != OtiGame.new(TWO).seed  # fresh random seeds


def test_the_deal_is_stable_across_versions():
    # Deal codes are shared between people: this deal must never change.
    position = deal(TWO, 42)
    assert [CARD_NAMES[c] for c in position.hands[0]] == ["QC", "2D", "TC"]
    assert [CARD_NAMES[c] for c in position.face_down[1]] == ["9D", "2H", "6S"]
    assert CARD_NAMES[position.draw[0]] == "3C"


# ------------------------------------------------------------------ the swap phase


def test_the_swap_phase_everyone_acts_with_their_seat():
    game = OtiGame.new(OtiRules(players=3), seed=5)
    assert game.phase == "swap" and game.to_move is None
    assert game.legal_actions() == []
    legal = game.legal_actions(2)
    assert len(legal) == 10 and legal[-1] == "ready"
    hand, up = game.view(2)["hand"], game.view(2)["face_up"][2]
    game.apply(f"swap {hand[0]} {up[0]}", seat=2)
    assert hand[0] in game.view(0)["face_up"][2] and up[0] in game.view(2)["hand"]
    assert game.view(0)["known_in_hand"][2] == [up[0]]
    game.apply("ready", seat=2)
    assert game.legal_actions(2) == [] and game.phase == "swap"
    game.apply("ready", seat=0)
    game.apply(f"swap {game.view(1)['hand'][1]} {game.view(1)['face_up'][1][2]}", seat=1)
    game.apply("ready", seat=1)
    assert game.phase == "play" and game.to_move == game.first_player


def test_swap_phase_refusals():
    game = OtiGame.new(TWO, seed=42)
    hand, up = game.view(0)["hand"], game.view(0)["face_up"][0]
    cases = [
        ("ready", None, "seat_required"),
        (f"play {hand[0]}", 0, "wrong_phase"),
        ("pickup", 0, "wrong_phase"),
        (f"swap {up[0]} {hand[0]}", 0, "not_held"),
        (f"swap {hand[0]} {hand[1]}", 0, "not_held"),
        (f"swap {game.view(1)['hand'][0]} {up[0]}", 0, "not_held"),
        ("ready", 2, "unknown_seat"),
        ("ready", -1, "unknown_seat"),
    ]
    for action, seat, code in cases:
        before = fingerprint(game)
        with pytest.raises(IllegalAction) as err:
            game.apply(action, seat=seat)
        assert err.value.code == code, action
        assert fingerprint(game) == before
    game.apply("ready", seat=0)
    for action in ("ready", f"swap {hand[0]} {up[0]}"):
        with pytest.raises(IllegalAction) as err:
            game.apply(action, seat=0)
        assert err.value.code == "already_ready"


# ------------------------------------------------------------------ play phase refusals


def test_play_phase_refusals_change_nothing():
    game = OtiGame.from_position(TWO, ["3S 7S 7H 7D 9C", "KC QC JC"], ["AS", ""], ["2C", ""], pile="8H")
    cases = [
        ("dance", None, "unknown_action"),
        ("play", None, "unknown_action"),
        ("play ZZ", None, "unknown_action"),
        ("play 9C 9C", None, "unknown_action"),
        (42, None, "unknown_action"),
        ("play 9C", 1, "not_your_turn"),
        ("swap 9C AS", None, "wrong_phase"),
        ("ready", 0, "wrong_phase"),
        ("play KC", None, "not_held"),
        ("play 2C", None, "not_held"),  # own face-down card: not held, and not named as such
        ("play AS", None, "face_up_later"),
        ("play 7S 7H 7D", None, "three_cards"),
        ("play 7S 9C", None, "mixed_values"),
        ("play 3S", None, "too_low"),
        ("play 7S", None, "too_low"),
        ("pickup", None, "cannot_pickup"),
        ("flip", None, "cannot_flip"),
        ("play 9C", 5, "unknown_seat"),
    ]
    for action, seat, code in cases:
        before = fingerprint(game)
        with pytest.raises(IllegalAction) as err:
            game.apply(action, seat=seat)
        assert err.value.code == code, action
        assert isinstance(err.value, ValueError) and str(err.value)
        assert fingerprint(game) == before, action
    game.apply("play 9C", seat=0)
    assert game.to_move == 1


def test_refusal_messages_do_not_reveal_where_a_card_is():
    # Naming a card you do not hold reads the same wherever that card really is.
    game = OtiGame.new(TWO, seed=8)
    ready_all(game)
    seat = game.to_move
    own = set(game.view(seat)["hand"])
    public = set(game.view(seat)["face_up"][seat])
    messages = set()
    for name in CARD_NAMES:
        if name in own or name in public:
            continue
        with pytest.raises(IllegalAction) as err:
            game.apply(f"play {name}")
        assert err.value.code == "not_held"
        messages.add(str(err.value).replace(name, "<card>"))
    assert len(messages) == 1


# ------------------------------------------------------------------ views


def test_views_show_counts_for_hidden_cards_and_the_seed_only_at_the_end():
    game = OtiGame.new(OtiRules(players=3), seed=31)
    view = game.view(1)
    assert view["game"] == "oti" and view["seat"] == 1 and view["players"] == 3
    assert view["face_down"] == [3, 3, 3] and view["hand_counts"] == [3, 3, 3]
    assert view["draw_pile"] == 52 - 27 and view["rules"] == game.rules.to_dict()
    assert "deal_code" not in view and "seed" not in view
    for seat in (0, 2):
        for card in game.view(seat)["hand"]:
            assert card not in str(view)
    spectator = game.view(None)
    assert spectator["hand"] == [] and spectator["legal"] == [] and spectator["seat"] is None
    play_out(game)
    assert game.view(None)["deal_code"] == game.deal_code and game.view(0)["is_over"]


def test_view_refuses_a_bad_seat():
    with pytest.raises(ValueError):
        OtiGame.new(TWO, seed=1).view(2)


def test_the_pile_and_what_must_be_beaten_are_public():
    game = OtiGame.from_position(TWO, ["9S 3D", "KC"], ["", ""], ["", ""], pile="4H 8H")
    view = game.view(1)
    assert view["pile"] == ["4H", "8H"] and view["pile_count"] == 2
    assert view["top"] == "8H" and view["to_beat"] == "8" and view["source"] == "hand"
    assert view["legal"] == [] and game.view(0)["legal"] == ["play 9S"]


# ------------------------------------------------------------------ copies, replays, records


def test_copy_is_independent():
    game = OtiGame.new(TWO, seed=3)
    ready_all(game)
    other = game.copy()
    game.apply(game.legal_actions()[0])
    assert other.actions != game.actions and len(other.pile) == 0
    fast = game.copy(history=False)
    fast.apply(fast.legal_actions()[0])
    assert fast.history is None and len(game.history) == len(game.actions)


def test_replay_and_equality():
    game = play_out(OtiGame.new(OtiRules(players=4), seed=12))
    again = OtiGame.replay(game.rules, game.deal_code, game.actions)
    assert again == game and hash(again) == hash(game)
    assert again.winner == game.winner and again.view(None) == game.view(None)
    assert OtiGame.replay(game.rules, game.seed, game.actions[:-1]) != game
    with pytest.raises(ValueError, match="action 1"):
        OtiGame.replay(game.rules, game.seed, ["play 2S"])


@pytest.mark.parametrize("rules", [
    OtiRules(players=2), OtiRules(players=5, play_to_last=True),
    OtiRules(players=3, ten_plays_again=True, voluntary_pickup=True),
])
def test_records_round_trip(rules):
    game = OtiGame.new(rules, seed=77)
    view = game.view(0)
    game.apply(f"swap {view['hand'][0]} {view['face_up'][0][2]}", seat=0)
    play_out(game)
    text = game.record()
    assert '[Game "Oti"]' in text and f'[Seed "{game.deal_code}"]' in text
    back = OtiGame.from_record(text)
    assert back == game and back.record() == text and back.ranking == game.ranking
    half = OtiGame.replay(rules, game.seed, game.actions[: len(game.actions) // 2])
    assert OtiGame.from_record(half.record()) == half and '[Result "*"]' in half.record()


def test_records_of_hand_built_games_round_trip():
    game = OtiGame.from_position(OtiRules(players=3, play_to_last=True), ["9S 3D", "KC", "4C 4D"],
                                 ["", "8S", "AS"], ["", "", "2C"], pile="4H", to_move=2)
    game.apply("play 4C 4D")
    game.apply("play 9S")
    back = OtiGame.from_record(game.record())
    assert back == game and back.view(0) == game.view(0)
    dealt = OtiGame.from_deal(TWO, ["3S 4S 6S", "7S 8S 9S"], ["AS KS QS", "AH KH QH"],
                              ["2S 2H 2D", "5S 5H 5D"], seed=4)
    play_out(dealt)
    assert OtiGame.from_record(dealt.record()) == dealt


@pytest.mark.parametrize("text, message", [
    ('[Game "Omi"]\n', "not of Oti"),
    ('[Game "Oti"]\n', "Seed"),
    ('[Game "Oti"]\n[Seed "0000-0000-01A5"]\n[Players "x"]\n', "whole number"),
    ('[Game "Oti"]\n[Seed "0000-0000-01A5"]\n[PlayToLast "maybe"]\n', "on or off"),
    ('[Game "Oti"]\n[Seed "0000-0000-01A5"]\n[Players "2"]\nplay 3S\n', "which seat"),
    ('[Game "Oti"]\n[Seed "0000-0000-01A5"]\n[Players "2"]\n0: dance\n', "not an Oti action"),
    ('[Game "Oti"]\n[Seed "0000-0000-01A5"]\n[Players "2"]\n0: play 3S\n', "cannot be played"),
    ('[Game "Oti"]\n[Seed "0000-0000-01A5"]\n[Players "2"]\n7: ready\n', "seat 7"),
    ('[Game "Oti"]\n[Seed "0000-0000-01A5"]\n[Players "2"]\n[Hands "3S / 4S"]\n', "FaceUp"),
])
def test_bad_records_are_refused_with_the_reason(text, message):
    with pytest.raises(ValueError, match=message):
        OtiGame.from_record(text)


@pytest.mark.parametrize("kwargs, message", [
    ({"hands": ["3S", "3S"]}, "placed twice"),
    ({"hands": ["3S"]}, "one entry per player"),
    ({"hands": ["3S", "XX"]}, "not a card"),
    ({"hands": ["3S", ""]}, "two players with cards"),
    ({"hands": ["3S", "4S"], "draw": "5S"}, "at least 3"),
    ({"hands": ["3S", "4S"], "to_move": 2}, "to_move"),
])
def test_bad_positions_are_refused(kwargs, message):
    args = {"hands": ["3S", "4S"], "face_up": ["", ""], "face_down": ["", ""]} | kwargs
    with pytest.raises(ValueError, match=message):
        OtiGame.from_position(TWO, **args)
