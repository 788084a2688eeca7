"""``bistrot play GAME``: play a game in the terminal against computer players.

One subcommand per registered game with a terminal table (:mod:`bistrot.games`), built from its
entry alone: ``--seed`` (a deal code or a whole number), ``--level`` (the game's computer
levels, the easiest by default), one flag per ``terminal_options`` rules option (typed and defaulted by its
:class:`~bistrot.ruleset.Option`, the default overridden by ``terminal_defaults``) and
``--rule NAME=VALUE`` for any other rules option.

>>> parser = argparse.ArgumentParser(prog="bistrot")
>>> register(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["play", "oti", "--rule", "play_to_last=on"])
>>> args.game, args.players, args.level, rules_of(args).to_dict()["play_to_last"]
('oti', 3, 'easy', True)
>>> rules_of(parser.parse_args(["play", "omi", "--target", "5"])).target
5
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial
from typing import Any

from bistrot import dealcode, games
from bistrot.cli.options import parse_rule_options, rule_examples
from bistrot.games import GameEntry
from bistrot.ruleset import Option


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``play`` and one subcommand per game with a terminal table."""
    play = subparsers.add_parser("play", help="play a game in the terminal")
    tables = play.add_subparsers(dest="game", required=True, metavar="GAME")
    for entry in games.all_games():
        if entry.terminal is not None:
            add_game(tables, entry)


def game_help(entry: GameEntry) -> str:
    """The line ``bistrot play --help`` shows for a game.

    >>> game_help(games.get("oti"))  # doctest: +ELLIPSIS
    '...Oti...'
    """
    text = entry.terminal_help
    return str(text) if text else f"a game of {entry.title} against computer players"


def option_help(option: Option, default: Any) -> str:
    """A flag's help: what it is, its range or choices, and its default.

    >>> from bistrot.oti import OtiRules
    >>> option_help(OtiRules.option("players"), 3)
    'players at the table, you included (2-5, default 3)'
    """
    text = option.help or option.name.replace("_", " ")
    bounds = ""
    if option.type == "int" and option.min is not None and option.max is not None:
        bounds = f"{option.min}-{option.max}, "
    elif option.type == "choice":
        bounds = f"{', '.join(map(str, option.choices))}; "
    return f"{text} ({bounds}default {option.text(default)})"


def _reader(option: Option) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        try:
            return option.parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return read


def _seed(text: str) -> int:
    try:
        return dealcode.parse_seed(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_game(tables: argparse._SubParsersAction[argparse.ArgumentParser], entry: GameEntry) -> None:
    """Add ``bistrot play <entry.name>``."""
    parser = tables.add_parser(entry.name, help=game_help(entry), description=game_help(entry))
    options = {o.name: o for o in entry.rules_class().options()}
    for name in entry.terminal_options:
        option = options[name]
        default = entry.terminal_defaults.get(name, option.default)
        metavar = "on|off" if option.type == "bool" else name.upper()
        parser.add_argument(f"--{name.replace('_', '-')}", dest=name, type=_reader(option),
                            default=default, metavar=metavar, help=option_help(option, default))
    parser.add_argument(
        "--seed", type=_seed, help="a deal code or a whole number, to play a known deal again"
    )
    levels = entry.levels
    parser.add_argument(
        "--level", default=levels[0] if levels else None, metavar="{" + ",".join(levels) + "}",
        help=f"computer level: {', '.join(levels)} (default {levels[0] if levels else 'none'})",
    )
    others = [o for o in options.values() if o.name not in entry.terminal_options]
    example = rule_examples(others)
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE",
        help="any other rules option" + (f", e.g. {example}" if example else ""),
    )
    parser.set_defaults(run=partial(_run, entry))


def rules_of(args: argparse.Namespace) -> Any:
    """The rules a parsed ``bistrot play GAME ...`` asks for; ``ValueError`` with the reason."""
    entry = games.get(args.game)
    given = {name: getattr(args, name) for name in entry.terminal_options}
    return entry.rules_from_dict({**given, **parse_rule_options(args.rule, entry.rules_class())})


def _run(entry: GameEntry, args: argparse.Namespace) -> int:
    try:
        rules = rules_of(args)
        entry.bot_class(args.level)  # an unknown level is refused before the table is drawn
        assert entry.terminal is not None
        play: Callable[..., int] = games.load(entry.terminal)
        return play(rules, seed=args.seed, level=args.level)
    except ValueError as err:
        raise SystemExit(f"bistrot play {entry.name}: {err}") from None
