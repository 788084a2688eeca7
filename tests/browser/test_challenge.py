"""Challenges (issue 13, item 12): the games on a challenge's deal compared hand by hand (Omi) or
fact by fact (Oti) with who did better, the seat named as its player sees it, and every control
of the end-of-game dialog reachable at a phone held upright or sideways, a tablet and a laptop
("See the challenge results" was below the dialog's window on a phone).  How each game went is
shown only once the deal has been played through (before, it would spoil the challenge): the
challenger's page says so instead, and the original player's shows it."""

from __future__ import annotations

from . import oti_driver
from .axe import blocking_violations
from .browser_kit import go, shot
from .omi_driver import play_until_over

SIZES = [(360, 640), (640, 360), (768, 1024), (1280, 800)]

#: Those of the dialog's controls named (by their words) that a tap cannot reach where they
#: are now: outside the window, or under something else.
HIDDEN_JS = """(names) => [...document.querySelectorAll('.over-overlay button, .over-overlay a')]
  .filter((el) => names.includes(el.textContent.trim())).filter((el) => {
  const r = el.getBoundingClientRect();
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return true;
  const top = document.elementFromPoint(x, y);
  return !(top && (top === el || el.contains(top)));
}).map((el) => el.dataset.action || el.textContent.trim().slice(0, 24))"""
CONTROLS = ".over-overlay button, .over-overlay a, .over-overlay input"
SEE = "See the challenge results"


def check_over_dialog(page, name: str) -> None:
    """At each size: the actions and the challenge's link are in the window without scrolling,
    and every other control of the dialog can be scrolled to and tapped."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # a layout at the new size
        assert page.evaluate(HIDDEN_JS, ["Rematch", "Home", SEE]) == [], (width, height)
        shot(page, f"{name}-{width}x{height}")
        for control in page.locator(CONTROLS).all():
            control.click(trial=True, timeout=3000)  # scrolled into view, visible, not covered
    page.set_viewport_size({"width": 1280, "height": 800})


def ask_challenge(page) -> str:
    page.click("[data-action=challenge]")
    page.wait_for_selector(f".over-overlay a:text-is('{SEE}')", state="attached")
    return page.locator("[data-testid=challenge-link]").input_value()


def open_as(pages, base: str, name: str, path: str):
    page = pages.new()
    page.goto(base + "/")
    page.evaluate("n => localStorage.setItem('bistrot.name', n)", name)
    go(page, path)
    return page


def played_results(server, page, challenge: str) -> dict:
    """The challenge's results with every game's facts, as they are given to the browser of
    ``page``, at its finished table of the challenge (``/t/<table>``) with its seat token."""
    table = page.url.rsplit("/", 1)[1]
    held = page.evaluate("(id) => JSON.parse(localStorage.getItem('bistrot.table.' + id))", table)
    info = server.api("GET", f"/api/challenges/{challenge}?table={table}",
                      headers={"Authorization": f"Bearer {held['seats'][0]['token']}"})
    assert info["facts_shown"] is True
    return info


def assert_facts_hidden(page, words: str) -> None:
    """Before the deal is played: the results' cards, not how the games went."""
    page.wait_for_selector("[data-testid=comparison] .result-card")
    assert page.locator("[data-testid=side-by-side]").count() == 0
    assert page.locator("[data-testid=facts-hidden]").inner_text() == words


def omi_rank(result: dict, seat: int) -> tuple:
    """How good a finished match was for ``seat`` (lower is better), as the page says it."""
    tokens, side, hands = result["summary"]["tokens"], seat % 2, result["summary"]["hands"]
    won = result["won"]
    return (0 if won else 1, tokens[1 - side] - tokens[side], hands if won else -hands)


def oti_place(facts: dict, seat: int) -> int:
    """The place of ``seat`` (RULES.md): those out in order, then the others by cards left."""
    out, left = facts["out"], facts["cards_left"]
    if seat in out:
        return out.index(seat) + 1
    return len(out) + 1 + sum(1 for s in range(len(left)) if s not in out and left[s] < left[seat])


