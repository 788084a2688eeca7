"""Rules options: defaults as RULES.md, every option, clear refusals."""

import pytest

from bistrot.omi import OmiRules


def test_defaults_are_the_standard_game():
    rules = OmiRules()
    assert rules.to_dict() == {
        "target": 10, "direction": "counterclockwise", "deal_rotation": "with_play",
        "kapothi": "three_tokens", "redeal_few_trumps": False, "hands": 0, "players": 4,
    }
    assert rules.deck_size == 32 and rules.sides == 2 and list(rules.ranks) == list(range(7, 15))


def test_three_players_use_24_cards_nine_to_ace():
    rules = OmiRules(players=3)
    assert rules.deck_size == 24 and list(rules.ranks) == list(range(9, 15)) and rules.sides == 3
    assert [rules.side_of(s) for s in range(3)] == [0, 1, 2]
    assert [OmiRules().side_of(s) for s in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target": 0}, "target must be a positive whole number"),
        ({"target": "10"}, "target must be a positive whole number"),
        ({"target": True}, "target must be a positive whole number"),
        ({"players": 2}, "players must be 4 or 3"),
        ({"players": 4.0}, "players must be 4 or 3, not 4.0"),  # 4.0 == 4, yet range(4.0) fails
        ({"players": 3.0}, "players must be 4 or 3, not 3.0"),
        ({"direction": "left"}, "direction must be one of counterclockwise, clockwise"),
        ({"deal_rotation": "random"}, "deal_rotation must be one of with_play, against_play"),
        ({"kapothi": "double"}, "kapothi must be one of three_tokens, wins_match, announced"),
        ({"redeal_few_trumps": "yes"}, "redeal_few_trumps must be true or false"),
        ({"players": 3, "redeal_few_trumps": True}, "4 players only"),
        ({"players": 3, "kapothi": "announced"}, "partnership rule"),
        ({"trumps": 2}, "unknown Omi rules option trumps"),
    ],
)
def test_bad_options_are_refused_with_the_reason(options, message):
    with pytest.raises(ValueError, match=message):
        OmiRules.from_dict(options)


def test_rules_round_trip_through_dicts():
    rules = OmiRules(target=5, direction="clockwise", deal_rotation="against_play",
                     kapothi="announced", redeal_few_trumps=True)
    assert OmiRules.from_dict(rules.to_dict()) == rules
