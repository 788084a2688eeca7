// The Omi renderer (shape: games/index.js): renders one seat's view (never more), turns clicks
// into action texts, and says what the table shows between two views (the trick just taken, the
// hand just finished), which sounds go with them and who won.
import { h } from "../dom.js";
import { t, plural } from "../i18n.js";
import { cardEl, cardBack, cardPretty, suitEl, SUITS, SUIT_SYMBOL } from "../cards.js";
import { seatPlate } from "../seats.js";

/** Where each seat sits on screen, seen from `me` (bottom), in the play direction. */
export function omiPositions(view, me) {
  const n = view.players;
  const ccw = (view.rules?.direction || "counterclockwise") === "counterclockwise";
  const spots = n === 4
    ? (ccw ? ["bottom", "right", "top", "left"] : ["bottom", "left", "top", "right"])
    : (ccw ? ["bottom", "right", "left"] : ["bottom", "left", "right"]);
  const out = {};
  for (let seat = 0; seat < n; seat++) out[seat] = spots[(seat - me + n) % n];
  return out;
}

/** Whether `seat` is the person looking at the page: their own actions are said to them ("You
 * play 8♠"), in words of their own. Not at a hot-seat table, where the device goes round. */
export const isYou = (ctx, seat) => ctx.me !== null && ctx.me !== undefined && !ctx.neutral && seat === ctx.me;

/** Who a scoring side is to the viewer: "you" (3 players, their own), "us" or "them" (a team, to
 * a player of either), else "team" (a named team of two) or "player" (a named player). The
 * suffix of the texts that have a side as their subject. */
export function sideSubject(view, side, ctx) {
  const seated = ctx.me !== null && ctx.me !== undefined && !ctx.neutral;
  if (view.players === 3) return seated && side === ctx.me ? "you" : "player";
  if (!seated) return "team";
  return side === ctx.me % 2 ? "us" : "them";
}

/** The name of a scoring side: a team (4 players) or a player (3). */
export function sideName(view, side, ctx) {
  if (view.players === 3) return ctx.name(side);
  if (ctx.me !== null && ctx.me !== undefined && !ctx.neutral) {
    return side === ctx.me % 2 ? t("omi.us") : t("omi.them");
  }
  return `${ctx.name(side)} & ${ctx.name(side + 2)}`;
}

function tokenPips(count, target) {
  if (target > 12) return null;
  const pips = [];
  for (let i = 0; i < target; i++) pips.push(h("span", { class: ["token-pip", i < count && "on"] }));
  return h("span", { class: "token-pips", "aria-hidden": "true" }, pips);
}

/** Trump, tokens, tricks and carry: always visible at the top of the table. */
export function omiScore(view, ctx) {
  const sides = view.players === 4 ? [0, 1] : [0, 1, 2];
  const mySide = ctx.me === null || ctx.me === undefined ? null : (view.players === 4 ? ctx.me % 2 : ctx.me);
  const trump = view.trump
    ? h("span", { class: "trump-show", dataset: { trump: view.trump } }, suitEl(view.trump, "big"),
      h("span", { class: "sr-only" }, t(`suit.${view.trump}`)))
    : h("span", { class: "trump-none" }, view.phase === "trump" ? t("omi.choosing") : "–");
  return h("section", { class: "scoreboard", "aria-label": t("omi.score") },
    h("div", { class: "score-trump", dataset: { testid: "trump" } }, h("span", { class: "label" }, t("omi.trump")), trump),
    h("div", { class: "score-sides" },
      sides.map((side) => h("div", { class: ["score-side", side === mySide && "mine"], dataset: { side } },
        h("span", { class: "side-name" }, sideName(view, side, ctx)),
        h("span", { class: "side-tokens", dataset: { testid: `tokens-${side}` },
          "aria-label": plural("omi.tokens_of", view.tokens[side], { target: view.rules.target }) },
        h("strong", {}, String(view.tokens[side])), h("small", {}, ` / ${view.rules.target}`)),
        tokenPips(view.tokens[side], view.rules.target),
        h("span", { class: "side-tricks", dataset: { testid: `tricks-${side}` } },
          plural("omi.tricks_n", view.tricks_won[side]))))),
    view.carry > 0 && h("div", { class: "score-carry", dataset: { testid: "carry" } },
      plural("omi.carry", view.carry)),
    h("div", { class: "score-hand" }, t("omi.hand_n", { n: view.hand_number })));
}

