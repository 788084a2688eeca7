"""Oti's rough edges (issue 13, item 10): a card flies in from the seat that played it, the pile's
"9 or higher" hint says which cards go on anything (2, 5 and 10, from the rules), and the end
screen ranks every player with the cards they have left ("You lost" as in Omi).
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .browser_kit import go, shot
from .oti_driver import STATE_JS, play_a_turn, play_until_over, state

# Where the newest card of the pile starts its flight (its animation rewound to 0), who played
# it (read from the action log, as a person would: "Computer 2 plays 7♥"), and the boxes of that
# seat, of our own seat and of the pile.
FLIGHT_JS = """() => {
  const log = document.querySelector('[data-testid=log]')?.textContent || '';
  const cards = [...document.querySelectorAll('.pile-cards .pile-card.enter')];
  if (!cards.length) return null;
  const card = cards[cards.length - 1];
  const anim = card.getAnimations()[0];
  if (!anim) return null;
  const finished = anim.playState === 'finished';
  const time = anim.currentTime;
  anim.pause();
  anim.currentTime = 0;
  const r = card.getBoundingClientRect();
  if (finished) anim.finish(); else { anim.currentTime = time; anim.play(); }
  const box = (el) => {
    const b = el.getBoundingClientRect();
    return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
  };
  const nameOf = (el) => el?.querySelector('.plate-name')?.firstChild?.textContent || '?';
  let who = null, seatBox = null;
  for (const seat of document.querySelectorAll('.oti-seat[data-seat]')) {
    if (log.startsWith(nameOf(seat) + ' ')) { who = 'other'; seatBox = box(seat); }
  }
  const me = document.querySelector('.oti-me');
  if (!who && me && log.startsWith(nameOf(me) + ' ')) { who = 'me'; seatBox = box(me); }
  return { log, card: card.dataset.shown || card.getAttribute('aria-label'), who, seatBox,
    start: { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 },
    pile: box(document.querySelector('.pile-cards')), me: me && box(me) };
}"""

ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def check_flight(flight: dict) -> None:
    start, seat, pile = flight["start"], flight["seatBox"], flight["pile"]
    slack = 24
    assert seat["left"] - slack <= start["x"] <= seat["right"] + slack, flight
    assert seat["top"] - slack <= start["y"] <= seat["bottom"] + slack, flight
    if flight["who"] == "other":
        assert start["y"] < pile["top"], flight  # the others sit above the pile
    else:
        assert start["y"] > pile["bottom"], flight


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_cards_fly_from_their_player_and_the_hint_names_the_magic_cards(server, pages, size):
    phone = size == "phone"
    viewport = {"width": 360, "height": 640, "mobile": True} if phone else {}
    page = pages.new(motion="no-preference", **viewport)
    page.goto(server.base + "/")
    go(page, "/play/oti?level=easy&players=3")
    page.wait_for_selector(".felt.oti [data-action=ready]")
    page.click("[data-action=ready]")
    flights = {"other": [], "me": []}
    hints = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (flights["other"] and flights["me"] and hints):
        s = state(page)
        if s["over"]:
            break
        flight = page.evaluate(FLIGHT_JS)
        if flight and flight["who"]:
            flights[flight["who"]].append(flight)
        beat = page.locator(".to-beat")
        if beat.count():
            text = beat.inner_text()
            value = re.search(r"(\w+) or higher", text)
            high = value and value.group(1) in ORDER and ORDER.index(value.group(1)) > ORDER.index("5")
            if high and not hints:
                hints.append((value.group(1), text))
                if phone:
                    assert page.evaluate("document.documentElement.scrollWidth") <= 360
                    box = beat.bounding_box()
                    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
                shot(page, f"oti-hint-magic-{size}")
        before = s["hand"]
        play_a_turn(page, s, pick_up=False)
        # our own card, in flight
        try:
            page.wait_for_function(
                "() => document.querySelector('.pile-cards .pile-card.enter')"
                " && (document.querySelector('[data-testid=log]')?.textContent || '').startsWith('You ')",
                timeout=1500,
            )
            flight = page.evaluate(FLIGHT_JS)
            if flight and flight["who"] == "me" and page.evaluate(STATE_JS)["hand"] != before:
                flights["me"].append(flight)
        except PlaywrightTimeout:  # a pickup or a burn puts nothing on the pile
            pass
    assert flights["other"], "no card of another player seen landing on the pile"
    for flight in flights["other"] + flights["me"]:
        check_flight(flight)
    assert hints, "the pile never asked for more than a 5"
    value, text = hints[0]
    magic = {"2"} | ({"5"} if ORDER.index(value) > ORDER.index("5") else set()) \
        | ({"10"} if ORDER.index(value) > ORDER.index("10") else set())
    rest = text.split("or higher", 1)[1]
    assert set(re.findall(r"\b(2|5|10)\b", rest)) == magic, text
    assert "anything" in rest, text


def test_the_end_screen_ranks_everybody(server, pages):
    # We pick the pile up whenever we may: a computer player wins, and we lose.
    page = pages.new()
    page.goto(server.base + "/")
    go(page, "/play/oti?level=easy&players=3&voluntary_pickup=on")
    page.wait_for_selector(".felt.oti [data-action=ready]")
    page.click("[data-action=ready]")
    play_until_over(page, limit_s=180, pick_up=True)
    over = page.locator(".over-overlay")
    assert over.locator("h2").inner_text() == "You lost"
    rows = over.locator(".ranking li")
    assert rows.count() == 3, over.inner_text()
    texts = rows.all_inner_texts()
    # the winner first, with no card left; everybody with a place and the cards they have left
    assert re.search(r"Computer \d", texts[0]) and "no cards left" in texts[0], texts
    mine = [t for t in texts if "You" in t]
    assert len(mine) == 1 and re.search(r"\b\d+ cards? left", mine[0]), texts
    places = rows.evaluate_all("ls => ls.map(l => l.value)")
    assert places[0] == 1 and places == sorted(places) and all(p >= 2 for p in places[1:]), places
    left = [int(re.search(r"(\d+) cards? left", t).group(1)) for t in texts[1:]]
    assert left == sorted(left), texts
    shot(page, "oti-end-ranking")
