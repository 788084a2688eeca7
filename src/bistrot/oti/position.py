"""Where an Oti game starts: the seeded deal, or a position given card by card.

>>> start = deal(OtiRules(players=2), 42)
>>> [len(cards) for cards in start.hands], len(start.draw)
([3, 3], 34)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bistrot.cards import CARD_NAMES, Card
from bistrot.oti.rules import HAND_SIZE, OtiRules
from bistrot.seeding import SeededRandom, derive


@dataclass(frozen=True)
class Position:
    """Where a game starts: the cards of each seat, the draw pile (top first), the pile
    (bottom first), and who moves (None: the swap phase comes first)."""

    hands: tuple[tuple[int, ...], ...]
    face_up: tuple[tuple[int, ...], ...]
    face_down: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...] = ()
    pile: tuple[int, ...] = ()
    to_move: int | None = None

    def cards(self) -> list[int]:
        """Every card placed somewhere, in a fixed order."""
        out: list[int] = []
        for zone in (self.hands, self.face_up, self.face_down):
            for cards in zone:
                out.extend(cards)
        return out + list(self.draw) + list(self.pile)


def deal(rules: OtiRules, seed: int) -> Position:
    """The deal of ``seed``: one card at a time around the table, three rounds face down,
    three face up, three into the hands; the rest is the draw pile."""
    deck = list(range(52))
    SeededRandom(derive(seed, "oti")).shuffle(deck)
    n = rules.players
    zones: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(3)]
    position = 0
    for zone in (2, 1, 0):  # face down, face up, hand
        for _ in range(HAND_SIZE):
            for seat in range(n):
                zones[zone][seat].append(deck[position])
                position += 1
    hands, up, down = (tuple(tuple(cards) for cards in zone) for zone in zones)
    return Position(hands, up, down, tuple(deck[position:]))


def to_cards(cards: Iterable[str | int], what: str) -> tuple[int, ...]:
    """Cards as ints from texts or ints; ``what`` names the place in the error."""
    out = []
    for card in cards:
        if isinstance(card, str):
            out.append(int(Card.parse(card)))
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
            out.append(card)
        else:
            raise ValueError(f"{card!r} in {what} is not a card")
    return tuple(out)


def split_cards(cards: str | Iterable[str | int]) -> Iterable[str | int]:
    """A text of cards split into words; lists pass through."""
    return cards.replace(",", " ").split() if isinstance(cards, str) else cards


def check_position(rules: OtiRules, position: Position) -> None:
    """Refuse, with the reason, a position no game can be in."""
    cards = position.cards()
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"{CARD_NAMES[card]} is placed twice")
        seen.add(card)
    if position.draw:
        short = [s for s, h in enumerate(position.hands) if len(h) < HAND_SIZE]
        if short:
            raise ValueError(
                f"while the draw pile lasts every hand holds at least {HAND_SIZE} cards "
                f"(seat {short[0]} does not)"
            )
    if position.to_move is not None:
        players_with_cards = [
            s for s in range(rules.players)
            if position.hands[s] or position.face_up[s] or position.face_down[s]
        ]
        if position.to_move not in players_with_cards:
            raise ValueError(f"seat {position.to_move} has no cards and cannot be the one to move")
        if len(players_with_cards) < 2:
            raise ValueError("a game needs at least two players with cards")
        if len(players_with_cards) < rules.players and not rules.play_to_last:
            raise ValueError("every player needs cards: without play_to_last the first one out ends the game")
    for name, zone in (("face_up", position.face_up), ("face_down", position.face_down)):
        for seat, placed in enumerate(zone):
            if len(placed) > HAND_SIZE:
                raise ValueError(f"{name}[{seat}] holds {len(placed)} cards; at most {HAND_SIZE}")
    if position.to_move is None:
        for seat in range(rules.players):
            if not position.hands[seat] or not position.face_up[seat]:
                raise ValueError("a deal before the swap gives every player hand and face-up cards")
