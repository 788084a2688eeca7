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
from collections.abc import Mapping, Sequence
from typing import Any

from bistrot.cards import CARD_BY_NAME, bits
from bistrot.oti.bots.common import mask_of_names
from bistrot.oti.bots.policy import HIGH
from bistrot.oti.game import PLAY, OtiGame
from bistrot.oti.position import Position
from bistrot.oti.rules import HAND_SIZE, OtiRules
from bistrot.oti.values import CLOSE, FULL_DECK, MAGIC, RANK_OF


def unseen_cards(view: Mapping[str, Any]) -> list[int]:
    """The cards whose place the seat of ``view`` does not know, lowest first."""
    seen = mask_of_names(view["hand"]) | mask_of_names(view["pile"]) | mask_of_names(view["burnt"])
    for cards in (*view["face_up"], *view["known_in_hand"]):
        seen |= mask_of_names(cards)
    free = FULL_DECK & ~seen
    return [c for c in range(52) if free >> c & 1]


def determinize(view: Mapping[str, Any], rng: random.Random, rules: OtiRules | None = None,
                excluded: Sequence[Sequence[int]] | None = None) -> OtiGame:
    """A game in the play phase, as the view shows it, with the unseen cards dealt at random.

    ``excluded[seat]``, when given (see :func:`hand_inference`), lists for each card of that
    seat's hand nobody has seen a set of values it is not (bit ``v``: not of value ``v``): those
    cards are dealt among the unseen cards of the other values while there are any."""
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
        slots = excluded[seat] if excluded is not None else ()
        if len(slots) == unknown:
            for no in sorted(slots, key=int.bit_count, reverse=True):  # the most restricted first
                for i in range(taken, len(pool)):
                    if not no >> RANK_OF[pool[i]] & 1:
                        pool[taken], pool[i] = pool[i], pool[taken]
                        break
                hand |= 1 << pool[taken]
                taken += 1
        else:
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


#: ``_PLAIN_FROM_BITS[need]``: the plain values that go on a pile needing ``need``, as value bits.
_PLAIN_FROM_BITS: tuple[int, ...] = tuple(
    sum(1 << r for r in range(max(need, 3), 15) if not MAGIC[r]) for need in range(15)
)
_MAGIC_BITS = (1 << 2) | (1 << 5) | (1 << 10)


def _ruled_out(value: int, count: int, top: int, run: int, pressed: bool) -> int:
    """The values a player following medium's rules of thumb cannot have held in hand when it
    played ``count`` cards of ``value`` on a pile topped by ``run`` cards of ``top``."""
    need = 0 if top in (0, 2, 5) else top
    if top and top != 10 and value == top and run + count == CLOSE:
        return 0  # closing comes first, whatever else it held
    no = 1 << top if top and top != 10 and run == CLOSE - 1 else 0  # it would have closed
    if value in (2, 10):
        return no | _PLAIN_FROM_BITS[need]  # magic only when no plain card fits
    if pressed:
        return no  # the hardest value for the next player, not the lowest
    if value == 5:
        return no | (_PLAIN_FROM_BITS[need] & ~_PLAIN_FROM_BITS[HIGH])  # nothing plain below a jack
    return no | (_PLAIN_FROM_BITS[need] & ~_PLAIN_FROM_BITS[value])  # the lowest value that fits


