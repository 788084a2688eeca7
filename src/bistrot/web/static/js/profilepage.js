// @ts-check
// Profiles (docs/protocol.md, "Profiles"): anyone's profile page (`/profile/<id>`: name, each
// game's rating and its chart, the last rated games with their replays), one's own (`/profile`:
// rename, a one-time link to another device, passkeys; without a profile, make one or sign in
// with a passkey), and the page a move link opens (`/profile/claim#<code>`).
// The profile's key is the HttpOnly cookie the server sets: the page never sees or keeps it; which
// profile this browser has is profile.js's to ask (once, then remembered).
import { h, clear } from "./dom.js";
import { t, plural, has, refusal, language } from "./i18n.js";
import { api, get, post } from "./api.js";
import { allGames, labelOf } from "./catalog.js";
import { shareBox } from "./qr.js";
import { shareUrl } from "./sharing.js";
import { lineChart } from "./chart.js";
import { playerName, setPlayerName } from "./store.js";
import { addPasskey, passkeysSupported, signInWithPasskey } from "./passkeys.js";
import { myProfile, forgetProfile } from "./profile.js";

/** This browser's profile: undefined before the server was asked, null when it has none. */
let me;

/** Refusals whose translated text says all the server's message does (in English). */
const PLAIN = new Set([
  "bad_transfer", "transfer_used", "transfer_expired", "too_many_transfers", "unknown_profile", "no_profile",
  "bad_profile_key", "too_many_profiles", "unknown_passkey", "passkey_known", "too_many_passkeys", "bad_ceremony",
  "too_many_signins", "passkeys_busy", "network",
]);
const said = (error) => (PLAIN.has(error.code) && has(`reject.${error.code}`) ? t(`reject.${error.code}`) : refusal(error));

/** A refused name (422): why, in the page's language, with the server's specifics. */
const nameRefused = (error) => (error.code === "bad_request" || error.code === "invalid"
  ? `${t("profile.bad_name")} (${error.message})` : said(error));

/** A failed passkey step: the browser's own refusal (the person closed its dialog, or this
 * authenticator holds a passkey of the profile already) or the server's. */
function passkeyFailure(error) {
  if (error?.name === "NotAllowedError" || error?.name === "AbortError") return t("profile.passkey_cancelled");
  if (error?.name === "InvalidStateError") return t("reject.passkey_known");
  if (error?.name === "SecurityError" || error?.name === "NotSupportedError") return t("profile.passkey_unsupported");
  return error?.code ? said(error) : String(error?.message || error);
}

const currentProfile = () => me ?? null;

/** What this browser's profile is now; the top bars' links follow. */
function setMe(value) {
  me = value ? { profile: value.profile, name: value.name } : null;
  for (const link of document.querySelectorAll("a.topbar-profile")) dressLink(link);
}

/** This browser's profile ({profile, name} or null), as profile.js knows it (asked once); without
 * the network, what was known stays. */
async function loadMe() {
  try {
    setMe(await myProfile());
  } catch {
    if (me === undefined) me = null;
  }
  return currentProfile();
}

/** This browser's profile changed (made, renamed, moved here, signed in): say so everywhere. */
function changed(profile) {
  forgetProfile();  // profile.js asks the server again when it next needs to
  setMe(profile);
}

/** The top bars' link follows the profile profile.js knows (made by Play now's name dialog, say);
 * called as each page opens (no request once it is known). */
export const refreshProfileLink = () => loadMe();

function dressLink(link) {
  const mine = currentProfile();
  link.href = mine ? `/profile/${encodeURIComponent(mine.profile)}` : "/profile";
  link.textContent = mine ? mine.name : t("nav.sign_in");
  if (mine) link.setAttribute("aria-label", t("nav.profile_of", { name: mine.name }));
  else link.removeAttribute("aria-label");
}

/** The top bar's link: one's profile (by its name), or "Sign in" without one. */
export function profileLink(nav) {
  const link = h("a", { class: "topbar-profile", dataset: { testid: "topbar-profile" },
    onclick: (e) => { e.preventDefault(); nav(e.currentTarget.getAttribute("href")); } });
  dressLink(link);
  return link;
}

