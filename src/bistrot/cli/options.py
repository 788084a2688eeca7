"""``NAME=VALUE`` options given on the command line, for rules (``--rule``) and bots (``--option``).

Rules options are read through their :class:`~bistrot.ruleset.Option` when the rules class is
known (``"on"`` for a bool, a whole number for an int); without it, or for a name the rules do not
have (``from_dict`` then refuses it, naming the options), the value's look decides.

>>> parse_rule_options(["players=3", "redeal_few_trumps=on", "direction=clockwise"])
{'players': 3, 'redeal_few_trumps': True, 'direction': 'clockwise'}
>>> from bistrot.oti import OtiRules
>>> parse_rule_options(["play_to_last=1", "players=3"], OtiRules)
{'play_to_last': True, 'players': 3}
>>> parse_rule_options(["players=three"], OtiRules)
Traceback (most recent call last):
...
ValueError: players must be a whole number, not 'three'
>>> parse_bot_options(["hard.budget=0.2", "hard.samples=40", "medium.style=x"])
{'hard': {'budget': 0.2, 'samples': 40}, 'medium': {'style': 'x'}}
>>> rule_examples(OtiRules.options(), skip=("players",))
'--rule ten_plays_again=on --rule voluntary_pickup=on'
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bistrot.arena.runner import Where
from bistrot.ruleset import Option


class RulesSchema(Protocol):
    """What parsing needs of a rules class (``OmiRules``): its options, described."""

    def options(self) -> tuple[Option, ...]:
        """Every option of the rules."""
        ...


def add_arena_arguments(parser: argparse.ArgumentParser, option_example: str, rule_example: str) -> None:
    """The arguments every arena takes: ``--workers --ray --checkpoint --seed --json --option --rule``."""
    parser.add_argument("--workers", type=int, default=1,
                        help="processes to play in parallel (with a bare --ray: the local Ray's CPUs)")
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="play the deals as tasks over a Ray cluster: auto (the cluster this machine "
                        "joined), HOST:PORT of its head, or none given: a Ray on this machine "
                        "(pip install 'bistrot[ray]')")
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="keep the results so far in FILE; the same command run again resumes there")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deal sequence")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--option", action="append", default=[], metavar="LEVEL.NAME=VALUE",
        help=f"a bot option, e.g. {option_example}",
    )
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE",
        help=f"a rules option, e.g. {rule_example}",
    )


def where_of(args: argparse.Namespace) -> Where:
    """Where an arena run parsed from :func:`add_arena_arguments` plays."""
    if args.workers < 1:
        raise ValueError("--workers must be at least 1")
    return Where(args.workers, args.ray, args.checkpoint)


def parse_rule_options(pairs: Sequence[str], rules: RulesSchema | None = None) -> dict[str, Any]:
    """Rules options with their types, read by ``rules``' options where they name one.

    Otherwise on/off (true/false, yes/no) are booleans and digits ints.  The engines'
    ``Rules.from_dict`` then says which names and values are wrong.
    """
    known = {o.name: o for o in rules.options()} if rules is not None else {}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"a rules option is NAME=VALUE, not {pair!r}")
        option = known.get(name)
        options[name] = option.parse(value) if option is not None else _guess(value)
    return options


def _guess(value: str) -> Any:
    if value.lower() in ("on", "true", "yes"):
        return True
    if value.lower() in ("off", "false", "no"):
        return False
    if value.isdigit():
        return int(value)
    return value


def example_value(option: Option) -> Any:
    """A value other than the default, to show how an option is written (the default if none).

    >>> example_value(Option("kapothi", "choice", "three_tokens", ("three_tokens", "announced")))
    'announced'
    """
    if option.type == "bool":
        return not option.default
    others = [choice for choice in (*option.choices, option.max, option.min)
              if choice is not None and choice != option.default]
    return others[0] if others else option.default


def rule_examples(options: Iterable[Option], skip: Iterable[str] = (), count: int = 2) -> str:
    """``--rule NAME=VALUE`` examples for the first ``count`` options not in ``skip``."""
    skipped = set(skip)
    shown = [o for o in options if o.name not in skipped][:count]
    return " ".join(f"--rule {o.name}={o.text(example_value(o))}" for o in shown)


def parse_bot_options(pairs: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``LEVEL.NAME=VALUE`` bot options grouped by level, numbers read as numbers."""
    options: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        level, dot, name = key.partition(".")
        if not sep or not dot:
            raise ValueError(f"a bot option is LEVEL.NAME=VALUE, not {pair!r}")
        value: Any = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        options.setdefault(level, {})[name] = value
    return options
