"""The ``hard`` Oti player: determinized Monte Carlo search over the cards it cannot see.

For each decision with a real choice it deals the unseen cards at random, consistently with
everything its seat has seen (:mod:`.sampling`), and plays every candidate move on that deal to
the end of the game with the medium player's rules of thumb for everybody (a *playout*).  It
reads the others' hands from their plays as medium would have made them (option ``infer``, on by
default: one who shed a 9 on a 4 holds no 4, 6, 7 or 8, one who picked up held nothing that went;
:func:`~.sampling.hand_inference`) and deals their unseen cards accordingly.  The
same deals are used for every candidate (common random numbers; playouts run on value counts,
:mod:`.fastsim`).  The deals are a race: a candidate the leader clearly beats on the same
deals is dealt no more, so the close ones get the deals; it stops when one is left (or the
rest cannot be told apart), when its time budget is spent (default 1 s) or after 1,200 deals
(:func:`search`).  With ``iterations=N`` every candidate is played on exactly N deals: the
reproducible mode for tests.  Of the candidates still in, the one with the most wins is played.

Suits never matter in Oti, so candidates are values and counts (``play 7S 7H`` and
``play 7D 7C`` are one candidate).  Forced moves are played at once; the swap before play
follows the medium player's rule.

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.from_position(OtiRules(players=2), ["3D 9S TS", "4C 6C"],
...     ["", ""], ["", ""], pile="QH KH")
>>> HardOtiBot(seed=1, iterations=20).act(game.view(0))  # burn the pile, keep the 3 for later
'play TS'
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from bistrot.cards import CARD_BY_NAME
from bistrot.oti.actions import MOVE_FLIP, MOVE_PICKUP, MOVE_PLAY, parse_action
from bistrot.oti.bots.common import legal_or_fail
from bistrot.oti.bots.fastsim import FLIP, PICKUP, PLAY, Start
from bistrot.oti.bots.medium import MediumOtiBot
from bistrot.oti.bots.sampling import determinize, hand_inference
from bistrot.oti.game import OtiGame
from bistrot.oti.rules import OtiRules
from bistrot.oti.values import RANK_OF

DEFAULT_BUDGET = 1.0
MIN_DEALS, MAX_DEALS, CHECK_EVERY = 24, 1200, 8
"""With a time budget, candidates clearly behind drop out of the search from MIN_DEALS deals
on (checked every CHECK_EVERY), and it never searches more than MAX_DEALS deals (option
``max_deals``; the browser keeps 800 with its budget of 0.35 s, as measured there).  Most
decisions are settled after 24 to 100 deals; only close ones go on, where more deals still pay
(docs/oti.md, 2026-12-01 "More deals for close choices")."""
CLEAR = 2.5
"""The paired z (:func:`lead_z`) at which the leader counts as clearly ahead of a candidate."""
MAX_PLAYOUT = 1000
"""Moves after which a playout is scored by the cards left (games rarely get near it)."""


def playout(game: OtiGame, seat: int, max_moves: int = MAX_PLAYOUT) -> float:
    """Play ``game`` to the end with the medium player for everybody; ``seat``'s score:
    1 for a win, 0 for a loss; with ``play_to_last``, 1 for first down to 0 for last.

    The search itself uses the faster :mod:`.fastsim`, which plays the same moves; this
    version on the engine is the reference it is tested against."""
    medium = MediumOtiBot()
    moves = 0
    while (mover := game.to_move) is not None and moves < max_moves:
        game.apply(medium.act(game.view(mover)), seat=mover)
        moves += 1
    return score(game, seat)


def score(game: OtiGame, seat: int) -> float:
    """What a finished (or abandoned) playout is worth to ``seat``."""
    n = game.rules.players
    if game.phase != "over":  # abandoned: rank by cards left
        left = game.cards_left(seat)
        rivals = [game.cards_left(s) for s in range(n) if s != seat and s not in game.out]
        if game.out and game.out[0] != seat:
            return 0.0
        return sum(left < r for r in rivals) / max(1, len(rivals)) if rivals else 1.0
    if game.rules.play_to_last:
        return 1.0 - game.out.index(seat) / (n - 1)
    return 1.0 if game.winner == seat else 0.0


def first_move(action: str) -> tuple[int, int, int]:
    """An action as a playout's first move ``(kind, value, count)``.

    >>> first_move("play 7S 7H"), first_move("pickup"), first_move("flip")
    ((0, 7, 2), (1, 0, 0), (2, 0, 0))
    """
    kind, arg = parse_action(action)
    if kind == MOVE_PLAY:
        return PLAY, RANK_OF[(arg & -arg).bit_length() - 1], arg.bit_count()
    if kind == MOVE_PICKUP:
        return PICKUP, 0, 0
    if kind == MOVE_FLIP:
        return FLIP, 0, 0
    raise ValueError(f"{action!r} is not a move of the play phase")


def choice_key(action: str) -> tuple[int, int] | str:
    """What makes two actions the same choice: the value and count of a play, else the text."""
    if action.startswith("play "):
        words = action.split()[1:]
        return RANK_OF[CARD_BY_NAME[words[0]]], len(words)
    return action


def candidates(legal: list[str]) -> list[str]:
    """One action per distinct choice: plays of the same value and count are the same.

    >>> candidates(["play 7S", "play 7H", "play 7S 7H", "pickup"])
    ['play 7S', 'play 7S 7H', 'pickup']
    """
    chosen: list[str] = []
    seen: set[tuple[int, int] | str] = set()
    for action in legal:
        key = choice_key(action)
        if key not in seen:
            seen.add(key)
            chosen.append(action)
    return chosen


class HardOtiBot:
    """Determinized Monte Carlo search: see the module docstring."""

    level = "hard"

    def __init__(
        self,
        seed: int = 0,
        time_budget: float = DEFAULT_BUDGET,
        iterations: int | None = None,
        infer: bool | int = True,
        max_deals: int = MAX_DEALS,
        **options: Any,
    ) -> None:
        if options:
            unknown = ", ".join(sorted(options))
            raise TypeError(
                f"the hard Oti bot takes time_budget, max_deals, iterations and infer; not {unknown}")
        if infer not in (True, False):  # 1 and 0 too: the arena's --option reads numbers
            raise ValueError(f"infer is on (1) or off (0), not {infer!r}")
        if time_budget <= 0:
            raise ValueError(f"time_budget must be positive seconds, not {time_budget!r}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations!r}")
        whole = isinstance(max_deals, (int, float)) and not isinstance(max_deals, bool) and max_deals % 1 == 0
        if not whole or max_deals < MIN_DEALS:
            raise ValueError(f"max_deals must be a whole number of at least {MIN_DEALS}, not {max_deals!r}")
        self.rng = random.Random(seed)
        self.time_budget = time_budget
        self.iterations = iterations
        self.max_deals = int(max_deals)
        self.infer = bool(infer)
        """Whether the others' hands are dealt as their plays allow (see :func:`search`)."""
        self.medium = MediumOtiBot(seed)
        self.last_deals = 0
        """How many deals the last decision searched (0 when it needed no search)."""

    def act(self, view: Mapping[str, Any]) -> str:
        """One of ``view["legal"]``."""
        legal = legal_or_fail(view)
        self.last_deals = 0
        if view["phase"] != "play":
            return self.medium.act(view)
        options = candidates(legal)
        if len(options) == 1:
            return options[0]
        default = self.medium.act(view)
        return self._search(view, options, default)

    def _search(self, view: Mapping[str, Any], options: list[str], default: str) -> str:
        results = search(view, options, self.rng, iterations=self.iterations, time_budget=self.time_budget,
                         infer=self.infer, max_deals=self.max_deals)
        self.last_deals = max(len(r) for r in results)
        preferred = choice_key(default)
        # among the options still in at the end (the longest lists), the most wins
        best = max(range(len(options)),
                   key=lambda i: (len(results[i]), sum(results[i]), choice_key(options[i]) == preferred))
        return options[best]


