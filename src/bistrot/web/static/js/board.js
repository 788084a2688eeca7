// @ts-check
// A game's leaderboard, /ratings/<game>: the best-rated players (GET /api/ratings/<game>), their
// rating and how many rated games they played; links to the other games' boards.
import { h, clear } from "./dom.js";
import { t, refusal } from "./i18n.js";
import { get } from "./api.js";
import { allGames, labelOf, modesOf } from "./catalog.js";
import { isOffline } from "./offline.js";

const LIMIT = 50;

export function boardPage(root, game, nav, topbar) {
  let players = null;  // null: not loaded yet
  let failed = null;
  let gone = false;
  const title = () => t("board.title", { game: t(labelOf(game)) });

  const link = (path, text, data = {}) => h("a", { href: path, dataset: data, onclick: (e) => { e.preventDefault(); nav(path); } }, text);

  function body() {
    if (failed) return h("p", { class: "offline-note", role: "alert" }, failed);
    if (players === null) return h("p", { class: "hint" }, t("board.loading"));
    if (!players.length) return h("p", { dataset: { testid: "board-empty" } }, t("board.empty"));
    return h("div", { class: "board-wrap" }, h("table", { class: "results board", dataset: { testid: "board" } },
      h("caption", { class: "sr-only" }, title()),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("board.rank")), h("th", { scope: "col", class: "board-name" }, t("board.player")),
        h("th", { scope: "col" }, t("board.rating")), h("th", { scope: "col" }, t("board.games")))),
      h("tbody", {}, players.map((p, i) => h("tr", { dataset: { profile: p.profile } },
        h("td", {}, String(i + 1)), h("th", { scope: "row", class: "board-name" }, p.name),
        h("td", {}, String(Math.round(p.rating))), h("td", {}, String(p.games)))))));
  }

  function draw() {
    if (gone) return;
    document.title = `${title()} · bistrot`;
    const others = allGames().map((g) => g.name).filter((name) => name !== game && modesOf(name).includes("friends"));
    clear(root);
    root.append(topbar(), h("section", { class: "page narrow board-page" },
      h("h1", {}, title()),
      h("p", { class: "lead" }, t("board.lead")),
      body(),
      others.length ? h("p", { class: "board-others" }, t("board.others"), " ",
        others.map((name, i) => [i ? " · " : "", link(`/ratings/${name}`, t(labelOf(name)), { game: name })])) : null,
      h("p", {}, link("/", t("nav.home"), { action: "home" }))));
  }

  if (isOffline()) failed = t("board.needs_network");
  else {
    get(`/api/ratings/${encodeURIComponent(game)}?limit=${LIMIT}`).then(
      (answer) => { players = answer.players || []; draw(); },
      (error) => { failed = refusal(error); draw(); });
  }
  draw();
  return { rerender: draw, destroy: () => { gone = true; } };
}
