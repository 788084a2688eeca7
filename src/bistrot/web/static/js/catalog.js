// @ts-check
// The games this server plays, as GET /api/games lists them: names, rules options, computer
// levels, ways to play. Loaded once when the page starts (app.js awaits loadCatalog()); every
// choice the page offers is built from it, so a game or an option added on the server shows up
// here without a line of page code. Offline, the service worker answers from its cache (sw.js);
// a copy kept in localStorage covers a page whose service worker is not installed yet.
import { get } from "./api.js";
import { addServerWords } from "./i18n.js";

const KEY = "bistrot.games";
/** The rules option that sets how many seats a table has (hot-seat names, one per seat). The
 * server does not mark it yet: this is the one place the page assumes its name. */
const SEATS_OPTION = "players";

let games = [];

/** Fetch the list (once); later calls return the same promise. Throws when no list is at hand. */
let loading = null;
export function loadCatalog() {
  loading ??= (async () => {
    try {
      games = (await get("/api/games")).games || [];
      try { localStorage.setItem(KEY, JSON.stringify(games)); } catch { /* private mode: fine */ }
    } catch (error) {
      try { games = JSON.parse(localStorage.getItem(KEY) || "[]"); } catch { games = []; }
      if (!games.length) {
        loading = null;  // try again on the next call
        throw error;
      }
    }
    addServerWords(serverWords(games));
    return games;
  })();
  return loading;
}

/** The catalog's own words for the keys it names, for a game the page's languages do not know
 * (one registered on the server only): the game's title, an option's record tag and help. */
function serverWords(list) {
  const words = {};
  for (const game of list) {
    if (game.title) words[game.label || `game.${game.name}`] = game.title;
    for (const o of game.options || []) {
      if (!o.label) continue;
      if (o.tag) words[o.label] = o.tag;
      if (o.help) words[`${o.label}.help`] = o.help;
    }
  }
  return words;
}

/** Every game, in the server's order. */
export const allGames = () => games;

/** One game's entry ({name, title, label, options, levels, default_level, modes}) or undefined. */
export const gameInfo = (name) => games.find((g) => g.name === name);

/** The translation key of a game's name ("game.<name>"). */
export const labelOf = (name) => gameInfo(name)?.label || `game.${name}`;

/** A game's rules options ([] for a game the server does not list). */
export const optionsOf = (name) => gameInfo(name)?.options || [];

/** A game's computer levels and the one chosen when nobody says. */
export const levelsOf = (name) => gameInfo(name)?.levels || [];
export const defaultLevel = (name) => gameInfo(name)?.default_level || levelsOf(name)[0];

/** The ways to play a game (computer, friends, hotseat). */
export const modesOf = (name) => gameInfo(name)?.modes || [];

/** Whether a game provides `capability` ("analysis", "hints", "terminal", "rated", "facts"), as
 * its entry declares: the page offers nothing a game does not provide. A game this catalog does
 * not list provides nothing; a list kept from a server that did not yet declare capabilities
 * (a page offline since) is taken to provide all, as that server did. */
export function provides(name, capability) {
  const info = gameInfo(name);
  if (!info) return false;
  return info.capabilities ? !!info.capabilities[capability] : true;
}

/** How many seats a table of `name` with `rules` has (null when the game has no such option). */
export function seatCount(name, rules = {}) {
  const option = optionsOf(name).find((o) => o.name === SEATS_OPTION);
  return option ? rules[option.name] ?? option.default : null;
}

/** A query or form value in the type `option` takes ("5" -> 5, "on" -> true). Without an
 * option (a parameter no option of the game has: the server will say what is wrong with it) the
 * type is guessed from the text. */
export function coerce(value, option = null) {
  const text = String(value).trim();
  const lower = text.toLowerCase();
  if (option?.type === "choice") return text;
  if (option?.type === "bool" && ["1", "0"].includes(lower)) return lower === "1";
  if (/^-?\d+$/.test(text)) return Number(text);
  if (["true", "on", "yes"].includes(lower)) return true;
  if (["false", "off", "no"].includes(lower)) return false;
  return text;
}
