"""The ``hard`` Omi player: sampled deals solved double dummy, scored by the match at stake.

For each card decision it draws layouts of the unseen cards consistent with everything the seat
has seen (:class:`~.inference.DealSampler`: cards played, voids shown, hand counts, the
chooser's trump choice as evidence about their first four cards, the others' plays read through
a model player (:mod:`.policy_evidence`), and wins passed up as evidence of the cards a player
lacked), solves each layout with all
hands open (:func:`bistrot.omi.dd.solve`, DDS when installed), and turns the tricks each legal
card then takes into what the hand is worth: by default (option ``match``) the chance it
leaves of winning the match from the score and the carry (:func:`match_value`,
:mod:`.match_equity`, with three players :mod:`.three_player_equity`), else **in tokens**
(:func:`hand_value`: 5 tricks win, 4 : 4 carries, 8 is kapothi, an announced kapothi risks 4
tokens, the carry goes to the winner; the engine's :func:`~bistrot.omi.scoring.score_hand`).
It plays the card of best mean value, ties going to
the card that takes more tricks, then to a card that is not a trump, then to the lowest.  This
is perfect-information Monte Carlo (PIMC), as in the best Skat and bridge programs.

The search is *anytime*: it stops before one more layout would overrun the ``budget``
(seconds, default 0.5; the built-in solver of the browser takes far longer per layout than DDS),
at ``max_samples``
(400), or, once it has ``min_samples`` (100), as soon as the best card is clearly ahead of every
other (each paired difference more than two standard errors, or no difference at all).  Layouts
are drawn four at a time from one shared pool of candidates.  ``samples=N`` instead solves
exactly N layouts with no clock, so that seeded play is reproducible; each decision's random
source is derived from the seed and the view alone.

Trump: the table of :mod:`.trump_table` (four players), each suit's spread of tricks weighed by
the chance of winning the match (:func:`match_trump`).  Announced kapothi: announced when the
sampled chance of taking the last two tricks makes it worth more than the plain win.

**Three players**: the solver's paranoid mode (this seat against the other two together) gives the
tricks this seat can make; the other two are assumed to share the rest at random, and
:func:`match_value` weighs each way they may (:func:`hand_value` counts tokens).  Trump with
three players: the three-player table (the chooser's tricks against the other two, from the
24-card deck) weighed the same way; ``match=False`` (hard-v1) keeps the medium player's rule.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.new(OmiRules(), seed=11)
>>> bot = HardOmiBot(seed=1, samples=4)
>>> while not game.results:
...     action = bot.act(game.view(game.to_move))
...     game.apply(action)
>>> sum(game.results[0]["tricks"])
8
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from math import comb
from typing import Any

from bistrot.cards import CARD_BY_NAME, CARD_NAMES, SUIT_BITS, SUIT_LETTERS
from bistrot.omi.bots.inference import DealSampler
from bistrot.omi.bots.match_equity import after_hand, tricks_by_side
from bistrot.omi.bots.medium import choose_trump as medium_trump
from bistrot.omi.bots.three_player_equity import after_hand as after_three_player_hand
from bistrot.omi.bots.three_player_equity import prepare as prepare_three_player
from bistrot.omi.bots.tracking import Knowledge
from bistrot.omi.rules import HAND_SIZE, OmiRules
from bistrot.omi.scoring import score_hand

Solver = Callable[[Any], Mapping[int, int]]

DEFAULT_BUDGET = 0.5
MIN_SAMPLES = 100
MAX_SAMPLES = 400
CHECK_EVERY = 4


def hand_value(know: Knowledge, tricks: int, announced: int | None, carry: int,
               tokens: list[int] | None = None) -> float:
    """Tokens this seat's side gains (negative: the opponents gain) if it ends with ``tricks``.

    ``tricks`` counts the whole hand for this seat's side (tricks already won included);
    ``announced`` is the side that announced kapothi, if any.  With three players, the other two
    are assumed to share the tricks still to come at random, and their gains count half each.

    >>> from bistrot.omi import OmiGame, OmiRules
    >>> game = OmiGame.new(OmiRules(), seed=3)
    >>> game.apply("trump S")
    >>> know = Knowledge.from_view(game.view(1))  # seat 1 is not on the chooser's side
    >>> [hand_value(know, t, None, 0) for t in (0, 3, 4, 5, 8)]
    [-3, -1, 0, 2, 3]
    """
    rules = know.rules
    if know.players == 3:
        return _three_player_value(know, tricks, carry)
    me = know.side_of(know.seat)
    score = score_hand(rules, tricks_by_side(tricks, me), know.side_of(know.chooser), announced, carry)
    if score.side is None:
        return 0
    gain = score.tokens
    if score.wins_match and tokens is not None:  # worth the tokens the winners lacked, at least
        gain = max(gain, rules.target - tokens[score.side])
    return gain if score.side == me else -gain


def _three_player_endings(know: Knowledge, tricks: int) -> list[tuple[float, list[int]]]:
    """Each seat's tricks at the end of a three-player hand in which this seat takes ``tricks``
    in all, with its chance: the other two share the tricks still to come at random."""
    me = know.seat
    others = [s for s in range(3) if s != me]
    won = know.tricks_won
    rest = HAND_SIZE - tricks - won[others[0]] - won[others[1]]
    endings = []
    for k in range(rest + 1):
        finals = [0] * 3
        finals[me] = tricks
        finals[others[0]], finals[others[1]] = won[others[0]] + k, won[others[1]] + rest - k
        endings.append((comb(rest, k) / 2**rest, finals))
    return endings


def _three_player_value(know: Knowledge, tricks: int, carry: int) -> float:
    value = 0.0
    for p, finals in _three_player_endings(know, tricks):
        score = score_hand(know.rules, finals, know.chooser, None, carry)
        if score.side is not None:
            value += p * (score.tokens if score.side == know.seat else -score.tokens / 2)
    return value


def _three_player_match_value(know: Knowledge, tricks: int, carry: int, tokens: list[int]) -> float:
    order = [(know.chooser + i) % 3 for i in range(3)]  # play order from the chooser
    needs = [know.rules.target - tokens[seat] for seat in order]
    mine = order.index(know.seat)
    return sum(p * after_three_player_hand(know.rules, needs, carry, [finals[s] for s in order])[mine]
               for p, finals in _three_player_endings(know, tricks))


def match_value(know: Knowledge, tricks: int, announced: int | None, carry: int,
                tokens: list[int]) -> float:
    """This seat's side's chance of winning the match if it ends the hand in play with ``tricks``
    (tricks already won included), from the ``tokens`` and ``carry`` before the hand;
    ``announced`` is the side that announced kapothi, if any (:mod:`.match_equity`).  With three
    players the other two share the rest at random (:mod:`.three_player_equity`).

    >>> from bistrot.omi import OmiGame, OmiRules
    >>> game = OmiGame.new(OmiRules(), seed=3)
    >>> game.apply("trump S")
    >>> know = Knowledge.from_view(game.view(1))  # not the chooser's side
    >>> [round(match_value(know, t, None, 0, [0, 0]), 2) for t in (0, 3, 4, 5, 8)]
    [0.31, 0.44, 0.53, 0.64, 0.71]
    >>> [match_value(know, t, None, 0, [9, 0]) for t in (0, 3)]  # any loss ends the match
    [0.0, 0.0]
    >>> three = OmiGame.new(OmiRules(players=3), seed=3)
    >>> three.apply("trump S")
    >>> know = Knowledge.from_view(three.view(0))  # the chooser
    >>> [round(match_value(know, t, None, 0, [0, 0, 0]), 2) for t in (0, 3, 5, 8)]
    [0.27, 0.3, 0.4, 0.55]
    >>> [round(match_value(know, t, None, 0, [9, 0, 0]), 2) for t in (0, 3, 5)]  # needing 1 token
    [0.95, 0.96, 1.0]
    """
    if know.players == 3:
        return _three_player_match_value(know, tricks, carry, tokens)
    me = know.side_of(know.seat)
    target = know.rules.target
    return after_hand(know.rules, target - tokens[me], target - tokens[1 - me], carry,
                      know.side_of(know.chooser), me, tricks_by_side(tricks, me), announced)


def match_trump(view: Mapping[str, Any], hand: list[int]) -> int:
    """The suit of best chance of winning the match, from the first four cards ``hand`` of the
    trump-phase ``view``: each suit's spread of tricks in the trump table
    (:func:`~.trump_table.suit_tricks`) weighed by :func:`~.match_equity.after_hand`; ties go
    to the table's choice.  With three players, the three-player table's spread of the chooser's
    tricks weighed by :func:`match_value` (the other two share the rest at random); ties go to
    the medium player's rule.

    >>> from bistrot.omi import OmiGame, OmiRules
    >>> game = OmiGame.new(OmiRules(players=3), seed=4)
    >>> view = game.view(game.to_move)
    >>> hand = [CARD_BY_NAME[c] for c in view["hand"]]
    >>> "SHDC"[match_trump(view, hand)], view["hand"]
    ('H', ['KS', 'AH', 'KH', 'TH'])
    """
    from bistrot.omi.bots.trump_table import best_suit, suit_tricks

    rules = OmiRules.from_dict(dict(view["rules"]))
    if rules.players == 3:
        return _three_player_match_trump(view, hand, rules)
    me = rules.side_of(view["seat"])
    tokens = list(view.get("tokens") or [0, 0])
    carry = int(view.get("carry") or 0)
    need, their_need = rules.target - tokens[me], rules.target - tokens[1 - me]

    def chance(suit: int, spread: list[float]) -> float:
        return sum(p * after_hand(rules, need, their_need, carry, me, me, tricks_by_side(t, me))
                   for t, p in enumerate(spread) if p)

    table = best_suit(hand)
    chances = [chance(suit, spread) for suit, spread in enumerate(suit_tricks(hand))]
    return max(range(4), key=lambda suit: (round(chances[suit], 12), suit == table))


def _three_player_match_trump(view: Mapping[str, Any], hand: list[int], rules: OmiRules) -> int:
    """:func:`match_trump` with three players."""
    from bistrot.omi.bots.trump_table import suit_tricks

    prepare_three_player(rules)
    know = Knowledge.from_view(view)
    tokens = list(view.get("tokens") or [0] * 3)
    carry = int(view.get("carry") or 0)
    chances = [sum(p * match_value(know, t, None, carry, tokens) for t, p in enumerate(spread) if p)
               for spread in suit_tricks(hand, players=3)]
    rule = medium_trump(hand)
    return max(range(4), key=lambda suit: (round(chances[suit], 12), suit == rule))


_warmed = False


def _default_solver() -> Solver:
    """:func:`bistrot.omi.dd.solve`, called once on a one-card position so that DDS's one-time set-up
    (about 1.5 s) happens when the bot is made rather than in its first decision."""
    global _warmed
    from bistrot.omi.dd import Position, solve

    if not _warmed:
        solve(Position(hands=(1 << 12, 1 << 11, 1 << 10, 1 << 9), trump=0))
        _warmed = True
    return solve


class HardOmiBot:
    """PIMC with a double-dummy solver: see the module docstring.

    Options: ``budget`` (seconds per decision, default 0.5), ``samples`` (a fixed number of
    layouts and no clock, for reproducible play), ``max_samples`` (400), ``min_samples`` (100,
    the layouts solved before the search may stop early), ``evidence`` (use the trump
    choice as evidence, default on), ``play_evidence`` (read wins passed up as evidence, default
    on), ``model`` (read the others' plays through the medium player's rules, default on),
    ``mismatch`` (the model's likelihood of a play it would not make, 0.1), ``pool`` (uniform
    candidates per sample, 16), ``solver`` (a function ``Position -> {card: tricks}``, or the
    name of one of :func:`bistrot.omi.dd.solve`'s: ``python`` plays as in the browser; default
    :func:`bistrot.omi.dd.solve`), ``match`` (value outcomes by the chance of winning the
    match, :func:`match_value`, rather than by tokens; default on).
    """

    level = "hard"

    def __init__(
        self,
        seed: int = 0,
        budget: float = DEFAULT_BUDGET,
        samples: int | None = None,
        max_samples: int = MAX_SAMPLES,
        evidence: bool = True,
        play_evidence: bool = True,
        model: bool = True,
        mismatch: float = 0.1,
        pool: int = 16,
        min_samples: int = MIN_SAMPLES,
        solver: Solver | str | None = None,
        match: bool = True,
        **options: Any,
    ) -> None:
        self.seed = seed
        self.budget = float(budget)
        self.samples = None if samples is None else int(samples)
        self.max_samples = int(max_samples)
        self.evidence = bool(evidence)
        self.play_evidence = bool(play_evidence)
        self.model = bool(model)
        self.mismatch = float(mismatch)
        self.pool = int(pool)
        self.min_samples = int(min_samples)
        if isinstance(solver, str):  # a solver by name: "auto", "python" or "dds"
            from bistrot.omi.dd import SOLVERS, solve

            if solver not in SOLVERS:
                raise ValueError(f"unknown solver {solver!r}: use one of {', '.join(SOLVERS)}")
            self.solver: Solver = partial(solve, solver=solver)
        else:
            self.solver = solver or _default_solver()
        self.match = bool(match)
        if self.match:  # the trick spread over all hands (0.24 s once) now, not in a first decision
            from bistrot.omi.bots.trump_table import chooser_tricks

            chooser_tricks()
        self.last_samples = 0

    def act(self, view: Mapping[str, Any]) -> str:
        legal: list[str] = list(view["legal"])
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        if legal[0].startswith("trump"):
            return "trump " + SUIT_LETTERS[self.choose_trump(view)]
        plays = [a for a in legal if a.startswith("play ")]
        if len(plays) == 1 and "kapothi" not in legal:
            self.last_samples = 0
            return plays[0]
        know = Knowledge.from_view(view)
        if self.match and know.players == 3:  # the table (0.15 s, once per rules) before the clock
            prepare_three_player(know.rules)
        rng = random.Random(
            f"{self.seed}:{view['hand_number']}:{len(view['tricks'])}:{len(view['trick'])}:{know.hand}"
        )
        found = self.evaluate(view, rng, know)
        self.last_samples = found.samples
        return found.choice()

    def choose_trump(self, view: Mapping[str, Any]) -> int:
        """The suit this player names as trump from the view of the trump phase."""
        hand = [CARD_BY_NAME[c] for c in view["hand"]]
        if len(hand) == 4 and self.match:
            return match_trump(view, hand)
        if view["players"] == 4 and len(hand) == 4:
            from bistrot.omi.bots.trump_table import best_suit

            return best_suit(hand)
        return medium_trump(hand)

    def sampler(self, know: Knowledge, known: Mapping[int, int] | None = None,
                known_suits: Mapping[int, int] | None = None, holds: Mapping[int, int] | None = None,
                lacks: Mapping[int, int] | None = None) -> DealSampler:
        """The layouts this player draws for ``know``, with its evidence options; the hands of
        ``known`` (``{seat: cards}``) are given, not drawn (only the suits of ``known_suits``, if
        set), and so are the cards of ``holds``, while no layout gives a seat its cards of
        ``lacks`` (:class:`DealSampler`): the benches measure what that is worth, the player
        itself never knows another hand."""
        return DealSampler(know, evidence=self.evidence, play_evidence=self.play_evidence,
                           model=self.model, mismatch=self.mismatch, pool=self.pool, known=known,
                           known_suits=known_suits, holds=holds, lacks=lacks)

    def evaluate(self, view: Mapping[str, Any], rng: random.Random,
                 know: Knowledge | None = None) -> CardValues:
        """Every legal card of the play-phase ``view`` scored on sampled layouts (see
        :class:`CardValues`), drawing from ``rng``: ``samples`` layouts if that option is set,
        else until the budget, ``max_samples`` or a settled choice.  Reads nothing but the view.

        >>> from bistrot.omi import OmiGame, OmiRules
        >>> game = OmiGame.new(OmiRules(), seed=11)
        >>> game.apply("trump H")
        >>> found = HardOmiBot(samples=4).evaluate(game.view(0), random.Random(1))
        >>> legal = game.legal_actions()
        >>> found.samples, len(found.cards) == len(legal), found.choice() in legal
        (4, True, True)
        """
        know = know or Knowledge.from_view(view)
        legal: list[str] = list(view["legal"])
        cards = [CARD_BY_NAME[a[5:]] for a in legal if a.startswith("play ")]
        return sample_values(
            know, view, cards, "kapothi" in legal, rng, self.sampler(know), self.solver,
            samples=self.samples if self.samples is not None else self.max_samples,
            budget=None if self.samples is not None else self.budget, min_samples=self.min_samples,
            match=self.match,
        )


@dataclass
class CardValues:
    """What sampling found for each legal card: the tokens it is worth to the seat's side in each
    layout (``values``), its tricks summed over the layouts (``tricks``), and, when kapothi may be
    announced, its tokens if announced first (``announce_values``)."""

    cards: list[int]
    values: dict[int, list[float]]
    tricks: dict[int, float]
    announce_values: dict[int, list[float]]
    may_announce: bool
    trump: int
    samples: int

    def mean(self, card: int, announced: bool = False) -> float:
        """Mean tokens of ``card`` over the layouts (after announcing kapothi if ``announced``)."""
        found = (self.announce_values if announced else self.values)[card]
        # fsum: the same mean on every Python (the analysis reports it, in the browser too)
        return math.fsum(found) / len(found) if found else 0.0

    def _cheap(self, card: int) -> tuple[bool, int]:
        return card // SUIT_BITS != self.trump, -(card % SUIT_BITS)  # keep trumps and high cards

    def best_card(self, announced: bool = False) -> int:
        """The card of best total value; ties: more tricks, then not a trump, then the lower."""
        found = self.announce_values if announced else self.values
        return max(self.cards, key=lambda c: (sum(found[c]), self.tricks[c], *self._cheap(c)))

    def choice(self) -> str:
        """The hard player's action: ``kapothi`` when announcing is worth more, else the best card."""
        best = self.best_card()
        if self.may_announce:
            best_announced = self.best_card(announced=True)
            if sum(self.announce_values[best_announced]) > sum(self.values[best]):
                return "kapothi"
        return "play " + CARD_NAMES[best]


