"""``bistrot arena oti``: computer players against each other at Oti, seats rotated.

Game ``i`` of a run deals the cards of deal ``i // P`` (P players; each deal comes from the
run's seed) and seats the bots in rotation ``i % P``: the bots are laid round the table in the
order given (``hard,medium`` with 2 players: one each; with 3 players ``hard,medium,hard``),
and rotation ``r`` moves everybody ``r`` seats on, so over a whole deal every bot plays every
seat with the same cards.  When the bots do not divide the seats evenly, the spare seats go
round the bots from deal to deal (the first bot on deal 0, the second on deal 1, ...).

* **Win rate** of a bot: the share of games won by one of its seats, with a 95% Wilson
  interval.  ``seat_share`` is the share of seats it held: the win rate of bots of equal
  strength (1 / 2 for two bots with an even table).
* **Think time**: wall time of each ``act`` call, per bot, in milliseconds (median and max).

>>> result = run_arena(["medium", "easy"], games=4, players=2, seed=7)
>>> result["bots"], result["games"], result["players"], sum(result["wins"].values())
(['medium', 'easy'], 4, 2, 4)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bistrot import bots
from bistrot.arena.stats import median_max_ms, wilson_ci95
from bistrot.cli.options import add_arena_arguments
from bistrot.oti import OtiGame, OtiRules
from bistrot.seeding import derive


@dataclass(frozen=True)
class BotSpec:
    """A bot level with its options, and the name it is reported under."""

    level: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class GameResult:
    """One game: who sat where, who won, how it ended, think times per bot name (seconds)."""

    index: int
    seating: list[str]
    winner: str
    end_reason: str
    actions: int
    think: dict[str, list[float]] = field(default_factory=dict)


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of a run seeded with ``seed``."""
    return derive(seed, "arena-oti", deal)


def seating(names: Sequence[str], players: int, game: int) -> list[str]:
    """The bot name in each seat of game ``game``.

    >>> [seating(["a", "b"], 3, g) for g in range(6)]
    [['a', 'b', 'a'], ['a', 'a', 'b'], ['b', 'a', 'a'], ['b', 'a', 'b'], ['b', 'b', 'a'], ['a', 'b', 'b']]
    """
    deal, rotation = divmod(game, players)
    shift = deal % len(names)
    table = [names[(j + shift) % len(names)] for j in range(players)]
    return [table[(seat - rotation) % players] for seat in range(players)]


