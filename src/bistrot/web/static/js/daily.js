// @ts-check
// The daily deal (docs/protocol.md, "The daily deal"): every game the server deals one for, the
// same cards for everyone on a UTC day, one attempt per profile. The home page's section offers
// today's (GET /api/daily/<game>; POST starts it, asking for a name the first time, as Play now
// does); /daily/<game>/<date> is a day's results board (GET /api/daily/<game>/<date>: only the
// count of players until one has played that deal oneself); the end of a daily game shows the
// result as a share text: emoji and numbers, never a card (each renderer's share()). Offline
// the daily deal is not offered: it is the server's, and compared with everyone's.
import { h, clear, patch, toast } from "./dom.js";
import { t, plural, refusal } from "./i18n.js";
import { get, post } from "./api.js";
import { allGames, labelOf, modesOf } from "./catalog.js";
import { heldTables, loadTable, saveTable } from "./store.js";
import { isOffline } from "./offline.js";
import { shareUrl } from "./sharing.js";
import { rendererFor } from "./games/index.js";
import { copyText } from "./qr.js";
import { ensureProfile, forgetProfile, myProfile, NO_PROFILE } from "./profile.js";

/** Today as the server counts days (UTC), "YYYY-MM-DD"; `days` later (negative: earlier). */
export function utcDay(days = 0, from = new Date()) {
  return new Date(from.getTime() + days * 86400000).toISOString().slice(0, 10);
}

/** The games the server may deal a daily deal for: those played against the computer. */
const dailyGames = () => allGames().filter((g) => modesOf(g.name).includes("computer")).map((g) => g.name);

const resultsPath = (game, date) => `/daily/${encodeURIComponent(game)}/${date}`;

/** The share text of a finished daily game: the game, the day, the renderer's emoji line for
 * `seat`, and the link to the day's results (which show nothing before one has played). */
export function shareText(view, seat, daily) {
  const line = rendererFor(view.game).share(view, seat);
  return `bistrot · ${t(labelOf(daily.game))} · ${daily.date}\n${line}\n${shareUrl(resultsPath(daily.game, daily.date))}`;
}

/** The share text this browser kept for its game of `game` on `date` (null: none finished here). */
function keptShare(game, date) {
  return heldTables().find((x) => x.daily?.game === game && x.daily?.date === date && x.daily?.share)?.daily.share || null;
}

/** A box with the share text, a Copy button and, where the browser has one, its Share sheet. */
export function shareTextBox(text) {
  const area = h("textarea", { class: "daily-share-text", readonly: true, rows: "3", "aria-label": t("daily.share_title"),
    dataset: { testid: "daily-share" }, onfocus: (e) => e.target.select() }, text);
  return h("div", { class: "share daily-share" },
    h("p", { class: "share-title" }, t("daily.share_title")),
    area,
    h("div", { class: "share-row" },
      h("button", { type: "button", class: "btn small", dataset: { action: "daily-copy" }, onclick: () => copyText(text, area) }, t("share.copy")),
      navigator.share && h("button", { type: "button", class: "btn small", dataset: { action: "daily-share" },
        onclick: () => navigator.share({ text }).catch(() => {}) }, t("daily.share"))));
}

/** The end of a daily game (the table's over screen): the share text, kept with the table for
 * the results page, and the way to the day's results. */
export function dailyOver(T, view, seat) {
  const { held, tableId, nav } = T;
  const share = shareText(view, seat, held.daily);
  if (held.daily.share !== share) {
    held.daily = { ...held.daily, share };
    saveTable(tableId, held);
  }
  const path = resultsPath(held.daily.game, held.daily.date);
  return h("div", { class: "daily-over", dataset: { testid: "daily-over" } },
    shareTextBox(share),
    h("a", { class: "btn primary", href: path, dataset: { action: "daily-results" },
      onclick: (e) => { e.preventDefault(); nav(path); } }, t("daily.see_results")));
}

/** Start (or go back to) today's game of `game` with this browser's profile; the day's results
 * once it was played. */
