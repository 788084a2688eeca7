"""Oti actions as texts and as internal moves ``(kind, argument)`` for fast paths.

``swap <hand card> <face-up card>``, ``ready``, ``play <card> [<card> ...]``, ``pickup`` and
``flip``.  A play's argument is the set of its cards (an int); a swap's is ``hand << 6 | up``.
"""

from __future__ import annotations

from bistrot.cards import CARD_BY_NAME, CARD_NAMES, bits
from bistrot.errors import IllegalAction

READY, PICKUP, FLIP = "ready", "pickup", "flip"
#: Internal move kinds; a move is ``(kind, argument)``.
MOVE_PLAY, MOVE_PICKUP, MOVE_FLIP, MOVE_SWAP, MOVE_READY = range(5)


def play_text(mask: int) -> str:
    """The canonical text of playing a set of cards: ``play`` then the cards, spades first.

    >>> from bistrot.cards import Card
    >>> play_text(Card.parse("7H").bit | Card.parse("7S").bit)
    'play 7S 7H'
    """
    return "play " + " ".join(CARD_NAMES[c] for c in bits(mask))


def move_text(move: tuple[int, int]) -> str:
    """The text of an internal move (see :meth:`OtiGame.legal_moves`)."""
    kind, arg = move
    if kind == MOVE_PLAY:
        return play_text(arg)
    if kind == MOVE_SWAP:
        return f"swap {CARD_NAMES[arg >> 6]} {CARD_NAMES[arg & 63]}"
    return (PICKUP, FLIP, READY)[(MOVE_PICKUP, MOVE_FLIP, MOVE_READY).index(kind)]


def parse_action(text: object) -> tuple[int, int]:
    """Read an action text into an internal move, forgiving case, spacing, ``10H`` and ``10♥``.

    Only the form is checked here; whether the move is allowed is the game's business.

    >>> from bistrot.cards import Card
    >>> parse_action("play 7h 7S") == (MOVE_PLAY, Card.parse("7H").bit | Card.parse("7S").bit)
    True
    >>> parse_action("dance")
    Traceback (most recent call last):
    ...
    bistrot.errors.IllegalAction: 'dance' is not an Oti action: use 'swap <hand card> <face-up card>', \
'ready', 'play <card> [<card> ...]', 'pickup' or 'flip'
    """
    if not isinstance(text, str):
        raise IllegalAction("unknown_action", f"an action is a text such as 'play 7S', not {text!r}")
    words = text.split()
    verb = words[0].lower() if words else ""
    if verb in (READY, PICKUP, FLIP) and len(words) == 1:
        return {READY: (MOVE_READY, 0), PICKUP: (MOVE_PICKUP, 0), FLIP: (MOVE_FLIP, 0)}[verb]
    if verb == "play" and len(words) >= 2:
        mask = 0
        for word in words[1:]:
            card = _card(word)
            if mask >> card & 1:
                raise IllegalAction("unknown_action", f"{CARD_NAMES[card]} is named twice")
            mask |= 1 << card
        return MOVE_PLAY, mask
    if verb == "swap" and len(words) == 3:
        return MOVE_SWAP, _card(words[1]) << 6 | _card(words[2])
    shown = text if len(text) <= 40 else text[:40] + "..."
    raise IllegalAction(
        "unknown_action",
        f"{shown!r} is not an Oti action: use 'swap <hand card> <face-up card>', 'ready', "
        "'play <card> [<card> ...]', 'pickup' or 'flip'",
    )


def _card(word: str) -> int:
    card = CARD_BY_NAME.get(word.upper())
    if card is None:
        raise IllegalAction(
            "unknown_action",
            f"{word[:12]!r} is not a card: write the rank (2-9, T or 10, J, Q, K, A) then the suit "
            "(S, H, D, C), e.g. 'play TH'",
        )
    return card
