"""Offline play in real headless Chromium (docs/offline.md).

The site is opened online once; the service worker caches the page, Pyodide and the bistrot
wheel; then the browser context goes offline (Playwright ``set_offline``) and the page plays on
its own: a whole Omi hand against the computer and an Oti game in hot seat, both run by the
Python engine under Pyodide in a Web Worker, and a saved game resumed after the page was closed.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.request

import pytest

from bistrot.server.settings import STATIC_DIR

from .browser_kit import Server, go, shot
from .omi_driver import choose_trump, play_card, play_until_over, snapshot, wait_for_turn
from .oti_driver import CORNER, READY_JS, STATE_JS

FETCH_WAIT_S = 600.0


@pytest.fixture(scope="module")
def offline_ready(server) -> dict:
    """The server's Pyodide files are in place (``bistrot serve`` fetches them with npm on start)."""
    deadline = time.monotonic() + FETCH_WAIT_S
    while True:
        with urllib.request.urlopen(server.base + "/offline/status", timeout=10) as answer:
            status = json.load(answer)
        if status["ready"]:
            return status
        if status["state"] == "failed" or time.monotonic() > deadline:
            reason = f"offline play is not available on this server: {status['message']}"
            if os.environ.get("CI"):
                pytest.fail(reason)
            pytest.skip(reason)  # e.g. no npm and no network on a developer's machine
        time.sleep(1)


def install(page, server) -> None:
    """Open the site online once and wait until the service worker has cached everything."""
    page.goto(server.base + "/")
    page.wait_for_selector("[data-testid=offline-ready]", timeout=120000)
    status = server.api("GET", "/offline/status")
    cached = page.evaluate("""async () => {
      const names = (await caches.keys()).filter(n => n.startsWith('bistrot-'));
      const cache = await caches.open(names[0]);
      return {names, urls: (await cache.keys()).map(r => new URL(r.url).pathname)};
    }""")
    assert cached["names"] == [f"bistrot-{status['version']}"]
    urls = set(cached["urls"])
    assert {"/", "/static/js/app.js", "/static/js/offline-worker.js", status["wheel_url"]} <= urls
    core = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
    assert {status["pyodide_url"] + name for name in core} <= urls
    # Installable: Chromium reads the manifest without error and finds nothing missing but a
    # profile of its own (Playwright's browser contexts are off the record).
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getAppManifest")["errors"] == []
    errors = {e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}, errors
    cdp.detach()


def device_game(page, server, path: str) -> str:
    """Install the site, go offline and open ``path`` (a /play/ address): a table of this device;
    its id."""
    install(page, server)
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("[data-testid=offline-note]")
    go(page, path)
    page.wait_for_selector("[data-testid=on-device]", state="attached", timeout=60000)
    table = page.url.split("/t/")[1]
    assert table.startswith("local-"), table
    return table


def test_offline_after_one_visit_omi_hand_and_oti_hot_seat(server, pages, offline_ready):
    page = pages.new()
    context = page.context
    install(page, server)

    context.set_offline(True)
    page.reload()
    page.wait_for_selector("[data-testid=offline-note]")
    assert page.locator("[data-testid=mode-friends]").is_disabled(), "friends tables need the network"

    # A whole Omi hand against the computer (to 1 token: the match ends with the first decided hand).
    go(page, "/play/omi?level=easy&target=1&bot_delay_ms=0")
    page.wait_for_selector("[data-testid=on-device]", timeout=60000)
    assert page.url.split("/t/")[1].startswith("local-")
    first = wait_for_turn(page, timeout_s=60)
    assert first["suits"] and len(first["hand"]) == 4, "the chooser sees only the first four cards"
    played = play_until_over(page, limit_s=240)
    assert played >= 8
    assert page.locator(".over-overlay").is_visible()
    assert page.locator(".over-overlay [data-action=challenge]").count() == 0, "challenges need the server"
    shot(page, "offline-omi-over")

    # An Oti game in hot seat, two people on this device, started from the home page.
    go(page, "/")
    page.click(".choice-card[for=game-oti]")
    page.click("label.segment:has([data-testid=mode-hotseat])")
    page.fill("[data-testid=hotseat-name-0]", "Ama")
    page.fill("[data-testid=hotseat-name-1]", "Kasun")
    page.locator("details.rules-options").evaluate("d => { d.open = true; }")
    page.select_option("#opt-players", "2")
    page.click("[data-action=create]")
    page.wait_for_selector("[data-testid=pass-screen]", timeout=60000)
    seen = play_oti_hot_seat(page)
    assert {"pass", "ready", "play"} <= seen
    title = page.locator(".over-overlay h2").inner_text()
    assert title.endswith(" won") and ("Ama" in title or "Kasun" in title)
    shot(page, "offline-oti-hotseat-over")

    # Challenges are the server's: offline, the page says they come back with the network.
    go(page, "/challenge/some-challenge")
    page.wait_for_selector("text=when the network is back")

    # The network comes back: friends tables are offered again.
    context.set_offline(False)
    go(page, "/")
    page.wait_for_selector("[data-testid=offline-ready]")
    assert page.locator("[data-testid=offline-note]").count() == 0
    assert page.locator("[data-testid=mode-friends]").is_enabled()


