"""The options of an Oti table, as RULES.md names them.

>>> rules = OtiRules(players=3)
>>> rules.players, rules.ten_plays_again, rules.voluntary_pickup, rules.play_to_last
(3, False, False, False)
>>> OtiRules.from_dict({"play_to_last": True}).play_to_last
True
>>> OtiRules(players=6)
Traceback (most recent call last):
...
ValueError: players must be a whole number from 2 to 5, not 6
"""

from __future__ import annotations

from dataclasses import dataclass

from bistrot.ruleset import Ruleset, option

MIN_PLAYERS, MAX_PLAYERS = 2, 5
HAND_SIZE = 3
"""Cards dealt to each of hand, face-up and face-down; also the hand size drawn back to."""


@dataclass(frozen=True)
class OtiRules(Ruleset):
    """One Oti table's rules; every field is an option of RULES.md, defaults as there."""

    GAME = "Oti"

    players: int = option(
        4, "int", choices=(2, 3, 4, 5), min=MIN_PLAYERS, max=MAX_PLAYERS, tag="Players",
        help="players at the table, you included",
    )
    """2 to 5, each for themselves."""
    ten_plays_again: bool = option(False, "bool", tag="TenPlaysAgain")
    """Whether the player who burns the pile with a 10 plays again (off: the turn passes)."""
    voluntary_pickup: bool = option(False, "bool", tag="VoluntaryPickup")
    """Whether a player may pick up the pile even when they could play."""
    play_to_last: bool = option(False, "bool", tag="PlayToLast")
    """Play on after the first player is out, to rank everyone."""

    def __post_init__(self) -> None:
        if (
            isinstance(self.players, bool)
            or not isinstance(self.players, int)
            or not MIN_PLAYERS <= self.players <= MAX_PLAYERS
        ):
            raise ValueError(
                f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players!r}"
            )
        for name in ("ten_plays_again", "voluntary_pickup", "play_to_last"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, not {value!r}")
