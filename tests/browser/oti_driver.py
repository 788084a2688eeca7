"""Reading an Oti table in the page, shared by the Oti and offline browser tests."""

from __future__ import annotations

import time

# What the page shows of the Oti table: our cards, what we may click, and how many face cards
# the other seats show (all of them must be public: face-up or known).
STATE_JS = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  const enabled = (s) => q(s).filter(b => !b.disabled);
  return {
    over: !!document.querySelector('.over-overlay'),
    pass: !!document.querySelector('[data-testid=pass-screen]'),
    hand: q('.oti-me .hand button[data-card]').map(b => b.dataset.card),
    up: q('.oti-me .table-cards button[data-card]').map(b => b.dataset.card),
    playable: enabled('.oti-me button[data-card]').map(b => b.dataset.card),
    actions: enabled('.oti-me [data-action]').map(b => b.dataset.action),
    otherFaces: q('.oti-seat .card.face').length,
    otherPublic: q('.oti-seat .table-cards .card.face, .oti-seat .known .card.face').length,
  };
}"""
# The page waits for us: the game is over, a hot-seat pass screen is up, or something is enabled.
READY_JS = """() => document.querySelector('.over-overlay, [data-testid=pass-screen]')
  || document.querySelector('.oti-me button[data-card]:not([disabled])')
  || document.querySelector('.oti-me [data-action]:not([disabled])')"""
# Click a card near its top-left corner: stacked cards overlap, the corner is always visible.
CORNER = {"x": 6, "y": 24}


def state(page) -> dict:
    """The page's Oti state (STATE_JS) once it is ready for us."""
    page.wait_for_function(READY_JS, timeout=30000)
    return page.evaluate(STATE_JS)


def play_a_turn(page, s: dict, *, pick_up: bool = False) -> None:
    """Our turn: ready at once, pick the pile up when ``pick_up`` and we may, else turn a card
    or play the first playable one (with its equals when the page asks for them), else pick the
    pile up."""
    if "ready" in s["actions"]:
        page.click("[data-action=ready]")
    elif pick_up and "pickup" in s["actions"]:
        page.click("[data-action=pickup]")
    elif "flip" in s["actions"]:
        page.click("[data-action=flip]")
    elif s["playable"]:
        page.click(f'.oti-me button[data-card="{s["playable"][0]}"]', position=CORNER)
        if page.locator("[data-action=play]:enabled").count():
            page.click("[data-action=play]")
    elif "pickup" in s["actions"]:
        page.click("[data-action=pickup]")
    page.wait_for_timeout(20)


def play_until_over(page, limit_s: float = 240, *, pick_up: bool = False) -> int:
    """Play our seat by clicking (:func:`play_a_turn`) until the game is over; the number of
    turns taken."""
    turns = 0
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        s = state(page)
        if s["over"]:
            return turns
        turns += 1
        play_a_turn(page, s, pick_up=pick_up)
    raise AssertionError("the Oti game did not end in time")
