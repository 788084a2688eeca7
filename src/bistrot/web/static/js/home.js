// @ts-check
// The lobby: choose the game, the way to play and the rules, then play.
import { h, clear, toast, navLink } from "./dom.js";
import { t, refusal, has } from "./i18n.js";
import { post } from "./api.js";
import { optionValueText } from "./rules.js";
import { saveTable, playerName, setPlayerName, heldTables } from "./store.js";
import { summaryText } from "./challenge.js";
import { nameOf } from "./table/render.js";
import { suitEl } from "./cards.js";
import {
  allGames, gameInfo, labelOf, optionsOf, levelsOf, defaultLevel, modesOf, seatCount, coerce,
} from "./catalog.js";
import { rendererFor } from "./games/index.js";
import { playNowSection } from "./playnow.js";
import { dailySection } from "./daily.js";
// Offline play (docs/offline.md): tables on this device when the server cannot be reached.
import {
  isOffline, markUnreachable, onOfflineChange, createLocalTable, install, savedGames, forgetGame, isLocalTable,
  heldFromSummary,
} from "./offline.js";

/** Query parameters that set up the table rather than its rules (the body of POST /api/tables). */
const META = new Set(["level", "mode", "seed", "name", "bot_delay_ms", "grace_s", "seat", "lang"]);
const NUMERIC_META = ["bot_delay_ms", "grace_s", "seat"];
/** A table's pace: this device's to choose offline; online the server's operator sets it, and the
 * server refuses a request naming it (server_setting). */
const PACE = ["bot_delay_ms", "grace_s"];

/** Open a table and go to it. `request` is the body of POST /api/tables. Offline, or when the
 * server cannot be reached, a computer or hot-seat table opens on this device instead. */
export async function createTable(request, nav, { replace = false, names = null } = {}) {
  // The browser knows it is offline: do not even try the server. Otherwise the server is tried
  // each time (it may be back), and a table opens on this device only when it cannot be reached.
  if (!navigator.onLine && request.mode !== "friends") return openLocal(request, nav, { replace, names });
  if (!navigator.onLine) throw new Error(t("offline.friends_need_network"));
  const online = Object.fromEntries(Object.entries(request).filter(([key]) => !PACE.includes(key)));
  let answer;
  try {
    answer = await post("/api/tables", online);
  } catch (error) {
    if (error.code !== "network" || request.mode === "friends") throw error;
    markUnreachable();
    return openLocal(request, nav, { replace, names });
  }
  markUnreachable(false);
  saveTable(answer.table, {
    game: answer.game || request.game, mode: answer.mode || request.mode, seats: answer.seats,
    join_url: answer.join_url, watch_url: answer.watch_url, creator: true, names,
  });
  nav(`/t/${answer.table}`, { replace });
  return answer;
}

async function openLocal(request, nav, { replace, names }) {
  const answer = await createLocalTable(request, { names });
  nav(`/t/${answer.table}`, { replace });
  return answer;
}

/** /play/<game>?level=easy&<option>=<value>: every parameter that is not a setting of the table
 * is a rule, in the type of the game's option of that name (an unknown one goes to the server as
 * it is, which says what is wrong with it). */
export function requestFromQuery(game, search) {
  const params = new URLSearchParams(search);
  const request = { game, mode: "computer", rules: {} };
  const options = optionsOf(game);
  for (const [key, value] of params) {
    if (key === "lang") continue;
    if (META.has(key)) request[key] = NUMERIC_META.includes(key) ? coerce(value) : value;
    else request.rules[key] = coerce(value, options.find((o) => o.name === key));
  }
  if (!request.level && request.mode === "computer") request.level = defaultLevel(game);
  if (!request.name && playerName()) request.name = playerName();
  return request;
}

/** A finished game of the home page's history (an entry of POST /api/history, or of this
 * device's saved games): "Won" or "Lost" for the one seat this browser played, else who won; "A
 * draw" when nobody did (some games can end so). */
