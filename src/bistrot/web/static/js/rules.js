// @ts-check
// The rules pages, and rules options in words. The options themselves (names, types, values,
// defaults) are the server's (GET /api/games, js/catalog.js); their names and help are in the
// translations under each option's label ("opt.target", "opt.target.help", "opt.kapothi.announced").
import { h, clear, navLink as link } from "./dom.js";
import { t, raw, has } from "./i18n.js";
import { allGames, optionsOf, labelOf, provides } from "./catalog.js";

/** The title of a game's rules page: its translation, else (a game the page's languages have
 * no rules text for) the game's name. */
export const rulesTitle = (game) => (has(`rules.${game}.title`) ? t(`rules.${game}.title`) : t(labelOf(game)));

/** One value of an option, in words: "on", "clockwise", "5". */
export function optionValueText(option, value) {
  if (option.type === "bool") return value ? t("opt.on") : t("opt.off");
  if (option.type === "choice") return t(`${option.label}.${value}`);
  return String(value);
}

/** Every value an option takes, in words (an int option without choices: its range). */
export function optionValuesText(option) {
  if (option.type === "bool") return `${t("opt.on")} / ${t("opt.off")}`;
  if (option.choices?.length) return option.choices.map((v) => optionValueText(option, v)).join(" / ");
  return `${option.min ?? ""}–${option.max ?? ""}`;
}

/** A short list of a table's rules (only those that differ from the defaults, or "standard"). */
export function rulesSummary(game, rules) {
  const items = optionsOf(game)
    .filter((o) => rules && rules[o.name] !== undefined && rules[o.name] !== o.default)
    .map((o) => h("li", {}, `${t(o.label)}: ${optionValueText(o, rules[o.name])}`));
  return h("ul", { class: "rules-summary" }, items.length ? items : h("li", {}, t("rules.standard")));
}

export function rulesPage(root, game, nav, topbar) {
  clear(root);
  const sections = raw(`rules.${game}.sections`) || [];
  const others = allGames().filter((g) => g.name !== game);
  root.append(topbar(), h("article", { class: "page rules-page", lang: document.documentElement.lang },
    h("h1", {}, rulesTitle(game)),
    has(`rules.${game}.lead`) && h("p", { class: "lead" }, t(`rules.${game}.lead`)),
    sections.map(([title, ...paragraphs]) => h("section", {}, h("h2", {}, title),
      paragraphs.map((p) => (Array.isArray(p) ? h("ul", {}, p.map((li) => h("li", {}, li))) : h("p", {}, p))))),
    // How ratings work: the same for every rated game (docs/protocol.md, "Ratings").
    provides(game, "rated") && h("section", { class: "rules-ratings", dataset: { testid: "rules-ratings" } }, h("h2", {}, t("rules.ratings_title")),
      (raw("rules.ratings") || []).map((p) => h("p", {}, p))),
    h("section", {}, h("h2", {}, t("rules.options")),
      h("table", { class: "options-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("rules.option")), h("th", {}, t("rules.values")), h("th", {}, t("rules.default")))),
        h("tbody", {}, optionsOf(game).map((o) => h("tr", {},
          h("td", {}, h("strong", {}, t(o.label)), h("br"), h("code", {}, o.name), h("p", { class: "hint" }, t(`${o.label}.help`))),
          h("td", {}, optionValuesText(o)),
          h("td", {}, optionValueText(o, o.default))))))),
    h("p", {}, link(nav, `/play/${game}`, { class: "btn primary" }, t("rules.play_now")),
      others.map((g) => [" ", link(nav, `/rules/${g.name}`, { dataset: { game: g.name } }, rulesTitle(g.name))]))));
}
