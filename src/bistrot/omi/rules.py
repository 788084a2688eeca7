"""The options of an Omi table, as RULES.md names them.

>>> rules = OmiRules(target=5)
>>> rules.target, rules.players, rules.kapothi
(5, 4, 'three_tokens')
>>> OmiRules.from_dict({"players": 3}).deck_size
24
>>> OmiRules(hands=4).hands  # a fixed-length match: four hands, whatever the tokens
4
>>> OmiRules(players=5)
Traceback (most recent call last):
...
ValueError: players must be 4 or 3, not 5
"""

from __future__ import annotations

from dataclasses import dataclass

from bistrot.cards import deck_mask
from bistrot.ruleset import Ruleset, option

DIRECTIONS = ("counterclockwise", "clockwise")
DEAL_ROTATIONS = ("with_play", "against_play")
KAPOTHI_RULES = ("three_tokens", "wins_match", "announced")
HAND_SIZE = 8
#: The deck by number of players: 7 to ace with 4, 9 to ace with 3.
_DECKS = {4: deck_mask(range(7, 15)), 3: deck_mask(range(9, 15))}


@dataclass(frozen=True)
class OmiRules(Ruleset):
    """One Omi table's rules; every field is an option of RULES.md, defaults as there."""

    GAME = "Omi"

    target: int = option(
        10, "int", choices=(10, 5), min=1, max=99, tag="Target", help="tokens to win the match"
    )
    """Tokens that win the match."""
    players: int = option(
        4, "int", choices=(4, 3), min=3, max=4, tag="Players", help="players: 4 in two partnerships, or 3"
    )
    """4 in two partnerships, or 3 each for themselves with 24 cards."""
    direction: str = option("counterclockwise", "choice", choices=DIRECTIONS, tag="Direction")
    """Which way play order runs on screen; seats are always numbered in play order."""
    deal_rotation: str = option("with_play", "choice", choices=DEAL_ROTATIONS, tag="DealRotation")
    """``with_play``: the deal passes to the next player in play order; ``against_play``."""
    kapothi: str = option("three_tokens", "choice", choices=KAPOTHI_RULES, tag="Kapothi")
    """All 8 tricks: ``three_tokens``, ``wins_match``, or ``announced`` before trick 7."""
    redeal_few_trumps: bool = option(False, "bool", tag="RedealFewTrumps")
    """Redeal (same dealer) when a team holds fewer than 2 trumps (4 players only)."""
    hands: int = option(
        0, "int", choices=(0, 4), min=0, max=99, tag="Hands",
        help="0: play to the target; N: the match is N hands long",
    )  # fmt: skip
    """0: the match is played to ``target``; N: it is N hands long, and ends after the Nth
    (the side with most tokens wins, equal tokens draw); ``target`` is then not read."""

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or not 1 <= self.target <= 99:
            raise ValueError(
                f"target must be a positive whole number of tokens up to 99, not {self.target!r}"
            )
        # 4.0 == 4: the type too, or a float stored in the rules breaks the table (range(4.0))
        if isinstance(self.players, bool) or not isinstance(self.players, int) or self.players not in (4, 3):
            raise ValueError(f"players must be 4 or 3, not {self.players!r}")
        _check_choice("direction", self.direction, DIRECTIONS)
        _check_choice("deal_rotation", self.deal_rotation, DEAL_ROTATIONS)
        _check_choice("kapothi", self.kapothi, KAPOTHI_RULES)
        if isinstance(self.hands, bool) or not isinstance(self.hands, int) or not 0 <= self.hands <= 99:
            raise ValueError(
                f"hands must be a whole number from 0 (play to the target) to 99, not {self.hands!r}"
            )
        if not isinstance(self.redeal_few_trumps, bool):
            raise ValueError(f"redeal_few_trumps must be true or false, not {self.redeal_few_trumps!r}")
        if self.players == 3 and self.redeal_few_trumps:
            raise ValueError("redeal_few_trumps is played with 4 players only")
        if self.players == 3 and self.kapothi == "announced":
            raise ValueError(
                "announced kapothi is a partnership rule: with 3 players choose "
                "three_tokens or wins_match"
            )

    @property
    def ranks(self) -> range:
        """Ranks in play: 7 to ace with 4 players, 9 to ace with 3."""
        return range(7 if self.players == 4 else 9, 15)

    @property
    def deck(self) -> int:
        """The deck as a card set."""
        return _DECKS[self.players]

    @property
    def deck_size(self) -> int:
        """32 with 4 players, 24 with 3."""
        return 4 * len(self.ranks)

    @property
    def sides(self) -> int:
        """Scoring sides: 2 teams with 4 players, 3 players with 3."""
        return 2 if self.players == 4 else 3

    @property
    def deal_step(self) -> int:
        """How the deal, and with it the trump choice, moves after each hand: +1 to the next
        player in play order (``with_play``), -1 to the one before (``against_play``).

        >>> OmiRules().deal_step, OmiRules(deal_rotation="against_play").deal_step
        (1, -1)
        """
        return 1 if self.deal_rotation == "with_play" else -1

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat: its team (seat % 2) or, with 3 players, itself."""
        return seat % 2 if self.players == 4 else seat


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
