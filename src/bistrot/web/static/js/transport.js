// @ts-check
// The page talks to a table through a Transport: an object with
//
//   send(msg)        -> true when handed to the connection, false when it is down
//   onMessage(cb)    cb(msg) for every server message ({type: "state"|"ack"|"reject"|...})
//   onStatus(cb)     cb(status, detail) with status "connecting" | "open" | "reconnecting" | "closed"
//                    ("open" once the server has sent the table's state on the new connection)
//   close()          stop for good
//   lastSeq          the highest event seq seen (sent back as `since` when reconnecting)
//
// Only this file knows about WebSockets. An offline transport (the same Python engine in a Web
// Worker under Pyodide) can implement the same five members and the rest of the page will not
// notice: see docs/web.md.

// The keep-alive of docs/protocol.md: after PING_IDLE_MS without a message the page sends a
// ping; a socket that brings nothing within SILENCE_MS of it is given up (its node, or the node
// holding the table, hangs: behind the proxy the next socket reaches a live one). So is a new
// socket not open within OPEN_MS (the proxy may send it to the hung node again: a live node
// opens it at once), or open without a state within STATE_MS (a live node, slow to load it).
// Right after a silent socket was given up, the next HURRY_TRIES sockets are tried at once and
// given up after OPEN_HURRY_MS: a live node opens one within milliseconds, and each try that the
// proxy sends to the hung node again would otherwise cost OPEN_MS of a 6 s recovery.
const PING_IDLE_MS = 1000;
const SILENCE_MS = 2000;
const OPEN_MS = 3000;
const OPEN_HURRY_MS = 1000;
const HURRY_TRIES = 3;
const STATE_MS = 10000;
const CHECK_MS = 250;
const FOR_GOOD = [4401, 4403, 4404, 4410, 4500];
const SEAT_MOVED = 4409;
const TABLE_MOVED = 1012;

/** @typedef {import("./protocol-types.js").ServerMessage} ServerMessage */
/** @typedef {import("./protocol-types.js").ClientMessage} ClientMessage */
/** @typedef {import("./protocol-types.js").TransportStatus} TransportStatus */

/**
 * @param {{ table: string, token?: string | null, since?: number | null, path?: string }} options
 * @returns {import("./protocol-types.js").Transport}
 */
