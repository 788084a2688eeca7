// @ts-check
// The Omi renderer (shape: games/index.js): renders one seat's view (never more), turns clicks
// into action texts, and says what the table shows between two views (the trick just taken, the
// hand just finished), which sounds go with them and who won.
import { h } from "../dom.js";
import { t, plural } from "../i18n.js";
import { cardEl, cardPretty, suitEl, otherHand, SUITS, SUIT_SYMBOL } from "../cards.js";
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
  // A team named by its players ("Ama & Kasun"), for a spectator or a replay, is long.
  const byNames = view.players === 4 && sideSubject(view, 0, ctx) === "team";
  const trump = view.trump
    ? h("span", { class: "trump-show", dataset: { trump: view.trump } }, suitEl(view.trump, "big"),
      h("span", { class: "sr-only" }, t(`suit.${view.trump}`)))
    : h("span", { class: "trump-none" }, view.phase === "trump" ? t("omi.choosing") : "–");
  return h("section", { class: "scoreboard", "aria-label": t("omi.score") },
    h("div", { class: "score-trump", dataset: { testid: "trump" } }, h("span", { class: "label" }, t("omi.trump")), trump),
    h("div", { class: "score-sides" },
      sides.map((side) => h("div", { class: ["score-side", side === mySide && "mine", byNames && "by-names"], dataset: { side } },
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

/** A trick's cards placed by seat round `positions`; the winning card (once known) is marked
 * with a star and said to be winning, not by its colour alone. */
function trickCards(view, positions, { cards, leader, winner }, ctx, fresh) {
  const n = view.players;
  return cards.map((card, i) => {
    const seat = (leader + i) % n;
    const pos = positions[seat];
    const wins = winner === seat;
    const el = cardEl(card, {
      extraClass: ["trick-card", `at-${pos}`, fresh.has(card) && "enter", wins && "winning"].filter(Boolean).join(" "),
      label: wins ? `${playedBy(card, seat, ctx)}, ${t("omi.wins_trick")}` : playedBy(card, seat, ctx),
    });
    if (wins) el.append(h("span", { class: "win-mark", "aria-hidden": "true" }, "★"));
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
  return h("div", { class: ["seat", "seat-bottom", "watched", view.to_move === 0 && "to-move"], dataset: { seat: 0 } },
    seatPlate(view, 0, ctx, {
      badges: [
        ...seatBadges(view, 0),
      ],
    }),
    otherHand(view, 0, view.hand_counts[0], plural("seat.cards_n", view.hand_counts[0])),
    !view.hands && h("p", { class: "watching-note", dataset: { testid: "watching" } }, t("table.watching_note")));
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
    others.push(h("div", { class: ["seat", `seat-${positions[seat]}`, view.to_move === seat && "to-move"],
      dataset: { seat } },
    seatPlate(view, seat, ctx, {
      badges: [
        ...seatBadges(view, seat),
        view.players === 4 && ctx.me !== null && ctx.me !== undefined && seat === (ctx.me + 2) % 4
          && h("span", { class: "badge partner" }, t("omi.partner")),
      ],
    }),
    otherHand(view, seat, count, plural("seat.cards_n", count))));
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

/** Tokens of earlier 4 : 4 hands at stake in hand `i` of `results` (the winner's "carried in"). */
const carriedIn = (results, i) => (i > 0 && results[i - 1].side === null ? results[i - 1].carry : 0);

/** Whether hand `result` had kapothi announced, and lost a trick all the same. */
const kapothiFailed = (result) => result.announced !== null && result.announced !== undefined && !result.kapothi;

/** Plain words for one finished hand, from the view's `results` entry. */
export function describeResult(view, result, ctx) {
  if (result.side === null || result.side === undefined) {
    return plural(view.players === 3 ? "omi.result_tie_most" : "omi.result_tie", result.carry);
  }
  const side = sideName(view, result.side, ctx);
  const tokens = plural("omi.plus_tokens", result.tokens);
  if (kapothiFailed(result)) return t("omi.result_kapothi_failed", { side, tokens });
  if (result.kapothi) {
    // the side is the sentence's subject: "We took all 8 tricks", "Ama & Kasun took ..."
    const subject = sideSubject(view, result.side, ctx);
    const key = subject === "player" ? "omi.result_kapothi" : `omi.result_kapothi_${subject}`;
    return t(key, { side, tokens });
  }
  return t("omi.result_win", { side, tokens, tricks: plural("omi.tricks_n", result.tricks[result.side]) });
}

/** Why a finished hand gave the tokens it gave (the rule that applied, tokens carried in), or
 * the tokens a tie left waiting. */
function whyTokens(view, result, ctx) {
  if (result.side === null || result.side === undefined) return [plural("omi.tokens_waiting", result.carry)];
  const lines = [];
  // What the headline has not said already ("Kapothi! They took all 8 tricks: +3 tokens" needs
  // no "All 8 tricks: 3 tokens" under it): the announcement, a match won at once, and who chose
  // trumps (the headline names the winners, this line why they got 1 or 2 tokens).
  if (kapothiFailed(result)) lines.push(t("omi.why_kapothi_failed"));
  else if (result.kapothi && result.announced !== null && result.announced !== undefined) lines.push(t("omi.why_kapothi_made"));
  else if (result.kapothi) {
    if (view.rules.kapothi === "wins_match") lines.push(t("omi.why_kapothi_match"));
  } else {
    if (result.tricks[result.side] === HAND_TRICKS) lines.push(t("omi.why_sweep_unannounced"));
    const won = result.side === sideOf(view, result.chooser) ? "omi.why_chooser" : "omi.why_defender";
    lines.push(isYou(ctx, result.chooser) ? t(`${won}_you`) : t(won, { name: ctx.name(result.chooser) }));
  }
  const i = (view.results || []).findIndex((r) => r.hand === result.hand);
  const carried = i < 0 ? 0 : carriedIn(view.results, i);
  if (carried) lines.push(plural("omi.incl_carried", carried));
  return lines;
}

/** The card shown between a hand and the next deal: what the hand gave and why (who chose which
 * trump, the tricks of each side, the tokens and the rule behind them, the score now). */
function handResult(view, result, ctx) {
  const sides = view.players === 4 ? [0, 1] : [0, 1, 2];
  const suit = t(`suit.${result.trump}`);
  const chosen = isYou(ctx, result.chooser) ? t("omi.chosen_by_you", { suit })
    : t("omi.chosen_by", { suit, name: ctx.name(result.chooser) });
  const detail = h("div", { class: "hand-result" },
    h("p", { class: "hand-result-head", dataset: { testid: "result-head" } }, describeResult(view, result, ctx)),
    h("dl", { class: "hand-result-facts" },
      h("dt", {}, t("omi.trump")),
      h("dd", { dataset: { testid: "result-trump" } }, suitEl(result.trump), " ", chosen),
      h("dt", {}, t("omi.tricks")),
      h("dd", {}, h("ul", { class: "result-sides", dataset: { testid: "result-tricks" } }, sides.map((s) => h("li", {
        class: s === result.side && "won", dataset: { side: s } },
      t("omi.side_value", { side: sideName(view, s, ctx), value: plural("omi.tricks_n", result.tricks[s]) }))))),
      h("dt", {}, t("omi.tokens")),
      h("dd", { dataset: { testid: "result-why" } }, whyTokens(view, result, ctx).map((line) => h("span", { class: "why-line" }, line, " "))),
      h("dt", {}, t("omi.score")),
      h("dd", { dataset: { testid: "result-score" } }, sides.map((s, i) => [i ? " · " : "", t("omi.side_value",
        { side: sideName(view, s, ctx), value: plural("omi.tokens_of", view.tokens[s], { target: view.rules.target }) })]))),
    ctx.openPanel && h("button", { type: "button", class: "btn", dataset: { action: "review-tricks" },
      onclick: () => ctx.openPanel("last") }, t("omi.see_tricks")));
  return { title: t("omi.hand_n", { n: result.hand }), detail };
}

/** The tricks one may look at: those of the hand in play, else the last one of the hand before. */
function reviewable(view) {
  if (view.tricks?.length) return { tricks: view.tricks, earlier: false };
  return { tricks: view.last_trick ? [view.last_trick] : [], earlier: true };
}

/** The tricks of the hand, on demand: each laid out round the table as the players sit (you at
 * the bottom), its winning card marked, stepped through with the buttons or the arrow keys. It
 * opens at the last trick. */
export function lastTrickPanel(view, ctx) {
  const { tricks, earlier } = reviewable(view);
  if (!tricks.length) return h("p", {}, t("omi.no_last_trick"));
  // Where the review is, kept until another trick is taken (then it starts again from the last).
  // The buttons and keys read it when used: a button equal to the last render's stays on the
  // page with the handler it had then (dom.js patch).
  const key = `${view.hand_number}:${tricks.length}`;
  if (ctx.ui.trickReview?.key !== key) ctx.ui.trickReview = { key, index: tricks.length - 1, count: tricks.length };
  const index = ctx.ui.trickReview.index;
  const trick = tricks[index];
  const go = (where) => {
    const review = ctx.ui.trickReview;
    const to = Math.min(Math.max(where(review), 0), review.count - 1);
    if (to === review.index) return;
    review.index = to;
    ctx.rerender();
  };
  const moves = { ArrowLeft: (r) => r.index - 1, ArrowUp: (r) => r.index - 1, ArrowRight: (r) => r.index + 1,
    ArrowDown: (r) => r.index + 1, Home: () => 0, End: (r) => r.count - 1 };
  const onkeydown = (event) => {
    const where = moves[event.key];
    if (!where) return;
    // The table's own arrows move between the cards of the hand behind the dialog.
    event.preventDefault();
    event.stopPropagation();
    go(where);
  };
  const positions = omiPositions(view, ctx.me ?? 0);
  const heading = earlier ? t("omi.last_of_hand", { n: trick.hand })
    : t("omi.trick_n_of", { n: index + 1, count: tricks.length });
  const names = [];
  for (let seat = 0; seat < view.players; seat++) {
    names.push(h("span", { class: ["review-name", `at-${positions[seat]}`, seat === trick.winner && "winner"], "aria-hidden": "true" },
      seat === trick.winner ? "★ " : "", isYou(ctx, seat) ? t("seat.you") : ctx.name(seat)));
  }
  return h("div", { class: "last-trick", role: "group", tabindex: "0", autofocus: true, "aria-label": heading, onkeydown,
    dataset: { testid: "trick-review", key, index } },
  h("p", { class: "review-head", "aria-live": "polite", dataset: { testid: "review-head" } }, heading),
  h("div", { class: ["trick-review", `players-${view.players}`] }, names,
    h("div", { class: "trick" }, trickCards(view, positions, trick, ctx, new Set()))),
  h("p", { class: "review-winner" }, isYou(ctx, trick.winner) ? t("omi.took_trick_you") : t("omi.took_trick", { name: ctx.name(trick.winner) })),
  h("div", { class: "review-nav" },
    h("button", { type: "button", class: "btn", dataset: { action: "prev-trick" }, disabled: index === 0, onclick: () => go(moves.ArrowLeft) },
      "← ", t("omi.prev_trick")),
    h("button", { type: "button", class: "btn", dataset: { action: "next-trick" }, disabled: index === tricks.length - 1,
      onclick: () => go(moves.ArrowRight) }, t("omi.next_trick"), " →")));
}

/** The hands played so far, as a table. */
export function resultsTable(view, ctx) {
  const sides = view.players === 4 ? [0, 1] : [0, 1, 2];
  const results = view.results || [];
  const tokensCell = (r, i) => {
    if (r.side === null || r.side === undefined) return plural("omi.carried", r.carry);
    const carried = carriedIn(results, i);
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
    // The legend says what the table's marks mean, and it has one: ★ (the dealer's D and the
    // chooser's suit are the felt's, not this table's).
    results.some((r) => r.kapothi) ? h("p", { class: "legend", dataset: { testid: "scores-legend" } }, t("omi.scores_legend")) : null);
}

/** The tricks of a hand. */
const HAND_TRICKS = 8;

/** Completed tricks since the start of the match (to spot the state that ends a trick). */
function tricksDone(view) {
  return (view.results || []).length * HAND_TRICKS + (view.tricks || []).length;
}

/** A hand finished between `before` and `view`. */
const handEnded = (before, view) => (view.results || []).length > (before.results || []).length;

/** The scoring side of `seat`: its partnership with 4 players, itself with 3. */
const sideOf = (view, seat) => (view.players === 4 ? seat % 2 : seat);

/** The cards just played, the trick just taken (held on the table), the hand just finished and,
 * as the state after a hand's last card already holds the next deal, the table as that hand left
 * it (no card in any hand, its tricks, the new score), shown until its result is closed. */
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
  const between = summary && !view.is_over ? {
    ...view,
    hand_number: prev.hand_number, redeals: prev.redeals, dealer: prev.dealer, chooser: prev.chooser,
    phase: prev.phase, trump: prev.trump, kapothi_announced: prev.kapothi_announced,
    hand: [], hand_counts: prev.hand_counts.map(() => 0), trick: [], legal: [], to_move: null,
    tricks: [...(prev.tricks || []), view.last_trick].filter(Boolean), tricks_won: summary.tricks,
  } : null;
  return { fresh, heldTrick, summary, between };
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
  // The hand that ended the match is told here, not on a card of its own before this one.
  const last = view.results?.length ? view.results[view.results.length - 1] : null;
  const detail = h("div", {},
    h("p", { class: "final-score" }, (view.players === 4 ? [0, 1] : [0, 1, 2])
      .map((s) => `${sideName(view, s, ctx)} ${view.tokens[s]}`).join(" · ")),
    last && h("p", { class: "last-hand", dataset: { testid: "last-hand" } }, h("strong", {}, t("omi.hand_over", { n: last.hand })), " ",
      describeResult(view, last, ctx), " ", whyTokens(view, last, ctx).join(" ")),
    view.results?.length ? resultsTable(view, ctx) : null);
  return { title, detail };
}

/** Challenges (js/challenge.js; `cx`: the challenge, its seat and how to name seats): the seat
 * as its player sees it (partner, opponents, who chooses trump first), how good a finished
 * match was for that seat (compared in order, lower is better) and its hands side by side. */
const omiChallenge = {
  seat(cx) {
    const { data } = cx;
    const spots = omiPositions(data, data.seat);
    const at = (spot) => Number(Object.keys(spots).find((s) => spots[s] === spot));
    const around = { left: cx.computer(at("left")), right: cx.computer(at("right")) };
    const who = data.players === 4 ? t("challenge.seat_omi_team", { ...around, partner: cx.computer(at("top")) })
      : t("challenge.seat_omi_alone", around);
    const first = data.first_to_move;  // the first to act: the first hand's chooser
    if (first === undefined || first === null) return who;
    return `${who} ${first === data.seat ? t("challenge.you_choose_first") : t("challenge.chooses_first", { name: cx.computer(first) })}`;
  },
  rank(result, cx) {
    const s = result.summary;
    if (!s || !Array.isArray(s.tokens)) return null;
    const side = sideOf(cx.data, cx.data.seat);
    const others = Math.max(...s.tokens.filter((_, i) => i !== side));
    return [result.won ? 0 : 1, others - s.tokens[side], result.won ? s.hands : -s.hands];
  },
  rows(cx, results) {
    const side = sideOf(cx.data, cx.data.seat);
    const ownFirst = (counts) => [counts[side], ...counts.filter((_, i) => i !== side)].join(" : ");
    const hands = results.map((r) => r.facts?.hands || []);
    const totals = results.map(() => cx.data.players === 4 ? [0, 0] : [0, 0, 0]);
    const rows = [];
    for (let k = 0; k < Math.max(0, ...hands.map((x) => x.length)); k++) {
      rows.push({ label: t("omi.hand_n", { n: k + 1 }), cells: results.map((r, i) => {
        const hand = hands[i][k];
        if (!hand) return { node: "–" };
        if (hand.side !== null) totals[i][hand.side] += hand.tokens;
        // The hand's worth to the challenge's seat: tokens won, or given away (a 4 : 4 tie: 0).
        const net = hand.side === null ? 0 : hand.side === side ? hand.tokens : -hand.tokens;
        const chooser = cx.seatName(r, hand.chooser);
        return { value: -net, node: [
          h("span", { class: "ch-trump" }, suitEl(hand.trump), h("span", { class: "sr-only" }, t(`suit.${hand.trump}`)), " ", chooser),
          h("span", { class: "ch-tricks" }, t("challenge.tricks", { tricks: ownFirst(hand.tricks) })),
          h("span", { class: "ch-tokens" }, hand.side === null ? plural("omi.carried", hand.carry)
            : plural(net > 0 ? "challenge.won_tokens" : "challenge.gave_tokens", Math.abs(net))),
          h("span", { class: "ch-total" }, t("challenge.running", { score: ownFirst(totals[i]) }))] };
      }) });
    }
    return rows;
  },
};

/** A finished match in emoji, for a daily deal's share text: a square per hand as `seat`'s side
 * saw it (won, lost, 4 : 4; a star for a kapothi won, a burst for one lost) and the tokens, own
 * side first. Never a card: only who took each hand. */
function share(view, seat) {
  const mine = sideOf(view, seat);
  const squares = (view.results || []).map((r) => {
    if (r.side === null || r.side === undefined) return "🟨";
    if (r.kapothi) return r.side === mine ? "⭐" : "💥";
    return r.side === mine ? "🟩" : "🟥";
  }).join("");
  const sides = view.players === 4 ? [0, 1] : [0, 1, 2];
  const tokens = [mine, ...sides.filter((s) => s !== mine)].map((s) => view.tokens?.[s] ?? 0).join(":");
  return `${squares} ${tokens}`;
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
  challenge: omiChallenge,
  share,
  summary: handResult,
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