/** "10 of hearts, played by Ama" (or "... by you"), a card's spoken label on the table. */
const playedBy = (card, seat, ctx) => (isYou(ctx, seat)
  ? t("omi.played_by_you", { card: ctx.cardName(card) })
  : t("omi.played_by", { card: ctx.cardName(card), name: ctx.name(seat) }));

function trickCards(view, positions, { cards, leader, winner }, ctx, fresh) {
  const n = view.players;
  return cards.map((card, i) => {
    const seat = (leader + i) % n;
    const pos = positions[seat];
    const el = cardEl(card, {
      extraClass: ["trick-card", `at-${pos}`, fresh.has(card) && "enter", winner === seat && "winning"].filter(Boolean).join(" "),
      label: playedBy(card, seat, ctx),
    });
    el.style.zIndex = String(i + 1);
    return el;
  });
}

/** A seat's badges: "D" for the dealer, and for the one who chooses trumps the suit chosen
 * ("…" while choosing: a "?" read as a help button). Explained under the scores. */
function seatBadges(view, seat) {
  return [
    view.dealer === seat && h("span", { class: "badge dealer", title: t("omi.dealer") }, t("omi.dealer_short")),
    view.chooser === seat && h("span", { class: "badge chooser", title: t("omi.chooser") },
      view.trump ? SUIT_SYMBOL[view.trump] : "…"),
  ];
}

/** Seat 0 at the bottom of a spectator's table: its plate, its cards face down, and a word that
 * this is watching. */
function watchedSeat(view, ctx) {
  const backs = [];
  for (let i = 0; i < view.hand_counts[0]; i++) backs.push(cardBack("mini"));
  return h("div", { class: ["seat", "seat-bottom", "watched", view.to_move === 0 && "to-move"], dataset: { seat: 0 } },
    seatPlate(view, 0, ctx, {
      badges: [
        ...seatBadges(view, 0),
      ],
    }),
    h("div", { class: "backs", "aria-label": plural("seat.cards_n", view.hand_counts[0]), role: "img" }, backs),
    h("p", { class: "watching-note", dataset: { testid: "watching" } }, t("table.watching_note")));
}

