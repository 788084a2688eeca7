// Languages: English, French, Chinese, Sinhala, Tamil. Chosen from the browser, switchable,
// remembered. Each language is a flat JSON dictionary in /static/i18n/<code>.json; a key missing
// from one language falls back to English, and a key missing everywhere shows itself.

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "fr", name: "Français" },
  { code: "zh", name: "中文" },
  { code: "si", name: "සිංහල" },
  { code: "ta", name: "தமிழ்" },
];
const STORAGE_KEY = "bistrot.lang";
const dictionaries = {};
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

/** The language to start with: the stored choice, else the browser's first known language. */
export function detectLanguage() {
  const known = new Set(LANGUAGES.map((l) => l.code));
  const query = new URLSearchParams(location.search).get("lang");
  if (query && known.has(query)) return query;
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

/** A refusal of the server (an ApiError or a reject message) in the page's language, by its
 * code; the server's own English message only for a code the page has no text for. */
export function refusal(error) {
  const key = `reject.${error.code}`;
  return has(key) ? t(key) : error.message;
}
export const onLanguageChange = (cb) => listeners.add(cb);

/** Translate `key`, filling {name} placeholders from `params`. */
export function t(key, params = {}) {
  const mine = dictionaries[current] || {};
  const english = dictionaries.en || {};
  // Plural forms are optional keys "<key>.<CLDR category>" ("seat.cards_n.one"); each language
  // falls back to its own plain key before English, so a sentence never mixes two languages.
  let plural = null;
  if (typeof params.n === "number") plural = `${key}.${new Intl.PluralRules(current).select(params.n)}`;
  const englishPlural = typeof params.n === "number" ? `${key}.${new Intl.PluralRules("en").select(params.n)}` : null;
  let text = (plural && mine[plural]) ?? mine[key] ?? (englishPlural && english[englishPlural]) ?? english[key] ?? key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

/** ``key`` when the current language has it, else ``fallback`` (for optional wordings). */
export const tPrefer = (key, fallback, params = {}) => (key in (dictionaries[current] || {}) ? t(key, params) : t(fallback, params));

/** True when the key exists in English (to tell a known server reject code from an unknown one). */
export const has = (key) => key in (dictionaries.en || {});

/** A structured entry (a list of sections for the rules pages), falling back to English. */
export function raw(key) {
  return dictionaries[current]?.[key] ?? dictionaries.en?.[key] ?? null;
}
