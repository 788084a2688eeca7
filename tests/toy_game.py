"""A toy third game, living in the tests: "High card", registered through the game registry alone.

Each of 2 to 4 players (option ``players``) is dealt ``rounds`` cards (option ``rounds``, 1 to 9)
from a 52-card deck shuffled from the game's seed.  The game is ``rounds`` rounds; in round ``r``
(0-based) seat ``r % players`` plays first, then every other seat in turn plays one card
(``play <card>``, any card held).  The strongest card of the round wins it (a point): cards rank
by value, ace high, then by suit, spades highest (S > H > D > C), so a round never ties.  After
the last round the seat with the most points wins; when several share the most points the game
is a draw (``winner`` None).

A seat's view shows its own hand, only the number of cards the others hold, the cards played in
this round and in the round before, and the points; a spectator's (``view(None)``) shows no hand.

>>> game = ToyGame.new(ToyRules(players=2, rounds=1), seed=6)
>>> game.view(0)["hand"], game.view(0)["counts"], game.view(None)["hand"]
(['4S'], [1, 1], [])
>>> game.to_move, game.legal_actions(), game.legal_actions(1)
(0, ['play 4S'], [])
>>> game.apply("play 4S"); game.apply("play 2C", seat=1)
Traceback (most recent call last):
...
bistrot.errors.IllegalAction: you do not hold 2C
>>> game.apply(game.legal_actions()[0]); game.is_over, game.points, game.winner
(True, [0, 1], 1)
>>> ToyGame.from_record(game.record()) == game
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from bistrot.cards import CARD_NAMES, RANK_LETTERS, SUIT_LETTERS
from bistrot.engine import ActionItem, GameBase, GameView
from bistrot.errors import IllegalAction
from bistrot.games import GameEntry
from bistrot.ruleset import Ruleset, option
from bistrot.seeding import SeededRandom, derive

PLAY, OVER = "play", "over"
CARD_OF = {name: card for card, name in enumerate(CARD_NAMES)}


def strength(card: str) -> int:
    """How strong a card is: value first (ace high), then suit (spades highest).

    >>> strength("AS") > strength("AH") > strength("KS") > strength("2C")
    True
    """
    return RANK_LETTERS.index(card[0]) * 4 + (3 - SUIT_LETTERS.index(card[1]))


@dataclass(frozen=True)
class ToyRules(Ruleset):
    """The rules of High card: the number of players and of rounds."""

    GAME = "Toy"

    players: int = option(3, "int", choices=(2, 3, 4), min=2, max=4, tag="Players",
                          help="players at the table, you included")
    rounds: int = option(3, "int", choices=(1, 3, 5), min=1, max=9, tag="Rounds",
                         help="rounds to play: each player is dealt one card a round")

    def __post_init__(self) -> None:
        for name, low, high in (("players", 2, 4), ("rounds", 1, 9)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")


def deal(rules: ToyRules, seed: int) -> list[list[str]]:
    """Each seat's cards, from the seed."""
    deck = list(range(52))
    SeededRandom(derive(seed, "toy", "deal")).shuffle(deck)
    n = rules.rounds
    return [sorted((CARD_NAMES[c] for c in deck[s * n:(s + 1) * n]), key=strength)
            for s in range(rules.players)]


