// @ts-check
// The seats of a friends table before it starts (the waiting room, overlays.js): who sits where,
// the free seats, the teams (view.table.teams, from the server: Omi's partners sit opposite) or
// the turn order when each plays for themselves. A player moves to a free seat; the creator
// (seat 0, which stays theirs) picks any other player and moves them to a free seat or swaps
// them with another. The server tells everyone; a moved player's token then holds the new seat
// (reseated() keeps it under that seat and opens the table again).
import { h, toast } from "../dom.js";
import { t } from "../i18n.js";
import { saveTable } from "../store.js";
import { moveSeat } from "./requests.js";

/** Whether this page is the table's creator (seat 0's holder, who opened it). */
export const isCreator = (T) => !!T.held.creator && T.held.seats?.[0]?.seat === 0;

/** Where the viewer's team is named: "Team 1 (your team)". */
function teamLabel(teams, seat, me) {
  const name = t("lobby.team_n", { n: teams[seat] + 1 });
  return me !== null && me !== undefined && teams[seat] === teams[me] ? `${name} · ${t("lobby.your_team")}` : name;
}

/** The buttons of one seat's row: what this page may do with that seat now. Each says what it
 * does to a screen reader too (its words and then whom and where: the label holds the words). */
function seatActions(T, ctx, seat, info) {
  const { S } = T;
  const me = S.showSeat;
  const busy = !!S.lobbyBusy;
  const button = (action, label, detail, onclick) => h("button", { type: "button", class: "btn small", disabled: busy,
    dataset: { action, seat }, onclick }, label, h("span", { class: "sr-only" }, ` ${detail}`));
  const send = (body) => () => request(T, body);
  if (T.hotseat || me === null || me === undefined || seat === 0) return null;
  const where = t("lobby.seat_n", { n: seat + 1 });
  if (!isCreator(T)) return info.kind === "open" ? button("sit", t("lobby.sit_here"), where, send({ to: seat })) : null;
  const pick = S.lobbyPick;
  if (pick === null || pick === undefined) {
    return info.kind === "open" ? null
      : button("pick", t("lobby.move"), ctx.name(seat), () => { S.lobbyPick = seat; T.render(); });
  }
  if (pick === seat) return button("cancel-pick", t("lobby.cancel"), ctx.name(seat), () => { S.lobbyPick = null; T.render(); });
  return info.kind === "open"
    ? button("move-here", t("lobby.move_here"), t("lobby.move_to", { name: ctx.name(pick), n: seat + 1 }), send({ seat: pick, to: seat }))
    : button("swap", t("lobby.swap"), t("lobby.swap_with", { a: ctx.name(pick), b: ctx.name(seat) }), send({ seat: pick, to: seat }));
}

async function request(T, body) {
  const { S } = T;
  S.lobbyBusy = true;
  T.render();
  try {
    await moveSeat(T, body);
  } finally {
    S.lobbyBusy = false;
    S.lobbyPick = null;
    T.render();
  }
}

/** Each seat in turn order: who sits there (or a free seat), its team, and what this page may
 * do with it. */
export function lobbySeats(T, view, ctx) {
  const { S } = T;
  const teams = view.table?.teams || null;
  const me = T.hotseat ? null : S.showSeat;
  const pick = S.lobbyPick;
  const rows = (view.seats || []).map((s) => {
    const open = s.kind === "open";
    const where = [t("lobby.seat_n", { n: s.seat + 1 }), teams ? teamLabel(teams, s.seat, me) : null].filter(Boolean).join(" · ");
    return h("li", { class: [s.seat === me && "me", pick === s.seat && "picked"],
      dataset: { kind: s.kind, seat: s.seat, team: teams ? teams[s.seat] : null, testid: `lobby-seat-${s.seat}` } },
    h("span", { class: "avatar", "aria-hidden": "true" }, open ? "·" : (ctx.name(s.seat) || "?").charAt(0).toUpperCase()),
    h("span", { class: "lobby-seat-text" },
      h("span", { class: "lobby-seat-name" }, open ? t("lobby.open_seat") : ctx.name(s.seat),
        s.seat === 0 ? h("span", { class: "badge host" }, t("lobby.host")) : null),
      h("span", { class: "lobby-seat-where" }, where)),
    seatActions(T, ctx, s.seat, s));
  });
  const hint = teams ? t("lobby.teams_hint") : t("lobby.turn_order");
  const picking = pick !== null && pick !== undefined && isCreator(T)
    ? h("p", { class: "lobby-picking", role: "status" }, t("lobby.where_to", { name: ctx.name(pick) })) : null;
  return [h("p", { class: "lobby-teams-hint" }, hint), picking,
    h("ol", { class: ["lobby-seats", teams && "with-teams"], "aria-label": t("lobby.seats") }, rows)];
}

/** A state for `seat` whose seats say this page's player sits elsewhere now (moved before the
 * start): keep the token under its new seat and open the table again. True when so. */
export function reseated(T, seat, msg) {
  const { held } = T;
  const mine = (msg.view?.seats || []).find((s) => s.you);
  if (T.hotseat || held.local || seat === null || seat === undefined || !mine || mine.seat === seat) return false;
  const seats = (held.seats || []).map((s) => (s.seat === seat ? { ...s, seat: mine.seat } : s));
  saveTable(T.tableId, { ...held, seats });
  toast(t("lobby.moved_to", { n: mine.seat + 1 }), "ok", 2500);
  T.nav(`/t/${T.tableId}`, { replace: true });
  return true;
}
