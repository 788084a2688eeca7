"""The end of an Omi hand and the tricks of a hand (issue 13, items 7 and 8), played by clicking
against the computer at a phone's size and a laptop's.

7. The last trick of a hand is seen complete with no card of the next deal on the page, then one
   result card says who chose which trump, the tricks of each side and the tokens with their
   reason, and only once it is closed (its button, Enter, or by itself after a while) is the next
   hand dealt. What the card says is checked against what the page showed during the hand: the
   trump chosen and the winner of each of the 8 tricks as they were taken.
8. The tricks panel lays out a trick as the players sit (you at the bottom), marks the winning
   card (a star, and in its spoken label), and steps back through every trick of the hand with
   its buttons and the arrow keys.
"""

from __future__ import annotations

import json
import re

import pytest

from .axe import blocking_violations
from .browser_kit import go, open_hotseat_omi, shot
from .omi_driver import check_follow_suit, choose_trump, play_card, snapshot

SIZES = [(360, 640), (640, 360), (768, 1024), (1280, 800)]

# Every state of the page that matters here, one entry each time it changes: cards in the hand,
# cards on the felt's trick (and which), the "... takes the trick" line, the result card, the
# hand number, the trump prompt. (States shown in one go between two observations leave only the
# last: the cards tell two tricks taken by the same player apart.)
RECORD_JS = """() => {
  window.__frames = [];
  const frame = () => {
    const q = (s) => document.querySelector(s);
    return JSON.stringify({
      hand: document.querySelectorAll('.felt .hand button[data-card]').length,
      trick: document.querySelectorAll('.felt [data-testid=trick] .trick-card').length,
      cards: [...document.querySelectorAll('.felt [data-testid=trick] .trick-card')]
        .map((c) => c.dataset.shown).join(' '),
      winner: q('.felt .trick-winner')?.textContent || '',
      result: !!q('[data-testid=hand-summary]'),
      number: q('.score-hand')?.textContent || '',
      prompt: !!q('.felt .prompt'),
    });
  };
  const seen = () => {
    const f = frame();
    if (window.__frames[window.__frames.length - 1] !== f) window.__frames.push(f);
  };
  seen();
  new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true,
    attributes: true });
}"""

READY_JS = """() => document.querySelector('[data-testid=hand-summary]')
  || document.querySelector('button[data-suit]:not([disabled])')
  || document.querySelector('.hand button[data-card]:not([disabled])')"""

TURN_JS = """() => document.querySelector('button[data-suit]:not([disabled])')
  || document.querySelector('.hand button[data-card]:not([disabled])')"""

# Which side a trick winner line names ("You take the trick": seat 0; partners 0 & 2).
NAMES = {"You": 0, "Computer 2": 1, "Computer 3": 2, "Computer 4": 3}
# Where each seat sits on a counterclockwise table seen from seat 0.
PLACES = {"You": "bottom", "Computer 2": "right", "Computer 3": "top", "Computer 4": "left"}


def winner_seat(line: str) -> int:
    if line.startswith("You take"):
        return 0
    name = line.removesuffix(" takes the trick")
    assert name in NAMES, line
    return NAMES[name]


def frames(page) -> list[dict]:
    return [json.loads(f) for f in page.evaluate("window.__frames")]


def play_hand(page, *, review_at: int | None = None, size: str = "") -> tuple[list[str], str]:
    """Play seat 0's cards (choosing trumps when asked) until the hand's result card is up; the
    cards this seat played, in order, and the trump (as the score bar showed it). At our play
    number ``review_at`` the tricks panel of the hand in play is checked (item 8)."""
    mine: list[str] = []
    trump = ""
    while True:
        page.wait_for_function(READY_JS, timeout=30000)
        if page.locator("[data-testid=hand-summary]").count():
            return mine, trump
        snap = snapshot(page)
        if snap["suits"]:
            choose_trump(page, snap["suits"][0])
            continue
        trump = page.get_attribute("[data-testid=trump] [data-trump]", "data-trump")
        if review_at is not None and len(mine) == review_at:
            review_current_hand(page, mine, size)
            review_at = None
        check_follow_suit(snap)
        card = next(c["card"] for c in snap["hand"] if c["enabled"])
        play_card(page, card)
        mine.append(card)


def pretty(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]


