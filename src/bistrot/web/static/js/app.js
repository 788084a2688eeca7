// @ts-check
// The page's entry point: a small router over the paths the server serves with index.html.
import { h, clear, toast } from "./dom.js";
import { t, has, refusal, startLanguage, setLanguage, onLanguageChange, LANGUAGES, language } from "./i18n.js";
import { soundOn, setSound } from "./sound.js";
import { homePage, requestFromQuery, createTable } from "./home.js";
import { rulesPage, rulesSummary, rulesTitle } from "./rules.js";
import { challengePage } from "./challenge.js";
import { replayPage } from "./replay.js";
import { boardPage } from "./board.js";
import { dailyPage, utcDay } from "./daily.js";
import { newEventPage, eventPage } from "./event.js";
import { profilePage, myProfilePage, claimPage, profileLink, refreshProfileLink } from "./profilepage.js";
import { openTable } from "./table.js";
import { loadTable, saveTable, tableInMemory, playerName, setPlayerName, pruneTables } from "./store.js";
import { get, post } from "./api.js";
import { loadSharing } from "./sharing.js";
import { loadCatalog, allGames, gameInfo, labelOf, levelsOf } from "./catalog.js";
// Offline play (docs/offline.md): install the service worker, tables on this device.
import { setupOffline, isLocalTable, savedGame, heldFromSummary, warmUp, pruneSaved } from "./offline.js";

const root = document.getElementById("main");
let screen = null;

function nav(path, { replace = false } = {}) {
  if (replace) history.replaceState({}, "", path);
  else history.pushState({}, "", path);
  route();
}

function topbar() {
  return h("header", { class: "topbar" },
    h("a", { href: "/", class: "brand", onclick: (e) => { e.preventDefault(); nav("/"); } },
      h("span", { class: "brand-mark", "aria-hidden": "true" }, "♠♥"), h("span", { class: "brand-name" }, "bistrot")),
    h("nav", { class: "topnav", "aria-label": t("nav.main") },
      allGames().map(({ name }) => h("a", { href: `/rules/${name}`, onclick: (e) => { e.preventDefault(); nav(`/rules/${name}`); } },
        t(has(`nav.rules_${name}`) ? `nav.rules_${name}` : labelOf(name))))),
    h("span", { class: "spacer" }),
    profileLink(nav),
    h("button", { type: "button", class: "icon-btn", "aria-pressed": String(soundOn()), dataset: { action: "sound" },
      "aria-label": soundOn() ? t("sound.off") : t("sound.on"), title: soundOn() ? t("sound.off") : t("sound.on"),
      onclick: (e) => { setSound(!soundOn()); e.currentTarget.textContent = soundOn() ? "🔊" : "🔇"; } },
    soundOn() ? "🔊" : "🔇"),
    h("select", { class: "lang-select", "aria-label": t("nav.language"), dataset: { testid: "language" },
      onchange: (e) => setLanguage(e.target.value) },
    LANGUAGES.map((l) => h("option", { value: l.code, selected: l.code === language() }, l.name))));
}

function errorPage(title, message) {
  clear(root);
  root.append(topbar(), h("section", { class: "page narrow error-page" }, h("h1", {}, title), h("p", {}, message),
    h("a", { href: "/", class: "btn primary", onclick: (e) => { e.preventDefault(); nav("/"); } }, t("nav.home"))));
  return null;
}

/** A `/play/...` link: one new table, then its page. The screen it returns keeps a language
 * change meanwhile from routing again (which would open a second table). */
function quickStart(game, search) {
  clear(root);
  root.append(topbar(), h("p", { class: "loading" }, t("table.opening")));
  const request = requestFromQuery(game, search);
  if (request.mode === "computer" && !levelsOf(game).includes(request.level)) {
    errorPage(t("error.cannot_open"), t("reject.bad_level"));
    return null;
  }
  createTable(request, nav, { replace: true })
    .catch((error) => errorPage(t("error.cannot_open"), refusal(error)));
  return { rerender: () => {} };
}

/** A join link `/join/<table>#<invite>[.<watch>]`: checked as the page opens (a wrong, used-up
 * or finished link says so at once); a full table is offered to watch when the link carries
 * the table's watch key. */
