"""The table core driven alone through its one seam (bistrot.tablecore.effects): inputs in,
typed effects out, with a fake clock and a store that is a list — no host, no I/O.

What every host relies on: nothing is delivered or acknowledged before the core has been told
it is stored; a refused store changes nothing; a computer move, a hint, a chat line and a grace
period each answer with the effects the hosts interpret alike."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot.tablecore.core import TableCore
from bistrot.tablecore.effects import (
    BOT_RETRY_S,
    BotMove,
    ChatFailed,
    ChatSaved,
    Deliver,
    Effect,
    GraceOver,
    HintFailed,
    HintReady,
    HintSaved,
    Input,
    Message,
    Reply,
    Reschedule,
    RetryLater,
    StoreActions,
    StoreChat,
    Stored,
    StoreFailed,
    StoreHint,
    Think,
    handle,
)
from bistrot.tablecore.plan import PlanDefaults, plan_table
from bistrot.tablecore.records import StoredTable
from test_tablecore import snapshot, texts


class Clock:
    """The host's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def core_for(request: dict[str, Any], clock: Clock | None = None) -> tuple[TableCore, dict[int, str]]:
    plan = plan_table(request, PlanDefaults(bot_delay_ms=0, grace_s=30.0))
    return TableCore(StoredTable(plan.table, plan.seats), clock=clock), plan.tokens


def kinds(effects: list[Effect]) -> list[str]:
    return [type(e).__name__ for e in effects]


def act(seat: int, action: str, id: int) -> str:
    return json.dumps({"type": "act", "id": id, "action": action})


