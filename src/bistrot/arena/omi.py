"""``bistrot arena omi``: duplicate Omi between two computer players.

Deal ``i`` of a run comes from the run's seed; its first dealer is seat ``(3 + i) % 4``, so the
trump chooser turns round the table from deal to deal as in a real match.  Every deal is played
twice as one fresh hand (no tokens, no carry): once with the first bot in seats 0 and 2
(**seating A**) and once with it in seats 1 and 3 (**seating B**).  The same cards meet the same
seats both times, so the luck of the deal cancels.

* **Token difference of a deal**: tokens won by the first bot's side minus tokens won by the
  second's, summed over both plays (a 4 : 4 tie counts 0).  The report gives its mean and a 95%
  confidence interval over the deals.
* **Match win rate**: the hands of each seating, in deal order, are chained into matches to the
  target (10 tokens by default) with the real scoring: a tie carries 1 token to the next decided
  hand, a ``wins_match`` kapothi ends the match at once, and a match ends when a side reaches the
  target; the next match starts with the next deal.  Matches still open after the last deal are
  dropped.  The rate is the share of finished matches, over both seatings, won by the first bot.
* **Think time**: wall time of each ``act`` call, per bot, in milliseconds.

>>> result = run_arena(["medium", "easy"], deals=4, seed=7)
>>> result["bots"], result["deals"], len(result["per_deal"])
(['medium', 'easy'], 4, 4)
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bistrot import bots
from bistrot.arena.progress import progress_bar
from bistrot.arena.stats import mean_ci95, median_max_ms, wilson_ci95
from bistrot.cli.options import add_arena_arguments, parse_bot_options, parse_rule_options
from bistrot.games import GameEntry
from bistrot.omi import OmiGame, OmiRules
from bistrot.seeding import derive

SEATINGS = 2  # A: first bot in seats 0 and 2; B: first bot in seats 1 and 3.


@dataclass(frozen=True)
class HandResult:
    """One play of a deal, from the first bot's point of view.

    ``first`` are the tokens the first bot's side won, ``second`` the other side's (one of them
    is 0); ``tie`` is a 4 : 4; ``match_over`` is a ``wins_match`` kapothi.
    """

    first: int
    second: int
    tie: bool = False
    match_over: bool = False


@dataclass
class DealResult:
    """Both plays of one deal and the think times of each bot (seconds)."""

    index: int
    plays: tuple[HandResult, HandResult]
    think: dict[str, list[float]] = field(default_factory=dict)

    @property
    def token_diff(self) -> int:
        """First bot's tokens minus the second's, over both plays."""
        return sum(p.first - p.second for p in self.plays)


@dataclass(frozen=True)
class BotSpec:
    """A bot level with its options, and the name it is reported under."""

    level: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a run seeded with ``seed``."""
    return derive(seed, "arena-omi", index)


def play_hand(
    rules: OmiRules, seed: int, index: int, seating: int, specs: Sequence[BotSpec],
    bot_factory: Callable[..., Any] = bots.make_bot,
) -> tuple[HandResult, dict[str, list[float]]]:
    """Play deal ``index`` once in ``seating`` (0 = A, 1 = B) and return its result and times."""
    n = rules.players
    game = OmiGame(rules, deal_seed(seed, index), first_dealer=(n - 1 + index) % n)
    first_side = seating
    players: dict[int, tuple[str, Any]] = {}
    for seat in range(n):
        spec = specs[0] if rules.side_of(seat) == first_side else specs[1]
        players[seat] = (spec.name, bot_factory(
            "omi", spec.level, seed=derive(seed, "arena-bot", index, seating, seat), **spec.options))
    think: dict[str, list[float]] = {spec.name: [] for spec in specs}
    while not game.results:
        mover = game.to_move
        assert mover is not None  # a hand is played in turn until its result
        seat = mover
        name, bot = players[seat]
        view = game.view(seat)
        start = time.perf_counter()
        action = bot.act(view)
        think[name].append(time.perf_counter() - start)
        game.apply(action, seat=seat)
    result = game.results[0]
    side, tokens = result["side"], result["tokens"]
    wins_match = bool(result["kapothi"]) and rules.kapothi == "wins_match"
    if side is None:
        return HandResult(0, 0, tie=True), think
    first = tokens if side == first_side else 0
    second = tokens if side != first_side else 0
    return HandResult(first, second, match_over=wins_match), think


