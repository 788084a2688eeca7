// @ts-check
// Cards drawn with HTML and CSS: corner indices, pips laid out as on real cards, framed court
// cards, and a patterned back. A card the player may click is a <button data-card="TH">.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_SHOW = { T: "10" };

/** "TH" -> {rank: "T", suit: "H"}; also accepts "10H". */
export function parseCard(text) {
  const s = String(text).toUpperCase();
  const suit = s.slice(-1);
  let rank = s.slice(0, -1);
  if (rank === "10") rank = "T";
  return { rank, suit };
}

export const rankText = (rank) => RANK_SHOW[rank] || rank;
export const isRed = (suit) => suit === "H" || suit === "D";

/** The card's name for screen readers, in the current language: "10 of hearts". */
export function cardName(text) {
  const { rank, suit } = parseCard(text);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** The short pretty form "10♥" (used in messages and logs). */
export function cardPretty(text) {
  const { rank, suit } = parseCard(text);
  return rankText(rank) + SUIT_SYMBOL[suit];
}

// Pip positions (x%, y%) inside the pip area; pips below the middle are drawn upside down.
const L = 12, C = 50, R = 88;
const PIPS = {
  2: [[C, 4], [C, 96]],
  3: [[C, 4], [C, 50], [C, 96]],
  4: [[L, 4], [R, 4], [L, 96], [R, 96]],
  5: [[L, 4], [R, 4], [C, 50], [L, 96], [R, 96]],
  6: [[L, 4], [R, 4], [L, 50], [R, 50], [L, 96], [R, 96]],
  7: [[L, 4], [R, 4], [C, 29], [L, 50], [R, 50], [L, 96], [R, 96]],
  8: [[L, 4], [R, 4], [C, 29], [L, 50], [R, 50], [C, 71], [L, 96], [R, 96]],
  9: [[L, 4], [R, 4], [L, 36], [R, 36], [C, 50], [L, 64], [R, 64], [L, 96], [R, 96]],
  T: [[L, 4], [R, 4], [C, 22], [L, 36], [R, 36], [L, 64], [R, 64], [C, 78], [L, 96], [R, 96]],
};

// Every mark on a face is drawn by CSS from a data-glyph attribute (cards.css), so a card has no
// text of its own: what it says is its accessible name, which starts with its corner ("A♥, ace
// of hearts", what a speech user says to pick it).
const glyph = (cls, text, extra = {}) => h("span", { class: cls, dataset: { glyph: text }, ...extra });

function face(rank, suit) {
  const symbol = SUIT_SYMBOL[suit];
  const corner = (pos) =>
    h("span", { class: ["corner", pos], "aria-hidden": "true" },
      glyph("corner-rank", rankText(rank)), glyph("corner-suit", symbol));
  let middle;
  if (rank === "A") {
    middle = glyph("ace-pip", symbol, { "aria-hidden": "true" });
  } else if (PIPS[rank]) {
    middle = h("span", { class: "pips", "aria-hidden": "true" },
      PIPS[rank].map(([x, y]) => glyph(["pip", y > 50 && "flip"], symbol, { style: { left: `${x}%`, top: `${y}%` } })));
  } else {
    middle = h("span", { class: ["court", `court-${rank}`], "aria-hidden": "true" },
      glyph("court-letter", rank), glyph("court-suit", symbol), glyph("court-letter flip", rank));
  }
  return [corner("tl"), middle, corner("br")];
}

/**
 * One card face. options:
 *   button: render a <button data-card> (enabled when `enabled`), else a <div>.
 *   onClick, enabled, selected, extraClass, label (aria-label override).
 */
export function cardEl(text, options = {}) {
  const { rank, suit } = parseCard(text);
  const classes = ["card", "face", isRed(suit) ? "red" : "black", `rank-${rank}`, options.extraClass,
    options.selected && "selected"];
  const label = `${cardPretty(text)}, ${options.label || cardName(text)}`;
  if (options.button) {
    return h("button", {
      type: "button",
      class: classes,
      dataset: { card: text },
      disabled: !options.enabled,
      "aria-label": label,
      "aria-pressed": options.selected === undefined ? null : String(!!options.selected),
      title: label,
      onclick: options.onClick,
    }, face(rank, suit));
  }
  return h("div", { class: classes, role: "img", "aria-label": label, dataset: { shown: text } }, face(rank, suit));
}

/** A card seen from the back (someone else's card, the draw pile, a face-down card). */
export function cardBack(extraClass, label) {
  return h("div", { class: ["card", "back", extraClass], role: label ? "img" : null,
    "aria-label": label || null, "aria-hidden": label ? null : "true" });
}

/** The hand of a seat the viewer does not play: its backs (at most `max`), or in a replay, whose
 * views carry `hands` (every seat's cards: the game is over), its faces, small. */
export function otherHand(view, seat, count, label, max = count) {
  const open = view.hands?.[seat];
  if (open) {
    return h("div", { class: "open-hand", role: "group", "aria-label": label, dataset: { testid: `open-hand-${seat}` } },
      open.map((c) => cardEl(c, { extraClass: "micro" })));
  }
  const backs = [];
  for (let i = 0; i < Math.min(count, max); i++) backs.push(cardBack("mini"));
  return h("div", { class: "backs", "aria-label": label, role: label ? "img" : null }, backs);
}

/** A suit symbol coloured as on the cards. */
export function suitEl(suit, extraClass) {
  return h("span", { class: ["suit-symbol", isRed(suit) ? "red" : "black", extraClass], "aria-hidden": "true" },
    SUIT_SYMBOL[suit]);
}
