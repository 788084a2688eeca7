"""Omi game records: a readable text in the spirit of PGN and PBN that round-trips exactly.

A record is a block of tags, ``[Name "value"]`` one a line, then the actions.  The tags name
the rules (one tag per option), the seed as a deal code, the first dealer, and, for a match
whose first hand was dealt by hand, that deal.  The actions follow in order: ``trump H`` for a
trump choice, ``kapothi`` for the announcement, and each trick as a number and its cards in the
order played (``3. TS 7H QS 8S``).  Text in braces ``{...}`` and after ``;`` is commentary for
people (the deal of each hand, results) and is ignored when reading.  See docs/records.md.

>>> from bistrot.omi import OmiGame, OmiRules
>>> game = OmiGame.new(OmiRules(target=1), seed=7)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> OmiGame.from_record(game.record()) == game
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bistrot import dealcode
from bistrot.cards import CARD_BY_NAME, CARD_NAMES
from bistrot.omi.rules import OmiRules

if TYPE_CHECKING:
    from bistrot.omi.game import OmiGame

# Tag name, rules field; booleans are written on/off.
RULE_TAGS = (
    ("Players", "players"),
    ("Target", "target"),
    ("Direction", "direction"),
    ("DealRotation", "deal_rotation"),
    ("Kapothi", "kapothi"),
    ("RedealFewTrumps", "redeal_few_trumps"),
)
_TAG = re.compile(r'^\s*\[(\w+)\s+"([^"]*)"\]\s*$')
_COMMENT = re.compile(r"\{[^}]*\}|;[^\n]*")
_MOVE_NUMBER = re.compile(r"^\d+\.$")


def _side_name(game: OmiGame, side: int) -> str:
    return f"player {side}" if game.rules.players == 3 else f"team {side} & {side + 2}"


def _deal_comment(game: OmiGame) -> str:
    hands = " / ".join(" ".join(CARD_NAMES[c] for c in cards) for cards in game.dealt)
    return f"{{Deal: {hands}}}"


def write_record(game: OmiGame) -> str:
    """The record of ``game`` (replayed from the start to annotate hands and tricks)."""
    from bistrot.omi.game import OmiGame

    rules = game.rules
    tags = [("Game", "Omi")]
    for tag, field in RULE_TAGS:
        value = getattr(rules, field)
        tags.append((tag, ("on" if value else "off") if isinstance(value, bool) else str(value)))
    tags += [("Seed", dealcode.encode(game.seed)), ("Dealer", str(game.first_dealer))]
    if game.given_deal is not None:
        tags.append(("Deal", " / ".join(" ".join(CARD_NAMES[c] for c in h) for h in game.given_deal)))
    tags.append(("Tokens", "-".join(map(str, game.tokens))))
    tags.append(("Result", "*" if game.winner is None else _side_name(game, game.winner)))
    lines = [f'[{name} "{value}"]' for name, value in tags]

    replay = OmiGame(rules, game.seed, game.given_deal, game.first_dealer)
    trick_words: list[str] = []
    lines.append("")
    lines.append(f"{{Hand 1: dealer {replay.dealer}, chooser {replay.chooser}}} {_deal_comment(replay)}")
    for action in game.actions:
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
            lines.append(f"{{Redeal: a team held fewer than 2 trumps}} {_deal_comment(replay)}")
        if len(replay.results) > results_before:
            result = replay.results[-1]
            tricks = "-".join(map(str, result["tricks"]))
            if result["side"] is None:
                lines.append(f"{{Tricks {tricks}: tied, {result['carry']} carried}}")
            else:
                lines.append(
                    f"{{Tricks {tricks}: {result['tokens']} to {_side_name(replay, result['side'])}, "
                    f"tokens {'-'.join(map(str, replay.tokens))}}}"
                )
            if replay.hand_index > hand_before:
                lines.append("")
                lines.append(
                    f"{{Hand {replay.hand_index + 1}: dealer {replay.dealer}, chooser {replay.chooser}}} "
                    f"{_deal_comment(replay)}"
                )
    if trick_words:
        lines.append(" ".join(trick_words))
    return "\n".join(lines).rstrip() + "\n"


def read_record(text: str) -> OmiGame:
    """The game a record describes; ``ValueError`` says what is wrong with a bad record."""
    from bistrot.omi.game import OmiGame

    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        match = _TAG.match(line)
        if match and not body:
            tags[match.group(1)] = match.group(2)
        else:
            body.append(line)
    if tags.get("Game", "Omi") != "Omi":
        raise ValueError(f"this is a record of {tags['Game']}, not of Omi")
    options: dict[str, object] = {}
    for tag, field in RULE_TAGS:
        if tag in tags:
            value = tags[tag]
            if field in ("players", "target"):
                if not value.isdigit():
                    raise ValueError(f"the {tag} tag must be a whole number, not {value!r}")
                options[field] = int(value)
            elif field == "redeal_few_trumps":
                if value not in ("on", "off"):
                    raise ValueError(f"the {tag} tag must be on or off, not {value!r}")
                options[field] = value == "on"
            else:
                options[field] = value
    rules = OmiRules.from_dict(options)
    if "Seed" not in tags:
        raise ValueError("a record needs a Seed tag")
    dealer = int(tags["Dealer"]) if tags.get("Dealer", "").isdigit() else None

    actions: list[str] = []
    words = _COMMENT.sub(" ", "\n".join(body)).split()
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
            raise ValueError(f"{word!r} in the record is neither a card, 'trump <suit>' nor 'kapothi'")
        i += 1
    if "Deal" in tags:
        hands = [hand.split() for hand in tags["Deal"].split("/")]
        game = OmiGame.from_deal(rules, hands, dealer, seed=tags["Seed"])
    else:
        game = OmiGame(rules, dealcode.seed_from(tags["Seed"]), None, dealer)
    game.apply_all(actions)
    return game
