"""The daily deal on the page (issue 34, item 1): "Today's deal" on the home page, a name asked
the first time, today's four-hand Omi match against the computer played to its end, its result
as a share text with no card in it, the day's results board for one who played it and only the
count for one who has not, the way back to one's own results from the home page, and the section
saying it needs the network when offline.

Each browser context is one person (its own profile cookie and seat tokens); every wait is for
what the page shows, with a generous deadline.
"""

from __future__ import annotations

import re

from .browser_kit import Held, Server, press, shot
from .layout_kit import overflow
from .omi_driver import play_until_over

WAIT_MS = 30000

#: A card as the page or a record would name one (rank and suit letter), or a suit's symbol.
CARD = re.compile(r"\b(10|[2-9TJQKA])[SHDC]\b|[♠♥♦♣]")

#: Today's deal section has its games (GET /api/daily/<game> answered).
DAILY_LOADED_JS = "() => !!document.querySelector('[data-testid=daily-omi] [data-action=daily-play]')"


def open_home(page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_function(DAILY_LOADED_JS, timeout=WAIT_MS)


def today(server: Server) -> str:
    return str(server.api("GET", "/api/daily/omi")["date"])


def test_a_player_plays_todays_deal_and_shares_the_result_without_a_card(server, pages):
    page = pages.new()
    open_home(page, server.base)
    panel = page.locator("[data-testid=daily-omi]")
    assert "4 hands against the computer (medium)" in panel.inner_text(), panel.inner_text()
    date = today(server)

    page.click("[data-testid=daily-omi] [data-action=daily-play]")
    page.wait_for_selector("dialog[data-testid=name-dialog][open]", timeout=WAIT_MS)
    page.fill("#profile-name", "Ama")
    page.click("[data-action=profile-save]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=WAIT_MS)
    table = page.url.rsplit("/", 1)[1]
    held = page.evaluate("id => JSON.parse(localStorage.getItem('bistrot.table.' + id))", table)
    assert held["daily"] == {"game": "omi", "date": date}, held

    assert play_until_over(page, limit_s=300) >= 8  # four hands
    page.wait_for_selector("[data-testid=daily-over]", timeout=WAIT_MS)
    text = page.locator("[data-testid=daily-share]").input_value()
    lines = text.splitlines()
    assert lines[0] == f"bistrot · Omi · {date}", text
    assert re.fullmatch(r"[🟩🟥🟨⭐💥]{4} \d+:\d+", lines[1]), text  # a square per hand, the tokens
    assert lines[2].endswith(f"/daily/omi/{date}"), text
    assert not CARD.search(text), f"a card in the share text: {text}"
    # A daily deal is one attempt: no rematch, no challenge link to its cards.
    again = ".over-overlay :is([data-action=rematch], [data-action=challenge])"
    assert page.locator(again).count() == 0
    shot(page, "daily-over-1280x800")

    page.click(".over-overlay [data-action=daily-results]")
    page.wait_for_selector("[data-testid=daily-board]", timeout=WAIT_MS)
    rows = page.locator("[data-testid=daily-board] tbody tr")
    assert rows.count() == 1 and "Ama" in rows.first.inner_text(), rows.all_inner_texts()
    assert "mine" in (rows.first.get_attribute("class") or "")
    assert page.locator("[data-testid=daily-count]").inner_text() == "1 player has played it."
    # The share text kept by the browser is on the results page too.
    assert page.locator("[data-testid=daily-share]").input_value() == text

    # Back home, today's deal of Omi is played: its results, not a second game.
    page.goto(server.base + "/")
    page.wait_for_selector("[data-testid=daily-omi] [data-action=daily-results]", timeout=WAIT_MS)
    assert page.locator("[data-testid=daily-omi] [data-action=daily-play]").count() == 0

    # Another person, who has not played it, sees how many did and nothing else; on a phone.
    other = pages.new(width=360, height=640, mobile=True)
    other.goto(f"{server.base}/daily/omi/{date}")
    other.wait_for_selector("[data-testid=daily-hidden]", timeout=WAIT_MS)
    assert other.locator("[data-testid=daily-count]").inner_text() == "1 player has played it."
    assert other.locator("[data-testid=daily-board]").count() == 0
    assert "Ama" not in other.locator("#main").inner_text()
    assert other.locator("[data-action=daily-play]").count() == 1  # today's: offered there too
    assert overflow(other)["width"] <= 0, overflow(other)
    shot(other, "daily-hidden-360x640")


def test_offline_the_daily_deal_is_not_offered_and_says_so(server, pages):
    page = pages.new()
    open_home(page, server.base)
    page.context.set_offline(True)
    page.wait_for_selector("[data-testid=daily-offline]", timeout=WAIT_MS)
    assert page.locator("[data-action=daily-play]").count() == 0
    assert "needs the network" in page.locator("[data-testid=daily-offline]").inner_text()
    page.context.set_offline(False)
    page.wait_for_function(DAILY_LOADED_JS, timeout=WAIT_MS)


def test_a_tap_on_play_under_way_as_the_profile_answer_comes_is_not_lost(server, pages):
    """The deal's page draws itself again when the answer on whom it plays as comes. That answer
    is usually known before (the top bar asked), but not when that first question got no answer
    (the network): the page asks again, and the answer may come after its Play button. Drawn
    anew, a press on the old button released on its new copy fired no click; now what is equal
    is kept, and the tap opens the name dialog (no profile yet)."""
    page = pages.new()
    held = Held(page, "**/api/profile")  # the second question (routes added later are asked first)
    lost: list = []

    def lose_first(route) -> None:
        if lost:
            route.fallback()
        else:
            lost.append(route)
            route.abort()  # the network: the page will ask again

    page.route("**/api/profile", lose_first)
    page.goto(f"{server.base}/daily/omi/{today(server)}")
    play = page.locator("[data-action=daily-play]")
    play.wait_for(timeout=WAIT_MS)
    held.asked("whom the page plays as, again")
    press(page, play)
    held.release()
    # The page's own module, the same promise: awaited here, the page's handler has run first.
    page.evaluate("async () => { await (await import('/static/js/profile.js')).myProfile(); }")
    page.mouse.up()
    page.wait_for_selector("#profile-name", timeout=WAIT_MS)
