// @ts-check
// The home page's "Play now" and the live lobby beside it (docs/protocol.md, "The lobby"): one
// button per game that seats the player at the next public table waiting (POST /api/quickmatch),
// and the public tables waiting for players, followed live (GET /api/lobby/events, an
// EventSource), each with a Join button. Both need a profile: the first time, the page asks for
// a name (profile.js). Offline, the section only says that they need the network.
import { h, patch, toast } from "./dom.js";
import { t, refusal } from "./i18n.js";
import { post } from "./api.js";
import { loadTable, saveTable } from "./store.js";
import { allGames, labelOf, modesOf, optionsOf } from "./catalog.js";
import { optionValueText } from "./rules.js";
import { isOffline } from "./offline.js";
import { myProfile, ensureProfile, forgetProfile, NO_PROFILE } from "./profile.js";
import { countdown } from "./countdown.js";

/** How long the page waits before following the lobby again when the server refused or ended
 * the stream (an EventSource retries by itself only after a network error). */
const RETRY_MS = 10000;

/** The games a quick match can be asked for: those played with friends at a table. */
const matchable = () => allGames().filter((g) => modesOf(g.name).includes("friends")).map((g) => g.name);

/** What this browser keeps for a public table it sits at (as a join link's seat is kept). */
function keep(game, answer) {
  saveTable(answer.table, { game, mode: "friends", public: true, seats: [{ seat: answer.seat, token: answer.token }] });
}

/** A seat of the browser's own at `tableId`, or false. */
const holds = (tableId) => !!loadTable(tableId)?.seats?.length;

