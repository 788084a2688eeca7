"""Every control and every card of the hand on screen, the top bar on one line, at a phone held
upright (360x640) and sideways (640x360), a tablet (768x1024) and a laptop (1280x800), for both
games, as a player meets the table (Omi: choosing trumps, then the whole hand of eight)."""

from __future__ import annotations

import pytest

from .browser_kit import shot
from .omi_driver import choose_trump, wait_for_turn

SIZES = [(360, 640), (640, 360), (768, 1024), (1280, 800)]

#: Controls the page shows (a button, a menu, a link) that lie outside the window, and how tall
#: the top bar is.
OFF_SCREEN = """() => {
  const W = innerWidth, H = innerHeight, out = [];
  for (const el of document.querySelectorAll('#main button, #main select, #main a, #main input')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
      out.push((el.dataset.card || el.dataset.action || el.textContent.trim().slice(0, 20)) + ' at '
        + [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
    }
  }
  return { out, bar: document.querySelector('.topbar').getBoundingClientRect().height };
}"""


def on_screen(page) -> None:
    found = page.evaluate(OFF_SCREEN)
    assert found["out"] == [], f"off screen: {found['out']}"
    assert found["bar"] <= 56, f"the top bar wraps: {found['bar']}px"


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_an_omi_table_fits(server, pages, width, height):
    page = pages.new(width=width, height=height)
    page.goto(server.base + "/play/omi?level=easy")
    snap = wait_for_turn(page)
    assert snap["suits"], "seat 0 chooses trumps first"
    on_screen(page)  # the trump prompt
    choose_trump(page, snap["suits"][0])
    snap = wait_for_turn(page)
    assert len(snap["hand"]) == 8
    on_screen(page)  # the whole hand
    shot(page, f"viewport-omi-{width}x{height}")


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_an_oti_table_fits(server, pages, width, height):
    page = pages.new(width=width, height=height)
    page.goto(server.base + "/play/oti?level=easy&players=4")
    page.wait_for_selector(".felt.oti .hand button[data-card]")
    page.wait_for_selector("[data-action=ready]")
    on_screen(page)
    shot(page, f"viewport-oti-{width}x{height}")


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_home_pages_play_button_is_on_the_first_screen(server, pages, width, height):
    page = pages.new(width=width, height=height)
    page.goto(server.base + "/")
    # Without scrolling: the whole button inside the window (asked of the page itself, which may
    # draw its home page again just after loading).
    page.wait_for_function(
        """() => { const b = document.querySelector('[data-action=create]');
          const r = b && b.getBoundingClientRect();
          return r && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
            && r.right <= innerWidth; }""",
        timeout=5000,
    )
    shot(page, f"viewport-home-{width}x{height}")
    page.locator("[data-action=create]").click()
    page.wait_for_selector(".felt.omi")
