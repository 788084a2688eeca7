// @ts-check
// Chat at a table where people play together (friends, hot seat): the messages (each number
// shown once, however often a reconnection brings it again), a mute per player on this device,
// reporting a player to the card room's operator, quick reactions for phones, and the box to
// write in. Spectators read; they do not write. The server's chat protocol is in docs/protocol.md.
import { h, toast } from "../dom.js";
import { t, refusal } from "../i18n.js";
import { post } from "../api.js";
import { loadTable, saveTable } from "../store.js";

/** Modes whose tables have a chat (the server's tablecore/chat.py MODES). */
const MODES = ["friends", "hotseat"];
/** Quick reactions: translated texts sent as they read in the sender's language. */
const REACTIONS = ["chat.r_hello", "chat.r_luck", "chat.r_well_played", "chat.r_thanks", "chat.r_oops"];
const MAX_CHARS = 200;

/** Whether the table has a chat (its mode as the server says, else as this device remembers);
 * not a hot-seat page: everybody is at this one device. */
export const hasChat = (T) => !T.hotseat && MODES.includes(T.S.shown?.view?.table?.mode ?? T.held.mode);

const mutedKey = (T) => `bistrot.muted.${T.tableId}`;
function muted(T) {
  T.S.muted ??= new Set(JSON.parse(localStorage.getItem(mutedKey(T)) || "[]"));
  return T.S.muted;
}

/** The number of the last message this device has shown of the table's chat: kept with the
 * table (js/store.js), so that what was seen stays seen when a reconnection or a reload of the
 * page sends the last messages again. */
function seenUpTo(T) {
  T.S.chatSeen ??= loadTable(T.tableId)?.chat_seen || 0;
  return T.S.chatSeen;
}

/** Every message received so far is seen (the chat is on screen). */
function markSeen(T) {
  const last = Math.max(0, ...(T.S.chat || []).map((m) => m.n));
  if (last <= seenUpTo(T)) return;
  T.S.chatSeen = last;
  const held = loadTable(T.tableId);
  if (held) saveTable(T.tableId, { ...held, chat_seen: last });
}

/** The messages not yet seen, of others not muted here. */
const unreadCount = (T) => (T.S.chat || []).filter((m) => m.n > seenUpTo(T) && !T.seats.includes(m.seat)
  && !muted(T).has(m.seat)).length;

/** A `chat` message from the server (on any of the page's connections). */
export function chatReceived(T, msg) {
  const { S } = T;
  S.chat ??= [];
  if (S.chat.some((m) => m.n === msg.n)) return;  // a reconnection sends the last ones again
  S.chat.push(msg);
  S.chat.sort((a, b) => a.n - b.n);
  if (S.panel === "chat" || S.shown?.view?.table?.status === "waiting") markSeen(T);  // (the lobby shows it)
  T.render();
}

/** The top bar's button (with the count of unread messages), or null at a table without chat. */
export function chatButton(T) {
  if (!hasChat(T)) return null;
  const unread = unreadCount(T);
  return h("button", { type: "button", class: "icon-btn chat-btn", dataset: { action: "chat" },
    "aria-label": unread ? t("chat.title_unread", { n: unread }) : t("chat.title"),
    onclick: () => { markSeen(T); T.openPanel("chat"); } },
  t("chat.title"), unread ? h("span", { class: "chat-unread", dataset: { testid: "chat-unread" } }, String(unread)) : null);
}

function send(T, text) {
  const { S } = T;
  const said = text.trim();
  if (!said) return false;
  const conn = S.conns.get(S.showSeat);
  S.counter += 1;
  return !!conn && conn.send({ type: "chat", id: `c${Date.now().toString(36)}-${S.counter}`, text: said });
}

/** This page's seat token at a table of the server (a report proves its seat with it), or null:
 * a spectator, a table of this device. */
function seatToken(T) {
  if (T.held.local) return null;
  return T.held.seats?.find((s) => s.seat === T.S.showSeat)?.token || null;
}

/** Send the report being written (T.S.reporting): the operator reads it (docs/protocol.md). */
async function sendReport(T, event) {
  event.preventDefault();
  const { S } = T;
  const form = event.currentTarget;
  const reason = form.querySelector("textarea").value.trim();
  const { seat, name } = S.reporting || {};
  if (!reason || seat === undefined) return;
  form.querySelector("button[type=submit]").disabled = true;
  try {
    await post(`/api/tables/${encodeURIComponent(T.tableId)}/report`, { token: seatToken(T), seat, reason });
    (S.reported ??= new Set()).add(seat);
    S.reporting = null;
    toast(t("report.sent", { name }), "ok", 6000);
  } catch (error) {
    if (error.code === "already_reported") (S.reported ??= new Set()).add(seat);
    // (the server's English words repeat what the page's text says)
    S.reporting = { seat, name, error: error.code === "already_reported" ? t("reject.already_reported") : refusal(error) };
  }
  T.render();
  if (!S.reporting) /** @type {HTMLElement | null} */ (document.querySelector(`.chat-line[data-seat="${seat}"] .chat-mute`))?.focus();
}

