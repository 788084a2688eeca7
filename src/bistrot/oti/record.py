"""Oti game records: a readable text in the spirit of PGN that round-trips exactly.

A record is a block of tags, ``[Name "value"]`` one a line, then the actions, one a line as
``<seat>: <action>`` (the seat is needed because everybody swaps at once before play).  The tags
name the rules (one tag per option), the seed as a deal code and, for a game set up by hand,
the starting position (``Hands``, ``FaceUp``, ``FaceDown``, ``Draw``, ``Pile``, ``ToMove``;
seats separated by ``/``, ``-`` for none).  Text in braces ``{...}`` and after ``;`` is
commentary for people (the deal, cards turned, burns) and is ignored when reading.

A record shows the whole deal: it is for after the game, like the deal code.

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.new(OtiRules(players=3), seed=7)
>>> for seat in range(3):
...     game.apply("ready", seat=seat)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> OtiGame.from_record(game.record()) == game
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bistrot import dealcode
from bistrot.cards import CARD_NAMES
from bistrot.oti.actions import parse_action
from bistrot.oti.position import Position, check_position, to_cards
from bistrot.oti.rules import OtiRules

if TYPE_CHECKING:
    from bistrot.oti.game import OtiGame

# Tag name, rules field; booleans are written on/off.
RULE_TAGS = (
    ("Players", "players"),
    ("TenPlaysAgain", "ten_plays_again"),
    ("VoluntaryPickup", "voluntary_pickup"),
    ("PlayToLast", "play_to_last"),
)
_TAG = re.compile(r'^\s*\[(\w+)\s+"([^"]*)"\]\s*$')
_COMMENT = re.compile(r"\{[^}]*\}|;[^\n]*")
_SEAT = re.compile(r"^(\d+):$")


def _cards(cards: tuple[int, ...] | list[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards) or "-"


def _seats(zone: tuple[tuple[int, ...], ...]) -> str:
    return " / ".join(_cards(cards) for cards in zone)


def write_record(game: OtiGame) -> str:
    """The record of ``game`` (replayed from the start to annotate it)."""
    from bistrot.oti.game import OtiGame

    rules = game.rules
    tags = [("Game", "Oti")]
    for tag, field in RULE_TAGS:
        value = getattr(rules, field)
        tags.append((tag, ("on" if value else "off") if isinstance(value, bool) else str(value)))
    tags.append(("Seed", dealcode.encode(game.seed)))
    start = game.given
    if start is not None:
        tags += [
            ("Hands", _seats(start.hands)),
            ("FaceUp", _seats(start.face_up)),
            ("FaceDown", _seats(start.face_down)),
            ("Draw", _cards(start.draw)),
            ("Pile", _cards(start.pile)),
        ]
        if start.to_move is not None:
            tags.append(("ToMove", str(start.to_move)))
    result = "*"
    if game.is_over:
        result = " ".join(map(str, game.out or [game.winner]))
    tags.append(("Result", result))
    if game.end_reason:
        tags.append(("End", game.end_reason))
    lines = [f'[{name} "{value}"]' for name, value in tags]

    replay = OtiGame(rules, game.seed, game.given)
    lines.append("")
    for seat in range(rules.players):
        lines.append(
            f"{{Seat {seat}: hand {_cards(sorted(_bits(replay.hands[seat])))}, face up "
            f"{_cards(sorted(_bits(replay.up[seat])))}, face down {_cards(replay.down[seat])}}}"
        )
    started = replay.phase != "swap"
    for seat, action in game.actions:
        before = len(replay.history or ())
        replay.apply(action, seat=seat)
        notes = []
        for event in (replay.history or [])[before:]:
            if event["action"] == "flip":
                notes.append(f"turns {event['cards'][0]}" + (", picks up" if "picked" in event else ""))
            if event.get("effect") in ("burn", "close"):
                notes.append("burnt" if event["effect"] == "burn" else "closed and burnt")
            if event.get("out"):
                notes.append("out")
        line = f"{seat}: {action}" + (f" {{{'; '.join(notes)}}}" if notes else "")
        lines.append(line)
        if not started and replay.phase != "swap":
            started = True
            lines.append(f"{{Seat {replay.first_player} holds the lowest card and starts}}")
    if game.is_over:
        lines.append(f"{{Game over ({game.end_reason}): seat {game.winner} wins}}")
    return "\n".join(lines).rstrip() + "\n"


def _bits(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def read_record(text: str) -> OtiGame:
    """The game a record describes; ``ValueError`` says what is wrong with a bad record."""
    from bistrot.errors import IllegalAction
    from bistrot.oti.game import OtiGame

    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        match = _TAG.match(line)
        if match and not body:
            tags[match.group(1)] = match.group(2)
        else:
            body.append(line)
    if tags.get("Game", "Oti") != "Oti":
        raise ValueError(f"this is a record of {tags['Game']}, not of Oti")
    options: dict[str, object] = {}
    for tag, field in RULE_TAGS:
        if tag in tags:
            value = tags[tag]
            if field == "players":
                if not value.isdigit():
                    raise ValueError(f"the {tag} tag must be a whole number, not {value!r}")
                options[field] = int(value)
            else:
                if value not in ("on", "off"):
                    raise ValueError(f"the {tag} tag must be on or off, not {value!r}")
                options[field] = value == "on"
    rules = OtiRules.from_dict(options)
    if "Seed" not in tags:
        raise ValueError("a record needs a Seed tag")
    seed = dealcode.seed_from(tags["Seed"])
    given = _read_position(rules, tags)

    actions: list[tuple[int, str]] = []
    words = _COMMENT.sub(" ", "\n".join(body)).split()
    seat: int | None = None
    current: list[str] = []
    for word in [*words, "0:"]:
        match = _SEAT.match(word)
        if match:
            if current:
                if seat is None:
                    raise ValueError(f"{' '.join(current)!r} in the record does not say which seat acts")
                actions.append((seat, " ".join(current)))
            seat, current = int(match.group(1)), []
        else:
            current.append(word)
    for number, (who, action) in enumerate(actions, 1):
        try:
            parse_action(action)
        except IllegalAction as err:
            raise ValueError(f"action {number} ({action!r}) in the record: {err}") from None
        if who >= rules.players:
            raise ValueError(f"action {number} names seat {who}, but the game has {rules.players} seats")
    game = OtiGame(rules, seed, given)
    game.apply_all(actions)
    return game


def _read_position(rules: OtiRules, tags: dict[str, str]) -> Position | None:
    names = ("Hands", "FaceUp", "FaceDown")
    if not any(name in tags for name in (*names, "Draw", "Pile", "ToMove")):
        return None
    missing = [name for name in names if name not in tags]
    if missing:
        raise ValueError(f"a record with a starting position needs the tags {', '.join(missing)}")

    def zone(name: str) -> tuple[tuple[int, ...], ...]:
        parts = tags[name].split("/")
        if len(parts) != rules.players:
            raise ValueError(f"the {name} tag must list {rules.players} seats separated by '/'")
        return tuple(_cards_of(part, name) for part in parts)

    to_move = tags.get("ToMove")
    if to_move is not None and not to_move.isdigit():
        raise ValueError(f"the ToMove tag must be a seat number, not {to_move!r}")
    position = Position(
        zone("Hands"), zone("FaceUp"), zone("FaceDown"),
        draw=_cards_of(tags.get("Draw", "-"), "Draw"), pile=_cards_of(tags.get("Pile", "-"), "Pile"),
        to_move=None if to_move is None else int(to_move),
    )
    if position.to_move is not None and position.to_move >= rules.players:
        raise ValueError(f"the ToMove tag names seat {position.to_move}, but the game has {rules.players}")
    check_position(rules, position)
    return position


def _cards_of(text: str, name: str) -> tuple[int, ...]:
    words = text.split()
    if words == ["-"]:
        return ()
    try:
        return to_cards(words, f"the {name} tag")
    except ValueError as err:
        raise ValueError(f"the {name} tag: {err}") from None
