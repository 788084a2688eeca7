// @ts-check
// The Oti renderer (shape: games/index.js): the pile, the draw pile, everybody's table cards and
// hand sizes, your hand. Renders one seat's view and turns clicks into the engine's action texts.
import { h } from "../dom.js";
import { t, plural, orList } from "../i18n.js";
import { cardEl, cardBack, otherHand, parseCard } from "../cards.js";
import { seatPlate } from "../seats.js";

const cardsOf = (action) => action.split(/\s+/).slice(1);

/** Whether `seat` is the person looking at the page (their own actions are said to them: "You
 * play 8♠"); not at a hot-seat table, where the device goes round. */
const isYou = (ctx, seat) => ctx.me !== null && ctx.me !== undefined && !ctx.neutral && seat === ctx.me;

/** The cards that go on anything (docs RULES.md, Oti, "Magic cards": 2, 5 and 10, whatever the
 * options), and the values in order. */
const MAGIC = ["2", "5", "10"];
const VALUES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

/** "9 or higher, or a 2, 5 or 10: they go on anything": what goes on a pile asking for `value`
 * (the magic cards below it; those above are "higher" already). */
export function toBeatHint(value) {
  const magic = MAGIC.filter((m) => VALUES.indexOf(m) < VALUES.indexOf(value));
  return plural("oti.to_beat", magic.length, { v: value, magic: orList(magic) });
}

/** All the cards `seat` still has: hand, face up and face down. */
const cardsLeft = (view, seat) => (view.hand_counts[seat] || 0) + (view.face_up[seat] || []).length + (view.face_down[seat] || 0);

/** The newest event of the history that put `card` on the pile (a play or a flip), or null. */
function eventOf(view, card) {
  const history = view.history || [];
  for (let i = history.length - 1; i >= 0; i--) {
    const e = history[i];
    if ((e.action?.startsWith("play") || e.action === "flip") && (e.cards || []).includes(card)) return e;
  }
  return null;
}

const centreOf = (r) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });

/**
 * Where the cards just put on the pile fly in from: the seat that played each (from the view's
 * history), and the offset from that seat's place on screen to the card's place on the pile, read
 * from the table still on screen (the previous state's: the card is still in the hand or on the
 * face-up cards it left). Computed once per new state and kept in ctx.ui, so that a render of the
 * same state builds equal nodes and the flight is not restarted. {card: {seat, dx, dy}}
 */
function flights(view, ctx, shown) {
  const ui = ctx.ui || {};
  if (ui.flights && ui.flights.fresh === ctx.fresh) return ui.flights.at;
  const at = {};
  ui.flights = { fresh: ctx.fresh, at };
  if (!ctx.fresh?.size || typeof document === "undefined") return at;
  const felt = document.querySelector(".felt.oti");
  const pileBox = felt?.querySelector(".pile-cards")?.getBoundingClientRect();
  const cardBox = felt?.querySelector(".oti-centre .card")?.getBoundingClientRect();
  shown.forEach((card, i) => {
    if (!ctx.fresh.has(card)) return;
    const event = eventOf(view, card);
    if (!event || event.seat === null || event.seat === undefined) return;
    const flight = { seat: event.seat, dx: null, dy: null };
    at[card] = flight;
    if (!felt || !pileBox || !cardBox) return;
    const mine = event.seat === ctx.me;
    const area = mine ? felt.querySelector(".oti-me") : felt.querySelector(`.oti-seat[data-seat="${event.seat}"]`);
    if (!area) return;
    // The first of these places that is on screen (a phone hides the cards known in a hand:
    // their box is empty, and the card would fly in from the corner).
    const places = [
      area.querySelector(`[data-card="${card}"], [data-shown="${card}"]`),
      event.from === "hand" ? area.querySelector(mine ? ".hand" : ".oti-hand-count") : area.querySelector(".table-cards"),
      area,
    ];
    const box = places.map((el) => el?.getBoundingClientRect()).find((r) => r && r.width > 0 && r.height > 0);
    if (!box) return;
    const origin = centreOf(box);
    // the card's place on the pile (.pile-card: left i * 18%, top i * 2% of .pile-cards)
    const x = pileBox.left + i * 0.18 * pileBox.width + cardBox.width / 2;
    const y = pileBox.top + i * 0.02 * pileBox.height + cardBox.height / 2;
    flight.dx = Math.round(origin.x - x);
    flight.dy = Math.round(origin.y - y);
  });
  return at;
}

