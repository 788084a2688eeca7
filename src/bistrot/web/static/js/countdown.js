// "Computer players take the free seats in 42 s": the countdown of a public table waiting for
// players, from the lobby's `fills_at` (docs/protocol.md, "The lobby"; the server's clock is
// taken to be this one's). The texts are elements marked data-fills-at; one timer counts them all
// down while there are any on the page.
import { h } from "./dom.js";
import { t } from "./i18n.js";

let timer = null;

export function fillsText(at) {
  const left = Math.ceil(at - Date.now() / 1000);
  return left > 0 ? t("playnow.fills_in", { n: left }) : t("playnow.fills_now");
}

function tick() {
  const shown = document.querySelectorAll("[data-fills-at]");
  for (const el of shown) el.textContent = fillsText(Number(el.dataset.fillsAt));
  if (!shown.length) {
    clearInterval(timer);
    timer = null;
  }
}

/** The countdown's element (`attrs`: its class, test id...); counted down once on the page. */
export function countdown(at, attrs = {}) {
  timer ??= setInterval(tick, 1000);
  return h("span", { ...attrs, dataset: { ...attrs.dataset, fillsAt: at } }, fillsText(at));
}
