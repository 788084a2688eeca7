// @ts-check
// The card room on this device: a Web Worker running bistrot's own Python engine, bots and
// local table (bistrot.local) under Pyodide, and keeping the games in IndexedDB.
//
// The page talks to it through js/offline.js; the messages a connection receives are exactly
// the server's (docs/protocol.md), built in Python from the engine's view of that seat. The
// worker only does I/O: it routes the messages, stores the games and keeps the computer's pause
// with timers. Everything a table decides (rules, seats, acks, who moves and when) is the Python
// table core's (bistrot.tablecore), the very one the server hosts.
//
// Page -> worker: {rid, op: "create"|"rematch"|"connect"|"send"|"close"|"replay"|"record", ...}
// Worker -> page: {rid, ok, result|error} answers and {conn, msg} protocol messages. A finished
// game's analysis runs in a worker of its own (js/analysis-worker.js), so play never waits for it.
//
// IndexedDB "bistrot": store "games" holds each game's record (rules, SEED, seats, actions: it
// reveals every hand, so only this worker reads it), store "saved" a summary without cards or
// seed for the home page's list (js/devicedb.js).

import { openDeviceDb } from "./devicedb.js";
import { bootPyodide } from "./pyodide-boot.js";

let room = null;              // the Python JsonRoom
let booting = null;           // the promise of Pyodide + bistrot being ready
const conns = new Map();      // conn id -> table id
const botTimers = new Map();  // table id -> true while a computer move is under way
const lastChange = new Map(); // table id -> time of the last stored action

// ---------------------------------------------------------------------------- IndexedDB

let dbPromise = null;  // one connection for the worker's life
const db = () => (dbPromise ??= openDeviceDb());

async function storeRecords(items) {
  if (!items.length) return;
  const d = await db();
  await new Promise((resolve, reject) => {
    const tx = d.transaction(["games", "saved"], "readwrite");
    const now = Date.now();
    for (const { record, summary } of items) {
      tx.objectStore("games").put(record);
      tx.objectStore("saved").put({ ...summary, updated: now });
    }
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

async function loadRecord(id) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const request = d.transaction("games").objectStore("games").get(id);
    request.onsuccess = () => resolve(request.result || null);
    request.onerror = () => reject(request.error);
  });
}

// ---------------------------------------------------------------------------- Pyodide

async function boot() {
  const started = performance.now();
  const pyodide = await bootPyodide();
  pyodide.runPython("from bistrot.local import JsonRoom\nroom = JsonRoom(browser=True)");
  room = pyodide.globals.get("room");
  return Math.round(performance.now() - started);
}

function ready() {
  if (!booting) booting = boot();
  return booting;
}

// ---------------------------------------------------------------------------- the room

function parse(text) {
  const answer = JSON.parse(text);
  if (answer && answer.error) {
    const error = /** @type {Error & { code?: string }} */ (new Error(answer.error.message));
    error.code = answer.error.code;
    throw error;
  }
  return answer;
}

function deliver(out) {
  for (const [conn, msg] of out || []) if (conns.has(conn)) postMessage({ conn, msg });
}

async function persist() {
  const items = JSON.parse(room.dirty());
  await storeRecords(items);
  const now = performance.now();
  for (const { record } of items) lastChange.set(record.id, now);
  return items.map((i) => i.record.id);
}

// Every job that enters the Python room runs through this queue, one at a time and in order, so
// that the answers and states of one action are all delivered before the next action starts.
let queue = Promise.resolve();
function enqueue(job) {
  const done = queue.then(job);
  queue = done.catch(() => {});
  return done;
}

function reportError(error) {
  postMessage({ event: "error", message: String(error?.message || error) });
}

/** A computer seat is to play at `table`: think now, play when the table's pause is over (the
 * server does the same: the pause counts from the last stored action). */
function scheduleBot(table) {
  if (botTimers.has(table)) return;
  const turn = JSON.parse(room.bot_turn(table));
  if (!turn) return;
  botTimers.set(table, true);
  setTimeout(() => enqueue(async () => {
    const action = JSON.parse(room.bot_choose(table, turn.seq));
    if (action === null) {  // the table moved on meanwhile: think again
      botTimers.delete(table);
      scheduleBot(table);
      return;
    }
    const due = (lastChange.get(table) || 0) + turn.delay_ms;
    setTimeout(() => enqueue(async () => {
      botTimers.delete(table);
      const { out } = parse(room.bot_play(table, turn.seq, action));
      await afterChange(out);
      scheduleBot(table);
    }).catch(reportError), Math.max(0, due - performance.now()));
  }).catch((error) => { botTimers.delete(table); reportError(error); }), 0);
}

async function afterChange(out) {
  let changed = [];
  try {
    changed = await persist();
  } catch (error) {
    // The device refused to store (full, or private browsing): the game goes on in this page,
    // it just cannot be resumed after closing it.
    reportError(`the game could not be saved on this device: ${error?.message || error}`);
    changed = [...new Set(out.map(([conn]) => conns.get(conn)).filter(Boolean))];
  }
  deliver(out);
  for (const table of changed) scheduleBot(table);
}

async function ensureTable(table) {
  if (room.has(table)) return;
  const record = await loadRecord(table);
  if (!record) {
    const error = /** @type {Error & { code?: string }} */ (new Error("there is no saved game with this id on this device"));
    error.code = "unknown_table";
    throw error;
  }
  parse(room.load(JSON.stringify(record)));
}

const ops = {
  async create({ request }) {
    const answer = parse(room.create(JSON.stringify(request), Date.now() / 1000));
    await afterChange([]);
    return answer;
  },
  async rematch({ table }) {
    await ensureTable(table);
    const answer = parse(room.rematch(table, Date.now() / 1000));
    await afterChange(answer.out);
    return { table: answer.table };
  },
  async connect({ conn, table, seat, since }) {
    await ensureTable(table);
    const { out } = parse(room.connect(conn, table, seat ?? -1, since ?? -1));
    conns.set(conn, table);
    deliver(out);
    scheduleBot(table);
    return { ok: true };
  },
  async send({ conn, text }) {
    if (!conns.has(conn)) return { sent: false };
    const { out } = parse(room.receive(conn, text));
    await afterChange(out);
    return { sent: true };
  },
  async close({ conn }) {
    conns.delete(conn);
    room?.disconnect(conn);
    return { ok: true };
  },
  // A finished game step by step, and its record (refused before the end: they show every hand).
  async replay({ table }) {
    await ensureTable(table);
    return parse(room.replay(table));
  },
  async record({ table }) {
    await ensureTable(table);
    return parse(room.record(table));
  },
  async boot() {
    return { ms: await ready() };
  },
};

self.onmessage = (event) => {
  const { rid, op, ...args } = event.data || {};
  enqueue(async () => {
    try {
      await ready();
      const result = await ops[op](args, rid);
      if (rid !== undefined) postMessage({ rid, ok: true, result });
    } catch (error) {
      if (rid !== undefined) {
        postMessage({ rid, ok: false, error: { code: error.code || "offline_error", message: String(error.message || error) } });
      }
    }
  });
};
ready().then(
  (ms) => postMessage({ event: "ready", ms }),
  (error) => postMessage({ event: "failed", message: String(error?.message || error) }),
);