def test_an_omi_challenge_compared_hand_by_hand(server, pages):
    page = open_as(pages, server.base, "Ama", "/play/omi?level=easy&target=1")
    page.wait_for_selector(".felt.omi")
    play_until_over(page)
    link = ask_challenge(page)
    check_over_dialog(page, "challenge-over-omi")
    challenge = link.rsplit("/", 1)[1]

    friend = pages.new(width=360, height=640)
    friend.goto(link)
    seat = friend.locator("[data-testid=challenge-seat]").inner_text()
    # Seat 0 of four: a partner opposite, an opponent each side, and the first trump is ours.
    assert "Computer 3 (easy) as your partner" in seat, seat
    assert "Computer 2 (easy) on your right" in seat and "Computer 4 (easy) on your left" in seat, seat
    assert "You choose trump in the first hand and lead its first trick." in seat, seat
    assert_facts_hidden(friend, "Play this deal to see everybody's hands side by side.")
    shot(friend, "challenge-page-omi-360x640")
    friend.set_viewport_size({"width": 1280, "height": 800})
    friend.fill("#challenge-name", "Nimali")
    friend.click("[data-action=play-challenge]")
    friend.wait_for_selector(".felt.omi")

    def other_trump(page, snap, n):  # another trump than Ama's first suit: another match
        if snap["suits"]:
            page.click(f'button[data-suit="{snap["suits"][-1]}"]')
            page.wait_for_function("() => !document.querySelector('button[data-suit]:not([disabled])')")
            return True
        return False

    play_until_over(friend, on_turn=other_trump)
    friend.wait_for_selector("[data-testid=side-by-side]")
    info = played_results(server, friend, challenge)
    original, attempt = info["results"]
    assert original["name"] == "Ama" and attempt["name"] == "Nimali"

    # Who did better, said in words, as the results rank the two matches.
    mine, theirs = omi_rank(attempt, 0), omi_rank(original, 0)
    expected = ("You did better than Ama." if mine < theirs else "Ama did better than you." if mine > theirs
                else "You did exactly as well as Ama.")
    comparison = friend.locator(".over-overlay [data-testid=comparison]")
    assert comparison.locator("[data-testid=verdict]").inner_text() == expected

    # A row per hand, a column per match; each cell: trump and chooser, tricks, tokens, score.
    table = comparison.locator("[data-testid=side-by-side]")
    heads = table.locator("thead th").all_inner_texts()
    assert heads[1].startswith("Ama") and "original" in heads[1] and heads[2] == "Nimali", heads
    hands = [original["facts"]["hands"], attempt["facts"]["hands"]]
    rows = table.locator("tbody tr")
    assert rows.count() == max(len(x) for x in hands)
    suit = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    for k in range(rows.count()):
        cells = rows.nth(k).locator("td")
        nets = []
        for column, played in enumerate(hands):
            text = cells.nth(column).inner_text()
            if k >= len(played):
                assert text == "–"
                continue
            hand = played[k]
            assert suit[hand["trump"]] in text, text
            assert f"tricks {hand['tricks'][0]} : {hand['tricks'][1]}" in text, text
            chooser = ["Ama", "Nimali"][column] if hand["chooser"] == 0 else f"Computer {hand['chooser'] + 1}"
            assert chooser in text, text
            net = 0 if hand["side"] is None else hand["tokens"] if hand["side"] == 0 else -hand["tokens"]
            nets.append(net)
            if net:
                assert f"{'+' if net > 0 else '−'}{abs(net)} token" in text, text
        better = [i for i in range(len(nets)) if "better" in (cells.nth(i).get_attribute("class") or "")]
        if len(nets) == 2 and nets[0] != nets[1]:
            assert better == [nets.index(max(nets))], (k, nets, better)
        else:
            assert better == [], (k, nets)
    # (The attempt may have ended in fewer hands than the original: its own last row.)
    last_score = rows.nth(len(hands[1]) - 1).locator("td").nth(1).locator(".ch-total").inner_text()
    assert last_score.endswith(" : ".join(map(str, attempt["summary"]["tokens"])))
    shot(friend, "challenge-omi-hand-by-hand")

    # A person at another seat of the original game (its result's seats) is named by their name
    # in its column, the attempt's computer there as a computer (the page's own code, given the
    # answer with Kasun at seat 1 choosing the first trump).
    first_hand = friend.evaluate("""async (info) => {
      const { challengeComparison } = await import("/static/js/challenge.js");
      info.results[0].seats[1] = { seat: 1, kind: "human", name: "Kasun", level: null };
      for (const r of info.results) r.facts.hands[0].chooser = 1;
      const table = challengeComparison(info).querySelector("[data-testid=side-by-side]");
      return [...table.querySelectorAll("tbody tr:first-child td .ch-trump")].map((td) => td.textContent);
    }""", info)
    assert "Kasun" in first_hand[0] and first_hand[1].endswith("Computer 2"), first_hand
    check_over_dialog(friend, "challenge-over-omi-friend")

    # The original player's link, afterwards: the same comparison, the best so far named.
    page.click(f".over-overlay a:text-is('{SEE}')")
    page.wait_for_selector("[data-testid=side-by-side]")
    best = "Nimali" if mine < theirs else "Ama"
    verdict = page.locator("[data-testid=verdict]").inner_text()
    assert verdict == ("Best so far, level: Ama, Nimali." if mine == theirs else f"Best so far: {best}.")
    shot(page, "challenge-page-omi-results")
    assert blocking_violations(page) == []  # the comparison, checked by axe-core

    # Someone else, who has not played it: who did best (from the headline results), not how.
    third = pages.new()
    third.goto(link)
    assert_facts_hidden(third, "Play this deal to see everybody's hands side by side.")
    assert third.locator("[data-testid=verdict]").inner_text() == verdict


