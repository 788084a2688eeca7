"""Club events on the page (issue 34, item 2): the organiser makes an event on /events/new (a
name asked first), a player joins it from its link on a phone and another through the API, the
organiser's Start refused with one pair then accepted with two; no card of a board on the page
before the pair played it; board 1 played through the page, to its "Back to the event" button
(no rematch, no challenge); every other board played by WebSocket clients with the seat tokens
of POST /api/events/<id>/next; then the event's page, polled, shows the final ranking with
percentages, each board's four hands and every table's result.

The smallest event: 4 boards in one round; two pairs make two tables, computers the East-West
pairs. Each browser context is one person (its own profile cookie); every wait is for what the
page shows, with a generous deadline.

Then an event given a start time on /events/new (refused in the past or beyond 30 days; in the
organiser's local time, the browser in Sri Lanka's time zone) that starts by itself, both pages
following it; and a pair whose next table waits for a pair still on its previous board: "Waiting
for pairs 3 …", then that board's table by itself once they finish.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from zoneinfo import ZoneInfo

from server_harness import Client, http, play_out

from .browser_kit import Server, shot
from .layout_kit import overflow
from .omi_driver import play_until_over

WAIT_MS = 30000

#: A card as the page or a record would name one (rank and suit letter), or a suit's symbol.
CARD = re.compile(r"\b(10|[2-9TJQKA])[SHDC]\b|[♠♥♦♣]")
HEADER = "X-Bistrot-Profile"


def make_profile(server: Server, name: str) -> dict[str, str]:
    with http(server.base) as client:
        answer = client.post("/api/profiles", json={"name": name})
    assert answer.status_code == 201, answer.text
    return {HEADER: answer.json()["key"]}


def cookie_key(page) -> dict[str, str]:
    """The profile key the page's browser holds (its HttpOnly cookie), as a header."""
    found = [c["value"] for c in page.context.cookies() if c["name"] == "bistrot_profile"]
    assert found, page.context.cookies()
    return {HEADER: found[0]}


def play_boards(server: Server, event: str, key: dict[str, str], count: int = 10) -> list[int]:
    """Play every board left to ``key``'s player (at most ``count``) through WebSocket clients:
    the boards played."""
    played: list[int] = []
    for _ in range(count):
        with http(server.base) as client:
            answer = client.post(f"/api/events/{event}/next", headers=key)
        assert answer.status_code == 200, answer.text
        step = answer.json()
        if step["status"] == "done":
            return played
        assert step["status"] == "play", step
        with Client(server.base, step["table_id"], step["token"]) as player:
            player.wait_for(lambda m: m["type"] == "state")
            assert player.view["table"]["event"] == event
            play_out(player)
        played.append(step["board"])
    if count < 10:
        return played
    raise AssertionError("the boards never ended")


def name_dialog(page, name: str) -> None:
    page.wait_for_selector("dialog[data-testid=name-dialog][open]", timeout=WAIT_MS)
    page.fill("#profile-name", name)
    page.click("[data-action=profile-save]")


def event_text(page) -> str:
    return page.locator("[data-testid=event]").inner_text()


