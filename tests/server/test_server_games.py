"""GET /api/games: every registered game with every rules option, as the registry and the rules
classes say, documented in the OpenAPI schema; the protocol's names for levels and modes are the
registry's."""

from __future__ import annotations

from typing import get_args

import httpx

from bistrot import games
from bistrot.server.protocol import Level, Mode


def test_every_game_is_served_with_every_option_its_type_choices_and_default(server):
    served = httpx.get(f"{server.url}/api/games").json()["games"]
    assert [g["name"] for g in served] == ["omi", "oti"]
    for game in served:
        entry = games.get(game["name"])
        options = entry.rules_class().options()
        assert [o["name"] for o in game["options"]] == [o.name for o in options]
        defaults = entry.rules_class()().to_dict()
        for option in game["options"]:
            assert option["type"] in ("int", "bool", "choice")
            assert option["default"] == defaults[option["name"]]
            assert option["label"] == f"opt.{option['name']}" and option["tag"]
            if option["type"] == "choice":
                assert option["default"] in option["choices"]
            if option["type"] == "int":
                assert option["min"] <= option["default"] <= option["max"]
        assert game["levels"] == ["easy", "medium", "hard"] and game["default_level"] == "medium"
        assert game["modes"] == ["computer", "friends", "hotseat"]
    omi = {o["name"]: o for o in served[0]["options"]}
    assert omi["kapothi"]["choices"] == ["three_tokens", "wins_match", "announced"]
    assert omi["target"]["choices"] == [10, 5] and omi["redeal_few_trumps"]["type"] == "bool"


def test_the_games_are_documented_in_the_openapi_schema(server):
    schema = httpx.get(f"{server.url}/openapi.json").json()
    answer = schema["paths"]["/api/games"]["get"]["responses"]["200"]["content"]["application/json"]
    assert answer["schema"]["$ref"].endswith("/GameList")
    option = schema["components"]["schemas"]["GameOption"]["properties"]
    assert {"name", "type", "default", "choices", "min", "max", "tag", "label"} <= set(option)


def test_the_protocol_names_the_registry_levels_and_modes():
    assert get_args(Level) == games.LEVELS
    assert get_args(Mode) == games.MODES
