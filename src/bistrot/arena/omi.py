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
* **Double-dummy loss** (``dd``; by default where DDS is installed, :func:`measure_dd_by_default`):
  each bot's mean tricks lost per card chosen among two or more legal cards, against the best
  card with every hand open (:func:`bistrot.analysis.omi.judge_dd`), and per trump choice
  (:func:`trump_tricks`: the chooser's side's tricks, double dummy with the chooser leading, of
  the best suit minus those of the chosen suit, on the whole deal as dealt).

With ``run_matches`` each **match** of a run is played whole, twice (seatings A and B, the same
deals since the engine deals them from the match's seed): score, carry and kapothi are live and
the bots see them.  It reports the matches each bot won, tokens per deal and the same
double-dummy losses.

With three players (``--players 3``) each plays for themselves: the arena plays whole matches
with the seats rotated, as for Oti (:mod:`bistrot.arena.rotation`), and reports each bot's share
of matches won.

>>> result = run_arena(["medium", "easy"], deals=4, seed=7, dd=True)
>>> result["bots"], result["deals"], len(result["per_deal"])
(['medium', 'easy'], 4, 4)
>>> sorted(result["dd_cards"]) == ["easy", "medium"] and result["dd_trumps"]["medium"] == 4
True
>>> match = run_matches(["medium", "easy"], matches=1, seed=7, rules=OmiRules(target=3), dd=False)
>>> match["matches"], sum(match["match_wins"].values())
(2, 2)
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bistrot import bots
from bistrot.analysis.omi import judge_dd, side_tricks
from bistrot.arena import rotation
from bistrot.arena.runner import Where, run_indexed
from bistrot.arena.stats import mean_ci95, median_max_ms, ratio_ci95, wilson_ci95
from bistrot.cli.options import add_arena_arguments, parse_bot_options, parse_rule_options, where_of
from bistrot.games import GameEntry
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd import Position, available_solvers
from bistrot.progress import progress_bar
from bistrot.seeding import derive

SEATINGS = 2  # A: first bot in seats 0 and 2; B: first bot in seats 1 and 3.
#: The solver of the double-dummy measures: DDS where installed, else the built-in one.
DD_SOLVER = "auto"


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
class Tally:
    """What each bot (by name) did in some plays: think times (s), and the tricks lost double
    dummy by each card chosen among two or more legal cards and by each trump choice."""

    think: dict[str, list[float]] = field(default_factory=dict)
    dd_cards: dict[str, list[int]] = field(default_factory=dict)
    dd_trumps: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, names: Iterable[str]) -> Tally:
        """An empty tally for the bots ``names``."""
        names = list(names)
        return cls({n: [] for n in names}, {n: [] for n in names}, {n: [] for n in names})

    def add(self, other: Tally) -> None:
        """Add ``other``'s values to this tally's."""
        for name, times in other.think.items():
            self.think.setdefault(name, []).extend(times)
        for mine, theirs in ((self.dd_cards, other.dd_cards), (self.dd_trumps, other.dd_trumps)):
            for name, losses in theirs.items():
                mine.setdefault(name, []).extend(losses)


@dataclass
class DealResult:
    """Both plays of one deal and the think times of each bot (seconds); ``dd_cards`` and
    ``dd_trumps`` the bots' double-dummy losses (see :class:`Tally`), empty when not measured."""

    index: int
    plays: tuple[HandResult, HandResult]
    think: dict[str, list[float]] = field(default_factory=dict)
    dd_cards: dict[str, list[int]] = field(default_factory=dict)
    dd_trumps: dict[str, list[int]] = field(default_factory=dict)

    @property
    def token_diff(self) -> int:
        """First bot's tokens minus the second's, over both plays."""
        return sum(p.first - p.second for p in self.plays)


@dataclass(frozen=True)
class MatchPlay:
    """One play of a whole match, from the first bot's point of view: the tokens of each side at
    the end, the deals (hands) played, whether the first bot's side won."""

    first: int
    second: int
    deals: int
    first_won: bool


@dataclass
class MatchResult:
    """Both plays of one match (seatings A and B) and the bots' tally."""

    index: int
    plays: tuple[MatchPlay, MatchPlay]
    tally: Tally

    @property
    def token_diff(self) -> int:
        """First bot's tokens minus the second's, over both plays."""
        return sum(p.first - p.second for p in self.plays)

    @property
    def deals(self) -> int:
        """Deals played, over both plays."""
        return sum(p.deals for p in self.plays)


@dataclass(frozen=True)
class BotSpec:
    """A bot level with its options, and the name it is reported under."""

    level: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)