def hand_inference(view: Mapping[str, Any]) -> list[list[int]]:
    """What the others' plays say about their hands, if they play by medium's rules of thumb.

    For each seat, one entry per card of its hand nobody has seen (``hand_counts`` less
    ``known_in_hand``; empty for the view's own seat): the values that card cannot be, as bits.
    A player who shed a 9 on a 4 held no 4, 6, 7 or 8; one who picked up held nothing that goes;
    a card drawn since then is free again.  Read from the public history alone; a seat whose play
    the rules of thumb cannot explain gets no constraint.

    >>> from bistrot.oti import OtiGame, OtiRules
    >>> game = OtiGame.from_deal(OtiRules(players=2), ["3S 4S 6S", "7C 8C 9C"],
    ...     ["AS KS QS", "AC KC QC"], ["JS JH JD", "JC 3C 4C"], draw=[])
    >>> for seat in (0, 1):
    ...     game.apply("ready", seat=seat)
    >>> game.apply("play 3S"); game.apply("play 8C")  # the 8, not the 7: no 3, 4, 6 or 7
    >>> [bin(no) for no in hand_inference(game.view(0))[1]]
    ['0b11011000', '0b11011000']
    """
    me, n = view["seat"], view["players"]
    known: list[set[str]] = [set() for _ in range(n)]
    slots: list[list[int]] = [[0] * HAND_SIZE for _ in range(n)]
    counts = [HAND_SIZE] * n
    broken = [False] * n
    draw = view["draw_pile"] + _drawn(view)
    pile: list[int] = []
    out: list[int] = []
    pickup_says = _PLAIN_FROM_BITS if view["rules"].get("voluntary_pickup") else None
    for event in view["history"]:
        seat, action = event["seat"], event["action"]
        words = action.split()
        if words[0] == "swap":
            known[seat].add(words[2])
            known[seat].discard(words[1])
            slots[seat] = [0] * (HAND_SIZE - len(known[seat]))
            continue
        if words[0] in ("ready", "stop"):  # stop: the repetition rule ended the game
            continue
        top = pile[-1] if pile else 0
        run = len(pile) - next((i for i, v in enumerate(reversed(pile)) if v != top), len(pile))
        need = 0 if top in (0, 2, 5) else top
        if words[0] == "pickup":
            # forced, nothing went; by choice (voluntary_pickup), only instead of a magic card
            no = _PLAIN_FROM_BITS[need] | _MAGIC_BITS if pickup_says is None else pickup_says[need]
            slots[seat] = [s | no for s in slots[seat]]
            known[seat].update(event["cards"])
            counts[seat] += len(event["cards"])
            pile.clear()
        elif event.get("from") == "face_down":
            if "picked" in event:
                known[seat].update(event["cards"] + event["picked"])
                counts[seat] += len(event["picked"]) + 1
                pile.clear()
                continue
            pile.append(RANK_OF[CARD_BY_NAME[event["cards"][0]]])
        else:
            value, count = RANK_OF[CARD_BY_NAME[event["cards"][0]]], len(event["cards"])
            if event["from"] == "hand":
                nxt = (seat + 1) % n
                while nxt in out and nxt != seat:
                    nxt = (nxt + 1) % n
                pressed = not draw and not counts[nxt] and nxt != seat
                no = _ruled_out(value, count, top, run, pressed)
                hand = [s | no for s in slots[seat]]
                for name in event["cards"]:
                    if name in known[seat]:
                        known[seat].discard(name)
                        continue
                    fits = [i for i, s in enumerate(hand) if not s >> value & 1]
                    if not fits:
                        broken[seat] = True
                        fits = list(range(len(hand)))
                    if fits:  # the most restricted card that could be it
                        hand.pop(max(fits, key=lambda i: hand[i].bit_count()))
                counts[seat] -= count
                while counts[seat] < HAND_SIZE and draw:
                    hand.append(0)
                    counts[seat] += 1
                    draw -= 1
                slots[seat] = hand
            pile.extend([value] * count)
        if event.get("effect") in ("burn", "close"):
            pile.clear()
        if event.get("out"):
            out.append(seat)
    result: list[list[int]] = []
    for seat in range(n):
        unknown = view["hand_counts"][seat] - len(view["known_in_hand"][seat])
        ok = seat != me and not broken[seat] and len(slots[seat]) == unknown \
            and known[seat] == set(view["known_in_hand"][seat])
        result.append(slots[seat] if ok else [])
    return result


def _drawn(view: Mapping[str, Any]) -> int:
    """How many cards were drawn in the game so far: what the hands hold beyond the deal, less
    what went in by picking up, plus what was played from them."""
    drawn: int = sum(view["hand_counts"]) - HAND_SIZE * view["players"]
    for event in view["history"]:
        if event["action"] == "pickup":
            drawn -= len(event["cards"])
        elif "picked" in event:
            drawn -= len(event["picked"]) + 1
        elif event.get("from") == "hand":
            drawn += len(event["cards"])
    return drawn
