"""Profiles in real browsers (issue 33, items 1 and 5): a profile moved to another device by its
one-time link, a passkey added on one device that signs in on another (Chromium's virtual
authenticator), a profile page with rated games drawing its rating chart on a phone, and a
player reported from a table's chat.

The module runs its own server: its WebSocket players play as fast as the server answers, and
its rated games and reports are its own.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from server_harness import Client, oti_policy, play_out

from .axe import blocking_violations
from .browser_kit import ROOT, Server, open_friends_table, shot
from .layout_kit import overflow

I18N = ROOT / "src" / "bistrot" / "web" / "static" / "i18n"
EN = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
#: Chromium's virtual authenticator: a platform one (a phone's or a laptop's) holding
#: discoverable credentials, the person verified at once.
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}


#: The module's server: WebSocket players that play their turns as fast as the server answers (the
#: table's rate limit has its own tests).
ROOM_ENV = {
    "BISTROT_RATE_BURST": "100000",
    "BISTROT_RATE_PER_S": "100000",
}


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("profiles") / "room.db", env=ROOM_ENV)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def main_text(page) -> str:
    return page.evaluate("() => document.querySelector('main')?.innerText || ''")


def wait_for(page, selector: str, what: str, timeout: int = 30000):
    """The element of ``selector`` once it is on the page; an AssertionError saying what the
    page showed instead."""
    try:
        page.wait_for_selector(selector, timeout=timeout)
    except PlaywrightTimeoutError:
        raise AssertionError(f"{what}: never came; the page shows {main_text(page)!r}") from None
    return page.locator(selector)


def own_profile(page) -> dict:
    """What ``GET /api/profile`` answers this browser (its cookie)."""
    return page.evaluate(
        "() => fetch('/api/profile').then(async r => ({ status: r.status, ...(await r.json()) }))"
    )


def make_profile(page, base: str, name: str) -> str:
    """Make a profile on ``/profile`` (no profile yet): its id, once its page is shown."""
    page.goto(base + "/profile")
    wait_for(page, "#new-profile-name", "the form that makes a profile")
    page.fill("#new-profile-name", name)
    page.click("[data-action=make-profile]")
    wait_for(page, "[data-action=transfer]", "the own profile page")
    assert page.locator("[data-testid=profile-name]").inner_text() == name
    profile = re.search(r"/profile/([\w-]+)$", page.url).group(1)
    assert own_profile(page)["profile"] == profile
    return profile


def fits_phone(page) -> None:
    out = overflow(page)
    assert out["width"] <= 0, f"the page is {out['width']} px wider than the phone"


def speak(page, lang: str) -> None:
    """Switch the page to ``lang`` with the top bar's menu (the page is drawn again)."""
    page.select_option("[data-testid=language]", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def test_a_profile_moves_to_another_device_by_its_one_time_link(room, pages):
    ama = pages.new()
    ama.goto(room.base + "/profile")
    wait_for(ama, "[data-action=passkey-signin]", "the sign-in page")
    assert ama.locator("[data-testid=topbar-profile]").inner_text() == EN["nav.sign_in"]
    profile = make_profile(ama, room.base, "Ama")
    assert ama.locator("[data-testid=topbar-profile]").inner_text() == "Ama"
    assert EN["profile.mine"] in main_text(ama)

    ama.click("[data-action=transfer]")
    link = wait_for(ama, "[data-testid=transfer-link]", "the move link").input_value()
    assert re.fullmatch(re.escape(room.base) + r"/profile/claim#[\w-]+", link), link
    assert ama.locator(".profile-transfer svg.qr").count() == 1  # its QR code
    assert "Works once, until" in main_text(ama)
    shot(ama, "profile-own-1280x800")

    # The phone opens the link: it plays as Ama from now on.
    phone = pages.new(width=360, height=640, mobile=True)
    phone.goto(link)
    done = wait_for(phone, "[data-testid=claim-done]", "the claimed profile")
    assert done.inner_text() == EN["claim.done"].replace("{name}", "Ama")
    assert "#" not in phone.url  # the code left the address bar
    mine = own_profile(phone)
    assert (mine["status"], mine["profile"], mine["name"]) == (200, profile, "Ama")
    assert phone.locator("[data-testid=topbar-profile]").inner_text() == "Ama"
    fits_phone(phone)
    assert blocking_violations(phone) == []
    shot(phone, "profile-claimed-360x640")
    phone.click("[data-action=see-profile]")
    wait_for(phone, "[data-action=transfer]", "the own profile page on the phone")
    fits_phone(phone)
    assert blocking_violations(phone) == []
    speak(phone, "ta")  # long words
    phone.click("[data-action=transfer]")
    wait_for(phone, "[data-testid=transfer-link]", "a move link on the phone")
    fits_phone(phone)
    assert blocking_violations(phone) == []
    shot(phone, "profile-own-ta-360x640")
    # The first device keeps its profile too.
    assert own_profile(ama)["profile"] == profile

    # A second time the link opens nothing, and says why.
    other = pages.new()
    other.goto(link)
    refused = wait_for(other, "[data-testid=claim-error]", "the refusal of a used link")
    assert refused.inner_text() == EN["reject.transfer_used"]
    assert own_profile(other)["status"] == 401


def test_a_passkey_added_on_one_device_signs_in_on_another(room, pages):
    # WebAuthn wants a host name, not an address: the page at localhost.
    base = room.base.replace("127.0.0.1", "localhost")
    laptop = pages.new()
    devtools = laptop.context.new_cdp_session(laptop)
    devtools.send("WebAuthn.enable")
    made = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    authenticator = made["authenticatorId"]
    profile = make_profile(laptop, base, "Kasun")
    laptop.click("[data-action=add-passkey]")
    added = wait_for(laptop, "[data-testid=passkey-status]", "the passkey's answer")
    assert added.inner_text() == EN["profile.passkey_added.one"].replace("{n}", "1"), added.inner_text()
    [credential] = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"

    # A new device, whose authenticator holds the same passkey (as a synced passkey would).
    phone = pages.new(width=360, height=640, mobile=True)
    phone_tools = phone.context.new_cdp_session(phone)
    phone_tools.send("WebAuthn.enable")
    held = phone_tools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})["authenticatorId"]
    phone_tools.send("WebAuthn.addCredential", {"authenticatorId": held, "credential": credential})
    phone.goto(base + "/")
    signin = wait_for(phone, "[data-testid=topbar-profile]", "the top bar's sign-in link")
    assert signin.inner_text() == EN["nav.sign_in"]
    signin.click()
    wait_for(phone, "[data-action=passkey-signin]", "the sign-in page")
    fits_phone(phone)
    assert blocking_violations(phone) == []
    shot(phone, "profile-signin-360x640")
    phone.click("[data-action=passkey-signin]")
    wait_for(phone, "[data-action=add-passkey]", "the profile the passkey opened")
    assert phone.url.endswith(f"/profile/{profile}")
    assert phone.locator("[data-testid=profile-name]").inner_text() == "Kasun"
    assert own_profile(phone)["profile"] == profile


