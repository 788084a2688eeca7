"""A friends table joined by its link from a second browser, a spectator, and hot seat."""

from __future__ import annotations

import re

from .browser_kit import open_friends_table, open_hotseat_omi, shot
from .omi_driver import play_card, snapshot, wait_for_turn


def hand_of(page) -> set[str]:
    return set(page.locator(".hand button[data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)"))


def test_a_friends_table_joined_by_link(server, pages):
    ama = pages.new()
    join_link, watch_link = open_friends_table(ama, server.base, "Ama")
    assert re.search(r"/join/[\w-]+#[\w-]+\.[\w-]+$", join_link)
    assert ama.locator(".lobby svg.qr").first.is_visible()
    shot(ama, "friends-waiting-room")

    kasun = pages.new(locale="fr-FR")
    kasun.goto(join_link)
    kasun.fill("#join-name", "Kasun")
    kasun.click("[data-action=join]")
    kasun.wait_for_url(re.compile(r"/t/[\w-]+$"))
    kasun.wait_for_selector(".lobby")
    ama.wait_for_selector(".lobby-seats li >> text=Kasun")
    ama.click("[data-action=start]")

    for page in (ama, kasun):
        page.wait_for_selector(".felt.omi")
        page.wait_for_function("() => document.querySelectorAll('.hand button[data-card]').length === 4")
    # Before trumps each sees only their own first four cards, and never the other's.
    first_ama, first_kasun = hand_of(ama), hand_of(kasun)
    assert len(first_ama) == len(first_kasun) == 4 and not first_ama & first_kasun
    assert kasun.locator("[data-seat='0'] .plate-name").inner_text().startswith("Ama")

    # Ama (seat 0, after the dealer) chooses trumps; Kasun sees who is choosing.
    assert "Ama" in kasun.locator(".prompt.waiting").inner_text()
    ama.click('button[data-suit="C"]')
    for page in (ama, kasun):
        page.wait_for_function("() => document.querySelectorAll('.hand button[data-card]').length === 8")
    full_ama, full_kasun = hand_of(ama), hand_of(kasun)
    assert first_ama < full_ama and first_kasun < full_kasun and not full_ama & full_kasun
    assert kasun.locator("[data-testid=trump] [data-trump='C']").count() == 1
    shot(kasun, "friends-second-player")

    # A spectator sees the table and no hand at all.
    watcher = pages.new()
    watcher.goto(watch_link)
    watcher.wait_for_selector(".felt.omi")
    watcher.wait_for_selector(".topbar .badge")
    assert watcher.locator("[data-card]").count() == 0
    assert watcher.locator(".card.face").count() == watcher.locator(".trick .card.face").count()
    on_table = watcher.locator(".trick .card.face").count()
    assert watcher.locator(".seat .backs .card.back").count() == 32 - on_table


def test_a_bad_join_link_is_explained_as_it_opens(server, pages):
    page = pages.new()
    table = server.api("POST", "/api/tables", {"game": "omi", "mode": "friends", "level": "easy"})["table"]
    page.goto(f"{server.base}/join/{table}#not-the-invite")
    page.wait_for_selector(".error-page")
    assert page.locator(".error-page p").inner_text() == "This join link is not valid."
    assert page.locator("[data-action=join]").count() == 0  # no "Take a seat" to press first
    page.goto(f"{server.base}/join/no-such-table#whatever")
    page.wait_for_selector(".error-page")
    assert page.locator(".error-page p").inner_text() == "This table does not exist (any more)."


def test_a_full_table_is_offered_to_watch(server, pages):
    created = server.api("POST", "/api/tables", {"game": "omi", "mode": "friends", "level": "easy"})
    tid = created["table"]
    server.api("POST", f"/api/tables/{tid}/start", {"token": created["seats"][0]["token"]})
    page = pages.new(locale="fr-FR")
    page.goto(server.base + created["join_url"])
    page.wait_for_selector("[data-action=watch]")
    assert "Cette table est complète." in page.locator(".join-page").inner_text()  # in the page's language
    page.click("[data-action=watch]")
    page.wait_for_url(f"**/t/{tid}")
    page.wait_for_selector(".felt.omi")
    page.wait_for_selector(".topbar .badge")  # watching
    assert page.locator("[data-card]").count() == 0


def test_hot_seat_hides_every_hand_until_the_next_player_taps(server, pages):
    page = pages.new()
    open_hotseat_omi(page, server.base)

    seen: dict[str, set[str]] = {"Ama": set(), "Kasun": set()}
    handovers = []
    while len(handovers) < 3:
        snap = wait_for_turn(page)
        if snap["pass"]:
            title = page.locator("[data-testid=pass-screen] h2").inner_text()
            name = title.removeprefix("Pass to ")
            assert name in seen
            # Nobody's cards are anywhere on the page while it is passed on.
            assert page.locator("[data-card]").count() == 0
            assert page.locator(".hand .card").count() == 0
            if not handovers:
                shot(page, "hotseat-pass-screen")
            handovers.append(name)
            page.click("[data-action=take-seat]")
            page.wait_for_function("() => document.querySelectorAll('.hand button[data-card]').length > 0")
            seen[name] |= hand_of(page)
            continue
        if snap["suits"]:
            page.click(f'button[data-suit="{snap["suits"][0]}"]')
            continue
        card = next(c["card"] for c in snap["hand"] if c["enabled"])
        play_card(page, card)
    assert handovers[:2] == ["Ama", "Kasun"]
    assert seen["Ama"] and seen["Kasun"] and not seen["Ama"] & seen["Kasun"]
    assert snapshot(page)["faces"] >= 1


def test_the_name_and_the_choice_survive_the_network_going_and_coming_back(server, pages):
    # The home page is drawn again when the network goes or comes back (a table with friends
    # cannot be opened offline: the computer is offered instead). A name typed before must still
    # be there and be sent, and the choice of friends must come back with the network.
    page = pages.new()
    page.goto(server.base + "/")
    page.click("label.segment:has([data-testid=mode-friends])")
    page.fill("#your-name", "Nimali")
    page.context.set_offline(True)
    page.wait_for_selector("[data-testid=mode-friends]:disabled")
    assert page.locator("[data-testid=mode-computer]").is_checked()
    assert page.locator("#your-name").input_value() == "Nimali"
    page.context.set_offline(False)
    page.wait_for_selector("[data-testid=mode-friends]:enabled:checked")
    assert page.locator("#your-name").input_value() == "Nimali"
    page.click("[data-action=create]")
    page.wait_for_selector(".lobby-seats li >> text=Nimali")
