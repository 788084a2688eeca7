// Challenges: the same deal, seat and computer players for everyone who opens the link, and
// everybody's results side by side.
import { h, clear, toast } from "./dom.js";
import { t, refusal } from "./i18n.js";
import { get, post } from "./api.js";
import { saveTable, playerName, setPlayerName } from "./store.js";
import { rulesSummary } from "./rules.js";

function summaryText(game, summary) {
  if (!summary) return "";
  const parts = [];
  if (Array.isArray(summary.tokens)) parts.push(t("challenge.tokens", { tokens: summary.tokens.join(" : ") }));
  if (summary.hands !== undefined) parts.push(t("challenge.hands", { n: summary.hands }));
  if (summary.place !== undefined) parts.push(t("challenge.place", { n: summary.place }));
  if (summary.cards_left !== undefined) parts.push(t("challenge.cards_left", { n: summary.cards_left }));
  if (summary.turns !== undefined) parts.push(t("challenge.turns", { n: summary.turns }));
  return parts.join(" · ");
}

/** The results of a challenge, one column per player, the original game first. */
export function challengeComparison(data, { highlight } = {}) {
  const results = data.results || [];
  return h("section", { class: "comparison", "aria-label": t("challenge.results"), dataset: { testid: "comparison" } },
    h("h3", {}, t("challenge.results")),
    h("div", { class: "comparison-grid" }, results.map((r, i) => h("article", {
      class: ["result-card", r.won === true && "won", r.won === false && "lost", r.table === highlight && "you"],
      dataset: { status: r.status } },
    h("header", {}, h("span", { class: "result-name" }, r.name || t("seat.player_n", { n: i + 1 })),
      i === 0 ? h("span", { class: "badge" }, t("challenge.original")) : null,
      r.table === highlight ? h("span", { class: "badge" }, t("challenge.this_game")) : null),
    h("p", { class: "result-outcome" },
      r.status !== "over" ? t("challenge.playing") : r.won ? t("challenge.won") : t("challenge.lost")),
    h("p", { class: "result-detail" }, summaryText(data.game, r.summary))))),
    results.length ? null : h("p", {}, t("challenge.none")));
}

export async function challengePage(root, id, nav, topbar) {
  clear(root);
  root.append(topbar(), h("p", { class: "loading" }, t("challenge.loading")));
  let data;
  try {
    data = await get(`/api/challenges/${id}`);
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
    h("p", {}, t("challenge.seat_and_computers", { seat: data.seat + 1,
      computers: (data.computers || []).map((c) => t(`level.${c.level}`)).join(", ") || "–" })),
    rulesSummary(data.game, data.rules),
    h("div", { class: "field" }, h("label", { for: "challenge-name" }, t("home.your_name")), nameInput),
    playBtn,
    challengeComparison(data)));
}
