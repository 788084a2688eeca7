"""The ``easy`` Omi player: sensible simple cards, a naive trump choice, and obvious mistakes.

It wins a trick when it cheaply can and otherwise plays low, with no memory of what was played,
and one card in six is a random legal card: a beginner's game.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.new(OmiRules(), seed=3)
>>> bot = EasyOmiBot(seed=1)
>>> while not game.is_over:
...     game.apply(bot.act(game.view(game.to_move)))
>>> game.winner in (0, 1)
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bistrot.cards import CARD_BY_NAME, SUIT_BITS, SUIT_LETTERS

MISTAKE_RATE = 1 / 6


def _rank(card: str) -> int:
    return CARD_BY_NAME[card] % SUIT_BITS


def _suit(card: str) -> str:
    return card[-1]


class EasyOmiBot:
    """A beginner: see the module docstring."""

    level = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: Mapping[str, Any]) -> str:
        legal: list[str] = list(view["legal"])
        if not legal:
            raise ValueError("the bot was asked to act with no legal action")
        if legal[0].startswith("trump"):
            return self._choose_trump(view["hand"])
        plays = [a for a in legal if a.startswith("play ")]
        if not plays:
            return legal[0]
        if self.rng.random() < MISTAKE_RATE:
            return self.rng.choice(plays)
        return "play " + self._pick_card([a[5:] for a in plays], view)

    def _choose_trump(self, hand: list[str]) -> str:
        # The longest suit among the four cards seen, ties broken by the highest card.
        def strength(suit: str) -> tuple[int, int]:
            ranks = [_rank(c) for c in hand if _suit(c) == suit]
            return len(ranks), max(ranks, default=-1)

        return "trump " + max(SUIT_LETTERS, key=strength)

    def _pick_card(self, cards: list[str], view: Mapping[str, Any]) -> str:
        trick = view["trick"]
        if not trick:
            return max(cards, key=_rank)  # lead the highest card
        trump = view["trump"]
        led = _suit(trick[0]["card"])

        def power(card: str) -> tuple[int, int]:
            suit = _suit(card)
            return (2 if suit == trump else 1 if suit == led else 0), _rank(card)

        best = max(power(t["card"]) for t in trick)
        winners = [c for c in cards if power(c) > best]
        if winners:
            return min(winners, key=power)  # the cheapest card that wins
        return min(cards, key=lambda c: (_suit(c) == trump, _rank(c)))  # throw the lowest
