"""The page's choices come from what the server serves (GET /api/games, js/catalog.js): a game,
an option or a level the server lists shows up in the lobby, the rules pages and the router
without a line of page code."""

from __future__ import annotations

import json
import urllib.request

from .browser_kit import go


def test_the_lobby_and_rules_pages_are_built_from_the_list_of_games(server, pages):
    with urllib.request.urlopen(server.base + "/api/games", timeout=10) as answer:
        games = json.load(answer)["games"]
    # A third game with one option, and an extra option for the second game, as a server might list.
    extra = {"name": "house_rule", "type": "bool", "default": False, "choices": [], "min": None, "max": None,
             "tag": "HouseRule", "label": "opt.house_rule"}
    games[1]["options"].append(extra)
    games.append({**games[1], "name": "newgame", "title": "New game", "label": "game.newgame",
                  "options": [{**extra, "name": "rounds", "type": "int", "default": 3, "min": 1, "max": 9,
                               "label": "opt.rounds"}],
                  "levels": ["easy"], "default_level": "easy"})
    page = pages.new()
    page.route("**/api/games", lambda route: route.fulfill(json={"games": games}))
    page.goto(server.base + "/")
    page.wait_for_selector(".choice-card")
    assert page.locator(".choice-card").count() == len(games)

    page.click(f".choice-card[for=game-{games[1]['name']}]")
    page.locator("details.rules-options").evaluate("d => { d.open = true; }")
    assert page.locator("#opt-house_rule").count() == 1

    page.click(".choice-card[for=game-newgame]")
    page.locator("details.rules-options").evaluate("d => { d.open = true; }")
    assert page.locator("#opt-rounds").get_attribute("type") == "number"  # an int option without choices
    assert page.locator("#level option").all_inner_texts() == ["easy"]

    # The rules page of every listed game links to the others'.
    go(page, f"/rules/{games[0]['name']}")
    page.wait_for_selector(".options-table")
    assert page.locator(".options-table tbody tr").count() == len(games[0]["options"])
    linked = page.locator(".rules-page a[data-game]").evaluate_all("links => links.map(a => a.dataset.game)")
    assert linked == [g["name"] for g in games[1:]]

    # A name the server does not list is not a game.
    go(page, "/rules/nosuchgame")
    page.wait_for_selector(".error-page")