const when = (seconds, options) => new Intl.DateTimeFormat(language(), options).format(new Date(seconds * 1000));
const link = (nav, path, attrs, ...children) => h("a", { href: path, ...attrs, onclick: (e) => { e.preventDefault(); nav(path); } }, ...children);

function page(root, topbar, cls, ...children) {
  clear(root);
  const section = h("section", { class: ["page", cls] }, ...children);
  root.append(topbar(), section);
  return section;
}

/** After a page drawn again: the keyboard's focus back where the person was. */
const refocus = (selector) => /** @type {HTMLElement | null} */ (document.querySelector(`#main ${selector}`))?.focus();

/** A status line: what a button just did (or why it could not). */
const status = (state, testid) => state && h("p", { class: ["profile-status", state.ok ? "ok" : "error"],
  role: state.ok ? "status" : "alert", dataset: { testid } }, state.text);

// ------------------------------------------------------------------------------ a profile

/** The rating of one game: its figures, its chart and its last rated games beside it. */
function gameRating(nav, game, rating, recent) {
  const values = rating.history.map((p) => p.rating);
  // The whole history: it began at a new player's 1000.
  if (values.length === rating.games) values.unshift(1000);
  const label = t("profile.chart_label", { game: t(labelOf(game)), first: values[0], last: values[values.length - 1],
    min: Math.min(...values), max: Math.max(...values) });
  const games = recent.filter((g) => g.game === game);
  const rows = games.map((g) => {
    const change = g.after - g.before;
    return h("tr", {},
      h("td", {}, when(g.at, { dateStyle: "short", timeStyle: "short" })),
      h("td", {}, String(g.place + 1)),
      h("td", {}, h("span", { "aria-hidden": "true" }, `${g.before} → ${g.after} `,
        h("span", { class: change >= 0 ? "up" : "down" }, `(${change >= 0 ? "+" : "−"}${Math.abs(change)})`)),
      h("span", { class: "sr-only" }, t("profile.from_to", { before: g.before, after: g.after }))),
      h("td", {}, link(nav, g.replay_url, { dataset: { testid: "replay-link" } }, t("profile.replay"))));
  });
  return h("section", { class: "profile-game", dataset: { game } },
    h("h2", {}, t(labelOf(game))),
    h("p", { class: "profile-rating" }, h("strong", { dataset: { testid: `rating-${game}` } }, String(rating.rating)),
      " · ", plural("profile.games_n", rating.games)),
    h("div", { class: "profile-rated" },
      h("figure", { class: "chart-box" }, lineChart(values, { label, id: `chart-${game}` })),
      games.length ? h("table", { class: "profile-recent" },
        h("caption", {}, t("profile.recent")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("profile.col_when")), h("th", { scope: "col" }, t("profile.col_place")),
          h("th", { scope: "col" }, t("profile.col_rating")), h("th", { scope: "col" }, t("profile.col_replay")))),
        h("tbody", {}, rows)) : null));
}