def trick_on_panel(page) -> dict:
    """The trick shown in the tricks panel: heading, each card's place and spoken label, the
    winning cards (marked with a star) and the starred name."""
    return page.evaluate("""() => {
      const panel = document.querySelector('[data-testid=trick-review]');
      const cards = [...panel.querySelectorAll('.trick-card')].map((c) => ({
        place: [...c.classList].find((k) => k.startsWith('at-')).slice(3),
        label: c.getAttribute('aria-label'), winning: c.classList.contains('winning'),
        star: !!c.querySelector('.win-mark') }));
      return { head: panel.querySelector('[data-testid=review-head]').textContent, cards,
        starred: [...panel.querySelectorAll('.review-name.winner')].map((n) => n.textContent),
        focused: panel.contains(document.activeElement) };
    }""")


def check_trick(trick: dict, my_card: str, winner_line: str) -> None:
    """Four cards, each where its player sits, mine at the bottom, one winning card: the one of
    the player the felt said took the trick, starred and said to be winning."""
    assert len(trick["cards"]) == 4, trick
    for card in trick["cards"]:
        who = re.search(r"played by (you|[\w ]+?)(, wins the trick)?$", card["label"]).group(1)
        who = "You" if who == "you" else who
        assert card["place"] == PLACES[who], card
    mine = [c["place"] for c in trick["cards"] if pretty(my_card) in c["label"]]
    assert mine == ["bottom"], (my_card, trick)
    winning = [c for c in trick["cards"] if c["winning"]]
    assert len(winning) == 1 and winning[0]["star"], trick
    assert winning[0]["label"].endswith(", wins the trick"), trick
    seat = winner_seat(winner_line)
    name = next(n for n, s in NAMES.items() if s == seat)
    assert winning[0]["place"] == PLACES[name], (winner_line, trick)
    assert trick["starred"] == [f"★ {name}"], trick


def winner_lines(page) -> list[str]:
    """The "... takes the trick" lines the felt showed, one per trick taken, in order."""
    lines: list[str] = []
    last = ("", "")
    for f in frames(page):
        if f["winner"] and (f["winner"], f["cards"]) != last:
            lines.append(f["winner"])
        last = (f["winner"], f["cards"])
    return lines


def review_current_hand(page, mine: list[str], size: str) -> None:
    """Item 8 in the middle of a hand: the panel opens at the last trick; the previous button and
    the arrow keys step back to the first; each trick is laid out by seat with its winner."""
    taken = winner_lines(page)
    n = len(mine)
    assert len(taken) == n, (taken, mine)
    page.click("[data-action=last-trick]")
    page.wait_for_selector("[data-testid=trick-review]")
    trick = trick_on_panel(page)
    assert trick["head"] == f"Trick {n} of {n}" and trick["focused"], trick
    check_trick(trick, mine[n - 1], taken[n - 1])
    fits(page)
    shot(page, f"hand-end-tricks-{size}")
    assert page.locator("[data-action=next-trick]").is_disabled()
    page.click("[data-action=prev-trick]")
    trick = trick_on_panel(page)
    assert trick["head"] == f"Trick {n - 1} of {n}", trick
    check_trick(trick, mine[n - 2], taken[n - 2])
    for i in range(n - 2, 0, -1):  # the arrow keys, inside the panel
        page.keyboard.press("ArrowLeft")
        trick = trick_on_panel(page)
        assert trick["head"] == f"Trick {i} of {n}", trick
        check_trick(trick, mine[i - 1], taken[i - 1])
    assert page.locator("[data-action=prev-trick]").is_disabled()
    # ... and the hand behind the dialog kept its focus to itself: no card was played.
    assert len(snapshot(page)["hand"]) == 8 - n
    page.keyboard.press("End")
    assert trick_on_panel(page)["head"] == f"Trick {n} of {n}"
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=trick-review]", state="detached")


def expected_result(taken: list[str], chooser_side: int, carry: int) -> tuple[list[int], int | None, int]:
    """Tricks of each side, the side that scores (None on 4 : 4) and its tokens, by RULES.md's
    table (default rules: kapothi is 3 tokens; ``carry`` tokens of tied hands before go to the
    winner), from the tricks as the felt showed them taken."""
    tricks = [0, 0]
    for line in taken:
        tricks[winner_seat(line) % 2] += 1
    if tricks[0] == tricks[1]:
        return tricks, None, 0
    side = 0 if tricks[0] > tricks[1] else 1
    tokens = (3 if tricks[side] == 8 else 1 if side == chooser_side else 2) + carry
    return tricks, side, tokens


