"""``bistrot arena oti``: seats rotated over each deal, win rates with Wilson intervals, JSON."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bistrot.arena import rotation
from bistrot.arena.rotation import BotSpec, seating
from bistrot.cli import main
from bistrot.games import get
from bistrot.oti import OtiRules

OTI = get("oti")


def play_game(*args, **kwargs):
    return rotation.play_game(OTI, *args, **kwargs)


def run_arena(*args, **kwargs):
    return rotation.run_arena(OTI, *args, **kwargs)


@pytest.mark.parametrize("players, names", [(2, ["a", "b"]), (3, ["a", "b"]), (4, ["a", "b", "c"]),
                                             (5, ["a", "b"])])
def test_every_bot_plays_every_seat_and_spare_seats_go_round(players, names):
    games = players * len(names)
    seats = Counter()
    for game in range(games):
        table = seating(names, players, game)
        assert len(table) == players and set(table) == set(names)
        seats.update((seat, name) for seat, name in enumerate(table))
    for seat in range(players):
        assert len({seats[(seat, name)] for name in names}) == 1  # each seat shared evenly


def test_a_deal_is_played_once_per_rotation():
    rules = OtiRules(players=2)
    specs = [BotSpec("easy", "easy"), BotSpec("medium", "medium")]
    first, second = play_game(rules, 3, 0, specs), play_game(rules, 3, 1, specs)
    assert first.seating == ["easy", "medium"] and second.seating == ["medium", "easy"]
    assert play_game(rules, 3, 0, specs).winner == first.winner  # reproducible


def test_run_arena_reports_rates_intervals_and_think_times():
    result = run_arena(["medium", "easy"], games=6, players=3, seed=2)
    assert result["bots"] == ["medium", "easy"] and result["games"] == 6 and result["players"] == 3
    assert sum(result["wins"].values()) == 6
    for name in result["bots"]:
        rate = result["win_rate"][name]
        low, high = rate["ci95"]
        assert 0 <= low <= rate["rate"] <= high <= 1
        assert result["think_ms"][name]["median"] <= result["think_ms"][name]["max"]
    assert sum(result["seat_share"].values()) == pytest.approx(1)
    assert sum(result["end_reasons"].values()) == 6


def test_the_same_level_twice_is_reported_twice():
    result = run_arena(["easy", "easy"], games=2, players=2)
    assert result["bots"] == ["easy", "easy#2"]


@pytest.mark.parametrize("kwargs, message", [
    ({"levels": ["medium"]}, "2 to 2 bots"),
    ({"levels": ["medium", "easy", "hard"]}, "2 to 2 bots"),
    ({"levels": ["medium", "genius"]}, "no Oti level"),
    ({"games": 0}, "at least one game"),
])
def test_bad_arguments_are_refused(kwargs, message):
    args = {"levels": ["medium", "easy"], "games": 2, "players": 2} | kwargs
    with pytest.raises(ValueError, match=message):
        run_arena(**args)


def test_command_line_json(capsys):
    assert main(["arena", "oti", "--bots", "hard,medium", "--games", "2", "--json",
                 "--option", "hard.iterations=2", "--rule", "ten_plays_again=on"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["bots"] == ["hard", "medium"] and report["games"] == 2 and report["players"] == 2
    # Standard error is not a terminal: a plain line as the run passes each tenth of the way.
    assert [line.split(",")[0] for line in err.splitlines()] == [
        "hard vs medium: 1/2 games (50%)", "hard vs medium: 2/2 games (100%)"]
    assert set(report["win_rate"]["hard"]) == {"rate", "ci95"}
    assert set(report["think_ms"]["medium"]) == {"median", "max"}


def test_command_line_table_and_workers(capsys):
    assert main(["arena", "oti", "--bots", "medium,easy", "--games", "4", "--players", "3",
                 "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "medium" in out and "win rate" in out and "Games ended by" in out


def test_command_line_errors():
    with pytest.raises(SystemExit, match="no Oti level"):
        main(["arena", "oti", "--bots", "medium,genius", "--games", "1"])
    with pytest.raises(SystemExit, match="time_budget, max_deals, iterations and infer"):
        main(["arena", "oti", "--bots", "hard,medium", "--option", "hard.depth=3"])