/** What the owner of a profile can do with it: rename, move, passkeys. */
function ownSection(P) {
  const { data, state } = P;
  const input = h("input", { type: "text", id: "profile-rename", maxlength: "24", required: true, value: data.name,
    autocomplete: "nickname" });
  const rename = async (event) => {
    event.preventDefault();
    const name = event.currentTarget.querySelector("#profile-rename").value.trim();
    if (!name) return;
    try {
      const answer = await api("PATCH", "/api/profile", { name });
      data.name = answer.name;
      changed(answer);
      setPlayerName(answer.name);
      state.rename = { ok: true, text: t("profile.renamed", { name: answer.name }) };
    } catch (error) {
      state.rename = { ok: false, text: nameRefused(error) };
    }
    P.draw();
    refocus("#profile-rename");
  };
  const move = async () => {
    try {
      const answer = await post("/api/profile/transfer");
      state.transfer = { url: shareUrl(answer.link), expires: answer.expires };
      state.moveError = null;
    } catch (error) {
      state.moveError = { ok: false, text: said(error) };
    }
    P.draw();
    refocus(state.transfer ? "[data-testid=transfer-link]" : "[data-action=transfer]");
  };
  const passkey = async (event) => {
    event.currentTarget.disabled = true;
    try {
      state.passkey = { ok: true, text: plural("profile.passkey_added", await addPasskey()) };
    } catch (error) {
      state.passkey = { ok: false, text: passkeyFailure(error) };
    }
    P.draw();
    refocus("[data-action=add-passkey]");
  };
  const supported = passkeysSupported();
  return h("div", { class: "profile-own" },
    h("section", {}, h("h2", {}, t("profile.rename_title")),
      h("form", { class: "inline-form", onsubmit: rename },
        h("div", { class: "field" }, h("label", { for: "profile-rename" }, t("profile.your_name")), input),
        h("button", { type: "submit", class: "btn", dataset: { action: "rename" } }, t("profile.rename"))),
      status(state.rename, "rename-status")),
    h("section", {}, h("h2", {}, t("profile.move_title")),
      h("p", {}, t("profile.move_lead")),
      h("button", { type: "button", class: "btn primary", dataset: { action: "transfer" }, onclick: move },
        state.transfer ? t("profile.move_again") : t("profile.move_make")),
      status(state.moveError, "transfer-status"),
      state.transfer && h("div", { class: "profile-transfer" },
        shareBox(state.transfer.url, { title: t("profile.move_link"), testId: "transfer-link" }),
        h("p", { class: "hint" }, t("profile.move_expires", { time: when(state.transfer.expires, { timeStyle: "short" }) })))),
    h("section", {}, h("h2", {}, t("profile.passkey_title")),
      h("p", {}, t("profile.passkey_lead")),
      h("button", { type: "button", class: "btn", dataset: { action: "add-passkey" }, disabled: !supported, onclick: passkey },
        t("profile.passkey_add")),
      supported ? null : h("p", { class: "hint" }, t("profile.passkey_unsupported")),
      status(state.passkey, "passkey-status")));
}

/** `/profile/<id>`: anyone's profile; one's own with what its owner can do. */
/** The daily deal's streaks (days in a row with a daily game finished, by game), if any. */
function streaks(byGame, order) {
  const games = Object.entries(byGame || {}).filter(([, n]) => n > 0).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  return games.length ? h("p", { class: "profile-streak", dataset: { testid: "daily-streak" } }, t("daily.streak"), " ",
    games.map(([game, n], i) => [i ? " · " : "", plural("daily.streak_n", n, { game: t(labelOf(game)) })])) : null;
}

export function profilePage(root, id, nav, topbar) {
  const P = { data: null, error: null, state: {}, gone: false };
  P.draw = () => {
    if (P.gone) return;
    if (P.error) {
      document.title = `${t("profile.heading")} · bistrot`;
      page(root, topbar, "narrow profile-page", h("h1", {}, t("profile.heading")), h("p", { class: "lead" }, P.error));
      return;
    }
    if (!P.data) {
      page(root, topbar, "narrow", h("p", { class: "loading" }, t("profile.loading")));
      return;
    }
    const { data } = P;
    const mine = currentProfile()?.profile === data.profile;
    document.title = `${data.name} · bistrot`;
    const order = allGames().map((g) => g.name);
    const games = Object.keys(data.ratings).sort((a, b) => order.indexOf(a) - order.indexOf(b));
    page(root, topbar, "profile-page",
      h("h1", { dataset: { testid: "profile-name" } }, data.name),
      h("p", { class: "lead" }, t("profile.since", { date: when(data.created, { dateStyle: "long" }) }),
        mine ? [" ", h("strong", {}, t("profile.mine"))] : null),
      games.length ? games.map((g) => gameRating(nav, g, data.ratings[g], data.recent))
        : h("p", { class: "profile-none" }, t("profile.no_ratings")),
      streaks(data.daily_streak, order),
      mine ? ownSection(P) : null);
  };
  P.draw();
  Promise.allSettled([get(`/api/profiles/${encodeURIComponent(id)}`), loadMe()]).then(([found]) => {
    if (found.status === "fulfilled") P.data = found.value;
    else P.error = found.reason.status === 404 ? t("profile.unknown") : said(found.reason);
    P.draw();
  });
  return { rerender: P.draw, destroy: () => { P.gone = true; } };
}

// ------------------------------------------------------------------------------ no profile yet

