"""``bistrot play omi``: a whole match in the terminal, bad input re-prompted with the reason."""

import io
import itertools
import subprocess
import sys

from rich.console import Console

from bistrot.cards import CARD_NAMES
from bistrot.cli import main
from bistrot.cli.play_omi import play_omi
from bistrot.dealcode import encode
from bistrot.omi import OmiRules

OMI_CARDS = [name for name in CARD_NAMES if name[0] in "789TJQKA"]


def scripted_answers():
    """Nonsense first, then every card in turn: the table must refuse what is illegal."""
    yield "help"
    yield "last"
    yield "zz"
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
    assert "'zz' is not a card" in text
    assert "choose a number from 1 to" in text
    assert "No trick has been played yet." in text
    assert ("you do not hold" in text) and ("Your hand:" in text) and ("Tokens" in text)
    assert any("Choose trump" in p for p in asked)


def test_quitting_leaves_with_the_deal_code():
    out = io.StringIO()
    answers = iter(["quit"])
    code = play_omi(OmiRules(), seed=7, console=Console(file=out, width=100), ask=lambda _: next(answers))
    assert code == 1 and f"You left the match. Deal code {encode(7)}" in out.getvalue()


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
        (["play", "omi", "--seed", "nonsense"], "is not a deal code"),
        (["play", "omi", "--level", "grandmaster"], "no 'grandmaster' computer player"),
    ]:
        try:
            main(argv)
        except SystemExit as exit_:
            assert message in str(exit_.code)
        else:
            raise AssertionError(f"{argv} should have failed")