def play_oti_hot_seat(page, limit_s: float = 240) -> set[str]:
    """Both people play the first thing they may each turn; the pass screen goes between them."""
    seen: set[str] = set()
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        page.wait_for_function(READY_JS, timeout=30000)
        s = page.evaluate(STATE_JS)
        if s["over"]:
            return seen
        if s["pass"]:
            seen.add("pass")
            # While the device is passed on, nobody's hand is on the page.
            assert page.locator(".hand button[data-card]").count() == 0
            page.click("[data-action=take-seat]")
            continue
        assert s["otherFaces"] == s["otherPublic"], "another seat's hidden cards are never shown"
        if "ready" in s["actions"]:
            seen.add("ready")
            page.click("[data-action=ready]")
        elif "flip" in s["actions"]:
            seen.add("flip")
            page.click("[data-action=flip]")
        elif s["playable"]:
            page.click(f'.oti-me button[data-card="{s["playable"][0]}"]', position=CORNER)
            if page.locator("[data-action=play]:enabled").count():
                page.click("[data-action=play]")
            seen.add("play")
        elif "pickup" in s["actions"]:
            seen.add("pickup")
            page.click("[data-action=pickup]")
        page.wait_for_timeout(20)
    raise AssertionError("the Oti game did not end in time")


def test_a_saved_game_resumes_after_the_page_is_closed(server, pages, offline_ready):
    page = pages.new()
    context = page.context
    install(page, server)
    context.set_offline(True)
    page.reload()

    # The hard computer players: Pyodide's own Python solver (no endplay in the browser).
    go(page, "/play/omi?level=hard&target=1&bot_delay_ms=0")
    snap = wait_for_turn(page, timeout_s=60)
    choose_trump(page, snap["suits"][0])
    for _ in range(2):  # two cards of the first hand, then the page is closed
        snap = wait_for_turn(page)
        card = next(c["card"] for c in snap["hand"] if c["enabled"])
        play_card(page, card)
    table = page.url.split("/t/")[1]
    wait_for_turn(page)
    before = snapshot(page)
    record = page.evaluate("""(id) => new Promise((resolve) => {
      const open = indexedDB.open('bistrot', 1);
      open.onsuccess = () => {
        const tx = open.result.transaction(['games', 'saved']);
        const game = tx.objectStore('games').get(id);
        const saved = tx.objectStore('saved').get(id);
        tx.oncomplete = () => resolve({game: game.result, saved: saved.result});
      };
    })""", table)
    # The device keeps what rebuilds the game (rules, seed, seats, actions); the list shows no seed.
    assert record["game"]["actions"][0][1].startswith("trump ")
    assert record["game"]["seed"].isdigit() and "seed" not in record["saved"]
    assert len(record["game"]["actions"]) >= 3
    page.close()

    again = context.new_page()
    again.on("pageerror", lambda error: pages.errors.append(str(error)))
    again.goto(server.base + "/")
    again.wait_for_selector(f"[data-testid=saved-games] li[data-table='{table}']")
    again.click(f"[data-action=resume][data-table='{table}']")
    after = wait_for_turn(again, timeout_s=60)
    assert [c["card"] for c in after["hand"]] == [c["card"] for c in before["hand"]]
    assert after["trick"] == before["trick"]
    play_until_over(again, limit_s=240)
    assert again.locator(".over-overlay").is_visible()
    shot(again, "offline-resumed-over")


def test_a_server_that_cannot_be_reached_gets_a_table_on_this_device(server, pages, offline_ready):
    """Online as far as the browser knows, but the server does not answer: the table opens on this
    device; once the server answers again, tables are the server's."""
    page = pages.new()
    install(page, server)
    page.route("**/api/tables", lambda route: route.abort("connectionrefused"))
    go(page, "/play/oti?level=easy&players=2&bot_delay_ms=0")
    page.wait_for_selector("[data-testid=on-device]", timeout=60000)
    page.wait_for_selector(".felt.oti [data-action=ready]:not([disabled])", timeout=60000)
    assert page.url.split("/t/")[1].startswith("local-")
    page.unroute("**/api/tables")
    go(page, "/play/oti?level=easy&players=2&bot_delay_ms=0")
    page.wait_for_selector(".felt.oti [data-action=ready]:not([disabled])", timeout=60000)
    assert not page.url.split("/t/")[1].startswith("local-")
    assert page.locator("[data-testid=on-device]").count() == 0


def test_an_update_replaces_the_cached_files(tmp_path, pages, offline_ready, monkeypatch):
    """A file changes on the server: the next visit installs a new service worker, which caches
    the new files under a new version and deletes the old cache; offline, the new file is used."""
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    monkeypatch.setenv("BISTROT_STATIC_DIR", str(static))
    own = Server(tmp_path / "room.db")
    own.start()
    try:
        page = pages.new()
        install(page, own)
        old = page.evaluate("caches.keys()")
        (static / "style.css").write_text((static / "style.css").read_text() + "\n/* version two */\n")
        new = own.api("GET", "/offline/status")["version"]
        assert [f"bistrot-{new}"] != old
        page.reload()
        deadline = time.monotonic() + 60
        while page.evaluate("caches.keys()") != [f"bistrot-{new}"]:  # evaluate awaits the promise
            assert time.monotonic() < deadline, page.evaluate("caches.keys()")
            page.wait_for_timeout(200)
        page.context.set_offline(True)
        page.reload()
        page.wait_for_selector("[data-testid=offline-note]")
        css = page.evaluate("fetch('/static/style.css').then(r => r.text())")
        assert css.endswith("/* version two */\n")
    finally:
        own.stop()
