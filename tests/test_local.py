"""The table on this device (bistrot.local): the server's protocol, the server's computer play, no
card a seat may not see, and saved games that replay exactly (docs/offline.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot import dealcode
from bistrot.local import (
    BROWSER_BOT_OPTIONS,
    REPLAY_LIMIT,
    JsonRoom,
    LocalError,
    LocalRoom,
    LocalTable,
)
from bistrot.server import Settings, create_app
from bistrot.tablecore.plan import PACE

HOST_KEYS = {"legal", "seats", "table"}


def drive(room: LocalRoom, table: str) -> list[tuple[str, dict[str, Any]]]:
    """Let the computer seats play until a person is to act (the worker does this with pauses)."""
    out = []
    while (turn := room.bot_turn(table)) is not None:
        out += room.bot_step(table, turn["seq"])
    return out


def act(room: LocalRoom, conn: str, action: str, id: Any) -> list[tuple[str, dict[str, Any]]]:
    return room.receive(conn, json.dumps({"type": "act", "id": id, "action": action}))


def states(out: list[tuple[str, dict[str, Any]]], conn: str) -> list[dict[str, Any]]:
    return [m for c, m in out if c == conn and m["type"] == "state"]


# ------------------------------------------------------------------ the same as the server


def play_on_server(tmp_path: Path, request: dict[str, Any]) -> list[dict[str, Any]]:
    """Seat 0 plays its first legal action each turn over a real WebSocket; the states it gets."""
    settings = Settings(db=str(tmp_path / "room.db"), bot_executor="thread", bot_workers=1, bot_delay_ms=0)
    got: list[dict[str, Any]] = []
    with TestClient(create_app(settings)) as client:
        # The pace is the server's setting (above); the device's tables take it from the request.
        made = client.post("/api/tables", json={k: v for k, v in request.items() if k not in PACE}).json()
        token = made["seats"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        with client.websocket_connect(f"/ws/{made['table']}", headers=auth) as ws:
            n = 0
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state":
                    got.append(msg)
                    view = msg["view"]
                    if view["is_over"]:
                        return got
                    if view["legal"]:
                        n += 1
                        ws.send_json({"type": "act", "id": n, "action": view["legal"][0]})


def play_locally(request: dict[str, Any]) -> list[dict[str, Any]]:
    room = LocalRoom()
    table = room.create(request)["table"]
    got = states(room.connect("c", table, 0), "c")
    n = 0
    while True:
        got += states(drive(room, table), "c")
        view = got[-1]["view"]
        if view["is_over"]:
            return got
        n += 1
        out = act(room, "c", view["legal"][0], n)
        assert out[0][1] == {"type": "ack", "id": n, "seq": room.tables[table].seq}
        got += states(out, "c")


def comparable(msg: dict[str, Any]) -> tuple[Any, ...]:
    view = {k: v for k, v in msg["view"].items() if k not in ("table", "seats")}
    seats = [{k: v for k, v in s.items() if k not in ("connected", "away")} for s in msg["view"]["seats"]]
    table = {k: v for k, v in msg["view"]["table"].items() if k not in ("id", "local", "grace_s")}
    return msg["seq"], msg["last"], view, seats, table


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_match_on_this_device_is_the_match_the_server_plays(tmp_path, level):
    """Same request, same seed: the very same states, seq by seq, computer moves included."""
    request = {"game": "omi", "mode": "computer", "level": level, "seed": "0000-0000-01A5",
               "rules": {"target": 2}, "bot_delay_ms": 0, "name": "Ama"}
    online = [m for m in play_on_server(tmp_path, request) if m["last"] is not None or m["seq"] == 0]
    offline = play_locally(request)
    assert [m["seq"] for m in offline] == list(range(len(offline)))
    assert [comparable(m) for m in offline] == [comparable(m) for m in online]
    assert offline[-1]["view"]["is_over"] and offline[-1]["view"]["table"]["local"] is True


# ------------------------------------------------------------------ secrecy


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["omi", "oti"]), seed=st.integers(0, 2**55 - 1), data=st.data())
def test_each_seat_is_sent_exactly_its_own_view(game, seed, data):
    """Random hot-seat tables (some computer seats), random legal and illegal actions: every state
    a connection gets is the engine's view of its seat at that seq, plus the host's keys, and the
    seed appears only once the game is over."""
    players = data.draw(st.sampled_from([3, 4] if game == "omi" else [2, 3, 4]))
    bots = {str(s): "easy" for s in range(1, players) if data.draw(st.booleans())}
    room = LocalRoom()
    made = room.create({"game": game, "mode": "hotseat", "rules": {"players": players}, "seed": seed,
                        "bots": bots, "bot_delay_ms": 0})
    table_id = made["table"]
    table = room.tables[table_id]
    humans = [s["seat"] for s in made["seats"]]
    out = []
    for seat in humans:
        out += room.connect(f"c{seat}", table_id, seat)
    out += room.connect("watch", table_id, None)
    rng = random.Random(seed)
    for n in range(data.draw(st.integers(5, 60))):
        out += drive(room, table_id)
        if table.game.is_over:
            break
        seat = rng.choice(humans)
        legal = table.game.legal_actions(seat)
        wrong = rng.choice(["play 2C", "trump X", "pickup"])
        action = rng.choice(legal) if legal and rng.random() < 0.9 else wrong
        out += act(room, f"c{seat}", action, n)
    # The engine's views at every seq, from a game replayed apart from the table.
    audiences = [*range(players), None]
    game = table.rebuilt(0)
    expected = {}
    for seq in range(table.seq + 1):
        if seq:
            event = table.history[seq - 1]
            game.apply(event.action, seat=event.actor)
        expected[seq] = {a: (game.view(a), game.legal_actions(a) if a is not None else [], game.is_over)
                         for a in audiences}
    checked = 0
    for conn, msg in out:
        if msg["type"] != "state":
            continue
        seat = None if conn == "watch" else int(conn[1:])
        view = msg["view"]
        engine_view, legal, over = expected[msg["seq"]][seat]
        assert {k: v for k, v in view.items() if k not in HOST_KEYS} == {
            k: v for k, v in engine_view.items() if k != "legal"
        }
        human = seat is not None and table.seats[seat].record.kind == "human"
        assert view["legal"] == (legal if human and not over else [])
        if not over:  # the seed (or its deal code) would reveal every hand
            assert "deal_code" not in view and "seed" not in view
            assert dealcode.encode(table.table.seed) not in json.dumps(view)
        checked += 1
    assert checked
    summary = table.summary()
    assert not {"seed", "actions", "deal_code"} & set(summary)
    assert dealcode.encode(table.table.seed) not in json.dumps(summary)


# ------------------------------------------------------------------ the protocol's details


@pytest.fixture
def omi() -> tuple[LocalRoom, str]:
    room = LocalRoom()
    made = room.create({"game": "omi", "mode": "computer", "level": "easy", "seed": 7, "bot_delay_ms": 0})
    room.connect("c", made["table"], 0)
    return room, made["table"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "act", "action": "trump H"}', "bad_id"),
        ('{"type": "act", "id": 1}', "bad_message"),
        ('{"type": "act", "id": 1, "action": "trump H", "seat": 2}', "not_your_seat"),
        ('{"type": "act", "id": 1, "action": "play AS"}', "wrong_phase"),
        ('{"type": "act", "id": 1, "action": "kiss"}', "unknown_action"),
        ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "too_large"),
    ],
)
def test_bad_messages_get_the_servers_reject_codes_and_change_nothing(omi, text, code):
    room, table = omi
    out = room.receive("c", text)
    assert [(c, m["type"], m["code"]) for c, m in out] == [("c", "reject", code)]
    assert room.tables[table].seq == 0


def test_a_repeated_id_gets_its_first_answer_and_acts_once(omi):
    room, table = omi
    first = act(room, "c", "trump H", "m1")
    assert first[0][1] == {"type": "ack", "id": "m1", "seq": 1}
    assert act(room, "c", "trump H", "m1") == [("c", {"type": "ack", "id": "m1", "seq": 1})]
    refused = act(room, "c", "trump S", "m2")[0][1]
    assert refused["code"] == "wrong_phase"
    assert act(room, "c", "trump S", "m2") == [("c", refused)]
    assert room.tables[table].seq == 1


def test_ping_sync_and_catching_up_with_since(omi):
    room, table = omi
    act(room, "c", "trump S", 1)
    drive(room, table)
    legal = room.tables[table].game.legal_actions(0)
    act(room, "c", legal[0], 2)
    drive(room, table)
    seq = room.tables[table].seq
    assert room.receive("c", '{"type": "ping", "id": 9}') == [("c", {"type": "pong", "id": 9, "seq": seq})]
    assert states(room.receive("c", '{"type": "sync"}'), "c")[0]["last"] is None
    missed = states(room.connect("d", table, 0, since=1), "d")
    assert [m["seq"] for m in missed] == list(range(2, seq + 1))
    assert all(m["last"]["seq"] == m["seq"] for m in missed)
    assert [m["seq"] for m in states(room.connect("e", table, 0, since=None), "e")] == [seq]


def test_beyond_the_replay_limit_one_fresh_state_is_sent(omi):
    room, table = omi
    n = 0
    while room.tables[table].seq <= REPLAY_LIMIT + 2:
        n += 1
        act(room, "c", room.tables[table].game.legal_actions(0)[0], n)
        drive(room, table)
    seq = room.tables[table].seq
    fresh = states(room.connect("d", table, 0, since=seq - REPLAY_LIMIT - 1), "d")
    assert [(m["seq"], m["last"]) for m in fresh] == [(seq, None)]
    # Within the limit (and the core's byte budget, which 64 whole Omi states pass: test_catchup_cost),
    # the missed states themselves.
    assert [m["seq"] for m in states(room.connect("e", table, 0, since=seq - 3), "e")] == [
        seq - 2, seq - 1, seq
    ]


def test_computer_moves_are_seeded_like_the_servers_and_use_the_browser_budget(capsys):
    room = LocalRoom(BROWSER_BOT_OPTIONS)
    made = room.create({"game": "omi", "mode": "computer", "level": "hard", "seed": 11, "seat": 1})
    table = made["table"]
    turn = room.bot_turn(table)
    assert turn["seat"] == 0 and turn["level"] == "hard"
    chosen = room.bot_choose(table, turn["seq"])
    assert chosen in room.tables[table].game.legal_actions(0)
    assert room.bot_choose(table, turn["seq"] + 1) is None, "a move for a seq already gone is dropped"
    assert room.bot_play(table, turn["seq"] + 1, chosen) == []
    out = room.bot_play(table, turn["seq"], chosen)
    assert room.tables[table].history[-1].by == "computer" and out == []  # nobody connected yet
    assert BROWSER_BOT_OPTIONS[("omi", "hard")]["budget"] < 0.5
    # Cards too, with the smaller budget: the bot really chose (no fallback to the first legal action).
    while room.tables[table].game.phase != "play" or room.bot_turn(table) is None:
        game = room.tables[table].game
        if room.bot_turn(table) is not None:
            room.bot_step(table, room.tables[table].seq)
        else:
            room.tables[table].commit(1, game.legal_actions(1)[0], "human", None)
    room.bot_step(table, room.tables[table].seq)
    assert room.tables[table].history[-1].action.startswith("play ")
    assert capsys.readouterr().err == ""


# ------------------------------------------------------------------ opening tables


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ({"game": "omi", "mode": "friends"}, "needs_network"),
        ({"game": "chess"}, "unknown_game"),
        ({"game": "omi", "rules": {"target": 0}}, "bad_rules"),
        ({"game": "omi", "level": "godlike"}, "bad_level"),
        ({"game": "omi", "seat": 4}, "bad_seat"),
        ({"game": "omi", "mode": "hotseat", "bots": dict.fromkeys("0123", "easy")}, "bad_seat"),
        ({"game": "omi", "seed": "not-a-code"}, "bad_seed"),
        ({"game": "oti", "bot_delay_ms": -1}, "bad_request"),
    ],
)
def test_bad_requests_are_refused_with_the_servers_codes(request_, code):
    with pytest.raises(LocalError) as refused:
        LocalRoom().create(request_)
    assert refused.value.code == code


def test_rematch_keeps_the_seats_deals_anew_and_tells_the_old_table():
    room = LocalRoom()
    made = room.create({"game": "oti", "mode": "hotseat", "rules": {"players": 3}, "bots": {"2": "medium"}})
    old = made["table"]
    room.connect("a", old, 0)
    new, out = room.rematch(old)
    assert new != old and new.startswith("local-")
    assert [m["view"]["table"]["rematch"] for _, m in out] == [new]
    assert room.rematch(old)[0] == new, "asking again gives the same table"
    a, b = room.tables[old], room.tables[new]
    kinds = [[(s.record.kind, s.record.level) for s in t.seats] for t in (a, b)]
    assert kinds[0] == kinds[1]
    assert b.table.seed != a.table.seed and b.rules == a.rules


# ------------------------------------------------------------------ saved games


def test_a_saved_game_comes_back_exactly_even_through_javascript_numbers():
    room = LocalRoom()
    made = room.create({"game": "omi", "level": "easy", "seed": 2**55 - 3, "bot_delay_ms": 0})
    table = made["table"]
    room.connect("c", table, 0)
    act(room, "c", "trump D", "x")
    drive(room, table)
    act(room, "c", room.tables[table].game.legal_actions(0)[0], "y")
    saved = room.dirty()[-1]
    record = saved["record"]
    assert record["seed"] == str(2**55 - 3), "stored as text: a JavaScript number would round it"
    assert "seed" not in saved["summary"] and "actions" not in saved["summary"]
    # What the worker stores goes through JavaScript, where every number is a double.
    through_js = json.loads(json.dumps(record), parse_int=lambda text: int(float(text)))
    back = LocalRoom()
    back.load(json.loads(json.dumps(record)))
    again = back.tables[table]
    assert again.game.view(0) == room.tables[table].game.view(0)
    assert again.acks == room.tables[table].acks, "ids answered before are still answered the same"
    assert LocalTable.from_record(through_js).game.view(0) == again.game.view(0)
    # The computer's next move is the same after the reload.
    turn = room.bot_turn(table)
    assert back.bot_choose(table, turn["seq"]) == room.bot_choose(table, turn["seq"])


def test_a_record_that_does_not_replay_is_refused_clearly():
    room = LocalRoom()
    record = room.tables[room.create({"game": "omi"})["table"]].record()
    with pytest.raises(LocalError, match="cannot be replayed") as refused:
        LocalTable.from_record({**record, "actions": [[0, "play AS", "human", None]]})
    assert refused.value.code == "bad_record"
    with pytest.raises(LocalError):
        LocalTable.from_record({**record, "version": 99})


def test_the_json_host_answers_in_texts():
    host = JsonRoom(browser=False)
    made = json.loads(host.create(json.dumps({"game": "omi", "mode": "hotseat", "bot_delay_ms": 0})))
    assert [s["seat"] for s in made["seats"]] == [0, 1, 2, 3] and made["local"] is True
    assert json.loads(host.connect("a", made["table"], 7, -1))["error"]["code"] == "bad_token"
    out = json.loads(host.connect("a", made["table"], 0, -1))["out"]
    assert out[0][0] == "a" and out[0][1]["view"]["legal"][0].startswith("trump")
    answer = json.loads(host.receive("a", json.dumps({"type": "act", "id": 1, "action": "trump C"})))["out"]
    assert answer[0][1]["type"] == "ack"
    assert json.loads(host.bot_turn(made["table"])) is None
    stored = json.loads(host.dirty())
    assert [len(s["record"]["actions"]) for s in stored] == [1]
    assert json.loads(host.load(json.dumps(stored[0]["record"])))["id"] == made["table"]


WARM_PROBE = """
import json, sys
from bistrot.local import LocalRoom
from bistrot.omi.bots.trump_table import chooser_tricks, load_counts
room = LocalRoom()
before = chooser_tricks.cache_info().currsize, load_counts.cache_info().currsize
room.create(json.loads(sys.argv[1]))
print(json.dumps([before, [chooser_tricks.cache_info().currsize, load_counts.cache_info().currsize]]))
"""


@pytest.mark.parametrize(("request_", "warmed"), [
    ({"game": "omi", "mode": "computer", "level": "hard"}, True),
    ({"game": "omi", "mode": "computer", "level": "easy"}, True),  # hints are hard's choice
    ({"game": "omi", "mode": "hotseat"}, False),  # no computer, no hints
])
@pytest.mark.slow
def test_a_table_makes_its_computer_players_once_as_it_opens(request_, warmed):
    # A fresh process, as a page's worker: what hard loads when made (the trump table, its
    # spread of tricks) is loaded by the table's opening, not inside its first move's budget.
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", WARM_PROBE, json.dumps(request_)],
                         capture_output=True, text=True, check=True).stdout
    before, after = json.loads(out)
    assert before == [0, 0] and after == ([1, 1] if warmed else [0, 0])
