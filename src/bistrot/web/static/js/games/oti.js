// The Oti renderer (shape: games/index.js): the pile, the draw pile, everybody's table cards and
// hand sizes, your hand. Renders one seat's view and turns clicks into the engine's action texts.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardEl, cardBack, parseCard, rankText } from "../cards.js";
import { seatPlate } from "../seats.js";

const cardsOf = (action) => action.split(/\s+/).slice(1);

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
    "aria-label": t("oti.table_cards", { up: up.length, down }) }, cells);
}

function otherSeat(view, seat, ctx) {
  const count = view.hand_counts[seat];
  const known = (view.known_in_hand || [])[seat] || [];
  const backs = [];
  for (let i = 0; i < Math.min(count, 8); i++) backs.push(cardBack("mini"));
  const out = (view.out || []).indexOf(seat);
  return h("div", { class: ["oti-seat", view.to_move === seat && "to-move", out >= 0 && "is-out"], dataset: { seat } },
    seatPlate(view, seat, ctx, {
      badges: [out >= 0 && h("span", { class: "badge out" }, t("oti.place", { n: out + 1 })),
        view.phase === "swap" && view.ready[seat] && h("span", { class: "badge ready" }, t("oti.ready_badge"))],
    }),
    h("div", { class: "oti-hand-count", dataset: { testid: `hand-count-${seat}` }, "aria-label": t("seat.cards_n", { n: count }) },
      h("div", { class: "backs" }, backs), h("span", { class: "count" }, String(count))),
    known.length ? h("div", { class: "known", "aria-label": t("oti.known", { cards: known.map(ctx.cardName).join(", ") }) },
      known.slice(0, 6).map((c) => cardEl(c, { extraClass: "micro", label: ctx.cardName(c) })),
      known.length > 6 ? h("span", { class: "more" }, `+${known.length - 6}`) : null) : null,
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
  const order = [];
  for (let i = 1; i < n; i++) order.push(((seated ? me : -1) + i + n) % n);
  if (!seated) order.push((n - 1 + n) % n);
  const others = h("div", { class: ["oti-others", `others-${order.length}`] }, order.map((s) => otherSeat(view, s, ctx)));

  // The draw pile and the pile.
  const pile = view.pile || [];
  const shown = pile.slice(-4);
  const centre = h("div", { class: "oti-centre" },
    h("div", { class: "draw", dataset: { testid: "draw-pile" }, "aria-label": t("oti.draw_n", { n: view.draw_pile }), role: "img" },
      view.draw_pile > 0 ? cardBack("pile-back") : h("div", { class: "card ghost" }),
      h("span", { class: "pile-label" }, t("oti.draw_short", { n: view.draw_pile }))),
    h("div", { class: "pile", dataset: { testid: "pile", count: view.pile_count } },
      h("div", { class: "pile-cards", role: "group", "aria-label": t("oti.pile_n", { n: view.pile_count }) },
        shown.length ? shown.map((c, i) => {
          const el = cardEl(c, { extraClass: ["pile-card", ctx.fresh?.has(c) && "enter"].filter(Boolean).join(" "), label: ctx.cardName(c) });
          el.style.setProperty("--i", String(i));
          return el;
        }) : h("div", { class: "card ghost empty-pile" }, t("oti.empty"))),
      h("span", { class: "pile-label" }, t("oti.pile_short", { n: view.pile_count }),
        view.to_beat ? h("span", { class: "to-beat" }, " · " + t("oti.to_beat", { v: rankText(view.to_beat === "10" ? "T" : view.to_beat) })) : null)),
    h("div", { class: "burnt", "aria-label": t("oti.burnt_n", { n: (view.burnt || []).length }) },
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
      h("div", { class: ["hand", "oti-hand", handCards.length > 10 && "crowded", canAct && "my-turn"], role: "group", "aria-label": t("table.your_hand"),
        dataset: { testid: "hand" }, style: { "--n": String(handCards.length) } },
      handCards.map((c) => button(c, "hand"))));
  }
  return h("div", { class: ["felt", "oti", `players-${n}`], dataset: { phase: view.phase } }, others, centre, bottom);
}

/** A line for the action log: "Ama plays 7♥ 7♠", "Kasun picks up the pile". */
export function describeOtiEvent(event, ctx) {
  if (!event || event.seat === null || event.seat === undefined) return "";
  const name = ctx.name(event.seat);
  const cards = (event.cards || []).map(ctx.cardPretty).join(" ");
  let text;
  if (event.action === "pickup") text = t("oti.log_pickup", { name, n: (event.cards || []).length });
  else if (event.action === "flip") text = t("oti.log_flip", { name, cards });
  else if (event.action?.startsWith("play")) text = t("oti.log_play", { name, cards });
  else if (event.action === "ready") text = t("oti.log_ready", { name });
  else if (event.action?.startsWith("swap")) text = t("oti.log_swap", { name });
  else text = `${name}: ${event.action}`;
  if (event.effect === "burn") text += " — " + t("oti.effect_burn");
  if (event.effect === "close") text += " — " + t("oti.effect_close");
  if (event.effect === "again") text += " — " + t("oti.effect_again");
  if (event.out) text += " — " + t("oti.effect_out", { name });
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

/** The end of the game: who got rid of their cards first, and the order the others went out. */
function over(view, ctx) {
  const me = ctx.me;
  const title = me !== null && me !== undefined && !ctx.neutral && view.winner === me ? t("over.you_won")
    : t("over.player_won", { name: ctx.name(view.winner) });
  const detail = h("ol", { class: "ranking" }, (view.out || []).map((s) => h("li", {}, ctx.name(s))));
  if (view.end_reason === "repetition") detail.append(h("p", { class: "hint" }, t("oti.repetition")));
  return { title, detail };
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
  summary: () => [],
  panels: [],
  helpKeys: ["help.keys_cards", "help.keys_number", "help.keys_oti", "help.keys_sound"],
  keys: {
    p: '[data-action="pickup"]', f: '[data-action="flip"]', r: '[data-action="ready"]',
    enter: '[data-action="play"]',
  },
};
