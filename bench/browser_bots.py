"""The hard computer's decision time in the browser (Pyodide, no DDS): hints on device tables,
timed from the page, next to the same bot on the same views in CPython.

    nice python bench/browser_bots.py [--hands 3] [--games 3] [--seed 1] [--json]

Issue 16: in the browser, hard stays within its budget.  The browser's hard players run in the
page's Web Worker under Pyodide with the browser's options (``browser_bot_options`` of
``bistrot.games``: a 0.35 s budget), and a hint is that very player's choice
(``LocalRoom._hint``: ``make_bot(game, "hard", seed, **browser options)`` on the seat's view), so
a hint's round trip is hard's decision time plus the worker's messaging and the store of the
game (the worker stores the hint count before it answers).

Under headless Chromium (``browser_kit.py``: a ``bistrot serve`` whose offline play is ready,
Debian's Chromium), through the page's own modules as the table page uses them: the Hints
switch on (``setHints`` of js/store.js), a table opened on the device against hard computer
players (``createLocalTable`` of js/offline.js, ``bot_delay_ms`` 0), its connection the table
page's (``workerTransport`` of js/worker-transport.js).  At each of the human seat's turns the
page sends ``{"type": "hint"}`` as ``T.askHint`` does and times, with ``performance.now()``, the
wait until the hint arrives; then it plays the hinted action as ``T.act`` does, and the game goes
on.  A hint is asked only when no computer player has a move to think about (in Oti's swap, once
the computer is ready), so the worker's queue holds nothing else.  Omi: you and 3 computers,
``--hands`` hands of one match (seed ``--seed`` × 1000); Oti: 2 players, ``--games`` whole games
(seeds ``--seed`` × 1000 + i).

Then, in this process, the same bot (the built-in solver for Omi, as under Pyodide) is made and
asked on each of those views, rebuilt from the device's record of the table (``LocalTable``
replayed up to the hint's seq; the same view and the same seed as the worker's), wall-clock
both.  A bot that searches stops at its budget, so where CPython stops early on a settled choice
the ratio says how much slower Pyodide is, and where both reach the budget it tends to 1.
"Searched" decisions are those where the CPython bot searched (Omi: cards with a choice; Oti:
the play phase with a choice); the others (trump, swaps, forced moves) take no search.

The verdict is the page's: the slowest hint against the budget + :data:`ALLOWANCE_S`, over all
hints and over the warm ones: the first hint of each game and phase in the run is *cold* (the
worker, as this process, then first loads the modules and tables that decision needs: a cost
once per page, not per decision).  The CPython ratio is over warm searched decisions.  Per-hint
rows go to stderr as they come; ``--json`` gives them all.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Mapping
from typing import Any

from playwright.sync_api import ConsoleMessage, Page

from bistrot.bots import make_bot
from bistrot.local import BROWSER_BOT_OPTIONS, LocalTable

LEVEL = "hard"
#: The worker's hard Omi player solves with the built-in solver (there is no DDS under Pyodide);
#: CPython here would pick DDS if installed, so it is told.
WORKER_ONLY_OPTIONS: dict[str, dict[str, Any]] = {"omi": {"solver": "python"}}
ALLOWANCE_S = 0.1
"""What a hint may take over the bot's budget: the worker's messaging and the store of the game."""
STALL_MS = 180_000
"""The page gives up when the table has not answered for this long (a computer move included)."""

# One table of the device played by its human seat through the page's own modules (see the
# docstring); returns each hint's page-clock round trip.  A hint is asked once per seq.
PLAY_JS = """async ({request, hands, stallMs}) => {
  const offline = await import('/static/js/offline.js');
  const { workerTransport } = await import('/static/js/worker-transport.js');
  const { setHints } = await import('/static/js/store.js');
  setHints(true);  // the page's Hints switch
  offline.warmUp();
  const booted = await new Promise((resolve) => offline.onBoot(resolve));
  if (!booted.ok) throw new Error(booted.message);
  const made = await offline.createLocalTable(request);
  const me = made.seats[0].seat;
  const conn = workerTransport({ table: made.table, seat: me });
  let latest = null;   // the last state
  let waiting = null;  // {test, resolve}: the message awaited
  conn.onMessage((msg) => {
    if (msg.type === 'state' && (!latest || msg.seq >= latest.seq)) latest = msg;
    if (waiting && waiting.test(msg)) {
      const found = waiting;
      waiting = null;
      found.resolve(msg);
    }
  });
  const wait = (test, what) => new Promise((resolve, reject) => {
    if (latest && test(latest)) return resolve(latest);
    const stalled = () => `no ${what} in ${stallMs} ms; last state ${latest?.seq} (${latest?.view?.phase})`;
    const timer = setTimeout(() => reject(new Error(stalled())), stallMs);
    waiting = { test, resolve: (msg) => { clearTimeout(timer); resolve(msg); } };
  });
  const answerTo = (id) => (msg) => ['reject', 'hint', 'ack'].includes(msg.type) && msg.id === id;
  const over = (v) => v.is_over || (hands !== null && v.results.length >= hands);
  // This seat's turn with no computer player thinking (Oti's swap: both may act; wait for it).
  const ours = (v) => v.legal.length > 0 && (v.to_move === me
    || (v.phase === 'swap' && v.ready.every((ready, seat) => ready || seat === me)));
  const hints = [];
  for (let n = 1; ; n++) {
    const state = await wait((m) => m.type === 'state' && (over(m.view) || ours(m.view)), 'turn');
    if (over(state.view)) break;
    if (n > 2000) throw new Error('more than 2000 turns: the game does not end');
    const id = `hint-${n}`;
    const asked = wait(answerTo(id), 'hint');
    const start = performance.now();
    conn.send({ type: 'hint', id });
    const hint = await asked;
    const ms = performance.now() - start;
    if (hint.type !== 'hint') throw new Error(`hint refused: ${hint.code} ${hint.message}`);
    const { phase, legal } = state.view;
    hints.push({ seq: hint.seq, ms, action: hint.action, phase, legal: legal.length });
    console.log(`bench: ${request.game} seq ${hint.seq} ${phase} ${ms.toFixed(0)} ms`);
    const played = wait(answerTo(`act-${n}`), 'ack');
    conn.send({ type: 'act', id: `act-${n}`, action: hint.action, seq: state.seq });
    const ack = await played;
    if (ack.type !== 'ack') throw new Error(`the hinted ${hint.action} was refused: ${ack.code}`);
    await wait((m) => m.type === 'state' && m.seq >= ack.seq, 'state after the move');
  }
  conn.close();
  const end = { seq: latest.seq, over: latest.view.is_over };
  return { table: made.table, seat: me, bootMs: booted.ms, hints, ...end };
}"""
# The device's record of a table (seed and actions), as the worker stored it.
RECORD_JS = """async (table) => {
  const { openDeviceDb } = await import('/static/js/devicedb.js');
  const d = await openDeviceDb();
  try {
    return await new Promise((resolve, reject) => {
      const request = d.transaction('games').objectStore('games').get(table);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    d.close();
  }
}"""


def budget_of(game: str) -> float:
    """The hard player's budget in the browser, seconds (its option is named per game)."""
    options = BROWSER_BOT_OPTIONS[(game, LEVEL)]
    return float(options.get("budget", options.get("time_budget", 0.0)))


def in_cpython(record: dict[str, Any], seat: int, hint: Mapping[str, Any]) -> dict[str, Any]:
    """The hint at ``hint["seq"]`` worked out here: the table replayed from the device's record
    to that seq, the seat's hint asked (the same view and seed as the worker's), the bot made
    and asked as ``LocalRoom._hint`` does; seconds, its action, and whether it searched."""
    game = record["game"]
    table = LocalTable.from_record({**record, "actions": record["actions"][: hint["seq"]]})
    ask = table.ask_hint(seat, None).hint
    if ask is None or ask.seq != hint["seq"]:
        raise SystemExit(f"the record of {record['id']} gives no hint at seq {hint['seq']}")
    options = {**BROWSER_BOT_OPTIONS.get((game, ask.level), {}), **WORKER_ONLY_OPTIONS.get(game, {})}
    start = time.perf_counter()
    bot = make_bot(game, ask.level, seed=ask.seed, **options)
    action = str(bot.act(ask.view))
    seconds = time.perf_counter() - start
    searched = bool(getattr(bot, "last_samples", 0) or getattr(bot, "last_deals", 0))
    same = action == hint["action"]
    return {"cpython_ms": round(seconds * 1000, 1), "same_action": same, "searched": searched}


def play(page: Page, request: dict[str, Any], hands: int | None) -> tuple[list[dict[str, Any]], int]:
    """One device table played in the page: each hint's row (page and CPython), worker boot ms."""
    found = page.evaluate(PLAY_JS, {"request": request, "hands": hands, "stallMs": STALL_MS})
    record = page.evaluate(RECORD_JS, found["table"])
    rows = []
    for hint in found["hints"]:
        rows.append({"table": found["table"], **hint, "ms": round(hint["ms"], 1),
                     **in_cpython(record, found["seat"], hint)})
    print(f"  {request['game']} {found['table']}: {len(rows)} hints to seq {found['seq']}, "
          f"over {found['over']}", file=sys.stderr)
    return rows, int(found["bootMs"])


def p90(values: list[float]) -> float:
    """The 90th percentile (the value itself when there is one)."""
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def worst_of(rows: list[dict[str, Any]], budget: float) -> dict[str, Any]:
    """The slowest of ``rows`` against the budget: its time, where, the overrun, the verdict."""
    worst = max(rows, key=lambda r: r["ms"])
    return {
        "max_ms": round(worst["ms"], 1), "at": {k: worst[k] for k in ("table", "seq", "phase", "legal")},
        "overrun_ms": round(worst["ms"] - budget * 1000, 1),
        "within": worst["ms"] <= (budget + ALLOWANCE_S) * 1000,
    }


def figures(game: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A game's summary: the page's hints against the budget (all, and the warm ones: not the
    first of their phase), and the warm decisions that searched next to CPython."""
    budget = budget_of(game)
    page_ms = [r["ms"] for r in rows]
    warm = [r for r in rows if not r["cold"]]
    searched = [r for r in warm if r["searched"]]
    out: dict[str, Any] = {
        "game": game, "budget_s": budget, "allowance_s": ALLOWANCE_S, "hints": len(rows),
        "median_ms": round(statistics.median(page_ms), 1), "p90_ms": round(p90(page_ms), 1),
        **worst_of(rows, budget), "warm": worst_of(warm, budget) if warm else None,
        "same_action": sum(r["same_action"] for r in rows), "searched": len(searched),
    }
    if searched:
        ms = [r["ms"] for r in searched]
        cpython = [r["cpython_ms"] for r in searched]
        out.update({
            "searched_median_ms": round(statistics.median(ms), 1), "searched_p90_ms": round(p90(ms), 1),
            "cpython_median_ms": round(statistics.median(cpython), 1),
            "cpython_max_ms": round(max(cpython), 1),
            "ratio_median": round(statistics.median(r["ms"] / r["cpython_ms"] for r in searched), 2),
        })
    return out


def verdict(worst: Mapping[str, Any]) -> str:
    at = worst["at"]
    return (f"max {worst['max_ms']} (seq {at['seq']}, {at['phase']}, {at['legal']} legal): "
            f"{'within' if worst['within'] else 'OVER'}, {worst['overrun_ms']:+} against the budget")


def progress(message: ConsoleMessage) -> None:
    """The page's ``bench:`` lines (one a hint) to stderr as they come."""
    if message.text.startswith("bench:"):
        print(f"    {message.text}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    from browser_kit import chromium, offline_server

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3, help="Omi hands of one match (default 3)")
    parser.add_argument("--games", type=int, default=3, help="whole Oti games (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    common = {"mode": "computer", "level": LEVEL, "bot_delay_ms": 0}
    tables: list[tuple[dict[str, Any], int | None]] = []
    if args.hands > 0:
        tables.append(({"game": "omi", **common, "seed": args.seed * 1000}, args.hands))
    tables += [({"game": "oti", **common, "seed": args.seed * 1000 + i, "rules": {"players": 2}}, None)
               for i in range(args.games)]
    rows: dict[str, list[dict[str, Any]]] = {}
    boot_ms = None
    load_before = os.getloadavg()
    with offline_server() as (base, _), chromium() as browser:
        page = browser.new_context().new_page()
        page.on("console", progress)
        page.goto(base + "/")
        kinds: set[tuple[str, str]] = set()
        for request, hands in tables:
            found, boot_ms = play(page, request, hands)
            for row in found:  # the first of its kind loads modules and tables, here and in the worker
                row["cold"] = (request["game"], row["phase"]) not in kinds
                kinds.add((request["game"], row["phase"]))
            rows.setdefault(request["game"], []).extend(found)
    load_after = os.getloadavg()
    results = [figures(game, found) for game, found in rows.items() if found]
    load = [round(load_before[0], 1), round(load_after[0], 1)]
    if args.json:
        print(json.dumps({"load": load, "worker_boot_ms": boot_ms, "games": results, "rows": rows}))
        return 0
    print(f"hard's hints on device tables, the page's clock (ms): Chromium's worker (Pyodide) vs CPython; "
          f"{os.cpu_count()} cores, load average {load[0]} before, {load[1]} after; "
          f"the worker started in {boot_ms} ms")
    for r in results:
        print(f"{r['game']}: {r['hints']} hints, median {r['median_ms']}, p90 {r['p90_ms']}, {verdict(r)} "
              f"{r['budget_s']} s (+ {r['allowance_s']} s allowed)")
        if r["warm"]:
            print(f"  not the first of their phase: {verdict(r['warm'])}")
        if r["searched"]:
            print(f"  {r['searched']} of them searched: median {r['searched_median_ms']}, "
                  f"p90 {r['searched_p90_ms']}; CPython median {r['cpython_median_ms']}, "
                  f"max {r['cpython_max_ms']}; Pyodide/CPython median ratio {r['ratio_median']}")
        print(f"  the same action as CPython's: {r['same_action']} of {r['hints']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
