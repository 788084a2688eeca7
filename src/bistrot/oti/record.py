"""Oti game records: a readable text in the spirit of PGN that round-trips exactly.

The common part (``Game``, one tag per rules option, ``Seed``; comments) is
:mod:`bistrot.records`.  Oti adds, for a game set up by hand, the starting position
(``Hands``, ``FaceUp``, ``FaceDown``, ``Draw``, ``Pile``, ``ToMove``; seats separated by ``/``,
``-`` for none), and the result (``Result``, ``End``).  The actions follow one a line as
``<seat>: <action>`` (the seat is needed because everybody swaps at once before play), with
the deal, cards turned and burns as comments.

A record shows the whole deal: it is for after the game, like the deal code.

>>> from bistrot.oti import OtiGame, OtiRules
>>> game = OtiGame.new(OtiRules(players=3), seed=7)
>>> for seat in range(3):
...     game.apply("ready", seat=seat)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> OtiGame.from_record(game.record()) == game
True
>>> read_actions(OtiRules(), "0: ready 1: play 7S 7H".split())
[(0, 'ready'), (1, 'play 7S 7H')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from bistrot.cards import CARD_NAMES, bits
from bistrot.engine import Logged
from bistrot.errors import IllegalAction
from bistrot.oti.actions import parse_action
from bistrot.oti.position import Position, check_position, to_cards
from bistrot.oti.rules import OtiRules
from bistrot.oti.view import Event
from bistrot.records import shown

_SEAT = re.compile(r"^(\d+):$")


class Replay(Protocol):
    """What the writer reads of a game while replaying it (an :class:`~bistrot.oti.OtiGame`)."""

    @property
    def players(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def hands(self) -> list[int]: ...
    @property
    def up(self) -> list[int]: ...
    @property
    def down(self) -> list[tuple[int, ...]]: ...
    @property
    def history(self) -> list[Event] | None: ...
    @property
    def first_player(self) -> int | None: ...
    def apply(self, action: str, seat: int | None = None) -> None: ...


def _cards(cards: Iterable[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards) or "-"


def _seats(zone: tuple[tuple[int, ...], ...]) -> str:
    return " / ".join(_cards(cards) for cards in zone)


def tags(
    given: Position | None, ranking: Sequence[int] | None, winner: int | None, end_reason: str | None
) -> list[tuple[str, str]]:
    """Oti's own tags, after the common ones: the given start, and the ``ranking`` (None while
    the game goes on)."""
    found: list[tuple[str, str]] = []
    if given is not None:
        found += [
            ("Hands", _seats(given.hands)),
            ("FaceUp", _seats(given.face_up)),
            ("FaceDown", _seats(given.face_down)),
            ("Draw", _cards(given.draw)),
            ("Pile", _cards(given.pile)),
        ]
        if given.to_move is not None:
            found.append(("ToMove", str(given.to_move)))
    result = "*"
    if ranking is not None:
        shown: Sequence[int | None] = ranking or [winner]
        result = " ".join(map(str, shown))
    found.append(("Result", result))
    if end_reason:
        found.append(("End", end_reason))
    return found


def body(replay: Replay, actions: Sequence[Logged], winner: int | None, end_reason: str | None) -> list[str]:
    """The actions, one a line, annotated: ``replay`` is the game at its start, and is played on
    through ``actions``; ``end_reason`` (None while the game goes on) and ``winner`` end it."""
    lines = []
    for seat in range(replay.players):
        lines.append(
            f"{{Seat {seat}: hand {_cards(bits(replay.hands[seat]))}, face up "
            f"{_cards(bits(replay.up[seat]))}, face down {_cards(replay.down[seat])}}}"
        )
    started = replay.phase != "swap"
    for seat, action in actions:
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
    if end_reason is not None:
        lines.append(f"{{Game over ({end_reason}): seat {winner} wins}}")
    return lines


def read_actions(rules: OtiRules, words: Sequence[str]) -> list[tuple[int, str]]:
    """The ``(seat, action)`` pairs of a record's moves (its words, comments removed);
    ``ValueError`` for an action without a seat, not an Oti action, or of a seat not at the
    table."""
    actions: list[tuple[int, str]] = []
    seat: int | None = None
    current: list[str] = []
    for word in [*words, "0:"]:
        match = _SEAT.match(word)
        if match:
            if current:
                if seat is None:
                    raise ValueError(f"{shown(' '.join(current))} in the record does not say which seat acts")
                actions.append((seat, " ".join(current)))
            seat, current = int(match.group(1)), []
        else:
            current.append(word)
    for number, (who, action) in enumerate(actions, 1):
        try:
            parse_action(action)
        except IllegalAction as err:
            raise ValueError(f"action {number} ({shown(action)}) in the record: {err}") from None
        if who >= rules.players:
            raise ValueError(f"action {number} names seat {who}, but the game has {rules.players} seats")
    return actions


def read_position(rules: OtiRules, tags: Mapping[str, str]) -> Position | None:
    """The starting position the tags give, or None for a game dealt from its seed."""
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
        raise ValueError(f"the ToMove tag must be a seat number, not {shown(to_move)}")
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
