"""The page fits the windows people use (issue 37): at a laptop (1280x800), a tablet
(768x1024) and a phone held upright (360x640) and sideways (640x360), nothing lies over a
field, the tables fit their window without scrolling, and the seats can be told apart."""

from __future__ import annotations

import pytest

from .browser_kit import shot
from .layout_kit import SIZE_IDS, SIZES, covered, overflow

DOCK_JS = """() => {
  const edge = (s) => document.querySelector(s).getBoundingClientRect();
  return { scrollBottom: edge('.home-scroll').bottom, dockTop: edge('.home-dock').top,
           buttonTop: edge('[data-action=create]').top, buttonBottom: edge('[data-action=create]').bottom };
}"""


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_the_play_button_never_covers_a_field(server, pages, width, height):
    """Every game and way to play (the hot-seat names, the friends' rules options), in English
    and (on the phone, where words are widest) in Tamil: each field, once in sight, is what a
    click at its centre reaches, and the Play button stays on the first screen."""
    languages = ["en", "ta"] if width == 360 else ["en"]
    for lang in languages:
        page = pages.new(width=width, height=height)
        page.goto(server.base + f"/?lang={lang}")
        page.wait_for_selector("[data-action=create]")
        for game in ("omi", "oti"):
            page.click(f"label.choice-card[for=game-{game}]")
            for mode in ("friends", "hotseat", "computer"):
                page.click(f"label.segment:has([data-testid=mode-{mode}])")
                page.wait_for_selector(f"label.segment.chosen:has([data-testid=mode-{mode}])")
                page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
                where = f"{lang} {game} {mode}"
                assert covered(page, ".home-scroll") == [], where
                page_size = overflow(page)
                assert page_size["width"] <= 0 and page_size["height"] <= 0, (where, page_size)
                # The form scrolls in a box that ends where the Play bar begins (so every field
                # can be brought into sight above it), and the bar is on the first screen.
                edges = page.evaluate(DOCK_JS)
                assert edges["scrollBottom"] <= edges["dockTop"] + 0.5, (where, edges)
                assert edges["buttonTop"] >= 0 and edges["buttonBottom"] <= height, (where, edges)
        shot(page, f"layout-home-{lang}-{width}x{height}")
    # The button still plays.
    page.click("[data-action=create]")
    page.wait_for_selector(".felt")
