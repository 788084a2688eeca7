"""Omi game records: a readable text in the spirit of PGN and PBN that round-trips exactly.

The common part (``Game``, one tag per rules option, ``Seed``; comments) is
:mod:`bistrot.records`.  Omi adds the first dealer (``Dealer``), for a match whose first hand
was dealt by hand that deal (``Deal``), and the score (``Tokens``, ``Result``).  The actions
follow in order: ``trump H`` for a trump choice, ``kapothi`` for the announcement, and each
trick as a number and its cards in the order played (``3. TS 7H QS 8S``), with the deal of
each hand and its result as comments.  See docs/records.md.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.new(OmiRules(target=1), seed=7)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> OmiGame.from_record(game.record()) == game
True
>>> read_actions("trump h 1. AH 7H kapothi".split())
['trump H', 'play AH', 'play 7H', 'kapothi']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Protocol

from bistrot.cards import CARD_BY_NAME, CARD_NAMES
from bistrot.engine import Logged
from bistrot.omi.rules import OmiRules
from bistrot.omi.view import HandResult, Trick
from bistrot.records import shown

_MOVE_NUMBER = re.compile(r"^\d+\.$")


class Match(Protocol):
    """What the writer reads of a match while replaying it (an :class:`~bistrot.omi.OmiGame`)."""

    @property
    def rules(self) -> OmiRules: ...
    @property
    def dealer(self) -> int: ...
    @property
    def chooser(self) -> int: ...
    @property
    def dealt(self) -> list[list[int]]: ...
    @property
    def hand_index(self) -> int: ...
    @property
    def redeals(self) -> int: ...
    @property
    def results(self) -> list[HandResult]: ...
    @property
    def completed(self) -> list[Trick]: ...
    @property
    def tokens(self) -> list[int]: ...
    def apply(self, action: str, seat: int | None = None) -> None: ...


def side_name(rules: OmiRules, side: int) -> str:
    """How a record names a scoring side."""
    return f"player {side}" if rules.players == 3 else f"team {side} & {side + 2}"


def _hands(hands: Sequence[Sequence[int]]) -> str:
    return " / ".join(" ".join(CARD_NAMES[c] for c in cards) for cards in hands)


def result_text(rules: OmiRules, over: bool, winner: int | None) -> str:
    """The ``Result`` tag: the winning side, ``draw`` (a fixed-length match ended level), or
    ``*`` while the match is on.

    >>> result_text(OmiRules(hands=4), True, None), result_text(OmiRules(), False, None)
    ('draw', '*')
    """
    if winner is not None:
        return side_name(rules, winner)
    return "draw" if over else "*"


def tags(
    rules: OmiRules,
    first_dealer: int,
    given_deal: Sequence[Sequence[int]] | None,
    tokens: Sequence[int],
    winner: int | None,
    over: bool = False,
) -> list[tuple[str, str]]:
    """Omi's own tags, after the common ones."""
    found = [("Dealer", str(first_dealer))]
    if given_deal is not None:
        found.append(("Deal", _hands(given_deal)))
    found.append(("Tokens", "-".join(map(str, tokens))))
    found.append(("Result", result_text(rules, over, winner)))
    return found


def body(replay: Match, actions: Sequence[Logged]) -> list[str]:
    """The moves, one line a trick, annotated: ``replay`` is the match at its start, and is
    played on through ``actions``."""
    trick_words: list[str] = []
    lines = [f"{{Hand 1: dealer {replay.dealer}, chooser {replay.chooser}}} {{Deal: {_hands(replay.dealt)}}}"]
    for _, action in actions:
        hand_before, redeals_before, results_before = replay.hand_index, replay.redeals, len(replay.results)
        tricks_before = len(replay.completed)
        replay.apply(action)
        if action.startswith("play "):
            if not trick_words:
                trick_words.append(f"{tricks_before + 1}.")
            trick_words.append(action[5:])
        else:
            trick_words.append(action)
        if action.startswith("trump "):
            lines.append(" ".join(trick_words))
            trick_words = []
        if len(replay.results) > results_before or len(replay.completed) > tricks_before:
            lines.append(" ".join(trick_words))
            trick_words = []
        if replay.redeals > redeals_before:
            lines.append(f"{{Redeal: a team held fewer than 2 trumps}} {{Deal: {_hands(replay.dealt)}}}")
        if len(replay.results) > results_before:
            lines.append(_result_comment(replay))
            if replay.hand_index > hand_before:
                lines.append("")
                lines.append(
                    f"{{Hand {replay.hand_index + 1}: dealer {replay.dealer}, chooser {replay.chooser}}} "
                    f"{{Deal: {_hands(replay.dealt)}}}"
                )
    if trick_words:
        lines.append(" ".join(trick_words))
    return lines


def _result_comment(replay: Match) -> str:
    result = replay.results[-1]
    tricks = "-".join(map(str, result["tricks"]))
    if result["side"] is None:
        return f"{{Tricks {tricks}: tied, {result['carry']} carried}}"
    return (
        f"{{Tricks {tricks}: {result['tokens']} to {side_name(replay.rules, result['side'])}, "
        f"tokens {'-'.join(map(str, replay.tokens))}}}"
    )


def read_start(tags: Mapping[str, str]) -> tuple[int | None, list[list[str]] | None]:
    """The first dealer (None: the default) and the hands dealt by hand (None: from the seed)."""
    dealer = int(tags["Dealer"]) if tags.get("Dealer", "").isdigit() else None
    deal = [hand.split() for hand in tags["Deal"].split("/")] if "Deal" in tags else None
    return dealer, deal


def read_actions(words: Sequence[str]) -> list[str]:
    """The actions of a record's moves (its words, comments removed)."""
    actions: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if _MOVE_NUMBER.match(word):
            pass
        elif word.lower() == "trump" and i + 1 < len(words):
            actions.append(f"trump {words[i + 1].upper()}")
            i += 1
        elif word.lower() == "kapothi":
            actions.append("kapothi")
        elif word.upper() in CARD_BY_NAME:
            actions.append(f"play {CARD_NAMES[CARD_BY_NAME[word.upper()]]}")
        else:
            raise ValueError(f"{shown(word)} in the record is neither a card, 'trump <suit>' nor 'kapothi'")
        i += 1
    return actions
