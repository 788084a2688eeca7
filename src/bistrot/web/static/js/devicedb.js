// @ts-check
// The device's IndexedDB databases, opened in one place for the page (js/offline.js) and the
// offline worker (js/offline-worker.js), so that both always agree on their names, versions and
// stores:
//  - "bistrot": "games" (each game's full record: only the worker reads it) and "saved"
//    (summaries without cards or seed, for the home page's list);
//  - "bistrot-analyses": "analyses", the analysis of a finished game, computed once by the worker
//    (it shows every hand, but only a finished game gets one). A database of its own rather than
//    a new version of "bistrot": a tab still running the older page holds "bistrot" open, and
//    would block that upgrade until it is closed.

const DB_NAME = "bistrot";
const DB_VERSION = 1;
const ANALYSES_DB = "bistrot-analyses";
const ANALYSES_VERSION = 1;

function open(name, version, stores) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onupgradeneeded = () => {
      const d = request.result;
      for (const store of stores) if (!d.objectStoreNames.contains(store)) d.createObjectStore(store, { keyPath: "id" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** A new connection to the database of the games, creating its stores the first time. */
export const openDeviceDb = () => open(DB_NAME, DB_VERSION, ["games", "saved"]);

/** A new connection to the database of the analyses, creating its store the first time. */
export const openAnalysesDb = () => open(ANALYSES_DB, ANALYSES_VERSION, ["analyses"]);

/** The stored analysis of the finished game `id` (Analysis.to_dict()), or null. */
export function readAnalysis(d, id) {
  return new Promise((resolve, reject) => {
    const request = d.transaction("analyses").objectStore("analyses").get(id);
    request.onsuccess = () => resolve(request.result?.analysis ?? null);
    request.onerror = () => reject(request.error);
  });
}

/** Keep the analysis of the finished game `id`. */
export function writeAnalysis(d, id, analysis) {
  return changeAnalysis(d, (store) => store.put({ id, analysis, stored: Date.now() }));
}

/** Forget the analysis of the game `id` (with the game). */
export function deleteAnalysis(d, id) {
  return changeAnalysis(d, (store) => store.delete(id));
}

function changeAnalysis(d, change) {
  return new Promise((resolve, reject) => {
    const tx = d.transaction("analyses", "readwrite");
    change(tx.objectStore("analyses"));
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}