def test_an_event_is_made_joined_started_played_and_ranked_on_the_page(server, pages):
    # The organiser, from the home page's link.
    org = pages.new()
    org.goto(server.base + "/")
    org.click("[data-action=new-event]", timeout=WAIT_MS)
    org.wait_for_selector("[data-testid=new-event]", timeout=WAIT_MS)
    org.fill("#event-name", "Thursday club")
    org.fill("#event-boards", "4")
    org.fill("#event-per-round", "4")
    org.click("[data-action=make-event]")
    name_dialog(org, "Organiser")
    org.wait_for_url(re.compile(r"/e/[\w-]+$"), timeout=WAIT_MS)
    event = org.url.rsplit("/", 1)[1]
    org.wait_for_selector("[data-testid=event-status]", timeout=WAIT_MS)
    assert "Thursday club" in event_text(org)
    assert "Organised by Organiser." in event_text(org)
    assert org.locator("[data-testid=event-link]").input_value().endswith(f"/e/{event}")
    assert org.locator("[data-testid=event] svg.qr").count() == 1

    # Ama joins from the link, on a phone: a name first, then her pair.
    ama = pages.new(width=360, height=640, mobile=True)
    ama.goto(f"{server.base}/e/{event}")
    ama.click("[data-action=join-new]", timeout=WAIT_MS)
    name_dialog(ama, "Ama")
    ama.wait_for_selector("[data-action=leave]", timeout=WAIT_MS)
    assert "Pair 1: Ama & (a free place)" in ama.locator("[data-testid=event-pairs]").inner_text()
    assert overflow(ama)["width"] <= 0, overflow(ama)
    shot(ama, "event-open-360x640")

    # One pair is too few: the organiser's Start says so.
    org.wait_for_selector("[data-pair='1']", timeout=WAIT_MS)
    org.click("[data-action=start]")
    org.wait_for_selector(".toast:has-text('at least two pairs')", timeout=WAIT_MS)

    # Ben joins through the API; the organiser's page sees his pair by itself, and starts.
    ben = make_profile(server, "Ben")
    with http(server.base) as client:
        assert client.post(f"/api/events/{event}/join", json={}, headers=ben).json() == {"pair": 2}
    org.wait_for_selector("[data-testid=event-pairs] [data-pair='2']", timeout=WAIT_MS)
    org.click("[data-action=start]")
    org.wait_for_selector("[data-testid=event-status]:has-text('Playing')", timeout=WAIT_MS)
    org.wait_for_selector("[data-testid=event-movement]", timeout=WAIT_MS)
    assert org.locator("[data-testid=event-pairs] li").count() == 4  # computers fill pairs 3 and 4

    # Ama's page, polled: her first board to play, and no card of it anywhere.
    ama.wait_for_selector("[data-action=play-board]:has-text('Play board 1')", timeout=WAIT_MS)
    assert ama.locator("[data-testid=event-board]").count() == 0
    assert not CARD.search(event_text(ama)), event_text(ama)
    assert "No board to show yet" in ama.locator("[data-testid=event-results]").inner_text()

    # Ben plays his four boards (table 2); Ama's page still shows no card of hers to play.
    assert play_boards(server, event, ben) == [1, 2, 3, 4]
    ama.reload()
    ama.wait_for_selector("[data-action=play-board]", timeout=WAIT_MS)
    assert not CARD.search(event_text(ama)), event_text(ama)

    # Ama plays board 1 on the page: its table, then the way back to the event.
    ama.click("[data-action=play-board]")
    ama.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=WAIT_MS)
    table = ama.url.rsplit("/", 1)[1]
    play_until_over(ama, limit_s=120)
    back = ama.locator(".over-overlay [data-action=event-back]")
    back.wait_for(timeout=WAIT_MS)
    assert back.inner_text() == "Back to the event"
    assert ama.locator(".over-overlay :is([data-action=rematch], [data-action=challenge])").count() == 0
    shot(ama, "event-board-over-360x640")
    back.click()
    ama.wait_for_url(re.compile(rf"/e/{event}$"), timeout=WAIT_MS)
    # Board 1 is hers now: its hands and both tables; boards 2 to 4 not yet.
    ama.wait_for_selector("[data-testid=event-board][data-board='1']", timeout=WAIT_MS)
    assert ama.locator("[data-testid=event-board]").count() == 1
    assert ama.locator(f"[data-testid=event-board] a[href='/replay/{table}']").count() == 1

    # Her other boards, through the API's seat tokens.
    assert play_boards(server, event, cookie_key(ama)) == [2, 3, 4]

    # The organiser's page (polled, it never reloads) shows it all once the event is over.
    org.wait_for_selector("[data-testid=event-status]:has-text('Over')", timeout=WAIT_MS)
    org.wait_for_selector("[data-testid=event-board][data-board='4']", timeout=WAIT_MS)
    rows = org.locator("[data-testid=event-ranking] tbody tr")
    assert rows.count() == 4, rows.all_inner_texts()
    percents = org.locator("[data-testid=event-ranking] [data-testid=percent]").all_inner_texts()
    assert all(re.fullmatch(r"\d+\.\d\d %", p) for p in percents), percents
    names = org.locator("[data-testid=event-ranking] tbody").inner_text()
    assert "Ama" in names and "Ben" in names and "Computer" in names, names
    boards = org.locator("[data-testid=event-board]")
    assert boards.count() == 4
    for i in range(4):
        board = boards.nth(i)
        assert board.locator("dd[data-compass]").count() == 4
        for compass in "NESW":
            assert board.locator(f"dd[data-compass={compass}] .event-card").count() == 8
        assert board.locator("tbody tr").count() == 2  # both tables' results
        assert board.locator("a[data-action=replay]").count() == 2
    with http(server.base) as client:
        first = client.get(f"/api/events/{event}").json()["results"][0]["tables"][0]
    row = boards.nth(0).locator("tbody tr").first.inner_text()
    assert (
        f"{first['ns_tricks']}–{first['ew_tricks']}" in row
        and f"{first['ns_points']}–{first['ew_points']}" in row
    ), row
    assert org.locator("[data-action=play-board]").count() == 0  # the organiser plays no board
    assert overflow(org)["width"] <= 0, overflow(org)
    shot(org, "event-over-1280x800")


