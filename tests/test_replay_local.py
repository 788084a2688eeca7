"""The replay of a game of this device (issue 14): the device's card room (:mod:`bistrot.local`)
answers what the server's ``GET /api/tables/{id}/replay`` and ``.../record`` answer, from the
same sans-I/O code (:mod:`bistrot.tablecore.replay`), and refuses them before the end."""

from __future__ import annotations

import json
import random

import pytest

from bistrot import games
from bistrot.local import JsonRoom, LocalRoom
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.replay import replay_views


@pytest.mark.parametrize(("game", "rules"), [("omi", {"target": 1}), ("oti", {"players": 2})])
def test_a_device_game_is_replayed_step_by_step_once_over(game: str, rules: dict) -> None:
    room = LocalRoom()
    made = room.create({"game": game, "mode": "hotseat", "rules": rules, "seed": 11})
    table = room.tables[made["table"]]
    rng = random.Random(3)
    with pytest.raises(TableError) as refused:
        room.replay(table.id)
    assert refused.value.code == "not_over"
    host = JsonRoom(browser=False)
    host.room = room
    assert json.loads(host.replay(table.id))["error"]["code"] == "not_over"
    assert json.loads(host.record(table.id))["error"]["code"] == "not_over"
    while not table.game.is_over:
        seat = table.game.actors()[0]
        legal = table.game.legal_actions(seat)
        plays = [a for a in legal if a != "pickup"]
        action = "ready" if "ready" in legal else rng.choice(plays or legal)
        table.commit(seat, action, "human", None)
    assert table.status == "over"

    answer = json.loads(host.replay(table.id))
    engine = games.get(game)
    start = engine.game_class().new(engine.rules_from_dict(rules), 11)
    assert [(s["index"], s["seat"], s["action"]) for s in answer["steps"]] == [
        (i, seat, action) for i, (seat, action) in enumerate(table.game.actions)
    ]
    n = start.rules.players
    assert {k: v for k, v in answer["start"].items() if k != "hands"} == start.view(None)
    views = replay_views(answer)  # each step is the change from the view before it
    for step, view in zip(answer["steps"], views[1:], strict=True):
        start.apply(step["action"], seat=step["seat"])
        assert view["hands"] == [start.view(s)["hand"] for s in range(n)]
        assert {k: v for k, v in view.items() if k != "hands"} == start.view(None)
    assert views[-1]["is_over"] and answer["result"] == table.game.summary()
    record = json.loads(host.record(table.id))
    assert record["game"] == game
    assert engine.game_class().from_record(record["record"]) == table.game
    assert json.loads(host.replay("local-nope"))["error"]["code"] == "unknown_table"
