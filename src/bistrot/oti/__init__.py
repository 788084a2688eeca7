"""Oti, a shedding game of the Shithead/Palace family: rules, the engine, records, bots.

>>> from bistrot.oti import OtiRules, OtiGame, IllegalAction
>>> game = OtiGame.new(OtiRules(players=3), seed=42)
>>> game.phase, game.to_move, game.view(0)["face_down"]
('swap', None, [3, 3, 3])
"""

from bistrot.errors import IllegalAction
from bistrot.oti.actions import parse_action
from bistrot.oti.game import FACE_DOWN, FACE_UP, HAND, OVER, PLAY, SWAP, OtiGame
from bistrot.oti.position import Position, deal
from bistrot.oti.rules import OtiRules

__all__ = [
    "FACE_DOWN",
    "FACE_UP",
    "HAND",
    "OVER",
    "PLAY",
    "SWAP",
    "IllegalAction",
    "OtiGame",
    "OtiRules",
    "Position",
    "deal",
    "parse_action",
]
