"""Smaller things met after and around a game (issue 37, item 9b): the end of a game leads to its
replay and its analysis, its actions in sight at every size; a challenge's page does not offer
its own maker to play the deal again; chat seen stays seen when the page connects again; a
language named in the address is kept."""

from __future__ import annotations

import pytest

from .browser_kit import friends_playing, go, shot
from .layout_kit import SIZE_IDS, SIZES, VISIBLE_BOX_JS
from .omi_driver import play_until_over
from .test_replay import played  # noqa: F401  (the replay's module fixture: both games played once)


def test_the_end_of_a_game_leads_to_its_replay_and_analysis(server, pages):
    page = pages.new()
    page.goto(server.base + "/")
    go(page, "/play/omi?level=easy&target=1")
    page.wait_for_selector(".felt.omi", timeout=30000)
    play_until_over(page)
    table = page.url.rsplit("/", 1)[1]
    over = page.locator(".over-overlay")
    assert over.locator("[data-action=replay]").get_attribute("href") == f"/replay/{table}"
    assert over.locator("[data-action=analysis]").get_attribute("href") == f"/replay/{table}#analysis"

    # The maker of a challenge sees its results, and is not offered to play the deal again.
    page.click("[data-action=challenge]")
    link = page.locator("[data-testid=challenge-link]").input_value()
    page.goto(link)
    page.wait_for_selector("[data-testid=comparison] .result-card", timeout=30000)
    assert page.locator("[data-action=play-challenge]").count() == 0
    assert "made this challenge" in page.locator("[data-testid=challenge-yours]").inner_text()
    shot(page, "challenge-page-of-its-maker")

    # Back at the table: "Analyse this game" opens the replay with the analysis asked for.
    page.goto(f"{server.base}/t/{table}")
    page.click(".over-overlay [data-action=analysis]", timeout=30000)
    page.wait_for_url(f"**/replay/{table}#analysis")
    page.wait_for_selector("[data-testid=analysis]:not([data-status=none])", timeout=30000)
    page.go_back()
    page.click(".over-overlay [data-action=replay]", timeout=30000)
    page.wait_for_url(f"**/replay/{table}")
    page.wait_for_selector("[data-testid=replay-slider]", timeout=30000)


