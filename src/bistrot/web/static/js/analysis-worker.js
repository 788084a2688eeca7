// @ts-check
// The analysis of a finished game of this device, in a Web Worker of its own beside the one that
// plays (js/offline-worker.js): under Pyodide an Omi hand takes seconds to judge, and in the
// playing worker every move of every table of the device would wait for it. js/offline.js starts
// this worker when an analysis is asked for and ends it when none is left to run.
//
// Page -> worker: {rid, table, record}, the record given by the playing worker (which refuses it
// before the end: it shows every hand). Worker -> page: {rid, progress: {done, total}} after each
// decision judged, then {rid, ok, result|error}; {event: "error", message} when the analysis
// could not be kept. The result is kept in IndexedDB "bistrot-analyses" (js/devicedb.js).

import { openAnalysesDb, readAnalysis, writeAnalysis } from "./devicedb.js";
import { bootPyodide } from "./pyodide-boot.js";

const analyzeRecord = bootPyodide().then((pyodide) => {
  pyodide.runPython("from bistrot.local import JsonRoom");
  return pyodide.globals.get("JsonRoom").analyze_record;
});

async function kept(table, write = null) {
  const d = await openAnalysesDb();
  try {
    return write ? await writeAnalysis(d, table, write) : await readAnalysis(d, table);
  } finally {
    d.close();
  }
}

async function analyse({ rid, table, record }) {
  const stored = await kept(table).catch(() => null);  // asked twice at once: computed once
  if (stored) return stored;
  const run = await analyzeRecord;
  const answer = JSON.parse(run(record, (done, total) => postMessage({ rid, progress: { done, total } })));
  if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  try {
    await kept(table, answer);
  } catch (error) {  // not kept (storage full, private browsing): still the answer
    postMessage({ event: "error", message: `the analysis could not be saved on this device: ${error?.message || error}` });
  }
  return answer;
}

// One analysis at a time, in the order asked.
let queue = Promise.resolve();
self.onmessage = (event) => {
  const job = event.data || {};
  queue = queue.then(async () => {
    try {
      postMessage({ rid: job.rid, ok: true, result: await analyse(job) });
    } catch (error) {
      postMessage({ rid: job.rid, ok: false, error: { code: error.code || "offline_error", message: String(error.message || error) } });
    }
  });
};