/** The whole Omi table for one view. ctx: {me, name(seat), seatInfo(seat), act(action), ...}. */
export function renderOmi(view, ctx) {
  // A spectator sees the table as seat 0 does: seat 0 at the bottom, its cards face down.
  const watching = ctx.me === null || ctx.me === undefined;
  const me = ctx.me ?? 0;
  const positions = omiPositions(view, me);
  const legal = new Set(ctx.hideHand ? [] : view.legal || []);
  const canAct = legal.size > 0 && !ctx.busy;
  const n = view.players;

  // The other players, around the table.
  const others = [];
  for (let seat = 0; seat < n; seat++) {
    if (seat === me) continue;
    const count = view.hand_counts[seat];
    const backs = [];
    for (let i = 0; i < count; i++) backs.push(cardBack("mini"));
    others.push(h("div", { class: ["seat", `seat-${positions[seat]}`, view.to_move === seat && "to-move"],
      dataset: { seat } },
    seatPlate(view, seat, ctx, {
      badges: [
        ...seatBadges(view, seat),
        view.players === 4 && ctx.me !== null && ctx.me !== undefined && seat === (ctx.me + 2) % 4
          && h("span", { class: "badge partner" }, t("omi.partner")),
      ],
    }),
    h("div", { class: "backs", "aria-label": plural("seat.cards_n", count), role: "img" }, backs)));
  }

  // The trick in the middle: the current one, or the one just completed (held for a moment).
  const showing = ctx.heldTrick || (view.trick.length ? {
    cards: view.trick.map((p) => p.card), leader: view.trick[0].seat, winner: null,
  } : null);
  const centre = h("div", { class: "trick", dataset: { testid: "trick" }, "aria-label": t("omi.trick"), role: "group" },
    showing ? trickCards(view, positions, showing, ctx, ctx.fresh || new Set()) : null,
    ctx.heldTrick && h("div", { class: "trick-winner" }, isYou(ctx, ctx.heldTrick.winner)
      ? t("omi.you_take_trick")
      : t("omi.takes_trick", { name: ctx.name(ctx.heldTrick.winner) })));

  // Choosing trump (only the chooser has these actions, and only their first four cards).
  let prompt = null;
  const trumpChoices = [...legal].filter((a) => a.startsWith("trump "));
  if (trumpChoices.length) {
    prompt = h("div", { class: "prompt trump-choice", role: "group", "aria-label": t("omi.choose_trump") },
      h("p", {}, t("omi.choose_trump")),
      h("div", { class: "suit-buttons" }, SUITS.map((suit) => h("button", {
        type: "button", class: ["suit-button", suit === "H" || suit === "D" ? "red" : "black"],
        dataset: { suit }, disabled: !canAct || !legal.has(`trump ${suit}`),
        "aria-label": t(`suit.${suit}`), title: `${t(`suit.${suit}`)} (${suit})`,
        onclick: () => ctx.act(`trump ${suit}`),
      }, SUIT_SYMBOL[suit], h("span", { class: "suit-button-name" }, t(`suit.${suit}`))))));
  } else if (view.phase === "trump" && !ctx.hideHand) {
    prompt = h("div", { class: "prompt waiting" }, t("omi.is_choosing", { name: ctx.name(view.chooser) }));
  }

  // Your hand: buttons, enabled only for legal plays.
  const hand = ctx.me === null || ctx.me === undefined || ctx.hideHand ? [] : view.hand;
  const playing = canAct && [...legal].some((a) => a.startsWith("play "));
  const handEl = h("div", { class: ["hand", `cards-${hand.length}`, playing && "my-turn"], role: "group", "aria-label": t("omi.your_hand"),
    dataset: { testid: "hand" } },
  hand.map((card) => cardEl(card, {
    button: true, enabled: canAct && legal.has(`play ${card}`),
    extraClass: legal.has(`play ${card}`) ? "legal" : null,
    label: ctx.cardName(card),
    onClick: () => ctx.act(`play ${card}`),
  })));

  const actions = h("div", { class: "table-actions" },
    legal.has("kapothi") && h("button", { type: "button", class: "btn gold", dataset: { action: "kapothi" },
      disabled: !canAct, onclick: () => ctx.act("kapothi") }, t("omi.kapothi")),
    view.kapothi_announced !== null && view.kapothi_announced !== undefined
      && h("span", { class: "badge kapothi-on" }, kapothiAnnounced(view, ctx)));

  const mine = watching ? watchedSeat(view, ctx)
    : h("div", { class: ["seat", "seat-bottom", "me", view.to_move === ctx.me && "to-move"], dataset: { seat: ctx.me } },
      seatPlate(view, ctx.me, ctx, {
        badges: [
          ...seatBadges(view, ctx.me),
        ],
      }));

  return h("div", { class: ["felt", "omi", `players-${n}`], dataset: { phase: view.phase } },
    others,
    h("div", { class: "centre" }, centre, prompt),
    h("div", { class: "bottom" }, mine, actions, handEl));
}