export function webSocketTransport({ table, token = null, since = null, path = "/ws" }) {
  /** @type {Set<(msg: ServerMessage) => void>} */
  const messageCbs = new Set();
  /** @type {Set<(status: TransportStatus, detail: Record<string, any>) => void>} */
  const statusCbs = new Set();
  /** @type {WebSocket | null} */
  let ws = null;
  let closed = false;
  let attempt = 0;
  let lastSeq = since;
  let pingTimer = null;
  let retryTimer = null;
  let lastHeard = Date.now();
  let pingedAt = null;
  let everOpened = false;
  let hurry = 0;  // tries left at OPEN_HURRY_MS after a silent socket

  /** @type {(status: TransportStatus, detail?: Record<string, any>) => void} */
  const emitStatus = (status, detail = {}) => { for (const cb of statusCbs) cb(status, detail); };

  // The token never goes into the URL (proxies log URLs): the first message carries it.
  function url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}${path}/${encodeURIComponent(table)}`;
  }

  function hello() {
    /** @type {import("./protocol-types.js").HelloMessage} */
    const msg = { type: "hello", token };
    if (lastSeq !== null && lastSeq !== undefined) msg.since = lastSeq;
    return JSON.stringify(msg);
  }

  function connect(quiet = false) {
    if (closed) return;
    emitStatus(everOpened && !quiet ? "reconnecting" : "connecting", { attempt });
    let socket;
    try {
      socket = new WebSocket(url());
    } catch {
      scheduleRetry();
      return;
    }
    ws = socket;
    // Open only once the server has answered the hello with the table's state: behind a proxy
    // the socket may open on a node that then refuses (its table moving, its owner node gone)
    // and closes it, and until then the page is not up to date.
    let served = false;
    let opened = false;
    const openMs = hurry > 0 ? OPEN_HURRY_MS : OPEN_MS;
    if (hurry > 0) hurry -= 1;
    const openedAt = Date.now();
    lastHeard = openedAt;
    pingedAt = null;
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      const now = Date.now();
      const late = !opened ? now - openedAt > openMs : now - openedAt > STATE_MS;
      if (!served ? late : pingedAt !== null && now - pingedAt > SILENCE_MS) {
        // silent: start over without waiting for a close it may never answer
        abandon(socket, served);
      } else if (served && pingedAt === null && now - lastHeard >= PING_IDLE_MS) {
        pingedAt = now;
        send({ type: "ping" });
      }
    }, CHECK_MS);
    socket.onopen = () => {
      opened = true;
      socket.send(hello());  // before anything else the page may send
    };
    socket.onmessage = (event) => {
      lastHeard = Date.now();
      pingedAt = null;
      /** @type {ServerMessage & { seq?: number }} (what the server sent: JSON.parse checks nothing) */
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (typeof msg.seq === "number" && (lastSeq === null || msg.seq > lastSeq) && msg.type !== "ack") {
        lastSeq = msg.seq;
      }
      for (const cb of messageCbs) cb(msg);
      if (!served && msg.type === "state") {
        served = true;
        attempt = 0;
        hurry = 0;
        everOpened = true;
        emitStatus("open");
      }
    };
    socket.onclose = (event) => {
      clearInterval(pingTimer);
      if (ws === socket) ws = null;
      if (closed) return;
      // The server refusing us for good: no seat (4401), another site's page (4403), no table
      // (4404), a table retired (4410) or damaged (4500). Too slow to read (4408), the store
      // down (4503) and the rest are worth another try.
      // Our player moved to another seat before the start (4409): the same token holds the new
      // seat, at once; nothing was lost, so no "connection lost".
      if (event.code === SEAT_MOVED) {
        connect(true);
        return;
      }
      if (FOR_GOOD.includes(event.code)) {
        closed = true;
        emitStatus("closed", { code: event.code, reason: event.reason });
        return;
      }
      // The table moved (1012: its node lost it, or the node it was relayed to stopped
      // answering): another node has it or takes it within a second or two, so hurry too.
      if (event.code === TABLE_MOVED) hurry = HURRY_TRIES;
      scheduleRetry();
    };
    socket.onerror = () => { /* onclose follows */ };
  }

  // `hung`: the socket went silent once served: its node may hang, so the next tries hurry (a
  // live node answers at once). One slow to open (a slow network, or the hung node again) is
  // given up without starting a new hurry.
  function abandon(socket, hung) {
    socket.onclose = socket.onmessage = socket.onerror = null;
    clearInterval(pingTimer);
    if (ws === socket) ws = null;
    try { socket.close(4000, "silent"); } catch { /* already closing */ }
    if (hung) hurry = HURRY_TRIES;
    scheduleRetry();
  }

  function scheduleRetry() {
    if (closed) return;
    attempt += 1;
    // Hurrying, a short jitter only: the others' sockets on the hung node reconnect too, but a
    // live node's answer is cheap, and the table waits for this one.
    const delay = hurry > 0
      ? 50 + Math.random() * 150
      : Math.min(5000, 250 * 2 ** Math.min(attempt, 5)) * (0.8 + Math.random() * 0.4);
    emitStatus("reconnecting", { attempt, delay });
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, delay);
  }

  /** @param {ClientMessage} msg */
  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  const onOnline = () => {
    if (!closed && (!ws || ws.readyState > WebSocket.OPEN)) {
      clearTimeout(retryTimer);
      connect();
    }
  };
  window.addEventListener("online", onOnline);

  connect();

  return {
    send,
    onMessage: (cb) => messageCbs.add(cb),
    onStatus: (cb) => statusCbs.add(cb),
    get lastSeq() { return lastSeq; },
    close() {
      closed = true;
      clearInterval(pingTimer);
      clearTimeout(retryTimer);
      window.removeEventListener("online", onOnline);
      if (ws) ws.close(1000, "bye");
      emitStatus("closed", {});
    },
  };
}
