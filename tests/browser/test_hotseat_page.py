"""A hot-seat table shows nothing that only means something online (issue 37 item 6): no chat
(everybody is at the one device), no "connected" dot on its players' plates, and players left
with the page's own names ("Player 2") told apart by their seat number, not all drawn "P"."""

from __future__ import annotations

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
