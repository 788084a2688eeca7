"""Properties over many random Oti games: no view leaks a hidden card, refusals change
nothing, records round-trip, and every game ends."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot.cards import CARD_NAMES
from bistrot.oti import IllegalAction, OtiGame, OtiRules
from bistrot.oti.game import MAX_PICKUPS
from bistrot.oti.values import FULL_DECK

CARD_PATTERN = re.compile(r"\b[2-9TJQKA][SHDC]\b")
#: Every game ends by then: at most MAX_PICKUPS pickups, and between two of them at most every
#: card is played (or turned) once, with the swap before play (docs/oti.md, rule 15).
MAX_ACTIONS = (MAX_PICKUPS + 1) * 60

rules_strategy = st.builds(
    OtiRules,
    players=st.integers(2, 5),
    ten_plays_again=st.booleans(),
    voluntary_pickup=st.booleans(),
    play_to_last=st.booleans(),
)


def cards_in(value: Any) -> set[str]:
    """Every card name written anywhere in a JSON-ready value."""
    return set(CARD_PATTERN.findall(json.dumps(value)))


def names(mask: int) -> set[str]:
    return {CARD_NAMES[c] for c in range(52) if mask >> c & 1}


def choose(game: OtiGame, seat: int | None, rng: random.Random) -> str:
    """A random legal action; picking up by choice and swapping are kept rare so games move on."""
    legal = game.legal_actions(seat)
    plays = [a for a in legal if a not in ("pickup", "ready") and not a.startswith("swap")]
    if plays and rng.random() < 0.95:
        return rng.choice(plays)
    if "ready" in legal and rng.random() < 0.7:
        return "ready"
    return rng.choice(legal)


def check_views(game: OtiGame, seen: int, history_seen: int) -> None:
    """No seat (nor a spectator) is shown a card it may not see."""
    n = game.rules.players
    face_down = {CARD_NAMES[c] for cards in game.down for c in cards}
    draw = {CARD_NAMES[c] for c in game.draw[game.draw_pos:]}
    public = names(seen)
    for seat in [*range(n), None]:
        view = game.view(seat)
        own = set(view["hand"])
        if seat is not None:
            assert own == names(game.hands[seat])
        secret = face_down | draw
        for other in range(n):
            if other != seat:
                secret |= names(game.hands[other]) - public
        assert not own & (face_down | draw)
        fields = {k: v for k, v in view.items() if k != "history"}
        fields["history"] = view["history"][history_seen:]
        shown = cards_in(fields)
        assert not shown & secret, (seat, shown & secret)
        assert shown <= public | own
        if not game.is_over:
            assert "deal_code" not in view and game.deal_code not in str(fields)


def play_random(game: OtiGame, rng: random.Random, check: bool) -> None:
    n = game.rules.players
    seen = FULL_DECK & 0
    for up in game.up:
        seen |= up
    history_seen = 0
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < MAX_ACTIONS, "the game did not end"
        if game.phase == "swap":
            seat = rng.choice([s for s in range(n) if not game.ready[s]])
        else:
            seat = game.to_move
        action = choose(game, seat, rng)
        flipped = game.down[seat][0] if action == "flip" else None
        game.apply(action, seat=seat)
        if flipped is not None:
            seen |= 1 << flipped
        for up in game.up:
            seen |= up
        for card in game.pile:
            seen |= 1 << card
        seen |= game.burnt
        # every view of the first 300 actions, then one in 25 (long random games are slow)
        if check and (steps < 300 or steps % 25 == 0 or game.is_over):
            check_views(game, seen, history_seen)
            history_seen = len(game.history)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**55 - 1), policy=st.integers(0, 2**32))
def test_no_view_leaks_a_hidden_card_and_every_game_ends(rules, seed, policy):
    game = OtiGame.new(rules, seed=seed)
    play_random(game, random.Random(policy), check=True)
    assert game.winner is not None and game.end_reason in ("out", "repetition")
    if rules.play_to_last:
        assert sorted(game.ranking) == list(range(rules.players))
    if game.end_reason == "out":
        assert game.cards_left(game.winner) == 0
    # every card is somewhere, exactly once
    total = sum(game.cards_left(s) for s in range(rules.players))
    assert total + len(game.pile) + game.burnt.bit_count() + game.draw_left == 52


def test_a_game_that_varies_its_loops_stops_at_its_500th_pickup():
    # Random play on deal 215 (two players) picks up 500 times without a position coming back a
    # third time; it used to go on past 20,000 actions on a deal CI's random search found.
    rng = random.Random(215)
    rules = OtiRules(players=rng.choice([2, 3, 4]))
    game = OtiGame.new(rules, seed=215)
    play_random(game, rng, check=False)
    assert game.pickups == MAX_PICKUPS and max(game.seen.values()) < 3
    assert game.end_reason == "repetition" and game.history[-1]["action"] == "stop"
    assert game.winner == min(range(rules.players), key=lambda s: (game.cards_left(s), s))
    back = OtiGame.from_record(game.record())
    assert back == game and back.is_over


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**55 - 1), policy=st.integers(0, 2**32))
def test_every_game_ends_and_records_round_trip(rules, seed, policy):
    game = OtiGame.new(rules, seed=seed)
    play_random(game, random.Random(policy), check=False)
    back = OtiGame.from_record(game.record())
    assert back == game and back.view(None) == game.view(None)
    assert OtiGame.replay(rules, game.deal_code, game.actions) == game


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**55 - 1), policy=st.integers(0, 2**32),
       stop=st.floats(0, 1))
def test_refused_actions_change_nothing_and_legal_ones_are_accepted(rules, seed, policy, stop):
    rng = random.Random(policy)
    game = OtiGame.new(rules, seed=seed)
    play_random(game, rng, check=False)
    cut = int(stop * len(game.actions))
    game = OtiGame.replay(rules, seed, game.actions[:cut])
    if game.is_over:
        return
    before = game.record(), [game.view(s) for s in range(rules.players)]
    seat = game.to_move if game.to_move is not None else rng.randrange(rules.players)
    legal = set(game.legal_actions(seat))
    tries = ["pickup", "flip", "ready"] + [f"play {c}" for c in rng.sample(CARD_NAMES, 8)]
    pairs = zip(rng.sample(CARD_NAMES, 4), rng.sample(CARD_NAMES, 4), strict=True)
    tries += [f"swap {a} {b}" for a, b in pairs]
    for action in tries:
        if action in legal:
            continue
        try:
            game.apply(action, seat=seat)
        except IllegalAction:
            assert (game.record(), [game.view(s) for s in range(rules.players)]) == before
        else:
            raise AssertionError(f"{action!r} was accepted but not listed as legal")
    for action in sorted(legal):
        trial = game.copy()
        trial.apply(action, seat=seat)
