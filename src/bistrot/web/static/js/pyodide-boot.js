// @ts-check
// Pyodide with bistrot's wheel unpacked, for the workers of this device: the one that plays
// (js/offline-worker.js) and the one that analyses finished games (js/analysis-worker.js). The
// files come from the service worker's cache when offline (docs/offline.md).

/** A Pyodide instance that can import bistrot. */
export async function bootPyodide() {
  const config = await (await fetch("/offline/config.json")).json();
  const { loadPyodide } = await import(config.pyodide + "pyodide.mjs");
  const [pyodide, wheel] = await Promise.all([
    loadPyodide({ indexURL: config.pyodide, fullStdLib: false }),
    fetch(config.wheel).then((r) => {
      if (!r.ok) throw new Error(`cannot load ${config.wheel}: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  pyodide.unpackArchive(wheel, "wheel");
  return pyodide;
}
