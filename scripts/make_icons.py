"""Render the app icon (src/bistrot/web/static/img/icon.svg) to the PNG sizes the web app manifest
lists, with Debian's Chromium through Playwright (never ``playwright install``).

    python scripts/make_icons.py

The SVG is full-bleed with its drawing inside the central 80 %, so the 512 px PNG also serves as
the maskable icon.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

IMG = Path(__file__).resolve().parents[1] / "src" / "bistrot" / "web" / "static" / "img"
SIZES = (192, 512)
CHROMIUM = os.environ.get("BISTROT_CHROMIUM", "/usr/bin/chromium")


def main() -> None:
    """Write icon-192.png and icon-512.png beside icon.svg."""
    svg = (IMG / "icon.svg").read_text()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                f"<style>html,body{{margin:0}}svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(IMG / f"icon-{size}.png"), omit_background=True)
            page.close()
        browser.close()
    print("wrote", ", ".join(f"icon-{s}.png" for s in SIZES))


if __name__ == "__main__":
    main()
