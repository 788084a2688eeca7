// @ts-check
// What covers the table: the pass-the-device screen of a hot-seat table, the waiting room of a
// friends table, the end of the game, the short summary of a finished hand, and the panels (the
// renderer's, e.g. the last trick, and the keyboard help). The game's part of each comes from
// its renderer (games/index.js).
import { h, navLink } from "../dom.js";
import { t } from "../i18n.js";
import { shareBox } from "../qr.js";
import { challengeComparison } from "../challenge.js";
import { rendererFor } from "../games/index.js";
import { provides } from "../catalog.js";
import { rematch, challenge, startNow, loadComparison } from "./requests.js";
import { shareUrl } from "../sharing.js";
import { chatPanel, hasChat } from "./chat.js";
import { lobbySeats, isCreator } from "./lobby.js";
import { hintsUsed, hintsOffered } from "./hints.js";
import { get } from "../api.js";
import { countdown } from "../countdown.js";
import { dailyOver } from "../daily.js";

/** A modal dialog; a click beside it or on × calls onClose (none: it cannot be closed). */
export function dialog(title, body, onClose, extraClass) {
  return h("div", { class: ["overlay", extraClass], onclick: (e) => { if (e.target === e.currentTarget && onClose) onClose(); } },
    h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
      h("div", { class: "dialog-head" }, h("h2", {}, title),
        onClose && h("button", { type: "button", class: "icon-btn close", "aria-label": t("nav.close"), onclick: onClose }, "×")),
      body));
}

/** The open panel (S.panel: a renderer panel's id, or "help"), or null. */
export function panel(T, view, ctx) {
  const { S } = T;
  if (!S.panel || !view) return null;
  const close = () => { S.panel = null; T.render(); };
  const renderer = rendererFor(view.game);
  if (S.panel === "help") {
    const keys = [...renderer.helpKeys, ...(hintsOffered(T, view) ? ["help.keys_hint"] : [])];
    return dialog(t("help.title"), h("ul", { class: "help" }, keys.map((k) => h("li", {}, t(k)))), close);
  }
  if (S.panel === "chat") return dialog(t("chat.title"), chatPanel(T, ctx), close, "chat-overlay");
  const own = renderer.panels.find((p) => p.id === S.panel);
  return own ? dialog(t(own.title), own.render(view, ctx), close) : null;
}

/** A public table's entry in the lobby (GET /api/lobby: whether it is rated, when computer
 * players take its free seats), asked again whenever its seats change; null until known. */
function listedAs(T, view) {
  const { S } = T;
  const seats = (view.seats || []).map((s) => s.kind).join();
  if (S.listedSeats !== seats) {
    S.listedSeats = seats;
    get(`/api/lobby?game=${encodeURIComponent(view.game)}`).then((answer) => {
      if (S.listedSeats !== seats) return;
      S.listed = (answer.tables || []).find((x) => x.table === T.tableId) || null;
      T.render();
    }, () => {});
  }
  return S.listed || null;
}

/** How a public table (Play now's, the lobby's) starts: by itself when full, or with computer
 * players after a while (the countdown), and whether it is rated. */
function publicStart(T, view, open) {
  const listed = listedAs(T, view);
  return h("div", { class: "public-start", dataset: { testid: "public-start" } },
    h("p", { class: "hint" }, t("lobby.public_starts")),
    listed && h("p", { class: "hint" },
      h("span", { class: ["badge", listed.rated ? "rated" : "unrated"] }, listed.rated ? t("playnow.rated") : t("playnow.unrated")),
      open && listed.fills_at ? [" ", countdown(listed.fills_at, { dataset: { testid: "fills-in" } })] : null));
}

/** A friends table before it starts: the invitation link, the seats and teams (lobby.js), the
 * host's start button; at a public table, how it starts instead. */
export function waitingRoom(T, view, ctx) {
  const { held } = T;
  const open = (view.seats || []).filter((s) => s.kind === "open").length;
  return dialog(t("lobby.title"), h("div", { class: "lobby" },
    h("div", { class: "lobby-main" },
      held.join_url ? shareBox(shareUrl(held.join_url), { title: t("lobby.share"), testId: "join-link" }) : null,
      held.watch_url ? h("details", { class: "watch-link" }, h("summary", {}, t("lobby.watch_link")),
        shareBox(shareUrl(held.watch_url), { testId: "watch-link", localNote: false })) : null,
      lobbySeats(T, view, ctx),
      h("p", {}, t("lobby.waiting_n", { n: open })),
      held.public ? publicStart(T, view, open)
        : isCreator(T) ? h("button", { type: "button", class: "btn primary", dataset: { action: "start" }, onclick: () => startNow(T) },
          t("lobby.start_now")) : h("p", { class: "hint" }, t("lobby.host_starts"))),
    // People waiting for the others talk here; in the game, the top bar's Chat button. Beside
    // or under the rest, which scrolls alone: the box to write in stays in the window.
    hasChat(T) ? h("section", { class: "lobby-chat" }, h("h3", {}, t("chat.title")), chatPanel(T, ctx)) : null),
  null, "lobby-overlay");
}

/** The challenge links the end-of-game dialog has already scrolled to. */
const revealed = new WeakSet();

/** The end of the game: the renderer's title and detail, then rematch, challenge, the game's
 * replay and its analysis (the replay page asked to analyse it: replay.js), home. */
