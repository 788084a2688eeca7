"""Play now and the live lobby on the home page (issue 33, item 5): four browsers press "Play
now" for Omi, each gives a name (the whole sign-up) and all land at one table that starts by
itself; two browsers and computer players after the server's wait; a browser on the home page
sees a public table appear, fill and leave without reloading, and another joins it from there
with the keyboard; the leaderboard lists the ratings.

Each browser context is one person: its own cookie jar (the profile's key, an HttpOnly cookie the
page never reads) and its own seat tokens. Every wait is for what the page shows, with a
generous deadline; a wait that runs out says what the page showed instead.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .axe import blocking_violations
from .browser_kit import Server, go, shot
from .layout_kit import overflow
from .omi_driver import READY_JS

WAIT_MS = 30000

#: The public tables of a game the home page lists: table id, seats as shown (None: free), rated.
LOBBY_JS = """(game) => [...document.querySelectorAll(`[data-testid=lobby-${game}] li[data-table]`)]
  .map(li => ({ table: li.dataset.table, rated: !!li.querySelector('.badge.rated'),
    seats: [...li.querySelectorAll('.lobby-table-seats li')]
      .map(s => s.dataset.kind === 'open' ? null : s.textContent) }))"""

#: What a table page shows: waiting or playing, and each seat's plate (name, status).
TABLE_JS = """() => ({
  felt: !!document.querySelector('.felt.omi'), waiting: !!document.querySelector('.lobby-overlay'),
  plates: [...document.querySelectorAll('[data-testid^=plate-]')].map(p => [
    Number(p.dataset.testid.slice(6)), p.querySelector('.plate-name').firstChild.textContent,
    p.dataset.status]),
  error: document.querySelector('.error-page')?.innerText || null})"""

#: The home page's lobby of Omi has its list (the first event of the stream has come).
LOADED_JS = "() => !!document.querySelector('[data-testid=lobby-omi] :is(ul, [data-testid=lobby-empty])')"

PLAYING_JS = f"() => {{ const s = ({TABLE_JS})(); return s.felt && !s.waiting && s.plates.length === 4; }}"


def wait_for(page, condition: str, arg: object, shown: str, what: str, timeout: int = WAIT_MS) -> None:
    """Wait until ``condition(arg)`` holds in the page; else fail saying what ``shown`` found."""
    try:
        page.wait_for_function(condition, arg=arg, timeout=timeout)
    except PlaywrightTimeoutError:
        raise AssertionError(f"{what}: the page shows {page.evaluate(shown, arg)} at {page.url}") from None


def lobby(page, game: str = "omi") -> list[dict]:
    return page.evaluate(LOBBY_JS, game)


def wait_row(page, table: str, seats: list[str | None]) -> None:
    """Wait until the home page's lobby lists ``table`` with ``seats``."""
    condition = f"""([game, table, seats]) =>
      JSON.stringify(({LOBBY_JS})(game).find(x => x.table === table)?.seats) === JSON.stringify(seats)"""
    wait_for(page, condition, ["omi", table, seats], f"([game]) => ({LOBBY_JS})(game)",
             f"table {table} with seats {seats} in the lobby")


def wait_playing(page) -> dict:
    """Wait until the table page shows the game in play (no waiting room, four plates)."""
    wait_for(page, PLAYING_JS, None, TABLE_JS, "the table playing")
    return page.evaluate(TABLE_JS)


def open_home(page, base: str) -> None:
    """The home page, its lobby followed (the first list has come)."""
    page.goto(base + "/")
    wait_for(page, LOADED_JS, None, "() => document.querySelector('[data-testid=playnow]')?.innerText",
             "the lobby loaded")


def ask_name(page, base: str, name: str) -> None:
    """From the home page, press Play now for Omi: the page asks for a name first."""
    open_home(page, base)
    page.click("[data-action=playnow][data-game=omi]")
    page.wait_for_selector("dialog[data-testid=name-dialog][open]", timeout=WAIT_MS)
    page.fill("#profile-name", name)


def landed(page) -> str:
    """The table the page went to (after the name was sent)."""
    try:
        page.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=WAIT_MS)
    except PlaywrightTimeoutError:
        said = page.evaluate("() => document.querySelector('#toasts')?.innerText + ' | '"
                             " + document.body.innerText.slice(0, 400)")
        raise AssertionError(f"never went to a table: {said}") from None
    return page.url.rsplit("/", 1)[1]


def held_seat(page, table: str) -> int:
    """The seat whose token this browser keeps (js/store.js)."""
    held = page.evaluate("id => JSON.parse(localStorage.getItem('bistrot.table.' + id))", table)
    [seat] = [s["seat"] for s in held["seats"]]
    return seat


def fits_the_phone(page) -> None:
    """Nothing reaches past a 360-pixel window's width: the document, nor the home page's box."""
    assert overflow(page)["width"] <= 0, overflow(page)
    wide = page.evaluate("() => { const s = document.querySelector('.home-scroll');"
                         " return s.scrollWidth - s.clientWidth; }")
    assert wide <= 0, f"the home page is {wide}px wider than the window"


