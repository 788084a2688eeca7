"""Offline play, measured: time from opening the page offline to the first playable card, and
the bytes the page caches (docs/offline.md).

Starts ``bistrot serve`` on a free loopback port (fetching Pyodide with npm first if this machine
has not got it: ``browser_kit.py``), then for each run, in a fresh headless Chromium context (a
new visitor: empty caches and storage):

1. opens ``/`` online and waits until the service worker has cached everything; the bytes
   cached are the sum of the cached responses' bodies;
2. goes offline (Playwright ``set_offline``) and opens ``/play/omi?level=easy``: the page starts
   the Web Worker, Pyodide and bistrot, opens a table on the device and shows the deal. The
   figure is the page's own clock (``performance.now()``, from the start of that navigation) at
   the moment the first control to play is enabled: a trump suit to choose (seat 0 chooses
   first) or a card;
3. opens the same address offline again in the same context (the browser's compiled code for
   Pyodide is then warm): the "again" figure.

Prints medians (with min and max) over the runs, and the machine's load average, since the
machine's other work slows Pyodide's start.  Debian's Chromium; never ``playwright install``.

    python bench/offline.py --runs 5 [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
from typing import Any

from playwright.sync_api import Browser, Page

from browser_kit import chromium, offline_server

PLAYABLE = "button[data-suit]:not([disabled]), .hand button[data-card]:not([disabled])"
# Runs before the page's own scripts: notes the page clock when the first playable control shows.
WATCH_JS = "const PLAYABLE = " + json.dumps(PLAYABLE) + """;
(() => {
  const selector = PLAYABLE;
  const seen = () => {
    if (window.__firstPlayable === undefined && document.querySelector(selector)) {
      window.__firstPlayable = performance.now();
    }
  };
  new MutationObserver(seen).observe(document, {subtree: true, childList: true, attributes: true});
})();
"""
CACHED_BYTES_JS = """async () => {
  let bytes = 0, files = 0;
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      bytes += (await (await cache.match(request)).arrayBuffer()).byteLength;
      files += 1;
    }
  }
  const estimate = await navigator.storage.estimate();
  return {bytes, files, usage: estimate.usage};
}"""


def first_playable_ms(page: Page, url: str) -> float:
    page.goto(url)
    page.wait_for_selector(PLAYABLE, timeout=120000)
    page.wait_for_function("window.__firstPlayable !== undefined")
    return float(page.evaluate("window.__firstPlayable"))


def one_run(browser: Browser, base: str) -> dict[str, Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    try:
        page = context.new_page()
        boots: list[float] = []
        page.on("console", lambda m: boots.extend(
            float(x) for x in re.findall(r"started in (\d+) ms", m.text)))
        page.goto(base + "/")
        page.wait_for_selector("[data-testid=offline-ready]", timeout=180000)
        cached = page.evaluate(CACHED_BYTES_JS)
        context.add_init_script(WATCH_JS)
        context.set_offline(True)
        url = base + "/play/omi?level=easy"
        first = first_playable_ms(page, url)
        again = first_playable_ms(page, url)
        return {"first_ms": first, "again_ms": again, "worker_boot_ms": boots, **cached}
    finally:
        context.close()


def summary(values: list[float]) -> str:
    return f"median {statistics.median(values):,.0f} ms (min {min(values):,.0f}, max {max(values):,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh visitors measured (default 5)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args()
    with offline_server() as (base, status):
        load_before = os.getloadavg()
        with chromium() as browser:
            runs = [one_run(browser, base) for _ in range(args.runs)]
        load_after = os.getloadavg()
    if args.json:
        print(json.dumps({"runs": runs, "status": status, "load": [load_before, load_after]}, indent=1))
        return
    print(f"offline play, {args.runs} fresh visitors, {os.cpu_count()} cores, "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print(f"bytes cached: {runs[0]['bytes']:,} in {runs[0]['files']} files "
          f"(server's figure {status['bytes']:,}; storage used {runs[0]['usage']:,})")
    print(f"first playable card, first offline open: {summary([r['first_ms'] for r in runs])}")
    print(f"first playable card, opened again:       {summary([r['again_ms'] for r in runs])}")
    boots = [r["worker_boot_ms"][0] for r in runs if r["worker_boot_ms"]]
    if boots:
        print(f"of which Pyodide + bistrot in the worker: {summary(boots)}")


if __name__ == "__main__":
    main()
