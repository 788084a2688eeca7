// @ts-check
// "Computer players take the free seats in 42 s": the countdown of a public table waiting for
// players, from the lobby's `fills_at` (docs/protocol.md, "The lobby"; the server's clock is
// taken to be this one's); and any other countdown to a time of this device's clock, in its own
// words (a seat's grace, seats.js). The texts are elements marked data-fills-at; one timer counts
// them all down while there are any on the page.
import { h } from "./dom.js";
import { t } from "./i18n.js";

let timer = null;
/** Each countdown's words (`at` -> text), when not the public table's. */
const words = new WeakMap();

export function fillsText(at) {
  const left = Math.ceil(at - Date.now() / 1000);
  return left > 0 ? t("playnow.fills_in", { n: left }) : t("playnow.fills_now");
}

function tick() {
  const shown = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-fills-at]"));
  for (const el of shown) el.textContent = (words.get(el) || fillsText)(Number(el.dataset.fillsAt));
  if (!shown.length) {
    clearInterval(timer);
    timer = null;
  }
}

/** The countdown's element (`attrs`: its class, test id...; `text`: its words for a time `at`,
 * in seconds of this device's clock); counted down once on the page. */
export function countdown(at, attrs = {}, text = fillsText) {
  timer ??= setInterval(tick, 1000);
  const el = h("span", { ...attrs, dataset: { ...attrs.dataset, fillsAt: at } }, text(at));
  words.set(el, text);
  return el;
}