def profile_key(server: Server, name: str) -> str:
    return server.api("POST", "/api/profiles", {"name": name})["key"]


def quickmatch(server: Server, key: str) -> dict:
    return server.api("POST", "/api/quickmatch", {"game": "omi"}, headers={"X-Bistrot-Profile": key})


def test_four_players_press_play_now_and_meet_at_one_table(server, pages):
    names = ["Ama", "Kasun", "Nimal", "Dilini"]
    players = [pages.new(), pages.new(width=360, height=640, mobile=True), pages.new(width=768, height=1024),
               pages.new(locale="fr-FR")]
    tables = []
    for i, (page, name) in enumerate(zip(players, names, strict=True)):
        ask_name(page, server.base, name)
        if i == 1:
            fits_the_phone(page)
            shot(page, "playnow-name-360x640")
            assert blocking_violations(page) == []
        page.click("[data-action=profile-save]")
        tables.append(landed(page))
        if i == 0:
            # The waiting room of a public table: it starts by itself, and when computers come.
            page.wait_for_selector("[data-testid=public-start]", timeout=WAIT_MS)
            wait_for(page, "() => !!document.querySelector('[data-testid=fills-in]')", None,
                     "() => document.querySelector('.lobby-overlay')?.innerText", "the computers' countdown")
            assert page.locator("[data-action=start]").count() == 0  # nobody starts it early
            shot(page, "playnow-waiting-1280x800")
    assert len(set(tables)) == 1, f"the four went to tables {tables}"
    assert sorted(held_seat(page, tables[0]) for page in players) == [0, 1, 2, 3]
    for page in players:
        shown = wait_playing(page)
        assert sorted(name for _, name, _ in shown["plates"]) == sorted(names), shown
        assert all(status != "computer" for _, _, status in shown["plates"]), shown
    # The game is on: someone has the first move (the trump chooser, in Omi).
    deadline = time.monotonic() + WAIT_MS / 1000
    while not any(page.evaluate(READY_JS) for page in players):
        shown = [page.evaluate(TABLE_JS) for page in players]
        assert time.monotonic() < deadline, f"nobody has a move: {shown}"
        players[0].wait_for_timeout(100)
    shot(players[1], "playnow-playing-360x640")


def test_the_lobby_shows_a_table_appear_fill_and_leave_live(server, pages):
    watcher = pages.new(width=360, height=640, mobile=True)
    open_home(watcher, server.base)
    keys = [profile_key(server, name) for name in ("Sunil", "Tharushi", "Ravi")]

    first = quickmatch(server, keys[0])
    table = first["table"]
    wait_row(watcher, table, ["Sunil", None, None, None])
    [row] = [x for x in lobby(watcher) if x["table"] == table]
    assert row["rated"], row  # a public table whose people all have a profile
    quickmatch(server, keys[1])
    wait_row(watcher, table, ["Sunil", "Tharushi", None, None])
    quickmatch(server, keys[2])
    wait_row(watcher, table, ["Sunil", "Tharushi", "Ravi", None])
    fits_the_phone(watcher)
    assert blocking_violations(watcher) == []
    shot(watcher, "playnow-lobby-360x640")

    # A fourth person joins it from the lobby, with the keyboard alone, and gives a name.
    joiner = pages.new()
    open_home(joiner, server.base)
    wait_row(joiner, table, ["Sunil", "Tharushi", "Ravi", None])
    join = joiner.locator(f"[data-action=lobby-join][data-table='{table}']")
    assert "Sunil, Tharushi, Ravi" in join.evaluate("b => b.textContent")  # its name says whose table
    join.press("Enter")  # focused and pressed in one step: a redraw between the two would lose it
    joiner.wait_for_selector("dialog[data-testid=name-dialog][open]", timeout=WAIT_MS)
    assert joiner.evaluate("() => document.activeElement.id") == "profile-name"
    joiner.keyboard.type("Chamari")
    joiner.keyboard.press("Enter")
    assert landed(joiner) == table
    assert held_seat(joiner, table) == 3
    shown = wait_playing(joiner)
    assert [name for _, name, _ in sorted(shown["plates"])] == ["Sunil", "Tharushi", "Ravi", "Chamari"], shown

    # The table started: it leaves the watcher's lobby, which was never reloaded.
    gone = "table => !document.querySelector(`[data-testid=lobby-omi] li[data-table='${table}']`)"
    wait_for(watcher, gone, table, f"() => ({LOBBY_JS})('omi')", f"table {table} gone from the lobby")
    assert watcher.evaluate("() => performance.getEntriesByType('navigation').length") == 1
    assert watcher.url == server.base + "/"

    # It is listed in play instead, and its Watch link opens it to a spectator.
    watch = f"[data-testid=playing-omi] [data-action=lobby-watch][data-table='{table}']"
    wait_for(watcher, "sel => !!document.querySelector(sel)", watch,
             "() => document.querySelector('[data-testid=playnow]')?.innerText", f"table {table} in play")
    assert watcher.get_attribute(watch, "href") == f"/watch/{table}#public"
    watcher.click(watch)
    spectating = wait_playing(watcher)
    assert [name for _, name, _ in sorted(spectating["plates"])] == ["Sunil", "Tharushi", "Ravi", "Chamari"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This module's own card room: its tests count on which public tables wait, so no other
    module's tables may be there (nor a failed test's of another run of this one)."""
    srv = Server(tmp_path_factory.mktemp("playnow") / "room.db")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A card room whose public tables wait 12 s for players before computer players (easy) come:
    long enough for the second player's name and Play now to land on a loaded machine (the
    wait counts from the last seat taken, once someone is connected)."""
    srv = Server(tmp_path_factory.mktemp("quick") / "room.db",
                 env={"BISTROT_QUICKMATCH_WAIT_S": "12", "BISTROT_QUICKMATCH_LEVEL": "easy"})
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_two_players_and_computers_after_the_wait(quick_server, pages):
    ama, kasun = pages.new(), pages.new(width=360, height=640, mobile=True)
    # Both names typed first, then sent together: the second player arrives within the wait.
    ask_name(ama, quick_server.base, "Ama")
    ask_name(kasun, quick_server.base, "Kasun")
    ama.click("[data-action=profile-save]")
    kasun.click("[data-action=profile-save]")
    tables = [landed(ama), landed(kasun)]
    assert tables[0] == tables[1], f"the two went to tables {tables}"
    for page in (ama, kasun):
        shown = wait_playing(page)
        people = sorted(name for _, name, status in shown["plates"] if status != "computer")
        computers = [seat for seat, _, status in shown["plates"] if status == "computer"]
        assert people == ["Ama", "Kasun"] and len(computers) == 2, shown


