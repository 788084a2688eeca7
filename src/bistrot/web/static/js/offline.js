// @ts-check
// Offline play, on the page's side (docs/offline.md):
//  - installing: when the server offers it (/offline/status), register the service worker
//    /sw.js, which caches the page, Pyodide and the bistrot wheel on this first visit;
//  - the card room on this device: one Web Worker (js/offline-worker.js) running bistrot's own
//    Python engine; tables are opened there when the page is offline or the server unreachable,
//    and reached through workerTransport (js/worker-transport.js), which speaks the server's
//    protocol, so the table page has one code path for both;
//  - saved games: the worker keeps them in IndexedDB; the home page lists their summaries.
import { deleteAnalysis, openAnalysesDb, openDeviceDb, readAnalysis } from "./devicedb.js";
import { saveTable } from "./store.js";

const LOCAL_PREFIX = "local-";
export const isLocalTable = (id) => typeof id === "string" && id.startsWith(LOCAL_PREFIX);

// ---------------------------------------------------------------------------- network state

const listeners = new Set();
/** cb() whenever the network comes or goes, or offline play becomes ready. */
export function onOfflineChange(cb) {
  listeners.add(cb);
  return () => listeners.delete(cb);
}
const changed = () => { for (const cb of listeners) cb(); };
window.addEventListener("online", changed);
window.addEventListener("offline", changed);

/** True when the page cannot reach the server: the browser says so, or a request just failed. */
let unreachable = false;
export const isOffline = () => !navigator.onLine || unreachable;
export function markUnreachable(value = true) {
  if (unreachable !== value) {
    unreachable = value;
    changed();
  }
}
window.addEventListener("online", () => markUnreachable(false));

// ---------------------------------------------------------------------------- installing

export const install = { state: "unknown", message: null, bytes: null };

/** Ask the server whether it offers offline play and, if so, install the service worker. */
export async function setupOffline() {
  if (!("serviceWorker" in navigator)) {
    install.state = "unsupported";
    return;
  }
  const existing = await navigator.serviceWorker.getRegistration("/").catch(() => null);
  if (existing?.active) {
    install.state = "ready";
    changed();
  }
  if (!navigator.onLine) return;
  let status;
  try {
    const response = await fetch("/offline/status", { cache: "no-store" });
    status = await response.json();
  } catch {
    return;  // the server is away: whatever is installed stays
  }
  if (!status.ready) {
    if (install.state !== "ready") {
      install.state = "unavailable";
      install.message = status.message;
      changed();
    }
    return;
  }
  install.bytes = status.bytes;
  try {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/", type: "classic" });
    if (!registration.active) {
      install.state = "installing";
      changed();
    }
    await navigator.serviceWorker.ready;
    install.state = "ready";
    // Ask the browser not to evict the cached files and saved games under storage pressure.
    navigator.storage?.persist?.().catch(() => {});
    changed();
  } catch (error) {
    install.state = "failed";
    install.message = String(error?.message || error);
    changed();
  }
}

// ---------------------------------------------------------------------------- the worker

let worker = null;
let nextId = 0;
const pending = new Map();  // request id -> {resolve, reject, onProgress}
const connections = new Map();  // conn id -> {onMessage}
const bootListeners = new Set();
let booted = null;  // {ok, ms} | {ok: false, message}

/** A worker's reply to a request of `pending`: true if `data` was one. */
function settle(pending, data) {
  if (data.rid === undefined) return false;
  if (data.progress !== undefined) {
    pending.get(data.rid)?.onProgress?.(data.progress);  // a step of a long job: not its answer
    return true;
  }
  const waiting = pending.get(data.rid);
  pending.delete(data.rid);
  if (waiting) {
    if (data.ok) waiting.resolve(data.result);
    else waiting.reject(Object.assign(new Error(data.error.message), { code: data.error.code }));
  }
  return true;
}

function startWorker() {
  if (worker) return worker;
  worker = new Worker("/static/js/offline-worker.js", { type: "module", name: "bistrot-offline" });
  worker.onmessage = (event) => {
    const data = event.data || {};
    if (data.conn !== undefined) {
      connections.get(data.conn)?.onMessage(data.msg);
    } else if (settle(pending, data)) {
      // an answer, or a step of one
    } else if (data.event === "ready" || data.event === "failed") {
      booted = data.event === "ready" ? { ok: true, ms: data.ms } : { ok: false, message: data.message };
      if (booted.ok) console.info(`bistrot: the card room of this device started in ${data.ms} ms`);
      for (const cb of bootListeners) cb(booted);
    } else if (data.event === "error") {
      console.error("bistrot offline worker:", data.message);
    }
  };
  worker.onerror = (event) => {
    booted = { ok: false, message: event.message || "the offline card room could not start" };
    for (const cb of bootListeners) cb(booted);
    for (const [, waiting] of pending) waiting.reject(new Error(booted.message));
    pending.clear();
  };
  return worker;
}

/** Start the worker now (Pyodide takes a few seconds): done as soon as the page is offline. */
export function warmUp() {
  startWorker();
}

/** cb({ok, ms} | {ok: false, message}) once the worker has (or has not) started. */
export function onBoot(cb) {
  if (booted) cb(booted);
  else bootListeners.add(cb);
}

function call(op, args = {}, onProgress = null) {
  startWorker();
  const rid = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(rid, { resolve, reject, onProgress });
    worker.postMessage({ rid, op, ...args });
  });
}

