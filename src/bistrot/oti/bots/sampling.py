"""Determinization: a full game state consistent with what one seat has seen.

The cards a seat cannot see (the others' hands beyond the cards everybody saw go into them,
every face-down card including its own, the draw pile) are dealt at random from the cards it
has not seen.  Search then plays on such states as if everything were open.

>>> import random
>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.new(OtiRules(players=3), seed=9)
>>> for seat in range(3):
...     game.apply("ready", seat=seat)
>>> guess = determinize(game.view(game.to_move), random.Random(1))
>>> guess.hands[game.to_move] == game.hands[game.to_move], guess.up == game.up
(True, True)
>>> [len(d) for d in guess.down] == [len(d) for d in game.down], guess.draw_left == game.draw_left
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bistrot.cards import CARD_BY_NAME, bits
from bistrot.oti.bots.common import mask_of_names
from bistrot.oti.game import PLAY, OtiGame
from bistrot.oti.position import Position
from bistrot.oti.rules import OtiRules
from bistrot.oti.values import FULL_DECK


def unseen_cards(view: Mapping[str, Any]) -> list[int]:
    """The cards whose place the seat of ``view`` does not know, lowest first."""
    seen = mask_of_names(view["hand"]) | mask_of_names(view["pile"]) | mask_of_names(view["burnt"])
    for cards in (*view["face_up"], *view["known_in_hand"]):
        seen |= mask_of_names(cards)
    free = FULL_DECK & ~seen
    return [c for c in range(52) if free >> c & 1]


def determinize(view: Mapping[str, Any], rng: random.Random, rules: OtiRules | None = None) -> OtiGame:
    """A game in the play phase, as the view shows it, with the unseen cards dealt at random."""
    if view["phase"] != PLAY:
        raise ValueError("determinize needs a view of the play phase")
    rules = rules or OtiRules.from_dict(view["rules"])
    me, n = view["seat"], view["players"]
    pool = unseen_cards(view)
    rng.shuffle(pool)
    taken = 0
    hands = []
    for seat in range(n):
        if seat == me:
            hands.append(mask_of_names(view["hand"]))
            continue
        hand = mask_of_names(view["known_in_hand"][seat])
        unknown = view["hand_counts"][seat] - hand.bit_count()
        for card in pool[taken : taken + unknown]:
            hand |= 1 << card
        taken += unknown
        hands.append(hand)
    down = []
    for seat in range(n):
        count = view["face_down"][seat]
        down.append(tuple(pool[taken : taken + count]))
        taken += count
    draw = tuple(pool[taken:])
    if len(draw) != view["draw_pile"]:
        raise ValueError("the view is inconsistent: the unseen cards do not fill the hidden places")

    position = Position(
        tuple(tuple(bits(hand)) for hand in hands),
        tuple(tuple(bits(mask_of_names(cards))) for cards in view["face_up"]),
        tuple(down),
        draw=draw,
        pile=tuple(CARD_BY_NAME[name] for name in view["pile"]),
        to_move=view["to_move"],
    )
    return OtiGame.from_guess(
        rules, position, known=[mask_of_names(cards) for cards in view["known_in_hand"]],
        out=view["out"], again=view["play_again"], first_player=view["first_player"],
    )