/** The legal actions of a view, sorted into what the page needs. */
export function otiOptions(legal) {
  const plays = [];
  const swaps = [];
  let pickup = false, flip = false, ready = false;
  for (const action of legal) {
    if (action.startsWith("play ")) plays.push(new Set(cardsOf(action)));
    else if (action.startsWith("swap ")) swaps.push(cardsOf(action));
    else if (action === "pickup") pickup = true;
    else if (action === "flip") flip = true;
    else if (action === "ready") ready = true;
  }
  return { plays, swaps, pickup, flip, ready };
}

const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));

/** The play text for a selection when it is a legal play, else null (order as the engine's). */
export function selectionAction(legal, selected) {
  for (const action of legal) {
    if (action.startsWith("play ") && sameSet(new Set(cardsOf(action)), selected)) return action;
  }
  return null;
}

/** What a click on `card` does with the current selection: {selected, play} (play: action or null). */
export function clickCard(legal, selected, card) {
  const { plays } = otiOptions(legal);
  const value = parseCard(card).rank;
  let next = new Set([...selected].filter((c) => parseCard(c).rank === value));
  if (next.has(card)) next.delete(card);
  else next.add(card);
  const exact = selectionAction(legal, next);
  const bigger = plays.some((p) => p.size > next.size && [...next].every((c) => p.has(c)));
  if (exact && !bigger) return { selected: new Set(), play: exact };
  return { selected: next, play: null };
}

function tableCards(view, seat, ctx, options) {
  const up = view.face_up[seat] || [];
  const down = view.face_down[seat] || 0;
  const slots = Math.max(up.length, down, 3);
  const cells = [];
  for (let i = 0; i < slots; i++) {
    const hasDown = i < down;
    const upCard = up[i];
    cells.push(h("div", { class: "slot" },
      hasDown ? cardBack("down", null) : h("div", { class: "card ghost", "aria-hidden": "true" }),
      upCard ? options.upCard(upCard) : null));
  }
  return h("div", { class: ["table-cards", options.mine && "mine"], role: "group",
    "aria-label": t("oti.table_cards", { up: plural("oti.face_up_n", up.length), down: plural("oti.face_down_n", down) }) }, cells);
}

function otherSeat(view, seat, ctx) {
  const count = view.hand_counts[seat];
  const known = (view.known_in_hand || [])[seat] || [];
  const out = (view.out || []).indexOf(seat);
  return h("div", { class: ["oti-seat", view.to_move === seat && "to-move", out >= 0 && "is-out"], dataset: { seat } },
    seatPlate(view, seat, ctx, {
      badges: [out >= 0 && h("span", { class: "badge out" }, t("oti.place", { n: out + 1 })),
        view.phase === "swap" && view.ready[seat] && h("span", { class: "badge ready" }, t("oti.ready_badge"))],
    }),
    h("div", { class: "oti-hand-count", dataset: { testid: `hand-count-${seat}` }, "aria-label": plural("seat.cards_n", count) },
      otherHand(view, seat, count, null, 8), h("span", { class: "count" }, String(count))),
    // The cards everybody saw go into this hand, said to be so (a word, and why when pointed at).
    known.length && !view.hands ? h("div", { class: "known", title: t("oti.known_why"),
      "aria-label": t("oti.known", { cards: known.map(ctx.cardName).join(", ") }) },
    h("span", { class: "known-label", "aria-hidden": "true" }, t("oti.known_label")),
    h("span", { class: "known-cards" },
      known.slice(0, 6).map((c) => cardEl(c, { extraClass: "micro", label: ctx.cardName(c) })),
      known.length > 6 ? h("span", { class: "more" }, `+${known.length - 6}`) : null)) : null,
    tableCards(view, seat, ctx, { upCard: (c) => cardEl(c, { extraClass: "up", label: ctx.cardName(c) }) }));
}