/** "Kapothi announced by Ama & Kasun", or "We announced kapothi" to a player of that team. */
function kapothiAnnounced(view, ctx) {
  const subject = sideSubject(view, view.kapothi_announced, ctx);
  if (subject === "us" || subject === "them" || subject === "you") return t(`omi.kapothi_announced_${subject}`);
  return t("omi.kapothi_announced", { side: sideName(view, view.kapothi_announced, ctx) });
}

/** Plain words for one finished hand, from the view's `results` entry. */
export function describeResult(view, result, ctx) {
  if (result.side === null || result.side === undefined) {
    return plural("omi.result_tie", result.carry);
  }
  const side = sideName(view, result.side, ctx);
  const tokens = plural("omi.plus_tokens", result.tokens);
  if (result.kapothi) {
    // the side is the sentence's subject: "We took all 8 tricks", "Ama & Kasun took ..."
    const subject = sideSubject(view, result.side, ctx);
    const key = subject === "player" ? "omi.result_kapothi" : `omi.result_kapothi_${subject}`;
    return t(key, { side, tokens });
  }
  return t("omi.result_win", { side, tokens, tricks: plural("omi.tricks_n", result.tricks[result.side]) });
}

/** The last trick, on demand. */
export function lastTrickPanel(view, ctx) {
  const last = view.last_trick;
  if (!last) return h("p", {}, t("omi.no_last_trick"));
  const n = view.players;
  return h("div", { class: "last-trick" },
    h("div", { class: "last-trick-cards" }, last.cards.map((card, i) => {
      const seat = (last.leader + i) % n;
      return h("figure", { class: ["last-card", seat === last.winner && "winner"] },
        cardEl(card, { label: playedBy(card, seat, ctx) }),
        h("figcaption", {}, ctx.name(seat)));
    })),
    h("p", {}, isYou(ctx, last.winner) ? t("omi.took_trick_you") : t("omi.took_trick", { name: ctx.name(last.winner) })));
}

/** The hands played so far, as a table. */
export function resultsTable(view, ctx) {
  const sides = view.players === 4 ? [0, 1] : [0, 1, 2];
  const results = view.results || [];
  // Tokens a hand's winner got from 4 : 4 hands before it (carried in).
  const carriedIn = (i) => (i > 0 && results[i - 1].side === null ? results[i - 1].carry : 0);
  const tokensCell = (r, i) => {
    if (r.side === null || r.side === undefined) return plural("omi.carried", r.carry);
    const carried = carriedIn(i);
    return [`${sideName(view, r.side, ctx)} +${r.tokens}`,
      carried ? h("small", { class: "why" }, " ", plural("omi.incl_carried", carried)) : null,
      r.kapothi ? h("small", { class: "why" }, " ★") : null];
  };
  return h("div", { class: "results-wrap" },
    h("table", { class: "results" },
      h("thead", {}, h("tr", {}, h("th", {}, t("omi.hand")), h("th", {}, t("omi.chose")), h("th", {}, t("omi.trump")),
        sides.map((s) => h("th", {}, sideName(view, s, ctx))), h("th", {}, t("omi.tokens")))),
      h("tbody", {}, results.map((r, i) => h("tr", {},
        h("td", {}, String(r.hand)),
        h("td", { class: "chose" }, ctx.name(r.chooser)),
        h("td", {}, suitEl(r.trump), h("span", { class: "sr-only" }, t(`suit.${r.trump}`))),
        sides.map((s) => h("td", { class: r.side === s ? "won" : "" }, String(r.tricks[s]))),
        h("td", {}, tokensCell(r, i)))))),
    h("p", { class: "legend", dataset: { testid: "scores-legend" } }, t("omi.scores_legend")));
}

/** Completed tricks since the start of the match (to spot the state that ends a trick). */
function tricksDone(view) {
  return (view.results || []).length * 8 + (view.tricks || []).length;
}

/** A hand finished between `before` and `view`. */
const handEnded = (before, view) => (view.results || []).length > (before.results || []).length;

