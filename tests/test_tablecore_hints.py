"""Hints (the table core): what the strongest computer player would do, asked by a seat of a game
against the computer, from that seat's own view only; refused elsewhere with nothing changed;
counted once per seq and recorded in the result."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from bistrot import bots
from bistrot.omi import OmiGame, OmiRules
from bistrot.tablecore.core import HintAsk, HintCommit, TableCore
from bistrot.tablecore.plan import PlanDefaults, plan_table
from bistrot.tablecore.records import StoredTable

DEFAULTS = PlanDefaults(bot_delay_ms=0)
#: The hard players with a fixed, small amount of search: quick and reproducible.
QUICK: dict[str, dict[str, Any]] = {"omi": {"samples": 6}, "oti": {"iterations": 40}}


def core_for(request: dict[str, Any], challenge: str | None = None) -> TableCore:
    plan = plan_table(request, DEFAULTS, challenge=challenge)
    return TableCore(StoredTable(plan.table, plan.seats))


def snapshot(core: TableCore) -> tuple[Any, ...]:
    """Everything a refused hint must leave as it was."""
    return (core.seq, core.game.record(), core.status, copy.deepcopy([s.record for s in core.seats]),
            dict(core.last_hint), core.table.result)


def ask(core: TableCore, seat: int | None, id: Any = 1) -> Any:
    return core.receive(seat, json.dumps({"type": "hint", "id": id}))


def computer_move(core: TableCore) -> bool:
    """Play the computer's move due, if any (an easy player: quick)."""
    turn = core.bot_turn()
    if turn is None:
        return False
    action = bots.make_bot(core.table.game, "easy", seed=turn.seed).act(turn.view)
    proposal = core.bot_proposal(turn, action)
    assert proposal is not None
    commit = core.propose(proposal, 0.0)
    assert not isinstance(commit, dict)
    core.confirm(commit)
    return True


def human_move(core: TableCore, seat: int, action: str | None = None) -> None:
    """The person of ``seat`` plays ``action`` (by default what an easy player would: it ends
    a game, where a random or first legal Oti action may swap or pick up for ever)."""
    if action is None:
        action = bots.make_bot(core.table.game, "easy", seed=core.seq).act(core.view(core.game, seat))
    step = core.receive(seat, json.dumps({"type": "act", "id": f"m{core.seq}", "action": action}))
    assert step.proposal is not None, step.replies
    commit = core.propose(step.proposal, 0.0)
    assert not isinstance(commit, dict), commit
    core.confirm(commit)


def hinted(core: TableCore, seat: int, id: Any = 1) -> dict[str, Any]:
    """Ask for a hint and answer it as a host does: computed from the ask alone (the strongest
    computer player, few layouts: quick), then counted and "stored"."""
    step = ask(core, seat, id)
    if step.hint is None:
        assert len(step.replies) == 1
        return step.replies[0]
    assert step.replies == [] and step.id == id
    made = bots.make_bot(core.table.game, step.hint.level, seed=step.hint.seed, **QUICK[core.table.game])
    commit = core.hint_ready(step.hint, made.act(step.hint.view))
    assert isinstance(commit, HintCommit)
    return core.hint_stored(commit, id)


# ----------------------------------------------------------------------------- refusals


def started_friends_table() -> TableCore:
    plan = plan_table({"game": "omi", "mode": "friends"}, DEFAULTS)
    core = TableCore(StoredTable(plan.table, plan.seats))
    for _ in range(3):
        record, _token, status = core.join(plan.invite, None)
        core.seats_saved([record], status)
    assert core.status == "playing"
    return core


@pytest.mark.parametrize("where", ["friends", "hotseat", "challenge"])
def test_hints_are_refused_at_friends_hotseat_and_challenge_tables_with_nothing_changed(where: str) -> None:
    if where == "friends":
        core = started_friends_table()
    elif where == "hotseat":
        core = core_for({"game": "omi", "mode": "hotseat", "seed": 3})
    else:
        core = core_for({"game": "omi", "mode": "computer", "seed": 3}, challenge="c1")
    assert core.legal(core.game, 0)  # seat 0 is to choose trump: a hint would otherwise be given
    assert core.table_info()["hints"] is False
    before = snapshot(core)
    step = ask(core, 0, "h1")
    assert step.hint is None and step.proposal is None
    assert [(r["type"], r["id"], r["code"]) for r in step.replies] == [("reject", "h1", "hints_off")]
    assert snapshot(core) == before


def test_hints_are_refused_out_of_turn_to_spectators_and_after_the_end() -> None:
    core = core_for({"game": "omi", "mode": "computer", "level": "easy", "rules": {"target": 1}, "seed": 4})
    assert core.table_info()["hints"] is True
    before = snapshot(core)
    assert ask(core, None).replies[0]["code"] == "spectator"
    assert snapshot(core) == before
    human_move(core, 0)  # trump chosen: seat 0 leads
    human_move(core, 0)  # and now seat 1, a computer player, is to play
    before = snapshot(core)
    assert ask(core, 0, 7).replies == [{"type": "reject", "id": 7, "code": "not_your_turn",
                                        "message": "a hint is for your own turn"}]
    assert snapshot(core) == before
    while core.status != "over":
        if not computer_move(core):
            human_move(core, 0)
    before = snapshot(core)
    assert ask(core, 0).replies[0]["code"] == "game_over"
    assert snapshot(core) == before