/** The small form that says why a player is reported. */
function reportForm(T) {
  const { S } = T;
  const { name, error } = S.reporting;
  const cancel = () => {
    const { seat } = S.reporting;
    S.reporting = null;
    T.render();
    /** @type {HTMLElement | null} */ (document.querySelector(`.chat-line[data-seat="${seat}"] [data-action=report]`))?.focus();
  };
  return h("form", { class: "chat-report", dataset: { testid: "report-form" }, onsubmit: (e) => sendReport(T, e),
    onkeydown: (e) => { if (e.key === "Escape") { e.stopPropagation(); cancel(); } } },
  h("h3", {}, t("report.title", { name })),
  h("label", { for: "report-reason" }, t("report.reason")),
  h("textarea", { id: "report-reason", rows: "3", maxlength: "500", required: true, "aria-describedby": "report-hint" }),
  h("p", { class: "hint", id: "report-hint" }, t("report.hint")),
  error ? h("p", { class: "report-error", role: "alert", dataset: { testid: "report-error" } }, error) : null,
  h("div", { class: "chat-report-actions" },
    h("button", { type: "submit", class: "btn primary small", dataset: { action: "send-report" } }, t("report.send")),
    h("button", { type: "button", class: "btn small", onclick: cancel }, t("report.cancel"))));
}

/** The chat panel's body. */
export function chatPanel(T, ctx) {
  const { S } = T;
  markSeen(T);  // (drawn: on screen)
  const off = muted(T);
  const toggle = (seat) => {
    if (off.has(seat)) off.delete(seat); else off.add(seat);
    try { localStorage.setItem(mutedKey(T), JSON.stringify([...off])); } catch { /* private mode */ }
    T.render();
  };
  const reporting = !!seatToken(T);
  const lines = (S.chat || []).map((m) => {
    const who = m.name || ctx.name(m.seat);
    const mine = T.seats.includes(m.seat);
    return h("li", { class: ["chat-line", mine && "mine"], dataset: { n: String(m.n), seat: String(m.seat) } },
      h("span", { class: "chat-name" }, who),
      off.has(m.seat) ? h("span", { class: "chat-text muted" }, t("chat.muted"))
        : h("span", { class: "chat-text" }, m.text),
      mine ? null : h("button", { type: "button", class: "link-btn chat-mute", dataset: { action: "mute" },
        "aria-pressed": String(off.has(m.seat)), onclick: () => toggle(m.seat) },
      off.has(m.seat) ? t("chat.unmute", { name: who }) : t("chat.mute", { name: who })),
      mine || !reporting ? null : S.reported?.has(m.seat)
        ? h("span", { class: "chat-reported" }, t("report.done"))
        : h("button", { type: "button", class: "link-btn chat-mute", dataset: { action: "report" },
          onclick: () => {
            S.reporting = { seat: m.seat, name: who };
            T.render();
            document.getElementById("report-reason")?.focus();
          } }, t("report.action", { name: who })));
  });
  const watching = S.showSeat === null;
  const input = h("input", { type: "text", class: "chat-input", maxlength: String(MAX_CHARS), autocomplete: "off",
    "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder"), dataset: { testid: "chat-input" } });
  const submit = (event) => {
    event.preventDefault();
    // The box on the page (a later render may keep the form, listener and all, and drop the
    // input made with this closure).
    const box = event.currentTarget.querySelector(".chat-input");
    if (send(T, box.value)) box.value = "";
  };
  return h("div", { class: "chat" },
    h("ol", { class: "chat-lines", "aria-live": "polite", dataset: { testid: "chat-lines" } },
      lines.length ? lines : h("li", { class: "chat-empty" }, t("chat.empty"))),
    S.reporting && reporting ? reportForm(T) : null,
    watching ? h("p", { class: "chat-note" }, t("chat.spectators_read")) : [
      h("div", { class: "chat-reactions" }, REACTIONS.map((key) => h("button", { type: "button", class: "btn small",
        dataset: { reaction: key.slice(7) }, onclick: () => send(T, t(key)) }, t(key)))),
      h("form", { class: "chat-form", onsubmit: submit }, input,
        h("button", { type: "submit", class: "btn primary small", dataset: { action: "send-chat" } }, t("chat.send"))),
    ]);
}
