// @ts-check
// The table's link to its game: one connection per seat held on this device (a WebSocket to the
// server, or the Web Worker of a table of this device: same protocol), the states shown one by
// one in order (so a fast computer's moves are still seen, and a completed trick stays a moment),
// actions sent with an id and answered by ack or reject, resending after a reconnect, and the
// hand-over between the people of a hot-seat table. The page never decides a rule: it shows the
// view it is sent and sends the action clicked.
import { toast, notice } from "../dom.js";
import { t, refusal } from "../i18n.js";
import { webSocketTransport } from "../transport.js";
// Offline play: a table of this device is reached through the worker, with the same protocol.
import { workerTransport } from "../worker-transport.js";
import { play as playSound } from "../sound.js";
import { rendererFor } from "../games/index.js";
import { stepSounds } from "./sounds.js";
import { chatReceived } from "./chat.js";
import { reseated } from "./lobby.js";

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/** How long a finished hand's result stays when nobody closes it (ms). */
const RESULT_MS = 8000;

/** Rejects without an action id that end the page's hopes for this table. */
const FATAL = [
  "bad_token", "missing_token", "unknown_table", "bad_since", "broken_table", "table_expired", "expected_hello",
];
/** Refusals of a connection (no action id) that the transport retries by itself: the connection
 * banner already says so, a toast asking to try again would be wrong. */
const RETRIED = ["table_moving", "node_unreachable", "busy", "storage_error"];

/** @typedef {import("../protocol-types.js").ServerMessage} ServerMessage */
/** @typedef {import("../protocol-types.js").StateMessage} StateMessage */

/** Connect the seats of T.held and start showing states; T.act and T.takeOver are set.
 * `describe(msg)` gives the action log's line for a state message. Returns close(). */
