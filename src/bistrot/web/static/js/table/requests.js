// @ts-check
// What a table asks the server besides playing (HTTP, not the table's connection): start before
// every seat is taken, a seat move before the start, a rematch, a challenge link, a challenge's
// results.
import { toast } from "../dom.js";
import { refusal } from "../i18n.js";
import { post } from "../api.js";
import { localRematch } from "../offline.js";
import { saveTable, loadTable } from "../store.js";
import { loadChallenge } from "../challenge.js";
import { shareUrl } from "../sharing.js";

/** The next game with the same people: the server's rematch table (or this device's). */
export async function rematch(T) {
  const { S, held, tableId } = T;
  const existing = S.shown?.view?.table?.rematch;
  const token = held.seats?.[0]?.token;
  let id = existing;
  if (!id && held.local) {
    try {
      id = await localRematch(tableId);
    } catch (error) {
      toast(error.message, "error");
      return;
    }
  }
  if (!id) {
    try {
      const answer = await post(`/api/tables/${tableId}/rematch`, { token });
      id = answer.table;
    } catch (error) {
      toast(error.message, "error");
      return;
    }
  }
  saveTable(id, { ...held, challenge: null, join_url: null, rematch_of: tableId });
  T.nav(`/t/${id}`);
}

/** A challenge link for this deal: the end-of-game dialog shows it. */
export async function challenge(T) {
  const { S, held, tableId } = T;
  const token = held.seats?.find((s) => s.seat === S.showSeat)?.token || held.seats?.[0]?.token;
  try {
    const answer = await post(`/api/tables/${tableId}/challenge`, { token });
    S.challenge = { id: answer.challenge, url: shareUrl(answer.challenge_url) };
    // Remembered with the table: this browser's token of it shows the challenge's facts (a
    // finished game on its deal, js/challenge.js loadChallenge).
    const made = [...new Set([...(held.challenges_made || []), answer.challenge])];
    held.challenges_made = made;
    saveTable(tableId, { ...(loadTable(tableId) || held), challenges_made: made });
    T.render();
  } catch (error) {
    toast(error.message, "error");
  }
}

/** The host starts a friends table now: the open seats get computer players. */
export async function startNow(T) {
  try {
    await post(`/api/tables/${T.tableId}/start`, { token: T.held.seats[0].token });
  } catch (error) {
    toast(error.message, "error");
  }
}

/** Before the start: move this page's player to another seat, or (the creator) move a player
 * (`body`: {to} or {seat, to}); the server sends everyone the new seating. */
export async function moveSeat(T, body) {
  try {
    await post(`/api/tables/${T.tableId}/seat`, { token: T.held.seats[0].token, ...body });
  } catch (error) {
    toast(refusal(error), "error", 5000);
  }
}

/** The results of the challenge this table was played for (once), this table's game being
 * over: with every game's facts (its token says this browser played it). */
export async function loadComparison(T) {
  const { S, held, tableId } = T;
  if (!held.challenge || S.comparison) return;
  try {
    S.comparison = await loadChallenge(held.challenge, [{ ...held, id: tableId }]);
    T.render();
  } catch { /* the link still works */ }
}
