// @ts-check
// The offline Transport: the same five members as webSocketTransport (transport.js), talking to
// the card room on this device (js/offline-worker.js, bistrot's Python engine under Pyodide)
// instead of the server. The messages are the server's own (state with seq, ack, reject, pong),
// so table.js does not know which one it has.
import { openLocalConnection, onBoot } from "./offline.js";

/** @typedef {import("./protocol-types.js").ServerMessage} ServerMessage */
/** @typedef {import("./protocol-types.js").TransportStatus} TransportStatus */

/**
 * @param {{ table: string, seat?: number | null, since?: number | null }} options
 * @returns {import("./protocol-types.js").Transport}
 */
export function workerTransport({ table, seat = null, since = null }) {
  /** @type {Set<(msg: ServerMessage) => void>} */
  const messageCbs = new Set();
  /** @type {Set<(status: TransportStatus, detail: Record<string, any>) => void>} */
  const statusCbs = new Set();
  let lastSeq = since;
  let closed = false;
  /** @type {(status: TransportStatus, detail?: Record<string, any>) => void} */
  const emitStatus = (status, detail = {}) => { for (const cb of statusCbs) cb(status, detail); };

  const connection = openLocalConnection({
    table, seat, since,
    /** @param {ServerMessage & { seq?: number }} msg */
    onMessage(msg) {
      if (closed) return;
      if (typeof msg.seq === "number" && (lastSeq === null || msg.seq > lastSeq) && msg.type !== "ack") {
        lastSeq = msg.seq;
      }
      for (const cb of messageCbs) cb(msg);
    },
  });
  // Let table.js attach its callbacks before the first status.
  queueMicrotask(() => emitStatus("connecting", { attempt: 0, local: true }));
  connection.opened.then(
    () => {
      if (closed) return;
      emitStatus("open", { local: true });
    },
    (error) => {
      if (closed) return;
      closed = true;
      // 4404: no such table on this device; 4500: the card room of this device could not start.
      emitStatus("closed", { code: error.code === "unknown_table" ? 4404 : 4500, reason: error.code, message: error.message });
    },
  );
  onBoot((state) => {
    if (!state.ok && !closed) {
      closed = true;
      emitStatus("closed", { code: 4500, reason: "offline_failed", message: state.message });
    }
  });

  return {
    send(msg) {
      if (closed) return false;  // the worker keeps messages in order, even before the answer to connect
      connection.send(JSON.stringify(msg)).catch(() => {});
      return true;
    },
    onMessage: (cb) => messageCbs.add(cb),
    onStatus: (cb) => statusCbs.add(cb),
    get lastSeq() { return lastSeq; },
    close() {
      if (closed) return;
      closed = true;
      connection.close();
      emitStatus("closed", {});
    },
  };
}