def measure_dd_by_default() -> bool:
    """Whether runs measure the double-dummy losses unless told: where DDS is installed, which
    judges a hand in about 10 ms; the built-in solver takes about 0.5 s a hand, as long as the
    hard bot's own play."""
    return "dds" in available_solvers()


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a run seeded with ``seed``."""
    return derive(seed, "arena-omi", index)


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a ``--matches`` run (the engine deals each hand from it)."""
    return derive(seed, "arena-omi-match", index)


def trump_tricks(game: OmiGame, solver: str = DD_SOLVER) -> dict[str, int]:
    """At a trump choice: for each suit, the tricks the chooser's side takes with that suit as
    trump, all eight cards of every hand open, the chooser leading, best play by all.

    One double-dummy solve per suit.  A suit that would make the engine deal again
    (``redeal_few_trumps``) is left out: no hand is played with it on this deal.  This sees
    every hand: for measures, never for a bot.

    >>> game = OmiGame.from_deal(OmiRules(), ["AS KS QS JS TS 9S 8S 7S".split(),
    ...     "AH KH QH JH TH 9H 8H 7H".split(), "AD KD QD JD TD 9D 8D 7D".split(),
    ...     "AC KC QC JC TC 9C 8C 7C".split()])
    >>> trump_tricks(game)   # the opponents ruff the first spade with hearts or clubs
    {'trump S': 8, 'trump H': 0, 'trump D': 8, 'trump C': 0}
    """
    values = {}
    for action in game.legal_actions():
        trial = game.copy()
        trial.apply(action)
        if trial.phase == "play":
            values[action] = side_tricks(Position.from_game(trial), solver)
    return values


def play_out(
    game: OmiGame, players: Mapping[int, tuple[str, Any]], done: Callable[[OmiGame], bool],
    dd: bool = True,
) -> Tally:
    """Let ``players[seat] = (name, bot)`` play ``game`` until ``done(game)``; the bots' tally.

    With ``dd`` each card chosen among two or more legal cards and each trump choice that is
    played (not dealt again) is judged double dummy, outside the think time.
    """
    tally = Tally.of(name for name, _ in players.values())
    while not done(game):
        seat = game.to_move
        assert seat is not None  # a match is played in turn until it is over
        name, bot = players[seat]
        view = game.view(seat)
        start = time.perf_counter()
        action = bot.act(view)
        tally.think[name].append(time.perf_counter() - start)
        suits = trump_tricks(game) if dd and game.phase == "trump" else None
        if dd and action.startswith("play ") and game.legal_cards().bit_count() >= 2:
            tally.dd_cards[name].append(judge_dd(Position.from_game(game), action, DD_SOLVER)[2])
        game.apply(action, seat=seat)
        if suits and action in suits:  # else the deal is dealt again: no hand with this trump
            tally.dd_trumps[name].append(max(suits.values()) - suits[action])
    return tally


def seat_players(
    rules: OmiRules, specs: Sequence[BotSpec], seating: int, seed_labels: Sequence[object], seed: int,
    bot_factory: Callable[..., Any] = bots.make_bot,
) -> dict[int, tuple[str, Any]]:
    """The named bots of each seat in ``seating`` (0 = A: the first bot in seats 0 and 2), each
    seeded from ``seed``, ``seed_labels`` and its seat."""
    players: dict[int, tuple[str, Any]] = {}
    for seat in range(rules.players):
        spec = specs[0] if rules.side_of(seat) == seating else specs[1]
        players[seat] = (spec.name, bot_factory(
            "omi", spec.level, seed=derive(seed, *seed_labels, seating, seat), **spec.options))
    return players


def play_hand(
    rules: OmiRules, seed: int, index: int, seating: int, specs: Sequence[BotSpec],
    bot_factory: Callable[..., Any] = bots.make_bot, dd: bool = False,
) -> tuple[HandResult, Tally]:
    """Play deal ``index`` once in ``seating`` (0 = A, 1 = B) and return its result and tally."""
    n = rules.players
    game = OmiGame(rules, deal_seed(seed, index), first_dealer=(n - 1 + index) % n)
    first_side = seating
    players = seat_players(rules, specs, seating, ("arena-bot", index), seed, bot_factory)
    tally = play_out(game, players, lambda g: bool(g.results), dd)
    result = game.results[0]
    side, tokens = result["side"], result["tokens"]
    wins_match = bool(result["kapothi"]) and rules.kapothi == "wins_match"
    if side is None:
        return HandResult(0, 0, tie=True), tally
    first = tokens if side == first_side else 0
    second = tokens if side != first_side else 0
    return HandResult(first, second, match_over=wins_match), tally


