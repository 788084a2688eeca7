"""What a person sees of a page, measured in the browser: controls hidden under another element,
a page taller than its window, names cut to an ellipsis. Shared by the layout tests."""

from __future__ import annotations

#: The four windows the layout tests use: a laptop, a tablet, a phone held upright and sideways.
SIZES = [(1280, 800), (768, 1024), (360, 640), (640, 360)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]

#: Every control (field, menu, link, button, label, summary) of ``#main`` that is wholly in sight
#: (inside the window and inside every scrolling box around it) but is not the element found at
#: its centre: something else lies over it, and a click meant for it goes elsewhere. The page is
#: scrolled from top to bottom (its scrolling box, or the document), half a window at a time.
#: The part of the window in which a node can be seen: the window, less whatever each box around
#: it that clips its overflow leaves out.
VISIBLE_BOX_JS = """
  const visibleBox = (el) => {
    let box = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const r = p.getBoundingClientRect();
      box = { left: Math.max(box.left, r.left), top: Math.max(box.top, r.top),
              right: Math.min(box.right, r.right), bottom: Math.min(box.bottom, r.bottom) };
    }
    return box;
  };
"""

COVERED_JS = """(scrollerSelector) => {
  const controls = 'input, select, textarea, summary, label, a, button';""" + VISIBLE_BOX_JS + """
  // (a radio drawn by its label, opacity 0, is clicked through the label)
  const hidden = (el) => getComputedStyle(el).visibility === 'hidden' || getComputedStyle(el).opacity === '0';
  const related = (el, hit) => {
    if (!hit) return false;
    if (el === hit || el.contains(hit) || hit.contains(el)) return true;
    const label = hit.closest('label');
    return !!label && (label.contains(el) || (label.htmlFor && label.htmlFor === el.id));
  };
  const name = (el) => el.id || el.dataset.testid || el.dataset.action
    || `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 24)}"`;
  const found = new Set();
  const check = () => {
    for (const el of document.querySelectorAll('#main :is(' + controls + ')')) {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2 || hidden(el)) continue;
      const box = visibleBox(el);
      const inside = r.left >= box.left - 0.5 && r.top >= box.top - 0.5
        && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5;
      if (!inside) continue;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!related(el, hit)) {
        const by = !hit ? 'nothing'
          : hit.closest('[data-action]')?.dataset.action || `${hit.tagName.toLowerCase()}.${hit.className}`;
        found.add(`${name(el)} under ${by}`);
      }
    }
  };
  const scroller = document.querySelector(scrollerSelector || ':root') || document.scrollingElement;
  for (let y = 0; ; y += Math.max(40, Math.floor(scroller.clientHeight / 2))) {
    scroller.scrollTop = y;
    check();
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
  }
  scroller.scrollTop = 0;
  return [...found].sort();
}"""

#: How far the page reaches past its window: the document's scroll size beyond the window, and
#: the named elements that end outside it (their selector and edges).
OVERFLOW_JS = """(selectors) => {
  const doc = document.scrollingElement;
  const out = { width: doc.scrollWidth - innerWidth, height: doc.scrollHeight - innerHeight, outside: [] };
  for (const selector of selectors) {
    for (const el of document.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
        out.outside.push(`${selector} at ${[r.left, r.top, r.right, r.bottom].map(Math.round).join(',')}`);
      }
    }
  }
  return out;
}"""

#: Texts cut to an ellipsis (their box narrower than their text) among ``selector``'s elements:
#: what was shown and what was written.
CLIPPED_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(el => el.getBoundingClientRect().width > 0 && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.textContent.trim())"""


#: What each player's plate among ``selector``'s shows of its name: the characters wholly in sight
#: (those an ellipsis stands over are not), and the plate's badges that are cut or hidden.
SEEN_NAMES_JS = """(selector) => {""" + VISIBLE_BOX_JS + """
  const ellipsisWidth = (el) => {
    const probe = document.createElement('span');
    probe.textContent = '\u2026';
    el.appendChild(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    return width;
  };
  return [...document.querySelectorAll(selector)].map((plate) => {
    const nameEl = plate.querySelector('.plate-name');
    let seen = '', full = '';
    const walker = document.createTreeWalker(nameEl, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.badge')) continue;
      const holder = node.parentElement;
      const box = visibleBox(node);
      const cut = getComputedStyle(holder).textOverflow === 'ellipsis'
        && holder.scrollWidth > holder.clientWidth + 1;
      const right = box.right - (cut ? ellipsisWidth(holder) : 0);
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        full += node.data[i];
        // (a glyph's box is taller than its line: its middle must be in sight)
        const middle = (r.top + r.bottom) / 2;
        if (r.width && r.left >= box.left - 0.5 && r.right <= right + 0.5 && middle >= box.top
            && middle <= box.bottom) seen += node.data[i];
      }
    }
    const hiddenBadges = [...plate.querySelectorAll('.badge')].filter((b) => {
      const r = b.getBoundingClientRect(), box = visibleBox(b);
      return !r.width || r.left < box.left - 0.5 || r.right > box.right + 0.5;
    }).map((b) => b.textContent.trim());
    return { full, seen: seen.trim(), hiddenBadges };
  });
}"""


#: The language menus whose chosen language is cut ("Englis"): each is compared with a copy of
#: itself holding that one language, free to take the width it needs.
CUT_MENUS_JS = """() => [...document.querySelectorAll('select.lang-select')].filter((menu) => {
  const free = menu.cloneNode(false);
  free.appendChild(menu.selectedOptions[0].cloneNode(true));
  free.style.cssText = 'position:absolute;visibility:hidden;max-width:none;width:auto';
  menu.parentElement.appendChild(free);
  const needs = free.getBoundingClientRect().width;
  free.remove();
  return menu.getBoundingClientRect().width < needs - 1;
}).map((menu) => menu.selectedOptions[0].textContent)"""


def seen_names(page, selector: str) -> list[dict]:
    """What the plates of ``selector`` show of their names (:data:`SEEN_NAMES_JS`)."""
    return page.evaluate(SEEN_NAMES_JS, selector)


def covered(page, scroller: str | None = None) -> list[str]:
    """The controls something else lies over, at any scroll position (:data:`COVERED_JS`)."""
    return page.evaluate(COVERED_JS, scroller)


def overflow(page, *selectors: str) -> dict:
    """How far the page is larger than its window, and which of ``selectors`` end outside it."""
    return page.evaluate(OVERFLOW_JS, list(selectors))
