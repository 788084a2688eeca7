"""Omi analysis: every trump choice and every card played with a choice, judged two ways.

For each **card** played by a seat that had two or more legal actions:

* ``dd_loss``: the tricks the seat's side lost against the best card with every hand open
  (double dummy, :func:`bistrot.omi.dd.solve`, DDS where installed); 0 for a double-dummy best
  card, whose list is ``best``;
* ``loss``: the tokens lost, in expectation, against the best card **given what the seat knew**.
  Only the seat's view at that moment is read (``OmiGame.view(seat)``, as the computer players
  get it): the hard player (:class:`~bistrot.omi.bots.hard.HardOmiBot` with ``samples`` fixed)
  draws ``samples`` layouts of the unseen cards consistent with everything the seat saw (its
  evidence included: the trump choice, the others' plays), solves each double dummy and values
  each card in tokens (:func:`~bistrot.omi.bots.hard.hand_value`: 5 tricks win, 4 : 4 carries,
  kapothi...).  ``best_expected`` lists the best cards by that measure.  Where kapothi may be
  announced, announcing is one more option (and an announcement is a decision of its own,
  ``kind`` ``kapothi``, without ``dd_loss``).

Each **trump choice** is judged from the four cards the chooser saw: ``samples`` deals of the
28 other cards (uniform: nothing else is known yet), each solved double dummy with every suit
as trump and the chooser leading, valued in tokens the same way; ``best`` is the suit of highest
mean, ``loss`` the chosen suit's shortfall.  Under ``redeal_few_trumps`` a suit that would force
a redeal on a deal is worth 0 tokens there.

The random source of a decision is derived from ``seed`` and that view alone, so a decision's
analysis is reproducible and unchanged whatever the cards the seat could not see.
:data:`DEFAULT_SAMPLES` (64) layouts a decision with DDS, :data:`PYTHON_SAMPLES` (32) with the
built-in solver, so that a whole hand takes at most about 2 s and 15 s of one core
(``bench/analysis.py``).  Every option is valued on the same layouts, so a loss is a paired
difference and much steadier than each value; the inaccuracy threshold (:mod:`.marks`) sits
above the noise left at these numbers.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.new(OmiRules(target=1), seed=4)
>>> while not game.results:
...     game.apply(game.legal_actions()[-1])
>>> found = analyze(game, samples=4, seed=1)
>>> first = found.moves[0]
>>> first.kind, first.index, first.action, first.loss >= 0
('trump', 0, 'trump C', True)
>>> all(m.dd_loss is not None and m.dd_loss >= 0 for m in found.moves if m.kind == "card")
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from bistrot.analysis.marks import OMI
from bistrot.analysis.result import Analysis, Decision, Progress, best_and_loss
from bistrot.cards import CARD_NAMES, SUIT_LETTERS, bits
from bistrot.omi import OmiGame
from bistrot.omi.bots.hard import HardOmiBot, hand_value
from bistrot.omi.bots.tracking import Knowledge
from bistrot.omi.dd import Position, available_solvers, can_reach, solve
from bistrot.omi.rules import HAND_SIZE

#: Layouts per decision with DDS.
DEFAULT_SAMPLES = 64
#: Layouts per decision with the built-in solver (no DDS installed, or the browser), fewer so
#: that a hand stays within the 15 s aim (``bench/analysis.py``).
PYTHON_SAMPLES = 32
#: Layouts per decision in the browser's worker (the built-in solver under Pyodide, which runs
#: Python slower than CPython): a hand within the same 15 s aim (``bench/analysis.py --browser``).
BROWSER_SAMPLES = 24
FIRST_BATCH = 4


def uses_dds(solver: str) -> bool:
    """Whether ``solver`` means DDS (three players too: :func:`bistrot.omi.dd.dds_solver.seating`)."""
    return solver == "dds" or (solver == "auto" and "dds" in available_solvers())


def default_samples(solver: str = "auto", browser: bool = False) -> int:
    """Layouts per decision unless told: :data:`DEFAULT_SAMPLES` with DDS, else :data:`PYTHON_SAMPLES`;
    :data:`BROWSER_SAMPLES` in the browser's worker (``browser``: no DDS there).

    >>> default_samples("python"), default_samples(browser=True) == BROWSER_SAMPLES
    (32, True)
    """
    if browser:
        return BROWSER_SAMPLES
    return DEFAULT_SAMPLES if uses_dds(solver) else PYTHON_SAMPLES


@dataclass(frozen=True)
class Point:
    """A decision to judge: the action's index in the record, the seat, the action, the seat's
    view just before it, and (card plays only) the position with every hand open."""

    index: int
    seat: int
    action: str
    view: Mapping[str, Any]
    position: Position | None


def decision_rng(seed: int, view: Mapping[str, Any]) -> random.Random:
    """The random source for judging a decision: from ``seed`` and the view alone.

    >>> decision_rng(1, {"a": 1}).random() == decision_rng(1, {"a": 1}).random()
    True
    """
    return random.Random(f"{seed}:{json.dumps(view, sort_keys=True)}")


def points(game: OmiGame) -> list[Point]:
    """The decisions of ``game`` (replayed from its start) where the seat had a choice."""
    replay = game.restart()
    found = []
    for index, (seat, action) in enumerate(game.actions):
        legal = replay.legal_actions()
        if len(legal) >= 2:
            position = Position.from_game(replay) if action.startswith("play ") else None
            found.append(Point(index, seat, action, replay.view(seat), position))
        replay.apply(action, seat=seat)
    return found


def judge_cards(view: Mapping[str, Any], action: str, samples: int, seed: int,
                solver: str = "auto") -> tuple[dict[str, float], list[str], float]:
    """Each legal action's expected tokens from the seat's ``view`` (see the module docstring),
    the best, and the loss of ``action``."""
    # Tokens, not the match: the replay speaks of tokens lost.
    bot = HardOmiBot(seed=seed, samples=samples, solver=partial(solve, solver=solver), match=False)
    found = bot.evaluate(view, decision_rng(seed, view))
    values = {"play " + CARD_NAMES[card]: found.mean(card) for card in found.cards}
    if found.may_announce:
        values["kapothi"] = found.mean(found.best_card(announced=True), announced=True)
    best, loss = best_and_loss(values, action)
    return values, best, loss


def judge_dd(position: Position, action: str, solver: str = "auto") -> tuple[dict[str, int], list[str], int]:
    """Each legal card's tricks with every hand open, the best cards, and the tricks ``action``
    loses against them."""
    solved = solve(position, solver=solver)
    tricks = {"play " + CARD_NAMES[card]: solved[card] for card in bits(position.legal_cards())}
    top = max(tricks.values())
    return tricks, [a for a, t in tricks.items() if t == top], top - tricks[action]


def side_tricks(position: Position, solver: str = "auto") -> int:
    """The tricks the side to move takes from ``position`` with best play by all."""
    if uses_dds(solver):
        return max(solve(position, solver=solver).values())
    low, high = 0, position.tricks_left  # the built-in solver answers yes/no questions fastest
    while low < high:
        middle = (low + high + 1) // 2
        if can_reach(position, middle, solver=solver):
            low = middle
        else:
            high = middle - 1
    return low


def judge_trump(view: Mapping[str, Any], action: str, samples: int, seed: int,
                solver: str = "auto") -> tuple[dict[str, float], list[str], float]:
    """Each suit's expected tokens as trump from the chooser's trump-phase ``view`` (its first
    four cards), the best suits, and the loss of ``action``."""
    know = Knowledge.from_view(view)
    rules = know.rules
    n = rules.players
    me = know.seat
    rng = decision_rng(seed, view)
    carry = int(view.get("carry") or 0)
    tokens = list(view.get("tokens") or [0] * rules.sides)
    unseen = list(bits(know.unseen))
    seen = list(bits(know.hand))
    totals = [0.0] * 4
    for _ in range(samples):
        rng.shuffle(unseen)
        dealt: list[list[int]] = []
        start = 0
        for seat in range(n):
            more = HAND_SIZE - FIRST_BATCH if seat == me else HAND_SIZE
            dealt.append((seen if seat == me else []) + unseen[start:start + more])
            start += more
        hands = tuple(sum(1 << c for c in cards) for cards in dealt)
        for suit in range(4):
            if rules.redeal_few_trumps and _redealt(view, dealt, suit):
                continue  # the hand would be dealt again: worth 0 here
            tricks = side_tricks(Position(hands=hands, trump=suit, to_move=me, players=n), solver)
            totals[suit] += hand_value(know, tricks, None, carry, tokens)
    values = {"trump " + SUIT_LETTERS[suit]: totals[suit] / samples for suit in range(4)}
    best, loss = best_and_loss(values, action)
    return values, best, loss


def _redealt(view: Mapping[str, Any], dealt: list[list[int]], suit: int) -> bool:
    """Whether naming ``suit`` on this deal makes the engine deal again."""
    game = OmiGame.from_deal(OmiGame.rules_class().from_dict(dict(view["rules"])), dealt, view["dealer"])
    game.apply("trump " + SUIT_LETTERS[suit])
    return game.redeals > 0


def judge(point: Point, samples: int, seed: int, solver: str = "auto") -> Decision:
    """The :class:`~.result.Decision` of one decision point."""
    action = point.action
    if action.startswith("trump "):
        values, best, loss = judge_trump(point.view, action, samples, seed, solver)
        return Decision(point.index, point.seat, action, best, loss, values, "trump", OMI.mark(loss))
    values, best_expected, loss = judge_cards(point.view, action, samples, seed, solver)
    if point.position is None:  # an announcement
        return Decision(point.index, point.seat, action, best_expected, loss, values, "kapothi",
                        OMI.mark(loss))
    tricks, best, dd_loss = judge_dd(point.position, action, solver)
    return Decision(point.index, point.seat, action, best, loss, values, "card", OMI.mark(loss),
                    dd_loss=dd_loss, dd_tricks=tricks, best_expected=best_expected)


def analyze(game: object, samples: int | None = None, seed: int = 0, progress: Progress | None = None,
            solver: str = "auto") -> Analysis:
    """Judge every decision of ``game`` (an Omi game) with a choice (its actions so far, if it is
    not over), with ``samples`` layouts each (None: :func:`default_samples`); ``progress(done,
    total)`` after each."""
    if not isinstance(game, OmiGame):
        raise ValueError(f"Omi's analysis judges Omi games, not {type(game).__name__}")
    if samples is None:
        samples = default_samples(solver)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    todo = points(game)
    moves = []
    for done, point in enumerate(todo, 1):
        moves.append(judge(point, samples, seed, solver))
        if progress is not None:
            progress(done, len(todo))
    return Analysis("omi", OMI, moves, samples, seed, game.is_over, seats=game.rules.players,
                    draws="layouts", double_dummy=True)