function joinPage(tableId, hash) {
  const held = loadTable(tableId) || tableInMemory(tableId);
  if (held?.seats?.length) {
    nav(`/t/${tableId}`, { replace: true });
    return null;
  }
  const [invite, watch] = hash.split(".");
  if (!invite) return errorPage(t("error.title"), t("error.no_invite"));
  let gone = false;
  clear(root);
  root.append(topbar(), h("p", { class: "loading" }, t("table.opening")));
  post(`/api/tables/${encodeURIComponent(tableId)}/check-invite`, { invite }).then(
    (invitation) => { if (!gone) joinForm(tableId, invite, invitation); },
    (error) => {
      if (gone) return;
      if ((error.code === "table_full" || error.code === "table_over") && watch) watchOffer(tableId, watch, refusal(error));
      else errorPage(t("error.title"), refusal(error));
    });
  return { destroy: () => { gone = true; } };
}

function watchOffer(tableId, watch, why) {
  const button = h("button", { type: "button", class: "btn primary big", dataset: { action: "watch" },
    onclick: () => {
      saveTable(tableId, { watch, seats: [] });
      nav(`/t/${tableId}`, { replace: true });
    } }, t("join.watch"));
  clear(root);
  root.append(topbar(), h("section", { class: "page narrow join-page" },
    h("h1", {}, t("join.title")), h("p", { class: "lead" }, why), h("p", {}, t("join.can_watch")), button));
  button.focus();
}

/** What a join link invites to (the check-invite answer, docs/protocol.md): the game and who
 * invites, the rules, and who sits where already (the seat it would take marked as yours). */
function invitationFacts(invitation) {
  const { game, host, rules, seats = [], seat: yours } = invitation;
  const gameName = t(`game.${game}`);
  const seatText = (s) => {
    if (s.kind === "open") return s.seat === yours ? `${t("lobby.open_seat")} · ${t("join.yours")}` : t("lobby.open_seat");
    if (s.kind === "computer") return t("seat.computer", { level: t(`level.${s.level || "medium"}`) });
    return s.name || t("seat.player_n", { n: s.seat + 1 });
  };
  return [
    h("p", { class: "lead", dataset: { testid: "join-lead" } },
      host ? t("join.invited_by", { host, game: gameName }) : t("join.invited", { game: gameName })),
    h("h2", {}, t("join.rules")), rulesSummary(game, rules),
    h("h2", {}, t("join.seats")),
    h("ul", { class: "join-seats", dataset: { testid: "join-seats" } }, seats.map((s) => h("li", { dataset: { kind: s.kind } },
      `${t("lobby.seat_n", { n: s.seat + 1 })}: `, seatText(s),
      s.seat === 0 && s.kind === "human" ? [" ", h("span", { class: "badge host" }, t("lobby.host"))] : null))),
  ];
}

function joinForm(tableId, invite, invitation) {
  const nameInput = h("input", { type: "text", id: "join-name", maxlength: "24", value: playerName(), autocomplete: "nickname",
    placeholder: t("home.name_placeholder") });
  const button = h("button", { type: "submit", class: "btn primary big", dataset: { action: "join" } }, t("join.take_seat"));
  const submit = async (event) => {
    event.preventDefault();
    button.disabled = true;
    const name = nameInput.value.trim();
    if (name) setPlayerName(name);
    try {
      const answer = await post(`/api/tables/${tableId}/join`, name ? { invite, name } : { invite });
      saveTable(tableId, { mode: "friends", seats: [{ seat: answer.seat, token: answer.token }] });
      nav(`/t/${tableId}`, { replace: true });
    } catch (error) {
      button.disabled = false;
      toast(refusal(error), "error", 6000);
    }
  };
  clear(root);
  root.append(topbar(), h("section", { class: "page narrow join-page" },
    h("h1", {}, t("join.title")), invitationFacts(invitation),
    h("form", { onsubmit: submit },
      h("div", { class: "field" }, h("label", { for: "join-name" }, t("home.your_name")), nameInput), button)));
  nameInput.focus();
}

function tablePage(tableId) {
  const held = loadTable(tableId) || tableInMemory(tableId);
  if (!held && isLocalTable(tableId)) return localTablePage(tableId);
  if (!held || (!held.seats?.length && !held.watch)) return noSeatPage(tableId);
  clear(root);
  return openTable(root, tableId, held, nav);
}

