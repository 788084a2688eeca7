// @ts-check
// The replay of a finished game, /replay/<table>: every action, forward and back (buttons, the
// arrow keys, Home and End, a slider), every hand shown, drawn by the game's own renderer
// (games/*.js) from the server's views (GET /api/tables/<id>/replay, docs/protocol.md: each
// step's change rebuilds its view from the one before, delta.js), or for a game of this device
// (/replay/local-...) the same steps from the device's card room. A game
// whose deal is a challenge's opens only with this browser's token of that table, sent in a
// header. The game's analysis (docs/analysis.md) is asked for with a button: the server's
// (POST .../analysis, then GET until done, with its progress), or for a device game the worker's
// (offline.js localAnalysis, with progress); once there, each step shows its mark and the best
// moves, and every player's accuracy is listed.
import { h, patch, clear, toast } from "./dom.js";
import { t, refusal } from "./i18n.js";
import { api, get } from "./api.js";
import { cardName, cardPretty } from "./cards.js";
import { loadTable, tableInMemory, heldToken } from "./store.js";
import { rendererFor } from "./games/index.js";
import { provides } from "./catalog.js";
import { nameOf } from "./table/render.js";
import { isLocalTable, localReplay, localRecord, localAnalysis, localAnalysisStored } from "./offline.js";
import { patched } from "./delta.js";

const MARKS = ["inaccuracy", "mistake", "blunder"];
const POLL_MS = 1000;

/** The Authorization header of this browser's token of `tableId` (a seat's, else the watch key). */
function authHeaders(tableId) {
  const held = loadTable(tableId) || tableInMemory(tableId) || {};
  const token = heldToken(held);
  return { held, headers: token ? { Authorization: `Bearer ${token}` } : {} };
}

/** The record of `tableId` and the name to save it under: the server's (a fetch, so that the
 * token goes in a header), or the device's. */
async function fetchRecord(tableId, headers) {
  if (isLocalTable(tableId)) {
    const { record, game } = await localRecord(tableId);
    return { text: record, name: `bistrot-${game}-${tableId}.txt` };
  }
  const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, { headers });
  if (!response.ok) {
    let body = {};
    try { body = await response.json(); } catch { /* not JSON */ }
    throw Object.assign(new Error(body.message || `HTTP ${response.status}`), { code: body.code, status: response.status });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "")?.[1] || "bistrot-record.txt";
  return { text: await response.text(), name };
}