async function playToday(game, nav) {
  let profile = await ensureProfile();
  if (!profile) return;
  let answer;
  try {
    try {
      answer = await post(`/api/daily/${encodeURIComponent(game)}`, {});
    } catch (error) {
      if (!NO_PROFILE.has(error.code)) throw error;
      forgetProfile();  // the cookie opens no profile any more: a name again
      profile = await ensureProfile();
      if (!profile) return;
      answer = await post(`/api/daily/${encodeURIComponent(game)}`, {});
    }
  } catch (error) {
    if (error.code === "daily_played") {
      nav(resultsPath(game, utcDay()));
      return;
    }
    // Today's game is on: back to it, when this browser holds its seat (another device's game
    // is that device's to finish: its seat token was given there only).
    const table = error.code === "daily_unfinished" ? error.body?.table : null;
    if (table && loadTable(table)?.seats?.length) {
      nav(`/t/${table}`);
      return;
    }
    throw error;
  }
  const date = answer.date || utcDay();
  saveTable(answer.table, { game, mode: "computer", daily: { game, date }, seats: [{ seat: answer.seat, token: answer.token }] });
  nav(`/t/${answer.table}`);
}

/** The home page's section: today's deal of each game, with its button, and yesterday's board. */
export function dailySection(nav) {
  const box = h("section", { class: "daily", "aria-labelledby": "daily-title", dataset: { testid: "daily" } });
  const days = {};  // game -> GET /api/daily/<game>'s answer (null: the server deals none)
  let busy = null;
  let gone = false;

  function load() {
    if (isOffline()) return;
    for (const game of dailyGames()) {
      if (game in days) continue;
      days[game] = undefined;
      get(`/api/daily/${encodeURIComponent(game)}`).then(
        (day) => { days[game] = day; draw(); },
        () => { days[game] = null; draw(); });
    }
  }

  async function start(game) {
    busy = game;
    draw();
    try {
      await playToday(game, nav);
    } catch (error) {
      toast(refusal(error), "error", 6000);
    } finally {
      busy = null;
      if (!gone) draw();
    }
  }

  /** A game's card; while its deal is asked for (``days[game]`` undefined), one of the same size
   * with the day by this device's clock, so that nothing below it moves when the answer comes
   * (a click meant for the form would land elsewhere). */
  function panel(game) {
    const day = days[game] || { date: utcDay(), loading: true };
    const title = t(labelOf(game));
    const link = (path, text, action) => h("a", { href: path, dataset: { action, game },
      onclick: (e) => { e.preventDefault(); nav(path); } }, text, h("span", { class: "sr-only" }, `: ${title}`));
    return h("article", { class: "daily-game", dataset: { game, testid: day.loading ? null : `daily-${game}` } },
      h("h3", {}, title),
      h("p", { class: "hint" }, day.loading ? t("daily.loading") : plural("daily.about", day.hands, { level: t(`level.${day.level}`) })),
      h("div", { class: "daily-actions" },
        day.loading ? h("button", { type: "button", class: "btn primary", disabled: true }, t("daily.play"), h("span", { class: "sr-only" }, `: ${title}`))
        : day.finished
          ? h("a", { href: resultsPath(game, day.date), class: "btn primary", dataset: { action: "daily-results", game },
            onclick: (e) => { e.preventDefault(); nav(resultsPath(game, day.date)); } },
          t("daily.results"), h("span", { class: "sr-only" }, `: ${title}`))
          : h("button", { type: "button", class: "btn primary", disabled: busy !== null, "aria-busy": busy === game ? "true" : null,
            dataset: { action: "daily-play", game }, onclick: () => start(game) },
          t(day.played ? "daily.continue" : "daily.play"), h("span", { class: "sr-only" }, `: ${title}`)),
        link(resultsPath(game, utcDay(-1, new Date(`${day.date}T12:00:00Z`))), t("daily.yesterday"), "daily-yesterday")));
  }

  function content() {
    const head = h("h2", { id: "daily-title" }, t("daily.title"));
    if (isOffline()) return [head, h("p", { class: "offline-note", dataset: { testid: "daily-offline" } }, t("daily.offline"))];
    const shown = dailyGames().filter((g) => days[g] !== null);  // dealt, or still being asked for
    const dealt = shown.find((g) => days[g]);
    // (until the server says, the day by this device's clock: the same width, the same lines)
    const date = dealt ? days[dealt].date : utcDay();
    return [head,
      h("p", { class: "hint" }, t("daily.lead"), shown.length ? ` (${date}, UTC)` : ""),
      shown.length ? h("div", { class: "daily-games" }, shown.map(panel))
        : h("p", { class: "hint" }, t("daily.none_today"))];
  }

  function draw() {
    if (gone) return;
    load();
    box.hidden = dailyGames().length === 0 || (!isOffline() && dailyGames().every((g) => days[g] === null));
    patch(box, content());
  }

  draw();
  return { node: box, draw, destroy: () => { gone = true; } };
}

