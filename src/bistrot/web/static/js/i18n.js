// @ts-check
// Languages: English, French, Chinese, Sinhala, Tamil. Chosen from the browser, switchable,
// remembered. Each language is a flat JSON dictionary in /static/i18n/<code>.json; a key missing
// from one language falls back to English, then to the server's own words for it (a game's
// title, an option's name and help: catalog.js), and a key missing everywhere shows itself.

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "fr", name: "Français" },
  { code: "zh", name: "中文" },
  { code: "si", name: "සිංහල" },
  { code: "ta", name: "தமிழ்" },
];
const STORAGE_KEY = "bistrot.lang";
const dictionaries = {};
/** What the server calls things the dictionaries may not name (catalog.js: a game registered
 * on the server that the page's languages do not know of yet), by key. */
const serverWords = {};
let current = "en";
const listeners = new Set();

async function load(code) {
  if (!dictionaries[code]) {
    const response = await fetch(`/static/i18n/${code}.json`);
    if (!response.ok) throw new Error(`cannot load language ${code}`);
    dictionaries[code] = await response.json();
  }
  return dictionaries[code];
}

/** A language the address names (`?lang=ta`), if it is one of the page's. */
function queryLanguage() {
  const query = new URLSearchParams(location.search).get("lang");
  return LANGUAGES.some((l) => l.code === query) ? query : null;
}

/** The language to start with: the address's `?lang=`, else the stored choice, else the
 * browser's first known language. */
export function detectLanguage() {
  const known = new Set(LANGUAGES.map((l) => l.code));
  const query = queryLanguage();
  if (query) return query;
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored && known.has(stored)) return stored;
  } catch { /* storage may be off */ }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (known.has(base)) return base;
  }
  return "en";
}

/** The page's first language (detectLanguage): one the address names is a choice, kept for the
 * next pages as the language menu keeps one; one detected is not. */
export const startLanguage = () => setLanguage(detectLanguage(), { remember: !!queryLanguage() });

export async function setLanguage(code, { remember = true } = {}) {
  await load("en");
  await load(code);
  current = code;
  document.documentElement.lang = code;
  if (remember) {
    try { localStorage.setItem(STORAGE_KEY, code); } catch { /* ignore */ }
  }
  for (const cb of listeners) cb(code);
}

export const language = () => current;

/** The locale to write dates and times in: the browser's own tag when it is of the page's
 * language ("en-GB" writes 19:30 where "en" writes 7:30 PM), else the page's language. */
export function dateLocale() {
  const tags = navigator.languages || [navigator.language];
  return tags.find((tag) => String(tag).toLowerCase().split("-")[0] === current) || current;
}

/** Refusals whose server message says nothing the translated text does not: shown alone.
 * Others (a rules option out of range, a card that must follow suit...) keep the server's
 * specifics after the translation. */
const PLAIN = new Set([
  "not_your_turn", "rate_limited", "busy", "spectator", "not_started", "table_moving", "node_unreachable",
  "unknown_table", "bad_invite", "table_full", "table_over", "not_joinable", "bad_level", "chat_too_long",
  "bad_chat", "chat_closed",
  // Club events (js/event.js)
  "unknown_event", "not_open", "already_joined", "no_pair", "pair_full", "event_full", "not_joined", "not_organiser",
  "too_few_pairs", "not_in_event", "event_board", "bad_start",
]);

/** A refusal of the server (an ApiError or a reject message) in the page's language, by its
 * code (with the server's specifics when they add something); the server's own message only
 * for a code the page has no text for. */
export function refusal(error) {
  const key = `reject.${error.code}`;
  if (!has(key)) return error.message || error.code;
  return error.message && !PLAIN.has(error.code) ? `${t(key)} (${error.message})` : t(key);
}
export const onLanguageChange = (cb) => listeners.add(cb);

const pluralRules = {};
/** The CLDR plural category of `n` in `lang` ("one", "other", ...). */
const category = (lang, n) => (pluralRules[lang] ||= new Intl.PluralRules(lang)).select(n);

/** The text of `key` in `dict`: with a count `n`, the plural form "<key>.<category>" of `lang`
 * (else "<key>.other"), else the plain key; undefined when the dictionary has none. */
function lookup(dict, lang, key, n) {
  if (typeof n === "number" && Number.isFinite(n)) {
    const form = dict[`${key}.${category(lang, n)}`] ?? dict[`${key}.other`];
    if (form !== undefined) return form;
  }
  return dict[key] ?? dict[`${key}.other`];
}

function fill(text, params) {
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

/** Translate `key`, filling {name} placeholders from `params`. A numeric `params.n` picks the
 * plural form, as plural() does. */
export function t(key, params = {}) {
  const n = typeof params.n === "number" ? params.n : undefined;
  // Each language falls back to its own forms before English, so a sentence never mixes two.
  const text = lookup(dictionaries[current] || {}, current, key, n) ?? lookup(dictionaries.en || {}, "en", key, n)
    ?? serverWords[key] ?? key;
  return fill(text, params);
}

/**
 * A counted text: "<key>.<category>" for `n` by the language's own rules
 * (`Intl.PluralRules(lang).select(n)`: English and Tamil "one" for 1 only, French and Sinhala
 * for 0 and 1, Chinese "other" always), falling back to "<key>.other". `{n}` is `n`, the other
 * placeholders come from `params`. The files carry the forms each language needs (see
 * tests/test_translations.py): `lobby.waiting_n.one`, `lobby.waiting_n.other`, ...
 */
export const plural = (key, n, params = {}) => t(key, { ...params, n });

/** `items` joined as "a, b or c" in the current language (Intl.ListFormat, disjunction). */
export function orList(items) {
  try {
    return new Intl.ListFormat(current, { type: "disjunction" }).format(items.map(String));
  } catch {
    return items.join(", ");
  }
}

/** ``key`` when the current language has it, else ``fallback`` (for optional wordings). */
export const tPrefer = (key, fallback, params = {}) => (key in (dictionaries[current] || {}) ? t(key, params) : t(fallback, params));

/** The server's words for keys (`{key: text}`): what t() says for a key no language has. */
export const addServerWords = (words) => { Object.assign(serverWords, words); };

/** True when the key exists in English (to tell a known server reject code from an unknown one). */
export const has = (key) => key in (dictionaries.en || {});

/** A structured entry (a list of sections for the rules pages), falling back to English. */
export function raw(key) {
  return dictionaries[current]?.[key] ?? dictionaries.en?.[key] ?? null;
}