def test_play_now_again_goes_back_to_the_table_one_waits_at(server, pages):
    page = pages.new()
    ask_name(page, server.base, "Ama")
    page.click("[data-action=profile-save]")
    table = landed(page)
    page.wait_for_selector("[data-testid=public-start]", timeout=WAIT_MS)
    go(page, "/")
    # The lobby lists it with a way back, not a Join button; Play now again leads there too.
    back = page.locator(f"[data-action=lobby-back][data-table='{table}']")
    back.wait_for()
    assert page.locator(f"[data-action=lobby-join][data-table='{table}']").count() == 0
    page.click("[data-action=playnow][data-game=omi]")
    assert landed(page) == table
    assert page.locator("dialog[data-testid=name-dialog]").count() == 0  # the profile is known
    # Three more players fill it (it starts and leaves the lobby of the tests that follow).
    for name in ("Kofi", "Esi", "Yaw"):
        assert quickmatch(server, profile_key(server, name))["table"] == table
    wait_playing(page)


def test_offline_play_now_and_the_lobby_say_they_need_the_network(server, pages):
    page = pages.new()
    open_home(page, server.base)
    page.context.set_offline(True)
    page.wait_for_selector("[data-testid=playnow-offline]")
    assert page.locator("[data-action=playnow], [data-testid=lobby-omi]").count() == 0
    page.context.set_offline(False)  # back: the lobby is followed again
    wait_for(page, LOADED_JS, None, "() => document.querySelector('[data-testid=playnow]').innerText",
             "the lobby back online")
    assert page.locator("[data-action=playnow]").count() >= 1


#: A leaderboard as GET /api/ratings answers it (made up: a rated game takes minutes to play).
BOARD = [{"profile": "p" * 16, "name": "Nimal", "rating": 1043.4, "games": 7},
         {"profile": "q" * 16, "name": "ශානිකා", "rating": 1001.6, "games": 1}]


def test_the_leaderboard_lists_the_ratings(server, pages):
    page = pages.new(width=360, height=640, mobile=True)
    open_home(page, server.base)
    page.route("**/api/ratings/omi?limit=50", lambda route: route.fulfill(json={"players": BOARD}))
    page.click("[data-action=leaderboard][data-game=omi]")
    page.wait_for_url(server.base + "/ratings/omi")
    page.wait_for_selector("[data-testid=board]")
    rows = page.locator("[data-testid=board] tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert rows == [["1", "Nimal", "1043", "7"], ["2", "ශානිකා", "1002", "1"]]
    assert overflow(page)["width"] <= 0, overflow(page)
    assert blocking_violations(page) == []
    shot(page, "leaderboard-360x640")
    # The server serves the page at this address too, and the real list (maybe empty) is shown.
    page.unroute("**/api/ratings/omi?limit=50")
    page.reload()
    page.wait_for_selector("[data-testid=board], [data-testid=board-empty]")
    assert page.locator("h1").inner_text() == "Leaderboard: Omi"
