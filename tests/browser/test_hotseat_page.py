"""A hot-seat table shows nothing that only means something online (issue 37 item 6): no chat
(everybody is at the one device), no "connected" dot on its players' plates, and players left
with the page's own names ("Player 2") told apart by their seat number, not all drawn "P"."""

from __future__ import annotations

import re

from .browser_kit import open_hotseat_omi
from .omi_driver import wait_for_turn

PLATES_JS = """() => [...document.querySelectorAll('.felt [data-testid^=plate-]')].map(p => ({
  avatar: p.querySelector('.avatar').textContent.trim(), status: p.dataset.status,
  dot: !!p.querySelector('.plate-status .dot')}))"""


def test_a_hot_seat_table_shows_no_online_only_things(server, pages):
    page = pages.new()
    page.goto(server.base + "/")
    page.click("label.segment:has([data-testid=mode-hotseat])")
    for seat in range(4):  # four people at the device, none of them named
        page.fill(f"[data-testid=hotseat-name-{seat}]", "")
    page.click("[data-action=create]")
    snap = wait_for_turn(page)
    if snap["pass"]:
        page.click("[data-testid=pass-screen] button")
        wait_for_turn(page)
    page.wait_for_selector(".felt [data-testid^=plate-]")
    assert page.locator("[data-action=chat]").count() == 0
    plates = page.evaluate(PLATES_JS)
    assert len(plates) >= 3, plates
    assert not any(p["dot"] for p in plates), plates
    assert {p["status"] for p in plates} == {"player"}, plates
    avatars = [p["avatar"] for p in plates]
    assert len(set(avatars)) == len(avatars), avatars  # told apart, not four "P"


def test_the_pass_screen_waits_to_know_whose_turn_it_is(server, pages):
    """Opened again (a reload, the home page's link), a hot-seat table names its first seat on
    the pass screen until the seats' states come. Its button was live meanwhile: a tap showed the
    first seat's cards, then the screen came back for the player who was in fact to play (a full
    run's failure). It waits now, and the one it names once the states come is the one to play."""
    page = pages.new()
    open_hotseat_omi(page, server.base)
    page.wait_for_selector("[data-testid=pass-screen] [data-action=take-seat]:not([disabled])")
    url, storage = page.url, page.context.storage_state()

    # The second seat's socket held (never connected to the server): the first seat's state
    # comes and draws the table, the second's does not, so whose turn it is is not known yet.
    held = pages.new(storage=storage)
    sockets = []

    def first_only(ws) -> None:
        sockets.append(ws)
        if len(sockets) == 1:
            ws.connect_to_server()

    held.route_web_socket(re.compile(r"/ws"), first_only)
    held.goto(url)
    held.wait_for_selector("[data-testid=pass-screen]")
    assert len(sockets) == 2, f"{len(sockets)} sockets: the test needs one a seat"
    assert held.locator("[data-testid=pass-screen] [data-action=take-seat]").is_disabled()

    # Its states come: the button names who is to play, and stays theirs once pressed.
    again = pages.new(storage=storage)
    again.goto(url)
    again.click("[data-testid=pass-screen] [data-action=take-seat]")
    again.wait_for_selector("[data-testid=pass-screen]", state="detached")
    snap = wait_for_turn(again)  # (the one named was to play: no pass screen again)
    assert not snap["pass"] and (snap["suits"] or any(c["enabled"] for c in snap["hand"])), snap
