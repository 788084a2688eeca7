// @ts-check
// What one table page keeps between renders, in one object shared by the parts of the table
// (session.js, render.js, overlays.js, keyboard.js, requests.js): one place to read what the
// page knows, and timers that die with the page.

/** @typedef {import("../protocol-types.js").StateMessage} StateMessage */

/**
 * @param {string} tableId
 * @param {object} held  what this device holds for the table (js/store.js): seats and tokens,
 *   or a watch token; mode, names, links, local (a table of this device)
 * @param {(path: string, options?: object) => void} nav  the router's navigation
 */
export function tableState(tableId, held, nav) {
  const seats = (held.seats || []).map((s) => s.seat);
  const hotseat = seats.length > 1;
  const S = {
    // By seat (null: watching): its connection, the connection's status, the latest state.
    conns: /** @type {Map<number | null, import("../protocol-types.js").Transport>} */ (new Map()),
    status: /** @type {Map<number | null, import("../protocol-types.js").TransportStatus>} */ (new Map()),
    latest: /** @type {Map<number | null, StateMessage>} */ (new Map()),
    shown: /** @type {StateMessage | null} */ (null), showSeat: seats.length ? seats[0] : null,
    passTo: hotseat ? seats[0] : null,
    queue: /** @type {StateMessage[]} */ ([]), holding: false, heldTrick: null, fresh: new Set(),
    pending: null, ui: { selected: new Set(), swapPick: null },
    panel: null, summary: null, overClosed: false, challenge: null, comparison: null,
    error: null, lost: false, log: "", destroyed: false, counter: 0, timers: new Set(),
    hint: null, hintAsk: null,  // the hint shown ({seq, action}), the hint asked ({id}) not yet answered
  };
  const T = {
    tableId, held, nav, seats, hotseat, S,
    /** setTimeout that never fires after the page has left the table. */
    later(fn, ms) {
      const id = setTimeout(() => { S.timers.delete(id); if (!S.destroyed) fn(); }, ms);
      S.timers.add(id);
      return id;
    },
    /** Forget the cards picked for a play or a swap (a new state, a rejected action). */
    resetUi() {
      S.ui.selected = new Set();
      S.ui.swapPick = null;
    },
    // Filled in by openTable (js/table.js) with the parts' functions.
    render: () => {},
    act: () => {},
    askHint: () => {},
    takeOver: () => {},
    openPanel: () => {},
  };
  return T;
}
