"""Seats and teams in a friends table's waiting room, in three real browsers (a laptop, a phone
and a tablet): everyone sees the teams as people join, a player moves to a free seat, the
creator swaps two players, everyone sees each change at once, and the game starts with the
seats as arranged, each page playing its own seat (checked against the table's own record)."""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from websockets.sync.client import connect

from .axe import blocking_violations
from .browser_kit import open_friends_table, shot
from .omi_driver import READY_JS, play_one

#: The seats of the waiting room as a page shows them: (seat, kind, name, team, is it mine).
SEATS_JS = """() => [...document.querySelectorAll('.lobby-seats li')].map(li => [
  Number(li.dataset.seat), li.dataset.kind,
  li.dataset.kind === 'open' ? null : li.querySelector('.lobby-seat-name').firstChild.textContent,
  li.dataset.team === undefined ? null : Number(li.dataset.team), li.classList.contains('me')])"""

#: Lobby rows or buttons that do not fit the window's width, or whose text is cut.
CLIPPED_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.lobby-seats li, .lobby-seats button, .lobby-seat-name')) {
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > innerWidth + 1 || el.scrollWidth > el.clientWidth + 1) {
      const what = el.dataset.action || el.textContent.trim().slice(0, 24);
      out.push(what + ' ' + Math.round(r.left) + '-' + Math.round(r.right));
    }
  }
  return out;
}"""


def seats(page) -> list[list]:
    return page.evaluate(SEATS_JS)


def wait_seats(page, expected: list[tuple]) -> None:
    """Wait until the page's waiting room shows ``expected`` (seat, kind, name, team, mine)."""
    want = [list(row) for row in expected]
    try:
        page.wait_for_function(
            f"want => JSON.stringify(({SEATS_JS})()) === JSON.stringify(want)", arg=want, timeout=30000
        )
    except PlaywrightTimeoutError:
        raise AssertionError(f"the waiting room shows {seats(page)}, not {want}") from None


def join(page, link: str, name: str) -> None:
    page.goto(link)
    page.fill("#join-name", name)
    page.click("[data-action=join]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(".lobby-seats")


def held_seat(page, table_id: str) -> int:
    """The seat this browser keeps the token of (localStorage, js/store.js)."""
    held = page.evaluate("id => JSON.parse(localStorage.getItem('bistrot.table.' + id))", table_id)
    [seat] = [s["seat"] for s in held["seats"]]
    return seat


def fits(page) -> None:
    clipped = page.evaluate(CLIPPED_JS)
    assert clipped == [], f"cut or off screen: {clipped}"


def actions_stored(base: str, table_id: str, watch: str) -> list[tuple[int, str]]:
    """Every action the table stored, as (seat, action), from a spectator's catch-up."""
    url = base.replace("http://", "ws://") + f"/ws/{table_id}?since=0"
    out: list[tuple[int, str]] = []
    with connect(url, additional_headers={"Authorization": f"Bearer {watch}"}, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "ping", "id": "end"}))
        while True:
            message = json.loads(ws.recv(10))
            if message["type"] == "pong":
                return out
            if message["type"] == "state" and message["last"]:
                out.append((message["last"]["seat"], message["last"]["action"]))


