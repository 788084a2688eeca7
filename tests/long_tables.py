"""Tables with a long history, for the catch-up tests and ``bench/catchup.py``: a legal Omi
match of any length, and the hot-seat table that has stored it."""

from __future__ import annotations

import random

from bistrot.omi import OmiGame, OmiRules
from bistrot.tablecore.plan import OVER, PLAYING, PlanDefaults, plan_table
from bistrot.tablecore.records import EventRecord, StoredTable


def endless_omi(events: int, seed: int) -> list[tuple[int, str]]:
    """The first ``events`` actions of a legal Omi match that never ends: random play, each
    hand kept only once a random try ties it 4-4 (a tied hand scores nothing, it only carries
    a token), so no side ever reaches the target.

    >>> actions = endless_omi(100, seed=1)
    >>> len(actions), OmiGame.replay(OmiRules(), 1, actions).is_over
    (100, False)
    """
    rng = random.Random(seed)
    game = OmiGame.new(OmiRules(), seed=seed)
    while len(game.actions) < events:
        hand = game.hand_index
        while True:
            attempt = game.copy()
            while attempt.hand_index == hand and not attempt.is_over:
                attempt.apply(rng.choice(attempt.legal_actions()))
            if not attempt.is_over and attempt.results[-1]["side"] is None:
                break
        game = attempt
    return list(game.actions[:events])


def hotseat_table(actions: list[tuple[int, str]], seed: int) -> StoredTable:
    """A hot-seat Omi table (every seat a person's) that has stored ``actions``."""
    plan = plan_table({"game": "omi", "mode": "hotseat", "seed": seed}, PlanDefaults(bot_delay_ms=0))
    plan.table.seq, plan.table.status = len(actions), PLAYING
    events = [EventRecord(i, seat, text, "human", None, 0.0) for i, (seat, text) in enumerate(actions, 1)]
    return StoredTable(plan.table, plan.seats, events)


def finished_omi(events: int, seed: int) -> StoredTable:
    """A hot-seat Omi table whose match is over after more than ``events`` actions: the
    endless match's first ``events``, then random play to the end (what an attacker builds to
    make a replay costly).

    >>> stored = finished_omi(200, seed=3)
    >>> stored.table.status, stored.table.seq > 200, stored.table.result is not None
    ('over', True, True)
    """
    rng = random.Random(seed)
    game = OmiGame.replay(OmiRules(), seed, endless_omi(events, seed))
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    stored = hotseat_table(list(game.actions), seed)
    stored.table.status, stored.table.result = OVER, game.summary()
    return stored
