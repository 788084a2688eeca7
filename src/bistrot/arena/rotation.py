"""``bistrot arena GAME`` for games where each plays for themselves: computer players, seats rotated.

Works for any registered game (:mod:`bistrot.games`) whose engine follows the common contract:
``Game.new(rules, seed)``, ``to_move``, ``view(seat)``, ``apply(action, seat=)``, ``is_over``,
``winner`` (a seat, or None) and ``actions``; ``actors()`` (the seats that may act now, when
``to_move`` is None, e.g. everybody at once) and ``summary()["end_reason"]`` are read when there.

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

The number of players is the rules' ``players`` option when they have one (the smallest table by
default), else the rules' own.

>>> [spec.name for spec in bot_specs(["hard", "medium", "hard"])]
['hard', 'medium', 'hard#2']
>>> deal_seed("x", 0, 1) == deal_seed("x", 0, 1) < 2**55
True
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bistrot.arena.runner import Where, run_indexed
from bistrot.arena.stats import median_max_ms, wilson_ci95
from bistrot.cli.options import (
    add_arena_arguments,
    parse_bot_options,
    parse_rule_options,
    rule_examples,
    where_of,
)
from bistrot.dealcode import SEED_BITS
from bistrot.games import GameEntry
from bistrot.progress import progress_bar
from bistrot.ruleset import Option
from bistrot.seeding import derive

#: The end reason of games whose engine gives none.
OVER = "over"


@dataclass(frozen=True)
class BotSpec:
    """A bot level with its options, and the name it is reported under."""

    level: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class GameResult:
    """One game: who sat where, who won (None: nobody), how it ended, think times per bot name (s)."""

    index: int
    seating: list[str]
    winner: str | None
    end_reason: str
    actions: int
    think: dict[str, list[float]] = field(default_factory=dict)


def deal_seed(game: str, seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of a run of ``game`` seeded with ``seed`` (a deal code's range)."""
    return derive(seed, f"arena-{game}", deal) % (1 << SEED_BITS)


def bot_seed(game: str, seed: int, index: int, seat: int) -> int:
    """The seed of the bot in ``seat`` in game ``index`` of a run."""
    return derive(seed, f"arena-{game}-bot", index, seat)


def seating(names: Sequence[str], players: int, game: int) -> list[str]:
    """The bot name in each seat of game ``game``.

    >>> [seating(["a", "b"], 3, g) for g in range(6)]
    [['a', 'b', 'a'], ['a', 'a', 'b'], ['b', 'a', 'a'], ['b', 'a', 'b'], ['b', 'b', 'a'], ['a', 'b', 'b']]
    """
    deal, rotation = divmod(game, players)
    shift = deal % len(names)
    table = [names[(j + shift) % len(names)] for j in range(players)]
    return [table[(seat - rotation) % players] for seat in range(players)]


def seat_to_act(game: Any, players: int) -> int:
    """The seat whose turn it is: ``to_move``, else the lowest of those who may act now."""
    seat = game.to_move
    if seat is not None:
        return int(seat)
    seats = game.actors()
    if not seats:
        raise RuntimeError("nobody may act, yet the game is not over")
    return int(min(seats))


def end_reason(game: Any) -> str:
    """How a finished game ended: its summary's ``end_reason``, else :data:`OVER`."""
    reason = game.summary().get("end_reason")
    return OVER if reason is None else str(reason)