export function overScreen(T, view, ctx) {
  const { S, held, tableId, nav } = T;
  const { title, detail } = rendererFor(view.game).over(view, ctx);
  const seated = held.seats?.length > 0;
  // A daily deal is one attempt, compared with everyone's: its share text and the day's results
  // instead of a rematch or a challenge on cards that others are still to play today.
  const daily = seated && held.daily ? held.daily : null;
  // A club event's board (view.table.event): compared with the other tables' games of its deal,
  // so no rematch and no challenge on it (the server refuses them: event_board); the way back
  // to the event and its next board instead.
  const event = view.table?.event || held.event || null;
  const body = h("div", { class: "over" },
    detail,
    daily && dailyOver(T, view, held.seats[0].seat),
    hintsUsed(view, ctx),
    view.deal_code && h("p", { class: "deal-code" }, t("over.deal_code"), " ", h("code", {}, view.deal_code)),
    h("div", { class: "over-actions" },
      event && navLink(nav, `/e/${encodeURIComponent(event)}`, { class: "btn primary", dataset: { action: "event-back" } },
        t("event.back")),
      seated && !daily && !event && h("button", { type: "button", class: "btn primary", dataset: { action: "rematch" }, onclick: () => rematch(T) },
        view.table?.rematch ? t("over.join_rematch") : t("over.rematch")),
      !seated && view.table?.rematch && held.watch && h("button", { type: "button", class: "btn primary", onclick: () => rematch(T) },
        t("over.watch_rematch")),
      // Once asked for, the challenge's results take the place of its button: in the actions,
      // which stay in the dialog's window (style.css), not below its share box.
      seated && !held.local && !daily && !event && (S.challenge
        ? h("a", { class: "btn see-challenge", href: `/challenge/${S.challenge.id}`,
          onclick: (e) => { e.preventDefault(); nav(`/challenge/${S.challenge.id}`); } }, t("over.see_challenge"))
        : h("button", { type: "button", class: "btn", dataset: { action: "challenge" }, onclick: () => challenge(T) },
          t("over.challenge"))),
      navLink(nav, `/replay/${tableId}`, { class: "btn", dataset: { action: "replay" } }, t("history.replay")),
      provides(view.game, "analysis") &&
        navLink(nav, `/replay/${tableId}#analysis`, { class: "btn", dataset: { action: "analysis" } }, t("replay.analyse")),
      h("button", { type: "button", class: "btn", onclick: () => nav("/") }, t("nav.home"))),
    S.challenge && h("div", { class: "challenge-share", dataset: { testid: "challenge-share" } },
      shareBox(S.challenge.url, { title: t("over.challenge_share"), testId: "challenge-link" })),
    held.challenge && (S.comparison ? challengeComparison(S.comparison, { highlight: tableId })
      : h("p", {}, t("challenge.loading"))));
  if (held.challenge) loadComparison(T);
  if (S.challenge && !revealed.has(S.challenge)) {
    // The link just asked for is below the actions, out of a phone's window: bring it in once.
    revealed.add(S.challenge);
    requestAnimationFrame(() => document.querySelector(".over-overlay .challenge-share")?.scrollIntoView({ block: "nearest" }));
  }
  return dialog(title, body, () => { S.overClosed = true; T.render(); }, "over-overlay");
}

/** Hot seat: the device goes to the next person; nobody's hand is on the page meanwhile. */
export function passScreen(T, ctx) {
  const name = ctx.name(T.S.passTo);
  // Whose turn it is is known once every seat's first state has come (session.js checkPass
  // names them then): a tap before it took the first seat's cards, and the screen came back for
  // the player who was in fact to play.
  const known = T.seats.every((seat) => T.S.latest.has(seat));
  return h("div", { class: "pass-screen", role: "dialog", "aria-modal": "true", "aria-label": t("hotseat.pass_to", { name }),
    dataset: { testid: "pass-screen" } },
  h("div", { class: "pass-card" },
    h("div", { class: "pass-backs", "aria-hidden": "true" }, h("div", { class: "card back" }), h("div", { class: "card back" })),
    h("h2", {}, t("hotseat.pass_to", { name })),
    h("p", {}, t("hotseat.others_look_away")),
    h("button", { type: "button", class: "btn primary big", dataset: { action: "take-seat" }, autofocus: true,
      disabled: !known, onclick: () => T.takeOver() },
      t("hotseat.i_am", { name }))));
}

/** A finished hand's result, between its last trick and the next deal (S.summary, from the
 * renderer's step(); the renderer says what it shows): closed by its button, Enter, Escape, a
 * click beside it, or after a while (session.js, T.nextHand). */
export function summaryBox(T, view, ctx) {
  const { S } = T;
  if (!S.summary) return null;
  const { title, detail } = rendererFor(view.game).summary(view, S.summary, ctx);
  const next = () => T.nextHand();
  const box = dialog(title, h("div", { id: "hand-result", class: "result-box", dataset: { testid: "hand-summary" } },
    detail,
    h("div", { class: "over-actions" },
      h("button", { type: "button", class: "btn primary", dataset: { action: "next-hand" }, autofocus: true, onclick: next },
        t("table.next_hand")))),
  next, "result-overlay");
  box.querySelector(".dialog").setAttribute("aria-describedby", "hand-result");
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    next();
  });
  return box;
}