def play_rated_game(room: Server, keys: list[str], seed: int) -> None:
    """One quick match of Oti between the profiles of ``keys``, played to its end by WebSocket
    clients (as tests/server/test_ratings.py does)."""
    quickmatch = {"game": "oti", "rules": {"players": 2}}
    seated = [
        room.api("POST", "/api/quickmatch", quickmatch, headers={"X-Bistrot-Profile": key}) for key in keys
    ]
    assert len({s["table"] for s in seated}) == 1 and seated[-1]["status"] == "playing", seated
    failures: list[BaseException] = []

    def turns(s: dict, rng: random.Random) -> None:
        try:
            with Client(room.base, s["table"], s["token"]) as client:
                play_out(client, choose=oti_policy(rng))
        except BaseException as err:  # reported by the test's thread
            failures.append(err)

    threads = [
        threading.Thread(target=turns, args=(s, random.Random(seed + i))) for i, s in enumerate(seated)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not failures, failures
    assert not any(thread.is_alive() for thread in threads), "a rated game did not end within 2 minutes"


def test_a_profile_with_rated_games_draws_its_chart_on_a_phone(room, pages):
    nimal, saman = (room.api("POST", "/api/profiles", {"name": name}) for name in ("Nimal", "Saman"))
    for seed in (1, 2):
        play_rated_game(room, [nimal["key"], saman["key"]], seed)
    public = room.api("GET", f"/api/profiles/{nimal['profile']}")
    rating = public["ratings"]["oti"]
    assert rating["games"] == 2, public

    page = pages.new(width=360, height=640, mobile=True)
    page.goto(room.base + f"/profile/{nimal['profile']}")
    chart = wait_for(page, "#chart-oti", "the Oti rating chart")
    # The whole history, from a new player's 1000: three points, a line through them.
    assert chart.get_attribute("data-points") == "3"
    assert page.locator("#chart-oti polyline").count() == 1
    values = [1000] + [p["rating"] for p in rating["history"]]
    label = page.locator("#chart-oti title").text_content()
    assert label == (
        EN["profile.chart_label"]
        .replace("{game}", "Oti")
        .replace("{first}", "1000")
        .replace("{last}", str(values[-1]))
        .replace("{min}", str(min(values)))
        .replace("{max}", str(max(values)))
    ), label
    assert page.locator("[data-testid=rating-oti]").inner_text() == str(rating["rating"])
    rows = page.locator(".profile-game[data-game=oti] .profile-recent tbody tr")
    assert rows.count() == 2
    newest = public["recent"][0]
    assert f"{newest['before']} → {newest['after']}" in rows.nth(0).inner_text()
    assert rows.nth(0).locator("a").get_attribute("href") == newest["replay_url"]
    # Someone else's profile: nothing of its owner's.
    assert page.locator("[data-action=transfer], [data-action=add-passkey], #profile-rename").count() == 0
    fits_phone(page)
    assert blocking_violations(page) == []
    shot(page, "profile-chart-360x640")
    for lang in ("si", "ta", "zh", "fr"):
        speak(page, lang)
        assert page.locator("#chart-oti").count() == 1
        fits_phone(page)

    # The rules page says how ratings work.
    page.goto(room.base + "/rules/oti")
    section = wait_for(page, "[data-testid=rules-ratings]", "the rules' ratings section")
    assert "1000" in section.inner_text()
    fits_phone(page)


def report(page, seat: int, reason: str) -> None:
    """Report the player of ``seat`` from the waiting room's chat."""
    page.locator(f".chat-line[data-seat='{seat}'] [data-action=report]").first.click()
    form = wait_for(page, "[data-testid=report-form]", "the report form")
    assert page.evaluate("() => document.activeElement.id") == "report-reason"
    form.locator("textarea").fill(reason)
    form.locator("[data-action=send-report]").click()


def test_a_player_reports_another_from_the_chat(room, pages):
    ama = pages.new()
    join_link, _ = open_friends_table(ama, room.base, "Ama")
    table = re.search(r"/join/([\w-]+)#", join_link).group(1)
    kasun = pages.new(width=360, height=640, mobile=True)
    kasun.goto(join_link)
    kasun.fill("#join-name", "Kasun")
    kasun.click("[data-action=join]")
    wait_for(kasun, ".lobby-chat [data-testid=chat-input]", "the waiting room's chat")
    kasun.fill("[data-testid=chat-input]", "hello")
    kasun.click("[data-action=send-chat]")
    wait_for(ama, ".chat-line[data-seat='1'] [data-action=report]", "Kasun's line with its Report button")
    assert kasun.locator("[data-action=report]").count() == 0  # not one's own line

    report(ama, 1, "rude in the chat")
    sent = wait_for(ama, ".toast-ok", "the report's confirmation")
    assert sent.inner_text() == EN["report.sent"].replace("{name}", "Kasun")
    assert ama.locator(".chat-line[data-seat='1'] .chat-reported").inner_text() == EN["report.done"]
    with sqlite3.connect(room.db) as db:
        stored = db.execute("SELECT table_id, by_seat, seat, name, reason FROM reports").fetchall()
    assert stored == [(table, 0, 1, "Kasun", "rude in the chat")]

    # Once a player a table: a second report (the page opened again) is refused, and says so.
    ama.reload()
    wait_for(ama, ".chat-line[data-seat='1'] [data-action=report]", "the chat after a reload")
    report(ama, 1, "again")
    refused = wait_for(ama, "[data-testid=report-error]", "the refusal of a second report")
    assert refused.inner_text() == EN["reject.already_reported"]