#: The organiser's time zone in the start-time test: not the machine's UTC, so that a start time
#: read as UTC instead of local time would be 5 h 30 min off.
ZONE = "Asia/Colombo"
#: How far ahead the event is set to start: time to make it and for two pairs to join first.
START_S = 12

#: A datetime-local field's value (the browser's local time, to the second) ``s`` seconds from now.
LOCAL_IN = """(s) => {
  const d = new Date(Date.now() + s * 1000);
  const p = (n) => String(n).padStart(2, "0");
  const date = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  return `${date}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}"""


def test_an_event_with_a_start_time_starts_by_itself_and_its_pages_follow(server, pages):
    org = pages.new(timezone=ZONE)
    org.goto(server.base + "/events/new")
    org.wait_for_selector("[data-testid=new-event]", timeout=WAIT_MS)
    org.fill("#event-name", "Friday club")
    org.fill("#event-boards", "4")
    org.fill("#event-per-round", "4")
    # Refused on the page, before any name is asked for: a time past, a time beyond 30 days.
    for seconds, text in ((-3600, "That time has passed"), (31 * 86400, "between now and 30 days")):
        org.fill("#event-starts", org.evaluate(LOCAL_IN, seconds))
        org.click("[data-action=make-event]")
        org.wait_for_selector(f"[data-testid=event-error]:has-text('{text}')", timeout=WAIT_MS)
        assert org.locator("dialog[data-testid=name-dialog][open]").count() == 0
        assert org.url.endswith("/events/new")
    shot(org, "event-new-start-time-1280x800")

    # A time a few seconds ahead, in the organiser's own (Sri Lankan) time.
    meant = time.time() + START_S
    org.fill("#event-starts", org.evaluate(LOCAL_IN, START_S))
    org.click("[data-action=make-event]")
    name_dialog(org, "Organiser")
    org.wait_for_url(re.compile(r"/e/[\w-]+$"), timeout=WAIT_MS)
    event = org.url.rsplit("/", 1)[1]
    with http(server.base) as client:
        starts_at = client.get(f"/api/events/{event}").json()["starts_at"]
    assert meant - 1.5 < starts_at <= meant + 0.5, (starts_at, meant)  # seconds since 1970, UTC
    local = datetime.fromtimestamp(starts_at, ZoneInfo(ZONE))
    starts = org.locator("[data-testid=event-starts]")
    starts.wait_for(timeout=WAIT_MS)
    shown = starts.inner_text()
    assert re.fullmatch(rf"Starts (at|on .+ at) 0?{local.hour}:{local.minute:02d}\.", shown), (shown, local)
    assert "Taking pairs" in org.locator("[data-testid=event-status]").inner_text()

    # Ama joins on her page (which then says when it starts, not that the organiser starts it),
    # Ben through the API.
    ama = pages.new()
    ama.goto(f"{server.base}/e/{event}")
    ama.click("[data-action=join-new]", timeout=WAIT_MS)
    name_dialog(ama, "Ama")
    ama.wait_for_selector("[data-action=leave]", timeout=WAIT_MS)
    assert ama.locator("[data-testid=event-starts]").count() == 1
    assert "The organiser starts the event" not in event_text(ama)
    ben = make_profile(server, "Ben")
    with http(server.base) as client:
        assert client.post(f"/api/events/{event}/join", json={}, headers=ben).json() == {"pair": 2}
        before = client.get(f"/api/events/{event}").json()["status"]
    if time.time() < starts_at - 0.5:  # nothing started it early (unless this machine was that slow)
        assert before == "open"

    # Nobody presses Start: at its time the pages, polled, show it playing and Ama her board.
    org.wait_for_selector("[data-testid=event-status]:has-text('Playing')", timeout=WAIT_MS)
    assert time.time() >= starts_at
    org.wait_for_selector("[data-testid=event-movement]", timeout=WAIT_MS)
    assert org.locator("[data-testid=event-starts]").count() == 0
    ama.wait_for_selector("[data-action=play-board]:has-text('Play board 1')", timeout=WAIT_MS)
    ama.wait_for_selector("[data-testid=event-movement] [data-status=to_play]", timeout=WAIT_MS)
    assert "Tables: 2." in event_text(ama)
    with http(server.base) as client:
        step = client.post(f"/api/events/{event}/next", headers=cookie_key(ama)).json()
    assert (step["status"], step["board"]) == ("play", 1)


