"""An Omi match against the computer, played by clicking; its end, rematch and challenge."""

from __future__ import annotations

import re

from .axe import blocking_violations
from .browser_kit import go, keep_for_readme, shot
from .omi_driver import hand_shown, play_until_over, snapshot, wait_for_turn, wait_until_played


def test_a_whole_omi_match_against_the_computer(server, pages):
    page = pages.new(motion="no-preference")
    page.goto(server.base + "/")
    go(page, "/play/omi?level=easy&target=1")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(".felt.omi")
    # Your own plate does not tell you that you are connected; the chooser's badge is no "?".
    assert page.locator("[data-testid=plate-0] .plate-status").count() == 0
    assert "?" not in page.locator(".felt .badge.chooser").first.inner_text()
    screens = {}

    def on_turn(page, snap, n):
        # Never a card this seat may not see: its hand, and cards on the table only.
        assert snap["faces"] == len(snap["hand"]) + len(snap["trick"])
        if snap["suits"]:
            # keyboard: "H" chooses hearts
            shot(page, "omi-trump-choice")
            page.keyboard.press("H")
            page.wait_for_selector('[data-testid=trump] [data-trump="H"]')
            return True
        if n == 0:
            # keyboard: move to a playable card and press Enter
            page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused and page.locator(f'.hand button[data-card="{focused}"]').is_enabled()
            before = hand_shown(page)
            page.keyboard.press("Enter")
            wait_until_played(page, before)
            assert focused not in hand_shown(page).split(), "Enter played the focused card"
            return True
        if n == 3 and "table" not in screens and len(snap["trick"]) >= 2:
            page.wait_for_timeout(400)  # let the dealt card settle for the picture
            screens["table"] = shot(page, "omi-table")
        return False

    played = play_until_over(page, on_turn=on_turn)
    assert played >= 8
    screens.setdefault("table", None)
    over = page.locator(".over-overlay")
    assert over.locator("h2").inner_text() in ("You won!", "You lost")
    tokens = [int(page.locator(f"[data-testid=tokens-{s}] strong").inner_text()) for s in (0, 1)]
    assert max(tokens) >= 1 and min(tokens) == 0
    assert over.locator("table.results tbody tr").count() >= 1
    # Who chose trumps each hand, and what the marks mean.
    assert over.locator("table.results thead th").nth(1).inner_text() == "Chose"
    chose = over.locator("table.results td.chose").all_inner_texts()
    assert chose and all(name in ("You", "Computer 2", "Computer 3", "Computer 4") for name in chose), chose
    # The legend explains only the marks the table shows: ★, for a kapothi, when there was one.
    legend = over.locator("[data-testid=scores-legend]")
    kapothi = "★" in over.locator("table.results").inner_text()
    assert legend.count() == int(kapothi)
    assert not kapothi or legend.inner_text() == "★: kapothi, all 8 tricks."
    assert re.search(r"\w{4}-\w{4}-\w{4}", over.locator(".deal-code").inner_text())
    shot(page, "omi-match-over")

    # The last trick, on demand.
    over.locator(".close").click()
    page.click("[data-action=last-trick]")
    assert page.locator(".last-trick .trick-card").count() == 4
    shot(page, "omi-last-trick")
    page.keyboard.press("Escape")

    # Challenge a friend on this deal: a link and its QR code, and the comparison page.
    page.click("text=Result")
    page.click("[data-action=challenge]")
    link = page.locator("[data-testid=challenge-link]").input_value()
    assert "/challenge/" in link
    assert page.locator(".challenge-share svg.qr path").count() == 1
    shot(page, "omi-challenge-link")

    friend = pages.new()
    friend.goto(link)
    friend.wait_for_selector("[data-testid=comparison] .result-card")
    assert friend.locator(".result-card").count() == 1
    assert blocking_violations(friend) == []  # the challenge page, checked by axe-core
    friend.fill("#challenge-name", "Nimali")
    friend.click("[data-action=play-challenge]")
    friend.wait_for_selector(".felt.omi")
    play_until_over(friend)
    friend.wait_for_selector("[data-testid=comparison] .result-card >> nth=1")
    cards = friend.locator("[data-testid=comparison] .result-card")
    assert cards.count() == 2
    assert "Nimali" in cards.nth(1).inner_text()
    shot(friend, "challenge-comparison")

    # Rematch: same seats, a fresh deal, at once.
    page.click("[data-action=rematch]")
    page.wait_for_function("() => !document.querySelector('.over-overlay')")
    snap = wait_for_turn(page)
    assert snap["hand"] or snap["suits"] or not snap["over"]
    if screens["table"]:
        keep_for_readme(screens["table"], "omi-table.png")


def test_a_rule_option_from_the_link_reaches_the_table(server, pages):
    page = pages.new()
    page.goto(server.base + "/")
    go(page, "/play/omi?level=easy&target=5&direction=clockwise")
    page.wait_for_selector(".felt.omi")
    assert page.locator("[data-testid=tokens-0] small").inner_text().strip() == "/ 5"
    # clockwise: the next player in play order (seat 1) sits on the left
    assert page.locator(".seat-left").get_attribute("data-seat") == "1"
    assert page.locator(".seat-right").get_attribute("data-seat") == "3"
    labels = page.locator(".hand button[data-card]").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))"
    )
    # What is written on the card, then its name in words ("Q♦, queen of diamonds").
    spoken = re.compile(r"(\d+|[JQKA])[♠♥♦♣], (\d+|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)")
    assert labels and all(spoken.fullmatch(x) for x in labels)


def test_the_quick_start_link_opened_directly(server, pages):
    # A link shared or typed in the address bar, not followed inside the page.
    page = pages.new()
    response = page.goto(server.base + "/play/omi?level=easy&target=5")
    assert response.status == 200
    page.wait_for_selector(".felt.omi")
    assert snapshot(page)["hand"]


def test_a_bad_rule_is_explained(server, pages):
    page = pages.new()
    page.goto(server.base + "/")
    go(page, "/play/omi?target=0")
    page.wait_for_selector(".error-page")
    assert "target" in page.locator(".error-page").inner_text()
