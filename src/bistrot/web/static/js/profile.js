// @ts-check
// This browser's profile (docs/protocol.md, "Profiles"): a lasting name without signing up. The
// server keeps its key in an HttpOnly cookie, so the page never sees it: same-origin requests
// carry it. The first time a player needs one (Play now, joining a public table), the page asks
// for a name in a dialog, and that is the whole sign-up.
import { h } from "./dom.js";
import { t, refusal } from "./i18n.js";
import { get, post } from "./api.js";
import { playerName, setPlayerName } from "./store.js";

/** Refusals that mean this browser has no (usable) profile. */
export const NO_PROFILE = new Set(["no_profile", "bad_profile_key"]);

let known = null;  // a promise of {profile, name, created} or null

/** This browser's profile, or null when it has none (asked once, then remembered). */
export function myProfile() {
  known ??= get("/api/profile").catch((error) => {
    if (NO_PROFILE.has(error.code)) return null;
    known = null;  // the network: ask again next time
    throw error;
  });
  return known;
}

/** Forget what is known (the server refused the cookie: it opens no profile any more). */
export function forgetProfile() {
  known = null;
}

/** The profile, asking for a name first when this browser has none: null if the player closed
 * the dialog. */
export async function ensureProfile() {
  return (await myProfile()) || askName();
}

/** The name dialog: a modal <dialog> (the browser keeps the focus in it and gives it back on
 * closing; Escape cancels). Resolves to the new profile, or null when cancelled. */
export function askName() {
  return new Promise((resolve) => {
    const input = h("input", { type: "text", id: "profile-name", maxlength: "24", required: true, value: playerName(),
      autocomplete: "nickname", "aria-describedby": "profile-lead" });
    const error = h("p", { class: "dialog-error", role: "alert", dataset: { testid: "profile-error" } });
    const send = h("button", { type: "submit", class: "btn primary", dataset: { action: "profile-save" } }, t("profile.continue"));
    let done = false;
    const finish = (profile) => {
      if (done) return;
      done = true;
      window.removeEventListener("popstate", away);
      if (dialog.open) dialog.close();
      dialog.remove();
      resolve(profile);
    };
    const away = () => finish(null);  // the browser's Back button: the page under it is gone
    const submit = async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) {
        input.focus();
        return;
      }
      send.disabled = true;
      error.textContent = "";
      try {
        const made = await post("/api/profiles", { name });
        setPlayerName(made.name);
        const profile = { profile: made.profile, name: made.name };
        known = Promise.resolve(profile);
        finish(profile);
      } catch (failure) {
        send.disabled = false;
        error.textContent = refusal(failure);
        input.focus();
      }
    };
    const dialog = h("dialog", { class: "dialog name-dialog", "aria-labelledby": "profile-title",
      dataset: { testid: "name-dialog" }, oncancel: (e) => { e.preventDefault(); finish(null); } },
    h("form", { onsubmit: submit },
      h("h2", { id: "profile-title" }, t("profile.title")),
      h("p", { id: "profile-lead", class: "hint" }, t("profile.lead")),
      h("div", { class: "field" }, h("label", { for: "profile-name" }, t("home.your_name")), input),
      error,
      h("div", { class: "dialog-actions" },
        h("button", { type: "button", class: "btn", dataset: { action: "profile-cancel" }, onclick: () => finish(null) },
          t("profile.cancel")),
        send)));
    window.addEventListener("popstate", away);
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
    input.select();
  });
}
