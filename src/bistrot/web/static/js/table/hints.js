// @ts-check
// Hints in a game against the computer: what the hard player would do from this seat's view,
// asked of the table (the server, or this device's worker) with {"type": "hint"}. Only where the
// table says it allows them (view.table.hints: never with friends, in hot seat or in a
// challenge), and only once the player has switched them on (off by default, remembered in this
// browser: js/store.js). The hint answered is marked on the card, suit or button it names, with
// a line saying it; it is the table's to count, and the end of the game says who used hints.
import { h, svg } from "../dom.js";
import { t } from "../i18n.js";
import { cardPretty } from "../cards.js";
import { hintsOn, setHints } from "../store.js";

const LINE_ID = "hint-line";
// A light bulb, drawn (an emoji would need a font the device may lack).
const BULB = () => svg(`<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M12 2a7 7 0 0 0-4 12.74V17a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1v-2.26A7 7 0 0 0 12 2zm2 11.6V16h-4v-2.4l-.43-.3a5 5 0 1 1 4.86 0zM9 20h6v2H9z"/></svg>`);

/** Whether this page may offer hints at this table: the table allows them and one person holds
 * a seat here (the table refuses them otherwise anyway). */
export const hintsOffered = (T, view) => !!view?.table?.hints && T.seats.length === 1;

/** The top bar's "Hints" switch, where the table allows hints. */
export function hintsSwitch(T, view) {
  if (!hintsOffered(T, view)) return null;
  const on = hintsOn();
  // An icon, as the sound's: the top bar stays on one line on a phone.
  return h("button", { type: "button", class: ["icon-btn", "hints-switch", on && "on"], role: "switch",
    "aria-checked": String(on), "aria-label": t("hint.switch"), dataset: { action: "hints" }, title: t("hint.switch_title"),
    onclick: () => { setHints(!on); T.render(); } }, BULB());
}

/** The elements of the table's `nodes` that `action` names: its cards (else the button of the
 * whole action, as the plain renderer draws one per legal action), its suit, or its button. */
function targets(nodes, action) {
  const [verb, ...args] = action.split(" ");
  const all = (selector) => nodes.flatMap((node) => [...node.querySelectorAll(selector)]);
  if ((verb === "play" || verb === "swap") && args.length) {
    const cards = args.flatMap((card) => all(`button[data-card="${CSS.escape(card)}"]`));
    return cards.length ? cards : all(`[data-action="${CSS.escape(action)}"]`);
  }
  if (verb === "trump" && args.length) return all(`[data-suit="${CSS.escape(args[0])}"]`);
  return all(`[data-action="${CSS.escape(verb)}"]`);
}

/** The hint in words: "play A♥", "choose hearts as trumps", or the label of the button it names. */
function words(action, marked) {
  const [verb, ...args] = action.split(" ");
  if (verb === "play" && args.length) return t("hint.play", { cards: args.map(cardPretty).join(" ") });
  if (verb === "swap" && args.length) return t("hint.swap", { cards: args.map(cardPretty).join(" ") });
  if (verb === "trump" && args.length) return t("hint.trump", { suit: t(`suit.${args[0]}`) });
  const label = marked[0]?.textContent?.trim();
  return label || action;
}

/** The hint bar under the table (the Hint button, key "?", and the hint of this position),
 * marking in the renderer's `tableNodes` what the hint names (before they are patched in); null
 * when hints are not offered or switched off. */
export function hintBar(T, view, tableNodes) {
  const { S } = T;
  if (!hintsOffered(T, view) || !hintsOn() || S.passTo !== null) return null;
  const myTurn = (view.legal || []).length > 0 && !view.is_over;
  const hint = S.hint && S.hint.seq === S.shown?.seq && myTurn ? S.hint : null;
  let line = null;
  if (hint) {
    const marked = targets(tableNodes, hint.action);
    for (const el of marked) {
      el.classList.add("hinted");
      el.setAttribute("aria-describedby", LINE_ID);
    }
    line = h("p", { id: LINE_ID, class: "hint-line", role: "status", dataset: { testid: "hint", action: hint.action } },
      t("hint.says", { action: words(hint.action, marked) }));
  }
  return h("div", { class: "hint-bar" },
    h("button", { type: "button", class: "btn hint-btn", dataset: { action: "hint" },
      disabled: !myTurn || !!S.hintAsk || !!S.pending || S.holding || !!hint,
      title: `${t("hint.ask")} (?)`, onclick: () => T.askHint() }, S.hintAsk ? t("hint.thinking") : t("hint.ask")),
    line);
}

/** The end of the game: who used hints, and how many (the table's result says). */
export function hintsUsed(view, ctx) {
  const used = view.table?.hints_used;
  if (!used || !Object.keys(used).length) return null;
  return h("p", { class: "hints-used", dataset: { testid: "hints-used" } },
    Object.entries(used).map(([seat, n]) => t("over.hints_used", { name: ctx.name(Number(seat)), count: n })).join(" · "));
}