def play_game(
    rules: OtiRules, seed: int, index: int, specs: Sequence[BotSpec],
    bot_factory: Callable[..., Any] = bots.make_bot,
) -> GameResult:
    """Play game ``index`` of a run and return its result."""
    by_name = {spec.name: spec for spec in specs}
    names = seating([spec.name for spec in specs], rules.players, index)
    game = OtiGame(rules, deal_seed(seed, index // rules.players))
    game.history = None  # the arena reads no log: views stay small and fast
    players = []
    for seat, name in enumerate(names):
        spec = by_name[name]
        bot_seed = derive(seed, "arena-oti-bot", index, seat)
        players.append(bot_factory("oti", spec.level, seed=bot_seed, **spec.options))
    think: dict[str, list[float]] = {spec.name: [] for spec in specs}

    def turn(seat: int) -> None:
        view = game.view(seat)
        start = time.perf_counter()
        action = players[seat].act(view)
        think[names[seat]].append(time.perf_counter() - start)
        game.apply(action, seat=seat)

    for seat in range(rules.players):
        while game.phase == "swap" and not game.ready[seat]:
            turn(seat)
    while not game.is_over:
        turn(game.to_move)
    assert game.winner is not None and game.end_reason is not None
    return GameResult(index, names, names[game.winner], game.end_reason, len(game.actions), think)


def summarise(specs: Sequence[BotSpec], players: int, results: Sequence[GameResult]) -> dict[str, Any]:
    """The report of a run (the ``--json`` object plus counts)."""
    ordered = sorted(results, key=lambda r: r.index)
    n = len(ordered)
    names = [spec.name for spec in specs]
    wins = {name: sum(r.winner == name for r in ordered) for name in names}
    seats = {name: sum(r.seating.count(name) for r in ordered) for name in names}
    times: dict[str, list[float]] = {name: [] for name in names}
    reasons: dict[str, int] = {}
    for r in ordered:
        for name, values in r.think.items():
            times[name].extend(values)
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
    return {
        "bots": names,
        "games": n,
        "players": players,
        "win_rate": {name: _rate(wins[name], n) for name in names},
        "think_ms": {name: median_max_ms(values) for name, values in times.items()},
        "seat_share": {name: seats[name] / (n * players) for name in names},
        "wins": wins,
        "decisions": {name: len(values) for name, values in times.items()},
        "end_reasons": reasons,
        "mean_actions": sum(r.actions for r in ordered) / n,
    }


def _rate(wins: int, games: int) -> dict[str, Any]:
    rate = wins / games
    low, high = wilson_ci95(wins, games)
    # rounding can put a bound a hair on the wrong side of 0 or 1 rates
    return {"rate": rate, "ci95": [min(low, rate), max(high, rate)]}


def _play_chunk(args: tuple[OtiRules, int, list[int], list[BotSpec]]) -> list[GameResult]:
    rules, seed, indices, specs = args
    return [play_game(rules, seed, i, specs) for i in indices]


def bot_specs(levels: Sequence[str], options: Mapping[str, Mapping[str, Any]] | None = None) -> list[BotSpec]:
    """Specs for ``levels``, the same level twice reported as ``medium`` and ``medium#2``."""
    options = options or {}
    specs, used = [], {}
    for level in levels:
        used[level] = used.get(level, 0) + 1
        name = level if used[level] == 1 else f"{level}#{used[level]}"
        specs.append(BotSpec(level, name, dict(options.get(level, {}))))
    return specs


def run_arena(
    levels: Sequence[str],
    games: int,
    players: int = 2,
    seed: int = 0,
    workers: int = 1,
    rules: OtiRules | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games between ``levels`` with seats rotated, and summarise.

    ``rules`` other than ``players`` come from ``rules`` (default: standard); ``options[level]``
    are keyword options for that level's bots (e.g. ``{"hard": {"time_budget": 0.2}}``);
    ``progress(k)`` is called as games finish with the number done so far.
    """
    base = (rules or OtiRules()).to_dict()
    rules = OtiRules.from_dict({**base, "players": players})
    if not 2 <= len(levels) <= players:
        raise ValueError(
            f"the arena seats 2 to {players} bots at a {players}-player table, not {len(levels)}"
        )
    for level in levels:
        if ("oti", level) not in bots.REGISTRY:
            raise ValueError(f"no Oti level {level!r}; levels: {', '.join(bots.available('oti'))}")
    if games < 1:
        raise ValueError("play at least one game")
    specs = bot_specs(levels, options)
    results: list[GameResult] = []
    if workers <= 1:
        for i in range(games):
            results.append(play_game(rules, seed, i, specs))
            if progress:
                progress(len(results))
    else:
        chunk = players
        tasks = [(rules, seed, list(range(i, min(i + chunk, games))), specs) for i in range(0, games, chunk)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for done in pool.map(_play_chunk, tasks):
                results.extend(done)
                if progress:
                    progress(len(results))
    return summarise(specs, players, results)


# ----------------------------------------------------------------------------- command line


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``bistrot arena oti``."""
    parser = subparsers.add_parser(
        "oti", help="Oti between computer players, seats rotated",
        description="Play games between bot levels, every deal with the seats rotated, then report "
        "each bot's win rate with a 95%% (Wilson) interval and think times.",
    )
    parser.add_argument("--bots", default="medium,easy", help="levels round the table, e.g. hard,medium")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--players", type=int, default=2, help="players at the table, 2 to 5 (default 2)")
    add_arena_arguments(
        parser,
        option_example="--option hard.time_budget=0.2 --option hard.iterations=50",
        rule_example="--rule ten_plays_again=on",
    )
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from bistrot.cli.options import parse_bot_options, parse_rule_options

    try:
        levels = [b.strip() for b in args.bots.split(",")]
        rules = OtiRules.from_dict({**parse_rule_options(args.rule), "players": args.players})
        options = parse_bot_options(args.option)
        for level, given in options.items():  # fail now, not in a worker
            bots.make_bot("oti", level, **given)
        if args.json:
            result = run_arena(levels, args.games, args.players, args.seed, args.workers, rules, options)
        else:
            result = _run_with_progress(levels, args, rules, options)
    except (ValueError, TypeError) as err:
        raise SystemExit(f"bistrot arena oti: {err}") from None
    if args.json:
        keys = ("bots", "games", "players", "win_rate", "think_ms", "seat_share", "end_reasons")
        print(json.dumps({k: result[k] for k in keys}))
    else:
        print_table(result)
    return 0


def _run_with_progress(levels: list[str], args: argparse.Namespace, rules: OtiRules,
                       options: dict[str, dict[str, Any]]) -> dict[str, Any]:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games"), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, transient=True, console=Console(file=sys.stderr)) as bar:
        task = bar.add_task(" vs ".join(levels), total=args.games)
        return run_arena(levels, args.games, args.players, args.seed, args.workers, rules, options,
                         progress=lambda done: bar.update(task, completed=done))


def print_table(result: Mapping[str, Any]) -> None:
    """The report as a rich table on standard output."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Oti, {result['players']} players: {', '.join(result['bots'])}, "
                        f"{result['games']} games, seats rotated")
    for column in ("bot", "win rate [95% CI]", "seat share", "think ms median / max", "decisions"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for name in result["bots"]:
        rate = result["win_rate"][name]
        low, high = rate["ci95"]
        ms = result["think_ms"][name]
        table.add_row(name, f"{rate['rate']:.1%}  [{low:.1%}, {high:.1%}]",
                      f"{result['seat_share'][name]:.1%}", f"{ms['median']:.2f} / {ms['max']:.1f}",
                      str(result["decisions"][name]))
    console = Console()
    console.print(table)
    reasons = ", ".join(f"{k}: {v}" for k, v in sorted(result["end_reasons"].items()))
    console.print(f"Games ended by: {reasons}; {result['mean_actions']:.0f} actions a game on average.")
