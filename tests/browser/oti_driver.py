"""Reading an Oti table in the page, shared by the Oti and offline browser tests."""

from __future__ import annotations

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