def play_deal(
    rules: OmiRules, seed: int, index: int, specs: Sequence[BotSpec],
    bot_factory: Callable[..., Any] = bots.make_bot, dd: bool = False,
) -> DealResult:
    """Play deal ``index`` in both seatings."""
    plays = []
    tally = Tally.of(spec.name for spec in specs)
    for seating in range(SEATINGS):
        hand, more = play_hand(rules, seed, index, seating, specs, bot_factory, dd)
        plays.append(hand)
        tally.add(more)
    return DealResult(index, (plays[0], plays[1]), tally.think, tally.dd_cards, tally.dd_trumps)


def play_match(
    rules: OmiRules, seed: int, index: int, specs: Sequence[BotSpec],
    bot_factory: Callable[..., Any] = bots.make_bot, dd: bool = False,
) -> MatchResult:
    """Play match ``index`` whole in both seatings: the same deals (from :func:`match_seed`), the
    first dealer turning round the table from match to match."""
    n = rules.players
    plays = []
    tally = Tally.of(spec.name for spec in specs)
    for seating in range(SEATINGS):
        game = OmiGame(rules, match_seed(seed, index), first_dealer=(n - 1 + index) % n)
        players = seat_players(rules, specs, seating, ("arena-match-bot", index), seed, bot_factory)
        tally.add(play_out(game, players, lambda g: g.is_over, dd))
        plays.append(MatchPlay(game.tokens[seating], game.tokens[1 - seating], len(game.results),
                               game.winner == seating))
    return MatchResult(index, (plays[0], plays[1]), tally)


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


def dd_report(names: Sequence[str], tally: Tally) -> dict[str, Any]:
    """The double-dummy part of a report: each bot's mean loss per card and per trump choice
    (None when it made no such decision, or nothing was measured) and the counts.

    >>> dd_report(["a", "b"], Tally({}, {"a": [0, 1, 0, 3]}, {"a": [2], "b": []}))["dd_loss"]
    {'a': 1.0, 'b': None}
    """
    report: dict[str, Any] = {}
    for key, count, losses in (("dd_loss", "dd_cards", tally.dd_cards),
                               ("trump_dd_loss", "dd_trumps", tally.dd_trumps)):
        values = {name: losses.get(name, []) for name in names}
        report[key] = {name: sum(v) / len(v) if v else None for name, v in values.items()}
        report[count] = {name: len(v) for name, v in values.items()}
    return report


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
    names = [spec.name for spec in specs]
    tally = Tally.of(names)
    for r in ordered:
        tally.add(Tally(r.think, r.dd_cards, r.dd_trumps))
    return {
        "mode": "deals",
        "bots": names,
        "deals": len(ordered),
        "token_diff": {"mean": summary.mean, "ci95": list(summary.ci95)},
        "match_win_rate": rate,
        "matches": len(matches),
        "match_win_ci95": list(wilson_ci95(wins, len(matches))) if matches else None,
        "think_ms": {name: median_max_ms(values) for name, values in tally.think.items()},
        "decisions": {name: len(values) for name, values in tally.think.items()},
        **dd_report(names, tally),
        "per_deal": diffs,
    }


def summarise_matches(specs: Sequence[BotSpec], results: Sequence[MatchResult]) -> dict[str, Any]:
    """The report of a ``--matches`` run: matches won by each bot (and the first bot's rate with
    its Wilson interval), tokens per deal played, the first bot's token difference per deal (as
    in :func:`summarise`, both plays' sum: a match pair's difference over half its deals, a
    ratio over the match pairs with its interval), think times and double-dummy losses."""
    ordered = sorted(results, key=lambda r: r.index)
    first, second = names = [spec.name for spec in specs]
    plays = [play for r in ordered for play in r.plays]
    wins = sum(p.first_won for p in plays)
    deals = sum(p.deals for p in plays)
    diff = ratio_ci95([r.token_diff for r in ordered], [r.deals / SEATINGS for r in ordered])
    tally = Tally.of(names)
    for r in ordered:
        tally.add(r.tally)
    return {
        "mode": "matches",
        "bots": names,
        "matches": len(plays),
        "deals": deals,
        "deals_per_match": deals / len(plays),
        "match_wins": {first: wins, second: len(plays) - wins},
        "match_win_rate": wins / len(plays),
        "match_win_ci95": list(wilson_ci95(wins, len(plays))),
        "tokens_per_deal": {first: sum(p.first for p in plays) / deals,
                            second: sum(p.second for p in plays) / deals},
        "token_diff": {"mean": diff.mean, "ci95": list(diff.ci95)},
        "think_ms": {name: median_max_ms(values) for name, values in tally.think.items()},
        "decisions": {name: len(values) for name, values in tally.think.items()},
        **dd_report(names, tally),
        "per_match": [[r.token_diff, r.deals] for r in ordered],
    }


