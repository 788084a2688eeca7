// Rules options (names as in RULES.md and the engines) and the rules pages.
import { h, clear } from "./dom.js";
import { t, raw } from "./i18n.js";

export const OPTIONS = {
  omi: [
    { name: "target", type: "int", choices: [10, 5], default: 10, min: 1, max: 99 },
    { name: "players", type: "int", choices: [4, 3], default: 4 },
    { name: "direction", type: "choice", choices: ["counterclockwise", "clockwise"], default: "counterclockwise" },
    { name: "deal_rotation", type: "choice", choices: ["with_play", "against_play"], default: "with_play" },
    { name: "kapothi", type: "choice", choices: ["three_tokens", "wins_match", "announced"], default: "three_tokens" },
    { name: "redeal_few_trumps", type: "bool", default: false },
  ],
  oti: [
    { name: "players", type: "int", choices: [2, 3, 4, 5], default: 4 },
    { name: "ten_plays_again", type: "bool", default: false },
    { name: "voluntary_pickup", type: "bool", default: false },
    { name: "play_to_last", type: "bool", default: false },
  ],
};

export const LEVELS = ["easy", "medium", "hard"];

/** Read a query/form value into the type the engine expects ("5" -> 5, "on" -> true). */
export function coerce(value) {
  const text = String(value).trim();
  if (/^-?\d+$/.test(text)) return Number(text);
  if (["true", "on", "yes"].includes(text.toLowerCase())) return true;
  if (["false", "off", "no"].includes(text.toLowerCase())) return false;
  return text;
}

export function optionValueText(option, value) {
  if (option.type === "bool") return value ? t("opt.on") : t("opt.off");
  if (option.type === "choice") return t(`opt.${option.name}.${value}`);
  return String(value);
}

/** A short list of a table's rules (only those that differ from the defaults, or "standard"). */
export function rulesSummary(game, rules) {
  const items = (OPTIONS[game] || [])
    .filter((o) => rules && rules[o.name] !== undefined && rules[o.name] !== o.default)
    .map((o) => h("li", {}, `${t(`opt.${o.name}`)}: ${optionValueText(o, rules[o.name])}`));
  return h("ul", { class: "rules-summary" }, items.length ? items : h("li", {}, t("rules.standard")));
}

export function rulesPage(root, game, nav, topbar) {
  clear(root);
  const sections = raw(`rules.${game}.sections`) || [];
  root.append(topbar(), h("article", { class: "page rules-page", lang: document.documentElement.lang },
    h("h1", {}, t(`rules.${game}.title`)),
    h("p", { class: "lead" }, t(`rules.${game}.lead`)),
    sections.map(([title, ...paragraphs]) => h("section", {}, h("h2", {}, title),
      paragraphs.map((p) => (Array.isArray(p) ? h("ul", {}, p.map((li) => h("li", {}, li))) : h("p", {}, p))))),
    h("section", {}, h("h2", {}, t("rules.options")),
      h("table", { class: "options-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("rules.option")), h("th", {}, t("rules.values")), h("th", {}, t("rules.default")))),
        h("tbody", {}, OPTIONS[game].map((o) => h("tr", {},
          h("td", {}, h("strong", {}, t(`opt.${o.name}`)), h("br"), h("code", {}, o.name), h("p", { class: "hint" }, t(`opt.${o.name}.help`))),
          h("td", {}, o.type === "bool" ? `${t("opt.on")} / ${t("opt.off")}` : o.choices.map((v) => optionValueText(o, v)).join(" / ")),
          h("td", {}, optionValueText(o, o.default))))))),
    h("p", {}, h("a", { href: `/play/${game}`, class: "btn primary", onclick: (e) => { e.preventDefault(); nav(`/play/${game}`); } },
      t("rules.play_now")), " ",
    h("a", { href: `/rules/${game === "omi" ? "oti" : "omi"}`, onclick: (e) => { e.preventDefault(); nav(`/rules/${game === "omi" ? "oti" : "omi"}`); } },
      t(`rules.${game === "omi" ? "oti" : "omi"}.title`)))));
}