def check_order(page) -> None:
    """The last trick complete with no new hand, then the card over the finished hand, then the
    next deal only once the card is gone."""
    seen = frames(page)
    first_card = next(i for i, f in enumerate(seen) if f["result"])
    last_card = max(i for i, f in enumerate(seen) if f["result"])
    held = [i for i, f in enumerate(seen[:first_card]) if f["trick"] == 4 and f["winner"]]
    assert held, "the last trick was never seen complete"
    last_trick = seen[held[-1]]
    assert last_trick["hand"] == 0 and not last_trick["result"] and not last_trick["prompt"], last_trick
    number = last_trick["number"]
    # From the last trick until the card is closed: the finished hand, no card, no trump prompt.
    for f in seen[held[-1]:last_card + 1]:
        assert f["number"] == number and f["hand"] == 0 and not f["prompt"], (f, seen)
    # The next deal: only after the card.
    dealt = [i for i, f in enumerate(seen) if f["number"] != number and i > held[-1]]
    assert dealt and min(dealt) > last_card, seen
    assert seen[-1]["hand"] > 0 or seen[-1]["prompt"], seen[-1]


def check_card(page, taken: list[str], trump: str, chooser: str, carry: int = 0,
               before: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """The result card says the facts of the hand as the page showed it (``carry`` tokens of a
    tie before, ``before`` the tokens of each side before the hand); the tokens now."""
    card = page.locator("[data-testid=hand-summary]")
    suit = {"S": "♠ spades", "H": "♥ hearts", "D": "♦ diamonds", "C": "♣ clubs"}[trump]
    chosen = "chosen by you" if chooser == "You" else f"chosen by {chooser}"
    assert card.locator("[data-testid=result-trump]").inner_text().strip() == f"{suit}, {chosen}"
    chooser_side = NAMES[chooser] % 2
    tricks, side, tokens = expected_result(taken, chooser_side, carry)
    sides = card.locator("[data-testid=result-tricks] li").all_inner_texts()
    assert sides == [f"Us: {tricks[0]} trick{'s' if tricks[0] != 1 else ''}",
                     f"Them: {tricks[1]} trick{'s' if tricks[1] != 1 else ''}"], sides
    head = card.locator("[data-testid=result-head]").inner_text()
    why = card.locator("[data-testid=result-why]").inner_text()
    if side is None:
        assert head.startswith("4 : 4. Nobody scores"), head
        n = carry + 1
        assert why == f"None; {n} token{'s wait' if n > 1 else ' waits'} for the next decided hand.", why
        return before
    plus = f"+{tokens} token{'s' if tokens != 1 else ''}"
    assert head.endswith(f"{plus}."), head
    assert head.startswith("Us" if side == 0 else "Them") or head.startswith("Kapothi!"), head
    if carry:
        assert f"(incl. {carry} carried from 4 : 4)" in why, why
    if tokens - carry == 3:
        # The headline says it all ("Kapothi! They took all 8 tricks: +3 tokens."): not twice.
        assert "8 tricks" not in why and "3 tokens" not in why, why
    elif side == chooser_side:
        assert why.startswith("You chose trumps, and your side won: 1 token." if chooser == "You"
                              else f"Trumps chosen by {chooser}, whose side won: 1 token."), why
    else:
        lost = "whose side lost: 2 tokens to the winners."
        assert why.startswith("You chose trumps, and your side lost: 2 tokens to the winners."
                              if chooser == "You" else f"Trumps chosen by {chooser}, {lost}"), why
    now = [before[0] + (tokens if side == 0 else 0), before[1] + (tokens if side == 1 else 0)]
    score = card.locator("[data-testid=result-score]").inner_text()
    words = [f"{name}: {n} token{'s' if n != 1 else ''} of 10"
             for name, n in zip(("Us", "Them"), now, strict=True)]
    assert score == " · ".join(words), score
    return now[0], now[1]


def review_finished_hand(page, taken: list[str], mine: list[str]) -> None:
    """From the card, the tricks of the hand just finished: all 8, each as the felt showed it."""
    page.click("[data-action=review-tricks]")
    page.wait_for_selector("[data-testid=trick-review]")
    trick = trick_on_panel(page)
    assert trick["head"] == "Trick 8 of 8", trick
    check_trick(trick, mine[7], taken[7])
    page.keyboard.press("Home")
    trick = trick_on_panel(page)
    assert trick["head"] == "Trick 1 of 8", trick
    check_trick(trick, mine[0], taken[0])
    page.click("[data-action=next-trick]")
    assert trick_on_panel(page)["head"] == "Trick 2 of 8"
    assert blocking_violations(page) == []  # the tricks panel, checked by axe-core
    page.keyboard.press("Escape")  # closes the panel, not the card
    page.wait_for_selector("[data-testid=trick-review]", state="detached")
    assert page.locator("[data-testid=hand-summary]").count() == 1


def fits(page) -> None:
    """The controls of the dialogs open (the result card, the tricks panel) are on screen, none
    cut off."""
    out = page.evaluate("""() => [...document.querySelectorAll('.overlay button')].filter((b) => {
      const r = b.getBoundingClientRect();
      return r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1;
    }).map((b) => b.textContent)""")
    assert out == [], out


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_hand_ends_with_its_last_trick_then_its_result_then_the_deal(server, pages, width, height):
    size = f"{width}x{height}"
    page = pages.new(width=width, height=height)
    page.goto(server.base + "/")
    go(page, "/play/omi?level=easy&seed=0000-0000-007K")
    page.wait_for_selector(".felt.omi")
    page.evaluate(RECORD_JS)

    mine, trump = play_hand(page, review_at=3, size=size)
    assert len(mine) == 8 and trump, "seat 0 chooses the first hand's trumps"
    card = page.locator("[data-testid=hand-summary]")
    card.wait_for()
    taken = winner_lines(page)
    assert len(taken) == 8, taken
    shot(page, f"hand-end-result-{size}")
    fits(page)
    tokens = check_card(page, taken, trump, "You")
    tied = tokens == (0, 0)
    assert page.evaluate("document.activeElement.dataset.action") == "next-hand"

    if width >= 1280:
        assert blocking_violations(page) == []  # the result card, checked by axe-core
        review_finished_hand(page, taken, mine)
        page.click("[data-action=next-hand]")
    else:
        page.keyboard.press("Enter")
    card.wait_for(state="detached")
    page.wait_for_function(TURN_JS)
    check_order(page)
    # The next deal: hand 2, chosen by the seat after the new dealer (seat 0 dealt: seat 1).
    assert page.locator(".score-hand").inner_text() == "Hand 2"
    shot(page, f"hand-end-next-deal-{size}")

    if (width, height) == (360, 640):
        # Nobody closes the card: it goes by itself, and the next deal follows.
        page.evaluate(RECORD_JS)
        _, trump = play_hand(page)
        check_card(page, winner_lines(page), trump, "Computer 2", carry=1 if tied else 0, before=tokens)
        page.locator("[data-testid=hand-summary]").wait_for(state="detached", timeout=20000)
        page.wait_for_function("() => document.querySelector('.score-hand').textContent === 'Hand 3'")
        check_order(page)


HOTSEAT_READY_JS = """() => document.querySelector('[data-testid=hand-summary], [data-testid=pass-screen]')
  || document.querySelector('button[data-suit]:not([disabled])')
  || document.querySelector('.hand button[data-card]:not([disabled])')"""

# The element a tap at the middle of the result card's button lands on.
ON_TOP_JS = """() => {
  const r = document.querySelector('[data-action=next-hand]').getBoundingClientRect();
  return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.dataset.action || null;
}"""


def test_hot_seat_the_result_comes_before_the_device_is_passed(server, pages):
    """At a hot-seat table the result card shows no hand and goes over the pass screen: nobody
    takes the device, and sees the next deal, before it is closed (here with Escape)."""
    page = pages.new()
    open_hotseat_omi(page, server.base)
    while True:
        page.wait_for_function(HOTSEAT_READY_JS, timeout=30000)
        if page.locator("[data-testid=hand-summary]").count():
            break
        if page.locator("[data-testid=pass-screen]").count():
            page.click("[data-action=take-seat]")
            page.wait_for_selector("[data-testid=pass-screen]", state="detached")
            continue
        snap = snapshot(page)
        if snap["suits"]:
            choose_trump(page, snap["suits"][0])
            continue
        play_card(page, next(c["card"] for c in snap["hand"] if c["enabled"]))
    assert page.locator(".hand .card").count() == 0, "no hand while the result is up"
    assert page.evaluate(ON_TOP_JS) == "next-hand", "the result card is on top"
    assert page.evaluate("document.activeElement.dataset.action") == "next-hand"
    shot(page, "hand-end-hotseat-result")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=hand-summary]", state="detached")
    page.wait_for_function(HOTSEAT_READY_JS)
    if page.locator("[data-testid=pass-screen]").count():
        assert page.locator(".hand .card").count() == 0
        page.click("[data-action=take-seat]")
    page.wait_for_selector(".hand .card")
    assert page.locator(".score-hand").inner_text() == "Hand 2"


