"""A network drop: the server goes away and comes back; the page says so, resyncs and plays on."""

from __future__ import annotations

from .browser_kit import go, shot
from .omi_driver import play_one


def test_the_page_reconnects_and_resyncs_after_a_drop(own_server, pages):
    page = pages.new()
    page.goto(own_server.base + "/")
    go(page, "/play/omi?level=easy&target=5")
    page.wait_for_selector(".felt.omi")
    play_one(page)
    before = page.locator(".hand button[data-card]").count()

    own_server.stop()
    page.wait_for_selector("#notice:not([hidden])")
    assert "Reconnecting" in page.locator("#notice").inner_text()
    shot(page, "reconnecting-notice")
    own_server.start()  # same port, same database
    page.wait_for_selector("#notice", state="hidden", timeout=30000)
    page.wait_for_selector(".toast-ok")

    assert page.locator(".hand button[data-card]").count() == before
    play_one(page)
    assert page.locator(".hand button[data-card]").count() == before - 1