/** Open a table on this device; `request` is the body POST /api/tables would take. */
export async function createLocalTable(request, { names = null } = {}) {
  const answer = await call("create", { request });
  saveTable(answer.table, {
    game: answer.game, mode: answer.mode, seats: answer.seats, local: true, creator: true, names,
  });
  return answer;
}

/** The rematch of a finished table of this device (the same table asked twice gives one). */
export async function localRematch(table) {
  return (await call("rematch", { table })).table;
}

/** A finished game of this device step by step: what GET /api/tables/<id>/replay answers online. */
export const localReplay = (table) => call("replay", { table });

/** The record of a finished game of this device: {record, game}. */
export const localRecord = (table) => call("record", { table });

// The analysis worker (js/analysis-worker.js): started when an analysis is asked for, ended when
// none is left, so its Python is in memory only while it works.
let analyst = null;
const analyses = new Map();  // request id -> {resolve, reject, onProgress}

function analysisCall(job, onProgress) {
  if (!analyst) {
    analyst = new Worker("/static/js/analysis-worker.js", { type: "module", name: "bistrot-analysis" });
    analyst.onmessage = (event) => {
      const data = event.data || {};
      if (!settle(analyses, data) && data.event === "error") console.error("bistrot analysis worker:", data.message);
      if (!analyses.size) {
        analyst.terminate();
        analyst = null;
      }
    };
    analyst.onerror = (event) => {
      const message = event.message || "the analysis could not start";
      for (const [, waiting] of analyses) waiting.reject(new Error(message));
      analyses.clear();
      analyst.terminate();
      analyst = null;
    };
  }
  const rid = ++nextId;
  return new Promise((resolve, reject) => {
    analyses.set(rid, { resolve, reject, onProgress });
    analyst.postMessage({ rid, ...job });
  });
}

/** The analysis of a finished game of this device: the same object as the server's analysis
 * `result` (bistrot.analysis.Analysis.to_dict()). Computed with the built-in solver the first
 * time, in a worker of its own so that play on the device goes on meanwhile, `onProgress({done,
 * total})` after each decision judged; then kept on the device and answered at once. Refused
 * before the end (code not_over). */
export async function localAnalysis(table, onProgress = null) {
  const stored = await localAnalysisStored(table);
  if (stored) return stored;
  const { record } = await call("record", { table });  // the playing worker keeps the games
  return analysisCall({ table, record }, onProgress);
}

/** The analysis of a game of this device if one is kept, else null: read from the device's
 * database at once, without the worker (which may be busy, or not started). */
export async function localAnalysisStored(table) {
  try {
    const d = await openAnalysesDb();
    try {
      return await readAnalysis(d, table);
    } finally {
      d.close();
    }
  } catch {
    return null;
  }
}

/** A connection to a table of this device (see worker-transport.js).
 * @param {{ table: string, seat: number | null, since: number | null,
 *   onMessage: (msg: import("./protocol-types.js").ServerMessage) => void }} options */
export function openLocalConnection({ table, seat, since, onMessage }) {
  const conn = `c${++nextId}`;
  connections.set(conn, { onMessage });
  const opened = call("connect", { conn, table, seat, since });
  return {
    conn,
    opened,
    send: (text) => call("send", { conn, text }),
    close: () => {
      connections.delete(conn);
      call("close", { conn }).catch(() => {});
    },
  };
}

// ---------------------------------------------------------------------------- saved games

/** Summaries of the games of this device (no card, no seed), the latest first. */
export async function savedGames() {
  try {
    const d = await openDeviceDb();
    const all = await new Promise((resolve, reject) => {
      const request = d.transaction("saved").objectStore("saved").getAll();
      request.onsuccess = () => resolve(request.result || []);
      request.onerror = () => reject(request.error);
    });
    d.close();
    return all.sort((a, b) => (b.updated || 0) - (a.updated || 0));
  } catch {
    return [];
  }
}

/** The summary of one saved game, or null. */
export async function savedGame(id) {
  return (await savedGames()).find((g) => g.id === id) || null;
}

/** Forget a saved game of this device. */
export async function forgetGame(id) {
  const d = await openDeviceDb();
  await new Promise((resolve, reject) => {
    const tx = d.transaction(["games", "saved"], "readwrite");
    tx.objectStore("games").delete(id);
    tx.objectStore("saved").delete(id);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  d.close();
  // Its analysis too, if any (a leftover one would only take room: the game is forgotten).
  await openAnalysesDb().then((a) => deleteAnalysis(a, id).finally(() => a.close())).catch(() => {});
}

/** Keep the device's storage small: forget finished games after a month (as store.js does for
 * the seats of online tables); unfinished ones stay until they are finished or forgotten. */
export async function pruneSaved(maxAgeMs = 30 * 24 * 3600 * 1000) {
  const now = Date.now();
  for (const game of await savedGames()) {
    if (game.status === "over" && now - (game.updated || 0) > maxAgeMs) await forgetGame(game.id).catch(() => {});
  }
}

/** What the page keeps for a table of this device, rebuilt from its summary. */
export function heldFromSummary(summary) {
  return {
    game: summary.game, mode: summary.mode, local: true, creator: true,
    seats: summary.seats.filter((s) => s.kind === "human").map((s) => ({ seat: s.seat, token: null })),
  };
}
