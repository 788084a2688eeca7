"""``bistrot play GAME``: play a game in the terminal against computer players."""

from __future__ import annotations

import argparse

from bistrot import bots


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``play`` and its games."""
    play = subparsers.add_parser("play", help="play a game in the terminal")
    games = play.add_subparsers(dest="game", required=True, metavar="GAME")

    omi = games.add_parser("omi", help="an Omi match: you and a computer partner against two")
    omi.add_argument("--target", type=int, default=10, help="tokens to win the match (default 10)")
    omi.add_argument("--seed", help="a deal code, to play a known deal again")
    omi.add_argument("--level", default="easy", help=f"computer level: {', '.join(bots.LEVELS)}")
    omi.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE",
        help="any other rules option, e.g. --rule kapothi=announced --rule players=3",
    )
    omi.set_defaults(run=_run_omi)


def _run_omi(args: argparse.Namespace) -> int:
    from bistrot.cli.play_omi import parse_rule_options, play_omi
    from bistrot.omi import OmiRules

    try:
        rules = OmiRules.from_dict({"target": args.target, **parse_rule_options(args.rule)})
        return play_omi(rules, seed=args.seed, level=args.level)
    except ValueError as err:
        raise SystemExit(f"bistrot play omi: {err}") from None
