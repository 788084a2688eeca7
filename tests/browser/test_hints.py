"""Hints in a game against the computer: a switch, off by default; once on, a Hint button (and
the "?" key) that marks the hard player's choice on the table; the end says hints were used; no
switch at a friends table."""

from __future__ import annotations

import re

from .axe import blocking_violations
from .browser_kit import go, open_friends_table, shot
from .omi_driver import choose_trump, play_card, play_until_over, wait_for_turn

SWITCH = "[data-action=hints]"
ASK = "[data-action=hint]"


def shown_hint(page) -> str:
    """Wait for the hint line and return the action it names."""
    page.wait_for_selector("[data-testid=hint]")
    return page.locator("[data-testid=hint]").get_attribute("data-action")


def test_hints_are_off_by_default_and_once_on_show_the_hard_players_choice(server, pages):
    page = pages.new()
    page.goto(server.base + "/")
    go(page, "/play/omi?level=easy&target=1")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    snap = wait_for_turn(page)
    assert snap["suits"], "seat 0 chooses trumps first"

    # Off by default: the switch is there, and no Hint button.
    page.wait_for_selector(SWITCH)
    assert page.locator(SWITCH).get_attribute("aria-checked") == "false"
    assert page.locator(ASK).count() == 0
    page.keyboard.press("?")  # (nothing to ask with hints off)
    assert page.locator("[data-testid=hint]").count() == 0

    page.click(SWITCH)
    assert page.locator(SWITCH).get_attribute("aria-checked") == "true"
    page.wait_for_selector(f"{ASK}:not([disabled])")

    # The "?" key asks: the trump suit hinted is marked, and the line says it.
    page.keyboard.press("?")
    action = shown_hint(page)
    assert re.fullmatch(r"trump [SHDC]", action), action
    suit = action.split()[1]
    marked = page.locator(f'button[data-suit="{suit}"].hinted')
    assert marked.count() == 1 and marked.get_attribute("aria-describedby") == "hint-line"
    assert page.locator("#hint-line").inner_text().startswith("Hint: choose ")
    choose_trump(page, suit)

    # A card: the Hint button asks; the card hinted is one the rules allow, marked in the hand.
    snap = wait_for_turn(page)
    page.click(ASK)
    action = shown_hint(page)
    assert action.startswith("play "), action
    card = action.split()[1]
    hinted = page.locator(f'.hand button[data-card="{card}"].hinted')
    assert hinted.count() == 1 and hinted.is_enabled()
    assert card in {c["card"] for c in snap["hand"] if c["enabled"]}
    assert page.locator("#hint-line").inner_text().startswith("Hint: play ")
    assert page.locator(ASK).is_disabled()  # this position's hint is shown already
    shot(page, "omi-hint")
    assert blocking_violations(page) == []  # the switch, the Hint button and the marked card
    play_card(page, card)
    assert page.locator(".hinted").count() == 0  # the hint was for that turn only

    play_until_over(page)
    page.wait_for_selector("[data-testid=hints-used]")
    assert page.locator("[data-testid=hints-used]").inner_text() == "You used hints (2)"

    # A challenge on this deal says, on the original game's result, that hints helped it.
    page.click("[data-action=challenge]")
    link = page.locator("[data-testid=challenge-link]")
    link.wait_for(state="attached")
    friend = pages.new()
    friend.goto(link.input_value())
    original = friend.locator("[data-testid=comparison] .result-card").first
    original.wait_for()
    assert "hints used" in original.locator(".result-detail").inner_text()

    # The switch is remembered in this browser.
    assert page.evaluate("localStorage.getItem('bistrot.hints')") == "on"
    # The home page's history says so too.
    table = re.search(r"/t/([^/?#]+)", page.url).group(1)
    go(page, "/")
    row = page.locator(f"[data-testid=history] li[data-table='{table}']")
    row.wait_for()
    assert "hints used" in row.inner_text()


def test_a_friends_table_offers_no_hints_even_with_hints_switched_on(server, pages):
    ama = pages.new()
    ama.goto(server.base + "/")
    go(ama, "/play/omi?level=easy")
    ama.wait_for_selector(SWITCH)
    ama.click(SWITCH)  # on, in this browser
    ama.wait_for_selector(ASK)
    open_friends_table(ama, server.base, "Ama")
    ama.click("[data-action=start]")
    wait_for_turn(ama)
    ama.wait_for_selector(".felt.omi")
    assert ama.locator(SWITCH).count() == 0 and ama.locator(ASK).count() == 0
    ama.keyboard.press("?")
    assert ama.locator("[data-testid=hint]").count() == 0
