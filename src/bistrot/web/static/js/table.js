// @ts-check
// A table page: its parts wired together. The page never decides a rule: it shows the view it
// is sent and sends the action clicked.
//   table/state.js     what the page keeps (T, T.S)
//   table/session.js   connections, the queue of states shown one by one, acting, hot seat
//   table/render.js    the top bar, the game's renderer, the overlay of the moment
//   table/overlays.js  pass-the-device, waiting room, end of game, hand summary, panels
//   table/lobby.js     the waiting room's seats and teams, moving to another seat
//   table/keyboard.js  keys
//   table/requests.js  rematch, challenge, start now, seat moves (HTTP)
// Whatever depends on the game is in its renderer (games/index.js).
import { tableState } from "./table/state.js";
import { openSession } from "./table/session.js";
import { renderTable, describe } from "./table/render.js";
import { tableKeys } from "./table/keyboard.js";

/** Show table `tableId` in `root` with the seats or watch token of `held`; {rerender, destroy}. */
export function openTable(root, tableId, held, nav) {
  const T = tableState(tableId, held, nav);
  const { S } = T;
  T.render = () => renderTable(root, T);
  /** Open a panel (a renderer panel's id, or "help"), or close it when it is the one open. */
  T.openPanel = (name) => {
    S.panel = S.panel === name ? null : name;
    T.render();
  };
  const close = openSession(T, { describe: (msg) => describe(T, msg) });
  const onKey = tableKeys(root, T);
  document.addEventListener("keydown", onKey);

  T.render();
  return {
    rerender: T.render,
    destroy() {
      S.destroyed = true;
      document.removeEventListener("keydown", onKey);
      for (const id of S.timers) clearTimeout(id);
      close();
    },
  };
}
