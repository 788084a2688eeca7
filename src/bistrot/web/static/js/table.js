// A table: connections, the queue of states shown one by one (so a fast computer's moves are
// still seen), hot seat hand-over, overlays (waiting room, hand summary, end of game), keyboard.
// The page never decides a rule: it shows the view it is sent and sends the action clicked.
import { h, clear, toast, notice, patch, $$ } from "./dom.js";
import { t, language, LANGUAGES, setLanguage } from "./i18n.js";
import { cardName, cardPretty } from "./cards.js";
import { webSocketTransport } from "./transport.js";
// Offline play: a table of this device is reached through the worker, with the same protocol.
import { workerTransport } from "./worker-transport.js";
import { localRematch } from "./offline.js";
import { post, get } from "./api.js";
import { play as playSound, soundOn, setSound } from "./sound.js";
import { renderOmi, omiScore, describeResult, lastTrickPanel, resultsTable, sideName } from "./omi.js";
import { renderOti, describeOtiEvent } from "./oti.js";
import { saveTable } from "./store.js";
import { shareBox } from "./qr.js";
import { challengeComparison } from "./challenge.js";

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
const absolute = (url) => new URL(url, location.origin).href;

/** Completed Omi tricks since the start of the match (to spot the state that ends a trick). */
function tricksDone(view) {
  return (view.results || []).length * 8 + (view.tricks || []).length;
}