def play_deal(
    rules: OmiRules, seed: int, index: int, specs: Sequence[BotSpec],
    bot_factory: Callable[..., Any] = bots.make_bot,
) -> DealResult:
    """Play deal ``index`` in both seatings."""
    plays = []
    think: dict[str, list[float]] = {spec.name: [] for spec in specs}
    for seating in range(SEATINGS):
        hand, times = play_hand(rules, seed, index, seating, specs, bot_factory)
        plays.append(hand)
        for name, values in times.items():
            think[name].extend(values)
    return DealResult(index, (plays[0], plays[1]), think)


def chain_matches(hands: Iterable[HandResult], target: int) -> list[bool]:
    """Chain hands into matches to ``target``: for each finished match, whether the first bot won.

    >>> h = HandResult
    >>> chain_matches([h(2, 0), h(0, 0, tie=True), h(1, 0), h(0, 3), h(0, 2)], target=4)
    [True, False]
    >>> chain_matches([h(0, 0, tie=True), h(0, 0, tie=True), h(0, 2), h(1, 0)], target=4)
    [False]
    """
    won: list[bool] = []
    first = second = carry = 0
    for hand in hands:
        if hand.tie:
            carry += 1
            continue
        if hand.first:
            first += hand.first + carry
        else:
            second += hand.second + carry
        carry = 0
        if hand.match_over or first >= target or second >= target:
            won.append(first > second if not hand.match_over else hand.first > 0)
            first = second = carry = 0
    return won


def summarise(specs: Sequence[BotSpec], results: Sequence[DealResult], target: int) -> dict[str, Any]:
    """The report of a run (the ``--json`` object plus ``per_deal`` and match counts)."""
    ordered = sorted(results, key=lambda r: r.index)
    diffs = [r.token_diff for r in ordered]
    summary = mean_ci95(diffs)
    matches: list[bool] = []
    for seating in range(SEATINGS):
        matches.extend(chain_matches((r.plays[seating] for r in ordered), target))
    wins = sum(matches)
    rate = wins / len(matches) if matches else None
    times: dict[str, list[float]] = {spec.name: [] for spec in specs}
    for r in ordered:
        for name, values in r.think.items():
            times[name].extend(values)
    return {
        "bots": [spec.name for spec in specs],
        "deals": len(ordered),
        "token_diff": {"mean": summary.mean, "ci95": list(summary.ci95)},
        "match_win_rate": rate,
        "matches": len(matches),
        "match_win_ci95": list(wilson_ci95(wins, len(matches))) if matches else None,
        "think_ms": {name: median_max_ms(values) for name, values in times.items()},
        "decisions": {name: len(values) for name, values in times.items()},
        "per_deal": diffs,
    }


def _play_chunk(args: tuple[OmiRules, int, list[int], list[BotSpec]]) -> list[DealResult]:
    rules, seed, indices, specs = args
    return [play_deal(rules, seed, i, specs) for i in indices]


