"""Finished games in the page (issue 14): an Omi match and an Oti game against the computer are
played to the end, the home page lists them with their results, and each replay steps to the end
and back (buttons, arrow keys, the slider) with every hand shown, on a phone and a laptop; the
record downloads. The analysis' marks show where the server has one (faked here: it has none
yet), none otherwise. A challenge's deal is not replayed from its link alone; a game of this
device is listed and replayed offline.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from . import omi_driver, oti_driver
from .axe import blocking_violations
from .browser_kit import go, shot
from .test_offline import install, offline_ready  # noqa: F401 (a fixture)

SIZES = [(360, 640), (1280, 800)]

# What the replay shows: its caption, the slider, the cards face up in every seat's hand, and
# the hand counts Oti writes next to each seat.
REPLAY_JS = """() => {
  const q = (s) => [...document.querySelectorAll(s)];
  const slider = document.querySelector('[data-testid=replay-slider]');
  return {
    at: Number(slider.value), max: Number(slider.max),
    caption: document.querySelector('[data-testid=replay-caption]').textContent,
    open: q('.open-hand').map(e => e.querySelectorAll('.card.face').length),
    counts: q('.oti-hand-count .count').map(e => Number(e.textContent)),
    marks: q('[data-testid=mark]').map(e => e.textContent),
    result: !!document.querySelector('[data-testid=replay-result]'),
    backs: q('.backs .card.back').length,
  };
}"""

# Every control of the replay inside the window (a phone too).
OFF_SCREEN_JS = """() => [...document.querySelectorAll('.replay-page button, .replay-page input')]
  .map(e => e.getBoundingClientRect())
  .filter(r => r.width && (r.left < -1 || r.right > innerWidth + 1)).length"""


def replay_state(page) -> dict:
    return page.evaluate(REPLAY_JS)


def at_step(page, n: int) -> dict:
    page.wait_for_function(
        "n => Number(document.querySelector('[data-testid=replay-slider]')?.value) === n", arg=n
    )
    return replay_state(page)


def table_id(page) -> str:
    match = re.search(r"/t/([^/?#]+)", page.url)
    assert match, page.url
    return match.group(1)


def step_through(page, name: str) -> dict:
    """Forward and back with the buttons, the keys and the slider; every hand shown all along."""
    page.wait_for_selector("[data-testid=replay-slider]")
    s = replay_state(page)
    assert s["at"] == 0 and s["max"] > 4 and not s["result"]
    assert s["caption"] == "The deal, before the first move"
    assert s["open"] and s["backs"] == 0 and not s["marks"]  # no analysis: no mark
    assert page.evaluate(OFF_SCREEN_JS) == 0
    page.click("[data-action=replay-forward]")
    s = at_step(page, 1)
    assert s["caption"].startswith(f"Move 1 of {s['max']}:")
    page.keyboard.press("ArrowRight")
    s = at_step(page, 2)
    page.keyboard.press("ArrowLeft")
    at_step(page, 1)
    page.locator("[data-testid=replay-slider]").fill("4")
    s = at_step(page, 4)
    shot(page, f"{name}-middle")
    page.click("[data-action=replay-end]")
    end = at_step(page, s["max"])
    assert end["result"] and end["caption"].startswith(f"Move {end['max']} of {end['max']}:")
    shot(page, f"{name}-end")
    page.click("[data-action=replay-back]")
    at_step(page, end["max"] - 1)
    page.keyboard.press("End")
    at_step(page, end["max"])
    page.keyboard.press("Home")
    assert at_step(page, 0)["caption"] == "The deal, before the first move"
    page.click("[data-action=replay-end]")
    at_step(page, end["max"])
    page.click("[data-action=replay-start]")
    at_step(page, 0)
    assert page.evaluate(OFF_SCREEN_JS) == 0
    return end


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_finished_games_are_listed_and_replayed(server, pages, width, height):
    page = pages.new(width=width, height=height, mobile=width < 600)
    tag = f"{width}x{height}"
    page.goto(server.base + "/play/omi?level=easy&target=1&name=Ama")
    omi_driver.wait_for_turn(page)
    omi_table = table_id(page)
    omi_driver.play_until_over(page)
    go(page, "/play/oti?level=easy&players=3")
    page.wait_for_selector("[data-action=ready]")
    oti_table = table_id(page)
    oti_driver.play_until_over(page)

    # The home page's history: both games, the latest first, each with its result.
    go(page, "/")
    page.wait_for_selector(f"[data-testid=history] li[data-table='{omi_table}']")
    rows = page.locator("[data-testid=history] li")
    listed = [rows.nth(i).get_attribute("data-table") for i in range(rows.count())]
    assert listed.index(oti_table) < listed.index(omi_table)
    for table in (omi_table, oti_table):
        row = page.locator(f"[data-testid=history] li[data-table='{table}']")
        assert row.locator("[data-testid=history-result]").inner_text() in ("Won", "Lost")
    page.locator("[data-testid=history]").scroll_into_view_if_needed()
    shot(page, f"history-{tag}")
    assert blocking_violations(page) == []

    # The Omi replay: every hand face up (the four first cards each while trumps are chosen,
    # eight each once they are), the trick as it stood, the match's result at the end.
    page.click(f"[data-testid=history] [data-action=replay][data-table='{omi_table}']")
    page.wait_for_url(f"**/replay/{omi_table}")
    page.wait_for_selector(".felt.omi")
    assert replay_state(page)["open"] == [4, 4, 4, 4]
    page.keyboard.press("ArrowRight")
    assert at_step(page, 1)["open"] == [8, 8, 8, 8]
    page.keyboard.press("Home")
    end = step_through(page, f"replay-omi-{tag}")
    assert sum(end["open"]) < 32
    assert blocking_violations(page) == []
    # The record, downloaded: the text `bistrot analyze` reads.
    with page.expect_download() as downloading:
        page.click("[data-action=download-record]")
    saved = downloading.value
    assert saved.suggested_filename == f"bistrot-omi-{omi_table[:6]}.txt"
    assert Path(saved.path()).read_text().startswith('[Game "Omi"]')

    # The Oti replay, opened from its link (shareable: the page needs nothing else).
    page.goto(f"{server.base}/replay/{oti_table}")
    page.wait_for_selector(".felt.oti")
    s = replay_state(page)
    assert s["open"] == s["counts"] and sum(s["open"]) > 0  # each hand shown whole
    end = step_through(page, f"replay-oti-{tag}")
    page.locator("[data-testid=replay-slider]").fill(str(end["max"] // 2))
    s = at_step(page, end["max"] // 2)
    assert s["open"] == s["counts"]
    assert blocking_violations(page) == []

    # Marks, where the server has an analysis (none does yet: the hook is faked here).
    moves = [
        {"index": 1, "seat": 0, "action": "x", "best": [], "loss": 2.0, "dd_loss": 1, "mark": "blunder"},
        {"index": 2, "seat": 1, "action": "y", "best": [], "loss": 0.0, "dd_loss": 0, "mark": None},
    ]
    analysis = {"status": "done", "result": {"moves": moves, "players": {}}}
    page.route("**/analysis", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(analysis)))
    page.goto(f"{server.base}/replay/{omi_table}")
    page.wait_for_selector("[data-testid=replay-slider]")
    page.keyboard.press("ArrowRight")
    assert at_step(page, 1)["marks"] == []  # index 0: unmarked
    page.keyboard.press("ArrowRight")
    assert at_step(page, 2)["marks"] == ["Blunder"]  # index 1
    shot(page, f"replay-mark-{tag}")
    page.keyboard.press("ArrowRight")
    assert at_step(page, 3)["marks"] == []  # index 2: analysed, no mark

    # In another language, the same replay.
    page.select_option("[data-testid=language]", "fr")
    title = "() => document.querySelector('.replay-head h1')?.textContent"
    page.wait_for_function(f"() => ({title})()?.startsWith('Revoir')")
    assert replay_state(page)["caption"].startswith("Coup 3 sur")
    shot(page, f"replay-fr-{tag}")
    assert not pages.errors, pages.errors


def test_a_challenge_s_deal_is_not_replayed_without_its_token(server, pages):
    page = pages.new()
    page.goto(server.base + "/play/omi?level=easy&target=1")
    omi_driver.wait_for_turn(page)
    table = table_id(page)
    omi_driver.play_until_over(page)
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('bistrot.table.{table}')).seats[0].token")
    made = server.api("POST", f"/api/tables/{table}/challenge", {"token": token})
    assert made["challenge"]
    # This browser holds the table's token: its replay opens.
    page.goto(f"{server.base}/replay/{table}")
    page.wait_for_selector("[data-testid=replay-slider]")
    # Another person, with the link alone, is told why not.
    other = pages.new()
    other.goto(f"{server.base}/replay/{table}")
    other.wait_for_selector(".error-page")
    assert "challenge" in other.locator(".error-page p").inner_text()
    shot(other, "replay-challenge-refused")


def test_the_replay_fits_a_phone_held_sideways_and_a_tablet(server, pages):
    page = pages.new()
    page.goto(server.base + "/play/omi?level=easy&target=1")
    omi_driver.wait_for_turn(page)
    table = table_id(page)
    omi_driver.play_until_over(page)
    for width, height in [(640, 360), (768, 1024)]:
        viewer = pages.new(width=width, height=height, mobile=width < 700)
        viewer.goto(f"{server.base}/replay/{table}")  # the link alone: shareable
        viewer.wait_for_selector(".felt.omi")
        viewer.keyboard.press("ArrowRight")
        assert at_step(viewer, 1)["open"] == [8, 8, 8, 8]
        viewer.locator("[data-testid=replay-slider]").fill("6")
        at_step(viewer, 6)
        assert viewer.evaluate(OFF_SCREEN_JS) == 0
        shot(viewer, f"replay-omi-{width}x{height}")


@pytest.mark.usefixtures("offline_ready")
def test_a_game_of_this_device_is_listed_and_replayed_offline(server, pages):
    page = pages.new(width=360, height=640, mobile=True)
    install(page, server)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("[data-testid=offline-note]")
    go(page, "/play/omi?level=easy&target=1&bot_delay_ms=0")
    page.wait_for_selector("[data-testid=on-device]", state="attached", timeout=60000)
    table = table_id(page)
    assert table.startswith("local-")
    omi_driver.wait_for_turn(page, timeout_s=60)
    omi_driver.play_until_over(page)

    go(page, "/")
    row = page.locator(f"[data-testid=history] li[data-table='{table}']")
    row.wait_for()
    assert row.locator("[data-testid=history-result]").inner_text() in ("Won", "Lost")
    assert "on this device" in row.inner_text()
    row.locator("[data-action=replay]").click()
    page.wait_for_url(f"**/replay/{table}")
    page.wait_for_selector(".felt.omi", timeout=60000)
    assert replay_state(page)["open"] == [4, 4, 4, 4]
    step_through(page, "replay-device-360x640")
    with page.expect_download() as downloading:
        page.click("[data-action=download-record]")
    saved = downloading.value
    assert saved.suggested_filename == f"bistrot-omi-{table}.txt"
    assert Path(saved.path()).read_text().startswith('[Game "Omi"]')
    assert not pages.errors, pages.errors
