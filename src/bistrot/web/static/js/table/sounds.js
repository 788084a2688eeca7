// @ts-check
// The sounds of one step of the game (one new state shown): the game's own (a card, a trick, a
// hand; from its renderer) and the table's (your turn, won or lost).
import { play } from "../sound.js";
import { rendererFor } from "../games/index.js";

/** Play the sounds that go from `before` to `view` (both views of the seat on screen). */
export function stepSounds(T, before, view, last) {
  for (const [sound, delay] of rendererFor(view.game).sounds(before, view, last)) {
    if (delay) T.later(() => play(sound), delay);
    else play(sound);
  }
  if (view.is_over && !before.is_over) {
    const me = T.S.showSeat;
    const won = me !== null && rendererFor(view.game).won(view, me);
    T.later(() => play(won ? "win" : "lose"), 500);
  }
  if ((view.legal || []).length && !(before.legal || []).length) T.later(() => play("turn"), 150);
}