export function openTable(root, tableId, held, nav) {
  const seats = (held.seats || []).map((s) => s.seat);
  const hotseat = seats.length > 1;
  const S = {
    conns: new Map(), status: new Map(), latest: new Map(),
    shown: null, showSeat: seats.length ? seats[0] : null,
    passTo: hotseat ? seats[0] : null,
    queue: [], holding: false, heldTrick: null, fresh: new Set(),
    pending: null, ui: { selected: new Set(), swapPick: null },
    panel: null, summary: null, overClosed: false, challenge: null, comparison: null,
    error: null, lost: false, log: "", destroyed: false, counter: 0, timers: new Set(),
  };
  const later = (fn, ms) => {
    const id = setTimeout(() => { S.timers.delete(id); if (!S.destroyed) fn(); }, ms);
    S.timers.add(id);
    return id;
  };

  // ---------------------------------------------------------------- connections
  const connect = (seat, token) => {
    const conn = held.local ? workerTransport({ table: tableId, seat }) : webSocketTransport({ table: tableId, token });
    S.conns.set(seat, conn);
    conn.onMessage((msg) => onMessage(seat, msg));
    conn.onStatus((status, detail) => onStatus(seat, status, detail));
  };
  if (held.seats?.length) for (const { seat, token } of held.seats) connect(seat, token);
  else connect(null, held.watch);

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
      }
    } else if (statuses.every((s) => s === "open")) {
      if (S.lost) {
        S.lost = false;
        notice(null);
        toast(t("conn.back"), "ok", 2500);
      }
      if (status === "open" && S.pending && S.pending.seat === seat) {
        // The answer to our last action may have been lost with the connection: the same id
        // gets the same answer again, so resending is safe.
        S.conns.get(seat).send(S.pending.msg);
      }
    }
  }

  function onMessage(seat, msg) {
    if (msg.type === "state") {
      S.latest.set(seat, msg);
      if (seat === S.showSeat) {
        S.queue.push(msg);
        pump();
      }
      if (hotseat) checkPass();
    } else if (msg.type === "ack") {
      // Stored; the page stays busy until the state of that seq is on screen, so the old view's
      // buttons never come back to life in between.
      if (S.pending && S.pending.id === msg.id) {
        S.pending.ackSeq = msg.seq;
        if (S.shown && S.shown.seq >= msg.seq) S.pending = null;
      }
      render();
    } else if (msg.type === "reject") {
      const text = rejectText(msg);
      if (msg.id === null || msg.id === undefined) {
        if (["bad_token", "missing_token", "unknown_table", "bad_since"].includes(msg.code)) {
          S.error = text;
          render();
          return;
        }
      }
      if (S.pending && S.pending.id === msg.id) S.pending = null;
      resetUi();
      toast(text, "error", 5000);
      playSound("error");
      render();
    }
  }

  function rejectText(msg) {
    const key = `reject.${msg.code}`;
    const known = t(key);
    if (known !== key) return msg.message && !["not_your_turn", "rate_limited", "busy", "spectator", "not_started"].includes(msg.code)
      ? `${known} (${msg.message})` : known;
    return msg.message || msg.code;
  }

  function resetUi() {
    S.ui.selected = new Set();
    S.ui.swapPick = null;
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
    resetUi();
    render();
  }
  function takeOver() {
    const seat = S.passTo;
    S.passTo = null;
    if (seat !== S.showSeat) {
      S.showSeat = seat;
      S.queue = [];
      S.heldTrick = null;
      S.fresh = new Set();
      S.shown = S.latest.get(seat) || S.shown;
    }
    render();
    playSound("turn");
  }

  // ---------------------------------------------------------------- showing states in order
  function pump() {
    if (S.holding || S.destroyed) return;
    const next = S.queue.shift();
    if (!next) return;
    const prev = S.shown;
    const view = next.view;
    const step = prev && next.seq === prev.seq + 1;
    S.fresh = new Set();
    let hold = 0;
    if (step && view.game === "omi" && prev.view.game === "omi") {
      const before = new Set(prev.view.trick.map((p) => p.card));
      for (const p of view.trick) if (!before.has(p.card)) S.fresh.add(p.card);
      if (tricksDone(view) > tricksDone(prev.view) && view.last_trick) {
        S.heldTrick = view.last_trick;
        const lastCard = view.last_trick.cards[view.last_trick.cards.length - 1];
        S.fresh.add(lastCard);
        hold = reducedMotion() ? 450 : 1100;
      }
      if ((view.results || []).length > (prev.view.results || []).length) {
        S.summary = view.results[view.results.length - 1];
        later(() => { S.summary = null; render(); }, 5000);
      }
    } else if (step && view.game === "oti") {
      const before = new Set(prev.view.pile || []);
      for (const c of view.pile || []) if (!before.has(c)) S.fresh.add(c);
    }
    if (next.seq !== prev?.seq) resetUi();
    S.shown = next;
    if (S.pending?.ackSeq !== undefined && next.seq >= S.pending.ackSeq) S.pending = null;
    if (step) sounds(prev.view, view, next.last);
    S.log = describeLast(next) || S.log;
    const gap = reducedMotion() ? 0 : 320;
    const wait = hold || (S.queue.length && step && gap);
    S.holding = !!wait;
    render();
    if (wait) {
      later(() => {
        S.holding = false;
        if (hold) S.heldTrick = null;
        render();
        pump();
      }, hold || gap);
    } else {
      pump();
    }
  }

  function sounds(before, view, last) {
    if (last && /^(play|flip)/.test(last.action)) playSound("card");
    if (last && last.action === "pickup") playSound("pickup");
    if (view.game === "omi" && tricksDone(view) > tricksDone(before)) later(() => playSound("trick"), 350);
    if (view.is_over && !before.is_over) {
      const me = S.showSeat;
      const won = me !== null && (view.game === "omi" ? view.players === 4 ? view.winner === me % 2 : view.winner === me : view.winner === me);
      later(() => playSound(won ? "win" : "lose"), 500);
    } else if (view.game === "omi" && (view.results || []).length > (before.results || []).length) {
      later(() => playSound("hand"), 500);
    }
    if ((view.legal || []).length && !(before.legal || []).length) later(() => playSound("turn"), 150);
  }

  function describeLast(msg) {
    const last = msg.last;
    const view = msg.view;
    if (!last) return "";
    if (view.game === "oti") {
      const events = view.history || [];
      return describeOtiEvent(events[events.length - 1], ctx());
    }
    const name = nameOf(view, last.seat);
    const [verb, arg] = last.action.split(" ");
    if (verb === "play") return t("omi.log_play", { name, card: cardPretty(arg) });
    if (verb === "trump") return t("omi.log_trump", { name, suit: t(`suit.${arg}`) });
    if (verb === "kapothi") return t("omi.log_kapothi", { name });
    return `${name}: ${last.action}`;
  }

  // ---------------------------------------------------------------- acting
  function act(action) {
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
  }

  async function rematch() {
    const view = S.shown?.view;
    const existing = view?.table?.rematch;
    const token = held.seats?.[0]?.token;
    let id = existing;
    if (!id && held.local) {
      try {
        id = await localRematch(tableId);
      } catch (error) {
        toast(error.message, "error");
        return;
      }
    }
    if (!id) {
      try {
        const answer = await post(`/api/tables/${tableId}/rematch`, { token });
        id = answer.table;
      } catch (error) {
        toast(error.message, "error");
        return;
      }
    }
    saveTable(id, { ...held, challenge: null, join_url: null, rematch_of: tableId });
    nav(`/t/${id}`);
  }

  async function challenge() {
    const token = held.seats?.find((s) => s.seat === S.showSeat)?.token || held.seats?.[0]?.token;
    try {
      const answer = await post(`/api/tables/${tableId}/challenge`, { token });
      S.challenge = { id: answer.challenge, url: absolute(answer.challenge_url) };
      render();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async function startNow() {
    try {
      await post(`/api/tables/${tableId}/start`, { token: held.seats[0].token });
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async function loadComparison() {
    if (!held.challenge || S.comparison) return;
    try {
      S.comparison = await get(`/api/challenges/${held.challenge}`);
      render();
    } catch { /* the link still works */ }
  }

  // ---------------------------------------------------------------- rendering
  function nameOf(view, seat) {
    const info = (view?.seats || []).find((s) => s.seat === seat);
    if (held.names?.[seat] && info?.kind !== "computer") return held.names[seat];
    if (info?.name) return info.name;
    if (info?.kind === "computer") return t("seat.computer_name", { n: seat + 1 });
    if (seat === S.showSeat && !hotseat) return t("seat.you");
    return t("seat.player_n", { n: seat + 1 });
  }

  function ctx() {
    const view = S.shown?.view;
    return {
      me: S.showSeat,
      neutral: hotseat,
      name: (seat) => nameOf(view, seat),
      seatInfo: (seat) => (view?.seats || []).find((s) => s.seat === seat),
      act,
      rerender: render,
      cardName,
      cardPretty,
      busy: !!S.pending || S.holding,
      hideHand: S.passTo !== null,
      heldTrick: S.heldTrick,
      fresh: S.fresh,
      ui: S.ui,
    };
  }

  function topbar(view) {
    const game = view?.game || held.game;
    return h("header", { class: "topbar at-table" },
      h("a", { href: "/", class: "brand", "aria-label": t("nav.home"), onclick: (e) => { e.preventDefault(); nav("/"); } },
        h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠♥"), h("span", { class: "brand-name" }, "bistrot")),
      h("span", { class: "topbar-title" }, game ? t(`game.${game}`) : "",
        held.mode ? h("small", {}, " · " + t(`mode.${held.mode}`)) : null,
        held.local ? h("small", { class: "badge", dataset: { testid: "on-device" } }, t("offline.on_device")) : null,
        !held.seats?.length ? h("small", { class: "badge" }, t("table.watching")) : null),
      h("span", { class: "spacer" }),
      game === "omi" && h("button", { type: "button", class: "icon-btn", dataset: { action: "last-trick" },
        onclick: () => openPanel("last"), title: t("omi.last_trick") + " (L)" }, t("omi.last_trick")),
      game === "omi" && h("button", { type: "button", class: "icon-btn", dataset: { action: "scores" },
        onclick: () => openPanel("score"), title: t("omi.scores") }, t("omi.scores")),
      view?.is_over && S.overClosed && h("button", { type: "button", class: "icon-btn", onclick: () => { S.overClosed = false; render(); } }, t("over.result")),
      soundButton(),
      languageSelect(),
      h("button", { type: "button", class: "icon-btn help-btn", onclick: () => openPanel("help"), "aria-label": t("help.title"), title: t("help.title") }, "?"));
  }

  function soundButton() {
    return h("button", { type: "button", class: "icon-btn", dataset: { action: "sound" }, "aria-pressed": String(soundOn()),
      "aria-label": soundOn() ? t("sound.off") : t("sound.on"), title: (soundOn() ? t("sound.off") : t("sound.on")) + " (M)",
      onclick: () => { setSound(!soundOn()); render(); } }, soundOn() ? "🔊" : "🔇");
  }

  function languageSelect() {
    return h("select", { class: "lang-select", "aria-label": t("nav.language"), dataset: { testid: "language" },
      onchange: (e) => setLanguage(e.target.value) },
    LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === language() }, l.name)));
  }

  function openPanel(name) {
    S.panel = S.panel === name ? null : name;
    render();
  }

  function dialog(title, body, onClose, extraClass) {
    return h("div", { class: ["overlay", extraClass], onclick: (e) => { if (e.target === e.currentTarget && onClose) onClose(); } },
      h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
        h("div", { class: "dialog-head" }, h("h2", {}, title),
          onClose && h("button", { type: "button", class: "icon-btn close", "aria-label": t("nav.close"), onclick: onClose }, "×")),
        body));
  }

  function panels(view) {
    if (!S.panel || !view) return null;
    const close = () => { S.panel = null; render(); };
    if (S.panel === "last") return dialog(t("omi.last_trick"), lastTrickPanel(view, ctx()), close);
    if (S.panel === "score") {
      return dialog(t("omi.scores"), view.results?.length ? resultsTable(view, ctx()) : h("p", {}, t("omi.no_hands_yet")), close);
    }
    if (S.panel === "help") {
      const keys = view.game === "omi"
        ? ["help.keys_cards", "help.keys_number", "help.keys_trump", "help.keys_last", "help.keys_sound"]
        : ["help.keys_cards", "help.keys_number", "help.keys_oti", "help.keys_sound"];
      return dialog(t("help.title"), h("ul", { class: "help" }, keys.map((k) => h("li", {}, t(k)))), close);
    }
    return null;
  }

  function waitingRoom(view) {
    const open = (view.seats || []).filter((s) => s.kind === "open").length;
    const isCreator = held.creator && held.seats?.[0]?.seat === 0;
    return dialog(t("lobby.title"), h("div", { class: "lobby" },
      held.join_url ? shareBox(absolute(held.join_url), { title: t("lobby.share"), testId: "join-link" }) : null,
      held.watch_url ? h("details", { class: "watch-link" }, h("summary", {}, t("lobby.watch_link")),
        shareBox(absolute(held.watch_url), { testId: "watch-link" })) : null,
      h("ul", { class: "lobby-seats" }, (view.seats || []).map((s) => h("li", { dataset: { kind: s.kind } },
        h("span", { class: "avatar" }, s.kind === "open" ? "·" : (nameOf(view, s.seat) || "?").charAt(0).toUpperCase()),
        s.kind === "open" ? t("lobby.open_seat") : nameOf(view, s.seat)))),
      h("p", {}, t("lobby.waiting_n", { n: open })),
      isCreator ? h("button", { type: "button", class: "btn primary", dataset: { action: "start" }, onclick: startNow },
        t("lobby.start_now")) : h("p", { class: "hint" }, t("lobby.host_starts"))), null, "lobby-overlay");
  }

  function overScreen(view) {
    const me = S.showSeat;
    const c = ctx();
    let title;
    let detail = null;
    if (view.game === "omi") {
      const mySide = me === null || hotseat ? null : view.players === 4 ? me % 2 : me;
      if (mySide === null) title = t("over.side_won", { side: sideName(view, view.winner, c) });
      else title = view.winner === mySide ? t("over.you_won") : t("over.you_lost");
      detail = h("div", {},
        h("p", { class: "final-score" }, (view.players === 4 ? [0, 1] : [0, 1, 2])
          .map((s) => `${sideName(view, s, c)} ${view.tokens[s]}`).join(" · ")),
        view.results?.length ? resultsTable(view, c) : null);
    } else {
      if (me !== null && !hotseat) title = view.winner === me ? t("over.you_won") : t("over.player_won", { name: c.name(view.winner) });
      else title = t("over.player_won", { name: c.name(view.winner) });
      detail = h("ol", { class: "ranking" }, (view.out || []).map((s) => h("li", {}, c.name(s))));
      if (view.end_reason === "repetition") detail.append(h("p", { class: "hint" }, t("oti.repetition")));
    }
    const seated = held.seats?.length > 0;
    const body = h("div", { class: "over" },
      detail,
      view.deal_code && h("p", { class: "deal-code" }, t("over.deal_code"), " ", h("code", {}, view.deal_code)),
      h("div", { class: "over-actions" },
        seated && h("button", { type: "button", class: "btn primary", dataset: { action: "rematch" }, onclick: rematch },
          view.table?.rematch ? t("over.join_rematch") : t("over.rematch")),
        !seated && view.table?.rematch && held.watch && h("button", { type: "button", class: "btn primary", onclick: rematch }, t("over.watch_rematch")),
        seated && !held.local && h("button", { type: "button", class: "btn", dataset: { action: "challenge" }, onclick: challenge }, t("over.challenge")),
        h("button", { type: "button", class: "btn", onclick: () => nav("/") }, t("nav.home"))),
      S.challenge && h("div", { class: "challenge-share" },
        shareBox(S.challenge.url, { title: t("over.challenge_share"), testId: "challenge-link" }),
        h("a", { href: `/challenge/${S.challenge.id}`, onclick: (e) => { e.preventDefault(); nav(`/challenge/${S.challenge.id}`); } },
          t("over.see_challenge"))),
      held.challenge && (S.comparison ? challengeComparison(S.comparison, { highlight: tableId })
        : h("p", {}, t("challenge.loading"))));
    if (held.challenge) loadComparison();
    return dialog(title, body, () => { S.overClosed = true; render(); }, "over-overlay");
  }

  function passScreen() {
    const view = S.shown?.view;
    const name = nameOf(view, S.passTo);
    return h("div", { class: "pass-screen", role: "dialog", "aria-modal": "true", "aria-label": t("hotseat.pass_to", { name }),
      dataset: { testid: "pass-screen" } },
    h("div", { class: "pass-card" },
      h("div", { class: "pass-backs", "aria-hidden": "true" }, h("div", { class: "card back" }), h("div", { class: "card back" })),
      h("h2", {}, t("hotseat.pass_to", { name })),
      h("p", {}, t("hotseat.others_look_away")),
      h("button", { type: "button", class: "btn primary big", dataset: { action: "take-seat" }, autofocus: true, onclick: takeOver },
        t("hotseat.i_am", { name }))));
  }

  function summaryBox(view) {
    if (!S.summary || view.game !== "omi") return null;
    return h("div", { class: "summary", role: "status", dataset: { testid: "hand-summary" },
      onclick: () => { S.summary = null; render(); } },
    h("strong", {}, t("omi.hand_over", { n: S.summary.hand })), " ", describeResult(view, S.summary, ctx()));
  }

  function render() {
    if (S.destroyed) return;
    const focus = rememberFocus();
    const view = S.shown?.view;
    const nodes = [topbar(view)];
    if (S.error) {
      nodes.push(h("section", { class: "page narrow error-page" }, h("h1", {}, t("error.title")), h("p", {}, S.error),
        h("button", { type: "button", class: "btn primary", onclick: () => nav("/") }, t("nav.home"))));
      patch(root, nodes);
      return;
    }
    if (!view) {
      nodes.push(h("p", { class: "loading" }, t("table.connecting")));
      patch(root, nodes);
      return;
    }
    const c = ctx();
    const wrap = h("div", { class: ["table-wrap", `game-${view.game}`] },
      view.game === "omi" ? omiScore(view, c) : null,
      view.game === "omi" ? renderOmi(view, c) : renderOti(view, c),
      summaryBox(view),
      h("p", { class: "action-log", role: "log", "aria-live": "polite", dataset: { testid: "log" } }, S.log));
    nodes.push(wrap);
    if (S.passTo !== null) nodes.push(passScreen());
    else if (view.table?.status === "waiting") nodes.push(waitingRoom(view));
    else if (view.is_over && !S.overClosed) nodes.push(overScreen(view));
    const panel = panels(view);
    if (panel) nodes.push(panel);
    patch(root, nodes);
    if (focus && !root.contains(document.activeElement)) restoreFocus(focus);
  }

  function rememberFocus() {
    const el = document.activeElement;
    if (!el || el === document.body || !root.contains(el)) return null;
    for (const key of ["card", "suit", "action"]) if (el.dataset?.[key]) return `[data-${key}="${el.dataset[key]}"]`;
    return null;
  }
  function restoreFocus(selector) {
    if (!selector) return;
    const el = root.querySelector(selector);
    if (el && !el.disabled) el.focus({ preventScroll: true });
    else root.querySelector(".hand button[data-card]:not([disabled])")?.focus({ preventScroll: true });
  }

  // ---------------------------------------------------------------- keyboard
  function onKey(event) {
    if (event.target.closest?.("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key === "Escape" && S.panel) { S.panel = null; render(); return; }
    const cards = $$(".hand button[data-card]:not([disabled]), .table-cards.mine button[data-card]:not([disabled])", root);
    if (key === "ArrowLeft" || key === "ArrowRight") {
      if (!cards.length) return;
      const i = cards.indexOf(document.activeElement);
      const next = i < 0 ? 0 : (i + (key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
      cards[next].focus();
      event.preventDefault();
      return;
    }
    if (/^[1-9]$/.test(key)) {
      const card = cards[Number(key) - 1];
      if (card) { card.focus(); card.click(); event.preventDefault(); }
      return;
    }
    const lower = key.toLowerCase();
    const click = (selector) => {
      const el = root.querySelector(selector);
      if (el && !el.disabled) { el.click(); event.preventDefault(); return true; }
      return false;
    };
    if (["s", "h", "d", "c"].includes(lower) && click(`[data-suit="${key.toUpperCase()}"]`)) return;
    if (lower === "l" && S.shown?.view?.game === "omi") { openPanel("last"); return; }
    if (lower === "m") { setSound(!soundOn()); render(); return; }
    if (lower === "p") { click('[data-action="pickup"]'); return; }
    if (lower === "f") { click('[data-action="flip"]'); return; }
    if (lower === "r") { click('[data-action="ready"]'); return; }
    if (lower === "k") { click('[data-action="kapothi"]'); return; }
    if (key === "Enter" && !event.target.closest?.("button")) click('[data-action="play"]');
  }
  document.addEventListener("keydown", onKey);

  render();
  return {
    rerender: render,
    destroy() {
      S.destroyed = true;
      document.removeEventListener("keydown", onKey);
      for (const id of S.timers) clearTimeout(id);
      for (const conn of S.conns.values()) conn.close();
      notice(null);
    },
  };
}
