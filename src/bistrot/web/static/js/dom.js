// @ts-check
// Tiny DOM helpers: h() builds elements, so every screen is a plain render function.

/**
 * h("button", {class: "x", dataset: {card: "TH"}, onclick: f}, "text", child)
 * Attributes starting with "on" become listeners; `dataset`, `style` (object) and `aria`
 * (object, without the "aria-" prefix) are spread; false/null/undefined values are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) el.dataset[k] = v;
    } else if (key === "style" && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (k.startsWith("--")) el.style.setProperty(k, v);
        else el.style[k] = v;
      }
    } else if (key === "aria") {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) el.setAttribute(`aria-${k}`, v);
    } else if (key === "class") {
      el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, value);
    }
  }
  append(el, children);
  return el;
}

/** A link that the router (`nav`, js/app.js) follows without reloading the page. */
export const navLink = (nav, path, attrs, ...children) => h("a", { href: path, ...attrs,
  onclick: (e) => { e.preventDefault(); nav(path); } }, ...children);

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An inline SVG element from markup we wrote ourselves (icons).
 * @param {string} markup
 * @returns {SVGElement} */
export function svg(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return /** @type {SVGElement} */ (template.content.firstChild);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** Show a short message that goes away by itself (errors, rejects, confirmations). */
export function toast(text, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: ["toast", `toast-${kind}`] }, text);
  box.append(item);
  setTimeout(() => item.classList.add("leaving"), ms);
  setTimeout(() => item.remove(), ms + 400);
}

/** The persistent banner at the top (connection notices). null hides it. */
export function notice(text, kind = "warn") {
  const el = document.getElementById("notice");
  if (!el) return;
  if (!text) {
    el.hidden = true;
    el.textContent = "";
    return;
  }
  el.className = `notice notice-${kind}`;
  el.textContent = text;
  el.hidden = false;
}

/**
 * Put `nodes` in `parent`, keeping every existing node that is already equal, so a re-render
 * that changes nothing does not replace the buttons under the pointer (a click whose press and
 * release land on two different elements would be lost) and does not restart animations.
 * Containers with the same tag and attributes are patched child by child; controls (buttons,
 * inputs, links) are kept when equal and replaced otherwise, so their handlers stay current.
 */
export function patch(parent, nodes) {
  const old = [...parent.childNodes];
  nodes.forEach((node, i) => {
    const current = old[i];
    if (!current) parent.append(node);
    else morph(current, node);
  });
  for (let i = nodes.length; i < old.length; i++) old[i].remove();
}

const CONTROLS = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "A", "svg"]);

function sameShell(a, b) {
  if (a.nodeType !== 1 || b.nodeType !== 1 || a.nodeName !== b.nodeName || CONTROLS.has(a.nodeName)) return false;
  if (a.attributes.length !== b.attributes.length) return false;
  for (const attr of a.attributes) if (b.getAttribute(attr.name) !== attr.value) return false;
  return true;
}

function morph(a, b) {
  if (a.isEqualNode(b)) return;
  if (sameShell(a, b)) patch(a, [...b.childNodes]);
  else a.replaceWith(b);
}
