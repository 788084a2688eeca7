"""``bistrot arena GAME``: tournaments between computer players.

One subcommand per registered game with an ``arena`` (:mod:`bistrot.games`): that module's
``register(subparsers, entry)`` adds it.  Games where each plays for themselves can name
:mod:`bistrot.arena.rotation`, which works for any of them.

>>> parser = argparse.ArgumentParser(prog="bistrot")
>>> register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["arena", "oti", "--games", "2"]).game
'oti'
"""

from __future__ import annotations

import argparse
from importlib import import_module

from bistrot import games


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``arena`` and one subcommand per game with an arena."""
    arena = subparsers.add_parser("arena", help="play computer players against each other")
    tables = arena.add_subparsers(dest="game", required=True, metavar="GAME")
    for entry in games.all_games():
        if entry.arena is not None:
            import_module(entry.arena).register(tables, entry)