def test_three_browsers_see_the_teams_move_and_swap_then_play_their_own_seats(server, pages):
    ama = pages.new()  # 1280x800
    join_link, watch_link = open_friends_table(ama, server.base, "Ama")
    table_id = re.search(r"/join/([\w-]+)#", join_link).group(1)
    watch = watch_link.rsplit("#", 1)[1]
    kasun = pages.new(width=360, height=640, mobile=True)
    join(kasun, join_link, "Kasun")
    nimal = pages.new(width=768, height=1024)
    join(nimal, join_link, "Nimal")

    # The teams as people join: partners opposite, seats 0 and 2 against 1 and 3.
    wait_seats(ama, [(0, "human", "Ama", 0, True), (1, "human", "Kasun", 1, False),
                     (2, "human", "Nimal", 0, False), (3, "open", None, 1, False)])
    wait_seats(kasun, [(0, "human", "Ama", 0, False), (1, "human", "Kasun", 1, True),
                       (2, "human", "Nimal", 0, False), (3, "open", None, 1, False)])
    assert "Team 1 · your team" in nimal.locator("[data-testid=lobby-seat-2]").inner_text()
    assert "Team 2" in nimal.locator("[data-testid=lobby-seat-3]").inner_text()
    assert "partner" in ama.locator(".lobby-teams-hint").inner_text()
    # Players may only take a free seat; the creator moves people.
    assert kasun.locator("[data-action=sit]").count() == 1
    assert kasun.locator("[data-action=pick], [data-action=swap]").count() == 0
    assert ama.locator("[data-action=sit]").count() == 0
    assert ama.locator("[data-action=pick]").count() == 2  # Kasun and Nimal (seat 0 stays Ama's)
    fits(kasun)
    assert blocking_violations(kasun) == []
    shot(kasun, "lobby-seats-360x640")
    shot(ama, "lobby-seats-1280x800")

    # Kasun moves to the free seat 3, across the table: everyone sees it at once.
    kasun.click("[data-testid=lobby-seat-3] [data-action=sit]")
    moved = [(0, "human", "Ama", 0), (1, "open", None, 1), (2, "human", "Nimal", 0), (3, "human", "Kasun", 1)]
    for page, mine in ((ama, 0), (kasun, 3), (nimal, 2)):
        wait_seats(page, [(*row, row[0] == mine) for row in moved])
    assert held_seat(kasun, table_id) == 3  # the same token, kept under its new seat
    assert kasun.locator(".notice").count() == 0 or not kasun.locator(".notice").is_visible()

    # Ama swaps Nimal and Kasun: Kasun becomes her partner.
    ama.click("[data-testid=lobby-seat-2] [data-action=pick]")
    assert "Where should Nimal sit?" in ama.locator(".lobby-picking").inner_text()
    assert blocking_violations(ama) == []
    shot(ama, "lobby-picking-1280x800")
    ama.click("[data-testid=lobby-seat-3] [data-action=swap]")
    swapped = [
        (0, "human", "Ama", 0), (1, "open", None, 1), (2, "human", "Kasun", 0), (3, "human", "Nimal", 1),
    ]
    for page, mine in ((ama, 0), (kasun, 2), (nimal, 3)):
        wait_seats(page, [(*row, row[0] == mine) for row in swapped])
    assert (held_seat(kasun, table_id), held_seat(nimal, table_id)) == (2, 3)
    assert "your team" in kasun.locator("[data-testid=lobby-seat-0]").inner_text()
    fits(kasun)
    fits(ama)
    shot(kasun, "lobby-swapped-360x640")
    shot(ama, "lobby-swapped-1280x800")
    shot(nimal, "lobby-swapped-768x1024")

    # The game starts with the seats as arranged (a computer takes the free seat 1).
    ama.click("[data-action=start]")
    for page in (ama, kasun, nimal):
        page.wait_for_selector(".felt.omi")
    assert [p.locator(".seat.me").get_attribute("data-seat") for p in (ama, kasun, nimal)] == ["0", "2", "3"]
    assert "Kasun" in ama.locator(".seat-top .plate-name").inner_text()  # her partner, opposite
    # Each page plays its own seat: one round of the table, trumps first.
    played = {}
    while len(played) < 3:
        for name, page in (("Ama", ama), ("Kasun", kasun), ("Nimal", nimal)):
            if name not in played and page.evaluate(READY_JS):
                played[name] = play_one(page)
        ama.wait_for_timeout(50)
    shot(kasun, "lobby-arranged-game-360x640")
    stored = actions_stored(server.base, table_id, watch)
    plays = {seat: action.split()[1] for seat, action in stored if action.startswith("play")}
    assert (plays.get(0), plays.get(2), plays.get(3)) == (played["Ama"], played["Kasun"], played["Nimal"])
    assert stored[0][0] == 0 and stored[0][1].startswith("trump")  # Ama chose, from seat 0
    assert pages.errors == []


def test_three_player_omi_shows_the_turn_order_not_teams(server, pages):
    created = server.api("POST", "/api/tables", {"game": "omi", "mode": "friends", "name": "Ama",
                                                 "rules": {"players": 3}})
    page = pages.new(width=360, height=640, mobile=True)
    page.goto(server.base + "/")
    # What the creator's browser keeps (js/store.js saveTable; unsaved entries are pruned).
    keep = "([id, held]) => localStorage.setItem('bistrot.table.' + id, JSON.stringify(held))"
    held = {"mode": "friends", "creator": True, "seats": created["seats"], "join_url": created["join_url"],
            "game": "omi", "saved": int(time.time() * 1000)}
    page.evaluate(keep, [created["table"], held])
    page.goto(f"{server.base}/t/{created['table']}")
    wait_seats(page, [(0, "human", "Ama", None, True), (1, "open", None, None, False),
                      (2, "open", None, None, False)])
    assert "No teams" in page.locator(".lobby-teams-hint").inner_text()
    assert page.locator("[data-action=pick], [data-action=sit]").count() == 0  # nobody to move yet
    fits(page)
    shot(page, "lobby-no-teams-360x640")