/** Save the record of `tableId` as a file. */
async function download(tableId, headers) {
  const { text, name } = await fetchRecord(tableId, headers);
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Where the analysis of `tableId` stands ({status, done, total, result}): the server's, or
 * the device's stored one (the device computes only when asked). */
async function analysisState(tableId, headers) {
  if (isLocalTable(tableId)) {
    const result = await localAnalysisStored(tableId);
    return result ? { status: "done", result } : { status: "none" };
  }
  return get(`/api/tables/${encodeURIComponent(tableId)}/analysis`, headers);
}

/** An action as people read it: cards and suits drawn, the rest as written ("pick up").
 * @example actionLabel("play AH") -> "A♥" */
function actionLabel(action) {
  const [verb, ...args] = action.split(" ");
  if (verb === "trump") return t(`suit.${args[0]}`);
  if (verb === "kapothi") return t("replay.kapothi");
  const cards = args.filter((a) => /^(10|[2-9TJQKA])[SHDC]$/.test(a));
  return cards.length && cards.length === args.length ? cards.map(cardPretty).join(" ") : action;
}

export function replayPage(root, tableId, nav, topbar) {
  const { held, headers } = authHeaders(tableId);
  let data = null;
  let views = [];  // every view, the deal's first: each step's change applied to the one before
  let analysis = { status: "none" };  // as GET .../analysis answers
  let judged = new Map();  // action index -> the analysis' decision
  let pollTimer = null;
  let at = 0;  // 0: the deal; k: after the k-th action
  let gone = false;
  let body = null;

  const viewAt = (k) => {
    return { ...views[k], seats: data.seats };
  };
  // The names the table showed: the server's, or the ones typed on this device (hot seat), and
  // "You" for the one seat this browser played, if the game gave it no name (as at the table).
  const mine = held.seats?.length === 1 ? held.seats[0].seat : null;
  const nameT = { held, S: { showSeat: mine }, hotseat: mine === null };
  const context = (view, before) => {
    const moved = before ? rendererFor(view.game).step(before, view) : { fresh: new Set(), heldTrick: null };
    return {
      me: null, neutral: true,
      name: (seat) => nameOf(nameT, view, seat),
      seatInfo: (seat) => ({ ...data.seats.find((s) => s.seat === seat), past: true }),
      act: () => {}, rerender: () => {}, openPanel: () => {},
      cardName, cardPretty,
      busy: true, hideHand: false,
      heldTrick: moved.heldTrick || null, fresh: moved.fresh || new Set(),
      ui: { selected: new Set(), swapPick: null },
    };
  };

  /** The steps (1: after the first action) the analysis marked, in order. */
  const markedSteps = () => data.steps.map((step, i) => (MARKS.includes(judged.get(step.index)?.mark) ? i + 1 : 0))
    .filter(Boolean);
  /** The marked step before `at` (-1) or after it (+1), or null: where the mark buttons go. */
  const markFrom = (direction) => {
    const marked = markedSteps();
    const found = direction < 0 ? marked.filter((k) => k < at).pop() : marked.find((k) => k > at);
    return found ?? null;
  };

  const go = (k) => {
    const next = Math.max(0, Math.min(data.steps.length, k));
    if (next === at) return;
    at = next;
    draw();
  };

  function caption(view, ctx) {
    const total = data.steps.length;
    if (at === 0) return h("p", { class: "replay-caption", dataset: { testid: "replay-caption" } }, t("replay.deal"));
    const step = data.steps[at - 1];
    // The seat this browser played is "You" (see nameT): its moves are said to it, "You play 8♦".
    const speaker = mine === null ? ctx : { ...ctx, me: mine, neutral: false };
    const said = rendererFor(view.game).describe({ view, last: { seat: step.seat, action: step.action, by: step.by } }, speaker);
    const decision = judged.get(step.index);
    const mark = MARKS.includes(decision?.mark) ? decision.mark : null;
    // The best moves by what the seat knew (an Omi card's `best` is double dummy's: hindsight).
    const best = decision?.best_expected || decision?.best || [];
    const better = decision && decision.loss > 0 && !best.includes(step.action);
    return h("p", { class: "replay-caption", dataset: { testid: "replay-caption" } },
      h("span", { class: "replay-count" }, t("replay.move_of", { n: at, total })), " ",
      h("span", {}, said || `${ctx.name(step.seat)}: ${step.action}`),
      mark ? h("span", { class: ["badge", "mark", `mark-${mark}`], dataset: { testid: "mark" } }, t(`replay.mark_${mark}`)) : null,
      better ? h("span", { class: "replay-best", dataset: { testid: "best" } },
        t("replay.best", { actions: best.map(actionLabel).join(", ") })) : null);
  }

  // ------------------------------------------------------------------ the analysis

  function setAnalysis(state) {
    analysis = state || { status: "none" };
    judged = new Map(analysis.status === "done" ? (analysis.result?.moves || []).map((m) => [m.index, m]) : []);
    if (controls) draw();
  }

  function poll() {
    clearTimeout(pollTimer);
    if (gone || !["queued", "running"].includes(analysis.status)) return;
    pollTimer = setTimeout(() => analysisState(tableId, headers).then((state) => {
      if (gone) return;
      // A job whose node died reads "none": ask again, it is taken over.
      if (state.status === "none") return requestAnalysis();
      setAnalysis(state);
      poll();
    }, () => poll()), POLL_MS);
  }

  async function requestAnalysis() {
    if (isLocalTable(tableId)) {
      setAnalysis({ status: "running", done: 0, total: 0 });
      try {
        const result = await localAnalysis(tableId, ({ done, total }) => {
          if (!gone) setAnalysis({ status: "running", done, total });
        });
        if (!gone) setAnalysis({ status: "done", result });
      } catch (error) {
        if (!gone) setAnalysis({ status: "failed" });
        toast(refusal(error), "error", 6000);
      }
      return;
    }
    try {
      setAnalysis(await api("POST", `/api/tables/${encodeURIComponent(tableId)}/analysis`, {}, headers));
      poll();
    } catch (error) {
      toast(refusal(error), "error", 6000);
    }
  }

  function analysisPanel() {
    if (!provides(data.game, "analysis")) return null;  // a game without analysis: no panel
    const box = (...children) => h("section", {
      class: "replay-analysis", dataset: { testid: "analysis", status: analysis.status }, "aria-live": "polite",
    }, h("h2", {}, t("replay.analysis")), ...children);
    const { status } = analysis;
    if (status === "queued" || status === "running") {
      const counted = status === "running" && analysis.total > 0;
      return box(
        h("progress", { max: String(counted ? analysis.total : 1), ...(counted ? { value: String(analysis.done) } : {}),
          "aria-label": t("replay.analysis") }),
        h("p", { dataset: { testid: "analysis-progress" } },
          counted ? t("replay.analysing", { done: analysis.done, total: analysis.total }) : t("replay.analysis_queued")));
    }
    if (status === "done") return box(accuracyTable());
    return box(
      h("p", { class: "hint" }, status === "failed" ? t("replay.analysis_failed") : t("replay.analyse_help")),
      h("button", { type: "button", class: "btn", dataset: { action: "analyse" }, onclick: requestAnalysis },
        status === "failed" ? t("replay.analysis_retry") : t("replay.analyse")));
  }

  function accuracyTable() {
    const players = analysis.result?.players || {};
    const view = viewAt(0);
    const ctx = context(view, null);
    // the double-dummy column where the analysis judged cards with every hand open (an
    // analysis kept on this device by an older version says so by its players' dd_loss)
    const dd = analysis.result?.double_dummy ?? Object.values(players).some((p) => "dd_loss" in p);
    return h("table", { class: "accuracy", dataset: { testid: "accuracy" } },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("replay.player")), h("th", { scope: "col" }, t("replay.accuracy")),
        ...MARKS.map((mark) => h("th", { scope: "col" }, t(`replay.mark_${mark}_n`))),
        dd ? h("th", { scope: "col" }, t("replay.dd_loss")) : null)),
      h("tbody", {}, ...Object.entries(players).map(([seat, p]) => h("tr", {},
        h("th", { scope: "row" }, ctx.name(Number(seat))),
        h("td", {}, p.accuracy === null ? "–" : `${Math.round(p.accuracy)} %`),
        h("td", {}, String(p.inaccuracies)), h("td", {}, String(p.mistakes)), h("td", {}, String(p.blunders)),
        dd ? h("td", {}, String(p.dd_loss ?? 0)) : null))));
  }

  // The controls are built once per language and only updated: a slider replaced under the
  // pointer would stop following it.
  let controls = null;
  function build() {
    const total = data.steps.length;
    const button = (action, label, text, target) => h("button", {
      type: "button", class: "btn", dataset: { action }, "aria-label": label, title: label,
      onclick: () => go(target()),
    }, text);
    controls = {
      start: button("replay-start", t("replay.start"), "⏮", () => 0),
      back: button("replay-back", t("replay.back"), "◀", () => at - 1),
      slider: h("input", { type: "range", min: "0", max: String(total), value: String(at), step: "1",
        class: "replay-slider", dataset: { testid: "replay-slider" }, "aria-label": t("replay.slider"),
        oninput: (e) => go(Number(e.target.value)) }),
      forward: button("replay-forward", t("replay.forward"), "▶", () => at + 1),
      end: button("replay-end", t("replay.end"), "⏭", () => total),
      // as chess sites do: from one marked move to the next (shown once the analysis is there)
      prevMark: button("replay-prev-mark", t("replay.prev_mark"), "◀!", () => markFrom(-1) ?? at),
      nextMark: button("replay-next-mark", t("replay.next_mark"), "!▶", () => markFrom(1) ?? at),
      stage: h("div", { class: "replay-stage" }),
    };
    clear(body);
    body.append(
      h("div", { class: "replay-head" },
        h("h1", {}, t("replay.title"), " · ", t(`game.${data.game}`), h("small", {}, ` · ${t(`mode.${data.mode}`)}`)),
        h("button", { type: "button", class: "btn", dataset: { action: "download-record" },
          onclick: () => download(tableId, headers).catch((error) => toast(refusal(error), "error", 6000)) },
        t("replay.download"))),
      h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
        controls.prevMark, controls.start, controls.back, controls.slider, controls.forward, controls.end, controls.nextMark),
      controls.stage);
  }

  /** Every move of the game, as chess sites list them beside the board: its number, who and what,
   * its mark; a click goes to it, the one on the board is marked current. */
  function moveList(ctx) {
    return h("ol", { class: "replay-moves", dataset: { testid: "replay-moves" }, "aria-label": t("replay.moves") },
      data.steps.map((step, i) => {
        const mark = judged.get(step.index)?.mark;
        return h("li", {}, h("button", {
          type: "button", class: ["replay-move", at === i + 1 && "current"], dataset: { step: String(i + 1) },
          "aria-current": at === i + 1 ? "step" : null, onclick: () => go(i + 1),
        }, h("span", { class: "replay-move-n" }, `${i + 1}.`), ` ${ctx.name(step.seat)} ${actionLabel(step.action)}`,
        MARKS.includes(mark) ? h("span", { class: ["badge", "mark", `mark-${mark}`] }, t(`replay.mark_${mark}`)) : null));
      }));
  }

  /** The list's current move brought into sight inside the list (the page itself stays put). */
  function showCurrentMove() {
    const list = controls.stage.querySelector(".replay-moves");
    const current = list?.querySelector(".replay-move.current");
    if (!list || !current) return;
    const top = current.offsetTop - list.offsetTop, bottom = top + current.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  function outcome(view, ctx) {
    const renderer = rendererFor(view.game);
    if (!view.is_over) return null;
    const { title, detail } = renderer.over(view, ctx);
    return h("section", { class: "replay-result", dataset: { testid: "replay-result" } }, h("h2", {}, title), detail);
  }

  function draw() {
    if (gone || !data) return;
    const view = viewAt(at);
    const ctx = context(view, at > 0 ? viewAt(at - 1) : null);
    const total = data.steps.length;
    const { slider } = controls;
    if (slider.value !== String(at)) slider.value = String(at);
    slider.setAttribute("aria-valuetext", at === 0 ? t("replay.deal") : t("replay.move_of", { n: at, total }));
    controls.start.disabled = controls.back.disabled = at === 0;
    controls.forward.disabled = controls.end.disabled = at === total;
    const anyMark = markedSteps().length > 0;
    controls.prevMark.hidden = controls.nextMark.hidden = !anyMark;
    controls.prevMark.disabled = markFrom(-1) === null;
    controls.nextMark.disabled = markFrom(1) === null;
    patch(controls.stage, [
      caption(view, ctx),
      h("div", { class: ["table-wrap", "replay-table", `game-${view.game}`] }, rendererFor(view.game).table(view, ctx)),
      moveList(ctx),
      outcome(view, ctx),
      analysisPanel(),
      h("p", { class: "hint" }, t("replay.keys_help")),
    ].filter(Boolean));
    showCurrentMove();
  }

  const onKey = (event) => {
    if (!data || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest?.("select, textarea, input:not([type=range])")) return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: data.steps.length };
    if (!(event.key in moves)) return;
    event.preventDefault();  // (the slider would move itself too)
    go(moves[event.key]);
  };

  clear(root);
  root.append(topbar(), h("p", { class: "loading" }, t("replay.loading")));
  const steps = isLocalTable(tableId) ? localReplay(tableId) : get(`/api/tables/${encodeURIComponent(tableId)}/replay`, headers);
  // No analysis answer (an older server, the store down) only means no marks yet.
  const stored = analysisState(tableId, headers).catch(() => ({ status: "none" }));
  Promise.all([steps, stored])
    .then(([replay, found]) => {
      if (gone) return;
      data = replay;
      views = [data.start];
      for (const step of data.steps) views.push(patched(views[views.length - 1], step.change));
      setAnalysis(found);
      // Opened as "Analyse this game" (the end of a game: /replay/<id>#analysis): asked for at once.
      const asked = location.hash === "#analysis";
      if (asked && provides(data.game, "analysis") && ["none", "failed"].includes(analysis.status)) requestAnalysis();
      document.title = `${t("replay.title")} · ${t(`game.${data.game}`)} · bistrot`;
      body = h("section", { class: "page replay-page", dataset: { testid: "replay" } });
      clear(root);
      root.append(topbar(), body);
      build();
      draw();
      if (asked) body.querySelector("[data-testid=analysis]")?.scrollIntoView({ block: "nearest" });
      poll();  // (a job under way already)
      document.addEventListener("keydown", onKey);
    }, (error) => {
      if (gone) return;
      clear(root);
      const text = error.status === 404 ? t("error.unknown_table") : refusal(error);
      root.append(topbar(), h("section", { class: "page narrow error-page" }, h("h1", {}, t("replay.title")), h("p", {}, text),
        h("a", { href: "/", class: "btn primary", onclick: (e) => { e.preventDefault(); nav("/"); } }, t("nav.home"))));
    });

  return {
    rerender: () => {
      if (!data) return;
      root.firstElementChild?.replaceWith(topbar());
      build();
      draw();
    },
    destroy: () => {
      gone = true;
      clearTimeout(pollTimer);
      document.removeEventListener("keydown", onKey);
    },
  };
}
