"""The table core (bistrot.tablecore) on its own: every message a stranger can send is answered
without a crash and changes nothing unless it is a legal action; a failed store puts the table
back; stale computer moves are dropped; presence and grace as the hosts rely on them."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot.errors import IllegalAction
from bistrot.tablecore.core import Commit, Proposal, TableCore
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import PlanDefaults, plan_table
from bistrot.tablecore.records import PresenceRecord, SeatRecord, StoredTable, secret_hash

ANSWER_TYPES = {"ack", "reject", "pong", "state"}


def core_for(request: dict[str, Any], **options: Any) -> tuple[TableCore, dict[int, str]]:
    plan = plan_table(request, PlanDefaults(bot_delay_ms=0))
    return TableCore(StoredTable(plan.table, plan.seats), **options), plan.tokens


def snapshot(core: TableCore) -> tuple[Any, ...]:
    return core.seq, core.game.record(), dict(core.acks), core.status


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
messages = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["act", "ping", "sync", "chat", ""]) | json_values,
        "id": st.integers(-(2**60), 2**60) | st.text(max_size=70) | json_values,
        "action": st.sampled_from(["trump H", "play 7S", "dance", "kapothi", ""]) | json_values,
        "seat": st.integers(-2, 5) | json_values,
        "seq": st.integers(-1, 99) | json_values,
        "text": st.text(max_size=260) | st.sampled_from([" \n ", "x" * 200, "x" * 201]) | json_values,
    },
)
texts = st.text(max_size=200) | messages.map(json.dumps) | st.binary(max_size=50).map(
    lambda b: b.decode("latin-1")
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, audience=st.sampled_from([0, 1, None]))
def test_any_text_is_answered_and_changes_nothing_until_proposed(text, audience):
    core, _ = core_for({"game": "omi", "mode": "hotseat", "seed": 7})
    before = snapshot(core)
    step = core.receive(audience, text)
    assert snapshot(core) == before
    for reply in step.replies:
        assert reply["type"] in ANSWER_TYPES
        if reply["type"] == "reject":
            assert reply["code"] and reply["message"]
    if step.chat is not None:  # a chat message, cleaned: one line of 1 to 200 characters
        assert not step.replies and step.proposal is None and step.chat.seat == audience is not None
        said = step.chat.text
        assert 1 <= len(said) <= 200 and said == said.strip()
        assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in said)
        assert step.chat.n == 1 and step.id == json.loads(text).get("id")
    if step.proposal is not None:
        assert not step.replies and audience is not None and step.proposal.seat == audience
        proposed = core.propose(step.proposal, 0.0)
        if isinstance(proposed, dict):  # refused by the rules: nothing changed
            assert proposed["type"] == "reject" and snapshot(core) == before
        else:
            assert isinstance(proposed, Commit) and proposed.events[-1].action == step.proposal.action


def test_a_message_over_the_cap_is_refused_before_it_is_read():
    core, _ = core_for({"game": "oti", "mode": "hotseat", "rules": {"players": 2}}, max_message_bytes=256)
    text = json.dumps({"type": "act", "id": 1, "action": "ready " + "x" * 300})
    assert core.receive(0, text).replies[0]["code"] == "too_large"
    assert core.receive(0, "é" * 200).replies[0]["code"] == "too_large"  # bytes, not characters


def test_a_failed_store_puts_the_table_back_and_a_retry_then_works():
    core, _ = core_for({"game": "omi", "mode": "hotseat", "seed": 3})
    before = snapshot(core)
    step = core.receive(0, '{"type": "act", "id": "a", "action": "trump S"}')
    commit = core.propose(step.proposal, 1.0)
    assert isinstance(commit, Commit) and core.game.actions  # applied, not yet stored
    answer = core.abort(commit)
    assert answer == {"type": "reject", "id": "a", "code": "storage_error", "message": answer["message"]}
    assert snapshot(core) == before
    retry = core.receive(0, '{"type": "act", "id": "a", "action": "trump S"}')
    stored = core.propose(retry.proposal, 2.0)
    assert isinstance(stored, Commit)
    ack, out = core.confirm(stored)
    assert ack == {"type": "ack", "id": "a", "seq": 1} and out == []  # nobody connected
    assert core.receive(0, '{"type": "act", "id": "a", "action": "trump H"}').replies == [ack]


def test_a_refusal_is_remembered_for_its_id_and_a_stale_computer_move_is_dropped():
    core, _ = core_for({"game": "omi", "mode": "computer", "level": "easy", "seed": 9})
    core.connect(0)
    first = core.propose(core.receive(0, '{"type": "act", "id": 5, "action": "play 7S"}').proposal, 0.0)
    assert isinstance(first, dict) and first["code"] == "wrong_phase"
    assert core.receive(0, '{"type": "act", "id": 5, "action": "trump H"}').replies == [first]
    core.confirm(core.prepare(Proposal(0, "trump H", "human", '"x"', "x"), 0.0))
    core.confirm(core.prepare(Proposal(0, core.game.legal_actions(0)[0], "human", '"y"', "y"), 0.0))
    turn = core.bot_turn()
    assert turn is not None and turn.seat == 1 and turn.seq == 2 and turn.view["legal"]
    assert "hand" in turn.view and turn.view["seat"] == 1  # the seat's own view, nothing more
    stale = type(turn)(turn.seat, turn.seq - 1, turn.level, turn.seed, turn.view, turn.delay_s)
    assert core.bot_proposal(stale, turn.view["legal"][0]) is None
    assert core.bot_proposal(turn, "play 2C").action == turn.view["legal"][0]  # never stalls


def test_presence_grace_and_the_computer_taking_over():
    request = {"game": "oti", "mode": "friends", "rules": {"players": 2}, "bots": {"1": "easy"}}
    core, tokens = core_for(request)
    assert core.status == "playing" and core.needs_grace() == [0]
    core.connect(0)
    assert core.needs_grace() == []
    core.disconnect(0)
    assert core.needs_grace() == [0] and core.bot_turn().seat == 1  # seat 1 is a computer
    assert core.grace_over(0) and core.seats[0].away and core.level(0) == "medium"
    assert core.bot_turn() is not None, "a computer plays the seat now, nobody watching or not"
    assert core.legal(core.game, 0) == [], "a seat played by the computer is offered nothing"
    core.connect(0)  # back: the person plays again
    assert not core.seats[0].away and core.seat_of(tokens[0]) == 0
    with pytest.raises(TableError) as refused:
        core.seat_of("not a token")
    assert refused.value.code == "bad_token" and refused.value.status == 403


def test_the_views_count_down_the_grace_of_a_seat_left():
    # Everyone is told how long before a computer player takes a seat whose player left: whole
    # seconds left on the host's clock (which the device's need not agree with), not a time.
    now = [100.0]
    request = {"game": "oti", "mode": "friends", "rules": {"players": 2}, "bots": {"1": "easy"}}
    core, _ = core_for(request, clock=lambda: now[0])
    core.connect(None)  # a spectator, who is told
    core.connect(0)
    seats = dict(core.disconnect(0))[None]["view"]["seats"]
    assert seats[0]["grace_left"] == 30 and not seats[0]["connected"]
    assert "grace_left" not in seats[1], "a computer player's seat has no grace"
    assert core.grace_deadlines() == {0: 130.0}
    now[0] = 112.5
    assert core.seats_info(None)[0]["grace_left"] == 18
    assert core.connect(None) == [], "another spectator is no news, however the grace ran on"
    core.connect(0)  # back in time: no grace runs
    assert core.grace_deadlines() == {} and "grace_left" not in core.seats_info(None)[0]
    core.disconnect(0)
    assert core.seats_info(None)[0]["grace_left"] == 30, "a new grace period starts whole"
    now[0] = 150.0
    assert core.seats_info(None)[0]["grace_left"] == 0
    assert core.grace_over(0) and core.grace_deadlines() == {}
    assert "grace_left" not in core.seats_info(None)[0] and core.seats_info(None)[0]["away"]
    # Without a clock (a table of the device) no grace is timed nor shown.
    plain, _ = core_for(request)
    assert plain.needs_grace() == [0] and plain.grace_deadlines() == {}
    assert "grace_left" not in plain.seats_info(None)[0]


def test_a_table_loaded_back_keeps_who_is_away_and_the_rest_of_each_grace():
    # Rebuilt by another process (a restart, another node taking it over): the presence stored
    # with the table, on the wall clock, goes on on the new host's clock: a seat away is still
    # away, a grace has what was left of it, one past its end is over.
    plan = plan_table({"game": "omi", "mode": "friends", "bots": {"3": "easy"}}, PlanDefaults(bot_delay_ms=0))
    friends = [SeatRecord(i, "human", token_hash=secret_hash(f"token {i}"), name=f"P{i}") for i in (1, 2)]
    presence = [
        PresenceRecord(0, away=True),
        PresenceRecord(1, grace_ends=5012.4),
        PresenceRecord(2, grace_ends=4990.0),
    ]
    playing = replace(plan.table, status="playing")  # (grace_s 30)
    stored = StoredTable(playing, [plan.seats[0], *friends, plan.seats[3]], presence=presence)
    now = [100.0]  # this host's clock, at the wall clock's 5000.0
    core = TableCore(stored, clock=lambda: now[0])
    core.restore_presence(stored.presence, 5000.0, 100.0)
    assert core.grace_deadlines() == {1: pytest.approx(112.4)}, "what was left of seat 1's grace"
    seats = core.seats_info(None)
    assert seats[1]["grace_left"] == 13 and "grace_left" not in seats[0] and "grace_left" not in seats[2]
    assert [s["away"] for s in seats] == [True, False, True, False], "seat 2's grace ran out meanwhile"
    turn = core.bot_turn()
    assert turn is not None and turn.seat == 0 == core.game.to_move, "the computer plays seat 0 at once"
    assert core.computer_plays(2) and not core.computer_plays(1)
    # What the host stores again: the same, on the wall clock.
    assert core.presence_records(5001.0, 101.0) == [
        PresenceRecord(0, True), PresenceRecord(1, False, pytest.approx(5012.4)), PresenceRecord(2, True),
        PresenceRecord(3),
    ]
    now[0] = 112.5
    assert core.grace_over(1) and core.seats[1].away  # the rest ran out, not a whole grace
    core.connect(0)  # a player back takes the seat again, as ever
    assert not core.seats[0].away and core.presence_records(5013.0, 112.5)[0] == PresenceRecord(0)
    # A grace stored longer than the table's (the wall clock was set back) is cut to grace_s;
    # nothing stored: a whole grace, as before presence was stored.
    again = TableCore(stored, clock=lambda: 100.0)
    again.restore_presence([PresenceRecord(1, grace_ends=9000.0)], 5000.0, 100.0)
    assert again.grace_deadlines() == {0: 130.0, 1: 130.0, 2: 130.0}


def test_the_device_holds_every_seat_while_it_is_connected():
    core, tokens = core_for({"game": "omi", "mode": "computer"}, local=True)
    assert tokens == {0: tokens[0]}
    assert not core.present(0)
    core.connect(None)
    assert core.present(0) and core.table_info()["local"] is True and core.table_info()["grace_s"] == 0


def test_prepare_refuses_before_the_start_and_names_the_reason():
    core, _ = core_for({"game": "omi", "mode": "friends"})
    with pytest.raises(IllegalAction) as refused:
        core.prepare(Proposal(0, "trump H", "human"), 0.0)
    assert refused.value.code == "not_started"
