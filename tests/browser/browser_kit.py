"""Helpers of the real-browser tests of the page: a real ``bistrot serve`` and Debian's headless Chromium.

The server runs as a subprocess on a free port with a temporary database and no pause before
computer moves. Chromium is driven by Playwright for Python (``executable_path``: Playwright's
own browser downloads are never used). Screenshots go to ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from tests.lanes import starting
from tests.output import read_output

#: Debian's Chromium as its headless shell (package chromium-headless-shell: the same Blink,
#: without the desktop browser around it; what Playwright itself drives headless).  The whole
#: browser (package chromium) ran the same browser tests with a quarter to a third more CPU, and
#: they are most of the suite's time (2026-12-07).
CHROMIUM = os.environ.get("BISTROT_CHROMIUM", "/usr/bin/chromium-headless-shell")
#: The Debian package of CHROMIUM's default.
CHROMIUM_PACKAGE = "chromium-headless-shell"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
STARTUP_S = 30.0



#: Fonts the page's languages need (Sinhala, Tamil, Chinese), and their Debian packages: without
#: them Chromium draws boxes, and the screenshots show it.
FONTS = {
    "/usr/share/fonts/truetype/noto/NotoSansSinhala-Regular.ttf": "fonts-noto-core",
    "/usr/share/fonts/truetype/noto/NotoSansTamil-Regular.ttf": "fonts-noto-core",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc": "fonts-noto-cjk",
}


def missing_browser() -> str | None:
    """What the browser tests lack (Chromium, or the fonts), as the command that installs it."""
    missing = [] if Path(CHROMIUM).exists() else [CHROMIUM_PACKAGE]
    missing += sorted({package for font, package in FONTS.items() if not Path(font).exists()})
    return f"apt-get install {' '.join(missing)} (scripts/test does)" if missing else None


class Server:
    """One ``bistrot serve`` subprocess; ``restart()`` keeps the port and the database.

    Its output is read as it comes (``output``): an unread pipe fills, and the server then hangs
    in its next log line, which a page sees as a server that never answers.
    """

    #: Those running now: a failed test's report ends with what they printed.
    running: list[Server] = []  # noqa: RUF012 (a registry, shared on purpose)

    def __init__(
        self, db: Path, port: int = 0, grace_s: float = 30.0, host: str = "127.0.0.1",
        extra: tuple[str, ...] = (), python: str = sys.executable, env: dict[str, str] | None = None,
    ) -> None:
        self.db, self.port, self.grace_s, self.host, self.extra = db, port, grace_s, host, extra
        self.env = env or {}  # more settings, as BISTROT_<NAME> variables (server/settings.py)
        self.python = python  # the interpreter whose installed bistrot runs
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""
        self.output: list[str] = []
        self.drainer: threading.Thread | None = None

    def start(self) -> None:
        starting("process", "a `bistrot serve` process")
        cmd = [self.python, "-m", "bistrot", "serve", "--host", self.host, "--port", str(self.port),
               "--db", str(self.db), "--bot-delay-ms", "0", "--grace-s", str(self.grace_s),
               "--log-level", "warning", *self.extra]
        # Every page of the package opens its tables from 127.0.0.1: the per-address table quota
        # (30 at once) would refuse the later tests' tables, the profile quota (10) their
        # profiles, and the limit of live lobby connections (4) their home pages; these limits
        # have their own tests.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "BISTROT_TABLE_QUOTA_BURST": "100000",
               "BISTROT_PROFILE_QUOTA_BURST": "100000", "BISTROT_LOBBY_STREAMS_PER_ADDRESS": "1000",
               **self.env}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env=env, start_new_session=True)
        deadline = time.monotonic() + STARTUP_S
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"(http://[\d.]+:(\d+))", line)
        if not match:
            rest = self.proc.stdout.read() if self.proc.poll() is not None else ""
            self.stop()
            raise RuntimeError(f"bistrot serve did not start: {line}{rest}")
        self.output.append(line)
        self.drainer = read_output(self.proc.stdout, self.output)
        Server.running.append(self)
        self.port = int(match.group(2))
        # Listening on every interface: the page is opened at loopback, as on the machine itself.
        self.base = f"http://127.0.0.1:{self.port}" if self.host == "0.0.0.0" else match.group(1)
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2) as answer:
                    if json.load(answer).get("ok"):
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("bistrot serve never answered /healthz")

    def stop(self) -> None:
        if self in Server.running:
            Server.running.remove(self)
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)
        if self.drainer:  # (it reads to the end of what the server printed before it exited)
            self.drainer.join(timeout=5)
            self.drainer = None
        elif self.proc and self.proc.stdout:
            self.proc.stdout.close()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def api(self, method: str, path: str, body: dict | None = None, headers: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

# Reports every Content-Security-Policy violation of a page (and of its frames) to the test.
CSP_WATCH = """
window.__cspReported = 0;
window.addEventListener("securitypolicyviolation", async (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  await window.__bistrotCsp(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${where}`);
  window.__cspReported += 1;
});
"""


def is_csp_report(text: str) -> bool:
    """Chromium's console line for a CSP violation (also those of workers, which the page's
    listener does not see)."""
    return "Content Security Policy" in text or "Content-Security-Policy" in text


class Pages:
    """Opens browser contexts (each one a separate person: its own storage and seat tokens) and
    checks that no page threw a JavaScript error or broke the server's Content-Security-Policy."""

    def __init__(self, browser: object) -> None:
        self.browser = browser
        self.contexts: list = []
        self.errors: list[str] = []
        self.csp: list[str] = []

    def new(self, *, width: int = 1280, height: int = 800, locale: str = "en-GB", motion: str = "reduce",
            mobile: bool = False, storage: dict | None = None, timezone: str | None = None):
        """A page in a new context: ``storage``, a context's ``storage_state()``, makes it the same
        person as that context (its seat tokens, its history of games); ``timezone``, an IANA
        name, the browser's local time (else the machine's)."""
        options = dict(viewport={"width": width, "height": height}, locale=locale, reduced_motion=motion)
        if timezone is not None:
            options["timezone_id"] = timezone
        if storage is not None:
            options["storage_state"] = storage
        if mobile:
            options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
        context = self.browser.new_context(**options)
        context.set_default_timeout(15000)
        context.expose_function("__bistrotCsp", lambda text: self.csp.append(text))
        context.add_init_script(CSP_WATCH)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: is_csp_report(message.text) and self.csp.append(message.text))
        return page

    def describe(self, chars: int = 400) -> str:
        """Each open page's address and the start of its visible text (a toast says why a
        request was refused)."""
        lines = []
        for i, context in enumerate(self.contexts):
            for j, page in enumerate(context.pages):
                try:
                    text = page.evaluate("document.body ? document.body.innerText : ''")
                except Exception as error:  # (a closed or hung page: the others still)
                    text = f"(no text: {error})"
                lines.append(f"page {i}-{j} at {page.url}:\n{' '.join(str(text).split())[:chars]}")
        return "\n".join(lines)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def shot(page, name: str) -> Path:
    """Save a screenshot of the page under test-artifacts/screenshots/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def keep_for_readme(path: Path, name: str) -> None:
    """Copy a screenshot into docs/img/ (the README shows it) when BISTROT_README_SHOTS=1.

    Opt-in, so that running the tests never changes tracked files.
    """
    if os.environ.get("BISTROT_README_SHOTS") != "1":
        return
    target = ROOT / "docs" / "img" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, target)


#: Where the home page's "Hot seat" choice is in the page (not the window: the page may have been
#: scrolled): what loads after the first paint must not move it (test_home_steady.py).
FORM_AT_JS = """() => {
  const scroller = document.querySelector('.home-scroll');
  const choice = document.querySelector('[data-testid=mode-hotseat]');
  return choice.getBoundingClientRect().top + scroller.scrollTop;
}"""


class Held:
    """The first ``count`` requests a page makes to ``pattern`` (a URL glob), held until
    ``release()`` (later ones go on): what loads after the first paint, made to come when the
    test says.

        held = Held(page, "**/api/history")
        page.goto(base + "/")
        held.asked("this browser's results")
        ...  # the page as it is before the answer
        held.release()
    """

    def __init__(self, page, pattern: str, count: int = 1) -> None:
        self.page, self.count = page, count
        self.routes: list = []
        page.route(pattern, self._hold)

    def _hold(self, route) -> None:
        if len(self.routes) < self.count:
            self.routes.append(route)
        else:
            route.continue_()

    def asked(self, what: str, within_ms: int = 15000) -> None:
        """Wait until the page has asked for all ``count`` (``what`` says what they are)."""
        for _ in range(within_ms // 50):
            if len(self.routes) == self.count:
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"{len(self.routes)} of {self.count} asked for: {what}")

    def release(self) -> None:
        for route in self.routes:
            route.continue_()


def press(page, locator) -> None:
    """Press the mouse on the middle of ``locator`` and keep it down: the test makes something
    happen, then releases with ``page.mouse.up()`` (a tap under way as the page changes)."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def go(page, path: str) -> None:
    """Follow an in-page link to ``path`` (as the page's own links do)."""
    page.evaluate(
        "p => { history.pushState({}, '', p); dispatchEvent(new PopStateEvent('popstate')); }", path
    )


def open_hotseat_omi(page, base: str) -> None:
    """From the home page, open a hot-seat Omi table: Ama and Kasun on this device, two easy
    computer players."""
    page.goto(base + "/")
    page.click("label.segment:has([data-testid=mode-hotseat])")
    page.fill("[data-testid=hotseat-name-0]", "Ama")
    page.fill("[data-testid=hotseat-name-1]", "Kasun")
    page.select_option("[data-testid=hotseat-kind-2]", "easy")
    page.select_option("[data-testid=hotseat-kind-3]", "easy")
    page.click("[data-action=create]")


def join_by_link(page, link: str, name: str) -> None:
    """Open a friends table's join link and take a seat as ``name``; the table's page opens."""
    page.goto(link)
    page.fill("#join-name", name)
    page.click("[data-action=join]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=30000)


def friends_playing(pages, base: str, game: str = "omi", **size: int) -> tuple:
    """Ama opens a friends table of ``game`` (Omi), Kasun joins by its link, Ama starts it
    (computer players take the free seats): both their pages (Ama's of ``size``, width and
    height, if given), at the table in play."""
    ama, kasun = pages.new(**size), pages.new()
    join_link, _ = open_friends_table(ama, base, "Ama", game)
    join_by_link(kasun, join_link, "Kasun")
    ama.wait_for_selector(".lobby-seats li >> text=Kasun", timeout=30000)
    ama.click("[data-action=start]")
    # In play: the felt without the waiting room over it (the felt is drawn under the waiting
    # room already, before the start is stored: a test going on then found seats still free).
    for page in (ama, kasun):
        page.wait_for_selector(f".felt.{game}", timeout=30000)
        page.wait_for_selector(".lobby-overlay", state="detached", timeout=30000)
    return ama, kasun


def open_friends_table(page, base: str, name: str, game: str = "omi") -> tuple[str, str]:
    """From the home page, open a friends table of ``game`` as ``name``: its join link and watch
    link."""
    page.goto(base + "/")
    if game != "omi":
        page.click(f"label.choice-card[for=game-{game}]")
    page.click("label.segment:has([data-testid=mode-friends])")
    page.fill("#your-name", name)
    page.click("[data-action=create]")
    page.wait_for_selector("[data-testid=join-link]")
    join_link = page.locator("[data-testid=join-link]").input_value()
    page.click(".watch-link summary")
    return join_link, page.locator("[data-testid=watch-link]").input_value()
