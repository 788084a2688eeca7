// @ts-check
// The plain renderer (shape: games/index.js), for a game the server plays and the page has no
// renderer of its own for yet: the players, your cards, and each legal action as a button. Plain,
// but playable, and a starting point for the game's own renderer.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardEl } from "../cards.js";
import { seatPlate } from "../seats.js";

function table(view, ctx) {
  const legal = ctx.hideHand ? [] : view.legal || [];
  const seats = (view.seats || []).map((s) => s.seat);
  const hand = ctx.hideHand || !Array.isArray(view.hand) ? [] : view.hand;
  return h("div", { class: ["felt", "plain"], dataset: { phase: view.phase } },
    h("div", { class: "plain-seats" }, seats.map((seat) => h("div", { class: ["seat", seat === ctx.me && "me"], dataset: { seat } },
      seatPlate(view, seat, ctx)))),
    h("div", { class: ["hand", legal.length && "my-turn"], role: "group", "aria-label": t("table.your_hand"), dataset: { testid: "hand" } },
      hand.map((card) => cardEl(card, { label: ctx.cardName(card) }))),
    h("div", { class: "table-actions plain-actions" }, legal.map((action) => h("button", {
      type: "button", class: "btn", dataset: { action }, disabled: ctx.busy, onclick: () => ctx.act(action) }, action))));
}

export const plain = {
  name: null,
  suits: ["S", "H"],
  table,
  step: () => ({ fresh: new Set() }),
  sounds: (before, view, last) => (last ? [["card", 0]] : []),
  won: (view, seat) => view.winner === seat,
  describe: (msg, ctx) => (msg.last ? `${ctx.name(msg.last.seat)}: ${msg.last.action}` : ""),
  // (no winner: a draw, in a game that has them)
  over: (view, ctx) => ({ title: view.winner === null || view.winner === undefined ? t("over.draw")
    : t("over.player_won", { name: ctx.name(view.winner) }), detail: null }),
  share: (view, seat) => (view.winner === seat ? "🏆" : "·"),
  summary: () => [],
  panels: [],
  helpKeys: ["help.keys_sound"],
  keys: {},
};