export function openSession(T, { describe }) {
  const { S, held, tableId, seats, hotseat } = T;
  const render = () => T.render();

  // ---------------------------------------------------------------- connections
  const connect = (seat, token) => {
    const conn = held.local ? workerTransport({ table: tableId, seat }) : webSocketTransport({ table: tableId, token });
    S.conns.set(seat, conn);
    conn.onMessage((msg) => onMessage(seat, msg));
    conn.onStatus((status, detail) => onStatus(seat, status, detail));
  };

  function onStatus(seat, status, detail) {
    S.status.set(seat, status);
    const statuses = [...S.status.values()];
    if (status === "closed" && detail.code >= 4400) {
      S.error = S.error || (detail.code === 4404 ? t("error.unknown_table")
        : detail.code === 4500 ? t("offline.failed", { message: detail.message || "" }) : t("error.bad_token"));
      render();
      return;
    }
    if (statuses.some((s) => s === "reconnecting")) {
      if (!S.lost) {
        S.lost = true;
        notice(t("conn.lost"), "warn");
        render();  // the others' presence is no longer known (render.js)
      }
    } else if (statuses.every((s) => s === "open")) {
      if (S.lost) {
        S.lost = false;
        notice(null);
        toast(t("conn.back"), "ok", 2500);
        render();
      }
      if (status === "open" && S.pending && S.pending.seat === seat) {
        // The answer to our last action may have been lost with the connection: the same id
        // gets the same answer again, so resending is safe.
        S.conns.get(seat).send(S.pending.msg);
      }
    }
  }

  /**
   * @param {number | null} seat  the seat whose connection it came on (null: watching)
   * @param {ServerMessage} msg
   */
  function onMessage(seat, msg) {
    if (msg.type === "state") {
      msg.at = Date.now();  // (a seat's grace_left counts from here: seats.js)
      if (reseated(T, seat, msg)) return;  // moved to another seat before the start
      S.latest.set(seat, msg);
      if (seat === S.showSeat) {
        S.queue.push(msg);
        pump();
      }
      if (hotseat) checkPass();
    } else if (msg.type === "chat") {
      chatReceived(T, msg);
    } else if (msg.type === "hint") {
      if (S.hintAsk?.id !== msg.id) return;
      S.hintAsk = null;
      S.hint = { seq: msg.seq, action: msg.action };
      render();
    } else if (msg.type === "ack") {
      // Stored; the page stays busy until the state of that seq is on screen, so the old view's
      // buttons never come back to life in between.
      if (S.pending && S.pending.id === msg.id) {
        S.pending.ackSeq = msg.seq;
        if (S.shown && S.shown.seq >= msg.seq) S.pending = null;
      }
      render();
    } else if (msg.type === "reject") {
      const text = refusal(msg);
      if ((msg.id === null || msg.id === undefined) && FATAL.includes(msg.code)) {
        S.error = text;
        render();
        return;
      }
      if ((msg.id === null || msg.id === undefined) && RETRIED.includes(msg.code)) return;
      if (S.hintAsk && S.hintAsk.id === msg.id) {  // a hint refused: nothing else changes
        S.hintAsk = null;
        toast(text, "error", 5000);
        render();
        return;
      }
      if (S.pending && S.pending.id === msg.id) S.pending = null;
      T.resetUi();
      toast(text, "error", 5000);
      playSound("error");
      render();
    }
  }

  // ---------------------------------------------------------------- hot seat
  function needing() {
    return seats.filter((s) => (S.latest.get(s)?.view?.legal || []).length > 0);
  }
  function checkPass() {
    const waiting = needing();
    if (S.passTo !== null) {
      // Still on the pass screen: make sure it names someone who has something to do.
      if (waiting.length && !waiting.includes(S.passTo)) S.passTo = waiting[0];
      render();
      return;
    }
    if (!waiting.length || waiting.includes(S.showSeat)) return;
    S.passTo = waiting[0];
    T.resetUi();
    render();
  }
  /** The person named on the pass screen has the device: show their seat. */
  T.takeOver = () => {
    const seat = S.passTo;
    S.passTo = null;
    if (seat !== S.showSeat) {
      S.showSeat = seat;
      S.queue = [];
      S.fresh = new Set();
      const latest = S.latest.get(seat);
      if (S.handEnd) {
        // The finished hand stays on the table until its result is closed; the new deal shown
        // then is the new person's.
        if (latest) S.handEnd.msg = latest;
      } else {
        S.heldTrick = null;
        S.shown = latest || S.shown;
      }
    }
    render();
    playSound("turn");
  };

  // ---------------------------------------------------------------- showing states in order
  function pump() {
    if (S.holding || S.destroyed) return;
    /** @type {StateMessage | undefined} */
    const next = S.queue.shift();
    if (!next) return;
    const prev = S.shown;
    const view = next.view;
    const step = prev && next.seq === prev.seq + 1;
    S.fresh = new Set();
    let hold = 0;
    let shown = next;
    if (step && view.game === prev.view.game) {
      const change = rendererFor(view.game).step(prev.view, view);
      S.fresh = change.fresh || new Set();
      if (change.heldTrick) {
        S.heldTrick = change.heldTrick;
        hold = reducedMotion() ? 450 : 1100;
      }
      if (change.summary && change.between) {
        // A hand is over and the next one already dealt: the finished hand stays on the table
        // (its last trick held), then its result, and the new deal only once that is closed.
        shown = { ...next, view: change.between };
        S.handEnd = { msg: next, summary: change.summary, timer: null };
        hold = hold || 1;
      }
    }
    if (next.seq !== prev?.seq) T.resetUi();
    S.shown = shown;
    if (S.pending?.ackSeq !== undefined && next.seq >= S.pending.ackSeq) S.pending = null;
    if (step) stepSounds(T, prev.view, shown.view, next.last);
    S.log = describe(next) || S.log;
    const gap = reducedMotion() ? 0 : 320;
    const wait = hold || (S.queue.length && step && gap);
    S.holding = !!wait;
    render();
    if (wait) {
      T.later(() => {
        if (hold) S.heldTrick = null;
        if (S.handEnd) {
          showResult();
          return;
        }
        S.holding = false;
        render();
        pump();
      }, hold || gap);
    } else {
      pump();
    }
  }

  // ---------------------------------------------------------------- between two hands
  /** The finished hand's result on screen (S.summary), the states after it waiting in the queue
   * until T.nextHand: its button, Enter or Escape, or RESULT_MS (a game against the computer
   * moves on by itself; not while a panel, such as the tricks of that hand, is open). */
  function showResult() {
    S.summary = S.handEnd.summary;
    render();
    const arm = () => {
      S.handEnd.timer = T.later(() => (S.panel ? arm() : T.nextHand()), RESULT_MS);
    };
    arm();
  }

  /** Close the hand's result and show the next deal. */
  T.nextHand = () => {
    const end = S.handEnd;
    if (!end) return;
    if (end.timer !== null) {
      clearTimeout(end.timer);
      S.timers.delete(end.timer);
    }
    const before = S.shown;
    S.handEnd = null;
    S.summary = null;
    S.heldTrick = null;
    S.holding = false;
    S.shown = end.msg;
    if (before) stepSounds(T, before.view, end.msg.view, null);
    render();
    pump();
  };

  // ---------------------------------------------------------------- acting
  /** Send `action` for the seat on screen; the page is busy until it is answered and shown. */
  T.act = (action) => {
    if (!action || S.pending || S.holding) return;
    const seat = S.showSeat;
    const conn = S.conns.get(seat);
    S.counter += 1;
    const id = `${Date.now().toString(36)}-${S.counter}`;
    const msg = { type: "act", id, action, seq: S.shown?.seq };
    if (!conn || !conn.send(msg)) {
      toast(t("conn.not_sent"), "error");
      return;
    }
    S.pending = { id, action, seat, msg };
    render();
  };

  /** Ask the table for a hint for the seat on screen (js/table/hints.js shows the answer). */
  T.askHint = () => {
    if (S.hintAsk || S.pending) return;
    const conn = S.conns.get(S.showSeat);
    S.counter += 1;
    const id = `hint-${Date.now().toString(36)}-${S.counter}`;
    if (!conn || !conn.send({ type: "hint", id })) {
      toast(t("conn.not_sent"), "error");
      return;
    }
    S.hintAsk = { id };
    render();
  };

  if (held.seats?.length) for (const { seat, token } of held.seats) connect(seat, token);
  else connect(null, held.watch);

  return () => {
    for (const conn of S.conns.values()) conn.close();
    notice(null);
  };
}