def test_an_oti_challenge_compared_side_by_side(server, pages):
    page = open_as(pages, server.base, "Ama", "/play/oti?level=easy&players=3&voluntary_pickup=on")
    oti_driver.play_until_over(page, limit_s=180)
    link = ask_challenge(page)
    check_over_dialog(page, "challenge-over-oti")

    friend = pages.new()
    friend.goto(link)
    seat = friend.locator("[data-testid=challenge-seat]").inner_text()
    # Seat 0 of three: first in the turn order, after the last seat.
    order = ("You are number 1 of 3 in the turn order: "
             "you play after Computer 3 (easy) and before Computer 2 (easy).")
    assert order in seat, seat
    assert "Whoever holds the lowest card starts." in seat, seat
    assert_facts_hidden(friend, "Play this deal to see everybody's game side by side.")
    friend.fill("#challenge-name", "Nimali")
    friend.click("[data-action=play-challenge]")
    # (the pile whenever we may: another game than Ama's)
    oti_driver.play_until_over(friend, limit_s=180, pick_up=True)
    table = friend.locator(".over-overlay [data-testid=side-by-side]")
    table.wait_for()
    info = played_results(server, friend, link.rsplit("/", 1)[1])
    facts = [r["facts"] for r in info["results"]]
    # each cell's own text (a marked one adds "(better)" for screen readers)
    rows = {r.locator("th").inner_text(): [x.split("\n")[0] for x in r.locator("td").all_inner_texts()]
            for r in table.locator("tbody tr").all()}
    assert rows["Cards left"] == [str(f["cards_left"][0]) for f in facts], rows
    assert rows["Turns"] == [str(f["turns"][0]) for f in facts], rows
    places = [oti_place(f, 0) for f in facts]
    assert rows["Place"] == [f"{p} of 3" for p in places], rows
    names = ["Ama", "Nimali"]
    for i, f in enumerate(facts):
        went_out = " → ".join(names[i] if s == 0 else f"Computer {s + 1}" for s in f["out"])
        assert rows["Went out"][i] == went_out, rows
    ranks = [(p, f["cards_left"][0], f["turns"][0]) for p, f in zip(places, facts, strict=True)]
    expected = ("You did better than Ama." if ranks[1] < ranks[0] else "Ama did better than you."
                if ranks[1] > ranks[0] else "You did exactly as well as Ama.")
    assert friend.locator(".over-overlay [data-testid=verdict]").inner_text() == expected
    assert ranks[0] != ranks[1], "picking the pile up at every turn played the same game"
    # The better cell of each line is marked where the two games differ.
    for line, values in (("Place", places), ("Cards left", [f["cards_left"][0] for f in facts]),
                         ("Turns", [0, 0])):  # fewer turns is better only between equal places
        cells = table.locator("tbody tr").filter(has=friend.locator(f"th:text-is('{line}')")).locator("td")
        marked = [i for i in range(2) if "better" in (cells.nth(i).get_attribute("class") or "")]
        best = [values.index(min(values))] if values[0] != values[1] else []
        assert marked == best, (line, values, marked)
    shot(friend, "challenge-oti-side-by-side")
    check_over_dialog(friend, "challenge-over-oti-friend")
