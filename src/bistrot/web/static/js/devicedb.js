// The device's IndexedDB "bistrot", opened in one place for the page (js/offline.js) and the
// offline worker (js/offline-worker.js), so that both always agree on its name, version and
// stores: "games" (each game's full record: only the worker reads it) and "saved" (summaries
// without cards or seed, for the home page's list).

const DB_NAME = "bistrot";
const DB_VERSION = 1;

/** A new connection to the database, creating its stores the first time. */
export function openDeviceDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const d = request.result;
      if (!d.objectStoreNames.contains("games")) d.createObjectStore("games", { keyPath: "id" });
      if (!d.objectStoreNames.contains("saved")) d.createObjectStore("saved", { keyPath: "id" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
