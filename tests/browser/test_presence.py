"""Who is at the table, as the page knows it (issue 37, item 9): while this page has lost its
own connection the others' seats no longer claim "connected"; a friend who left shows how long
before the computer takes their seat, counting down."""

from __future__ import annotations

import re

import pytest

from .browser_kit import friends_playing, shot
from .layout_kit import SIZE_IDS, SIZES, VISIBLE_BOX_JS, overflow

STATUS_JS = "seat => document.querySelector(`[data-testid=plate-${seat}]`)?.dataset.status"


def wait_status(page, seat: int, status: str) -> None:
    page.wait_for_function(
        "([seat, want]) => document.querySelector(`[data-testid=plate-${seat}]`)?.dataset.status === want",
        arg=[seat, status], timeout=30000)


def test_presence_is_as_last_known_and_a_grace_counts_down(own_server, pages):
    ama, kasun = friends_playing(pages, own_server.base)
    wait_status(ama, 1, "online")

    # Our own connection lost: Kasun's seat is no longer said to be connected.
    own_server.stop()
    ama.wait_for_selector("#notice:not([hidden])", timeout=30000)
    wait_status(ama, 1, "unknown")
    assert "connected" not in ama.locator("[data-testid=plate-1] .plate-status").inner_text()
    assert ama.evaluate(STATUS_JS, 2) == "computer"  # (a computer player stays one)
    shot(ama, "presence-unknown")
    own_server.start()
    ama.wait_for_selector("#notice", state="hidden", timeout=30000)
    wait_status(ama, 1, "online")

    # Kasun leaves: the others see how long before the computer plays for him, counting down.
    kasun.close()
    wait_status(ama, 1, "offline")
    grace = ama.locator("[data-testid=plate-1] [data-testid=grace-left]")
    first = grace.inner_text()
    seconds = int(re.fullmatch(r"the computer plays in (\d+) s", first).group(1))
    assert 0 < seconds <= 30  # the server's grace_s
    ama.wait_for_function(
        "t => document.querySelector('[data-testid=plate-1] [data-testid=grace-left]')?.textContent !== t",
        arg=first, timeout=30000)
    later = int(re.search(r"\d+", grace.inner_text()).group())
    assert later < seconds
    shot(ama, "presence-grace")


#: Where the countdown of seat ``seat``'s grace is not seen whole: each of its lines (it may wrap)
#: must be inside the window and every box around it that clips (its middle, for its height: a
#: line's box is taller than its letters), and be what is drawn at its middle; no box around it
#: within its plate may cut it to an ellipsis.
GRACE_SEEN_JS = """(seat) => {""" + VISIBLE_BOX_JS + """
  const el = document.querySelector(`[data-testid=plate-${seat}] [data-testid=grace-left]`);
  const range = document.createRange();
  range.selectNodeContents(el);
  const lines = [...range.getClientRects()].filter((r) => r.width > 1);
  const box = visibleBox(el);
  const problems = lines.length ? [] : ['no line drawn'];
  for (const r of lines) {
    const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
    const middle = (r.top + r.bottom) / 2;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || middle < box.top || middle > box.bottom) {
      const seen = [box.left, box.top, box.right, box.bottom].map(Math.round);
      problems.push(`line at ${at} cut (in sight: ${seen})`);
    }
    const hit = document.elementFromPoint((r.left + r.right) / 2, middle);
    const by = hit ? hit.className || hit.tagName : 'nothing';
    if (!hit || !el.contains(hit)) problems.push(`line at ${at} under ${by}`);
  }
  for (let p = el.parentElement; p && !p.matches('.plate'); p = p.parentElement) {
    if (getComputedStyle(p).textOverflow === 'ellipsis' && p.scrollWidth > p.clientWidth + 1) {
      problems.push(`${p.className} cut to an ellipsis`);
    }
  }
  return { lines: lines.length, problems };
}"""


@pytest.mark.parametrize("game", ["omi", "oti"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_the_others_see_a_friends_grace_count_down_at_every_size(server, pages, game, width, height):
    """Issue 37, item 9, at every size, for Omi (the friend at the side) and Oti (three opponents
    across the top): the seat of a friend who left shows its whole countdown, inside the window,
    neither cut nor covered, and counting down. (Its plate's status was cut to "disconnected ·
    th…" on a tablet's Omi table, and ran past the edge of a phone held sideways.)"""
    ama, kasun = friends_playing(pages, server.base, game, width=width, height=height)
    wait_status(ama, 1, "online")
    kasun.close()
    wait_status(ama, 1, "offline")
    grace = ama.locator("[data-testid=plate-1] [data-testid=grace-left]")
    grace.wait_for(state="visible", timeout=30000)
    first = grace.inner_text()
    assert re.fullmatch(r"the computer plays in \d+ s", first), first
    seen = ama.evaluate(GRACE_SEEN_JS, 1)
    shot(ama, f"presence-grace-{game}-{width}x{height}")
    assert seen["problems"] == [], (game, width, height, seen)
    # (its plate, taller for it, keeps the table in the window)
    size = overflow(ama, ".topbar", ".felt [data-testid^=plate-]")
    assert size["width"] <= 0 and size["height"] <= 0 and size["outside"] == [], (game, width, height, size)
    ama.wait_for_function(
        "t => document.querySelector('[data-testid=plate-1] [data-testid=grace-left]')?.textContent !== t",
        arg=first, timeout=30000)
    assert ama.evaluate(GRACE_SEEN_JS, 1)["problems"] == []  # (and as it counts down)
