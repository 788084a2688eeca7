"""Languages (chosen from the browser, switchable, remembered) and a 360x640 phone."""

from __future__ import annotations

from .browser_kit import go, shot
from .omi_driver import choose_trump, play_card, wait_for_turn


def test_the_language_follows_the_browser_and_can_be_switched(server, pages):
    page = pages.new(locale="fr-FR")
    page.goto(server.base + "/")
    assert page.locator("h1").inner_text() == "Jouez à l'Omi et à l'Oti"
    assert page.evaluate("document.documentElement.lang") == "fr"

    page.select_option("[data-testid=language]", "zh")
    page.wait_for_function("() => document.querySelector('h1').textContent === '玩 Omi 和 Oti'")
    page.reload()
    assert page.locator("h1").inner_text() == "玩 Omi 和 Oti"  # remembered

    page.select_option("[data-testid=language]", "si")
    page.wait_for_function("() => document.documentElement.lang === 'si'")
    assert "ඕමි" in page.locator("h1").inner_text()
    shot(page, "home-sinhala")

    go(page, "/rules/omi")
    page.select_option("[data-testid=language]", "ta")
    page.wait_for_function("() => document.querySelector('h1').textContent === 'ஓமி விதிகள்'")
    assert page.locator(".rules-page section").count() >= 6
    shot(page, "rules-omi-tamil")

    # At the table, the cards' spoken names change with the language.
    go(page, "/play/omi?level=easy&target=5")
    page.wait_for_selector(".hand button[data-card]")
    page.select_option("[data-testid=language]", "fr")
    page.wait_for_function(
        "() => document.querySelector('.hand button[data-card]').getAttribute('aria-label').includes(' de ')"
    )
    page.select_option("[data-testid=language]", "en")


def test_a_phone_sized_table(server, pages):
    page = pages.new(width=360, height=640, mobile=True)
    page.goto(server.base + "/")
    shot(page, "phone-home")
    go(page, "/play/omi?level=easy&target=5")
    snap = wait_for_turn(page)
    if snap["suits"]:
        shot(page, "phone-omi-trump")
        choose_trump(page, snap["suits"][0], tap=True)
        snap = wait_for_turn(page)
    page.wait_for_function("() => document.querySelectorAll('.hand button[data-card]').length === 8")
    boxes = page.locator(".hand button[data-card]").evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect(); return [r.left, r.right, r.bottom]; })")
    assert all(left >= 0 and right <= 360 and bottom <= 640 for left, right, bottom in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for seat in page.locator(".seat[data-seat]").all():
        box = seat.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    card = next(c["card"] for c in snap["hand"] if c["enabled"]) if not snap["over"] else None
    if card:
        play_card(page, card, tap=True)
    shot(page, "phone-omi-table")

    go(page, "/play/oti?level=easy&players=4")
    page.wait_for_selector(".felt.oti [data-action=ready]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "phone-oti")