def test_a_hint_for_a_position_that_moved_on_is_stale_and_counts_nothing() -> None:
    core = core_for({"game": "omi", "mode": "computer", "level": "easy", "seed": 8})
    step = ask(core, 0)
    assert isinstance(step.hint, HintAsk)
    human_move(core, 0)  # the player chose trump while the hint was being worked out
    answer = core.hint_ready(step.hint, "trump S")
    assert isinstance(answer, dict) and answer["code"] == "hint_stale"
    assert core.seats[0].record.hints == 0


# ----------------------------------------------------------------------------- counting


def test_a_hint_is_counted_once_per_seq_and_given_again_from_memory() -> None:
    core = core_for({"game": "omi", "mode": "computer", "level": "easy", "seed": 21})
    first = hinted(core, 0, "a")
    assert first["type"] == "hint" and first["seq"] == 0 and first["action"] in core.legal(core.game, 0)
    assert core.seats[0].record.hints == 1
    again = ask(core, 0, "b")
    assert again.hint is None  # not computed again
    assert again.replies == [{**first, "id": "b"}]
    assert core.seats[0].record.hints == 1
    human_move(core, 0, first["action"])
    while computer_move(core):
        pass
    assert core.legal(core.game, 0)
    second = hinted(core, 0, "c")
    assert second["seq"] == core.seq > 0 and second["action"] in core.legal(core.game, 0)
    assert core.seats[0].record.hints == 2


def test_a_hint_is_stored_before_it_counts_a_failed_store_counts_nothing() -> None:
    core = core_for({"game": "omi", "mode": "computer", "level": "easy", "seed": 22})
    step = ask(core, 0)
    assert step.hint is not None
    commit = core.hint_ready(step.hint, "trump D")
    assert isinstance(commit, HintCommit) and commit.record.hints == 1
    # The host could not store the record: it never calls hint_stored, and nothing changed.
    assert core.seats[0].record.hints == 0 and core.last_hint == {}
    assert ask(core, 0).hint is not None  # asked again, computed again


def test_the_result_records_the_hints_each_seat_used() -> None:
    core = core_for({"game": "oti", "mode": "computer", "level": "easy", "rules": {"players": 3}, "seed": 5})
    used = 0
    while core.status != "over":
        if computer_move(core):
            continue
        if used < 3:
            used += 1
            hint = hinted(core, 0)
            assert hint["action"] in core.legal(core.game, 0)
        human_move(core, 0)
    assert core.table.result is not None and core.table.result["hints"] == {"0": 3}
    assert core.table.result["winner"] == core.game.summary()["winner"]
    assert core.table_info()["hints_used"] == {"0": 3}


def test_a_game_without_hints_has_the_plain_summary_as_result() -> None:
    core = core_for({"game": "oti", "mode": "computer", "level": "easy", "rules": {"players": 2}, "seed": 6})
    while core.status != "over":
        if not computer_move(core):
            human_move(core, 0)
    assert core.table.result == core.game.summary()
    assert "hints_used" not in core.table_info()


# ----------------------------------------------------------------------------- the seat's view only


def test_a_hint_is_computed_from_the_seats_own_view_only() -> None:
    # After the trump choice, seat 0 (the human chooser) sees its 8 cards and nothing of the
    # others': deal the others' 24 cards among them at random and its view, so its hint, is the
    # same.  The ask hands the computation that view and nothing else.
    for seed in range(3):
        core = core_for({"game": "omi", "mode": "computer", "level": "easy", "seed": 100 + seed})
        human_move(core, 0)
        assert core.legal(core.game, 0)  # the chooser leads
        step = ask(core, 0)
        hint = step.hint
        assert isinstance(hint, HintAsk)
        assert hint.view == core.game.view(0) and hint.view["seat"] == 0
        assert not {"hands", "seed", "deal_code"} & set(hint.view)
        dealt = [list(h) for h in core.game.dealt]
        others = [c for s in (1, 2, 3) for c in dealt[s]]
        random.Random(seed).shuffle(others)
        moved = [dealt[0], others[:8], others[8:16], others[16:]]
        assert moved != dealt
        other = OmiGame.from_deal(OmiRules(), moved, core.game.dealer)
        other.apply(core.history[0].action, seat=0)
        assert other.view(0) == hint.view
        made = [bots.make_bot("omi", hint.level, seed=hint.seed, **QUICK["omi"]) for _ in range(2)]
        answer = core.hint_stored(core.hint_ready(hint, made[0].act(hint.view)), 1)  # type: ignore[arg-type]
        assert answer["action"] == made[1].act(other.view(0))
