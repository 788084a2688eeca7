"""Oti analysis: each move of the play phase with a real choice, judged by win chance.

For each move where the seat to play had two or more distinct choices (plays differing only by
suit are one choice: suits never matter in Oti), the hard player's Monte Carlo search
(:func:`bistrot.oti.bots.hard.search`) plays every choice to the end on the same ``samples``
deals of the cards the seat could not see (:func:`~bistrot.oti.bots.sampling.determinize`,
from the seat's view alone), everybody then playing by the medium player's rules of thumb.  A
choice's **win chance** is its share of won playouts (with ``play_to_last``, its mean place
score from 1 for first out to 0 for last); ``best`` lists the legal moves of the highest chance;
``loss`` is the best chance minus the chance of the move played (>= 0).  The swap before play
is not judged (the hard player itself follows a rule of thumb there), nor are forced moves.

The random source of a decision comes from ``seed`` and the seat's view alone.  The default
:data:`DEFAULT_SAMPLES` (200 deals) puts a chance's standard error under 3.5 points, its paired
differences (what a loss is) lower still.

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.from_position(OtiRules(players=2), ["5D QD", ""], ["", "KC"], ["", ""],
...     pile="2C")
>>> game.apply("play QD")
>>> found = analyze(game, samples=8)
>>> move = found.moves[0]
>>> move.best, move.values, move.loss, move.mark
(['play 5D'], {'play 5D': 1.0, 'play QD': 0.0}, 1.0, 'blunder')
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bistrot.analysis.marks import OTI
from bistrot.analysis.result import Analysis, Decision, Progress, best_and_loss
from bistrot.oti import OtiGame
from bistrot.oti.bots.hard import candidates, choice_key, search

DEFAULT_SAMPLES = 200


@dataclass(frozen=True)
class Point:
    """A move to judge: its index in the record, the seat, the action and the seat's view."""

    index: int
    seat: int
    action: str
    view: Mapping[str, Any]


def decision_rng(seed: int, view: Mapping[str, Any]) -> random.Random:
    """The random source for judging a move: from ``seed`` and the view alone."""
    return random.Random(f"{seed}:{json.dumps(view, sort_keys=True)}")


def points(game: OtiGame) -> list[Point]:
    """The play-phase moves of ``game`` (replayed from its start) with two or more choices."""
    replay = game.restart()
    found = []
    for index, (seat, action) in enumerate(game.actions):
        choices = candidates(replay.legal_actions(seat)) if replay.phase == "play" else []
        if replay.to_move == seat and len(choices) >= 2:
            found.append(Point(index, seat, action, replay.view(seat)))
        replay.apply(action, seat=seat)
    return found


def judge_move(view: Mapping[str, Any], action: str, samples: int, seed: int) -> tuple[
        dict[str, float], list[str], float]:
    """Each legal move's win chance from the seat's ``view``, the best moves, and the loss of
    ``action``."""
    legal: list[str] = list(view["legal"])
    options = candidates(legal)
    results = search(view, options, decision_rng(seed, view), iterations=samples)
    # fsum: the same chance on every Python (3.12 and later add floats otherwise than 3.11)
    chance = {choice_key(option): math.fsum(r) / len(r) for option, r in zip(options, results, strict=True)}
    values = {move: chance[choice_key(move)] for move in legal}
    best, loss = best_and_loss(values, action)
    return values, best, loss


def judge(point: Point, samples: int, seed: int) -> Decision:
    """The :class:`~.result.Decision` of one move."""
    values, best, loss = judge_move(point.view, point.action, samples, seed)
    return Decision(point.index, point.seat, point.action, best, loss, values, "move", OTI.mark(loss))


def default_samples(solver: str = "auto", browser: bool = False) -> int:
    """Deals per decision unless told: :data:`DEFAULT_SAMPLES`, wherever it runs (the hard
    player's search needs no solver).

    >>> default_samples() == default_samples(browser=True) == DEFAULT_SAMPLES
    True
    """
    return DEFAULT_SAMPLES


def analyze(game: object, samples: int | None = None, seed: int = 0,
            progress: Progress | None = None, solver: str = "auto") -> Analysis:
    """Judge every move of ``game`` (an Oti game) with a choice (its moves so far, if it is not
    over), with ``samples`` deals each (None: :func:`default_samples`); ``progress(done,
    total)`` after each; ``solver`` is Omi's and means nothing here."""
    if not isinstance(game, OtiGame):
        raise ValueError(f"Oti's analysis judges Oti games, not {type(game).__name__}")
    if samples is None:
        samples = default_samples(solver)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    todo = points(game)
    moves = []
    for done, point in enumerate(todo, 1):
        moves.append(judge(point, samples, seed))
        if progress is not None:
            progress(done, len(todo))
    return Analysis("oti", OTI, moves, samples, seed, game.is_over, seats=game.rules.players)