class Host:
    """The smallest interpreter of effects: a list for a store (which may be told to refuse),
    what each audience was sent, and checks that the order of effects is the hosts' contract."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.stored: list[int] = []  # the seqs stored, in order
        self.sent: list[tuple[str, Any, dict[str, Any]]] = []  # ("reply" | "deliver", audience, message)
        self.refuse = False

    def run(self, event: Input, audience: int | None = None) -> None:
        pending = list(handle(self.core, event))
        while pending:
            effect = pending.pop(0)
            match effect:
                case Reply(message):
                    self.sent.append(("reply", audience, message))
                case Deliver(out):
                    for to, message in out:
                        if message["type"] == "state":  # never a state of a seq not stored
                            assert message["seq"] <= (self.stored[-1] if self.stored else 0)
                        shown = {"type": message["type"], "seq": message.get("seq")}
                        self.sent.append(("deliver", to, shown))
                case StoreActions(commit):
                    assert not pending, "a store is the last effect of its list"
                    if self.refuse:
                        pending = handle(self.core, StoreFailed(commit))
                    else:
                        self.stored += [e.seq for e in commit.events]
                        pending = handle(self.core, Stored(commit))
                case Reschedule() | RetryLater() | StoreChat() | Think() | StoreHint():
                    pass


def test_an_action_is_stored_then_acknowledged_then_fanned_out():
    core, _ = core_for({"game": "omi", "level": "easy", "seed": 5})
    core.connect(0)
    [store] = handle(core, Message(0, act(0, "trump H", 1), now=12.5))
    assert isinstance(store, StoreActions) and core.seq == 0, "applied, not yet kept"
    assert [(e.seq, e.actor, e.action, e.client_id, e.time) for e in store.commit.events] == [
        (1, 0, "trump H", "1", 12.5)
    ]
    answer = handle(core, Stored(store.commit))
    assert kinds(answer) == ["Reply", "Deliver", "Reschedule"] and core.seq == 1
    assert answer[0] == Reply({"type": "ack", "id": 1, "seq": 1})
    assert [(to, m["type"], m["seq"]) for to, m in answer[1].out] == [(0, "state", 1)]
    # the same id again: acknowledged from memory, nothing to store
    again = handle(core, Message(0, act(0, "trump S", 1), now=13.0))
    assert again == [Reply({"type": "ack", "id": 1, "seq": 1})]


def test_a_refused_store_changes_nothing_and_a_computer_move_is_tried_again():
    core, _ = core_for({"game": "omi", "level": "easy", "seed": 5})
    before = snapshot(core)
    [store] = handle(core, Message(0, act(0, "trump H", 7), now=1.0))
    [refused] = handle(core, StoreFailed(store.commit))
    assert isinstance(refused, Reply) and refused.message["code"] == "storage_error"
    assert refused.message["id"] == 7
    assert snapshot(core) == before
    # the person plays until it is a computer's turn: its move, refused, is tried again later
    n = 8
    while core.bot_turn() is None:
        [store] = handle(core, Message(0, act(0, core.game.legal_actions(0)[0], n), now=1.0))
        handle(core, Stored(store.commit))
        n += 1
    turn = core.bot_turn()
    assert turn is not None and turn.seat != 0
    before = snapshot(core)
    [bot_store] = handle(core, BotMove(turn, turn.view["legal"][0], now=2.0))
    assert bot_store.commit.proposal.by == "computer"
    assert handle(core, StoreFailed(bot_store.commit)) == [RetryLater(BOT_RETRY_S)]
    assert snapshot(core) == before
    [bot_store] = handle(core, BotMove(turn, "a card it does not hold", now=2.0))  # a faulty bot
    assert bot_store.commit.events[0].action == turn.view["legal"][0]
    assert kinds(handle(core, Stored(bot_store.commit))) == ["Deliver", "Reschedule"]  # no ack
    assert handle(core, BotMove(turn, turn.view["legal"][0], now=3.0)) == [Reschedule()], "a stale turn"


def test_chat_is_stored_before_anyone_sees_it():
    core, _ = core_for({"game": "oti", "mode": "friends", "rules": {"players": 2}, "bots": {"1": "easy"}})
    core.connect(0)
    core.connect(None)
    [store] = handle(core, Message(0, json.dumps({"type": "chat", "id": "c1", "text": " hello "}), now=5.0))
    assert isinstance(store, StoreChat) and store.id == "c1" and store.line.text == "hello"
    assert not core.chat, "not kept before it is stored"
    [failed] = handle(core, ChatFailed("c1"))
    assert failed.message["code"] == "storage_error" and not core.chat
    [told] = handle(core, ChatSaved(store.line))
    assert isinstance(told, Deliver) and {to for to, _ in told.out} == {0, None}  # everyone connected
    assert {m["type"] for _, m in told.out} == {"chat"} and list(core.chat) == [store.line]
    spectator = handle(core, Message(None, json.dumps({"type": "chat", "id": 2, "text": "hi"}), now=5.0))
    assert kinds(spectator) == ["Reply"] and spectator[0].message["code"] == "spectator"


def test_a_hint_is_thought_elsewhere_counted_then_told_to_the_asker_only():
    core, _ = core_for({"game": "omi", "level": "easy", "seed": 5})
    [think] = handle(core, Message(0, json.dumps({"type": "hint", "id": 3}), now=0.0))
    assert isinstance(think, Think) and think.id == 3 and think.ask.seat == 0
    assert think.ask.view == core.view(core.game, 0), "the seat's own view, nothing more"
    [failed] = handle(core, HintReady(think.ask, None, 3))
    assert failed.message["code"] == "hint_failed"
    [store] = handle(core, HintReady(think.ask, "trump H", 3))
    assert isinstance(store, StoreHint) and store.commit.record.hints == 1
    assert core.seats[0].record.hints == 0, "counted only once stored"
    assert handle(core, HintFailed(3))[0].message["code"] == "storage_error"
    assert handle(core, HintSaved(store.commit, 3)) == [
        Reply({"type": "hint", "id": 3, "seq": 0, "action": "trump H"})
    ]
    assert core.seats[0].record.hints == 1
    # asked again at the same seq: from memory; and a hint worked out after the game moved on is stale
    again = handle(core, Message(0, json.dumps({"type": "hint", "id": 4}), now=0.0))
    assert again[0].message["type"] == "hint"
    [store] = handle(core, Message(0, act(0, "trump H", 9), now=0.0))
    handle(core, Stored(store.commit))
    assert handle(core, HintReady(think.ask, "trump H", 5))[0].message["code"] == "hint_stale"


def test_a_grace_period_on_the_fake_clock_hands_the_seat_to_the_computer():
    clock = Clock()
    request = {"game": "oti", "mode": "friends", "rules": {"players": 2}, "bots": {"1": "easy"}}
    core, _ = core_for(request, clock)
    core.connect(0)
    core.connect(None)
    core.disconnect(0)
    assert core.grace_deadlines() == {0: 1030.0}
    clock.now = 1012.0
    assert core.seats_info(None)[0]["grace_left"] == 18
    core.connect(0)
    assert handle(core, GraceOver(0)) == [], "back in time: nothing happens"
    core.disconnect(0)
    clock.now = 1042.0
    effects = handle(core, GraceOver(0))
    assert kinds(effects) == ["Deliver", "Reschedule"] and core.seats[0].away
    assert [to for to, _ in effects[0].out] == [None], "everyone connected is told: the spectator"
    assert effects[0].out[0][1]["view"]["seats"][0]["away"]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, audience=st.sampled_from([0, 1, None]))
def test_any_text_is_answered_at_once_or_ends_in_a_store(text, audience):
    core, _ = core_for({"game": "omi", "mode": "hotseat", "seed": 7})
    before = snapshot(core)
    effects = handle(core, Message(audience, text, now=0.0))
    assert effects, "every text is answered"
    assert not any(isinstance(e, Deliver) for e in effects), "nothing is sent to others before a store"
    *first, last = effects
    assert all(isinstance(e, Reply) for e in first)
    if isinstance(last, StoreActions):
        handle(core, StoreFailed(last.commit))
    assert snapshot(core) == before


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_through_the_seam_never_send_a_state_before_it_is_stored(seed):
    core, _ = core_for({"game": "omi", "mode": "hotseat", "rules": {"target": 2}, "seed": seed,
                        "bots": {"1": "easy", "3": "easy"}})
    for audience in (0, 2, None):
        core.connect(audience)
    host, rng, n = Host(core), random.Random(seed), 0
    while not core.game.is_over:
        turn = core.bot_turn()
        if turn is not None:
            host.refuse = False
            host.run(BotMove(turn, turn.view["legal"][0], now=float(n)))
            continue
        seat = next(s for s in (0, 2) if core.game.legal_actions(s))
        n += 1
        host.refuse = n % 7 == 0  # now and then the store refuses: nothing changes, try again
        host.run(Message(seat, act(seat, rng.choice(core.game.legal_actions(seat)), n), now=float(n)), seat)
    assert host.stored == list(range(1, core.seq + 1))
    acks = [m for kind, _, m in host.sent if kind == "reply" and m["type"] == "ack"]
    refusals = [m for kind, _, m in host.sent if kind == "reply" and m.get("code") == "storage_error"]
    assert acks and refusals and core.status == "over"
    spectator = [m["seq"] for kind, to, m in host.sent
                 if kind == "deliver" and to is None and m["type"] == "state"]
    assert spectator == list(range(1, core.seq + 1)), "one state per stored seq, in order, none missed"
