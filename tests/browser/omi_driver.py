"""Playing Omi through the page, as a person would: read what is on screen, click a card."""

from __future__ import annotations

import time

SNAPSHOT_JS = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  return {
    over: !!document.querySelector('.over-overlay'),
    pass: !!document.querySelector('[data-testid=pass-screen]'),
    suits: q('button[data-suit]').filter(b => !b.disabled).map(b => b.dataset.suit),
    hand: q('.hand button[data-card]').map(b => ({
      card: b.dataset.card, enabled: !b.disabled, label: b.getAttribute('aria-label')})),
    trick: q('.trick .trick-card').map(c => c.dataset.shown),
    faces: q('.card.face').length,
  };
}"""

READY_JS = """() => document.querySelector('[data-action=next-hand]')
  || document.querySelector('.over-overlay, [data-testid=pass-screen]')
  || document.querySelector('button[data-suit]:not([disabled])')
  || document.querySelector('.hand button[data-card]:not([disabled])')"""


HAND_JS = "() => [...document.querySelectorAll('.hand button[data-card]')].map(b => b.dataset.card).join(' ')"


def snapshot(page) -> dict:
    return page.evaluate(SNAPSHOT_JS)


def wait_for_turn(page, timeout_s: float = 30) -> dict:
    """Wait until this seat has something to do (or the match is over, or the device is to be
    passed on); a finished hand's result card on the way is closed, as a player would."""
    while True:
        page.wait_for_function(READY_JS, timeout=timeout_s * 1000)
        if not page.locator("[data-action=next-hand]").count():
            return snapshot(page)
        page.click("[data-action=next-hand]")
        page.wait_for_selector("[data-action=next-hand]", state="detached")


def choose_trump(page, suit: str, *, tap: bool = False) -> None:
    """Click (or tap) the trump suit ``suit`` and wait until the page has taken it: until then
    the prompt's buttons stay enabled, and a wait for the next turn would see the old one."""
    selector = f'button[data-suit="{suit}"]'
    if tap:
        page.tap(selector)
    else:
        page.click(selector)
    page.wait_for_function("() => !document.querySelector('button[data-suit]:not([disabled])')")


def hand_shown(page) -> str:
    """The cards of the hand on the page, in order, as one string."""
    return page.evaluate(HAND_JS)


def wait_until_played(page, before: str) -> None:
    """Wait until the hand on the page is no longer ``before`` (taken before a card was played).

    Not "until the card has left the hand": after the last card of a hand the next hand is
    dealt, and it may hold the very same card again.
    """
    page.wait_for_function(f"before => ({HAND_JS})() !== before", arg=before)


def play_card(page, card: str, *, tap: bool = False) -> None:
    """Click (or tap) ``card`` in the hand and wait until the page shows it played."""
    before = hand_shown(page)
    selector = f'.hand button[data-card="{card}"]'
    if tap:
        page.tap(selector)
    else:
        page.click(selector)
    wait_until_played(page, before)
    now = hand_shown(page).split()
    assert card not in now or len(now) > len(before.split()), f"{card} was not played: {before} -> {now}"


def play_one(page) -> str:
    """On the seat's next turn, choose the trump if asked (the first suit offered), then play the
    first legal card; the card played."""
    snap = wait_for_turn(page)
    if snap["suits"]:
        choose_trump(page, snap["suits"][0])
        snap = wait_for_turn(page)
    card = next(c["card"] for c in snap["hand"] if c["enabled"])
    play_card(page, card)
    return card


def check_follow_suit(snap: dict) -> None:
    """The enabled cards are exactly those the rules allow: the led suit when you hold it."""
    hand = snap["hand"]
    enabled = {c["card"] for c in hand if c["enabled"]}
    if snap["trick"]:
        led = snap["trick"][0][-1]
        same = {c["card"] for c in hand if c["card"][-1] == led}
        assert enabled == (same or {c["card"] for c in hand}), (snap["trick"], hand)
    else:
        assert enabled == {c["card"] for c in hand}, hand


def play_until_over(page, *, on_turn=None, limit_s: float = 240) -> int:
    """Choose trumps and play the first legal card each turn until the match is over.

    ``on_turn(page, snap, n)`` may act instead (return True when it did). Returns the number of
    cards this seat played.
    """
    played = 0
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        snap = wait_for_turn(page)
        if snap["over"]:
            return played
        assert not snap["pass"], "no pass screen outside hot seat"
        if on_turn and on_turn(page, snap, played):
            if not snap["suits"]:
                played += 1
            continue
        if snap["suits"]:
            assert len(snap["hand"]) == 4, "the chooser sees only the first four cards"
            page.click(f'button[data-suit="{snap["suits"][0]}"]')
            continue
        check_follow_suit(snap)
        card = next(c["card"] for c in snap["hand"] if c["enabled"])
        play_card(page, card)
        played += 1
    raise AssertionError("the match did not end in time")
