"""``NAME=VALUE`` options given on the command line, for rules (``--rule``) and bots (``--option``).

>>> parse_rule_options(["players=3", "redeal_few_trumps=on", "direction=clockwise"])
{'players': 3, 'redeal_few_trumps': True, 'direction': 'clockwise'}
>>> parse_bot_options(["hard.budget=0.2", "hard.samples=40", "medium.style=x"])
{'hard': {'budget': 0.2, 'samples': 40}, 'medium': {'style': 'x'}}
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any


def add_arena_arguments(parser: argparse.ArgumentParser, option_example: str, rule_example: str) -> None:
    """The arguments every arena takes: ``--workers --seed --json --option --rule``."""
    parser.add_argument("--workers", type=int, default=1, help="processes to play in parallel")
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


def parse_rule_options(pairs: Sequence[str]) -> dict[str, Any]:
    """Rules options with their types: on/off (true/false, yes/no) as booleans, digits as ints.

    The engines' ``Rules.from_dict`` then says which names and values are wrong.
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"a rules option is NAME=VALUE, not {pair!r}")
        if value.lower() in ("on", "true", "yes"):
            options[name] = True
        elif value.lower() in ("off", "false", "no"):
            options[name] = False
        elif value.isdigit():
            options[name] = int(value)
        else:
            options[name] = value
    return options


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
