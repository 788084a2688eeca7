"""What the benchmarks that drive the page in a real browser share (bench/offline.py,
bench/analysis.py ``--browser``): a ``bistrot serve`` on a free loopback port whose offline play
is ready (Pyodide fetched with npm first if this machine has not got it), and Debian's headless
Chromium driven by Playwright (never ``playwright install``).

    with offline_server() as (base, status), chromium() as browser:
        page = browser.new_context().new_page()
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

# The whole browser (Debian's chromium), as visitors run it, not the tests' lighter headless shell:
# the figures measured here are a visitor's.
CHROMIUM = os.environ.get("BISTROT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    """``bistrot serve`` on a free loopback port with no pause before computer moves; its URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bistrot", "serve", "--port", "0", "--db", str(db), "--bot-delay-ms", "0",
         "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"(http://[\d.]+:\d+)", line)
    if not match:
        os.killpg(proc.pid, signal.SIGTERM)
        raise SystemExit(f"bistrot serve did not start: {line}")
    # Its warnings go on to our stderr as they come: an unread pipe fills, and the server then
    # hangs in its next log line.
    threading.Thread(target=sys.stderr.writelines, args=(proc.stdout,), daemon=True).start()
    return proc, match.group(1)


def wait_offline_ready(base: str, timeout_s: float = 600) -> dict[str, Any]:
    """``/offline/status`` once the server offers offline play (it fetches Pyodide on start)."""
    deadline = time.monotonic() + timeout_s
    while True:
        with urllib.request.urlopen(base + "/offline/status", timeout=10) as answer:
            status: dict[str, Any] = json.load(answer)
        if status["ready"]:
            return status
        if status["state"] == "failed" or time.monotonic() > deadline:
            raise SystemExit(f"offline play is not available: {status['message']}")
        time.sleep(0.5)


@contextmanager
def offline_server() -> Iterator[tuple[str, dict[str, Any]]]:
    """A server with a throwaway database, offline play ready: ``(base URL, offline status)``."""
    with tempfile.TemporaryDirectory(prefix="bistrot-bench-") as tmp:
        proc, base = start_server(Path(tmp) / "room.db")
        try:
            yield base, wait_offline_ready(base)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's headless Chromium."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
