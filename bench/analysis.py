"""Analysis speed: CPU time to analyse a whole Omi hand (DDS and the built-in solver) and a whole
Oti game, medians over seeded games, next to the bare reference loop measured in the same run.

    nice python bench/analysis.py [--games 5] [--omi-samples 64,32,16] [--oti-samples 200]
        [--omi-players 4] [--oti-players 3] [--seed 1] [--reference PATH] [--json]
    nice python bench/analysis.py --browser [--games 5] [--seed 1] [--json]
    nice python bench/analysis.py --stability 64,32,24,16 [--games 8] [--seed 1]

Each Omi game is the first hand of a match played by medium players (seeds from ``--seed``;
``--omi-players 3`` for the three-player game), analysed with every solver available and each
number of layouts; each Oti game a whole game of
medium players.  Times are CPU seconds of this process (``time.process_time``: one core, load
from other processes mostly cancels), split into the trump choice and the cards for Omi.  The
reference is ``../shared/bench/reference_playout.py``'s bare random-hand loop, timed before and
after; each median is also given in reference units (seconds × reference hands per second /
1,000: thousands of bare hands the same CPU time would play), which compares across machines.

Aims (issue 14): an Omi hand <= 2 s on one core with DDS, <= 15 s with the built-in solver.

``--browser`` times instead the analysis of games of the device in the page's own Web Worker,
under headless Chromium and Pyodide, through the very path the replay page takes
(``localAnalysis`` of js/offline.js, in its analysis worker, ``analyze_device_record``: the
built-in solver and the browser's number of layouts; the worker's start, which the player waits
for too, is counted: it starts for each analysis).  Each game is the same first hand of a
medium players' match, kept as a finished game of the device (a match to 1 token: hands that
carry at 4 : 4 are skipped), put in the device's database as the worker stores its games.  Each
hand is also analysed here, by CPython, through ``LocalRoom.analyze`` just before the browser
does, so the ratio compares the same work under the same load; both are wall-clock seconds
(the worker's CPU time cannot be read), and the two results must be equal.

``--stability`` says what fewer layouts cost: each Omi hand's losses at each number of layouts
against a 512-layout run of the same hand (DDS where installed: the layouts, so the figures,
are the same with either solver), as the 90th percentile and largest difference, and how many
decisions get another mark.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bistrot.analysis import analyze, default_samples
from bistrot.analysis.omi import DEFAULT_SAMPLES as OMI_SAMPLES
from bistrot.analysis.omi import PYTHON_SAMPLES
from bistrot.analysis.omi import analyze as analyze_omi
from bistrot.analysis.oti import DEFAULT_SAMPLES as OTI_SAMPLES
from bistrot.bots import play
from bistrot.local import ANALYSIS_SOLVER, LocalRoom
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd import Position, available_solvers, solve
from bistrot.oti import OtiGame, OtiRules
from engine import DEFAULT_REFERENCE, load_reference

AIMS = {"dds": 2.0, "python": 15.0}


def reference_rate(playout: Callable[[random.Random], object], seconds: float = 2.0) -> float:
    """Bare random hands per CPU second."""
    rng, hands, start = random.Random(0), 0, time.process_time()
    while time.process_time() - start < seconds:
        playout(rng)
        hands += 1
    return hands / (time.process_time() - start)


def omi_hand(seed: int, players: int = 4) -> OmiGame:
    rules = OmiRules(players=players)
    hand: OmiGame = play(OmiGame.new(rules, seed), "medium", until=lambda g: bool(g.results))
    return hand


def oti_game(seed: int, players: int) -> OtiGame:
    game: OtiGame = play(OtiGame.new(OtiRules(players=players), seed), "medium")
    return game


def time_omi(game: OmiGame, samples: int, solver: str) -> tuple[float, float, int]:
    """CPU seconds for the whole hand, of which the trump choice, and decisions judged."""
    marks: list[float] = []
    start = time.process_time()
    found = analyze_omi(game, samples, 0, lambda done, total: marks.append(time.process_time()), solver)
    total = time.process_time() - start
    trump = marks[0] - start  # the trump choice is the first decision
    return total, trump, len(found.moves)


def device_record(seed: int) -> tuple[LocalRoom, str] | None:
    """The first hand of a medium players' match (:func:`omi_hand`) as a finished game of the
    device, a match to 1 token with the same deal and actions: its room and table id (None when
    the hand carried, which does not end that match)."""
    hand = omi_hand(seed)
    room = LocalRoom()
    table_id = room.create({"game": "omi", "mode": "hotseat", "seed": seed, "rules": {"target": 1}})["table"]
    table = room.tables[table_id]
    for seat, action in hand.actions:
        table.commit(seat, action, "human", None)
    return (room, table_id) if table.game.is_over else None


# Puts the records in the device's database, as the worker stores its games, and waits for the
# worker to start (Pyodide): the timing starts with a started worker, as on a page in use.
PREPARE_JS = """async (records) => {
  const { openDeviceDb } = await import('/static/js/devicedb.js');
  const offline = await import('/static/js/offline.js');
  const d = await openDeviceDb();
  await new Promise((resolve, reject) => {
    const tx = d.transaction('games', 'readwrite');
    for (const record of records) tx.objectStore('games').put(record);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  d.close();
  offline.warmUp();
  const booted = await new Promise((resolve) => offline.onBoot(resolve));
  if (!booted.ok) throw new Error(booted.message);
  return booted.ms;
}"""
# One analysis as the replay page asks for it: the page's clock, and at each progress message.
ANALYZE_JS = """async (table) => {
  const { localAnalysis } = await import('/static/js/offline.js');
  const marks = [];
  const start = performance.now();
  const analysis = await localAnalysis(table, () => marks.push(performance.now()));
  const end = performance.now();
  return {seconds: (end - start) / 1000, trump: (marks[0] - start) / 1000, steps: marks.length, analysis};
}"""


def browser_main(args: argparse.Namespace) -> int:
    """``--browser``: Omi hands analysed in the page's worker under Pyodide, next to CPython."""
    from browser_kit import chromium, offline_server

    games: list[tuple[LocalRoom, str]] = []
    seed = args.seed * 1000
    while len(games) < args.games:
        made = device_record(seed)
        seed += 1
        if made is not None:
            games.append(made)
    samples = default_samples("omi", ANALYSIS_SOLVER, browser=True)
    rows: list[dict[str, object]] = []
    load_before = os.getloadavg()
    with offline_server() as (base, _), chromium() as browser:
        page = browser.new_context().new_page()
        page.goto(base + "/")
        boot_ms = page.evaluate(PREPARE_JS, [room.tables[table].record() for room, table in games])
        for room, table in games:
            start = time.perf_counter()
            here = room.analyze(table)
            cpython = time.perf_counter() - start
            there = page.evaluate(ANALYZE_JS, table)
            rows.append({
                "table": table, "decisions": len(here["moves"]), "browser_s": round(there["seconds"], 2),
                "browser_trump_s": round(there["trump"], 2), "cpython_s": round(cpython, 2),
                "ratio": round(there["seconds"] / cpython, 2), "same_result": there["analysis"] == here,
                "progress_messages": there["steps"],
            })
            print(f"  {rows[-1]}", file=sys.stderr)
    load_after = os.getloadavg()
    browser_s = [float(r["browser_s"]) for r in rows]  # type: ignore[arg-type]
    figures = {
        "samples": samples, "hands": len(rows), "worker_boot_ms": boot_ms,
        "browser_median_s": round(statistics.median(browser_s), 2),
        "browser_min_s": min(browser_s), "browser_max_s": max(browser_s),
        "cpython_median_s": round(statistics.median(float(r["cpython_s"]) for r in rows), 2),  # type: ignore[arg-type]
        "ratio_median": round(statistics.median(float(r["ratio"]) for r in rows), 2),  # type: ignore[arg-type]
        "aim_s": AIMS["python"], "met": statistics.median(browser_s) <= AIMS["python"],
        "all_same_result": all(r["same_result"] for r in rows),
        "load": [round(load_before[0], 1), round(load_after[0], 1)],
    }
    if args.json:
        print(json.dumps({**figures, "rows": rows}))
        return 0
    print(f"Omi hands analysed on the device: Chromium's worker (Pyodide) vs CPython, built-in solver, "
          f"{samples} layouts, {len(rows)} hands, wall-clock seconds; {os.cpu_count()} cores, "
          f"load average {figures['load'][0]} before, {figures['load'][1]} after")
    print(f"{'table':<30} {'decisions':>9} {'browser':>8} {'trump':>6} {'CPython':>8} {'ratio':>6}  same")
    for row in rows:
        print(f"{row['table']:<30} {row['decisions']:>9} {row['browser_s']:>8.2f} "
              f"{row['browser_trump_s']:>6.2f} {row['cpython_s']:>8.2f} {row['ratio']:>6.2f}  "
              f"{row['same_result']}")
    print(f"browser: median {figures['browser_median_s']} s (min {figures['browser_min_s']}, "
          f"max {figures['browser_max_s']}); CPython: median {figures['cpython_median_s']} s; "
          f"ratio median {figures['ratio_median']}; aim <= {AIMS['python']} s: "
          f"{'met' if figures['met'] else 'MISSED'}; results equal: {figures['all_same_result']}")
    return 0 if figures["all_same_result"] else 1


def stability_main(args: argparse.Namespace, reference_samples: int = 512) -> int:
    """``--stability``: losses at fewer layouts against ``reference_samples`` layouts."""
    solver = "dds" if "dds" in available_solvers() else "python"
    hands = [omi_hand(args.seed * 1000 + i) for i in range(args.games)]
    reference = [analyze_omi(hand, reference_samples, 0, None, solver).moves for hand in hands]
    print(f"Omi losses against {reference_samples} layouts, {args.games} hands, "
          f"{sum(map(len, reference))} decisions ({solver})")
    print(f"{'layouts':>7} {'90% within':>10} {'largest':>8} {'other mark':>10}")
    for samples in (int(x) for x in args.stability.split(",")):
        gaps, marks = [], 0
        for hand, best in zip(hands, reference, strict=True):
            for move, ref in zip(analyze_omi(hand, samples, 0, None, solver).moves, best, strict=True):
                gaps.append(abs(move.loss - ref.loss))
                marks += move.mark != ref.mark
        print(f"{samples:>7} {statistics.quantiles(gaps, n=10)[-1]:>10.3f} {max(gaps):>8.3f} {marks:>10}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="seeded games per figure (default 5)")
    parser.add_argument("--omi-samples", default=f"{OMI_SAMPLES},{PYTHON_SAMPLES}",
                        help="layouts per decision to time, comma-separated")
    parser.add_argument("--oti-samples", type=int, default=OTI_SAMPLES, help="deals per Oti decision")
    parser.add_argument("--omi-players", type=int, choices=(4, 3), default=4)
    parser.add_argument("--oti-players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--browser", action="store_true",
                        help="time Omi hands analysed in the page's worker under Chromium and Pyodide")
    parser.add_argument("--stability", metavar="LAYOUTS",
                        help="Omi losses at these layouts (comma-separated) against 512 layouts")
    args = parser.parse_args(argv)
    if args.browser:
        return browser_main(args)
    if args.stability:
        return stability_main(args)
    playout = load_reference(args.reference)
    solve(Position(hands=(1 << 12, 1 << 11, 1 << 10, 1 << 9), trump=0))  # DDS's one-time set-up
    before = reference_rate(playout)
    seeds = [args.seed * 1000 + i for i in range(args.games)]
    omi_games = [omi_hand(s, args.omi_players) for s in seeds]
    three = " (3 players)" if args.omi_players == 3 else ""
    rows: list[dict[str, object]] = []
    for solver in [s for s in ("dds", "python") if s in available_solvers()]:
        for samples in (int(x) for x in args.omi_samples.split(",")):
            runs = [time_omi(game, samples, solver) for game in omi_games]
            total = statistics.median(r[0] for r in runs)
            rows.append({
                "what": f"Omi hand{three}, {solver}, {samples} layouts",
                "median_s": round(total, 2),
                "max_s": round(max(r[0] for r in runs), 2),
                "trump_s": round(statistics.median(r[1] for r in runs), 2),
                "decisions": statistics.median(r[2] for r in runs),
                "aim_s": AIMS[solver], "met": total <= AIMS[solver],
            })
            print(f"  {rows[-1]}", file=sys.stderr)
    oti_runs = []
    for seed in seeds:
        game = oti_game(seed, args.oti_players)
        start = time.process_time()
        found = analyze(game, samples=args.oti_samples)
        oti_runs.append((time.process_time() - start, len(found.moves)))
    rows.append({
        "what": f"Oti game, {args.oti_players} players, {args.oti_samples} deals",
        "median_s": round(statistics.median(r[0] for r in oti_runs), 2),
        "max_s": round(max(r[0] for r in oti_runs), 2),
        "decisions": statistics.median(r[1] for r in oti_runs),
    })
    after = reference_rate(playout)
    reference = statistics.mean([before, after])
    for row in rows:
        row["reference_units"] = round(float(row["median_s"]) * reference / 1000, 2)  # type: ignore[arg-type]
    if args.json:
        print(json.dumps({"reference_hands_per_s": round(reference), "rows": rows}))
        return 0
    print(f"reference loop: {before:,.0f} then {after:,.0f} bare hands per CPU second; "
          f"{args.games} games per line, CPU seconds")
    print(f"{'':<46} {'median':>7} {'max':>7} {'trump':>6} {'decisions':>9} {'ref units':>9}  aim")
    for row in rows:
        aim = "" if "aim_s" not in row else f"<= {row['aim_s']} s: {'met' if row['met'] else 'MISSED'}"
        trump = "" if "trump_s" not in row else f"{row['trump_s']:.2f}"
        print(f"{row['what']:<46} {row['median_s']:>7.2f} {row['max_s']:>7.2f} {trump:>6} "
              f"{row['decisions']:>9} {row['reference_units']:>9.2f}  {aim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
