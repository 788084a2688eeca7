"""``bistrot solve``: one deal, JSON, standard input, and bad input."""

from __future__ import annotations

import io
import json

import pytest

from bistrot.cli import main
from bistrot.omi.dd import Position, parse_hand, solve

DEAL = ["AK7.QJ.T9.K", "98.K8.QJ7.A", "QJT.AT.K8.7", ".97.A.QJT98"]
# Two tricks: seat 0's ace of trumps then the queen take both; the queen first loses one.
SMALL = [".AQ..", "K.K..", "AJ...", "Q.J.."]


def expected(deal: list[str], trump: int) -> dict[str, int]:
    from bistrot.cards import CARD_NAMES

    pos = Position(hands=tuple(parse_hand(h) for h in deal), trump=trump)
    return {CARD_NAMES[c]: v for c, v in solve(pos, solver="python").items()}


def test_json_gives_the_tricks_of_each_legal_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", *SMALL, "--trump", "H", "--json", "--solver", "python"]) == 0
    assert json.loads(capsys.readouterr().out) == {"tricks": {"AH": 2, "QH": 1}}


def test_full_deal_json_matches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", *DEAL, "--trump", "H", "--json", "--solver", "python"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"tricks": expected(DEAL, 1)}
    assert list(out["tricks"]) == ["AS", "KS", "7S", "QH", "JH", "TD", "9D", "KC"]


def test_deal_may_be_one_quoted_word(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", " ".join(SMALL), "--trump", "hearts", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"tricks": {"AH": 2, "QH": 1}}


def test_human_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", *SMALL, "--trump", "H"]) == 0
    out = capsys.readouterr().out
    assert "Trump hearts, seat 0 to lead, 2 tricks to play." in out
    lines = [line.split() for line in out.splitlines()[2:]]
    assert lines == [["A♥", "2"], ["Q♥", "1"]]


def test_python_and_dds_print_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    from bistrot.omi.dd import available_solvers

    if "dds" not in available_solvers():
        pytest.skip("endplay (DDS) is not importable on this platform")
    main(["solve", *DEAL, "--trump", "D", "--json", "--solver", "python"])
    python = capsys.readouterr().out
    main(["solve", *DEAL, "--trump", "D", "--json", "--solver", "dds"])
    assert capsys.readouterr().out == python


def test_standard_input_one_json_object_per_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = f"{' '.join(SMALL)} H\n\n{' '.join(DEAL)} S\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["solve", "-", "--solver", "python"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out == [{"tricks": {"AH": 2, "QH": 1}}, {"tricks": expected(DEAL, 0)}]


def test_standard_input_bad_line_gets_an_error_object_and_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = f"{' '.join(SMALL)} H\n{' '.join(SMALL)}\n{' '.join(SMALL)} X\n{' '.join(SMALL)} C\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["solve", "-"]) == 2
    captured = capsys.readouterr()
    out = [json.loads(line) for line in captured.out.splitlines()]
    assert len(out) == 4
    assert out[0] == {"tricks": {"AH": 2, "QH": 1}}
    assert out[1]["error"].startswith("line 2: a line is DEAL TRUMP")
    assert out[2]["error"] == "line 3: 'X' is not a suit: use S, H, D or C"
    assert "tricks" in out[3]
    assert "line 2" in captured.err and "line 3" in captured.err


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (["AK7.QJ.T9.K8", "98.K8.QJ7.A", "QJT.AT.K8.7", ".97.A.QJT9"], "seat 0 holds 9 cards"),
        (["A.K..", "A.Q..", "Q.J..", "J.T.."], "AS is dealt twice"),
        (["A.K..", "K.Q..", "Q.J..", "J.T..7"], "seat 3 holds 3 cards and seat 0 holds 2"),
        (["A.K..", "K.Q..", "Q.J..", "J.X.."], "seat 3: 'X' in 'J.X..' is not a rank"),
        (["A.K..", "K.Q..", "Q.J..", "J.5.."], "seat 3: 5H is not in the Omi deck"),
        (["A.K..", "K.Q..", "Q.J.."], "a deal is four hands"),
        (["A.K.", "K.Q..", "Q.J..", "J.T.."], "seat 0: 'A.K.' is not a hand"),
        (["....", "....", "....", "...."], "seat 0: '....' is not a hand"),
        (["...", "...", "...", "..."], "seat 0 holds 0 cards"),
    ],
)
def test_bad_deals_exit_2_with_a_reason(
    deal: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", *deal, "--trump", "H"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err


def test_missing_trump_and_bad_solver(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", *SMALL]) == 2
    assert "--trump" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["solve", *SMALL, "--trump", "H", "--solver", "fast"])
    assert stop.value.code == 2
    assert main(["solve", "-", "--trump", "H"]) == 2
    assert "each input line gives its own trump" in capsys.readouterr().err


def test_dds_forced_without_endplay_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("bistrot.cli.solve.available_solvers", lambda: ["python"])
    assert main(["solve", *SMALL, "--trump", "H", "--solver", "dds"]) == 2
    assert "needs the endplay package" in capsys.readouterr().err
