"""The duplicate Omi arena: scripted bots whose results are known, statistics, the command."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import pytest

from bistrot.arena import omi as arena
from bistrot.arena.omi import BotSpec, DealResult, HandResult, chain_matches, play_deal, summarise
from bistrot.cli import main
from bistrot.omi import OmiRules


class Conceder:
    """Always takes the first legal action: a scripted player for the arena's bookkeeping."""

    level = "conceder"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        pass

    def act(self, view: Mapping[str, Any]) -> str:
        return view["legal"][0]


def test_a_deterministic_bot_against_itself_scores_exactly_zero() -> None:
    # Medium is deterministic: both seatings replay the same hand, so every deal cancels.
    result = arena.run_arena(["medium", "medium"], deals=6, seed=3)
    assert result["bots"] == ["medium", "medium#2"]
    assert result["per_deal"] == [0] * 6
    assert result["token_diff"] == {"mean": 0.0, "ci95": [0.0, 0.0]}
    assert set(result["think_ms"]) == {"medium", "medium#2"}


def test_both_seatings_see_the_same_cards_and_rotate_the_chooser() -> None:
    seen = []

    def factory(game: str, level: str, seed: int, **options: Any) -> Conceder:
        bot = Conceder()
        original = bot.act

        def act(view: Mapping[str, Any]) -> str:
            if view["phase"] == "trump":
                seen.append((view["seat"], tuple(view["hand"])))
            return original(view)

        bot.act = act  # type: ignore[method-assign]
        return bot

    specs = [BotSpec("a", "a"), BotSpec("b", "b")]
    for index in range(4):
        seen.clear()
        play_deal(OmiRules(), 5, index, specs, bot_factory=factory)
        assert len(seen) == 2 and seen[0] == seen[1]
        assert seen[0][0] == index % 4  # the chooser turns round the table


def test_known_results_give_known_statistics() -> None:
    h = HandResult
    # Three deals: the first bot gains 2 then 1 (diff 3), loses 1 then gains 1 (0), ties twice (0).
    results = [
        DealResult(0, (h(2, 0), h(1, 0)), {"x": [0.001, 0.003], "y": [0.002]}),
        DealResult(1, (h(0, 1), h(1, 0)), {"x": [0.002], "y": [0.010]}),
        DealResult(2, (h(0, 0, tie=True), h(0, 0, tie=True)), {"x": [], "y": []}),
    ]
    report = summarise([BotSpec("x", "x"), BotSpec("y", "y")], results, target=3)
    assert report["per_deal"] == [3, 0, 0]
    assert report["token_diff"]["mean"] == pytest.approx(1.0)
    # t with 2 degrees of freedom: 4.303 * sd / sqrt(3), sd = sqrt(3)
    half = 4.303 * math.sqrt(3) / math.sqrt(3)
    assert report["token_diff"]["ci95"] == pytest.approx([1 - half, 1 + half])
    # Seating A: 2, then 0:1, then a tie; seating B: 1, 1, a tie.  Nobody reaches 3.
    assert report["matches"] == 0 and report["match_win_rate"] is None
    report = summarise([BotSpec("x", "x"), BotSpec("y", "y")], results, target=2)
    # Seating A: 2 -> match won; then 0:1, tie (unfinished).  Seating B: 1, 1 -> won.
    assert report["matches"] == 2 and report["match_win_rate"] == 1.0
    assert report["think_ms"]["x"] == {"median": pytest.approx(2.0), "max": pytest.approx(3.0)}
    assert report["think_ms"]["y"] == {"median": pytest.approx(6.0), "max": pytest.approx(10.0)}


def test_matches_carry_ties_and_stop_on_a_winning_kapothi() -> None:
    h = HandResult
    # tie, tie, then 1 token + 2 carried = 3 -> the first bot wins a match to 3.
    assert chain_matches([h(0, 0, True), h(0, 0, True), h(1, 0)], target=3) == [True]
    # A wins_match kapothi ends the match whatever the score.
    assert chain_matches([h(0, 2), h(3, 0, match_over=True)], target=10) == [True]
    assert chain_matches([h(0, 0, True)] * 5, target=1) == []


def test_workers_give_the_same_result_as_one_process() -> None:
    one = arena.run_arena(["medium", "easy"], deals=6, seed=9, workers=1)
    two = arena.run_arena(["medium", "easy"], deals=6, seed=9, workers=2)
    for key in ("per_deal", "token_diff", "match_win_rate", "matches"):
        assert one[key] == two[key]


def test_the_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "omi", "--bots", "medium,easy", "--deals", "3", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bots"] == ["medium", "easy"] and report["deals"] == 3
    assert set(report) >= {"token_diff", "match_win_rate", "think_ms"}
    assert set(report["think_ms"]["medium"]) == {"median", "max"}
    direct = arena.run_arena(["medium", "easy"], deals=3, seed=2)
    assert report["token_diff"] == direct["token_diff"]


def test_the_command_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "omi", "--bots", "easy,medium", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "token difference per deal (easy)" in out and "think ms medium" in out


def test_the_command_refuses_unknown_levels() -> None:
    with pytest.raises(SystemExit, match="no Omi level 'grand'"):
        main(["arena", "omi", "--bots", "grand,easy", "--deals", "1"])
