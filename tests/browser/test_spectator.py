"""A spectator sees the table as seat 0 does (seat 0 at the bottom, face down), and that they are
watching, for both games."""

from __future__ import annotations

import pytest

from .browser_kit import shot


@pytest.mark.parametrize(("game", "rules"), [("omi", {}), ("oti", {"players": 3})])
def test_a_spectator_sees_seat_0_at_the_bottom(server, pages, game, rules):
    body = {"game": game, "mode": "computer", "level": "easy", "rules": rules}
    table = server.api("POST", "/api/tables", body)
    page = pages.new()
    page.goto(f"{server.base}/watch/{table['table']}#{table['watch']}")
    page.wait_for_selector(f".felt.{game}")
    seat0 = page.locator(".felt [data-seat='0']").first
    seat0.wait_for()
    felt = page.locator(".felt").bounding_box()
    box = seat0.bounding_box()
    assert felt and box
    # In the lower part of the table, not in a corner at the top.
    assert box["y"] + box["height"] / 2 > felt["y"] + felt["height"] * 0.6, (box, felt)
    note = page.locator("[data-testid=watching]")
    assert note.is_visible() and "watching" in note.inner_text()
    assert page.locator("[data-card]").count() == 0  # nobody's hand
    shot(page, f"spectator-{game}")
