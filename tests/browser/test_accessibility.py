"""axe-core on the pages people use: no serious or critical accessibility violation on the home
page, the rules pages and a table in play (both games, on a desktop and a phone). The challenge
page is checked in test_omi.py, where a challenge is made."""

from __future__ import annotations

import pytest

from .axe import blocking_violations
from .omi_driver import wait_for_turn

SIZES = {"desktop": (1280, 800), "phone": (360, 640)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", ["/", "/rules/omi", "/rules/oti"])
def test_the_home_and_rules_pages(server, pages, path, size):
    width, height = SIZES[size]
    page = pages.new(width=width, height=height)
    page.goto(server.base + path)
    page.wait_for_selector("main h1, main h2")
    assert blocking_violations(page) == []


@pytest.mark.parametrize("size", SIZES)
def test_an_omi_table_in_play(server, pages, size):
    width, height = SIZES[size]
    page = pages.new(width=width, height=height)
    page.goto(server.base + "/play/omi?level=easy")
    snap = wait_for_turn(page)
    assert snap["hand"]  # cards in hand, buttons enabled: the table as a player meets it
    assert blocking_violations(page) == []


@pytest.mark.parametrize("size", SIZES)
def test_an_oti_table_in_play(server, pages, size):
    width, height = SIZES[size]
    page = pages.new(width=width, height=height)
    page.goto(server.base + "/play/oti?level=easy&players=3")
    page.wait_for_selector(".felt.oti .hand button[data-card]")
    assert blocking_violations(page) == []
