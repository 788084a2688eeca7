"""Holes an attacker found, each closed: a challenge's deal never reaches a challenger, no chosen
deal at a friends table, no lax coercion of the HTTP bodies' numbers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_harness import Client, http, open_table, play_out, settle

from bistrot import dealcode
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.plan import PlanDefaults, plan_table
from bistrot.tablecore.records import StoredTable

SHORT = {"target": 1}  # an Omi match decided by one hand (or a few, after 4:4 ties)


def _texts(client: Client) -> list[str]:
    return [json.dumps(m) for m in client.messages]


def _no_deal(seen: Any, code: str) -> None:
    text = json.dumps(seen) if not isinstance(seen, str) else seen
    assert "deal_code" not in text and code not in text, text[:300]


def test_a_challenge_deal_reaches_no_challenger_anywhere(server):
    original = open_table(server.url, mode="computer", rules=SHORT, level="easy", name="Ama")
    tid, token = original["table"], original["seats"][0]["token"]
    with Client(server.url, tid, token) as me:
        play_out(me)
        code = me.view["deal_code"]  # its own players see their deal once it is over
    with http(server.url) as client:
        link = client.post(f"/api/tables/{tid}/challenge", json={"token": token}).json()
        cid = link["challenge"]
        opened = client.post(f"/api/challenges/{cid}/play", json={"name": "Kasun"})
        assert opened.status_code == 201, opened.text
        _no_deal(opened.json(), code)
    attempt = opened.json()
    at, mine = attempt["table"], attempt["seats"][0]["token"]
    with Client(server.url, at, mine) as player, Client(server.url, at, attempt["watch"]) as watcher:
        play_out(player)
        settle(player)
        settle(watcher)
        assert player.view["is_over"] and watcher.view["is_over"]
        for text in _texts(player) + _texts(watcher):
            _no_deal(text, code)
        # a state asked again at the end, and the states replayed from any seq
        player.send({"type": "sync", "id": "s1"})
        _no_deal(player.wait_for(lambda m: m["type"] == "state"), code)
        last = player.seq
    for since in (None, 0, last - 1):
        with Client(server.url, at, mine, since=since) as again:
            settle(again)
            assert again.view["is_over"]
            for text in _texts(again):
                _no_deal(text, code)
    with http(server.url) as client:
        _no_deal(client.get(f"/api/tables/{at}").json(), code)
        info = client.get(f"/api/challenges/{cid}").json()
        assert len(info["results"]) == 2
        _no_deal(info, code)
        rematch = client.post(f"/api/tables/{at}/rematch", json={"token": mine})
        assert rematch.status_code == 200, rematch.text
        _no_deal(rematch.json(), code)
        # a challenge of the challenger's table is the same deal: still hidden
        again = client.post(f"/api/tables/{at}/challenge", json={"token": mine}).json()
        _no_deal(again, code)
        _no_deal(client.get(f"/api/challenges/{again['challenge']}").json(), code)
        bad = client.post(f"/api/challenges/{again['challenge']}/play", json={"name": 5})
        assert bad.status_code == 422
        _no_deal(bad.json(), code)
        second = client.post(f"/api/challenges/{again['challenge']}/play", json={}).json()
    with Client(server.url, second["table"], second["seats"][0]["token"]) as third:
        play_out(third)
        settle(third)
        for text in _texts(third):
            _no_deal(text, code)


def test_the_table_core_hides_a_challenge_deal_at_every_seq_and_audience():
    """The device and the server share the core: the deal is hidden where the views are built."""
    plan = plan_table(
        {"game": "omi", "mode": "computer", "level": "easy", "rules": SHORT},
        PlanDefaults(bot_delay_ms=0),
        seed=42,
        challenge="some-challenge",
    )
    core = TableCore(StoredTable(plan.table, plan.seats))
    code = dealcode.encode(42)
    core.connect(0)
    core.connect(None)
    seen: list[dict[str, Any]] = []
    while not core.game.is_over:
        turn = core.bot_turn()
        if turn is not None:
            proposal = core.bot_proposal(turn, turn.view["legal"][0])
        else:
            act = {"type": "act", "id": core.seq, "action": core.legal(core.game, 0)[0]}
            step = core.receive(0, json.dumps(act))
            proposal = step.proposal
        assert proposal is not None
        commit = core.propose(proposal, now=0.0)
        assert not isinstance(commit, dict)
        seen += [m for _, m in core.confirm(commit)[1]]
    assert core.game.is_over and core.game.view(0).get("deal_code") == code  # the engine reveals it
    for audience in (0, None):
        seen += core.catch_up(audience, None) + core.catch_up(audience, 0)
        seen += core.receive(audience, '{"type": "sync", "id": 1}').replies
    seen += [m for _, m in core.broadcast()]
    seen.append(core.public_info())
    assert seen
    for message in seen:
        _no_deal(message, code)


def test_an_ordinary_table_still_shows_its_deal_code_at_the_end():
    plan = plan_table({"game": "omi", "mode": "hotseat", "rules": SHORT, "seed": 42}, PlanDefaults())
    core = TableCore(StoredTable(plan.table, plan.seats))
    while not core.game.is_over:
        seat = core.game.to_move
        commit = core.propose(core.receive(seat, json.dumps(
            {"type": "act", "id": core.seq, "action": core.legal(core.game, seat)[0]})).proposal, now=0.0)
        assert not isinstance(commit, dict)
        core.confirm(commit)
    assert core.state(core.game, core.seq, 0, None)["view"]["deal_code"] == dealcode.encode(42)


# ---------------------------------------------------------------------------- chosen deals


@pytest.mark.parametrize("seed", ["0000-0000-01A5", 42, 0])
def test_a_friends_table_refuses_a_chosen_deal(server, seed):
    with http(server.url) as client:
        answer = client.post("/api/tables", json={"game": "omi", "mode": "friends", "seed": seed})
        assert (answer.status_code, answer.json()["code"]) == (422, "seed_not_allowed"), answer.text
        assert "friends" in answer.json()["message"]
        assert client.get("/healthz").json()["tables"] == 0
    open_table(server.url, mode="friends")  # without a seed it opens
    open_table(server.url, mode="computer", seed=seed)  # a deal of one's own is still fine
    open_table(server.url, mode="hotseat", seed=seed)


# ---------------------------------------------------------------------------- strict bodies


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seat", "1"),
        ("seat", 1.0),
        ("seat", True),
        ("seed", True),
        ("seed", False),
        ("seed", 1.0),
    ],
)
def test_numbers_are_not_coerced(server, field, value):
    with http(server.url) as client:
        answer = client.post("/api/tables", json={"game": "omi", field: value})
        body = answer.json()
        assert (answer.status_code, body["code"]) == (422, "bad_request"), answer.text
        assert body["message"].startswith(field), body["message"]
        assert client.get("/healthz").json()["tables"] == 0


def test_well_typed_bodies_still_open_tables(server):
    table = open_table(
        server.url, mode="computer", seat=1, seed=42, bots={"2": "hard"}, level="easy"
    )
    with http(server.url) as client:
        info = client.get(f"/api/tables/{table['table']}").json()
    assert [s["kind"] for s in info["seats"]] == ["computer", "human", "computer", "computer"]
    assert info["seats"][2]["level"] == "hard"
    assert table["seats"][0]["seat"] == 1
    open_table(server.url, mode="computer", seed="0000-0000-01A5")