def sample_values(know: Knowledge, view: Mapping[str, Any], cards: list[int], may_announce: bool,
                  rng: random.Random, sampler: DealSampler, solver: Solver, samples: int,
                  budget: float | None = None, min_samples: int = MIN_SAMPLES,
                  match: bool = False) -> CardValues:
    """Score ``cards`` on layouts drawn from ``sampler``, each solved double dummy by ``solver``
    and valued in tokens by :func:`hand_value` (with ``match``: by the chance of winning the
    match, :func:`match_value`).  ``samples`` layouts at most; with a ``budget``
    (seconds) it also stops when one more layout, at the mean time so far, would overrun it, or
    from ``min_samples`` on once the best card is settled (checked every :data:`CHECK_EVERY`);
    without one it solves exactly ``samples``."""
    from bistrot.omi.dd import Position

    me = know.side_of(know.seat)
    won = know.tricks_won[me]
    announced = view.get("kapothi_announced")
    carry = int(view.get("carry") or 0)
    tokens = list(view.get("tokens") or [0] * know.rules.sides)
    values: dict[int, list[float]] = {c: [] for c in cards}
    tricks: dict[int, float] = dict.fromkeys(cards, 0.0)
    announce_values: dict[int, list[float]] = {c: [] for c in cards}
    trick = tuple(know.trick)
    start = time.perf_counter()
    value_of: dict[tuple[int, int | None], float] = {}

    def value(total: int, side: int | None) -> float:
        key = (total, side)
        if key not in value_of:
            worth = match_value if match else hand_value
            value_of[key] = worth(know, total, side, carry, tokens)
        return value_of[key]

    trump = know.trump
    assert trump is not None  # cards are searched in the play phase, after the trump choice
    n = 0
    batch: list[list[int]] = []
    while n < samples:
        if not batch:
            batch = sampler.sample_many(rng, min(CHECK_EVERY, samples - n))
        hands = batch.pop()
        pos = Position(hands=tuple(hands), trump=trump, trick=trick, to_move=know.seat,
                       players=know.players)
        solved = solver(pos)
        for card in cards:
            t = solved[card]
            values[card].append(value(won + t, announced))
            tricks[card] += t
            if may_announce:
                announce_values[card].append(value(won + t, me))
        n += 1
        if budget is not None:
            spent = time.perf_counter() - start
            if spent + spent / n >= budget:  # one more layout would likely overrun the budget
                break
            if n >= min_samples and n % CHECK_EVERY == 0 and _settled(values):
                break
    return CardValues(cards, values, tricks, announce_values, may_announce, trump, n)