/** /daily/<game>/<date>: the day's results, ranked; before one has played that deal, only how
 * many have. */
export function dailyPage(root, game, date, nav, topbar) {
  let answer = null;
  let failed = null;
  let me = null;
  let gone = false;
  const today = utcDay();
  const title = () => t("daily.page_title", { game: t(labelOf(game)), date });
  const link = (path, text, action) => h("a", { href: path, dataset: { action },
    onclick: (e) => { e.preventDefault(); nav(path); } }, text);

  function board() {
    if (!answer.results.length) return h("p", { dataset: { testid: "daily-empty" } }, t("daily.nobody"));
    return h("div", { class: "board-wrap" }, h("table", { class: "results board", dataset: { testid: "daily-board" } },
      h("caption", { class: "sr-only" }, title()),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("board.rank")), h("th", { scope: "col", class: "board-name" }, t("board.player")),
        h("th", { scope: "col" }, t("daily.score")), h("th", { scope: "col" }, t("daily.accuracy")))),
      h("tbody", {}, answer.results.map((r) => h("tr", { class: me && r.profile === me.profile ? "mine" : null,
        dataset: { profile: r.profile } },
      h("td", {}, String(r.rank)),
      h("th", { scope: "row", class: "board-name" }, link(`/profile/${encodeURIComponent(r.profile)}`, r.name || "–", "daily-profile")),
      h("td", {}, r.score === null || r.score === undefined ? "–" : String(r.score)),
      h("td", {}, r.accuracy === null || r.accuracy === undefined ? "–" : `${Math.round(r.accuracy)} %`))))));
  }

  /** The page's middle, as a list of nodes (dom.js patch takes them as they are). */
  function body() {
    if (failed) return [h("p", { class: "offline-note", role: "alert" }, failed)];
    if (answer === null) return [h("p", { class: "hint" }, t("board.loading"))];
    const share = keptShare(game, date);
    const results = Array.isArray(answer.results) ? [board()]
      : [h("p", { class: "hint", dataset: { testid: "daily-hidden" } }, t("daily.hidden")),
        date === today && h("button", { type: "button", class: "btn primary", dataset: { action: "daily-play", game },
          onclick: () => playToday(game, nav).catch((error) => toast(refusal(error), "error", 6000)) }, t("daily.play"))];
    return [
      h("p", { dataset: { testid: "daily-count" } }, plural("daily.played_n", answer.played ?? 0)),
      ...results,
      share && shareTextBox(share),
    ].filter(Boolean);
  }

  const box = h("section", { class: "page narrow board-page daily-page" });
  function draw() {
    if (gone) return;
    document.title = `${title()} · bistrot`;
    const before = utcDay(-1, new Date(`${date}T12:00:00Z`));
    const after = utcDay(1, new Date(`${date}T12:00:00Z`));
    // Drawn again as each answer comes (whom the page plays as may come after the deal's Play
    // button): what is equal is kept (dom.js patch), so a tap under way on it is not lost.
    patch(box, [
      h("h1", {}, title()),
      h("p", { class: "lead" }, t("daily.board_lead")),
      ...body(),
      h("p", { class: "board-others" },
        link(resultsPath(game, before), t("daily.previous"), "daily-previous"),
        after <= today && [" · ", link(resultsPath(game, after), t("daily.next"), "daily-next")],
        " · ", link("/", t("nav.home"), "home")),
    ]);
  }

  function redraw() {
    clear(root);
    root.append(topbar(), box);
    draw();
  }

  if (isOffline()) failed = t("daily.offline");
  else {
    myProfile().then((profile) => { me = profile; draw(); }, () => {});
    get(`/api/daily/${encodeURIComponent(game)}/${encodeURIComponent(date)}`).then(
      (got) => { answer = got; draw(); },
      (error) => { failed = refusal(error); draw(); });
  }
  redraw();
  return { rerender: redraw, destroy: () => { gone = true; } };
}
