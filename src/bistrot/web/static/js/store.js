// @ts-check
// What this browser holds for each table: its seat tokens (or watch key), kept in localStorage
// under the table id. The tokens never go into a page URL.
const PREFIX = "bistrot.table.";

export function loadTable(id) {
  try {
    const raw = localStorage.getItem(PREFIX + id);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

export function saveTable(id, data) {
  try {
    localStorage.setItem(PREFIX + id, JSON.stringify({ ...data, saved: Date.now() }));
  } catch { /* private mode: the table works until the page is closed */ }
  memory[id] = data;
}

const memory = {};
export const tableInMemory = (id) => memory[id] || null;

/** Every table this browser holds something for: [{id, ...what it holds}], the latest saved first. */
export function heldTables() {
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const data = loadTable(key.slice(PREFIX.length));
      if (data) found.push({ ...data, id: key.slice(PREFIX.length) });
    }
  } catch { /* storage may be off */ }
  return found.sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

/** The token this browser holds for a table (what it saved, or null): a seat's, else the watch key. */
export function heldToken(held) {
  return held?.seats?.find((s) => s.token)?.token || held?.watch || null;
}

/** The tables this browser holds a token of that are challenge `id`'s: the ones the challenge was
 * made from (their game is over), then those opened from it, the latest saved first. */
export function challengeTables(id) {
  const held = heldTables().filter((x) => heldToken(x) && (x.challenge === id || x.challenges_made?.includes(id)));
  return [...held.filter((x) => x.challenges_made?.includes(id)), ...held.filter((x) => !x.challenges_made?.includes(id))];
}

export function playerName() {
  try { return localStorage.getItem("bistrot.name") || ""; } catch { return ""; }
}

export function setPlayerName(name) {
  try { localStorage.setItem("bistrot.name", name); } catch { /* ignore */ }
}

/** Keep the storage small: forget tables older than a month. */
export function pruneTables(maxAgeMs = 30 * 24 * 3600 * 1000) {
  try {
    const now = Date.now();
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const data = JSON.parse(localStorage.getItem(key) || "{}");
      if (!data.saved || now - data.saved > maxAgeMs) localStorage.removeItem(key);
    }
  } catch { /* ignore */ }
}

/** Whether hints are switched on (js/table/hints.js): off until the player turns them on. */
export function hintsOn() {
  try { return localStorage.getItem("bistrot.hints") === "on"; } catch { return false; }
}

export function setHints(on) {
  try { localStorage.setItem("bistrot.hints", on ? "on" : "off"); } catch { /* ignore */ }
}