/** The section, and what the home page calls: draw() (language, network), destroy() (leaving). */
export function playNowSection(nav) {
  const box = h("section", { class: "playnow", "aria-labelledby": "playnow-title", dataset: { testid: "playnow" } });
  let tables = null;  // the lobby's tables, every game's; null until the first event
  let playing = [];  // the public tables in play, every game's: each watched by its link
  let source = null;
  let retry = null;
  let me = null;
  let busy = null;  // the game or table a request is being made for
  let gone = false;

  function follow() {
    if (source || retry || gone || isOffline()) return;
    source = new EventSource("/api/lobby/events");
    source.addEventListener("lobby", (event) => {
      try {
        const lobby = JSON.parse(event.data);
        tables = lobby.tables || [];
        playing = lobby.playing || [];
      } catch {
        return;
      }
      draw();
    });
    source.onerror = () => {
      // Closed (a refusal such as too_many_streams, or the server ended it): follow again later.
      if (source?.readyState !== EventSource.CLOSED) return;
      source = null;
      retry = setTimeout(() => { retry = null; follow(); }, RETRY_MS);
    };
  }

  function stop() {
    source?.close();
    source = null;
    clearTimeout(retry);
    retry = null;
  }

  /** Whom the page plays as (shown, and to tell one's own table in the lobby). */
  function learnProfile() {
    myProfile().then((profile) => { if (profile?.profile !== me?.profile) { me = profile; draw(); } }, () => {});
  }

  async function withProfile(what, request) {
    busy = what;
    draw();
    try {
      let profile = await ensureProfile();
      if (!profile) return;
      me = profile;
      try {
        await request();
      } catch (error) {
        if (!NO_PROFILE.has(error.code)) throw error;
        // The cookie opens no profile any more (the server forgot it): ask for a name again.
        forgetProfile();
        profile = await ensureProfile();
        if (!profile) return;
        me = profile;
        await request();
      }
    } catch (error) {
      toast(refusal(error), "error", 6000);
    } finally {
      busy = null;
      if (!gone) draw();
    }
  }

  /** The table this profile already waits at, from the lobby or the refusal's own words. */
  function waitingAt(error) {
    const listed = (tables || []).find((x) => me && x.seats.some((s) => s?.profile === me.profile));
    return listed?.table || /table ([\w-]+)/.exec(error.message || "")?.[1] || null;
  }

  const playNow = (game) => withProfile(game, async () => {
    let answer;
    try {
      answer = await post("/api/quickmatch", { game });  // the game's default rules
    } catch (error) {
      const table = error.code === "already_waiting" ? waitingAt(error) : null;
      if (!table || !holds(table)) throw error;
      nav(`/t/${table}`);
      return;
    }
    keep(game, answer);
    nav(`/t/${answer.table}`);
  });

  const join = (listed) => withProfile(listed.table, async () => {
    let answer;
    try {
      answer = await post(`/api/tables/${encodeURIComponent(listed.table)}/join`, {});
    } catch (error) {
      if (error.code !== "already_seated" || !holds(listed.table)) throw error;
      nav(`/t/${listed.table}`);
      return;
    }
    keep(listed.game, answer);
    nav(`/t/${answer.table}`);
  });

  // ------------------------------------------------------------------------------ drawing

  function seatText(seat) {
    if (!seat) return t("seat.open");
    if (seat.level) return t("seat.computer", { level: t(`level.${seat.level}`) });
    return seat.rating === null || seat.rating === undefined ? seat.name : `${seat.name} (${Math.round(seat.rating)})`;
  }

  function rulesText(listed) {
    return optionsOf(listed.game)
      .filter((o) => listed.rules?.[o.name] !== undefined && listed.rules[o.name] !== o.default)
      .map((o) => `${t(o.label)}: ${optionValueText(o, listed.rules[o.name])}`).join(" · ");
  }

  function tableItem(listed) {
    const people = listed.seats.filter((s) => s && !s.level).map((s) => s.name);
    const mine = holds(listed.table);
    const rules = rulesText(listed);
    const free = listed.seats.some((s) => !s);
    const button = mine
      ? h("button", { type: "button", class: "btn small primary", dataset: { action: "lobby-back", table: listed.table },
        onclick: () => nav(`/t/${listed.table}`) }, t("playnow.your_table"))
      : free && h("button", { type: "button", class: "btn small primary", disabled: busy !== null,
        dataset: { action: "lobby-join", table: listed.table }, onclick: () => join(listed) },
      t("playnow.join"), h("span", { class: "sr-only" }, ` ${t("playnow.table_of", { names: people.join(", ") })}`));
    return h("li", { class: "lobby-table", dataset: { table: listed.table, testid: "lobby-table" } },
      h("ul", { class: "lobby-table-seats", "aria-label": t("lobby.seats") }, listed.seats.map((seat, i) =>
        h("li", { dataset: { seat: i, kind: !seat ? "open" : seat.level ? "computer" : "human" } }, seatText(seat)))),
      h("p", { class: "lobby-table-meta" },
        h("span", { class: ["badge", listed.rated ? "rated" : "unrated"] }, listed.rated ? t("playnow.rated") : t("playnow.unrated")),
        rules && h("span", {}, rules),
        free && listed.fills_at && countdown(listed.fills_at, { class: "lobby-fills" })),
      button);
  }

  function playingItem(listed) {
    const people = listed.seats.filter((s) => s && !s.level).map((s) => s.name);
    return h("li", { class: "lobby-table", dataset: { table: listed.table, testid: "lobby-playing" } },
      h("ul", { class: "lobby-table-seats", "aria-label": t("lobby.seats") }, listed.seats.map((seat, i) =>
        h("li", { dataset: { seat: i, kind: !seat ? "open" : seat.level ? "computer" : "human" } }, seatText(seat)))),
      h("a", { href: listed.watch_url, class: "btn small", dataset: { action: "lobby-watch", table: listed.table } },
        t("playnow.watch"), h("span", { class: "sr-only" }, ` ${t("playnow.table_of", { names: people.join(", ") })}`)));
  }

  function gamePanel(game) {
    const title = t(labelOf(game));
    const waiting = (tables || []).filter((x) => x.game === game);
    const list = tables === null
      ? h("p", { class: "hint" }, t("playnow.loading"))
      : waiting.length ? h("ul", { class: "lobby-tables" }, waiting.map(tableItem))
        : h("p", { class: "hint", dataset: { testid: "lobby-empty" } }, t("playnow.none"));
    return h("article", { class: "playnow-game", dataset: { game } },
      h("div", { class: "playnow-head" },
        h("h3", {}, title),
        h("button", { type: "button", class: "btn primary", disabled: busy !== null, dataset: { action: "playnow", game },
          "aria-busy": busy === game ? "true" : null, onclick: () => playNow(game) },
        t("playnow.title"), h("span", { class: "sr-only" }, `: ${title}`))),
      // The live lists in a box of their own height, scrolled inside: tables coming and going
      // never move what is below (a click meant for the form would land on something else).
      h("div", { class: "lobby-area" },
        h("h4", {}, t("playnow.waiting")),
        h("div", { class: "lobby-list", dataset: { testid: `lobby-${game}` } }, list),
        playing.some((x) => x.game === game) && [
          h("h4", {}, t("playnow.playing")),
          h("ul", { class: "lobby-tables", dataset: { testid: `playing-${game}` } },
            playing.filter((x) => x.game === game).slice(0, 10).map(playingItem)),
        ]),
      h("a", { href: `/ratings/${game}`, class: "playnow-board", dataset: { action: "leaderboard", game },
        onclick: (e) => { e.preventDefault(); nav(`/ratings/${game}`); } },
      t("playnow.leaderboard"), h("span", { class: "sr-only" }, `: ${title}`)));
  }

  function content() {
    if (isOffline()) {
      return [h("h2", { id: "playnow-title" }, t("playnow.title")),
        h("p", { class: "offline-note", dataset: { testid: "playnow-offline" } }, t("playnow.offline"))];
    }
    return [
      h("h2", { id: "playnow-title" }, t("playnow.title")),
      h("p", { class: "hint" }, t("playnow.lead"), me ? ` ${t("playnow.as", { name: me.name })}` : ""),
      h("div", { class: "playnow-games" }, matchable().map(gamePanel)),
    ];
  }

  function draw() {
    if (gone) return;
    if (isOffline()) stop();
    else follow();
    box.hidden = matchable().length === 0;
    patch(box, content());
  }

  learnProfile();
  draw();
  return {
    node: box,
    draw,
    destroy: () => {
      gone = true;
      stop();
    },
  };
}