export function renderOti(view, ctx) {
  const me = ctx.me;
  const seated = me !== null && me !== undefined;
  const legal = ctx.hideHand || !seated ? [] : (view.legal || []);
  const opts = otiOptions(legal);
  const canAct = legal.length > 0 && !ctx.busy;
  const ui = ctx.ui;
  ui.legal = legal;  // handlers read the live state: a kept button may outlive this render
  const selected = ui.selected || new Set();
  const n = view.players;

  // Others from the next player on, left to right.
  // (A spectator sees the table as seat 0 does: seat 0 at the bottom.)
  const order = [];
  for (let i = 1; i < n; i++) order.push(((seated ? me : 0) + i) % n);
  const others = h("div", { class: ["oti-others", `others-${order.length}`] }, order.map((s) => otherSeat(view, s, ctx)));

  // The draw pile and the pile.
  const pile = view.pile || [];
  const shown = pile.slice(-4);
  const from = flights(view, ctx, shown);
  const pileCard = (c, i) => {
    const flight = from[c];
    const fresh = ctx.fresh?.has(c);
    const el = cardEl(c, { extraClass: ["pile-card", fresh && "enter", fresh && flight && (flight.seat === me ? "from-me" : "from-other")]
      .filter(Boolean).join(" "), label: ctx.cardName(c) });
    el.style.setProperty("--i", String(i));
    if (fresh && flight) {
      el.dataset.fromSeat = String(flight.seat);
      if (flight.dx !== null) {
        el.style.setProperty("--from-x", `${flight.dx}px`);
        el.style.setProperty("--from-y", `${flight.dy}px`);
      }
    }
    return el;
  };
  const centre = h("div", { class: "oti-centre" },
    h("div", { class: "draw", dataset: { testid: "draw-pile" }, "aria-label": plural("oti.draw_n", view.draw_pile), role: "img" },
      view.draw_pile > 0 ? cardBack("pile-back") : h("div", { class: "card ghost" }),
      h("span", { class: "pile-label" }, t("oti.draw_short", { n: view.draw_pile }))),
    h("div", { class: "pile", dataset: { testid: "pile", count: view.pile_count } },
      h("div", { class: "pile-cards", role: "group", "aria-label": plural("oti.pile_n", view.pile_count) },
        shown.length ? shown.map(pileCard) : h("div", { class: "card ghost empty-pile" }, t("oti.empty"))),
      h("span", { class: "pile-label" }, t("oti.pile_short", { n: view.pile_count })),
      view.to_beat ? h("span", { class: "pile-label to-beat", dataset: { testid: "to-beat" } }, toBeatHint(view.to_beat)) : null),
    h("div", { class: "burnt", "aria-label": plural("oti.burnt_n", (view.burnt || []).length) },
      (view.burnt || []).length ? cardBack("burnt-back") : h("div", { class: "card ghost" }),
      h("span", { class: "pile-label" }, t("oti.burnt_short", { n: (view.burnt || []).length }))));

  let bottom = null;
  if (seated) {
    const handCards = ctx.hideHand ? [] : view.hand;
    const swapHand = new Set(opts.swaps.map((s) => s[0]));
    const swapUp = new Set(opts.swaps.map((s) => s[1]));
    const playable = new Set(opts.plays.flatMap((p) => [...p]));
    const pickSwap = (card, side) => {
      const other = ui.swapPick;
      if (other && other.side !== side) {
        const [handCard, upCard] = side === "hand" ? [card, other.card] : [other.card, card];
        ui.swapPick = null;
        ctx.act(`swap ${handCard} ${upCard}`);
      } else {
        ui.swapPick = other && other.card === card ? null : { side, card };
        ctx.rerender();
      }
    };
    const swapOk = (card, side) => {
      if (!ui.swapPick || ui.swapPick.side === side) return side === "hand" ? swapHand.has(card) : swapUp.has(card);
      return opts.swaps.some(([a, b]) => (side === "hand" ? a === card && b === ui.swapPick.card : b === card && a === ui.swapPick.card));
    };
    const clickPlay = (card) => {
      const result = clickCard(ui.legal, ui.selected || new Set(), card);
      ui.selected = result.selected;
      if (result.play) ctx.act(result.play);
      else ctx.rerender();
    };
    const button = (card, side) => {
      if (opts.swaps.length) {
        return cardEl(card, { button: true, enabled: canAct && swapOk(card, side),
          selected: ui.swapPick?.card === card, label: ctx.cardName(card), onClick: () => pickSwap(card, side),
          extraClass: side === "up" ? "up" : null });
      }
      return cardEl(card, { button: true, enabled: canAct && playable.has(card), selected: selected.has(card),
        extraClass: [side === "up" && "up", playable.has(card) && "legal"].filter(Boolean).join(" ") || null,
        label: ctx.cardName(card), onClick: () => clickPlay(card) });
    };
    const selection = selectionAction(legal, selected);
    const mineOut = (view.out || []).indexOf(me);
    bottom = h("div", { class: "oti-me" },
      h("div", { class: ["seat", "me", view.to_move === me && "to-move"], dataset: { seat: me } },
        seatPlate(view, me, ctx, { badges: [mineOut >= 0 && h("span", { class: "badge out" }, t("oti.place", { n: mineOut + 1 }))] })),
      tableCards(view, me, ctx, { mine: true, upCard: (c) => (ctx.hideHand ? cardEl(c, { extraClass: "up" }) : button(c, "up")) }),
      h("div", { class: "table-actions" },
        opts.swaps.length || opts.ready ? h("p", { class: "hint" }, t("oti.swap_hint")) : null,
        selected.size ? h("button", { type: "button", class: "btn primary", dataset: { action: "play" },
          disabled: !canAct || !selection, onclick: () => {
            const action = selectionAction(ui.legal, ui.selected || new Set());
            ui.selected = new Set();
            ctx.act(action);
          } },
        t("oti.play_n", { n: selected.size })) : null,
        opts.pickup && h("button", { type: "button", class: "btn", dataset: { action: "pickup" }, disabled: !canAct,
          onclick: () => ctx.act("pickup") }, t("oti.pickup")),
        opts.flip && h("button", { type: "button", class: "btn primary", dataset: { action: "flip" }, disabled: !canAct,
          onclick: () => ctx.act("flip") }, t("oti.flip")),
        opts.ready && h("button", { type: "button", class: "btn primary", dataset: { action: "ready" }, disabled: !canAct,
          onclick: () => ctx.act("ready") }, t("oti.ready")),
        view.phase === "swap" && !opts.ready && view.ready[me] ? h("p", { class: "hint" }, t("oti.waiting_ready")) : null,
        view.play_again && view.to_move === me ? h("p", { class: "hint" }, t("oti.play_again")) : null),
      h("div", { class: ["hand", "oti-hand", canAct && "my-turn"], role: "group", "aria-label": t("table.your_hand"),
        dataset: { testid: "hand" }, style: { "--n": String(handCards.length) } },
      handCards.map((c) => button(c, "hand"))));
  }
  if (!seated) {
    bottom = h("div", { class: "oti-me watching" }, otherSeat(view, 0, ctx),
      !view.hands && h("p", { class: "watching-note", dataset: { testid: "watching" } }, t("table.watching_note")));
  }
  return h("div", { class: ["felt", "oti", `players-${n}`], dataset: { phase: view.phase } }, others, centre, bottom);
}

