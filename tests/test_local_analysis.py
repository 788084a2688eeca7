"""The analysis of a game of this device (issue 14): :meth:`bistrot.local.LocalRoom.analyze` and
:meth:`bistrot.local.JsonRoom.analyze_record`, what the page's analysis worker runs under Pyodide
on the record the playing worker gives, are the analysis library's own
(:func:`bistrot.analysis.analyze_record` of the game's record) with the built-in solver, the
browser's number of layouts and seed 0; refused before the end, as the replay; computed once."""

from __future__ import annotations

import json
import random

import pytest

from bistrot.analysis import DEFAULT_SEED, analyze_record, default_samples, omi, oti
from bistrot.local import ANALYSIS_SOLVER, JsonRoom, LocalRoom, LocalTable
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.replay import not_over, record_of


def finished(room: LocalRoom, game: str, rules: dict, seed: int = 11) -> LocalTable:
    """A hot-seat table of ``room`` played to its end with random legal actions."""
    table = room.tables[room.create({"game": game, "mode": "hotseat", "rules": rules, "seed": seed})["table"]]
    rng = random.Random(seed)
    while not table.game.is_over:
        seat = table.game.actors()[0]
        legal = table.game.legal_actions(seat)
        plays = [a for a in legal if a != "pickup"]
        table.commit(seat, "ready" if "ready" in legal else rng.choice(plays or legal), "human", None)
    return table


def test_an_unfinished_game_is_not_analysed_with_the_replay_s_refusal() -> None:
    room = LocalRoom()
    table = room.tables[room.create({"game": "omi", "mode": "hotseat", "rules": {"target": 1}})["table"]]
    table.commit(0, table.game.legal_actions(0)[0], "human", None)
    calls: list[tuple[int, int]] = []
    with pytest.raises(TableError) as refused:
        room.analyze(table.id, lambda done, total: calls.append((done, total)))
    assert (refused.value.code, refused.value.message) == (not_over().code, not_over().message)
    assert calls == [] and room.analyses == {}
    host = JsonRoom(browser=True)
    host.room = room
    refusal = {"code": "not_over", "message": not_over().message}
    # The page's analysis worker is given the record by the playing worker, which refuses it.
    assert json.loads(host.record(table.id))["error"] == refusal
    assert json.loads(host.record("local-nope"))["error"]["code"] == "unknown_table"
    for text in ("", "hello", '[Game "Chess"]', table.game.record()[:40]):
        assert json.loads(JsonRoom.analyze_record(text))["error"]["code"] == "bad_record"


@pytest.mark.slow
def test_an_oti_game_is_analysed_as_the_library_does_with_progress_and_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(oti, "DEFAULT_SAMPLES", 8)  # fewer deals: random play makes long games
    room = LocalRoom()
    table = finished(room, "oti", {"players": 2}, seed=5)
    calls: list[tuple[int, int]] = []
    found = room.analyze(table.id, lambda done, total: calls.append((done, total)))
    samples = default_samples("oti", ANALYSIS_SOLVER, browser=True)
    expected = analyze_record(record_of(table), samples, DEFAULT_SEED, solver=ANALYSIS_SOLVER).to_dict()
    assert found == expected
    assert found["game"] == "oti" and found["over"] and found["samples"] == samples == 8
    total = len(found["moves"])
    assert total > 0 and calls == [(done, total) for done in range(1, total + 1)]
    # Asked again: the same answer at once, nothing computed.
    assert room.analyze(table.id, lambda done, total: calls.append((done, total))) is found
    assert len(calls) == total


@pytest.mark.slow
def test_an_omi_game_uses_the_browser_s_layouts_and_the_analysis_worker_s_call_reports_progress(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The browser's number of layouts, made small so the whole match is judged in a moment: the
    # analysis must take it from the one place it is set.
    monkeypatch.setattr(omi, "BROWSER_SAMPLES", 3)
    room = LocalRoom()
    table = finished(room, "omi", {"target": 1}, seed=5)
    host = JsonRoom(browser=True)
    host.room = LocalRoom(host.room.bot_options)
    json.loads(host.load(json.dumps(table.record())))  # as the worker brings a stored game back
    calls: list[tuple[int, int]] = []
    record = json.loads(host.record(table.id))["record"]  # what the analysis worker is given
    found = json.loads(JsonRoom.analyze_record(record, lambda done, total: calls.append((done, total))))
    expected = analyze_record(record_of(table), 3, 0, solver="python").to_dict()
    assert found == json.loads(json.dumps(expected))
    assert found["samples"] == 3 and found["moves"][0]["kind"] == "trump"
    assert calls[-1] == (len(found["moves"]), len(found["moves"])) and len(calls) == len(found["moves"])
    assert room.analyze(table.id) == found  # the Python host's own, the same