# The result card of hands made up for the purpose: every way a hand is scored, read back as
# text (the renderer's summary(), as the table shows it).
CARDS_JS = """async () => {
  const i18n = await import('/static/js/i18n.js');
  const { omi } = await import('/static/js/games/omi.js');
  await i18n.setLanguage('en', { remember: false });
  const ctx = { me: 0, neutral: false, name: (s) => (s === 0 ? 'You' : `P${s}`), openPanel: null };
  const hand = (fields) => ({ dealer: 3, chooser: 0, trump: 'S', announced: null, kapothi: false, carry: 0,
    ...fields });
  const card = (view, result) => {
    const { title, detail } = omi.summary(view, result, ctx);
    const part = (id) => detail.querySelector(`[data-testid=${id}]`).textContent.trim();
    return { title, head: part('result-head'), why: part('result-why'), trump: part('result-trump') };
  };
  const tie = hand({ hand: 1, side: null, tokens: 0, tricks: [4, 4], carry: 1 });
  const failed = hand({ hand: 2, chooser: 1, trump: 'H', side: 1, tokens: 5, tricks: [7, 1], announced: 0 });
  const made = hand({ hand: 1, side: 0, tokens: 3, tricks: [8, 0], announced: 0, kapothi: true });
  const sweep = hand({ hand: 1, side: 0, tokens: 1, tricks: [8, 0] });
  const match = hand({ hand: 1, side: 1, tokens: 3, tricks: [0, 8], kapothi: true });
  const kapothi = hand({ hand: 1, chooser: 1, side: 1, tokens: 3, tricks: [0, 8], kapothi: true });
  const lost = hand({ hand: 1, chooser: 1, trump: 'D', side: 0, tokens: 2, tricks: [5, 3] });
  const three = hand({ hand: 1, side: null, tokens: 0, tricks: [3, 3, 2], carry: 1 });
  const view = (rules, results, players = 4) => ({ players, rules: { target: 10, ...rules },
    tokens: [0, 0, 0], results });
  return {
    failed: card(view({ kapothi: 'announced' }, [tie, failed]), failed),
    made: card(view({ kapothi: 'announced' }, [made]), made),
    sweep: card(view({ kapothi: 'announced' }, [sweep]), sweep),
    match: card(view({ kapothi: 'wins_match' }, [match]), match),
    kapothi: card(view({}, [kapothi]), kapothi),
    lost: card(view({}, [lost]), lost),
    three: card(view({}, [three], 3), three),
  };
}"""


