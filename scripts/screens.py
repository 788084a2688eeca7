"""Take docs/web.md's screens again: the home page, both tables at their first decision, a replay,
a join page, a club event's form and a club event over with its ranking, at 1280x800, 768x1024,
360x640 and 640x360, in English.

    .venv/bin/python scripts/screens.py                 # every screen
    .venv/bin/python scripts/screens.py event-new event  # only these (see SCREENS)

A throwaway ``bistrot serve`` and Debian's Chromium, as the browser tests use them
(tests/browser/browser_kit.py); the pictures go to docs/img/web-<screen>-<size>.png.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "server")]

from server_harness import Client, play_out  # noqa: E402

from tests.browser.browser_kit import CHROMIUM, CHROMIUM_ARGS, Pages, Server  # noqa: E402
from tests.browser.omi_driver import play_until_over, wait_for_turn  # noqa: E402

SIZES = [(1280, 800), (768, 1024), (360, 640), (640, 360)]
IMG = ROOT / "docs" / "img"
#: The screens, in the order they are taken at each size (the pictures' names: web-<screen>-<size>).
SCREENS = ("home", "omi", "oti", "replay", "join", "event-new", "event")
PROFILE_HEADER = "X-Bistrot-Profile"
PROFILE_COOKIE = "bistrot_profile"

#: Scrolls the page down (only if it must) until the bottom of the element is in sight, with as
#: much as fits above it.
BOTTOM_IN_SIGHT = """(e) => {
  const below = e.getBoundingClientRect().bottom + 12 - window.innerHeight;
  if (below > 0) window.scrollBy(0, below);
}"""
#: The form's start time: tomorrow at 19:30, the browser's local time (a datetime-local value).
TOMORROW_EVENING = """() => {
  const d = new Date(Date.now() + 86400000);
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T19:30`;
}"""


def play_event(server: Server, event: str, key: str) -> None:
    """Play every board of ``key``'s player in ``event`` with a WebSocket client, waiting when
    its next table is not ready."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        step = server.api("POST", f"/api/events/{event}/next", {}, {PROFILE_HEADER: key})
        if step["status"] == "done":
            return
        if step["status"] == "wait":
            time.sleep(0.2)
            continue
        with Client(server.base, step["table_id"], step["token"]) as player:
            player.wait_for(lambda m: m["type"] == "state")
            play_out(player)
    raise RuntimeError("the event's boards never ended")


def finished_event(server: Server) -> tuple[str, str]:
    """A club event played to its end, 4 boards 2 a round: pair 1 Ama and Kasun, pair 2 Nimal
    with a computer partner, the computers' pairs 3 and 4. Its id, and Ama's profile key."""
    keys = {name: server.api("POST", "/api/profiles", {"name": name})["key"]
            for name in ("Organiser", "Ama", "Kasun", "Nimal")}  # fmt: skip
    body = {"name": "Thursday club", "boards": 4, "boards_per_round": 2}
    event = server.api("POST", "/api/events", body, {PROFILE_HEADER: keys["Organiser"]})["event"]
    for name, pair in (("Ama", None), ("Kasun", 1), ("Nimal", None)):
        server.api("POST", f"/api/events/{event}/join", {"pair": pair}, {PROFILE_HEADER: keys[name]})
    server.api("POST", f"/api/events/{event}/start", {}, {PROFILE_HEADER: keys["Organiser"]})
    players = ("Ama", "Kasun", "Nimal")
    with ThreadPoolExecutor(len(players)) as pool:  # Ama and Kasun play their boards together
        for run in [pool.submit(play_event, server, event, keys[name]) for name in players]:
            run.result()
    return event, keys["Ama"]


def main(wanted: list[str]) -> None:
    unknown = sorted(set(wanted) - set(SCREENS))
    if unknown:
        raise SystemExit(f"no such screen: {', '.join(unknown)} (screens: {', '.join(SCREENS)})")
    screens = [s for s in SCREENS if s in wanted] if wanted else list(SCREENS)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        server = Server(Path(folder) / "room.db")
        server.start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pages = Pages(browser)
            storage, finished, join, event, ama = None, "", "", "", ""
            if {"home", "replay"} & set(screens):
                # One finished game for the replay (and the home page's history): a one-hand Omi
                # match against the computer.
                player = pages.new()
                player.goto(server.base + "/play/omi?level=easy&target=1")
                player.wait_for_url(re.compile(r"/t/[\w-]+$"))
                finished = player.url.rsplit("/", 1)[1]
                play_until_over(player)
                storage = player.context.storage_state()
            if "join" in screens:
                # A friends table to be invited to.
                created = server.api("POST", "/api/tables", {"game": "omi", "mode": "friends", "name": "Ama"})
                join = f"/join/{created['table']}#{created['invite']}"
            if "event" in screens:
                event, ama = finished_event(server)
            for width, height in SIZES:
                size = f"{width}x{height}"
                mobile = width < 700
                page = pages.new(width=width, height=height, mobile=mobile, storage=storage)
                if "home" in screens:
                    page.goto(server.base + "/")
                    page.wait_for_selector("[data-testid=daily-omi] [data-action]")
                    page.screenshot(path=str(IMG / f"web-home-{size}.png"))
                for game in ("omi", "oti"):
                    if game not in screens:
                        continue
                    page.goto(f"{server.base}/play/{game}?level=easy")
                    page.wait_for_selector(f".felt.{game}")
                    if game == "omi":
                        wait_for_turn(page)
                    else:
                        page.wait_for_selector("[data-action=ready], .hand .card")
                    page.screenshot(path=str(IMG / f"web-{game}-{size}.png"))
                if "replay" in screens:
                    page.goto(f"{server.base}/replay/{finished}")
                    page.wait_for_selector("[data-testid=replay-caption]")
                    page.keyboard.press("End")
                    page.screenshot(path=str(IMG / f"web-replay-{size}.png"))
                if "join" in screens:
                    page.goto(server.base + join)
                    page.wait_for_selector("[data-testid=join-seats]")
                    page.screenshot(path=str(IMG / f"web-join-{size}.png"))
                if "event-new" in screens:
                    # The form filled in, with a start time, before "Make the event".
                    page.goto(server.base + "/events/new")
                    page.wait_for_selector("[data-testid=new-event]")
                    page.fill("#event-name", "Thursday club")
                    page.fill("#event-starts", page.evaluate(TOMORROW_EVENING))
                    page.locator("#event-starts").blur()
                    page.locator("[data-action=make-event]").evaluate(BOTTOM_IN_SIGHT)
                    page.screenshot(path=str(IMG / f"web-event-new-{size}.png"))
                if "event" in screens:
                    # The event over, seen by Ama (her pair's row marked), its ranking in sight.
                    page.context.add_cookies([{"name": PROFILE_COOKIE, "value": ama, "url": server.base}])
                    page.goto(f"{server.base}/e/{event}")
                    page.wait_for_selector("[data-testid=event-ranking]")
                    page.locator("[data-testid=event-ranking]").evaluate(BOTTOM_IN_SIGHT)
                    page.screenshot(path=str(IMG / f"web-event-{size}.png"))
                page.context.close()
                print(f"{size}: {', '.join(screens)}")
            if pages.errors:
                raise SystemExit(f"errors on the page: {pages.errors}")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
