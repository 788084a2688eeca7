"""``bistrot arena GAME``: tournaments between computer players.

Each game's arena lives in ``bistrot.arena.<game>`` and exposes ``register(subparsers)``.
"""

from __future__ import annotations

import argparse
from importlib import import_module

#: Games with an arena; each name is a module of :mod:`bistrot.arena`.
ARENA_GAMES: tuple[str, ...] = ("omi", "oti")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``arena`` and one subcommand per game."""
    arena = subparsers.add_parser("arena", help="play computer players against each other")
    games = arena.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in ARENA_GAMES:
        import_module(f"bistrot.arena.{name}").register(games)