/** `/profile`: this browser's own profile; without one, make one or sign in with a passkey. */
export function myProfilePage(root, nav, topbar) {
  const S = { gone: false, ready: false, made: null, passkey: null };
  const draw = () => {
    if (S.gone) return;
    document.title = `${t("profile.signin_title")} · bistrot`;
    if (!S.ready) {
      page(root, topbar, "narrow", h("p", { class: "loading" }, t("profile.loading")));
      return;
    }
    const opened = (profile) => {
      changed(profile);
      nav(`/profile/${encodeURIComponent(profile.profile)}`, { replace: true });
    };
    const make = async (event) => {
      event.preventDefault();
      const name = event.currentTarget.querySelector("#new-profile-name").value.trim();
      if (!name) return;
      try {
        const answer = await post("/api/profiles", { name });
        setPlayerName(answer.name);
        opened({ profile: answer.profile, name: answer.name });
      } catch (error) {
        S.made = { ok: false, text: nameRefused(error) };
        draw();
        refocus("#new-profile-name");
      }
    };
    const signIn = async (event) => {
      event.currentTarget.disabled = true;
      try {
        opened(await signInWithPasskey());
      } catch (error) {
        S.passkey = { ok: false, text: passkeyFailure(error) };
        draw();
        refocus("[data-action=passkey-signin]");
      }
    };
    const supported = passkeysSupported();
    page(root, topbar, "narrow profile-page signin-page",
      h("h1", {}, t("profile.signin_title")),
      h("p", { class: "lead" }, t("profile.signin_lead")),
      h("section", {}, h("h2", {}, t("profile.make_title")),
        h("form", { class: "inline-form", onsubmit: make },
          h("div", { class: "field" }, h("label", { for: "new-profile-name" }, t("profile.your_name")),
            h("input", { type: "text", id: "new-profile-name", maxlength: "24", required: true, value: playerName(),
              autocomplete: "nickname", "aria-describedby": "new-profile-hint" }),
            h("span", { class: "hint", id: "new-profile-hint" }, t("profile.make_hint"))),
          h("button", { type: "submit", class: "btn primary", dataset: { action: "make-profile" } }, t("profile.make"))),
        status(S.made, "make-status")),
      h("section", {}, h("h2", {}, t("profile.passkey_signin_title")),
        h("p", {}, t("profile.passkey_signin_lead")),
        h("button", { type: "button", class: "btn", dataset: { action: "passkey-signin" }, disabled: !supported, onclick: signIn },
          t("profile.passkey_signin")),
        supported ? null : h("p", { class: "hint" }, t("profile.passkey_unsupported")),
        status(S.passkey, "signin-status")),
      h("p", { class: "hint" }, t("profile.signin_other")));
  };
  draw();
  loadMe().then((mine) => {
    if (S.gone) return;
    if (mine) nav(`/profile/${encodeURIComponent(mine.profile)}`, { replace: true });
    else {
      S.ready = true;
      draw();
    }
  });
  return { rerender: draw, destroy: () => { S.gone = true; } };
}

// ------------------------------------------------------------------------------ a move link

/** `/profile/claim#<code>`: open the profile of a move link on this device, at once. The code
 * leaves the address bar (it works once anyway). */
export function claimPage(root, code, nav, topbar) {
  const C = { gone: false, done: null, error: code ? null : t("claim.no_code") };
  const draw = () => {
    if (C.gone) return;
    document.title = `${t("claim.title")} · bistrot`;
    let body;
    if (C.done) {
      body = [h("p", { class: "lead", role: "status", dataset: { testid: "claim-done" } }, t("claim.done", { name: C.done.name })),
        link(nav, `/profile/${encodeURIComponent(C.done.profile)}`, { class: "btn primary", dataset: { action: "see-profile" } },
          t("claim.see_profile"))];
    } else if (C.error) {
      body = [h("p", { class: "lead", role: "alert", dataset: { testid: "claim-error" } }, C.error),
        link(nav, "/", { class: "btn" }, t("nav.home"))];
    } else body = h("p", { class: "loading" }, t("claim.working"));
    page(root, topbar, "narrow claim-page", h("h1", {}, t("claim.title")), body);
  };
  draw();
  if (code) {
    history.replaceState({}, "", "/profile/claim");
    post("/api/profile/claim", { code }).then(
      (answer) => {
        C.done = { profile: answer.profile, name: answer.name };
        changed(C.done);
        draw();
      },
      (error) => {
        C.error = said(error);
        draw();
      });
  }
  return { rerender: draw, destroy: () => { C.gone = true; } };
}