#: The end-of-game dialog's actions, and those of them not wholly in sight (inside the window and
#: the dialog's scrolling box) or not what a click at their centre reaches, at any point of the
#: dialog scrolled from top to bottom (half its height at a time); and how far the page behind
#: it scrolls.
OVER_ACTIONS_JS = """() => {""" + VISIBLE_BOX_JS + """
  const dialog = document.querySelector('.over-overlay .dialog');
  const name = (el) => el.dataset.action || (el.matches('.see-challenge') && 'see-challenge')
    || el.textContent.trim();
  const actions = [...dialog.querySelectorAll('.over-actions :is(a, button)')];
  const found = new Set();
  for (let y = 0; ; y += Math.max(40, Math.floor(dialog.clientHeight / 2))) {
    dialog.scrollTop = y;
    for (const el of actions) {
      const r = el.getBoundingClientRect(), box = visibleBox(el);
      if (r.left < box.left - 0.5 || r.top < box.top - 0.5 || r.right > box.right + 0.5
          || r.bottom > box.bottom + 0.5) found.add(`${name(el)} not in sight at ${dialog.scrollTop}`);
      const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      const by = hit ? hit.className || hit.tagName : 'nothing';
      if (!hit || !el.contains(hit)) found.add(`${name(el)} under ${by} at ${dialog.scrollTop}`);
    }
    if (dialog.scrollTop + dialog.clientHeight >= dialog.scrollHeight - 1) break;
  }
  dialog.scrollTop = 0;
  const doc = document.scrollingElement;
  return { actions: actions.map(name), problems: [...found],
           page: [doc.scrollWidth - innerWidth, doc.scrollHeight - innerHeight, scrollX, scrollY] };
}"""


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_the_end_of_a_game_s_actions_are_in_sight_at_every_size(server, pages, played, width, height):  # noqa: F811
    """Issue 37, item 9b, at every size: the end of an Omi match (its table of hands) and of an Oti
    game offers Rematch, Challenge, Replay, Analyse and Home, each wholly in the window and not
    covered, however far the dialog is scrolled (the dialog scrolls, never the page behind it);
    so too once the challenge's link is shown under them. On the phones in Tamil too (its words
    the widest)."""
    page = pages.new(width=width, height=height, storage=played.storage)
    for lang in ["en", "ta"] if width < 700 else ["en"]:
        for game, table in (("omi", played.omi), ("oti", played.oti)):
            where = f"{game} {lang} {width}x{height}"
            page.goto(f"{server.base}/t/{table}?lang={lang}")
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'", timeout=30000)
            page.wait_for_selector(".over-overlay .over-actions [data-action=replay]", timeout=30000)
            seen = page.evaluate(OVER_ACTIONS_JS)
            if lang == "en":
                assert seen["actions"] == ["rematch", "challenge", "replay", "analysis", "Home"], seen
            assert len(seen["actions"]) == 5 and seen["problems"] == [], (where, seen)
            assert seen["page"] == [0, 0, 0, 0], (where, seen)
            shot(page, f"over-actions-{game}-{lang}-{width}x{height}")
            # The challenge asked for: its link and code under the actions, which stay in sight.
            page.click(".over-overlay [data-action=challenge]")
            page.wait_for_selector("[data-testid=challenge-link]", timeout=30000)
            seen = page.evaluate(OVER_ACTIONS_JS)
            assert "see-challenge" in seen["actions"] and len(seen["actions"]) == 5, (where, seen)
            assert seen["problems"] == [] and seen["page"] == [0, 0, 0, 0], (where, seen)


def test_chat_seen_stays_seen_when_the_page_connects_again(server, pages):
    ama, kasun = friends_playing(pages, server.base)
    ama.click("[data-action=chat]")
    ama.fill("[data-testid=chat-input]", "good luck")
    ama.click("[data-action=send-chat]")
    kasun.wait_for_selector("[data-testid=chat-unread]", timeout=30000)
    assert kasun.locator("[data-testid=chat-unread]").inner_text() == "1"
    kasun.click("[data-action=chat]")
    kasun.wait_for_selector(".chat-overlay .chat-line", timeout=30000)
    kasun.keyboard.press("Escape")
    assert kasun.locator("[data-testid=chat-unread]").count() == 0

    # The page connects again (here: loaded again): the chat kept comes again, and is not new;
    # what is said next is the one message unread.
    frames: list[str] = []
    kasun.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    kasun.reload()
    kasun.wait_for_selector(".felt.omi", timeout=30000)
    ama.fill("[data-testid=chat-input]", "well played")
    ama.click("[data-action=send-chat]")
    kasun.wait_for_function("() => true")  # (a round trip: frames seen so far are recorded)
    for _ in range(300):
        if any("well played" in f for f in frames):
            break
        kasun.wait_for_timeout(100)
    assert any("good luck" in f for f in frames), "the chat kept is sent again on connecting"
    kasun.evaluate("() => new Promise((done) => setTimeout(done, 0))")  # (its message handled)
    kasun.wait_for_selector("[data-testid=chat-unread]", timeout=30000)
    assert kasun.locator("[data-testid=chat-unread]").inner_text() == "1"


def test_a_language_named_in_the_address_is_kept(server, pages):
    page = pages.new(locale="en-GB")
    page.goto(server.base + "/?lang=fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'", timeout=30000)
    page.goto(server.base + "/rules/omi")  # a new page, without ?lang=
    page.wait_for_selector("article.rules-page", timeout=30000)
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.locator("[data-testid=language]").input_value() == "fr"
