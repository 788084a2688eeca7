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
 * cardPretty, busy, hideHand, heldTrick, fresh, ui} (see js/table/render.js, tableContext).
 *
 * @typedef {object} Renderer
 * @property {string} name  the game's name, as the server lists it
 * @property {string[]} suits  two suits for the game's choice card in the lobby ("S", "H", ...)
 * @property {(view: object, ctx: object) => (Node|Node[])} table
 *   everything of the game on the table: the felt, and any score panel always shown with it
 * @property {(prev: object, view: object) => {fresh: Set<string>, heldTrick?: object|null, summary?: object|null}} step
 *   what changed between two consecutive views: the cards just played (animated), a trick just
 *   completed (kept on the table for a moment), a hand just finished (its summary for 5 seconds)
 * @property {(before: object, view: object, last: object|null) => Array<[string, number]>} sounds
 *   the game's sounds for one step, as [sound of js/sound.js, delay in ms]; the table adds the
 *   turn, win and lose sounds itself
 * @property {(view: object, seat: number) => boolean} won  whether `seat` won the finished game
 * @property {(msg: object, ctx: object) => string} describe  the action log's line for a state message
 * @property {(view: object, ctx: object) => {title: string, detail: Node|null}} over
 *   the end-of-game dialog's title and what it shows (ranking, final score, hands)
 * @property {(view: object, summary: object, ctx: object) => Array} summary
 *   the words of the short-lived summary of the finished hand `summary` (from step())
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