def search(view: Mapping[str, Any], options: list[str], rng: random.Random, iterations: int | None = None,
           time_budget: float = DEFAULT_BUDGET, infer: bool = False,
           max_deals: int = MAX_DEALS) -> list[list[float]]:
    """Each of ``options`` (moves of the play-phase ``view``) played to the end on the same
    random deals of the unseen cards (:func:`~.sampling.determinize`, from ``rng``): one list per
    option of its playouts' scores (1 a win, 0 a loss; see :func:`score`), deal by deal.

    With ``iterations`` exactly that many deals for every option.  Otherwise a race: from
    :data:`MIN_DEALS` deals on (every :data:`CHECK_EVERY`), an option the leader beats clearly on
    the same deals (:func:`lead_z` at least :data:`CLEAR`), or by more than the deals left to
    ``max_deals`` could make up, is dropped and dealt no more (its list stays shorter: the
    first deals); it stops when the options still in cannot be told apart, at ``time_budget``
    seconds or at ``max_deals`` deals.  The options still in have the longest lists.
    With ``infer`` the others' hands are dealt as their plays so far allow if they follow
    medium's rules of thumb (:func:`~.sampling.hand_inference`).  Reads nothing but the view.

    >>> from bistrot.oti import OtiGame, OtiRules
    >>> game = OtiGame.from_position(OtiRules(players=2), ["5D QD", ""], ["", "KC"], ["", ""],
    ...     pile="2C")
    >>> search(game.view(0), ["play 5D", "play QD"], random.Random(1), iterations=3)
    [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
    >>> [len(r) for r in search(game.view(0), ["play 5D", "play QD"], random.Random(1))]
    [24, 24]
    """
    seat = view["seat"]
    rules = OtiRules.from_dict(view["rules"])
    moves = [first_move(action) for action in options]
    results: list[list[float]] = [[] for _ in options]
    deadline = time.perf_counter() + time_budget
    deals = 0
    timed = iterations is None
    active = list(range(len(moves)))
    # sums of the score differences and of their squares, pair by pair, on the deals so far
    sums = [[0.0] * len(moves) for _ in moves]
    squares = [[0.0] * len(moves) for _ in moves]
    excluded = hand_inference(view) if infer else None
    while True:
        start = Start.of(determinize(view, rng, rules, excluded))
        for k, i in enumerate(active):
            results[i].append(start.playout(seat, moves[i]))
            if timed and deals and k < len(active) - 1 and time.perf_counter() >= deadline:
                for partial in active[: k + 1]:
                    results[partial].pop()  # every option still in is judged on the same deals
                break
        else:
            deals += 1
            if not timed:
                assert iterations is not None  # not timed: a number of deals
                if deals < iterations:
                    continue
                break
            for i in active:
                for j in active:
                    diff = results[i][-1] - results[j][-1]
                    sums[i][j] += diff
                    squares[i][j] += diff * diff
            if time.perf_counter() >= deadline or deals >= max_deals:
                break
            if deals >= MIN_DEALS and deals % CHECK_EVERY == 0:
                leader = max(active, key=lambda i: sums[i][active[0]])
                left = max_deals - deals
                active = [j for j in active if j == leader or (
                    sums[leader][j] <= left and lead_z(sums[leader][j], squares[leader][j], deals) < CLEAR)]
                if all(squares[leader][j] == 0 for j in active):
                    break  # one left, or the rest cannot be told apart
            continue
        break
    return results


def lead_z(total: float, squares: float, n: int) -> float:
    """How clearly one option leads another on the same ``n`` deals: the paired z of their score
    differences, given the differences' sum (``total``) and the sum of their squares; infinite
    when it was ahead on every deal by the same margin, 0 when they always scored the same.

    >>> lead_z(6.0, 6.0, 24) > CLEAR > lead_z(6.0, 10.0, 24), lead_z(24.0, 24.0, 24), lead_z(0.0, 0.0, 24)
    (True, inf, 0.0)
    """
    mean = total / n
    variance = max(0.0, squares - total * mean) / (n - 1)
    if variance <= 1e-12:
        return math.copysign(math.inf, mean) if mean else 0.0
    return mean / math.sqrt(variance / n)