class ToyGame(GameBase[ToyRules]):
    """A game of High card (see the module docstring)."""

    def __init__(self, rules: ToyRules, seed: int) -> None:
        super().__init__(rules, seed)
        self.hands = deal(rules, seed)
        self.points = [0] * rules.players
        self.round = 0
        self.played: list[tuple[int, str]] = []
        self.last_round: list[tuple[int, str]] = []
        self.winner: int | None = None
        self._to_move: int | None = 0

    # ----------------------------------------------------------------- the hooks of GameBase

    @classmethod
    def rules_class(cls) -> type[ToyRules]:
        return ToyRules

    @property
    def to_move(self) -> int | None:
        return self._to_move

    @property
    def is_over(self) -> bool:
        return self._to_move is None

    @property
    def phase(self) -> str:
        return OVER if self.is_over else PLAY

    def _start(self) -> tuple[Any, ...]:
        return ()

    def _status(self) -> str:
        if self.is_over:
            return f"over, winner {self.winner}"
        return f"round {self.round + 1}/{self.rules.rounds}, seat {self._to_move} to move"

    def _record_tags(self) -> list[tuple[str, str]]:
        result = "*" if not self.is_over else ("draw" if self.winner is None else str(self.winner))
        return [("Result", result)]

    def _record_body(self) -> list[str]:
        lines, cards = [], [text.split()[1] for _, text in self.actions]
        per_round = self.rules.players
        for start in range(0, len(cards), per_round):
            lines.append(f"{start // per_round + 1}. " + " ".join(cards[start:start + per_round]))
        return lines

    @classmethod
    def _from_record(cls, rules: ToyRules, seed: int, tags: dict[str, str], words: list[str]) -> tuple[
        Self, list[ActionItem]
    ]:
        return cls(rules, seed), [f"play {w}" for w in words if not w.endswith(".")]

    # ----------------------------------------------------------------- the game

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """``play <card>`` for each card the seat to move holds; nothing for anyone else."""
        if self._to_move is None or (seat is not None and seat != self._to_move):
            return []
        return [f"play {card}" for card in self.hands[self._to_move]]

    def apply(self, action: str, seat: int | None = None) -> None:
        if self._to_move is None:
            raise IllegalAction("game_over", "the game is over")
        n = self.rules.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise IllegalAction("unknown_seat", f"seats are numbered 0 to {n - 1}, not {seat!r}")
        if seat is not None and seat != self._to_move:
            raise IllegalAction("not_your_turn", f"it is seat {self._to_move}'s turn, not seat {seat}'s")
        words = action.split() if isinstance(action, str) else []
        if len(words) != 2 or words[0] != "play" or words[1].upper() not in CARD_OF:
            raise IllegalAction("unknown_action", f"say 'play <card>', such as 'play AS', not {action!r}")
        card, mover = words[1].upper(), self._to_move
        if card not in self.hands[mover]:
            raise IllegalAction("not_held", f"you do not hold {card}")
        self.actions.append((mover, f"play {card}"))
        self.hands[mover].remove(card)
        self.played.append((mover, card))
        if len(self.played) < n:
            self._to_move = (mover + 1) % n
            return
        best = max(self.played, key=lambda p: strength(p[1]))[0]
        self.points[best] += 1
        self.last_round, self.played = self.played, []
        self.round += 1
        if self.round < self.rules.rounds:
            self._to_move = self.round % n
            return
        self._to_move = None
        top = max(self.points)
        leaders = [s for s, p in enumerate(self.points) if p == top]
        self.winner = leaders[0] if len(leaders) == 1 else None

    def view(self, seat: int | None) -> GameView:
        view: dict[str, Any] = {
            "game": "toy",
            "seat": seat,
            "players": self.rules.players,
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "to_move": self._to_move,
            "legal": self.legal_actions(seat) if seat is not None else [],
            "is_over": self.is_over,
            "winner": self.winner,
            "hand": list(self.hands[seat]) if seat is not None else [],
            "counts": [len(h) for h in self.hands],
            "round": self.round,
            "played": [[s, c] for s, c in self.played],
            "last_round": [[s, c] for s, c in self.last_round],
            "points": list(self.points),
        }
        if self.is_over:
            view["deal_code"] = self.deal_code
        return view  # type: ignore[return-value]

    def copy(self) -> Self:
        return type(self).replay(self.rules, self.seed, self.actions)

    def summary(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": list(self.points)}


# --------------------------------------------------------------------- computer players


class EasyToyBot:
    """Any legal card, at random (seeded)."""

    level = "easy"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.rng = SeededRandom(seed)

    def act(self, view: Any) -> str:
        return str(self.rng.choice(view["legal"]))


class MediumToyBot:
    """Wins the round as cheaply as it can: the lowest card beating every card on the table,
    else its lowest card; when it plays first, its highest."""

    level = "medium"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.seed = seed

    def act(self, view: Any) -> str:
        cards = sorted((a.split()[1] for a in view["legal"]), key=strength)
        if not view["played"]:
            return f"play {cards[-1]}"
        best = max(strength(card) for _, card in view["played"])
        winning = [c for c in cards if strength(c) > best]
        return f"play {(winning or cards)[0]}"


ENTRY = GameEntry(
    name="toy",
    title="Toy",
    engine="toy_game:ToyGame",
    rules="toy_game:ToyRules",
    bots={"easy": "toy_game:EasyToyBot", "medium": "toy_game:MediumToyBot"},
    arena="bistrot.arena.rotation",
)
