"""The page's grammar (issue 13, item 5): the viewer's own actions in their own words ("You play
8♠", not "You plays 8♠"; French "Vous jouez", not "Vous joue"), and counts through
``Intl.PluralRules`` ("1 token", "0 jeton", never "token(s)").

The renderers' sentences are built in the page itself (the game modules imported into a page
in the language under test) for every kind of line a player meets; a whole Omi hand and an Oti
swap are then played in English and French, and every line of the action log is read.
"""

from __future__ import annotations

import json
import re

import pytest

from .browser_kit import ROOT, go, shot
from .omi_driver import choose_trump, play_card, wait_for_turn

I18N = ROOT / "src" / "bistrot" / "web" / "static" / "i18n"


def words(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def fill(text: str, **params: object) -> str:
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


# Every sentence with a person as its subject, as the renderers make it for seat 0 (the viewer,
# "You": no name typed) and for seat 1 ("Ama").
LINES_JS = """async (lang) => {
  const i18n = await import('/static/js/i18n.js');
  const { omi } = await import('/static/js/games/omi.js');
  const { oti, describeOtiEvent } = await import('/static/js/games/oti.js');
  const { cardPretty, cardName } = await import('/static/js/cards.js');
  await i18n.setLanguage(lang, { remember: false });
  const ctx = { me: 0, neutral: false, cardPretty, cardName,
    name: (seat) => (seat === 0 ? i18n.t('seat.you') : 'Ama'), seatInfo: () => null };
  const out = {};
  for (const seat of [0, 1]) {
    const who = seat === 0 ? 'you' : 'other';
    const line = (action) => omi.describe({ last: { seat, action } }, ctx);
    out[`omi.play.${who}`] = line('play 8S');
    out[`omi.trump.${who}`] = line('trump S');
    out[`omi.kapothi.${who}`] = line('kapothi');
    const ev = (event) => describeOtiEvent({ seat, ...event }, ctx);
    out[`oti.play.${who}`] = ev({ action: 'play 8S', cards: ['8S'] });
    out[`oti.flip.${who}`] = ev({ action: 'flip', cards: ['8S'] });
    out[`oti.ready.${who}`] = ev({ action: 'ready' });
    out[`oti.swap.${who}`] = ev({ action: 'swap 8S 9H' });
    out[`oti.pickup.${who}`] = ev({ action: 'pickup', cards: ['8S', '9H'] });
    out[`oti.again.${who}`] = ev({ action: 'play 5S', cards: ['5S'], effect: 'again' });
    out[`oti.out.${who}`] = ev({ action: 'play 8S', cards: ['8S'], out: true });
  }
  return out;
}"""

# The subject-verb faults that were seen, as regular expressions on a whole line.
WRONG = {
    "en": re.compile(r"\bYou (plays|chooses|announces|turns|is|picks|swaps)\b|\byou (is|plays)\b", re.I),
    "fr": re.compile(r"\bVous (joue|choisit|annonce|retourne|est|ramasse|échange|a fini|rejoue)\b", re.I),
    # Tamil: the third person honorific ending -ார் after நீங்கள் ("you")
    "ta": re.compile(r"நீங்கள்[^—]*ார்"),
}
RIGHT = {
    "en": {"omi.play": "You play 8♠", "omi.trump": "You choose spades as trumps",
           "oti.ready": "You are ready", "oti.play": "You play 8♠"},
    "fr": {"omi.play": "Vous jouez 8♠", "omi.trump": "Vous choisissez pique comme atout",
           "oti.ready": "Vous êtes prêt", "oti.play": "Vous jouez 8♠"},
}


@pytest.mark.parametrize("lang", ["en", "fr", "ta"])
def test_your_own_actions_are_said_to_you(server, pages, lang):
    page = pages.new()
    page.goto(server.base + "/")
    lines = page.evaluate(LINES_JS, lang)
    you = words(lang)["seat.you"]
    for key, line in lines.items():
        if key.endswith(".you"):
            assert not WRONG[lang].search(line), f"{lang} {key}: {line!r}"
            # the viewer is never put in a sentence made for somebody else
            other = lines[key.removesuffix(".you") + ".other"]
            assert line != other.replace("Ama", you), f"{lang} {key}: {line!r} is the third person's"
        else:
            assert "Ama" in line, f"{lang} {key}: {line!r}"
    for key, want in RIGHT.get(lang, {}).items():
        assert lines[f"{key}.you"].startswith(want), (key, lines[f"{key}.you"])


# The counted texts, rendered in the page: {lang: [(key, n, expected)]}.
PLURAL_JS = """async ([lang, cases]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.setLanguage(lang, { remember: false });
  return cases.map(([key, n, params]) => (i18n.plural
    ? i18n.plural(key, n, params) : i18n.t(key, { ...params, n })));
}"""
PLURALS = {
    "en": [("omi.tokens_of", 1, {"target": 10}, "1 token of 10"),
           ("omi.tokens_of", 0, {"target": 10}, "0 tokens of 10"),
           ("lobby.waiting_n", 1, {}, "1 seat free."), ("lobby.waiting_n", 2, {}, "2 seats free."),
           ("seat.cards_n", 1, {}, "1 card")],
    # French: 0 and 1 are singular
    "fr": [("omi.tokens_of", 0, {"target": 10}, "0 jeton sur 10"),
           ("omi.tokens_of", 1, {"target": 5}, "1 jeton sur 5"),
           ("omi.tokens_of", 2, {"target": 5}, "2 jetons sur 5"),
           ("lobby.waiting_n", 0, {}, "0 place libre."),
           ("lobby.waiting_n", 3, {}, "3 places libres."), ("seat.cards_n", 1, {}, "1 carte")],
    "zh": [("lobby.waiting_n", 1, {}, "还有 1 个空位。"), ("lobby.waiting_n", 4, {}, "还有 4 个空位。")],
}


@pytest.mark.parametrize("lang", sorted(PLURALS))
def test_counts_take_the_plural_of_their_language(server, pages, lang):
    page = pages.new()
    page.goto(server.base + "/")
    cases = PLURALS[lang]
    got = page.evaluate(PLURAL_JS, [lang, [[k, n, p] for k, n, p, _ in cases]])
    assert got == [want for *_, want in cases]
    assert page.evaluate("async () => typeof (await import('/static/js/i18n.js')).plural") == "function"


RESULT_JS = """async (lang) => {
  const i18n = await import('/static/js/i18n.js');
  const { describeResult } = await import('/static/js/games/omi.js');
  await i18n.setLanguage(lang, { remember: false });
  const ctx = { me: 0, neutral: false, name: (s) => (s === 0 ? i18n.t('seat.you') : `P${s}`) };
  const view4 = { players: 4 }, view3 = { players: 3 };
  return [
    describeResult(view4, { side: 0, tokens: 1, tricks: [5, 3], kapothi: false }, ctx),
    describeResult(view4, { side: 1, tokens: 2, tricks: [2, 6], kapothi: false }, ctx),
    describeResult(view4, { side: 0, tokens: 3, tricks: [8, 0], kapothi: true }, ctx),
    describeResult(view4, { side: null, tokens: 0, tricks: [4, 4], carry: 1 }, ctx),
    describeResult(view3, { side: 0, tokens: 3, tricks: [8, 0, 0], kapothi: true }, ctx),
  ];
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_hand_results_have_no_token_s(server, pages, lang):
    page = pages.new()
    page.goto(server.base + "/")
    results = page.evaluate(RESULT_JS, lang)
    for text in results:
        assert not re.search(r"\((s|e|es)\)", text), text
    # "Kapothi! Us took all 8 tricks", "Kapothi ! Nous fait les 8 levées", "Vous fait"
    assert not re.search(r"\bUs took|\b(Nous|Vous) fait\b", results[2] + results[4]), results
    if lang == "en":
        assert results[0] == "Us: 5 tricks, +1 token."
        assert results[3].startswith("4 : 4. Nobody scores; 1 token carried")
        assert results[4].startswith("Kapothi! You took all 8 tricks")
    else:
        assert results[0] == "Nous : 5 levées, +1 jeton."
        assert results[4].startswith("Kapothi ! Vous faites les 8 levées")


LOG_WATCH = """() => {
  window.__lines = [];
  const seen = () => {
    const text = document.querySelector('[data-testid=log]')?.textContent;
    if (text && window.__lines[window.__lines.length - 1] !== text) window.__lines.push(text);
  };
  new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_played_omi_hand_speaks_to_you(server, pages, lang):
    page = pages.new(motion="no-preference")
    page.goto(server.base + f"/?lang={lang}")
    go(page, "/play/omi?level=easy&target=1")
    page.wait_for_selector(".felt.omi")
    page.evaluate(LOG_WATCH)
    mine = []
    chose = None
    for _ in range(3):  # three of our turns: a trump choice (when ours) and plays
        snap = wait_for_turn(page)
        if snap["suits"]:
            chose = snap["suits"][0]
            choose_trump(page, chose)
            snap = wait_for_turn(page)
        card = next(c["card"] for c in snap["hand"] if c["enabled"])
        play_card(page, card)
        mine.append(card)
    page.wait_for_function("n => window.__lines.length >= n", arg=len(mine))
    if lang == "fr":
        shot(page, "wording-fr-omi")
    lines = page.evaluate("window.__lines")
    for line in lines:
        assert not WRONG[lang].search(line), line
    pretty = [("10" if c[0] == "T" else c[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[c[1]] for c in mine]
    said = RIGHT[lang]["omi.play"].replace("8♠", "")
    for card in pretty:
        assert said + card in lines, (card, lines)
    if chose:
        assert any(line.startswith(RIGHT[lang]["omi.trump"].split(" ")[0] + " ") for line in lines)
    body = page.locator("body").inner_text()
    assert not re.search(r"\w\((s|e|es)\)", body), body


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_oti_swap_and_ready_speak_to_you(server, pages, lang):
    page = pages.new(motion="no-preference")
    page.goto(server.base + f"/?lang={lang}")
    go(page, "/play/oti?level=easy&players=3")
    page.wait_for_selector(".felt.oti [data-action=ready]")
    page.evaluate(LOG_WATCH)
    page.click("[data-action=ready]")
    page.wait_for_function("() => window.__lines.length >= 1")
    page.wait_for_function(
        "() => document.querySelector("
        "'.oti-me button[data-card]:not([disabled]), .oti-me [data-action]:not([disabled])')"
    )
    lines = page.evaluate("window.__lines")
    assert RIGHT[lang]["oti.ready"] in lines, lines
    for line in lines:
        assert not WRONG[lang].search(line), line
    # a seat's cards, said with their number
    labels = page.locator(".oti-hand-count").evaluate_all("es => es.map(e => e.getAttribute('aria-label'))")
    assert labels and all(re.fullmatch(r"\d+ (cards?|cartes?)", x) for x in labels), labels
    if lang == "fr":
        shot(page, "wording-fr-oti")
