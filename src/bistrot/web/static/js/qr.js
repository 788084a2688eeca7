// @ts-check
// QR codes drawn locally by the vendored qrcode-generator (MIT), as inline SVG.
import qrcode from "../vendor/qrcode-generator/qrcode.mjs";
import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { toast } from "./dom.js";
import { linksLocalOnly } from "./sharing.js";

export function qrSvg(text, label) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const el = svg(qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true }));
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label || text);
  el.classList.add("qr");
  return el;
}

/** Copy `text` to the clipboard, saying so; where the browser refuses, select it in `field`
 * (an input or textarea showing it) for the person to copy. */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("share.copied"));
  } catch {
    field.select();
    toast(t("share.copy_manually"));
  }
}

/** A share box: the link as text, a copy button, its QR code, and (`localNote`) a word when
 * the link opens on this machine only.
 * @param {string} url
 * @param {{ title?: string, testId?: string, localNote?: boolean }} [options] */
export function shareBox(url, { title, testId, localNote = true } = {}) {
  const input = h("input", { class: "share-link", type: "text", readonly: true, value: url,
    "aria-label": title || t("share.link"), dataset: { testid: testId || "share-link" },
    onfocus: (e) => e.target.select() });
  const copy = h("button", { type: "button", class: "btn small", onclick: () => copyText(url, input) }, t("share.copy"));
  return h("div", { class: "share" },
    title && h("p", { class: "share-title" }, title),
    h("div", { class: "share-row" }, input, copy),
    localNote && linksLocalOnly() && h("p", { class: "share-note", dataset: { testid: "share-local-only" } }, t("share.local_only")),
    h("div", { class: "qr-box" }, qrSvg(url, t("share.qr_label"))));
}
