"""``bistrot solve DEAL --trump H``: double-dummy analysis of an Omi deal.

DEAL is the four hands in play order, each written ``spades.hearts.diamonds.clubs``; seat 0
is to lead.  The answer is the number of tricks seat 0's team takes after each legal card,
everyone playing their best with all hands open.  ``bistrot solve -`` reads ``DEAL TRUMP``
lines from standard input and writes one JSON object per line.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from bistrot.cards import CARD_NAMES, SUIT_NAMES, Card, CardSet, parse_suit
from bistrot.omi.dd import SOLVERS, Position, available_solvers, parse_hand, solve
from bistrot.omi.rules import HAND_SIZE, OmiRules

USAGE_ERROR = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``solve``."""
    parser = subparsers.add_parser(
        "solve",
        help="double-dummy tricks of each card of an Omi deal",
        description=(
            "Tricks seat 0's team takes after each legal card of seat 0, with best play by all and "
            "every hand open.  DEAL is four hands in play order, each spades.hearts.diamonds.clubs, "
            "e.g. 'AK7.QJ.T9.K 98.K8.QJ7.A QJT.AT.K8.7 .97.A.QJT98' (a void suit is left empty).  "
            "Use '-' to read 'DEAL TRUMP' lines from standard input and write one JSON object per line."
        ),
    )
    parser.add_argument("deal", nargs="+", metavar="DEAL", help="four hands (or '-' for standard input)")
    parser.add_argument("--trump", help="the trump suit: S, H, D or C (not used with '-')")
    parser.add_argument("--json", action="store_true", help='print {"tricks": {"AS": 5, ...}}')
    parser.add_argument(
        "--solver", default="auto", choices=SOLVERS,
        help="auto (DDS when installed, else the built-in solver), python or dds",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Solve one deal, or every line of standard input with ``-``."""
    if args.solver == "dds" and "dds" not in available_solvers():
        return _fail("the dds solver needs the endplay package, which is not installed here")
    if args.deal == ["-"]:
        if args.trump is not None:
            return _fail("with '-' each input line gives its own trump: 'DEAL TRUMP'")
        return solve_lines(sys.stdin, sys.stdout, args.solver)
    if args.trump is None:
        return _fail("say the trump suit with --trump S, H, D or C")
    try:
        pos = parse_deal(" ".join(args.deal), args.trump)
    except ValueError as err:
        return _fail(str(err))
    tricks = solve_deal(pos, args.solver)
    if args.json:
        print(json.dumps({"tricks": tricks}))
    else:
        print(format_table(pos, tricks))
    return 0


def parse_deal(deal: str, trump: str) -> Position:
    """The position of a deal text (four hands in play order) with seat 0 to lead.

    >>> pos = parse_deal("AK7.QJ.T9.K 98.K8.QJ7.A QJT.AT.K8.7 .97.A.QJT98", "H")
    >>> pos.trump, pos.tricks_left
    (1, 8)
    >>> parse_deal("A.K.. K.A.. Q.Q.. J.J..7", "s")
    Traceback (most recent call last):
    ...
    ValueError: seat 3 holds 3 cards and seat 0 holds 2: every hand must hold as many cards
    """
    texts = deal.split()
    if len(texts) != 4:
        raise ValueError(
            f"a deal is four hands in play order, each spades.hearts.diamonds.clubs, not {len(texts)} "
            "word(s); e.g. AK7.QJ.T9.K 98.K8.QJ7.A QJT.AT.K8.7 .97.A.QJT98"
        )
    deck = OmiRules().deck
    hands = []
    seen = 0
    for seat, text in enumerate(texts):
        try:
            hand = parse_hand(text)
        except ValueError as err:
            raise ValueError(f"seat {seat}: {err}") from None
        outside = hand & ~deck
        if outside:
            card = Card.all()[(outside & -outside).bit_length() - 1]
            raise ValueError(f"seat {seat}: {card} is not in the Omi deck (ranks 7 to A)")
        if hand & seen:
            raise ValueError(f"{CardSet(hand & seen)} is dealt twice")
        seen |= hand
        hands.append(hand)
    sizes = [h.bit_count() for h in hands]
    if sizes[0] == 0 or sizes[0] > HAND_SIZE:
        raise ValueError(f"seat 0 holds {sizes[0]} cards: an Omi hand holds 1 to {HAND_SIZE}")
    for seat, size in enumerate(sizes):
        if size != sizes[0]:
            raise ValueError(
                f"seat {seat} holds {size} cards and seat 0 holds {sizes[0]}: "
                "every hand must hold as many cards"
            )
    return Position(hands=tuple(hands), trump=parse_suit(trump), to_move=0)


def solve_deal(pos: Position, solver: str) -> dict[str, int]:
    """Tricks for seat 0's team after each legal card, keyed by card text, in hand order."""
    values = solve(pos, solver=solver)
    order = [int(c) for c in CardSet(pos.legal_cards())]
    return {CARD_NAMES[c]: values[c] for c in order}


def format_table(pos: Position, tricks: dict[str, int]) -> str:
    """The human answer: one line per legal card of seat 0."""
    trump = pos.trump
    lines = [
        f"Trump {SUIT_NAMES[trump]}, seat 0 to lead, {pos.tricks_left} tricks to play.",
        "Tricks for seats 0 and 2 after each card:",
    ]
    for name, value in tricks.items():
        card = Card.parse(name)
        lines.append(f"  {card.pretty:<4} {value}")
    return "\n".join(lines)


def solve_lines(source: TextIO, out: TextIO, solver: str) -> int:
    """Solve each ``DEAL TRUMP`` line; a bad line gets ``{"error": ...}`` and exit status 2."""
    status = 0
    for number, line in enumerate(source, 1):
        words = line.split()
        if not words:
            continue
        result: dict[str, Any]
        try:
            if len(words) != 5:
                raise ValueError(
                    f"a line is DEAL TRUMP: four hands then the trump suit, not {len(words)} word(s)"
                )
            pos = parse_deal(" ".join(words[:4]), words[4])
            result = {"tricks": solve_deal(pos, solver)}
        except ValueError as err:
            result = {"error": f"line {number}: {err}"}
            print(f"bistrot solve: line {number}: {err}", file=sys.stderr)
            status = USAGE_ERROR
        out.write(json.dumps(result) + "\n")
        out.flush()
    return status


def _fail(message: str) -> int:
    print(f"bistrot solve: error: {message}", file=sys.stderr)
    return USAGE_ERROR