def play_game(
    entry: GameEntry, rules: Any, seed: int, index: int, specs: Sequence[BotSpec],
    bot_factory: Callable[..., Any] | None = None,
) -> GameResult:
    """Play game ``index`` of a run and return its result."""
    by_name = {spec.name: spec for spec in specs}
    players = entry.players(rules)
    names = seating([spec.name for spec in specs], players, index)
    game = entry.game_class().new(rules, deal_seed(entry.name, seed, index // players))
    seated = []
    for seat, name in enumerate(names):
        spec = by_name[name]
        bot_seed_ = bot_seed(entry.name, seed, index, seat)
        if bot_factory is None:  # from the entry itself: a worker process need not know the game
            seated.append(entry.bot_class(spec.level)(seed=bot_seed_, **spec.options))
        else:
            seated.append(bot_factory(entry.name, spec.level, seed=bot_seed_, **spec.options))
    think: dict[str, list[float]] = {spec.name: [] for spec in specs}
    while not game.is_over:
        seat = seat_to_act(game, players)
        view = game.view(seat)
        start = time.perf_counter()
        action = seated[seat].act(view)
        think[names[seat]].append(time.perf_counter() - start)
        game.apply(action, seat=seat)
    winner = None if game.winner is None else names[game.winner]
    return GameResult(index, names, winner, end_reason(game), len(game.actions), think)


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
        "draws": sum(r.winner is None for r in ordered),
        "decisions": {name: len(values) for name, values in times.items()},
        "end_reasons": reasons,
        "mean_actions": sum(r.actions for r in ordered) / n,
    }


def _rate(wins: int, games: int) -> dict[str, Any]:
    rate = wins / games
    low, high = wilson_ci95(wins, games)
    # rounding can put a bound a hair on the wrong side of 0 or 1 rates
    return {"rate": rate, "ci95": [min(low, rate), max(high, rate)]}


def _play_chunk(entry: GameEntry, rules: Any, seed: int, specs: list[BotSpec],
                indices: list[int]) -> list[GameResult]:
    return [play_game(entry, rules, seed, i, specs) for i in indices]


def bot_specs(levels: Sequence[str], options: Mapping[str, Mapping[str, Any]] | None = None) -> list[BotSpec]:
    """Specs for ``levels``, the same level twice reported as ``medium`` and ``medium#2``."""
    options = options or {}
    specs: list[BotSpec] = []
    used: dict[str, int] = {}
    for level in levels:
        used[level] = used.get(level, 0) + 1
        name = level if used[level] == 1 else f"{level}#{used[level]}"
        specs.append(BotSpec(level, name, dict(options.get(level, {}))))
    return specs


def players_option(entry: GameEntry) -> Option | None:
    """The rules' ``players`` option, if the number of players is one."""
    return next((o for o in entry.rules_class().options() if o.name == "players"), None)


def default_players(entry: GameEntry) -> int | None:
    """The arena's table size when none is given: the smallest the rules allow (None: no choice)."""
    option = players_option(entry)
    if option is None:
        return None
    return int(option.min if option.min is not None else option.default)


def table_rules(entry: GameEntry, rules: Any = None, players: int | None = None) -> Any:
    """``rules`` (default: the standard ones) with ``players`` seats, when the rules have that option."""
    base = (rules if rules is not None else entry.rules_class()()).to_dict()
    if players is None:
        players = default_players(entry)
    if players is None:
        return entry.rules_from_dict(base)
    if players_option(entry) is None:
        raise ValueError(f"{entry.title} has no players option: the table is the rules' own")
    return entry.rules_from_dict({**base, "players": players})


def run_arena(
    entry: GameEntry,
    levels: Sequence[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    workers: int = 1,
    rules: Any = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    progress: Callable[[int], None] | None = None,
    where: Where | None = None,
) -> dict[str, Any]:
    """Play ``games`` games of ``entry``'s game between ``levels`` with seats rotated, and summarise.

    ``rules`` other than ``players`` come from ``rules`` (default: standard); ``options[level]``
    are keyword options for that level's bots (e.g. ``{"hard": {"time_budget": 0.2}}``);
    ``progress(k)`` is called as games finish with the number done so far; ``where`` plays them
    elsewhere than ``workers`` local processes (Ray, a checkpoint:
    :class:`~bistrot.arena.runner.Where`), with the same results.
    """
    rules = table_rules(entry, rules, players)
    seats = entry.players(rules)
    if not 2 <= len(levels) <= seats:
        raise ValueError(f"the arena seats 2 to {seats} bots at a {seats}-player table, not {len(levels)}")
    for level in levels:
        entry.require_arena_level(level)
    if games < 1:
        raise ValueError("play at least one game")
    specs = bot_specs(levels, options)
    where = where or Where(workers)
    chunk = 1 if where.workers <= 1 and where.ray is None else seats
    key = repr(("rotation", entry.name, rules.to_dict(), seed, games, specs))
    results = run_indexed(partial(_play_chunk, entry, rules, seed, specs), games, chunk, where, key, progress)
    return summarise(specs, seats, results)


# ----------------------------------------------------------------------------- command line

#: The ``--json`` report's keys.
JSON_KEYS = ("bots", "games", "players", "win_rate", "think_ms", "seat_share", "end_reasons")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], entry: GameEntry) -> None:
    """Add ``bistrot arena <entry.name>``."""
    parser = subparsers.add_parser(
        entry.name, help=f"{entry.title} between computer players, seats rotated",
        description="Play games between bot levels, every deal with the seats rotated, then report "
        "each bot's win rate with a 95% (Wilson) interval and think times.",
    )
    levels = entry.levels
    pair = ",".join(reversed(levels[:2])) if len(levels) > 1 else ",".join(levels * 2)
    example = ",".join(levels[::-1][:2])
    parser.add_argument("--bots", default=pair, help=f"levels round the table, e.g. {example}")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    option = players_option(entry)
    if option is not None:
        default = default_players(entry)
        parser.add_argument("--players", type=int, default=default,
                            help=f"players at the table, {option.min} to {option.max} (default {default})")
    add_arena_arguments(
        parser,
        option_example=_bot_option_example(entry),
        rule_example=rule_examples(entry.rules_class().options(), skip=("players",), count=1),
    )
    parser.set_defaults(run=partial(_run, entry))


