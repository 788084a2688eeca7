"""A friends table's join link and waiting room: the join page says what it invites to (the game,
who invites, the rules, the seats taken), and the host's chat box is in the window as the
waiting room opens, at the four window sizes (issue 37, item 8)."""

from __future__ import annotations

import pytest

from .browser_kit import shot
from .layout_kit import COVERED_JS, SIZE_IDS, SIZES

#: The chat box of the waiting room: whether it lies wholly in the window, is what a tap at its
#: centre reaches, and the page and the dialog unscrolled (so it was in sight from the start).
REACHABLE_JS = """() => {
  const box = document.querySelector('.lobby [data-testid=chat-input]');
  if (!box) return 'no chat box';
  const r = box.getBoundingClientRect();
  const dialog = document.querySelector('.lobby-overlay .dialog');
  const scrolled = document.scrollingElement.scrollTop + dialog.scrollTop;
  if (scrolled) return 'scrolled ' + scrolled;
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
    return 'outside the window at ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit === box ? 'ok' : 'under ' + (hit ? hit.className : 'nothing');
}"""


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_the_join_page_says_what_it_invites_to(server, pages, width, height):
    created = server.api("POST", "/api/tables", {
        "game": "omi", "mode": "friends", "level": "easy", "name": "Ama", "rules": {"target": 5}})
    tid, invite = created["table"], created["invite"]
    server.api("POST", f"/api/tables/{tid}/join", {"invite": invite, "name": "Kasun"})
    page = pages.new(width=width, height=height, mobile=width < 700)
    page.goto(server.base + created["join_url"])
    page.wait_for_selector("[data-testid=join-lead]", timeout=30000)
    assert page.locator("[data-testid=join-lead]").inner_text() == "Ama invites you to a game of Omi."
    assert "Tokens to win: 5" in page.locator(".join-page .rules-summary").inner_text()
    rows = page.locator("[data-testid=join-seats] li").all_inner_texts()
    assert [" ".join(r.split()) for r in rows] == [
        "Seat 1: Ama host", "Seat 2: Kasun", "Seat 3: free seat · yours", "Seat 4: free seat"]
    assert page.evaluate(COVERED_JS, None) == []
    shot(page, f"join-page-{width}x{height}")
    page.fill("#join-name", "Nimal")
    page.click("[data-action=join]")
    page.wait_for_selector(".lobby-seats li[data-seat='2'] >> text=Nimal", timeout=30000)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_the_hosts_chat_box_is_in_the_window(server, pages, width, height):
    page = pages.new(width=width, height=height, mobile=width < 700)
    page.goto(server.base + "/")
    page.click("label.segment:has([data-testid=mode-friends])")
    page.fill("#your-name", "Ama")
    page.click("[data-action=create]")
    page.wait_for_selector(".lobby [data-testid=chat-input]", timeout=30000)
    assert page.evaluate(REACHABLE_JS) == "ok"
    assert page.locator("[data-action=start]").is_visible()
    shot(page, f"friends-lobby-{width}x{height}")
    page.locator(".lobby [data-testid=chat-input]").fill("Hello")
    page.keyboard.press("Enter")
    page.wait_for_selector(".lobby .chat-line >> text=Hello", timeout=30000)
    assert page.evaluate(REACHABLE_JS) == "ok"
