// @ts-check
// A player's name plate: name, computer level, connected / away / replaced by a computer.
import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { countdown } from "./countdown.js";

/** "the computer plays in 25 s": what is left of a seat's grace, to `at` on this device's clock. */
const graceText = (at) => t("seat.grace_left", { n: Math.max(0, Math.ceil(at - Date.now() / 1000)) });

export function seatStatus(info) {
  if (!info) return { key: "unknown", text: "" };
  if (info.kind === "computer") return { key: "computer", text: t("seat.computer", { level: t(`level.${info.level || "medium"}`) }) };
  if (info.kind === "open") return { key: "open", text: t("seat.open") };
  // A replay's players: whether they were connected then is neither known nor of interest.
  if (info.past || info.local) return { key: "player", text: "" };  // (local: a hot-seat player)
  // While this page has lost its own connection, what it last heard of the others may be stale.
  if (info.stale) return { key: "unknown", text: t("seat.unknown") };
  if (info.away) return { key: "away", text: t("seat.replaced", { level: t(`level.${info.level || "medium"}`) }) };
  if (!info.connected) {
    return { key: "offline", text: t("seat.offline"),
      extra: info.graceAt ? countdown(info.graceAt, { class: "grace-left", dataset: { testid: "grace-left" } }, graceText) : null };
  }
  // Your own plate: that you are connected goes without saying (the page says when you are not).
  if (info.you) return { key: "you", text: "" };
  return { key: "online", text: t("seat.online") };
}

const ROBOT = () => svg(`<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M11 2h2v3h4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V8a3 3 0 0 1 3-3h4zM8.5 10a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm7 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM9 15.5v1.5h6v-1.5zM1 10h2v5H1zm20 0h2v5h-2z"/></svg>`);

/** A plate's avatar letter: the name's first letter, or the seat's number for a name given by
 * the page ("Player 3": every such player would otherwise be a "P"). */
function initial(name, seat) {
  if (!name || name === t("seat.player_n", { n: seat + 1 })) return String(seat + 1);
  return name.trim().charAt(0).toUpperCase();
}

/** `name` in two parts, [shared, own]: the words it begins with in common with another seat's name
 * ("Computer", "Ama"), and the rest, which tells it apart (" 3", " Silva"). A narrow plate cuts
 * the shared part first, so that "Computer 2" and "Computer 3" never both read "Comput…". */
export function nameParts(name, others) {
  let shared = 0;
  for (const other of others) {
    if (other === name) continue;
    let i = 0;
    while (i < name.length && i < other.length && name[i] === other[i]) i++;
    shared = Math.max(shared, i);
  }
  // back to the end of a word: the own part begins with the space before it
  const cut = name.lastIndexOf(" ", shared);
  return cut > 0 ? [name.slice(0, cut), name.slice(cut)] : ["", name];
}

export function seatPlate(view, seat, ctx, { badges = [], extra = null } = {}) {
  const info = ctx.seatInfo(seat);
  const status = seatStatus(info);
  const name = ctx.name(seat);
  const turn = view.to_move === seat;
  const names = [];
  for (let s = 0; s < (view.players || 0); s++) if (s !== seat) names.push(ctx.name(s));
  const [shared, own] = nameParts(name, names);
  return h("div", { class: ["plate", `status-${status.key}`, turn && "turn"], dataset: { testid: `plate-${seat}`, status: status.key },
    "aria-label": `${name}. ${status.text}${turn ? ". " + t("seat.to_play") : ""}` },
  h("span", { class: "avatar", "aria-hidden": "true" },
    status.key === "computer" || status.key === "away" ? ROBOT() : initial(name, seat)),
  h("span", { class: "plate-text" },
    h("span", { class: "plate-name" },
      h("span", { class: "plate-who", title: name },
        shared ? h("span", { class: "plate-shared" }, shared) : null, h("span", { class: "plate-own" }, own)),
      ...badges.filter(Boolean)),
    status.text ? h("span", { class: "plate-status" }, h("span", { class: "dot", "aria-hidden": "true" }),
      h("span", { class: "plate-status-text" }, status.extra
        // the word apart from its countdown, which a small seat shows alone (table.css)
        ? [h("span", { class: "plate-status-word" }, status.text, " · "), status.extra] : status.text)) : null,
    extra));
}
