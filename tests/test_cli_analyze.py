"""``bistrot analyze``: the JSON it prints, the table, and every kind of bad input."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot.bots import make_bot
from bistrot.cli import main
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd.dds_solver import dds_available
from bistrot.oti import OtiGame, OtiRules


def omi_record(seed: int = 3) -> str:
    game = OmiGame.new(OmiRules(), seed)
    bots = [make_bot("omi", "medium", seed=s) for s in range(4)]
    while not game.results:
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    return game.record()


def oti_record(seed: int = 3) -> str:
    game = OtiGame.new(OtiRules(players=2), seed)
    bots = [make_bot("oti", "medium", seed=s) for s in range(2)]
    while not game.is_over:
        seat = game.actors()[0]
        game.apply(bots[seat].act(game.view(seat)), seat=seat)
    return game.record()


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | bytes,
        *options: str) -> tuple[int, str, str]:
    path = tmp_path / "game.txt"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    status = main(["analyze", str(path), *options])
    out, err = capsys.readouterr()
    return status, out, err


def test_omi_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = omi_record()
    status, out, err = run(tmp_path, capsys, text, "--json", "--samples", "3", "--seed", "7")
    assert status == 0 and err == ""
    found = json.loads(out)  # exactly one object
    assert found["game"] == "omi" and found["samples"] == 3 and found["seed"] == 7
    actions = OmiGame.from_record(text).actions
    assert found["moves"] and found["moves"][0]["action"].startswith("trump ")
    for move in found["moves"]:
        assert {"index", "seat", "action", "best", "loss", "mark"} <= set(move)
        assert [move["seat"], move["action"]] == list(actions[move["index"]])
        assert move["loss"] >= 0 and move["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert isinstance(move["best"], list) and move["best"]
        if move["action"].startswith("play "):
            assert isinstance(move["dd_loss"], int) and move["dd_loss"] >= 0
            assert (move["dd_loss"] == 0) == (move["action"] in move["best"])
        else:
            assert "dd_loss" not in move
    assert set(found["players"]) == {"0", "1", "2", "3"}
    for summary in found["players"].values():
        assert summary["accuracy"] is None or 0 <= summary["accuracy"] <= 100
    again = run(tmp_path, capsys, text, "--json", "--samples", "3", "--seed", "7")
    assert json.loads(again[1]) == found


def test_oti_json_shape_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = oti_record()
    status, out, _ = run(tmp_path, capsys, text, "--json", "--samples", "4")
    found = json.loads(out)
    assert status == 0 and found["game"] == "oti" and found["over"] is True
    assert all("dd_loss" not in move and 0 <= move["loss"] <= 1 for move in found["moves"])
    status, out, _ = run(tmp_path, capsys, text, "--samples", "4")
    assert status == 0 and "Players" in out and "accuracy" in out


def test_the_table_names_both_bests_for_omi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(tmp_path, capsys, omi_record(), "--samples", "2")
    assert status == 0 and "all open" in out and "trump" in out
    # Several equally good cards name their verb once (issue 37: "play 8D play QC").
    assert "play" in out and re.search(r"play \w\w play", out) is None, out


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    (b"\xff\xfe\x00garbage", "not a text file"),
    ("hello", "not a game record"),
    ('[Game "Chess"]\n\n1. e4', "does not know"),
    ('[Game "Omi"]\n[Seed "0000-0000-01A5"]\n\ntrump H AS', "cannot be played"),
    ('[Game "Omi"]\n[Seed "0000-0000-01A5"]\n\ntrump X', "trump"),
    ('[Game "Omi"]\n\ntrump H', "Seed"),
    ('[Game "Oti"]\n[Seed "0000-0000-007K"]\n\n0: play AS', "cannot be played"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: str | bytes | None, message: str) -> None:
    if content is None:
        status = main(["analyze", str(tmp_path / "missing.txt")])
        out, err = capsys.readouterr()
    else:
        status, out, err = run(tmp_path, capsys, content)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("bistrot analyze: error:") and message in err, err
    assert "Traceback" not in err


@pytest.mark.skipif(not dds_available(), reason="endplay (Bo Haglund's DDS) is not importable here")
def test_dds_judges_three_players_as_the_built_in_solver_does(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    # DDS seats three players with a phantom fourth hand: the same exact values, card by card
    game = OmiGame.new(OmiRules(players=3), 1)
    rng = random.Random(1)
    for _ in range(10):  # the trump and nine cards
        game.apply(rng.choice(game.legal_actions()))
    found = {}
    for solver in ("dds", "python"):
        options = ("--solver", solver, "--samples", "4", "--json")
        status, out, err = run(tmp_path, capsys, game.record(), *options)
        assert status == 0 and err == ""
        found[solver] = json.loads(out)
    cards = [m for m in found["dds"]["moves"] if m["kind"] == "card"]
    assert cards and all(m["dd_tricks"] for m in cards)
    assert found["dds"] == found["python"]


def test_a_directory_and_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(tmp_path)]) == 2
    assert "directory" in capsys.readouterr().err
    for bad in (["--samples", "0"], ["--samples", "x"], ["--seed", "y"]):
        with pytest.raises(SystemExit) as exit_:
            main(["analyze", str(tmp_path), *bad])
        assert exit_.value.code == 2
        capsys.readouterr()


RECORD_START = '[Game "Oti"]\n[Players "2"]\n[Seed "0000-0000-007K"]\n\n'


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300),
    st.builds(lambda tail: RECORD_START + tail, st.text(max_size=80)),
    st.builds(lambda tail: '[Game "Omi"]\n[Seed "0000-0000-007K"]\n\n' + tail,
              st.lists(st.sampled_from(["trump", "H", "AH", "7S", "kapothi", "1.", "{", "}", ";"]),
                       max_size=12).map(" ".join)),
))
def test_any_file_gives_an_answer_or_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    content: str | bytes) -> None:
    status, out, err = run(tmp_path, capsys, content, "--json", "--samples", "1")
    assert status in (0, 2)
    if status == 0:
        assert isinstance(json.loads(out), dict) and err == ""
    else:
        assert out == "" and err.startswith("bistrot analyze: error:") and err.count("\n") == 1