def _settled(values: Mapping[int, list[float]]) -> bool:
    """Whether the leading card is ahead of each other by more than two standard errors (paired)."""
    best = max(values, key=lambda c: sum(values[c]))
    top = values[best]
    n = len(top)
    for card, other in values.items():
        if card == best:
            continue
        diffs = [a - b for a, b in zip(top, other, strict=True)]
        if not any(diffs):
            continue  # the same value in every layout: nothing to learn
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean - 2 * math.sqrt(var / n) <= 0:
            return False
    return True


FROZEN_OPTIONS: dict[str, Any] = {
    "budget": 0.5, "max_samples": 400, "min_samples": 100, "evidence": True,
    "play_evidence": True, "model": True, "mismatch": 0.1, "pool": 16, "match": False,
}
"""The hard player's settings on 2026-11-30, before it played the match."""


class FrozenHardOmiBot(HardOmiBot):
    """``hard-v1``: the hard player as it was on 2026-11-30, scoring hands in tokens only (see
    :data:`FROZEN_OPTIONS`); the arena measures the hard level against it, never offered to
    players.  Its choices are pinned by a test, so that a later change to the hard player cannot
    move it unnoticed.  Options given override the frozen ones except ``match``."""

    level = "hard-v1"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed=seed, **{**FROZEN_OPTIONS, **options, "match": False})
