// @ts-check
// The table on screen: the top bar, the game's renderer for the felt, the action log, and over
// them the overlay of the moment; drawn again from T.S after every change (dom.js patch() keeps
// the nodes that did not change, so focus and animations survive).
import { h, patch } from "../dom.js";
import { t, language, LANGUAGES, setLanguage } from "../i18n.js";
import { cardName, cardPretty } from "../cards.js";
import { soundOn, setSound } from "../sound.js";
import { rendererFor } from "../games/index.js";
import { panel, waitingRoom, overScreen, passScreen, summaryBox } from "./overlays.js";
import { chatButton } from "./chat.js";
import { hintsSwitch, hintBar } from "./hints.js";

/** A seat's name: the one typed on this device (hot seat), the server's, or a plain one. */
export function nameOf(T, view, seat) {
  const { held, S, hotseat } = T;
  const info = (view?.seats || []).find((s) => s.seat === seat);
  if (held.names?.[seat] && info?.kind !== "computer") return held.names[seat];
  if (info?.name) return info.name;
  if (info?.kind === "computer") return t("seat.computer_name", { n: seat + 1 });
  if (seat === S.showSeat && !hotseat) return t("seat.you");
  return t("seat.player_n", { n: seat + 1 });
}

/** What a renderer is given besides the view (the shape is in games/index.js). */
export function tableContext(T) {
  const { S } = T;
  const view = S.shown?.view;
  return {
    me: S.showSeat,
    neutral: T.hotseat,
    name: (seat) => nameOf(T, view, seat),
    seatInfo: (seat) => {
      const info = (view?.seats || []).find((s) => s.seat === seat);
      if (info?.kind !== "human") return info;
      // Hot seat: everybody is at this device, so whether a player is "connected" means nothing.
      if (T.hotseat) return { ...info, local: true };
      // Our own connection lost: the others' presence is as last known, and may be stale.
      if (S.lost && !info.you) return { ...info, stale: true };
      // A grace period's seconds left, counted from when this page received them (its own clock).
      return typeof info.grace_left === "number" ? { ...info, graceAt: (S.shown.at || Date.now()) / 1000 + info.grace_left } : info;
    },
    act: T.act,
    rerender: T.render,
    cardName,
    cardPretty,
    busy: !!S.pending || S.holding,
    hideHand: S.passTo !== null,
    heldTrick: S.heldTrick,
    fresh: S.fresh,
    ui: S.ui,
    openPanel: T.openPanel,
  };
}

/** The action log's line for a state message (its game's renderer says it). */
export const describe = (T, msg) => rendererFor(msg.view.game).describe(msg, tableContext(T));

function soundButton(T) {
  return h("button", { type: "button", class: "icon-btn", dataset: { action: "sound" }, "aria-pressed": String(soundOn()),
    "aria-label": soundOn() ? t("sound.off") : t("sound.on"), title: (soundOn() ? t("sound.off") : t("sound.on")) + " (M)",
    onclick: () => { setSound(!soundOn()); T.render(); } }, soundOn() ? "🔊" : "🔇");
}

function languageSelect() {
  return h("select", { class: "lang-select", "aria-label": t("nav.language"), dataset: { testid: "language" },
    onchange: (e) => setLanguage(e.target.value) },
  LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === language() }, l.name)));
}

