// @ts-check
// Challenges: the same deal, seat and computer players for everyone who opens the link, and
// everybody's results side by side. How each game went (hand by hand) is the server's to give
// only to whoever has finished a game on the deal (docs/protocol.md): the page names a finished
// table of the challenge this browser holds, with its token, and shows what it is given.
import { h, clear, toast } from "./dom.js";
import { t, refusal } from "./i18n.js";
import { get, post } from "./api.js";
import { saveTable, playerName, setPlayerName, challengeTables, heldToken } from "./store.js";
import { rulesSummary } from "./rules.js";
import { rendererFor } from "./games/index.js";

/** A finished game's summary in a few words: tokens and hands, place, cards left, turns, and
 * "hints used" where a player asked for hints (its stored result says), so that a challenge
 * shows it beside the result it helped. */
export function summaryText(game, summary) {
  if (!summary) return "";
  const parts = [];
  if (Array.isArray(summary.tokens)) parts.push(t("challenge.tokens", { tokens: summary.tokens.join(" : ") }));
  if (summary.hands !== undefined) parts.push(t("challenge.hands", { n: summary.hands }));
  if (summary.place !== undefined) parts.push(t("challenge.place", { n: summary.place }));
  if (summary.cards_left !== undefined) parts.push(t("challenge.cards_left", { n: summary.cards_left }));
  if (summary.turns !== undefined) parts.push(t("challenge.turns", { n: summary.turns }));
  if (Object.keys(summary.hints || {}).length) parts.push(t("history.hints_used"));
  return parts.join(" · ");
}

/** Challenge `id`'s results (GET /api/challenges/<id>), with every game's facts if one of
 * `tables` (this browser's tables of the challenge, js/store.js challengeTables) is finished:
 * each is named in turn with its token until the server shows them (`facts_shown`); a table it
 * refuses (forgotten, another server's) is passed over; else the answer everybody gets. */
export async function loadChallenge(id, tables = challengeTables(id)) {
  let withheld = null;
  for (const held of tables.filter(heldToken).slice(0, 3)) {
    try {
      const data = await get(`/api/challenges/${encodeURIComponent(id)}?table=${encodeURIComponent(held.id)}`,
        { Authorization: `Bearer ${heldToken(held)}` });
      if (data.facts_shown) return data;
      withheld = withheld || data;
    } catch (error) {
      if (error.status !== 403) throw error;  // (unknown challenge, network: said by the page)
    }
  }
  return withheld || get(`/api/challenges/${encodeURIComponent(id)}`);
}

/** How a challenge names people and seats: a game's player by their name, every other seat by
 * the computer player that sits there (as at the table: "Computer 2"), with its level; in a
 * game's own words (`seatName`), the original game's other seats as they were there (the
 * server's `seats` of its result: a person by their name). */
function challengeContext(data) {
  const level = (seat) => (data.computers || []).find((c) => c.seat === seat)?.level;
  const short = (seat) => t("seat.computer_name", { n: seat + 1 });
  const player = (result) => result.name || t("seat.player_n", { n: (data.results || []).indexOf(result) + 1 });
  return {
    data,
    player,
    short,
    computer: (seat) => (level(seat) ? t("challenge.computer_level", { name: short(seat), level: t(`level.${level(seat)}`) })
      : short(seat)),
    seatName: (result, seat) => {
      if (seat === data.seat) return player(result);
      const sat = result.seats?.find((s) => s.seat === seat);
      return sat?.kind === "human" ? sat.name || t("seat.player_n", { n: seat + 1 }) : short(seat);
    },
  };
}

