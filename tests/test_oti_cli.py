"""``bistrot play oti``: a whole game in the terminal, bad input re-prompted with the reason."""

from __future__ import annotations

import io
import itertools

import pytest
from rich.console import Console

from bistrot.cards import CARD_NAMES
from bistrot.cli import main
from bistrot.cli.play_oti import play_oti
from bistrot.dealcode import encode
from bistrot.oti import OtiRules


def answers():
    """Nonsense and refusals first, then every action in turn until one is legal."""
    yield from ["help", "pile", "burnt", "zz", "swap 9 9", "swap 1 1", "ready", "play 1 9",
                "pickup", "flip", "3S 3H 3D"]
    yield from itertools.cycle([*CARD_NAMES, "1", "p", "f", "1 2"])


def run(rules, seed, level="easy", script=None):
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    feed = script if script is not None else answers()
    code = play_oti(rules, seed=seed, level=level, console=console, ask=lambda _prompt: next(feed))
    return code, out.getvalue()


def test_a_whole_game_is_played_and_bad_answers_get_reasons():
    code, text = run(OtiRules(players=3), seed=7, level="medium")
    assert code == 0
    assert "Game over" in text and f"Deal code {encode(7)}" in text
    assert "is not an Oti action" in text  # zz
    assert "give the number of a hand card" in text  # swap 9 9
    assert "You swap" in text and "You are ready." in text
    assert "choose numbers from 1 to" in text  # play 1 9
    assert "cannot_flip" not in text and "face-down cards are turned only once" in text
    assert "never 3" in text or "you do not hold" in text
    assert "Pile:" in text and "Your hand:" in text and "lowest card and start" in text
    assert "wins!" in text or "You win!" in text


def test_play_to_last_shows_the_ranking():
    code, text = run(OtiRules(players=2, play_to_last=True), seed=11)
    assert code == 0 and "Ranking:" in text


def test_quitting_leaves_with_the_deal_code():
    code, text = run(OtiRules(players=2), seed=7, script=iter(["quit"]))
    assert code == 0 and f"You left the game. Deal code {encode(7)}" in text


def test_command_line_refuses_bad_options():
    with pytest.raises(SystemExit, match="players must be"):
        main(["play", "oti", "--players", "7"])
    with pytest.raises(SystemExit, match="no 'genius' computer player"):
        main(["play", "oti", "--level", "genius"])
    with pytest.raises(SystemExit, match="unknown Oti rules option"):
        main(["play", "oti", "--rule", "jokers=on"])