function topbar(T, view) {
  const { S, held, nav } = T;
  const game = view?.game || held.game;
  const panels = game ? rendererFor(game).panels : [];
  return h("header", { class: "topbar at-table" },
    // (Its name is its text, "bistrot", as everywhere; where it leads is its title.)
    h("a", { href: "/", class: "brand", title: t("nav.home"), onclick: (e) => { e.preventDefault(); nav("/"); } },
      h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠♥"), h("span", { class: "brand-name" }, "bistrot")),
    h("span", { class: "topbar-title" }, game ? t(`game.${game}`) : "",
      held.mode ? h("small", {}, " · " + t(`mode.${held.mode}`)) : null,
      held.local ? h("small", { class: "badge", dataset: { testid: "on-device" } }, t("offline.on_device")) : null,
      !held.seats?.length ? h("small", { class: "badge" }, t("table.watching")) : null),
    h("span", { class: "spacer" }),
    panels.map((p) => h("button", { type: "button", class: "icon-btn", dataset: { action: p.action },
      onclick: () => T.openPanel(p.id), title: t(p.title) + (p.key ? ` (${p.key.toUpperCase()})` : "") }, t(p.title))),
    chatButton(T),
    hintsSwitch(T, view),
    view?.is_over && S.overClosed && h("button", { type: "button", class: "icon-btn", onclick: () => { S.overClosed = false; T.render(); } },
      t("over.result")),
    soundButton(T),
    languageSelect(),
    h("button", { type: "button", class: "icon-btn help-btn", onclick: () => T.openPanel("help"), "aria-label": t("help.title"),
      title: t("help.title") }, "?"));
}

/** Draw the table from T.S into root. */
export function renderTable(root, T) {
  const { S, nav } = T;
  if (S.destroyed) return;
  const focus = rememberFocus(root);
  const view = S.shown?.view;
  const nodes = [topbar(T, view)];
  if (S.error) {
    nodes.push(h("section", { class: "page narrow error-page" }, h("h1", {}, t("error.title")), h("p", {}, S.error),
      h("button", { type: "button", class: "btn primary", onclick: () => nav("/") }, t("nav.home"))));
    patch(root, nodes);
    return;
  }
  if (!view) {
    nodes.push(h("p", { class: "loading" }, t("table.connecting")));
    patch(root, nodes);
    return;
  }
  const c = tableContext(T);
  const felt = [rendererFor(view.game).table(view, c)].flat();
  nodes.push(h("div", { class: ["table-wrap", `game-${view.game}`] },
    felt,
    hintBar(T, view, felt),  // (marks the hinted card in the felt before it is patched in)
    h("p", { class: "action-log", role: "log", "aria-live": "polite", dataset: { testid: "log" } }, S.log)));
  if (S.passTo !== null) nodes.push(passScreen(T, c));
  else if (view.table?.status === "waiting") nodes.push(waitingRoom(T, view, c));
  // (the match's last trick is seen taken before the end covers the table)
  else if (view.is_over && !S.overClosed && !S.heldTrick) nodes.push(overScreen(T, view, c));
  // A finished hand's result goes over the pass screen too: it shows no hand, and nobody takes
  // the device (and sees the next deal) before it is closed.
  const result = summaryBox(T, view, c);
  if (result) nodes.push(result);
  const open = panel(T, view, c);
  if (open) nodes.push(open);
  patch(root, nodes);
  if (focus && !root.contains(document.activeElement)) restoreFocus(root, focus);
  focusTopLayer(root);
}

/** The dialog on top (a panel, a hand's result, the pass screen...) takes the focus on its
 * [autofocus] element when the focus is outside it, so that keys (Enter, Escape, arrows) go to
 * it. (The autofocus attribute alone works once per page, not on dialogs drawn later.) */
function focusTopLayer(root) {
  const layers = root.querySelectorAll(":scope > .overlay, :scope > .pass-screen");
  const top = layers[layers.length - 1];
  if (!top || top.contains(document.activeElement)) return;
  top.querySelector("[autofocus]")?.focus({ preventScroll: true });
}

/** The focused card, suit or action button, as a selector that finds it again after a render. */
function rememberFocus(root) {
  const el = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!el || el === document.body || !root.contains(el)) return null;
  for (const key of ["card", "suit", "action"]) if (el.dataset?.[key]) return `[data-${key}="${el.dataset[key]}"]`;
  return null;
}
function restoreFocus(root, selector) {
  if (!selector) return;
  const el = root.querySelector(selector);
  if (el && !el.disabled) el.focus({ preventScroll: true });
  else root.querySelector(".hand button[data-card]:not([disabled])")?.focus({ preventScroll: true });
}
