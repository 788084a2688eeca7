"""Chat at a friends table in real browsers: two players and a spectator, messages in order
everywhere, quick reactions, a mute, spectators read only, a refusal in the page's language,
and a game against the computer without chat."""

from __future__ import annotations

import re

from .browser_kit import open_friends_table, shot

SAID = """ls => ls.map(l => l.querySelector('.chat-name').textContent + ': '
  + l.querySelector('.chat-text').textContent)"""
COUNT = "n => document.querySelectorAll('[data-testid=chat-lines] .chat-line').length === n"


def lines(page) -> list[str]:
    return page.locator("[data-testid=chat-lines] .chat-line").evaluate_all(SAID)


def say(page, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.click("[data-action=send-chat]")


def open_chat(page) -> None:
    if not page.locator(".chat-overlay").count():
        page.click("[data-action=chat]")
    page.wait_for_selector(".chat-overlay")


def test_two_players_and_a_spectator_chat_at_a_friends_table(server, pages):
    ama = pages.new()
    join_link, watch_link = open_friends_table(ama, server.base, "Ama")

    kasun = pages.new(locale="fr-FR")
    kasun.goto(join_link)
    kasun.fill("#join-name", "Kasun")
    kasun.click("[data-action=join]")
    kasun.wait_for_url(re.compile(r"/t/[\w-]+$"))
    watcher = pages.new()
    watcher.goto(watch_link)
    watcher.wait_for_selector(".topbar .badge")

    # In the lobby the chat is right there, for all three (the spectator reads only).
    for page in (ama, kasun, watcher):
        page.wait_for_selector(".lobby-chat")
    say(ama, "Hello from Ama")
    for page in (ama, kasun, watcher):
        page.wait_for_function(COUNT, arg=1)
        assert lines(page) == ["Ama: Hello from Ama"]
    assert kasun.locator("[data-testid=chat-unread]").count() == 0  # seen in the lobby
    shot(kasun, "chat-lobby")
    ama.click("[data-action=start]")  # computers take the free seats
    for page in (ama, kasun):
        page.wait_for_selector(".felt.omi")

    # In the game: the top bar's button counts what arrived while the chat was closed.
    say_in_game = "we go"
    if not ama.locator(".chat-overlay").count():
        ama.click("[data-action=chat]")
    say(ama, say_in_game)
    kasun.wait_for_selector("[data-testid=chat-unread]")
    assert kasun.locator("[data-testid=chat-unread]").inner_text() == "1"
    open_chat(kasun)
    assert kasun.locator("[data-testid=chat-unread]").count() == 0
    kasun.click("[data-reaction=well_played]")  # a quick reaction, in Kasun's language
    say(kasun, "  on y va ?  ")
    expected = ["Ama: Hello from Ama", "Ama: we go", "Kasun: Bien joué !", "Kasun: on y va ?"]
    for page in (ama, kasun, watcher):
        open_chat(page)
        page.wait_for_function(COUNT, arg=len(expected))
        assert lines(page) == expected
    shot(kasun, "chat-friends-table")
    # The spectator reads; there is nothing to write with.
    assert watcher.locator("[data-testid=chat-input]").count() == 0
    assert "Spectators read the chat" in watcher.locator(".chat-note").inner_text()

    # Ama mutes Kasun on her device: his messages are hidden there, and only there.
    ama.locator(".chat-line[data-seat='1'] [data-action=mute]").first.click()
    assert lines(ama)[2:] == ["Kasun: (muted)", "Kasun: (muted)"]
    say(kasun, "encore moi")
    watcher.wait_for_function(COUNT, arg=5)
    ama.wait_for_function(COUNT, arg=5)
    assert lines(ama)[-1] == "Kasun: (muted)" and lines(watcher)[-1] == "Kasun: encore moi"

    # Too long for the server (more than the box lets one type: put there by a script): refused,
    # said in French.
    kasun.evaluate("() => { document.querySelector('[data-testid=chat-input]').value = 'x'.repeat(230); }")
    kasun.click("[data-action=send-chat]")
    kasun.wait_for_selector(".toast-error")
    assert "200" in kasun.locator(".toast-error").inner_text()


def test_a_game_against_the_computer_has_no_chat(server, pages):
    page = pages.new()
    page.goto(server.base + "/play/omi?level=easy")
    page.wait_for_selector(".felt.omi")
    assert page.locator("[data-action=chat]").count() == 0
