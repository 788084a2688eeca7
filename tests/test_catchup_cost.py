"""Catching up costs what was missed, never the whole game (hardening issue, item 4).

The table core keeps copies of the game at a few recent seqs; a catch-up (and any rebuild)
replays from the nearest one.  These tests count the engine's ``apply`` calls (no timing), check
that the answers are those of a replay from scratch, and that a kept copy never changes."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot.omi import OmiGame
from bistrot.tablecore.core import Proposal, TableCore
from bistrot.tablecore.plan import HUMAN, PlanDefaults, plan_table
from bistrot.tablecore.records import StoredTable
from tests.long_tables import endless_omi, hotseat_table

NO_SNAPSHOTS = 10**9
"""A snapshot interval no history reaches: that core replays from scratch, as before item 4."""
NO_BUDGET = 10**12
"""A catch-up byte budget no catch-up reaches: these tests count what a catch-up replays."""


def play(core: TableCore, actions: int, rng: random.Random) -> None:
    """Play ``actions`` random legal actions through propose and confirm, as a host does."""
    for _ in range(actions):
        if core.game.is_over:
            return
        seat = rng.choice(core.game.actors())
        action = rng.choice(core.game.legal_actions(seat))
        commit = core.propose(Proposal(seat, action, HUMAN), now=0.0)
        assert not isinstance(commit, dict), commit
        core.confirm(commit)


def from_scratch(core: TableCore) -> TableCore:
    """The same table loaded back by a core that keeps no snapshot."""
    stored = StoredTable(replace(core.table), [s.record for s in core.seats], list(core.history))
    return TableCore(
        stored,
        replay_limit=core.replay_limit,
        snapshot_every=NO_SNAPSHOTS,
        catch_up_bytes=core.catch_up_bytes,
    )


@pytest.fixture
def applies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the Omi engine's ``apply`` calls (one cell: the count)."""
    count = [0]
    original = OmiGame.apply

    def counted(self: OmiGame, action: str, seat: int | None = None) -> None:
        count[0] += 1
        original(self, action, seat)

    monkeypatch.setattr(OmiGame, "apply", counted)
    return count


@pytest.mark.slow
@pytest.mark.parametrize("history", [300, 3_000, 12_000])
def test_a_catch_up_replays_what_was_missed_whatever_the_history(history, applies):
    stored = hotseat_table(endless_omi(history, seed=history), seed=history)
    core = TableCore(stored, catch_up_bytes=NO_BUDGET)
    play(core, 150, random.Random(history))  # more than the replay limit: snapshots taken live too
    limit, every = core.replay_limit, core.snapshot_every
    for missed in (1, 2, 10, every, every + 1, limit - 1, limit):
        applies[0] = 0
        states = core.catch_up(0, core.seq - missed)
        assert [m["seq"] for m in states] == list(range(core.seq - missed + 1, core.seq + 1))
        assert applies[0] <= missed + every, (missed, applies[0])
    # Memory stays bounded per table: a few copies, whatever the length of the history.
    assert len(core.snapshot_seqs) <= limit // every + 2
    assert core.snapshot_seqs[0] <= core.seq - limit


def test_a_table_just_loaded_catches_up_as_cheaply(applies):
    stored = hotseat_table(endless_omi(5_000, seed=2), seed=2)
    core = TableCore(stored, catch_up_bytes=NO_BUDGET)
    for missed in range(1, core.replay_limit + 1):
        applies[0] = 0
        core.catch_up(None, core.seq - missed)
        assert applies[0] <= missed + core.snapshot_every, (missed, applies[0])