export function historyOutcome(g) {
  if (!g.result) return t("history.over");  // (a device game saved before results were kept)
  if (!g.winners.length) return t("over.draw");
  const mine = (g.held.seats || []).map((s) => s.seat);
  if (mine.length === 1) return g.winners.includes(mine[0]) ? t("history.won") : t("history.lost");
  const names = g.winners.map((seat) => nameOf({ held: g.held, S: { showSeat: null }, hotseat: true }, g, seat));
  return t("over.player_won", { name: names.join(" & ") });
}

export function homePage(root, nav, topbar) {
  const saved = (() => { try { return JSON.parse(localStorage.getItem("bistrot.home") || "{}"); } catch { return {}; } })();
  const games = allGames();
  const form = {
    game: gameInfo(saved.game) ? saved.game : games[0]?.name, mode: saved.mode || "computer", level: saved.level,
    rules: saved.rules || {}, names: saved.names || [], bots: saved.bots || {},
  };
  /** Keep the choices within what the chosen game offers (a game may not have every mode). */
  const settle = () => {
    form.rules[form.game] ??= {};
    const modes = modesOf(form.game);
    if (!modes.includes(form.mode)) form.mode = modes[0];
    if (!levelsOf(form.game).includes(form.level)) form.level = defaultLevel(form.game);
  };
  settle();
  /** The way of playing the form offers now: a table with friends needs the network, so offline
   * it is the computer, and the person's own choice comes back with the network. */
  const playing = () => (form.mode === "friends" && isOffline() ? "computer" : form.mode);
  // What is typed as "your name" before the form is sent: the form is redrawn when the network
  // comes or goes or offline play becomes ready, and must not lose it.
  let typedName = null;
  const remember = () => { try { localStorage.setItem("bistrot.home", JSON.stringify(form)); } catch { /* ignore */ } };

  const option = (o) => {
    const value = form.rules[form.game][o.name] ?? o.default;
    const id = `opt-${o.name}`;
    const set = (v) => { form.rules[form.game][o.name] = v; remember(); draw(); };
    const help = h("small", { class: "hint" }, t(`${o.label}.help`));
    if (o.type === "bool") {
      const input = h("input", { type: "checkbox", id, checked: !!value, onchange: (e) => set(e.target.checked) });
      return h("div", { class: "field check" }, input, h("label", { for: id }, t(o.label), help));
    }
    // An int option offers its usual values; one without any is typed, within its range.
    const input = o.choices?.length
      ? h("select", { id, onchange: (e) => set(coerce(e.target.value, o)) },
        o.choices.map((c) => h("option", { value: c, selected: c === value }, optionValueText(o, c))))
      : h("input", { type: "number", id, value, min: o.min, max: o.max, onchange: (e) => set(coerce(e.target.value, o)) });
    return h("div", { class: "field" }, h("label", { for: id }, t(o.label)), input, help);
  };

  /** The seats of a hot-seat table, one name or computer each. */
  const players = () => seatCount(form.game, form.rules[form.game]) ?? 0;
  const levels = () => levelsOf(form.game);

  function modeDetails() {
    if (playing() === "computer") {
      return h("div", { class: "field" }, h("label", { for: "level" }, t("home.level")),
        h("select", { id: "level", dataset: { testid: "level" }, onchange: (e) => { form.level = e.target.value; remember(); } },
          levels().map((l) => h("option", { value: l, selected: l === form.level }, t(`level.${l}`)))));
    }
    if (playing() === "friends") {
      return h("div", {}, h("p", { class: "hint" }, t("home.friends_help")),
        h("div", { class: "field" }, h("label", { for: "level" }, t("home.fill_level")),
          h("select", { id: "level", onchange: (e) => { form.level = e.target.value; remember(); } },
            levels().map((l) => h("option", { value: l, selected: l === form.level }, t(`level.${l}`))))));
    }
    const n = players();
    const rows = [];
    for (let seat = 0; seat < n; seat++) {
      const kind = form.bots[seat] || "human";
      rows.push(h("div", { class: "hotseat-row" },
        h("label", { for: `name-${seat}`, class: "sr-only" }, t("home.player_name", { n: seat + 1 })),
        h("input", { type: "text", id: `name-${seat}`, maxlength: "24", value: form.names[seat] || "",
          placeholder: t("seat.player_n", { n: seat + 1 }), disabled: kind !== "human", dataset: { testid: `hotseat-name-${seat}` },
          oninput: (e) => { form.names[seat] = e.target.value; remember(); } }),
        h("select", { "aria-label": t("home.who_plays", { n: seat + 1 }), dataset: { testid: `hotseat-kind-${seat}` },
          onchange: (e) => { if (e.target.value === "human") delete form.bots[seat]; else form.bots[seat] = e.target.value; remember(); draw(); } },
        h("option", { value: "human", selected: kind === "human" }, t("home.human")),
        levels().map((l) => h("option", { value: l, selected: kind === l }, t("seat.computer", { level: t(`level.${l}`) }))))));
    }
    return h("div", {}, h("p", { class: "hint" }, t("home.hotseat_help")), rows);
  }

  async function submit(event) {
    event.preventDefault();
    const button = root.querySelector("[data-action='create']");
    button.disabled = true;
    const name = root.querySelector("#your-name")?.value.trim() || "";
    if (name) setPlayerName(name);
    const rules = {};
    for (const o of optionsOf(form.game)) {
      const v = form.rules[form.game][o.name];
      if (v !== undefined && v !== o.default) rules[o.name] = v;
    }
    const request = { game: form.game, mode: playing(), rules, level: form.level };
    let localNames = null;
    if (playing() !== "hotseat" && name) request.name = name;
    if (playing() === "hotseat") {
      const n = players();
      const bots = {};
      const names = [];
      for (let seat = 0; seat < n; seat++) {
        if (form.bots[seat]) bots[String(seat)] = form.bots[seat];
        names.push(form.bots[seat] ? null : (form.names[seat] || "").trim() || null);
      }
      if (Object.keys(bots).length) request.bots = bots;
      // Hot-seat names stay on this device (everybody is here): the page shows them.
      localNames = names.some(Boolean) ? names : null;
    }
    try {
      await createTable(request, nav, { names: localNames });
    } catch (error) {
      button.disabled = false;
      toast(refusal(error), "error", 6000);
    }
  }

  function gameCard(game) {
    const id = `game-${game}`;
    return h("label", { class: ["choice-card", form.game === game && "chosen"], for: id },
      h("input", { type: "radio", name: "game", id, value: game, checked: form.game === game,
        onchange: () => { form.game = game; settle(); remember(); draw(); } }),
      h("span", { class: "choice-art", "aria-hidden": "true" }, rendererFor(game).suits.map((suit) => suitEl(suit))),
      h("span", { class: "choice-title" }, t(labelOf(game))),
      has(`home.${game}_blurb`) && h("span", { class: "choice-text" }, t(`home.${game}_blurb`)),  // (none for a game new here)
      h("a", { href: `/rules/${game}`, class: "choice-rules", onclick: (e) => { e.preventDefault(); nav(`/rules/${game}`); } },
        t("home.read_rules")));
  }

  // Offline: friends tables need the server, so that choice waits for the network to come back;
  // computer and hot-seat tables open on this device. The games of this device are listed.
  function offlineLine() {
    if (isOffline()) {
      return h("p", { class: "offline-note", role: "status", dataset: { testid: "offline-note" } }, t("offline.you_are_offline"));
    }
    if (install.state === "unsupported") return null;  // (known before the first paint)
    // The state comes a moment after the page is drawn (the service worker answers), and its
    // text wraps on a phone: one slot as tall as the longer text, whatever it shows (nothing
    // yet, or nothing if the server offers no offline play), so that the form never moves down
    // under a finger about to tap it.
    const line = (state, key, extra) => {
      const shown = install.state === state;
      return h("p", { class: ["offline-ready", extra, !shown && "unseen"], "aria-hidden": shown ? null : "true",
        dataset: { testid: shown ? `offline-${state}` : null } }, t(key));
    };
    return h("div", { class: "offline-slot" },
      line("ready", "offline.ready", null), line("installing", "offline.installing", "pending"));
  }

  // Play now and the live lobby lead the page (js/playnow.js): kept across redraws, so that the
  // lobby is followed once for as long as the page is shown.
  const lobby = playNowSection(nav);
  const daily = dailySection(nav);

  const savedBox = h("section", { class: "saved-games", dataset: { testid: "saved-games" }, hidden: true });
  async function fillSaved() {
    const games = (await savedGames()).filter((g) => g.status !== "over");
    clear(savedBox);
    savedBox.hidden = games.length === 0;
    if (!games.length) return;
    savedBox.append(h("h2", {}, t("offline.saved_games")), h("ul", {}, games.map((g) => h("li", { dataset: { table: g.id } },
      h("span", { class: "saved-title" }, t(labelOf(g.game)), h("small", {}, ` · ${t(`mode.${g.mode}`)} · `,
        t("offline.moves_n", { n: g.seq }), g.updated ? ` · ${new Date(g.updated).toLocaleString()}` : "")),
      h("span", { class: "saved-actions" },
        h("button", { type: "button", class: "btn primary", dataset: { action: "resume", table: g.id },
          onclick: () => nav(`/t/${g.id}`) }, t("offline.resume")),
        h("button", { type: "button", class: "btn", dataset: { action: "forget", table: g.id },
          onclick: async () => { await forgetGame(g.id); fillSaved(); } }, t("offline.forget")))))));
  }

  // The games of this browser that are over, the latest first: the server's tables it holds a
  // seat or a watch key for (POST /api/history: results, no card), and this device's.
  const historyBox = h("section", { class: ["saved-games", "history"], dataset: { testid: "history" }, hidden: true });
  let historyRun = 0;
  async function fillHistory() {
    const run = ++historyRun;  // (a later call, after a language change, draws instead)
    const held = heldTables();
    const heldBy = new Map(held.map((x) => [x.id, x]));
    const ids = held.filter((x) => !x.local && !isLocalTable(x.id)).slice(0, 100).map((x) => x.id);
    let online = [];
    if (ids.length && !isOffline()) online = (await post("/api/history", { tables: ids }).catch(() => ({ games: [] }))).games;
    const device = (await savedGames()).filter((g) => g.status === "over");
    const games = [
      ...online.map((g) => ({ ...g, when: g.ended_at * 1000, held: heldBy.get(g.table) || {} })),
      ...device.map((g) => ({ ...g, table: g.id, local: true, when: g.updated || 0, held: heldBy.get(g.id) || heldFromSummary(g),
        winners: [...Array(g.players).keys()].filter((s) => g.result && rendererFor(g.game).won({ ...g, ...g.result }, s)) })),
    ].sort((a, b) => b.when - a.when).slice(0, 20);
    if (run !== historyRun) return;
    clear(historyBox);
    historyBox.hidden = games.length === 0;
    if (!games.length) return;
    historyBox.append(h("h2", {}, t("history.title")), h("ul", {}, games.map((g) => h("li", { dataset: { table: g.table } },
      h("span", { class: "saved-title" }, h("strong", { dataset: { testid: "history-result" } }, historyOutcome(g)), " · ", t(labelOf(g.game)),
        h("small", {}, ` · ${t(`mode.${g.mode}`)}`, g.local ? ` · ${t("offline.on_device")}` : "",
          [summaryText(g.game, g.result), new Date(g.when).toLocaleString()]
            .filter(Boolean).map((x) => ` · ${x}`).join(""))),
      h("span", { class: "saved-actions" },
        h("a", { href: `/replay/${g.table}`, class: "btn primary", dataset: { action: "replay", table: g.table },
          onclick: (e) => { e.preventDefault(); nav(`/replay/${g.table}`); } }, t("history.replay")))))));
  }

  let drawnOffline = null;  // whether the page was drawn for a browser without a network
  function draw() {
    const offline = isOffline();
    drawnOffline = offline;
    // The page scrolls above a docked Play bar that never covers a field: the form has the
    // window above the bar to itself (a redraw keeps where it was scrolled to).
    const scrolled = root.querySelector(".home-scroll")?.scrollTop || 0;
    // A redraw the person did not ask for (offline play becoming ready, the network coming or
    // going) must not take away the field they are typing in: its focus and caret come back.
    const typing = /** @type {HTMLInputElement | HTMLTextAreaElement | null} */ (root.contains(document.activeElement) && document.activeElement.id ? document.activeElement : null);
    /** @type {[number, number] | null} */
    const caret = typing && typeof typing.selectionStart === "number" ? [typing.selectionStart, typing.selectionEnd] : null;
    clear(root);
    const scroller = h("div", { class: "home-scroll" }, h("section", { class: "page home" },
      h("div", { class: "hero" },
        h("h1", {}, t("home.title")),
        h("p", { class: "lead" }, t("home.lead")),
        offlineLine()),
      lobby.node,
      daily.node,
      h("p", { class: "event-link" }, navLink(nav, "/events/new", { dataset: { action: "new-event" } }, t("home.club_event"))),
      h("h2", { class: "home-own" }, t("home.own_table")),
      h("form", { class: "home-form", id: "home-form", onsubmit: submit },
        h("fieldset", { class: "games" }, h("legend", {}, t("home.choose_game")), games.map((g) => gameCard(g.name))),
        h("fieldset", { class: "modes" }, h("legend", {}, t("home.how")),
          h("div", { class: "segmented", role: "radiogroup" }, modesOf(form.game).map((mode) => h("label", { class: ["segment", playing() === mode && "chosen"],
            title: offline && mode === "friends" ? t("offline.friends_need_network") : null },
            h("input", { type: "radio", name: "mode", value: mode, checked: playing() === mode, dataset: { testid: `mode-${mode}` },
              disabled: offline && mode === "friends",
              onchange: () => { form.mode = mode; remember(); draw(); } }),
            t(`mode.${mode}`)))),
          modeDetails(),
          playing() !== "hotseat" && h("div", { class: "field" }, h("label", { for: "your-name" }, t("home.your_name")),
            h("input", { type: "text", id: "your-name", maxlength: "24", value: typedName ?? playerName(), autocomplete: "nickname",
              placeholder: t("home.name_placeholder"), oninput: (e) => { typedName = e.target.value; } }))),
        h("details", { class: "rules-options", open: Object.keys(form.rules[form.game]).length > 0 },
          h("summary", {}, t("home.rules_options")),
          h("div", { class: "options" }, optionsOf(form.game).map(option)))),
      // Under the form: they fill in after the first paint (this device's saved games, the
      // server's results), and above it they pushed it down under a returning player's tap.
      savedBox,
      historyBox));
    root.append(topbar(), scroller, h("div", { class: "home-dock" },
      h("button", { type: "submit", form: "home-form", class: "btn primary big", dataset: { action: "create" } },
        playing() === "friends" ? t("home.open_table") : t("home.play"))));
    lobby.draw();
    daily.draw();
    scroller.scrollTop = scrolled;
    const again = /** @type {HTMLInputElement | HTMLTextAreaElement | null} */ (typing && document.getElementById(typing.id));
    if (again && again !== typing) {
      again.focus({ preventScroll: true });
      if (caret && typeof again.setSelectionRange === "function") again.setSelectionRange(...caret);
    }
  }
  draw();
  fillSaved();
  fillHistory();
  /** The network came or went (the form offers other choices): draw again. Only offline play's
   * state changed (just after loading, as a first tap comes): only its line, since a form drawn
   * again between the press and the release of a tap loses the tap (no click is fired on two
   * different copies of a button). */
  function offlineChanged() {
    const slot = root.querySelector(".hero .offline-slot");
    const line = isOffline() === drawnOffline && offlineLine();
    if (slot && line) slot.replaceWith(line);
    else draw();
  }
  const stop = onOfflineChange(offlineChanged);
  return { rerender: () => { draw(); fillHistory(); }, destroy: () => { stop(); lobby.destroy(); daily.destroy(); } };
}