def test_a_pair_waits_for_the_pair_of_its_next_table_then_goes_on_by_itself(server, pages):
    """Three pairs at two tables, 2 boards a round: pair 2 (Ben, on the page) meets pair 3 in
    round 2, and pair 3 plays round 1 against pair 1; Ben done with round 1 first waits for them."""
    org, ama, chandi = (make_profile(server, name) for name in ("Organiser", "Ama", "Chandi"))
    with http(server.base) as client:
        body = {"name": "Waiting", "boards": 4, "boards_per_round": 2}
        event = client.post("/api/events", json=body, headers=org).json()["event"]
        assert client.post(f"/api/events/{event}/join", json={}, headers=ama).json() == {"pair": 1}
    ben = pages.new()
    ben.goto(f"{server.base}/e/{event}")
    ben.click("[data-action=join-new]", timeout=WAIT_MS)
    name_dialog(ben, "Ben")
    ben.wait_for_selector("[data-action=leave]", timeout=WAIT_MS)
    with http(server.base) as client:
        assert client.post(f"/api/events/{event}/join", json={}, headers=chandi).json() == {"pair": 3}
        assert client.post(f"/api/events/{event}/start", headers=org).json() == {"tables": 2}
    # Round 1: pair 2 at table 2 against the computers' pair 4; pairs 1 and 3 at table 1.
    # Round 2: pair 2 against pair 3 at table 2.
    ben_key = cookie_key(ben)
    assert play_boards(server, event, ben_key, count=2) == [1, 2]

    ben.wait_for_selector("[data-action=play-board]:has-text('Play board 3')", timeout=WAIT_MS)
    ben.click("[data-action=play-board]")
    waiting = ben.locator("[data-testid=event-waiting]")
    waiting.wait_for(timeout=WAIT_MS)
    assert waiting.inner_text() == "Waiting for pair 3 to finish their board…"
    assert ben.locator("[data-action=play-board]").is_disabled()
    # No board compared yet (only pair 2's table played them): no score shown, not "0/0, 50 %".
    rows = ben.locator("[data-testid=event-ranking] tbody tr")
    scores = [rows.nth(i).locator("td").all_inner_texts()[2:] for i in range(rows.count())]
    assert scores and all(score == ["–", "–"] for score in scores), scores
    # Asked again (every 2.5 s) it still waits: the page stays, and says so.
    ben.wait_for_timeout(3500)
    assert re.search(rf"/e/{event}$", ben.url), ben.url
    assert waiting.inner_text() == "Waiting for pair 3 to finish their board…"
    shot(ben, "event-waiting-1280x800")

    # Pairs 1 and 3 play round 1 together, at once (each needs the other at the table).
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(play_boards, server, event, key, 2) for key in (ama, chandi)]
        assert [run.result(timeout=240) for run in runs] == [[1, 2], [1, 2]]

    # Ben's page goes on by itself to board 3's table, the one Chandi's pair is seated at too.
    ben.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=WAIT_MS)
    ben.wait_for_selector(".felt.omi", timeout=WAIT_MS)
    table = ben.url.rsplit("/", 1)[1]
    with http(server.base) as client:
        for key in (ben_key, chandi):
            step = client.post(f"/api/events/{event}/next", headers=key).json()
            assert (step["status"], step["board"], step["table"], step["table_id"]) == ("play", 3, 2, table)
