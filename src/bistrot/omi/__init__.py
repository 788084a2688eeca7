"""Omi, Sri Lanka's favourite trick-taking game: rules, the match engine, records.

>>> from bistrot.omi import OmiRules, OmiGame, IllegalAction
>>> game = OmiGame.new(OmiRules(target=5), seed="0000-0000-01A5")
>>> game.to_move, game.tokens
(0, [0, 0])
"""

from bistrot.errors import IllegalAction
from bistrot.omi.game import KAPOTHI, OVER, PLAY, TRUMP, OmiGame, parse_action
from bistrot.omi.rules import OmiRules
from bistrot.omi.scoring import HandScore, score_hand

__all__ = [
    "KAPOTHI",
    "OVER",
    "PLAY",
    "TRUMP",
    "HandScore",
    "IllegalAction",
    "OmiGame",
    "OmiRules",
    "parse_action",
    "score_hand",
]