def run_arena(
    levels: Sequence[str],
    deals: int,
    seed: int = 0,
    workers: int = 1,
    rules: OmiRules | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals between ``levels[0]`` and ``levels[1]`` and summarise.

    ``options[level]`` are keyword options for that level's bots (e.g. ``{"hard": {"budget":
    0.2}}``); ``progress(k)`` is called as each deal finishes with the number done so far.
    """
    rules = rules or OmiRules()
    if rules.players != 4:
        raise ValueError("the duplicate arena plays 4-player Omi (two partnerships)")
    if len(levels) != 2:
        raise ValueError(f"the arena plays two bots against each other, not {len(levels)}")
    if deals < 1:
        raise ValueError("play at least one deal")
    options = options or {}
    names = list(levels) if levels[0] != levels[1] else [levels[0], levels[1] + "#2"]
    specs = [BotSpec(level, name, dict(options.get(level, {})))
             for level, name in zip(levels, names, strict=True)]
    results: list[DealResult] = []
    if workers <= 1:
        for i in range(deals):
            results.append(play_deal(rules, seed, i, specs))
            if progress:
                progress(len(results))
    else:
        chunk = 2
        tasks = [(rules, seed, list(range(i, min(i + chunk, deals))), specs) for i in range(0, deals, chunk)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for done in pool.map(_play_chunk, tasks):
                results.extend(done)
                if progress:
                    progress(len(results))
    return summarise(specs, results, rules.target)


# ----------------------------------------------------------------------------- command line


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], entry: GameEntry) -> None:
    """Add ``bistrot arena <entry.name>`` (``omi``)."""
    parser = subparsers.add_parser(
        entry.name, help=f"duplicate {entry.title} between two bot levels",
        description="Play each deal twice with the seats swapped, then report the token "
        "difference, the match win rate and think times of the first bot against the second.",
    )
    parser.add_argument("--bots", default="medium,easy", help="two levels, e.g. hard,medium")
    parser.add_argument("--deals", type=int, default=100, help="number of deals (each played twice)")
    parser.add_argument("--target", type=int, default=10, help="tokens of a match (default 10)")
    add_arena_arguments(
        parser,
        option_example="--option hard.budget=0.2 --option hard.samples=40",
        rule_example="--rule kapothi=announced",
    )
    parser.set_defaults(run=partial(_run, entry))


def _run(entry: GameEntry, args: argparse.Namespace) -> int:
    try:
        levels = [b.strip() for b in args.bots.split(",")]
        for level in levels:
            if level not in entry.levels:
                raise ValueError(f"no {entry.title} level {level!r}; levels: {', '.join(entry.levels)}")
        rules = OmiRules.from_dict({"target": args.target, **parse_rule_options(args.rule, OmiRules)})
        options = parse_bot_options(args.option)
        if args.json:
            result = run_arena(levels, args.deals, args.seed, args.workers, rules, options)
        else:
            result = _run_with_progress(levels, args, rules, options)
    except ValueError as err:
        raise SystemExit(f"bistrot arena {entry.name}: {err}") from None
    if args.json:
        report = {k: result[k] for k in ("bots", "deals", "token_diff", "match_win_rate", "think_ms")}
        report["matches"] = result["matches"]
        print(json.dumps(report))
    else:
        print_table(result)
    return 0


def _run_with_progress(levels: list[str], args: argparse.Namespace, rules: OmiRules,
                       options: dict[str, dict[str, Any]]) -> dict[str, Any]:
    with progress_bar(f"{levels[0]} vs {levels[1]}", args.deals, "deals") as progress:
        return run_arena(levels, args.deals, args.seed, args.workers, rules, options, progress=progress)


def print_table(result: Mapping[str, Any]) -> None:
    """The report as a rich table on standard output."""
    from rich.console import Console
    from rich.table import Table

    first, second = result["bots"]
    diff = result["token_diff"]
    table = Table(title=f"Omi duplicate: {first} vs {second}, {result['deals']} deals × 2")
    table.add_column("measure")
    table.add_column("value", justify="right")
    low, high = diff["ci95"]
    table.add_row(f"token difference per deal ({first})", f"{diff['mean']:+.3f}  [{low:+.3f}, {high:+.3f}]")
    rate = result["match_win_rate"]
    if rate is None:
        table.add_row("match win rate", "no match finished")
    else:
        lo, hi = result["match_win_ci95"]
        table.add_row(f"match win rate ({first}, {result['matches']} matches)",
                      f"{rate:.1%}  [{lo:.1%}, {hi:.1%}]")
    for name, ms in result["think_ms"].items():
        table.add_row(f"think ms {name} (median / max, {result['decisions'][name]} decisions)",
                      f"{ms['median']:.2f} / {ms['max']:.1f}")
    Console().print(table)
