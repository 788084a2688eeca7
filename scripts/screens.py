"""Take docs/web.md's screens again: the home page, both tables at their first decision, a replay
and a join page, at 1280x800, 768x1024, 360x640 and 640x360, in English.

    .venv/bin/python scripts/screens.py

A throwaway ``bistrot serve`` and Debian's Chromium, as the browser tests use them
(tests/browser/browser_kit.py); the pictures go to docs/img/web-<screen>-<size>.png.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "server")]

from tests.browser.browser_kit import CHROMIUM, CHROMIUM_ARGS, Pages, Server  # noqa: E402
from tests.browser.omi_driver import play_until_over, wait_for_turn  # noqa: E402

SIZES = [(1280, 800), (768, 1024), (360, 640), (640, 360)]
IMG = ROOT / "docs" / "img"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as pw:
        server = Server(Path(folder) / "room.db")
        server.start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pages = Pages(browser)
            # One finished game for the replay: a one-hand Omi match against the computer.
            player = pages.new()
            player.goto(server.base + "/play/omi?level=easy&target=1")
            player.wait_for_url(re.compile(r"/t/[\w-]+$"))
            finished = player.url.rsplit("/", 1)[1]
            play_until_over(player)
            storage = player.context.storage_state()
            # A friends table to be invited to.
            created = server.api("POST", "/api/tables", {"game": "omi", "mode": "friends", "name": "Ama"})
            join = f"/join/{created['table']}#{created['invite']}"
            for width, height in SIZES:
                size = f"{width}x{height}"
                mobile = width < 700
                page = pages.new(width=width, height=height, mobile=mobile, storage=storage)
                page.goto(server.base + "/")
                page.wait_for_selector("[data-testid=daily-omi] [data-action]")
                page.screenshot(path=str(IMG / f"web-home-{size}.png"))
                for game in ("omi", "oti"):
                    page.goto(f"{server.base}/play/{game}?level=easy")
                    page.wait_for_selector(f".felt.{game}")
                    if game == "omi":
                        wait_for_turn(page)
                    else:
                        page.wait_for_selector("[data-action=ready], .hand .card")
                    page.screenshot(path=str(IMG / f"web-{game}-{size}.png"))
                page.goto(f"{server.base}/replay/{finished}")
                page.wait_for_selector("[data-testid=replay-caption]")
                page.keyboard.press("End")
                page.screenshot(path=str(IMG / f"web-replay-{size}.png"))
                page.goto(server.base + join)
                page.wait_for_selector("[data-testid=join-seats]")
                page.screenshot(path=str(IMG / f"web-join-{size}.png"))
                page.context.close()
                print(f"{size}: home, omi, oti, replay, join")
            if pages.errors:
                raise SystemExit(f"errors on the page: {pages.errors}")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
