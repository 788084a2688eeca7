"""The ``bistrot`` command.  Each subcommand lives in its own module of this package, which
exposes ``register(subparsers)``; the parsed namespace carries the function to run as ``run``.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from bistrot import __version__

#: Subcommand modules of this package, in the order ``bistrot --help`` lists them.
COMMANDS = ("play", "arena", "serve", "offline", "solve", "analyze")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="bistrot", description="A card room for Omi and Oti, and tools to study card players."
    )
    parser.add_argument("--version", action="version", version=f"bistrot {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        import_module(f"bistrot.cli.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