/** `/t/<id>` in a browser that holds no seat there: "no such table" when there is none. */
function noSeatPage(tableId) {
  let gone = false;
  clear(root);
  root.append(topbar(), h("p", { class: "loading" }, t("table.opening")));
  get(`/api/tables/${encodeURIComponent(tableId)}`).then(
    () => { if (!gone) errorPage(t("error.title"), t("error.no_seat")); },
    (error) => {
      if (!gone) errorPage(t("error.title"), error.status === 404 ? t("error.unknown_table") : t("error.no_seat"));
    });
  return { destroy: () => { gone = true; } };
}

/** A saved game of this device whose seats this page no longer remembers: rebuilt from its summary. */
function localTablePage(tableId) {
  let current = null;
  let gone = false;
  savedGame(tableId).then((summary) => {
    if (gone) return;
    if (!summary) {
      errorPage(t("error.title"), t("error.no_seat"));
      return;
    }
    const held = heldFromSummary(summary);
    saveTable(tableId, held);
    clear(root);
    current = openTable(root, tableId, held, nav);
  });
  return {
    rerender: () => current?.rerender?.(),
    destroy: () => { gone = true; current?.destroy?.(); },
  };
}

function route() {
  screen?.destroy?.();
  screen = null;
  window.scrollTo(0, 0);
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const hash = location.hash.slice(1);
  document.title = "bistrot";
  refreshProfileLink();  // a profile made since (Play now's name dialog) puts its name in the top bar
  if (path === "/") screen = homePage(root, nav, topbar);
  else if (parts[0] === "play" && gameInfo(parts[1])) screen = quickStart(parts[1], location.search);
  else if (parts[0] === "rules" && gameInfo(parts[1])) {
    document.title = `${rulesTitle(parts[1])} · bistrot`;
    rulesPage(root, parts[1], nav, topbar);
    screen = { rerender: () => rulesPage(root, parts[1], nav, topbar) };
  } else if (parts[0] === "ratings" && gameInfo(parts[1])) screen = boardPage(root, parts[1], nav, topbar);
  else if (parts[0] === "daily" && gameInfo(parts[1]) && !parts[2]) nav(`/daily/${parts[1]}/${utcDay()}`, { replace: true });
  else if (parts[0] === "daily" && gameInfo(parts[1]) && /^\d{4}-\d{2}-\d{2}$/.test(parts[2]) && !Number.isNaN(Date.parse(parts[2]))) {
    screen = dailyPage(root, parts[1], parts[2], nav, topbar);
  }
  else if (parts[0] === "events" && parts[1] === "new" && !parts[2]) screen = newEventPage(root, nav, topbar);
  else if (parts[0] === "e" && parts[1] && !parts[2]) screen = eventPage(root, parts[1], nav, topbar);
  else if (parts[0] === "t" && parts[1]) {
    document.title = `${t("table.title")} · bistrot`;
    screen = tablePage(parts[1]);
  } else if (parts[0] === "replay" && parts[1]) {
    document.title = `${t("replay.title")} · bistrot`;
    screen = replayPage(root, parts[1], nav, topbar);
  } else if (parts[0] === "profile" && parts[1] === "claim") screen = claimPage(root, hash, nav, topbar);
  else if (parts[0] === "profile") {
    screen = parts[1] ? profilePage(root, parts[1], nav, topbar) : myProfilePage(root, nav, topbar);
  } else if (parts[0] === "join" && parts[1]) screen = joinPage(parts[1], hash);
  else if (parts[0] === "watch" && parts[1]) {
    if (hash) saveTable(parts[1], { watch: hash, seats: [] });
    nav(`/t/${parts[1]}`, { replace: true });
  } else if ((parts[0] === "challenge" || parts[0] === "c") && parts[1]) {
    challengePage(root, parts[1], nav, topbar);
    screen = { rerender: () => challengePage(root, parts[1], nav, topbar) };
  } else errorPage(t("error.not_found"), t("error.not_found_text"));
}

pruneTables();
if (!navigator.onLine) warmUp();  // offline: start the card room of this device at once
// The games and their options (GET /api/games) before the first page: every choice is built from them.
const [catalog] = await Promise.allSettled([
  loadCatalog(), startLanguage(), loadSharing(), refreshProfileLink()]);
if (catalog.status === "rejected") errorPage(t("error.title"), catalog.reason?.message || String(catalog.reason));
else route();
// Only now: the first language set above must not route the page a second time.
window.addEventListener("popstate", route);
onLanguageChange(() => {
  if (screen?.rerender) screen.rerender();
  else route();
});
setupOffline();  // offline play: install the service worker when the server offers it
pruneSaved();
