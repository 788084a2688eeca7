"""Hints on the device (bistrot.local through JsonRoom, as the Web Worker calls it): the hard
player's choice with the browser's options, from the seat's view; marked to store before it is
answered; kept in the saved game and recorded in its result; refused in hot seat."""

from __future__ import annotations

import json
from typing import Any

from bistrot import bots
from bistrot.local import BROWSER_BOT_OPTIONS, JsonRoom
from bistrot.omi import OmiGame, OmiRules
from bistrot.seeding import derive


def send(host: JsonRoom, conn: str, message: dict[str, Any]) -> list[dict[str, Any]]:
    return [msg for _, msg in json.loads(host.receive(conn, json.dumps(message)))["out"]]


def open_omi(host: JsonRoom, mode: str) -> tuple[str, dict[str, Any]]:
    request = {"game": "omi", "mode": mode, "level": "easy", "bot_delay_ms": 0, "rules": {"target": 1}}
    made = json.loads(host.create(json.dumps(request)))
    out = json.loads(host.connect("c", made["table"], 0, -1))["out"]
    return made["table"], out[0][1]


def play_out(host: JsonRoom, table: str, state: dict[str, Any]) -> dict[str, Any]:
    """From ``state``, seat 0's first legal actions and the computer's moves until the end: the
    last state."""
    n = 100
    while True:
        turn = json.loads(host.bot_turn(table))
        if turn is not None:
            action = json.loads(host.bot_choose(table, turn["seq"]))
            out = json.loads(host.bot_play(table, turn["seq"], action))["out"]
        else:
            assert state["view"]["legal"], state
            n += 1
            act = {"type": "act", "id": n, "action": state["view"]["legal"][0]}
            out = json.loads(host.receive("c", json.dumps(act)))["out"]
        states = [m for _, m in out if m["type"] == "state"]
        if states:
            state = states[-1]
        if state["view"]["is_over"]:
            return state


def test_a_device_hint_is_the_hard_players_choice_stored_with_the_game_and_in_its_result() -> None:
    host = JsonRoom(browser=True)
    table, state = open_omi(host, "computer")
    assert state["view"]["table"]["hints"] is True
    json.loads(host.dirty())  # (the new table: stored)
    [answer] = send(host, "c", {"type": "hint", "id": "h1"})
    [saved] = json.loads(host.dirty())  # to store before the worker delivers the answer
    record = saved["record"]
    assert record["seats"][0]["hints"] == 1
    seed = int(record["seed"])
    options = BROWSER_BOT_OPTIONS[("omi", "hard")]
    hard = bots.make_bot("omi", "hard", seed=derive(seed, "hint", 0, 0), **options)
    assert answer == {"type": "hint", "id": "h1", "seq": 0,
                      "action": hard.act(OmiGame.new(OmiRules(target=1), seed).view(0))}
    assert send(host, "c", {"type": "hint", "id": "h2"}) == [{**answer, "id": "h2"}]
    assert json.loads(host.dirty()) == []  # not counted again: nothing to store

    again = JsonRoom(browser=True)  # the device comes back: the count is the saved game's
    again.load(json.dumps(record))
    [(_, state)] = json.loads(again.connect("c", table, 0, -1))["out"]
    final = play_out(again, table, state)
    assert final["view"]["table"]["hints_used"] == {"0": 1}
    [saved] = json.loads(again.dirty())
    assert saved["summary"]["result"]["hints"] == {"0": 1}
    assert saved["record"]["seats"][0]["hints"] == 1


def test_no_hint_in_hot_seat_on_the_device() -> None:
    host = JsonRoom(browser=True)
    _table, state = open_omi(host, "hotseat")
    assert state["view"]["table"]["hints"] is False
    json.loads(host.dirty())
    [answer] = send(host, "c", {"type": "hint", "id": 3})
    assert answer["type"] == "reject" and answer["code"] == "hints_off" and answer["id"] == 3
    assert json.loads(host.dirty()) == []
