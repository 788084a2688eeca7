// Chat at a table where people play together (friends, hot seat): the messages (each number
// shown once, however often a reconnection brings it again), a mute per player on this device,
// quick reactions for phones, and the box to write in. Spectators read; they do not write.
// The server's chat protocol is in docs/protocol.md.
import { h } from "../dom.js";
import { t } from "../i18n.js";

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

/** A `chat` message from the server (on any of the page's connections). */
export function chatReceived(T, msg) {
  const { S } = T;
  S.chat ??= [];
  if (S.chat.some((m) => m.n === msg.n)) return;  // a reconnection sends the last ones again
  S.chat.push(msg);
  S.chat.sort((a, b) => a.n - b.n);
  const mine = T.seats.includes(msg.seat);
  const shown = S.panel === "chat" || S.shown?.view?.table?.status === "waiting";  // (the lobby shows it)
  if (!shown && !mine && !muted(T).has(msg.seat)) S.chatUnread = (S.chatUnread || 0) + 1;
  T.render();
}

/** The top bar's button (with the count of unread messages), or null at a table without chat. */
export function chatButton(T) {
  if (!hasChat(T)) return null;
  const unread = T.S.chatUnread || 0;
  return h("button", { type: "button", class: "icon-btn chat-btn", dataset: { action: "chat" },
    "aria-label": unread ? t("chat.title_unread", { n: unread }) : t("chat.title"),
    onclick: () => { T.S.chatUnread = 0; T.openPanel("chat"); } },
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

/** The chat panel's body. */
export function chatPanel(T, ctx) {
  const { S } = T;
  const off = muted(T);
  const toggle = (seat) => {
    if (off.has(seat)) off.delete(seat); else off.add(seat);
    try { localStorage.setItem(mutedKey(T), JSON.stringify([...off])); } catch { /* private mode */ }
    T.render();
  };
  const lines = (S.chat || []).map((m) => {
    const who = m.name || ctx.name(m.seat);
    const mine = T.seats.includes(m.seat);
    return h("li", { class: ["chat-line", mine && "mine"], dataset: { n: String(m.n), seat: String(m.seat) } },
      h("span", { class: "chat-name" }, who),
      off.has(m.seat) ? h("span", { class: "chat-text muted" }, t("chat.muted"))
        : h("span", { class: "chat-text" }, m.text),
      mine ? null : h("button", { type: "button", class: "link-btn chat-mute", dataset: { action: "mute" },
        "aria-pressed": String(off.has(m.seat)), onclick: () => toggle(m.seat) },
      off.has(m.seat) ? t("chat.unmute", { name: who }) : t("chat.mute", { name: who })));
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
    watching ? h("p", { class: "chat-note" }, t("chat.spectators_read")) : [
      h("div", { class: "chat-reactions" }, REACTIONS.map((key) => h("button", { type: "button", class: "btn small",
        dataset: { reaction: key.slice(7) }, onclick: () => send(T, t(key)) }, t(key)))),
      h("form", { class: "chat-form", onsubmit: submit }, input,
        h("button", { type: "submit", class: "btn primary small", dataset: { action: "send-chat" } }, t("chat.send"))),
    ]);
}