def _play_chunk(mode: str, rules: OmiRules, seed: int, specs: list[BotSpec], dd: bool,
                indices: list[int]) -> list[Any]:
    play = play_match if mode == "matches" else play_deal
    return [play(rules, seed, i, specs, dd=dd) for i in indices]


def _specs(levels: Sequence[str], rules: OmiRules, count: int, what: str,
           options: Mapping[str, Mapping[str, Any]] | None) -> list[BotSpec]:
    if rules.players != 4:
        raise ValueError("the duplicate arena plays 4-player Omi (two partnerships)")
    if len(levels) != 2:
        raise ValueError(f"the arena plays two bots against each other, not {len(levels)}")
    if count < 1:
        raise ValueError(f"play at least one {what}")
    options = options or {}
    names = list(levels) if levels[0] != levels[1] else [levels[0], levels[1] + "#2"]
    return [BotSpec(level, name, dict(options.get(level, {})))
            for level, name in zip(levels, names, strict=True)]


def _play_all(mode: str, rules: OmiRules, seed: int, count: int, specs: list[BotSpec], dd: bool,
              where: Where, progress: Callable[[int], None] | None) -> list[Any]:
    """Play deals or matches ``0 .. count - 1`` where told (:mod:`bistrot.arena.runner`)."""
    chunk = 1 if where.workers <= 1 and where.ray is None else 2
    key = repr(("omi", mode, rules.to_dict(), seed, count, specs, dd))
    return run_indexed(partial(_play_chunk, mode, rules, seed, specs, dd), count, chunk, where, key, progress)


