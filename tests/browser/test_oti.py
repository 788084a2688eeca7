"""An Oti game against the computer, played by clicking: swap, play 1/2/4 equal cards, pick up, flip."""

from __future__ import annotations

import time

from .browser_kit import go, keep_for_readme, shot
from .oti_driver import CORNER, READY_JS, STATE_JS


def state(page) -> dict:
    page.wait_for_function(READY_JS, timeout=30000)
    return page.evaluate(STATE_JS)


def test_an_oti_game_against_the_computer(server, pages):
    page = pages.new()
    page.goto(server.base + "/")
    go(page, "/play/oti?level=easy&players=3")
    page.wait_for_selector(".felt.oti [data-action=ready]")
    assert page.locator(".oti-seat").count() == 2
    shot(page, "oti-swap")

    # Swap: a hand card for a face-up card.
    s = state(page)
    hand_card, up_card = s["hand"][0], s["up"][0]
    page.click(f'.oti-me .hand button[data-card="{hand_card}"]')
    page.click(f'.oti-me .table-cards button[data-card="{up_card}"]')
    page.wait_for_selector(f'.oti-me .hand button[data-card="{up_card}"]')
    page.wait_for_selector(f'.oti-me .table-cards button[data-card="{hand_card}"]')
    page.click("[data-action=ready]")

    seen = set()
    deadline = time.monotonic() + 180
    turns = 0
    while time.monotonic() < deadline:
        s = state(page)
        if s["over"]:
            break
        # Other players' cards are shown only when public (face up, or seen going into a hand).
        assert s["otherFaces"] == s["otherPublic"]
        turns += 1
        if turns == 6:
            page.wait_for_timeout(200)
            keep_for_readme(shot(page, "oti-table"), "oti-table.png")
        if "flip" in s["actions"]:
            seen.add("flip")
            page.click("[data-action=flip]")
        elif s["playable"]:
            card = s["playable"][0]
            # a person taps the visible corner of a card in an overlapping hand
            page.click(f'.oti-me button[data-card="{card}"]', position=CORNER)
            if page.locator("[data-action=play]:enabled").count():
                # Two or four equal cards could go: add the equal ones, then play them together.
                rank = card[:-1]
                for other in s["playable"][1:]:
                    if other[:-1] == rank and page.locator("[data-action=play]").count():
                        page.click(f'.oti-me button[data-card="{other}"]', position=CORNER)
                        seen.add("several")
                        break
                if page.locator("[data-action=play]:enabled").count():
                    page.click("[data-action=play]")
            seen.add("play")
        elif "pickup" in s["actions"]:
            seen.add("pickup")
            page.click("[data-action=pickup]")
        page.wait_for_timeout(20)
    else:
        raise AssertionError("the Oti game did not end in time")
    assert "play" in seen and turns > 5
    title = page.locator(".over-overlay h2").inner_text()
    assert title in ("You won!", "You lost")
    assert page.locator(".over-overlay .ranking li").count() == 3  # everybody, with a place
    assert page.locator("[data-action=rematch]").is_visible()
    shot(page, "oti-over")
