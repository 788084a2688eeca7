"""Who is at the table, as the page knows it (issue 37, item 9): while this page has lost its
own connection the others' seats no longer claim "connected"; a friend who left shows how long
before the computer takes their seat, counting down."""

from __future__ import annotations

import re

from .browser_kit import friends_playing, shot

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


def test_a_phone_at_an_oti_table_sees_a_friends_grace_count_down(own_server, pages):
    """360x640, Oti (three opponents across the top): the seat of a friend who left still shows
    its countdown, inside the screen and not covered."""
    ama, kasun = friends_playing(pages, own_server.base, "oti", width=360, height=640)
    wait_status(ama, 1, "online")
    kasun.close()
    wait_status(ama, 1, "offline")
    grace = ama.locator("[data-testid=plate-1] [data-testid=grace-left]")
    grace.wait_for(state="visible", timeout=30000)
    assert re.fullmatch(r"the computer plays in \d+ s", grace.inner_text())
    shot(ama, "presence-grace-oti-phone")
    box = grace.bounding_box()
    assert box is not None and box["width"] > 0 and box["height"] > 0
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert box["y"] >= 0 and box["y"] + box["height"] <= 640
    # Not cut by its plate: the status holds its whole text.
    assert ama.evaluate(
        "() => { const e = document.querySelector('[data-testid=plate-1] .plate-status-text');"
        " return e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1; }")
    # What is drawn at its middle is the countdown itself (nothing over it).
    assert ama.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid=grace-left]') !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