def run_arena(
    levels: Sequence[str],
    deals: int,
    seed: int = 0,
    workers: int = 1,
    rules: OmiRules | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    progress: Callable[[int], None] | None = None,
    dd: bool | None = None,
    where: Where | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals between ``levels[0]`` and ``levels[1]`` and summarise.

    ``options[level]`` are keyword options for that level's bots (e.g. ``{"hard": {"budget":
    0.2}}``); ``progress(k)`` is called as each deal finishes with the number done so far;
    ``dd`` measures the double-dummy losses (None: :func:`measure_dd_by_default`); ``where``
    plays them elsewhere than ``workers`` local processes (Ray, a checkpoint:
    :class:`~bistrot.arena.runner.Where`).  Whatever the workers, the results are the same.
    """
    rules = rules or OmiRules()
    specs = _specs(levels, rules, deals, "deal", options)
    dd = measure_dd_by_default() if dd is None else dd
    where = where or Where(workers)
    results = _play_all("deals", rules, seed, deals, specs, dd, where, progress)
    return summarise(specs, results, rules.target)


def run_matches(
    levels: Sequence[str],
    matches: int,
    seed: int = 0,
    workers: int = 1,
    rules: OmiRules | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    progress: Callable[[int], None] | None = None,
    dd: bool | None = None,
    where: Where | None = None,
) -> dict[str, Any]:
    """Play ``matches`` whole matches to ``rules.target``, each twice with the sides swapped,
    between ``levels[0]`` and ``levels[1]`` and summarise (:func:`summarise_matches`); the
    other arguments as for :func:`run_arena` (``progress`` counts matches)."""
    rules = rules or OmiRules()
    specs = _specs(levels, rules, matches, "match", options)
    dd = measure_dd_by_default() if dd is None else dd
    where = where or Where(workers)
    results = _play_all("matches", rules, seed, matches, specs, dd, where, progress)
    return summarise_matches(specs, results)


# ----------------------------------------------------------------------------- command line

#: The ``--json`` report's keys in each mode (``per_deal`` and ``per_match`` are left out).
JSON_KEYS = {
    "deals": ("mode", "bots", "deals", "token_diff", "match_win_rate", "matches", "think_ms",
              "dd_loss", "dd_cards", "trump_dd_loss", "dd_trumps"),
    "matches": ("mode", "bots", "matches", "deals", "deals_per_match", "match_wins", "match_win_rate",
                "match_win_ci95", "tokens_per_deal", "token_diff", "think_ms",
                "dd_loss", "dd_cards", "trump_dd_loss", "dd_trumps"),
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], entry: GameEntry) -> None:
    """Add ``bistrot arena <entry.name>`` (``omi``)."""
    parser = subparsers.add_parser(
        entry.name, help=f"duplicate {entry.title} between two bot levels",
        description="Play each deal (or, with --matches, each whole match) twice with the seats "
        "swapped, then report the token difference, the match win rate, each bot's double-dummy "
        "loss per card and per trump choice, and think times of the first bot against the second.",
    )
    parser.add_argument("--bots", default="medium,easy", help="two levels, e.g. hard,medium")
    parser.add_argument("--deals", type=int, default=None,
                        help="number of fresh-hand deals, each played twice (default 100)")
    parser.add_argument("--matches", type=int, default=None,
                        help="play this many whole matches instead (score, carry and kapothi live), "
                        "each twice")
    parser.add_argument("--target", type=int, default=10, help="tokens of a match (default 10)")
    parser.add_argument("--players", type=int, choices=(4, 3), default=4,
                        help="4 (two partnerships, duplicate; default) or 3: each for themselves, "
                        "whole matches (--matches, default 30) with the seats rotated")
    parser.add_argument("--dd-loss", action=argparse.BooleanOptionalAction, default=None,
                        help="measure each bot's double-dummy loss per card and per trump choice "
                        "(default: on where DDS is installed, about 10 ms a hand; the built-in "
                        "solver takes about 0.5 s a hand)")
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
            entry.require_arena_level(level)
        if args.matches is not None and args.deals is not None:
            raise ValueError("give --deals (fresh hands) or --matches (whole matches), not both")
        rules = OmiRules.from_dict({"target": args.target, **parse_rule_options(args.rule, OmiRules),
                                    "players": args.players})
        options = parse_bot_options(args.option)
        if args.players == 3:
            return _run_three(entry, args, levels, rules, options)
        mode = "deals" if args.matches is None else "matches"
        count = args.matches if mode == "matches" else args.deals if args.deals is not None else 100
        run = run_matches if mode == "matches" else run_arena
        with progress_bar(f"{levels[0]} vs {levels[1]}", count, mode) as progress:
            result = run(levels, count, args.seed, args.workers, rules, options, progress, args.dd_loss,
                         where_of(args))
    except ValueError as err:
        raise SystemExit(f"bistrot arena {entry.name}: {err}") from None
    if args.json:
        print(json.dumps({k: result[k] for k in JSON_KEYS[mode]}))
    else:
        print_table(result)
    return 0


def _run_three(entry: GameEntry, args: argparse.Namespace, levels: list[str], rules: OmiRules,
               options: dict[str, dict[str, Any]]) -> int:
    """Three players each play for themselves, so there is no duplicate: whole matches, every deal
    played with the seats rotated (:func:`bistrot.arena.rotation.run_arena`)."""
    if args.deals is not None:
        raise ValueError("with 3 players the arena plays whole matches: give --matches, not --deals")
    if args.dd_loss:
        raise ValueError("the double-dummy loss is measured with 4 players only")
    count = args.matches if args.matches is not None else 30
    rotation.run_and_report(entry, levels, count, rules, options, args.seed, args.workers, args.json,
                            unit="matches", where=where_of(args))
    return 0


def print_table(result: Mapping[str, Any]) -> None:
    """The report (of either mode) as a rich table on standard output."""
    from rich.console import Console
    from rich.table import Table

    first, second = result["bots"]
    diff = result["token_diff"]
    matches = result["mode"] == "matches"
    played = (f"{result['matches'] // 2} matches × 2, {result['deals']} deals" if matches
              else f"{result['deals']} deals × 2")
    table = Table(title=f"Omi duplicate: {first} vs {second}, {played}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    low, high = diff["ci95"]
    table.add_row(f"token difference per deal ({first})", f"{diff['mean']:+.3f}  [{low:+.3f}, {high:+.3f}]")
    if matches:
        for name, tokens in result["tokens_per_deal"].items():
            table.add_row(f"tokens per deal {name}", f"{tokens:.3f}")
    rate = result["match_win_rate"]
    if rate is None:
        table.add_row("match win rate", "no match finished")
    else:
        lo, hi = result["match_win_ci95"]
        table.add_row(f"match win rate ({first}, {result['matches']} matches)",
                      f"{rate:.1%}  [{lo:.1%}, {hi:.1%}]")
    for key, count, what in (("dd_loss", "dd_cards", "card"), ("trump_dd_loss", "dd_trumps", "trump choice")):
        for name, mean in result[key].items():
            if mean is not None:
                table.add_row(f"double-dummy loss per {what} {name} ({result[count][name]} {what}s)",
                              f"{mean:.4f}")
    for name, ms in result["think_ms"].items():
        table.add_row(f"think ms {name} (median / max, {result['decisions'][name]} decisions)",
                      f"{ms['median']:.2f} / {ms['max']:.1f}")
    Console().print(table)