/** The scoring side of `seat`: its partnership with 4 players, itself with 3. */
const sideOf = (view, seat) => (view.players === 4 ? seat % 2 : seat);

/** The cards just played, the trick just taken (held on the table), the hand just finished. */
function step(prev, view) {
  const fresh = new Set();
  const before = new Set(prev.trick.map((p) => p.card));
  for (const p of view.trick) if (!before.has(p.card)) fresh.add(p.card);
  let heldTrick = null;
  if (tricksDone(view) > tricksDone(prev) && view.last_trick) {
    heldTrick = view.last_trick;
    fresh.add(view.last_trick.cards[view.last_trick.cards.length - 1]);
  }
  const summary = handEnded(prev, view) ? view.results[view.results.length - 1] : null;
  return { fresh, heldTrick, summary };
}

function sounds(before, view, last) {
  const out = [];
  if (last && /^play/.test(last.action)) out.push(["card", 0]);
  if (tricksDone(view) > tricksDone(before)) out.push(["trick", 350]);
  if (!(view.is_over && !before.is_over) && handEnded(before, view)) out.push(["hand", 500]);
  return out;
}

/** The action log's line: "Ama plays 10♥", "Kasun chooses hearts"; "You play 10♥" for the
 * viewer's own. */
function describe(msg, ctx) {
  const last = msg.last;
  if (!last) return "";
  const name = ctx.name(last.seat);
  const you = isYou(ctx, last.seat) ? "_you" : "";
  const [verb, arg] = last.action.split(" ");
  if (verb === "play") return t(`omi.log_play${you}`, { name, card: cardPretty(arg) });
  if (verb === "trump") return t(`omi.log_trump${you}`, { name, suit: t(`suit.${arg}`) });
  if (verb === "kapothi") return t(`omi.log_kapothi${you}`, { name });
  return `${name}: ${last.action}`;
}

/** The end of the match: who won (us / them, or a side's names when nobody is "us"), the tokens
 * and the hands played. */
function over(view, ctx) {
  const me = ctx.me;
  const mySide = me === null || me === undefined || ctx.neutral ? null : sideOf(view, me);
  const title = mySide !== null ? (view.winner === mySide ? t("over.you_won") : t("over.you_lost"))
    : view.players === 3 ? t("over.player_won", { name: ctx.name(view.winner) })
      : t("over.side_won", { side: sideName(view, view.winner, ctx) });
  const detail = h("div", {},
    h("p", { class: "final-score" }, (view.players === 4 ? [0, 1] : [0, 1, 2])
      .map((s) => `${sideName(view, s, ctx)} ${view.tokens[s]}`).join(" · ")),
    view.results?.length ? resultsTable(view, ctx) : null);
  return { title, detail };
}

/** The Omi renderer. */
export const omi = {
  name: "omi",
  suits: ["S", "H"],
  table: (view, ctx) => [omiScore(view, ctx), renderOmi(view, ctx)],
  step,
  sounds,
  won: (view, seat) => view.winner === sideOf(view, seat),
  describe,
  over,
  summary: (view, summary, ctx) => [h("strong", {}, t("omi.hand_over", { n: summary.hand })), " ", describeResult(view, summary, ctx)],
  panels: [
    { id: "last", action: "last-trick", title: "omi.last_trick", key: "l", render: lastTrickPanel },
    { id: "score", action: "scores", title: "omi.scores",
      render: (view, ctx) => (view.results?.length ? resultsTable(view, ctx) : h("p", {}, t("omi.no_hands_yet"))) },
  ],
  helpKeys: ["help.keys_cards", "help.keys_number", "help.keys_trump", "help.keys_last", "help.keys_sound"],
  keys: {
    s: '[data-suit="S"]', h: '[data-suit="H"]', d: '[data-suit="D"]', c: '[data-suit="C"]',
    k: '[data-action="kapothi"]',
  },
};
