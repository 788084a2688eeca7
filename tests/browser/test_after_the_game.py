"""Smaller things met after and around a game (issue 37, item 9b): the end of a game leads to its
replay and its analysis; a challenge's page does not offer its own maker to play the deal again;
chat seen stays seen when the page connects again; a language named in the address is kept."""

from __future__ import annotations

from .browser_kit import friends_playing, go, shot
from .omi_driver import play_until_over


def test_the_end_of_a_game_leads_to_its_replay_and_analysis(server, pages):
    page = pages.new()
    page.goto(server.base + "/")
    go(page, "/play/omi?level=easy&target=1")
    page.wait_for_selector(".felt.omi", timeout=30000)
    play_until_over(page)
    table = page.url.rsplit("/", 1)[1]
    over = page.locator(".over-overlay")
    assert over.locator("[data-action=replay]").get_attribute("href") == f"/replay/{table}"
    assert over.locator("[data-action=analysis]").get_attribute("href") == f"/replay/{table}#analysis"

    # The maker of a challenge sees its results, and is not offered to play the deal again.
    page.click("[data-action=challenge]")
    link = page.locator("[data-testid=challenge-link]").input_value()
    page.goto(link)
    page.wait_for_selector("[data-testid=comparison] .result-card", timeout=30000)
    assert page.locator("[data-action=play-challenge]").count() == 0
    assert "made this challenge" in page.locator("[data-testid=challenge-yours]").inner_text()
    shot(page, "challenge-page-of-its-maker")

    # Back at the table: "Analyse this game" opens the replay with the analysis asked for.
    page.goto(f"{server.base}/t/{table}")
    page.click(".over-overlay [data-action=analysis]", timeout=30000)
    page.wait_for_url(f"**/replay/{table}#analysis")
    page.wait_for_selector("[data-testid=analysis]:not([data-status=none])", timeout=30000)
    page.go_back()
    page.click(".over-overlay [data-action=replay]", timeout=30000)
    page.wait_for_url(f"**/replay/{table}")
    page.wait_for_selector("[data-testid=replay-slider]", timeout=30000)


def test_chat_seen_stays_seen_when_the_page_connects_again(server, pages):
    ama, kasun = friends_playing(pages, server.base)
    ama.click("[data-action=chat]")
    ama.fill("[data-testid=chat-input]", "good luck")
    ama.click("[data-action=send-chat]")
    kasun.wait_for_selector("[data-testid=chat-unread]", timeout=30000)
    assert kasun.locator("[data-testid=chat-unread]").inner_text() == "1"
    kasun.click("[data-action=chat]")
    kasun.wait_for_selector(".chat-overlay .chat-line", timeout=30000)
    kasun.keyboard.press("Escape")
    assert kasun.locator("[data-testid=chat-unread]").count() == 0

    # The page connects again (here: loaded again): the chat kept comes again, and is not new;
    # what is said next is the one message unread.
    frames: list[str] = []
    kasun.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    kasun.reload()
    kasun.wait_for_selector(".felt.omi", timeout=30000)
    ama.fill("[data-testid=chat-input]", "well played")
    ama.click("[data-action=send-chat]")
    kasun.wait_for_function("() => true")  # (a round trip: frames seen so far are recorded)
    for _ in range(300):
        if any("well played" in f for f in frames):
            break
        kasun.wait_for_timeout(100)
    assert any("good luck" in f for f in frames), "the chat kept is sent again on connecting"
    kasun.evaluate("() => new Promise((done) => setTimeout(done, 0))")  # (its message handled)
    kasun.wait_for_selector("[data-testid=chat-unread]", timeout=30000)
    assert kasun.locator("[data-testid=chat-unread]").inner_text() == "1"


def test_a_language_named_in_the_address_is_kept(server, pages):
    page = pages.new(locale="en-GB")
    page.goto(server.base + "/?lang=fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'", timeout=30000)
    page.goto(server.base + "/rules/omi")  # a new page, without ?lang=
    page.wait_for_selector("article.rules-page", timeout=30000)
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator("[data-testid=language]").input_value() == "fr"