/** A line for the action log: "Ama plays 7♥ 7♠", "Kasun picks up the pile"; the viewer's own
 * in words of their own: "You play 7♥ 7♠". */
export function describeOtiEvent(event, ctx) {
  if (!event || event.seat === null || event.seat === undefined) return "";
  const name = ctx.name(event.seat);
  const you = isYou(ctx, event.seat) ? "_you" : "";
  const cards = (event.cards || []).map(ctx.cardPretty).join(" ");
  let text;
  if (event.action === "pickup") text = plural(`oti.log_pickup${you}`, (event.cards || []).length, { name });
  else if (event.action === "flip") text = t(`oti.log_flip${you}`, { name, cards });
  else if (event.action?.startsWith("play")) text = t(`oti.log_play${you}`, { name, cards });
  else if (event.action === "ready") text = t(`oti.log_ready${you}`, { name });
  else if (event.action?.startsWith("swap")) text = t(`oti.log_swap${you}`, { name });
  else text = `${name}: ${event.action}`;
  if (event.effect === "burn") text += " — " + t("oti.effect_burn");
  if (event.effect === "close") text += " — " + t("oti.effect_close");
  if (event.effect === "again") text += " — " + t(`oti.effect_again${you}`);
  if (event.out) text += " — " + t(`oti.effect_out${you}`, { name });
  return text;
}

/** The cards that just landed on the pile (animated). */
function step(prev, view) {
  const before = new Set(prev.pile || []);
  return { fresh: new Set((view.pile || []).filter((c) => !before.has(c))) };
}

function sounds(before, view, last) {
  const out = [];
  if (last && /^(play|flip)/.test(last.action)) out.push(["card", 0]);
  if (last && last.action === "pickup") out.push(["pickup", 0]);
  return out;
}

/** Everybody's place: those out in the order they went out, then the others by the cards they
 * have left (fewest first; equal counts share a place). [{seat, place, left}] */
export const ranking = (view) => places(view.players, view.out || [], (seat) => cardsLeft(view, seat));

/** The places of `players` seats, from the seats `out` in order and the cards `left(seat)`
 * of each (a finished view's, or a challenge's facts: js/challenge.js). */
