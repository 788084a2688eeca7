// @ts-check
// One renderer per game, looked up by the name the server gives the game (view.game, the names
// of GET /api/games). The table (js/table.js and js/table/*), the lobby, the rules pages and the
// router know no game: whatever differs between games is in its renderer, and this file is the
// only one that names them all.
import { omi } from "./omi.js";
import { oti } from "./oti.js";
import { plain } from "./plain.js";

/**
 * The shape of a renderer. Every function gets the view of one seat (never more) and `ctx`, the
 * table's context: {me, neutral, name(seat), seatInfo(seat), act(action), rerender(), cardName,
 * cardPretty, busy, hideHand, heldTrick, fresh, ui, openPanel(id)} (see js/table/render.js, tableContext).
 *
 * @typedef {object} Renderer
 * @property {string} name  the game's name, as the server lists it
 * @property {string[]} suits  two suits for the game's choice card in the lobby ("S", "H", ...)
 * @property {(view: object, ctx: object) => (Node|Node[])} table
 *   everything of the game on the table: the felt, and any score panel always shown with it
 * @property {(prev: object, view: object) => {fresh: Set<string>, heldTrick?: object|null, summary?: object|null,
 *   between?: object|null}} step
 *   what changed between two consecutive views: the cards just played (animated), a trick just
 *   completed (kept on the table for a moment), a hand just finished (its summary) and, when
 *   `view` already holds the next deal, `between`: the view to show instead until the hand's
 *   result (summary()) is closed (table/session.js)
 * @property {(before: object, view: object, last: object|null) => Array<[string, number]>} sounds
 *   the game's sounds for one step, as [sound of js/sound.js, delay in ms]; the table adds the
 *   turn, win and lose sounds itself
 * @property {(view: object, seat: number) => boolean} won  whether `seat` won the finished game
 * @property {(msg: object, ctx: object) => string} describe  the action log's line for a state message
 * @property {(view: object, seat: number) => string} share
 *   a finished game as `seat` played it, in emoji and numbers for a daily deal's share text (no
 *   card: who took each hand, a place, counts)
 * @property {(view: object, ctx: object) => {title: string, detail: Node|null}} over
 *   the end-of-game dialog's title and what it shows (ranking, final score, hands)
 * @property {(view: object, summary: object, ctx: object) => {title: string, detail: Node}} summary
 *   the result card of the finished hand `summary` (from step(), shown only with a `between`)
 * @property {{seat: (cx: object) => string, rank: (result: object, cx: object) => (number[]|null),
 *   rows: (cx: object, results: object[]) => Array<{label: string, cells: Array<{node: *, value?: number}>}>}} [challenge]
 *   a challenge's words and comparison (js/challenge.js; `cx`: {data, player(result), computer(seat),
 *   short(seat), seatName(result, seat)}): the challenge's seat as its player sees it, how good a finished game was for
 *   that seat (compared in order, lower is better), and the finished games side by side, a row
 *   per fact with a cell per game (`value`: lower is better in that row)
 * @property {Array<{id: string, action: string, title: string, key?: string,
 *   render: (view: object, ctx: object) => Node}>} panels
 *   dialogs opened from the top bar (button data-action `action`, i18n key `title`) and by
 *   the keyboard (`key`, a lower-case letter)
 * @property {string[]} helpKeys  i18n keys of the keyboard help lines
 * @property {Object<string, string>} keys  a letter (lower case, or "enter") -> the selector of
 *   the button it clicks (only when that button is there and enabled)
 */

/** The renderers by game name. A game that is listed here is playable at the table. */
const RENDERERS = { omi, oti };

/** The renderer of `game`; a game the page has no renderer for gets the plain one (its legal
 * actions as buttons), so a game new on the server can still be played. */
export const rendererFor = (game) => RENDERERS[game] || plain;