def _bot_option_example(entry: GameEntry) -> str:
    for level, given in entry.browser_bot_options.items():
        for name, value in given.items():
            return f"--option {level}.{name}={value}"
    return f"--option {entry.levels[-1] if entry.levels else 'LEVEL'}.NAME=VALUE"


def _run(entry: GameEntry, args: argparse.Namespace) -> int:
    players: int | None = getattr(args, "players", None)
    try:
        levels = [b.strip() for b in args.bots.split(",")]
        rules = table_rules(entry, entry.rules_from_dict(parse_rule_options(args.rule, entry.rules_class())),
                            players)
        options = parse_bot_options(args.option)
        for level, given in options.items():  # fail now, not in a worker
            entry.bot_class(level)(**given)
        run_and_report(entry, levels, args.games, rules, options, args.seed, args.workers, args.json,
                       where=where_of(args))
    except (ValueError, TypeError) as err:
        raise SystemExit(f"bistrot arena {entry.name}: {err}") from None
    return 0


def run_and_report(entry: GameEntry, levels: Sequence[str], games: int, rules: Any,
                   options: Mapping[str, Mapping[str, Any]], seed: int = 0, workers: int = 1,
                   as_json: bool = False, unit: str = "games", where: Where | None = None) -> None:
    """Play a run at ``rules``' table and print its report: one JSON object (``as_json``), or a
    table; progress on standard error meanwhile; ``unit`` names what a game of the run is."""
    players = entry.players(rules)
    with progress_bar(" vs ".join(levels), games, unit) as progress:
        result = run_arena(entry, levels, games, players, seed, workers, rules, options, progress=progress,
                           where=where)
    if as_json:
        print(json.dumps({k: result[k] for k in JSON_KEYS}))
    else:
        print_table(result, entry.title, unit)


def print_table(result: Mapping[str, Any], title: str, unit: str = "games") -> None:
    """The report as a rich table on standard output; ``title`` names the game, ``unit`` what a
    game of the run is (Omi's are whole ``matches``)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{title}, {result['players']} players: {', '.join(result['bots'])}, "
                        f"{result['games']} {unit}, seats rotated")
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
    draws = f" {result['draws']} won by nobody;" if result.get("draws") else ""
    mean = result["mean_actions"]
    console.print(f"Games ended by: {reasons};{draws} {mean:.0f} actions a game on average.")