def test_a_failed_store_is_undone_without_replaying_the_game(applies):
    core = TableCore(hotseat_table(endless_omi(3_000, seed=4), seed=4))
    seat = core.game.to_move
    commit = core.propose(Proposal(seat, core.game.legal_actions(seat)[0], HUMAN), now=0.0)
    assert not isinstance(commit, dict)
    applies[0] = 0
    assert core.abort(commit)["code"] == "storage_error"
    assert applies[0] <= core.snapshot_every
    assert core.game == from_scratch(core).game


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["omi", "oti"]),
    seed=st.integers(0, 2**31),
    replay_limit=st.integers(0, 40),
    snapshot_every=st.integers(1, 20),
    rounds=st.lists(st.integers(1, 60), min_size=1, max_size=5),
    data=st.data(),
)
def test_catching_up_says_what_a_replay_from_scratch_says(
    game, seed, replay_limit, snapshot_every, rounds, data
):
    plan = plan_table({"game": game, "mode": "hotseat", "seed": seed}, PlanDefaults(bot_delay_ms=0))
    core = TableCore(
        StoredTable(plan.table, plan.seats), replay_limit=replay_limit, snapshot_every=snapshot_every
    )
    rng = random.Random(seed)
    for actions in rounds:
        play(core, actions, rng)
        reference = from_scratch(core)
        loaded = TableCore(  # the same table loaded back, keeping snapshots: built at load
            StoredTable(replace(core.table), [s.record for s in core.seats], list(core.history)),
            replay_limit=replay_limit,
            snapshot_every=snapshot_every,
        )
        for _ in range(3):
            since = data.draw(st.integers(max(0, core.seq - replay_limit - 2), core.seq), label="since")
            audience = data.draw(st.sampled_from([*range(core.players), None]), label="audience")
            expected = reference.catch_up(audience, since)
            assert core.catch_up(audience, since) == expected
            assert loaded.catch_up(audience, since) == expected
        assert core.rebuilt(core.seq) == core.game == reference.game


def test_a_kept_snapshot_never_changes():
    # Copy out: catching up (or changing a rebuilt game) changes a copy, never the kept game;
    # copy in: playing on changes the table's game, never the copy kept of it.
    core = TableCore(hotseat_table(endless_omi(1_000, seed=6), seed=6), catch_up_bytes=NO_BUDGET)
    rng = random.Random(6)
    play(core, 40, rng)  # snapshots are taken as the game goes on, from the table's own game
    since = core.seq - 20
    first = core.catch_up(0, since)
    assert core.catch_up(0, since) == first
    changed = core.rebuilt(since)
    changed.apply(changed.legal_actions()[0])
    play(core, 10, rng)
    again = core.catch_up(0, since)
    assert again[: len(first)] == first
    assert again == from_scratch(core).catch_up(0, since)


def test_bad_arguments_are_refused_and_named():
    stored = hotseat_table(endless_omi(40, seed=8), seed=8)
    with pytest.raises(ValueError, match="snapshot_every is a number of seqs, at least 1, not 0"):
        TableCore(stored, snapshot_every=0)
    core = TableCore(stored)
    for seq in (-1, 41):
        with pytest.raises(ValueError, match=f"has seqs 0 to 40, not {seq}"):
            core.rebuilt(seq)


def test_a_reconnect_far_back_in_a_long_match_costs_one_state_not_a_megabyte():
    # Issue 37, item 14: each state of a long Omi match repeats its history of hands (16 KB
    # and more), so 64 missed states were a megabyte for one reconnect.
    core = TableCore(hotseat_table(endless_omi(4_488, seed=14), seed=14))
    fresh = core.catch_up(0, None)
    size = len(json.dumps(fresh[0], separators=(",", ":")))
    assert size > 10_000  # the case of the issue: large states
    for missed in (core.replay_limit, 8, 5):
        sent = core.catch_up(0, core.seq - missed)
        total = sum(len(json.dumps(m, separators=(",", ":"))) for m in sent)
        assert total <= max(core.catch_up_bytes, size), (missed, total)
        assert sent == fresh  # over the budget: one fresh state, as when too far back
    # Within the budget the missed states still come one by one, each with its action.
    for missed in (1, 2, 3):
        states = core.catch_up(0, core.seq - missed)
        assert [m["seq"] for m in states] == list(range(core.seq - missed + 1, core.seq + 1))
        assert all(m["last"] is not None for m in states)


def test_the_byte_budget_is_the_core_s_setting():
    stored = hotseat_table(endless_omi(300, seed=5), seed=5)
    generous = TableCore(stored, catch_up_bytes=NO_BUDGET)
    assert [m["seq"] for m in generous.catch_up(0, 290)] == list(range(291, 301))
    starved = TableCore(stored, catch_up_bytes=0)
    assert starved.catch_up(0, 290) == starved.catch_up(0, None)
