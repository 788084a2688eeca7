"""Both engines keep one contract (bistrot.engine.Game): construction, the action log, actors,
replays and records from any point, summaries, and views that hold no hidden card."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot.cards import CARD_NAMES, bits
from bistrot.engine import Game, GameBase
from bistrot.omi import OmiGame, OmiRules
from bistrot.oti import OtiGame, OtiRules
from tests.test_omi_properties import hidden_from

CARD_TEXT = re.compile(r"\b[2-9TJQKA][SHDC]\b")
MAX_ACTIONS = 3000

GAMES: list[tuple[type[Any], Any]] = [
    (OmiGame, OmiRules(target=2)),
    (OmiGame, OmiRules(target=1, players=3)),
    (OtiGame, OtiRules(players=3)),
    (OtiGame, OtiRules(players=2, play_to_last=True, voluntary_pickup=True)),
]
IDS = ["omi", "omi3", "oti3", "oti2"]


def takes_a_game(game: Game[Any]) -> list[int]:
    """Type-checks that each engine is a Game (mypy would refuse the calls below otherwise)."""
    return game.actors()


def play(game: Any, rng: random.Random, steps: int | None = None) -> None:
    """Random legal actions by the seats that may act, until the end or ``steps`` actions."""
    done = 0
    while not game.is_over and (steps is None or done < steps) and done < MAX_ACTIONS:
        seat = rng.choice(game.actors())
        legal = game.legal_actions(seat)
        # keep Oti's optional pickups and swaps rare, so random games move on
        quick = [a for a in legal if a not in ("pickup", "ready") and not a.startswith("swap")]
        if quick and rng.random() < 0.95:
            legal = quick
        elif "ready" in legal and rng.random() < 0.7:
            legal = ["ready"]
        game.apply(rng.choice(legal), seat=seat)
        done += 1


def hidden(game: Any, seat: int | None) -> set[str]:
    """The cards ``seat`` may not see now."""
    if isinstance(game, OmiGame):
        return hidden_from(game, seat)
    secret = {c for cards in game.down for c in cards} | set(game.draw[game.draw_pos :])
    for other in range(game.players):
        if other != seat:
            secret |= set(bits(game.hands[other] & ~game.known[other]))
    return {CARD_NAMES[c] for c in secret}


def shown(view: Any) -> set[str]:
    """The cards a view names, leaving out the last trick of an earlier Omi hand (played face
    up: public, though its cards may sit in new hands now)."""
    last = view.get("last_trick")
    if last and last["hand"] != view["hand_number"]:
        view = {**view, "last_trick": None}
    return set(CARD_TEXT.findall(json.dumps(view)))


@pytest.mark.parametrize(("cls", "rules"), GAMES, ids=IDS)
def test_each_engine_is_a_game_on_the_shared_base(cls, rules):
    game = cls.new(rules, seed=5)
    assert isinstance(game, Game) and isinstance(game, GameBase)
    assert takes_a_game(game) == game.actors()
    assert game.players == rules.players and game.rules == rules and game.seed == 5
    assert game.deal_code == cls.new(rules, seed=game.deal_code).deal_code
    assert game.to_move is None or game.actors() == [game.to_move]
    assert not game.is_over and game.winner is None and game.actions == []
    assert cls.new(rules, seed=5) == game and hash(cls.new(rules, seed=5)) == hash(game)
    assert repr(game).startswith(f"<{cls.__name__} {game.deal_code} ")


@pytest.mark.parametrize(("cls", "rules"), GAMES, ids=IDS)
def test_the_action_log_is_seat_and_text_pairs(cls, rules):
    game = cls.new(rules, seed=11)
    rng = random.Random(1)
    while len(game.actions) < 40 and not game.is_over:
        seat = rng.choice(game.actors())
        action = rng.choice(game.legal_actions(seat))
        game.apply(action, seat=seat)
        assert game.actions[-1] == (seat, action)
    texts = [text for _, text in game.actions]
    assert cls.replay(rules, game.seed, game.actions) == game
    if cls is OmiGame:  # one seat acts at a time: plain texts replay too
        assert cls.replay(rules, game.seed, texts) == game


def test_actors_in_oti_swap_phase_are_every_seat_not_ready():
    game = OtiGame.new(OtiRules(players=4), seed=3)
    assert game.actors() == [0, 1, 2, 3] and game.to_move is None
    game.apply("ready", seat=2)
    assert game.actors() == [0, 1, 3]
    for seat in (0, 1, 3):
        game.apply("ready", seat=seat)
    assert game.actors() == [game.to_move]


@pytest.mark.parametrize(("cls", "rules"), GAMES, ids=IDS)
def test_a_finished_game_has_no_actors_and_a_summary(cls, rules):
    game = cls.new(rules, seed=8)
    play(game, random.Random(8))
    assert game.is_over and game.actors() == [] and game.legal_actions() == []
    summary = game.summary()
    json.dumps(summary)
    if cls is OmiGame:
        assert summary == {"winner": game.winner, "tokens": list(game.tokens), "hands": len(game.results)}
    else:
        ranking = list(game.ranking)
        assert summary == {"winner": game.winner, "ranking": ranking, "end_reason": game.end_reason}
    assert summary["winner"] is not None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(GAMES))), st.integers(0, 2**40), st.integers(0, 2**32), st.integers(0, 400))
def test_replays_and_records_round_trip_from_any_point(which, seed, policy, steps):
    cls, rules = GAMES[which]
    game = cls.new(rules, seed=seed)
    play(game, random.Random(policy), steps)
    back = cls.from_record(game.record())
    assert back == game and back.view(None) == game.view(None) and back.record() == game.record()
    assert cls.replay(rules, game.deal_code, game.actions) == game
    copy = game.copy()
    assert copy == game and copy.actions is not game.actions


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(GAMES))), st.integers(0, 2**40), st.integers(0, 2**32))
def test_no_view_holds_a_hidden_card(which, seed, policy):
    cls, rules = GAMES[which]
    game = cls.new(rules, seed=seed)
    rng = random.Random(policy)
    while True:
        for seat in [*range(game.players), None]:
            view = game.view(seat)
            leaked = shown(view) & hidden(game, seat)
            assert not leaked, f"seat {seat} sees {leaked}"
            assert ("deal_code" in view) == game.is_over
        if game.is_over or len(game.actions) > 300:
            break
        play(game, rng, 1)


PROTOCOL_CHECK = """
from bistrot.engine import Game
from bistrot.omi import OmiGame, OmiRules
from bistrot.oti import OtiGame, OtiRules

omi: type[Game[OmiRules]] = OmiGame
oti: type[Game[OtiRules]] = OtiGame
"""


@pytest.mark.slow
def test_both_engines_satisfy_the_protocol_for_the_type_checker(tmp_path):
    api = pytest.importorskip("mypy.api")
    source = tmp_path / "check.py"
    source.write_text(PROTOCOL_CHECK)
    out, err, status = api.run(["--strict", "--no-incremental", str(source)])
    assert status == 0, out + err