function places(players, out, left) {
  const rows = out.map((seat, i) => ({ seat, place: i + 1, left: left(seat) }));
  /** @type {{ seat: number, place?: number, left: number }[]} */
  const rest = [];
  for (let seat = 0; seat < players; seat++) if (!out.includes(seat)) rest.push({ seat, left: left(seat) });
  rest.sort((a, b) => a.left - b.left || a.seat - b.seat);
  for (const row of rest) {
    row.place = out.length + 1 + rest.filter((r) => r.left < row.left).length;
    rows.push(row);
  }
  return rows;
}

/** The end of the game: "You won!" or "You lost" (the winner's name to a spectator or at a
 * hot-seat table), then every player's place and the cards they have left. */
function over(view, ctx) {
  const seated = ctx.me !== null && ctx.me !== undefined && !ctx.neutral;
  const winner = t("over.player_won", { name: ctx.name(view.winner) });
  const title = !seated ? winner : view.winner === ctx.me ? t("over.you_won") : t("over.you_lost");
  const detail = h("div", {},
    seated && view.winner !== ctx.me ? h("p", { class: "final-score" }, winner) : null,
    h("ol", { class: "ranking", dataset: { testid: "ranking" } }, ranking(view).map((row) => h("li", {
      value: String(row.place), class: isYou(ctx, row.seat) && "mine", dataset: { seat: row.seat } },
    h("strong", {}, ctx.name(row.seat)), " — ",
    row.left ? plural("oti.cards_left", row.left) : t("oti.no_cards_left")))),
    view.end_reason === "repetition" ? h("p", { class: "hint" }, t("oti.repetition")) : null);
  return { title, detail };
}

/** Challenges (js/challenge.js; `cx`: the challenge, its seat and how to name seats): the seat
 * as its player sees it (its place in the turn order), how good a finished game was for that
 * seat (compared in order, lower is better: place, cards left, turns) and the games side by side. */
const otiChallenge = {
  seat(cx) {
    const n = cx.data.players, seat = cx.data.seat;
    const before = cx.computer((seat + n - 1) % n), after = cx.computer((seat + 1) % n);
    const order = n === 2 ? t("challenge.seat_oti_two", { other: after })
      : t("challenge.seat_oti", { place: seat + 1, n, before, after });
    return `${order} ${t("challenge.oti_lowest_starts")}`;
  },
  rank(result, cx) {
    const f = result.facts;
    if (!f) return null;
    const seat = cx.data.seat;
    const place = places(cx.data.players, f.out, (s) => f.cards_left[s]).find((row) => row.seat === seat).place;
    return [place, f.cards_left[seat], f.turns[seat]];
  },
  rows(cx, results) {
    const n = cx.data.players;
    const ranks = results.map((r) => otiChallenge.rank(r, cx));
    return [
      { label: t("challenge.row_place"), cells: ranks.map(([place]) => ({ value: place, node: t("challenge.place_of", { place, n }) })) },
      { label: t("challenge.row_cards_left"), cells: ranks.map(([, left]) => ({ value: left, node: String(left) })) },
      // Not marked: fewer turns is better only between equal places and cards left (rank).
      { label: t("challenge.row_turns"), cells: ranks.map(([, , turns]) => ({ node: String(turns) })) },
      { label: t("challenge.row_out"), cells: results.map((r) => ({
        node: r.facts.out.length ? r.facts.out.map((seat) => cx.seatName(r, seat)).join(" → ") : "–" })) },
    ];
  },
};

/** A finished game in emoji, for a daily deal's share text: `seat`'s place (a medal, or its
 * number) among the players and the cards it had left. Never a card, only counts. */
function share(view, seat) {
  const row = ranking(view).find((r) => r.seat === seat);
  const place = ["🥇", "🥈", "🥉"][row.place - 1] || `#${row.place}`;
  return `${place} ${row.left}🂠 /${view.players}`;
}

/** The Oti renderer. */
export const oti = {
  name: "oti",
  suits: ["D", "C"],
  table: renderOti,
  step,
  sounds,
  won: (view, seat) => view.winner === seat,
  describe: (msg, ctx) => {
    if (!msg.last) return "";
    const events = msg.view.history || [];
    return describeOtiEvent(events[events.length - 1], ctx);
  },
  over,
  challenge: otiChallenge,
  share,
  summary: () => [],
  panels: [],
  helpKeys: ["help.keys_cards", "help.keys_number", "help.keys_oti", "help.keys_sound"],
  keys: {
    p: '[data-action="pickup"]', f: '[data-action="flip"]', r: '[data-action="ready"]',
    enter: '[data-action="play"]',
  },
};
