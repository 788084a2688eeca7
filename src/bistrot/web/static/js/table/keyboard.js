// @ts-check
// Playing with the keyboard: arrows move between the cards that may be played, 1–9 plays the
// n-th, M switches the sound, ? asks for a hint (where hints are on), Esc closes a panel; the game's own letters (a suit, pick up, the
// last trick...) come from its renderer (games/index.js: keys and panels).
import { $$ } from "../dom.js";
import { soundOn, setSound } from "../sound.js";
import { rendererFor } from "../games/index.js";

/** The keydown handler of the table in `root`. */
export function tableKeys(root, T) {
  return function onKey(event) {
    if (event.target.closest?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const { S } = T;
    const key = event.key;
    if (key === "Escape" && S.panel) { S.panel = null; T.render(); return; }
    const cards = $$(".hand button[data-card]:not([disabled]), .table-cards.mine button[data-card]:not([disabled])", root);
    if (key === "ArrowLeft" || key === "ArrowRight") {
      if (!cards.length) return;
      const i = cards.indexOf(document.activeElement);
      const next = i < 0 ? 0 : (i + (key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
      cards[next].focus();
      event.preventDefault();
      return;
    }
    if (/^[1-9]$/.test(key)) {
      const card = cards[Number(key) - 1];
      if (card) { card.focus(); card.click(); event.preventDefault(); }
      return;
    }
    const lower = key.toLowerCase();
    if (lower === "m") { setSound(!soundOn()); T.render(); return; }
    if (key === "?") {
      const ask = root.querySelector('[data-action="hint"]:not([disabled])');
      if (ask) { ask.click(); event.preventDefault(); }
      return;
    }
    const game = S.shown?.view?.game;
    if (!game) return;
    const renderer = rendererFor(game);
    const own = renderer.panels.find((p) => p.key === lower);
    if (own) { T.openPanel(own.id); return; }
    const selector = renderer.keys[lower];
    // Enter on a focused button is that button's own click.
    if (!selector || (lower === "enter" && event.target.closest?.("button"))) return;
    const el = root.querySelector(selector);
    if (el && !el.disabled) { el.click(); event.preventDefault(); }
  };
}
