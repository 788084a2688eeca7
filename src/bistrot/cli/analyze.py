"""``bistrot analyze RECORD_FILE``: every decision of a recorded game judged, with marks.

Reads an Omi or Oti record (``OmiGame.record()``, ``OtiGame.record()``; ``-`` reads standard
input), replays it through the engine and analyses each decision with a choice
(:mod:`bistrot.analysis`, docs/analysis.md): a table of the decisions, their losses and marks,
and each player's accuracy; with ``--json`` one JSON object on standard output.  A record of a
game not yet over is analysed up to its last action.  Anything wrong with the input (no such
file, not a text, not a record, an action the rules refuse) is one line on standard error and
exit status 2.

>>> parser = argparse.ArgumentParser(prog="bistrot")
>>> register(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["analyze", "game.txt", "--json", "--samples", "8"])
>>> args.record, args.json, args.samples, args.seed
('game.txt', True, 8, 0)
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bistrot.omi.dd import SOLVERS, available_solvers
from bistrot.progress import progress_bar

USAGE_ERROR = 2
#: Records longer than this are refused (a whole match is a few kilobytes).
MAX_RECORD_BYTES = 10_000_000


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``analyze``."""
    parser = subparsers.add_parser(
        "analyze",
        help="judge every decision of a recorded Omi or Oti game",
        description=(
            "Replay a game record and judge each decision from what the deciding seat could see: "
            "Omi trump choices and cards in tokens (the hard player's sampling, double dummy) and "
            "cards also with every hand open (tricks); Oti moves in win chance (the hard "
            "player's Monte Carlo search).  Marks inaccuracies, mistakes and blunders and gives "
            "each player an accuracy.  A game not over is analysed up to its last action."
        ),
    )
    parser.add_argument("record", metavar="RECORD_FILE", help="a game record ('-' for standard input)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--samples", type=_positive, default=None, metavar="N",
                        help="layouts (Omi: default 64 with DDS, 32 with the built-in solver) or deals "
                        "(Oti: default 200) per decision")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the random draws (default 0)")
    parser.add_argument("--solver", default="auto", choices=SOLVERS,
                        help="Omi's double-dummy solver: auto (DDS when installed), python or dds")
    parser.set_defaults(run=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def read_text(path: str) -> str:
    """The record's text; ``ValueError`` saying why it cannot be read."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a directory, not a record file") from None
    except OSError as err:
        raise ValueError(f"{path}: cannot be read ({err.strerror or err})") from None
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(f"{path}: too large for a game record (over {MAX_RECORD_BYTES:,} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file (a record is UTF-8 text)") from None


def run(args: argparse.Namespace) -> int:
    """Analyse the record and print the report."""
    from bistrot.analysis import analyze, read_game

    if args.solver == "dds" and "dds" not in available_solvers():
        return _fail("the dds solver needs the endplay package, which is not installed here")
    try:
        game = read_game(read_text(args.record))
    except ValueError as err:
        return _fail(f"{args.record}: {err}" if not str(err).startswith(args.record) else str(err))
    try:
        with progress_bar("analysing", None, "decisions", lines=False) as progress:
            analysis = analyze(game, samples=args.samples, seed=args.seed, progress=progress,
                               solver=args.solver)
    except ValueError as err:  # options that do not fit this game
        return _fail(str(err))
    found = analysis.to_dict()
    if args.json:
        print(json.dumps(found))
    else:
        print_report(found)
    return 0


def choices(actions: list[str]) -> str:
    """Equally good actions as one cell: their verb once when they share it.

    >>> choices(["play KS", "play 8H", "play 9H"])
    'play KS 8H 9H'
    >>> choices(["pickup", "play 7D"])
    'pickup, play 7D'
    """
    verbs = {action.partition(" ")[0] for action in actions}
    if len(verbs) == 1 and all(" " in action for action in actions):
        return f"{verbs.pop()} " + " ".join(action.partition(" ")[2] for action in actions)
    return ", ".join(actions)


def print_report(found: dict[str, Any]) -> None:
    """The analysis as rich tables on standard output."""
    from rich.console import Console
    from rich.table import Table

    dd = found["double_dummy"]  # card plays judged with every hand open too (Omi's)
    unit = found["thresholds"]["unit"]
    draws = f"{found['samples']} {found['draws']} each, seed {found['seed']}"
    moves = Table(title=f"{found['game'].capitalize()}: {len(found['moves'])} decisions judged "
                  f"(loss in {unit}; {draws})"
                  + ("" if found["over"] else "; the game is not over"))
    columns = ["#", "seat", "played", "best", "loss", "mark"]
    if dd:
        columns[3:4] = ["best for the seat", "best, all open"]
        columns.insert(6, "dd")
    for name in columns:
        moves.add_column(name, justify="right" if name in ("#", "seat", "loss", "dd") else "left")
    for move in found["moves"]:
        row = [str(move["index"]), str(move["seat"]), move["action"]]
        if dd and move["kind"] == "card":
            row += [choices(move["best_expected"]), choices(move["best"])]
        elif dd:
            row += [choices(move["best"]), ""]
        else:
            row.append(choices(move["best"]))
        row.append(f"{move['loss']:.2f}")
        if dd:
            row.append("" if "dd_loss" not in move else str(move["dd_loss"]))
        row.append(move["mark"] or "")
        moves.add_row(*row)
    players = Table(title="Players")
    for name in ("seat", "decisions", "accuracy", "inaccuracies", "mistakes", "blunders",
                 *(("dd tricks lost",) if dd else ())):
        players.add_column(name, justify="right")
    for seat, summary in found["players"].items():
        accuracy = "-" if summary["accuracy"] is None else f"{summary['accuracy']:.1f}%"
        row = [seat, str(summary["decisions"]), accuracy, str(summary["inaccuracies"]),
               str(summary["mistakes"]), str(summary["blunders"])]
        if dd:
            row.append(str(summary.get("dd_loss", 0)))
        players.add_row(*row)
    console = Console()
    console.print(moves)
    console.print(players)


def _fail(message: str) -> int:
    print(f"bistrot analyze: error: {message}", file=sys.stderr)
    return USAGE_ERROR