def test_the_result_card_explains_every_way_a_hand_is_scored(server, pages):
    page = pages.new()
    page.goto(server.base + "/")
    cards = page.evaluate(CARDS_JS)
    # A failed announced kapothi: the other team scores 4 and the carry; nobody "took all 8".
    failed = cards["failed"]
    assert failed["title"] == "Hand 2" and failed["head"] == "Kapothi failed. Them: +5 tokens.", failed
    assert "Kapothi announced but a trick lost: 4 tokens to the other team." in failed["why"], failed
    assert "(incl. 1 carried from 4 : 4)" in failed["why"], failed
    assert failed["trump"] == "♥ hearts, chosen by P1", failed
    assert cards["made"]["head"] == "Kapothi! We took all 8 tricks: +3 tokens.", cards["made"]
    assert cards["made"]["why"] == "Kapothi was announced before trick 7, and made.", cards["made"]
    assert cards["made"]["trump"] == "♠ spades, chosen by you", cards["made"]
    sweep = cards["sweep"]["why"]
    assert sweep.startswith("All 8 tricks, but kapothi was not announced: an ordinary win."), sweep
    assert "You chose trumps, and your side won: 1 token." in sweep, sweep
    match = cards["match"]
    assert match["why"] == "Under this table's rules, kapothi wins the match at once.", match
    # What happened, not a rule, and the headline's words not said again (issue 37, item 4).
    assert cards["kapothi"]["head"] == "Kapothi! They took all 8 tricks: +3 tokens.", cards["kapothi"]
    assert cards["kapothi"]["why"] == "", cards["kapothi"]
    assert cards["lost"]["head"].startswith("Us"), cards["lost"]
    lost = cards["lost"]
    assert lost["why"] == "Trumps chosen by P1, whose side lost: 2 tokens to the winners.", lost
    # Three players: a tie for the most tricks is no "4 : 4".
    three = cards["three"]
    assert three["head"].startswith("A tie for the most tricks. Nobody scores; 1 token carried"), three
    assert three["why"] == "None; 1 token waits for the next decided hand.", three
