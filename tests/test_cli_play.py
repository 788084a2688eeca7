"""``bistrot play omi``: a whole match in the terminal, bad input re-prompted with the reason."""

import io
import itertools
import subprocess
import sys

from rich.console import Console

from bistrot.cards import CARD_NAMES
from bistrot.cli import build_parser, main
from bistrot.cli.play_omi import play_omi
from bistrot.dealcode import encode
from bistrot.omi import OmiRules

OMI_CARDS = [name for name in CARD_NAMES if name[0] in "789TJQKA"]


def scripted_answers():
    """Nonsense first, then every card in turn: the table must refuse what is illegal."""
    yield "help"
    yield "last"
    yield "zz"
    yield "2h"
    yield "99"
    yield from itertools.cycle(OMI_CARDS)


def trump_answers():
    """A bad suit once, then hearts whenever asked."""
    yield "trump X"
    yield from itertools.repeat("H")


def test_a_whole_match_is_played_and_bad_answers_get_reasons():
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    answers, trumps = scripted_answers(), trump_answers()
    asked = []

    def ask(prompt):
        asked.append(prompt)
        return next(trumps if prompt.startswith("Choose trump") else answers)

    assert play_omi(OmiRules(target=2), seed=7, console=console, ask=ask) == 0
    text = out.getvalue()
    assert "Match over" in text and f"Deal code {encode(7)}" in text
    assert "'X' is not a suit: use S, H, D or C" in text
    assert "'zz' is not a card: write the rank (7-9, T or 10, J, Q, K, A)" in text
    assert "2♥ is not in this game's deck: its ranks are 7-9, T or 10, J, Q, K, A" in text
    assert "choose a number from 1 to" in text
    assert "No trick has been played yet." in text
    assert ("you do not hold" in text) and ("Your hand:" in text) and ("Tokens" in text)
    assert any("Choose trump" in p for p in asked)


def test_quitting_leaves_with_the_deal_code():
    out = io.StringIO()
    answers = iter(["quit"])
    code = play_omi(OmiRules(), seed=7, console=Console(file=out, width=100), ask=lambda _: next(answers))
    assert code == 0 and f"You left the match. Deal code {encode(7)}" in out.getvalue()


def test_your_own_cards_are_in_the_trick_lines():
    out = io.StringIO()
    answers = itertools.chain(["S"], ["1"] * 8, ["quit"])  # trump if asked, then the first legal card
    play_omi(OmiRules(), seed=7, console=Console(file=out, width=200), ask=lambda _: next(answers))
    lines = out.getvalue().splitlines()
    mine = [line for line in lines if line.startswith("You play ")]
    assert mine, "no line for a card you played"
    # Every completed trick shows four cards, yours included, before its winner.
    for i, line in enumerate(lines):
        if "the trick." in line:
            played = [x for x in lines[:i] if " play " in x or " plays " in x]
            assert played[-4:] and any(x.startswith("You play ") for x in played[-4:]), lines[: i + 1]


def test_a_whole_number_seed_is_the_librarys_seed():
    out = io.StringIO()
    answers = iter(["quit"])
    args = build_parser().parse_args(["play", "omi", "--seed", "42"])
    assert args.seed == 42
    play_omi(OmiRules(), seed=args.seed, console=Console(file=out, width=100), ask=lambda _: next(answers))
    assert f"Deal code {encode(42)}" in out.getvalue()


def test_the_command_runs_a_match_from_standard_input():
    # Seat 0 chooses trump in hand 1 only (target 1 may take more hands: answers then fall
    # through as card numbers, and "S" in a card prompt is refused and re-asked).
    answers = "\n".join(["S", *(str(i % 8 + 1) for i in range(3000))]) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "bistrot", "play", "omi", "--target", "1", "--seed", "0000-0000-01A5"],
        input=answers, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Match over" in done.stdout and "Deal code 0000-0000-01A5" in done.stdout


def test_bad_options_exit_with_a_clear_message(capsys):
    for argv, message in [
        (["play", "omi", "--rule", "players=5"], "players must be 4 or 3"),
        (["play", "omi", "--rule", "kapothi"], "a rules option is NAME=VALUE"),
        (["play", "omi", "--seed", "nonsense"], "'nonsense' is neither a whole number nor a deal code"),
        (["play", "omi", "--seed", "0000-0000-01A6"], "its check digit does not match"),
        (["play", "omi", "--seed", str(2**60)], "a seed is a whole number from 0 to 2**55 - 1"),
        (["play", "omi", "--level", "grandmaster"], "no 'grandmaster' computer player"),
    ]:
        try:
            main(argv)
        except SystemExit as exit_:
            assert exit_.code != 0
            assert message in str(exit_.code) + capsys.readouterr().err, argv
        else:
            raise AssertionError(f"{argv} should have failed")


def test_the_help_of_play_says_whom_you_play_against(capsys):
    # "you and a computer partner against two" stopped before saying two what.
    for argv in (["play", "--help"], ["play", "omi", "--help"]):
        try:
            main(argv)
        except SystemExit as exit_:
            assert exit_.code == 0
        said = " ".join(capsys.readouterr().out.split())
        assert "you and a computer partner against two computer players" in said, said
        assert "against two\n" not in said and not said.rstrip().endswith("against two"), said