/** Compares two ranks (arrays, lower is better, in order). */
function compareRanks(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** The challenge's seat as its player sees it (the game's renderer says it; a game the page has
 * no words for: the seat's number). */
export function seatWords(data) {
  const own = rendererFor(data.game).challenge;
  return own ? own.seat(challengeContext(data)) : t("challenge.seat_and_computers", { seat: data.seat + 1,
    computers: (data.computers || []).map((c) => t(`level.${c.level}`)).join(", ") || "–" });
}

/** Who did better: this game (`highlight`) against the original, else who is best so far
 * (`best`: the ranked games no other beats). */
function verdict(cx, ranked, best, highlight) {
  if (ranked.length < 2) return null;
  const mine = ranked.find((x) => x.r.table === highlight);
  const original = ranked.find((x) => x.r === cx.data.results[0]);
  let text;
  if (mine && original && mine !== original) {
    const c = compareRanks(mine.rank, original.rank);
    const name = cx.player(original.r);
    text = c < 0 ? t("challenge.better_you", { name }) : c > 0 ? t("challenge.better_them", { name }) : t("challenge.same", { name });
  } else {
    text = best.length > 1 ? t("challenge.best_tie", { names: best.map((x) => cx.player(x.r)).join(", ") })
      : t("challenge.best_is", { name: cx.player(best[0].r) });
  }
  return h("p", { class: "verdict", dataset: { testid: "verdict" } }, text);
}

/** The finished games side by side, a row per fact (Omi: per hand), the better cell of a row
 * marked when the games differ there. */
function sideBySide(cx, rows, finished, highlight) {
  const mark = (cells) => {
    const values = cells.map((c) => c.value).filter((v) => typeof v === "number");
    const best = Math.min(...values);
    return values.length > 1 && new Set(values).size > 1 ? best : null;
  };
  // A region that scrolls sideways when many have played: reachable by keyboard too.
  return h("div", { class: "results-wrap", tabindex: "0", role: "region", "aria-label": t(`challenge.side_by_side_${cx.data.game}`) },
    h("table", { class: "results challenge-table", dataset: { testid: "side-by-side" } },
      h("thead", {}, h("tr", {}, h("th", {}, ""), finished.map((r, i) => h("th", { scope: "col", class: r.table === highlight && "you" },
        cx.player(r), i === 0 ? h("small", { class: "why" }, ` (${t("challenge.original")})`) : null)))),
      h("tbody", {}, rows.map((row) => {
        const best = mark(row.cells);
        return h("tr", {}, h("th", { scope: "row" }, row.label), row.cells.map((cell) => h("td", {
          class: best !== null && cell.value === best && "better" }, cell.node,
        best !== null && cell.value === best ? h("span", { class: "sr-only" }, ` (${t("challenge.better")})`) : null)));
      }))),
    h("p", { class: "legend" }, t(`challenge.legend_${cx.data.game}`)));
}

/** The results of a challenge: a card per game (the original first) saying how it ended, who
 * did better, then the finished games side by side (hand by hand for Omi), or, where the server
 * withholds how the games went (`facts_shown` false: this browser has not played the deal
 * through), a line saying that playing it shows them.
 * @param {object} data the challenge with its results, as the server sends it
 * @param {{ highlight?: string }} [options] `highlight`: the table id of this browser's own game */
export function challengeComparison(data, { highlight } = {}) {
  const results = data.results || [];
  const cx = challengeContext(data);
  const own = rendererFor(data.game).challenge;
  const finished = results.filter((r) => r.status === "over" && r.facts);
  // Ranked from what each game's renderer can rank it by: Omi's headline (tokens, hands) is
  // there before the viewer has played, so who did best is said then too.
  const ranked = own ? results.filter((r) => r.status === "over").map((r) => ({ r, rank: own.rank(r, cx) }))
    .filter((x) => x.rank) : [];
  const top = ranked.length > 1 ? ranked.reduce((a, b) => (compareRanks(b.rank, a.rank) < 0 ? b : a)) : null;
  const best = top ? ranked.filter((x) => compareRanks(x.rank, top.rank) === 0) : [];
  const isBest = (r) => best.some((x) => x.r === r);
  return h("section", { class: "comparison", "aria-label": t("challenge.results"), dataset: { testid: "comparison" } },
    h("h3", {}, t("challenge.results")),
    verdict(cx, ranked, best, highlight),
    h("div", { class: "comparison-grid" }, results.map((r, i) => h("article", {
      class: ["result-card", r.won === true && "won", r.won === false && "lost", r.table === highlight && "you", isBest(r) && "best"],
      dataset: { status: r.status } },
    h("header", {}, h("span", { class: "result-name" }, cx.player(r)),
      i === 0 ? h("span", { class: "badge" }, t("challenge.original")) : null,
      r.table === highlight ? h("span", { class: "badge" }, t("challenge.this_game")) : null,
      isBest(r) ? h("span", { class: "badge best" }, t("challenge.best")) : null),
    h("p", { class: "result-outcome" },
      r.status !== "over" ? t("challenge.playing") : r.won ? t("challenge.won") : t("challenge.lost")),
    h("p", { class: "result-detail" }, summaryText(data.game, r.summary))))),
    results.length ? null : h("p", {}, t("challenge.none")),
    own && data.facts_shown && finished.length ? [h("h4", {}, t(`challenge.side_by_side_${data.game}`)),
      sideBySide(cx, own.rows(cx, finished), finished, highlight)] : null,
    own && !data.facts_shown && results.length
      ? h("p", { class: "hint", dataset: { testid: "facts-hidden" } }, t(`challenge.facts_hidden_${data.game}`)) : null);
}

/** Whether this browser made challenge `id`: it holds a seat of the game the challenge was made
 * from. Its player knows every hand of the deal: they are not offered to play it again. */
const madeHere = (id) => challengeTables(id).some((x) => x.challenges_made?.includes(id) && x.seats?.length);

export async function challengePage(root, id, nav, topbar) {
  clear(root);
  root.append(topbar(), h("p", { class: "loading" }, t("challenge.loading")));
  let data;
  try {
    data = await loadChallenge(id);
  } catch (error) {
    clear(root);
    root.append(topbar(), h("section", { class: "page narrow error-page" }, h("h1", {}, t("challenge.title")),
      h("p", {}, error.status === 404 ? t("error.unknown_challenge")
        : error.code === "network" ? t("offline.challenge_needs_network") : refusal(error))));  // offline.md
    return;
  }
  const nameInput = h("input", { type: "text", maxlength: "24", value: playerName(), id: "challenge-name",
    autocomplete: "nickname", placeholder: t("home.name_placeholder") });
  const playBtn = h("button", { type: "button", class: "btn primary big", dataset: { action: "play-challenge" },
    onclick: async () => {
      playBtn.disabled = true;
      const name = nameInput.value.trim();
      if (name) setPlayerName(name);
      try {
        const answer = await post(`/api/challenges/${id}/play`, name ? { name } : {});
        saveTable(answer.table, { game: answer.game || data.game, mode: answer.mode || "computer", seats: answer.seats,
          challenge: id, creator: true });
        nav(`/t/${answer.table}`);
      } catch (error) {
        playBtn.disabled = false;
        toast(refusal(error), "error");
      }
    } }, t("challenge.play"));
  clear(root);
  root.append(topbar(), h("section", { class: "page challenge-page" },
    h("h1", {}, t("challenge.title")),
    h("p", { class: "lead" }, t("challenge.intro", { game: t(`game.${data.game}`) })),
    h("p", { dataset: { testid: "challenge-seat" } }, seatWords(data)),
    rulesSummary(data.game, data.rules),
    madeHere(id) ? h("p", { class: "hint", dataset: { testid: "challenge-yours" } }, t("challenge.made_here"))
      : [h("div", { class: "field" }, h("label", { for: "challenge-name" }, t("home.your_name")), nameInput), playBtn],
    challengeComparison(data)));
}
