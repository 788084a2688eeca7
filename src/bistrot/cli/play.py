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

    oti = games.add_parser("oti", help="an Oti game: you against 1 to 4 computer players")
    oti.add_argument("--players", type=int, default=3, help="players at the table, you included (2-5)")
    oti.add_argument("--seed", help="a deal code, to play a known deal again")
    oti.add_argument("--level", default="easy", help=f"computer level: {', '.join(bots.LEVELS)}")
    oti.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE",
        help="any other rules option, e.g. --rule play_to_last=on --rule ten_plays_again=on",
    )
    oti.set_defaults(run=_run_oti)


def _run_omi(args: argparse.Namespace) -> int:
    from bistrot.cli.options import parse_rule_options
    from bistrot.cli.play_omi import play_omi
    from bistrot.omi import OmiRules

    try:
        rules = OmiRules.from_dict({"target": args.target, **parse_rule_options(args.rule)})
        return play_omi(rules, seed=args.seed, level=args.level)
    except ValueError as err:
        raise SystemExit(f"bistrot play omi: {err}") from None


def _run_oti(args: argparse.Namespace) -> int:
    from bistrot.cli.options import parse_rule_options
    from bistrot.cli.play_oti import play_oti
    from bistrot.oti import OtiRules

    try:
        rules = OtiRules.from_dict({"players": args.players, **parse_rule_options(args.rule)})
        return play_oti(rules, seed=args.seed, level=args.level)
    except ValueError as err:
        raise SystemExit(f"bistrot play oti: {err}") from None
