"""A third game in the page (issue 35): tests/toy_game.py's "High card", registered by its one
entry in a card room of this process, is played in Chromium with the page's generic renderer
(js/games/plain.js) every way its capabilities allow: against the computer (then its replay
and its record), hot seat, friends (chat, a seat moved, a rematch) and a challenge.  The page
offers nothing the toy does not declare: no analysis (and the server refuses one), no daily
deal, no ratings; and it names the toy by the catalog's words where its languages have none.
No file of src/ names the toy."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bistrot import games
from tests.server.server_harness import ThreadServer, http, make_settings
from toy_game import ENTRY, ToyGame

from .browser_kit import go, join_by_link, open_friends_table, shot

# The card room runs in a thread of this process (the toy is registered here only), and every
# test of this folder drives Chromium (tests/conftest.py marks them `browser`).
pytestmark = pytest.mark.server

WAIT = 30000  # ms: a shared 2-core machine
OVER = ".over-overlay"
ACTION = ".plain-actions button[data-action^='play ']:not([disabled])"
TAKE_SEAT = "[data-action=take-seat]"
#: Keys of the page's dictionaries shown raw (a text the page's languages lack for the toy).
RAW_KEY = re.compile(r"\b(?:game|home|opt|rules|challenge|mode|level)\.[a-z_]+\b")
#: The cards in this page's hand, and the width each is drawn at.
HAND_JS = """() => [...document.querySelectorAll('.hand .card')]
  .map(c => [c.dataset.shown, c.getBoundingClientRect().width])"""


@dataclass
class Room:
    """The card room of the module: its address, and its API."""

    base: str

    def call(self, method: str, path: str, token: str | None = None, **body: object) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with http(self.base) as client:
            return client.request(method, path, headers=headers, json=body or None)

    def record(self, table: str, token: str) -> str:
        answer = self.call("GET", f"/api/tables/{table}/record", token)
        assert answer.status_code == 200, answer.text
        return answer.text


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """A card room that plays the toy game too, in this process (its computer players in
    threads, as the toy's classes are imported here only)."""
    settings = make_settings(
        tmp_path_factory.mktemp("toy"),
        lobby_streams_per_address=1000,  # every page of the module opens from 127.0.0.1
        replay_quota_burst=10_000,
    )
    assert settings.bot_executor == "thread"
    with games.registered(ENTRY), ThreadServer(settings) as server:
        yield Room(server.url)


def table_of(page) -> str:
    return page.url.rsplit("/", 1)[1].split("#")[0]


def token_of(page, table: str, seat: int | None = None) -> str:
    """The seat token this browser keeps for ``table`` (js/store.js)."""
    held = page.evaluate("(id) => JSON.parse(localStorage.getItem('bistrot.table.' + id))", table)
    return next(s["token"] for s in held["seats"] if seat is None or s["seat"] == seat)


def no_raw_keys(page) -> None:
    text = page.locator("body").inner_text()
    assert not RAW_KEY.findall(text), RAW_KEY.findall(text)


def hand(page) -> list[str]:
    """The cards of this page's hand, each drawn at a card's size (not squashed to nothing)."""
    cards = page.evaluate(HAND_JS)
    assert all(width > 30 for _, width in cards), cards
    return [card for card, _ in cards]


def play_one(page) -> str | None:
    """If this page may act: click its first legal action's button and wait until the server
    took it (its card left the hand); the action, else None."""
    buttons = page.locator(ACTION)
    if not buttons.count():
        return None
    action = buttons.first.get_attribute("data-action")
    page.click(f".plain-actions button[data-action='{action}']")
    page.wait_for_function(
        "c => ![...document.querySelectorAll('.hand .card')].some(e => e.dataset.shown === c)",
        arg=action.split()[1], timeout=WAIT,
    )
    return action


def play_to_the_end(page, limit_s: float = 120) -> tuple[list[str], list[str]]:
    """Click legal actions until the end-of-game dialog shows, taking the seat whenever a
    hot-seat table is passed on: the actions played, and the names the device was passed to."""
    played: list[str] = []
    passed: list[str] = []
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        page.wait_for_selector(f"{OVER}, {ACTION}, {TAKE_SEAT}", timeout=WAIT)
        if page.locator(OVER).count():
            return played, passed
        if page.locator(TAKE_SEAT).count():
            # nobody's cards on the page while it is passed on
            assert page.locator(".card.face").count() == 0
            passed.append(page.locator("[data-testid=pass-screen] h2").inner_text().removeprefix("Pass to "))
            page.click(TAKE_SEAT)
            page.wait_for_selector(TAKE_SEAT, state="detached", timeout=WAIT)
            continue
        if (action := play_one(page)) is not None:
            played.append(action)
    raise AssertionError(f"the game did not end in {limit_s} s: {played}")


def play_together(players: list, limit_s: float = 120) -> dict[int, list[str]]:
    """Each page plays its own seat until the game is over on every page: the actions each
    page played, by its index."""
    played: dict[int, list[str]] = {i: [] for i in range(len(players))}
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if all(page.locator(OVER).count() for page in players):
            return played
        moved = False
        for i, page in enumerate(players):
            if (action := play_one(page)) is not None:
                played[i].append(action)
                moved = True
        if not moved:
            time.sleep(0.2)
    raise AssertionError(f"the game did not end in {limit_s} s: {played}")


def outcome(names: list[str], winner: int | None) -> str:
    """The title of the end of a game whose seats are called ``names``."""
    return "A draw" if winner is None else f"{names[winner]} won"


def over_dialog(page, title: str) -> None:
    """The end of the game: its outcome, its replay offered and NOT its analysis (the toy has none)."""
    over = page.locator(OVER)
    assert over.locator(".dialog-head h2").inner_text() == title
    table = table_of(page)
    assert over.locator("[data-action=replay]").get_attribute("href") == f"/replay/{table}"
    assert over.locator("[data-action=analysis]").count() == 0
    assert "Analyse" not in over.inner_text()


def choose_rule(page, name: str, value: str) -> None:
    """Open the home page's rules options and choose ``value`` for option ``name`` (again if the
    page redrew itself meanwhile, as it does when offline play gets ready: closed until a rule
    is set)."""
    for _ in range(5):
        page.locator("details.rules-options").evaluate("d => { d.open = true; }")
        try:
            page.select_option(f"#opt-{name}", value, timeout=3000)
            return
        except PlaywrightTimeoutError:
            continue
    raise AssertionError(f"could not choose {name}={value}")


def pretty(card: str) -> str:
    """A card as the page writes it: "4♠", "10♥"."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]


def winner_of(record: str) -> int | None:
    game = ToyGame.from_record(record)
    assert game.is_over
    return game.winner


# ------------------------------------------------------------------ against the computer


def test_a_toy_game_against_the_computer_its_replay_and_its_record(room, pages):
    page = pages.new()
    page.goto(room.base + "/")
    # A player with a profile (its cookie): the end of their game is stored as anyone's (the
    # daily deal's score, which the toy has none of, is worked out for daily tables only).
    made = page.evaluate("""() => fetch('/api/profiles', {method: 'POST', headers: {'Content-Type':
      'application/json'}, body: JSON.stringify({name: 'Ama'})}).then(r => r.status)""")
    assert made == 201
    page.reload()

    # The home page offers the toy by the catalog's title (the page's languages do not know it),
    # with its options named by the catalog too; no daily deal of it (the server deals none).
    card = page.locator("label.choice-card[for=game-toy]")
    card.wait_for(timeout=WAIT)
    assert card.locator(".choice-title").inner_text() == "Toy"
    assert card.locator(".choice-text").count() == 0  # no blurb, rather than its key
    page.wait_for_selector("[data-testid=daily-oti]", timeout=WAIT)  # (the daily deals are in)
    assert page.locator("[data-testid=daily-toy]").count() == 0
    daily = room.call("GET", "/api/daily/toy")
    assert daily.status_code == 404 and daily.json()["code"] == "not_found", daily.text
    card.click()
    page.click("label.segment:has([data-testid=mode-computer])")
    page.select_option("[data-testid=level]", "easy")
    choose_rule(page, "players", "2")
    rounds = page.locator("label[for=opt-rounds]")
    rounds.wait_for(timeout=WAIT)  # shown, the rules options open
    assert rounds.inner_text() == "Rounds"
    assert page.locator("#opt-players").input_value() == "2"
    no_raw_keys(page)
    shot(page, "toy-home")
    page.click("[data-action=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=WAIT)
    table = table_of(page)

    # The table, drawn by the generic renderer: the seats, the hand, a button per legal action.
    page.wait_for_selector(".felt.plain", timeout=WAIT)
    page.wait_for_selector(ACTION, timeout=WAIT)
    assert "Toy" in page.locator(".topbar-title").inner_text()
    assert len(hand(page)) == 3  # three rounds: a card a round
    assert page.locator(".plain-seats .seat").count() == 2
    assert "Ama" in page.locator(".seat.me").inner_text()
    no_raw_keys(page)
    shot(page, "toy-table")
    # A hint (the toy declares them): marked on the button of the action it names.
    page.click("[data-action=hints]")
    page.click("[data-action=hint]")
    hinted = page.locator("[data-testid=hint]")
    hinted.wait_for(timeout=WAIT)
    action = hinted.get_attribute("data-action")
    assert action.startswith("play ") and hinted.inner_text() == f"Hint: play {pretty(action.split()[1])}"
    assert page.locator(f".plain-actions button.hinted[data-action='{action}']").count() == 1
    shot(page, "toy-hint")
    played, _ = play_to_the_end(page)
    assert len(played) == 3

    token = token_of(page, table)
    record = room.record(table, token)
    winner = winner_of(record)
    title = outcome(["Ama", "Computer 2"], winner)
    over_dialog(page, title)
    # the hint asked for, counted at the end
    assert page.locator(f"{OVER} [data-testid=hints-used]").inner_text() == "Ama used hints (1)"
    assert page.locator(f"{OVER} [data-action=rematch]").count() == 1
    assert page.locator(f"{OVER} [data-action=challenge]").count() == 1
    shot(page, "toy-over")

    # The replay: every step, the result at the end, and no analysis, nor a way to ask for it.
    page.click(f"{OVER} [data-action=replay]")
    page.wait_for_url(f"**/replay/{table}", timeout=WAIT)
    page.wait_for_selector("[data-testid=replay-slider]", timeout=WAIT)
    assert page.locator(".replay-head h1").inner_text() == "Replay · Toy · Against the computer"
    assert page.locator("[data-testid=replay-slider]").get_attribute("max") == "6"
    assert page.locator("[data-testid=replay-moves] li").count() == 6
    page.keyboard.press("End")
    page.wait_for_selector("[data-testid=replay-result]", timeout=WAIT)
    assert page.locator("[data-testid=replay-result] h2").inner_text() == title
    assert page.locator("[data-testid=analysis]").count() == 0
    assert page.locator("[data-action=analyse]").count() == 0
    no_raw_keys(page)
    shot(page, "toy-replay")

    # Opened as "analyse this game" (an address made by hand): still nothing is asked for.
    asked: list[str] = []
    page.on("request", lambda r: r.method == "POST" and "/analysis" in r.url and asked.append(r.url))
    page.goto(f"{room.base}/replay/{table}#analysis")
    page.wait_for_selector("[data-testid=replay-slider]", timeout=WAIT)
    page.wait_for_timeout(500)
    assert asked == [] and page.locator("[data-testid=analysis]").count() == 0

    # The record downloads from the replay, names the toy game and replays to the same end.
    with page.expect_download() as downloading:
        page.click("[data-action=download-record]")
    saved = downloading.value
    assert saved.suggested_filename == f"bistrot-toy-{table[:6]}.txt"
    text = Path(saved.path()).read_text()
    assert text == record and text.startswith('[Game "Toy"]'), text
    assert len(ToyGame.from_record(text).actions) == 6

    # The API refuses the analysis the toy does not declare, to the seat's own token too.
    for method in ("POST", "GET"):
        refused = room.call(method, f"/api/tables/{table}/analysis", token)
        assert refused.status_code == 409 and refused.json()["code"] == "no_analysis", refused.text

    # The home page lists the finished game with its replay.
    go(page, "/")
    row = page.locator(f"[data-testid=history] li[data-table='{table}']")
    row.wait_for(timeout=WAIT)
    assert row.locator("[data-testid=history-result]").inner_text() == ("Won" if winner == 0 else "Lost")
    assert "Toy" in row.inner_text()
    assert row.locator("[data-action=replay]").get_attribute("href") == f"/replay/{table}"


def test_the_toy_rules_page_says_what_the_catalog_says(room, pages):
    page = pages.new()
    page.goto(room.base + "/rules/toy")
    page.wait_for_selector(".rules-page", timeout=WAIT)
    assert page.locator(".rules-page h1").inner_text() == "Toy"
    assert page.locator("[data-testid=rules-ratings]").count() == 0  # the toy is not rated
    options = page.locator(".options-table tbody tr").all_inner_texts()
    assert len(options) == 2 and "Rounds" in options[1] and "rounds to play" in options[1], options
    no_raw_keys(page)
    # Omi's rules page links to the toy's by its name, and still explains ratings.
    go(page, "/rules/omi")
    page.wait_for_selector("[data-testid=rules-ratings]", timeout=WAIT)
    assert page.locator(".rules-page a[data-game=toy]").inner_text() == "Toy"
    no_raw_keys(page)


# ------------------------------------------------------------------ hot seat


def test_a_hot_seat_toy_game_on_one_device(room, pages):
    page = pages.new()
    page.goto(room.base + "/")
    page.click("label.choice-card[for=game-toy]")
    page.click("label.segment:has([data-testid=mode-hotseat])")
    # three players (the toy's default): Ama and Kasun here, a computer in the third seat
    page.fill("[data-testid=hotseat-name-0]", "Ama")
    page.fill("[data-testid=hotseat-name-1]", "Kasun")
    page.select_option("[data-testid=hotseat-kind-2]", "easy")
    assert page.locator("[data-testid=hotseat-name-3]").count() == 0
    page.click("[data-action=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=WAIT)
    table = table_of(page)
    page.wait_for_selector(f".felt.plain, {TAKE_SEAT}", timeout=WAIT)
    played, passed = play_to_the_end(page)
    # Each of the two played a card a round, the device passed between them.
    assert len(played) == 6
    assert passed[:2] == ["Ama", "Kasun"] and set(passed) == {"Ama", "Kasun"}, passed
    record = room.record(table, token_of(page, table, 0))
    game = ToyGame.from_record(record)
    assert [seat for seat, _ in game.actions].count(2) == 3  # the computer's three cards
    assert [a for s, a in game.actions if s != 2] == played
    over_dialog(page, outcome(["Ama", "Kasun", "Computer 3"], game.winner))
    shot(page, "toy-hotseat-over")


# ------------------------------------------------------------------ friends


CHAT_COUNT = "n => document.querySelectorAll('[data-testid=chat-lines] .chat-line').length === n"


def chat_lines(page) -> list[str]:
    return page.locator("[data-testid=chat-lines] .chat-line .chat-text").all_inner_texts()


def test_friends_chat_move_a_seat_play_the_toy_and_rematch(room, pages):
    ama, kasun = pages.new(), pages.new()
    join_link, _ = open_friends_table(ama, room.base, "Ama", "toy")
    table = table_of(ama)
    join_by_link(kasun, join_link, "Kasun")
    ama.wait_for_selector(".lobby-seats li >> text=Kasun", timeout=WAIT)

    # They chat in the waiting room: a message arrives on the other page.
    ama.fill("[data-testid=chat-input]", "Hello from Ama")
    ama.click("[data-action=send-chat]")
    kasun.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=chat-lines] .chat-text')]"
        ".some(e => e.textContent === 'Hello from Ama')", timeout=WAIT)

    # Kasun moves from the second seat (1) to the free third (2); both pages see it.
    kasun.click("[data-testid=lobby-seat-2] [data-action=sit]")
    for page in (ama, kasun):
        page.wait_for_selector("[data-testid=lobby-seat-2] >> text=Kasun", timeout=WAIT)
        page.wait_for_selector("[data-testid=lobby-seat-1][data-kind=open]", timeout=WAIT)
    no_raw_keys(kasun)
    shot(kasun, "toy-friends-lobby")
    ama.click("[data-action=start]")  # a computer takes the free seat 2
    for page in (ama, kasun):
        page.wait_for_selector(".felt.plain", timeout=WAIT)
        page.wait_for_selector(".lobby-overlay", state="detached", timeout=WAIT)
    assert kasun.locator(".seat.me").get_attribute("data-seat") == "2"
    mine = [hand(ama), hand(kasun)]
    assert len(mine[0]) == len(mine[1]) == 3 and not set(mine[0]) & set(mine[1])

    # In the game, Kasun writes; it arrives on Ama's page (its top bar counts it).
    kasun.click("[data-action=chat]")
    kasun.fill("[data-testid=chat-input]", "good luck")
    kasun.click("[data-action=send-chat]")
    kasun.keyboard.press("Escape")
    ama.wait_for_selector("[data-testid=chat-unread]", timeout=WAIT)
    ama.click("[data-action=chat]")
    ama.wait_for_function(CHAT_COUNT, arg=2, timeout=WAIT)
    assert chat_lines(ama) == ["Hello from Ama", "good luck"]
    ama.keyboard.press("Escape")

    played = play_together([ama, kasun])
    record = room.record(table, token_of(ama, table))
    game = ToyGame.from_record(record)
    by_seat = {seat: [a for s, a in game.actions if s == seat] for seat in range(3)}
    assert by_seat[0] == played[0] and by_seat[2] == played[1] and len(by_seat[1]) == 3
    for page in (ama, kasun):
        over_dialog(page, outcome(["Ama", "Computer 2", "Kasun"], game.winner))
    shot(kasun, "toy-friends-over")

    # Rematch: Ama asks, Kasun joins it; both land at the new table, in their seats.
    ama.click(f"{OVER} [data-action=rematch]")
    ama.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=WAIT)
    ama.wait_for_function("(old) => !location.pathname.endsWith(old)", arg=table, timeout=WAIT)
    kasun.wait_for_selector(f"{OVER} [data-action=rematch]:text-is('Join the rematch')", timeout=WAIT)
    kasun.click(f"{OVER} [data-action=rematch]")
    kasun.wait_for_function("(old) => !location.pathname.endsWith(old)", arg=table, timeout=WAIT)
    again = table_of(ama)
    assert again != table and table_of(kasun) == again
    for page in (ama, kasun):
        page.wait_for_selector(".felt.plain", timeout=WAIT)
        page.wait_for_function("() => document.querySelectorAll('.hand .card').length === 3", timeout=WAIT)
        assert page.locator(OVER).count() == 0
    assert kasun.locator(".seat.me").get_attribute("data-seat") == "2"
    assert ama.locator(".seat.me").get_attribute("data-seat") == "0"


# ------------------------------------------------------------------ a challenge


def test_a_toy_challenge_is_played_on_the_same_deal_and_compared(room, pages):
    page = pages.new()
    page.goto(room.base + "/")
    page.evaluate("n => localStorage.setItem('bistrot.name', n)", "Ama")
    go(page, "/play/toy?level=easy&players=2&rounds=3")  # the quick-start link: rules from its query
    page.wait_for_selector(ACTION, timeout=WAIT)
    table = table_of(page)
    first = sorted(hand(page))
    play_to_the_end(page)
    page.click(f"{OVER} [data-action=challenge]")
    link = page.locator("[data-testid=challenge-link]").input_value()
    challenge = link.rsplit("/", 1)[1]

    friend = pages.new()
    friend.goto(link)
    friend.wait_for_selector("[data-testid=comparison] .result-card", timeout=WAIT)
    assert "Toy" in friend.locator(".challenge-page .lead").inner_text()
    assert friend.locator("[data-testid=challenge-seat]").inner_text()  # the seat, in plain words
    assert friend.locator("[data-testid=facts-hidden]").count() == 0  # the toy has no facts to hide
    no_raw_keys(friend)
    friend.fill("#challenge-name", "Nimali")
    friend.click("[data-action=play-challenge]")
    friend.wait_for_selector(ACTION, timeout=WAIT)
    assert sorted(hand(friend)) == first  # the same deal, in the same seat
    attempt = table_of(friend)
    play_to_the_end(friend)

    # Both results, compared by their summaries (won or lost): no side-by-side facts.
    friend.wait_for_selector(f"{OVER} [data-testid=comparison] .result-card >> nth=1", timeout=WAIT)
    cards = friend.locator(f"{OVER} [data-testid=comparison] .result-card")
    assert cards.count() == 2
    assert "Ama" in cards.nth(0).inner_text() and "Nimali" in cards.nth(1).inner_text()
    assert friend.locator("[data-testid=side-by-side]").count() == 0
    info = room.call("GET", f"/api/challenges/{challenge}").json()
    assert [r["table"] for r in info["results"]] == [table, attempt]
    for card, result in zip(cards.all(), info["results"], strict=True):
        assert result["status"] == "over"
        assert card.locator(".result-outcome").inner_text() == ("won" if result["won"] else "lost")
    # (a challenge's records are withheld while others may play it: its deal is the secret)
    assert room.call("GET", f"/api/tables/{attempt}/record", token_of(friend, attempt)).status_code == 403
    shot(friend, "toy-challenge")

    # The challenge's page lists both.
    friend.goto(link)
    friend.wait_for_selector("[data-testid=comparison] .result-card >> nth=1", timeout=WAIT)
    assert friend.locator("[data-testid=comparison] .result-card").count() == 2
    no_raw_keys(friend)


def test_the_generic_renderer_says_a_draw(room, pages):
    """A game with draws (the toy's, when points tie) ends with no winner: the generic renderer
    says a draw, and names nobody the winner."""
    page = pages.new()
    page.goto(room.base + "/")
    page.wait_for_selector(".choice-card", timeout=WAIT)  # (the page's words are loaded)
    titles = page.evaluate("""async () => {
      const { plain } = await import("/static/js/games/plain.js");
      const ctx = { name: (seat) => ["Ama", "Kasun"][seat] ?? `Player ${seat + 1}` };
      return [null, 1].map((winner) => plain.over({ winner, is_over: true }, ctx).title);
    }""")
    assert titles == ["A draw", "Kasun won"]


def test_the_history_calls_a_game_nobody_won_a_draw(room, pages):
    """A game that ended with no winner (the toy's, when points tie) is "A draw" in the home
    page's history: it said "Lost" to the one seat that played it, and "Finished" to a device
    that played every seat (entries as POST /api/history answers them)."""
    page = pages.new()
    page.goto(room.base + "/")
    page.wait_for_selector(".choice-card", timeout=WAIT)  # (the page's words are loaded)
    said = page.evaluate("""async () => {
      const { historyOutcome } = await import("/static/js/home.js");
      const entry = (winner, seats) => ({ table: "t", game: "toy", result: { winner, points: [1, 1] },
        winners: winner === null ? [] : [winner], held: { seats: seats.map((seat) => ({ seat })) } });
      return [entry(null, [0]), entry(null, [0, 1]), entry(0, [0]), entry(1, [0])].map(historyOutcome);
    }""")
    assert said == ["A draw", "A draw", "Won", "Lost"]
