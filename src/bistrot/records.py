"""Game records, the part every game shares: tag lines, comments, the rules and seed tags.

A record is a block of tags, ``[Name "value"]`` one a line, then a blank line and the moves.
Every record starts with ``Game``, one tag per rules option (from the rules' option schema,
:meth:`~bistrot.ruleset.Ruleset.to_tags`) and ``Seed`` (the deal code); each game adds its
own tags and writes its own moves (:mod:`bistrot.omi.record`, :mod:`bistrot.oti.record`).
Text in braces ``{...}`` and after ``;`` is commentary for people, ignored when reading.
Tags are read in any order; missing rules tags take the option's default.  See
docs/records.md.

>>> from bistrot.omi import OmiRules
>>> text = write_record(OmiRules(target=5), 7, [("Dealer", "3")], ["trump H {chosen} ; fast"])
>>> print(text, end="")
[Game "Omi"]
[Players "4"]
[Target "5"]
[Direction "counterclockwise"]
[DealRotation "with_play"]
[Kapothi "three_tokens"]
[RedealFewTrumps "off"]
[Hands "0"]
[Seed "0000-0000-007K"]
[Dealer "3"]
<BLANKLINE>
trump H {chosen} ; fast
>>> found = read_record(text, OmiRules)
>>> found.rules.target, found.seed, found.tags["Dealer"], found.words
(5, 7, '3', ['trump', 'H'])
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from bistrot import dealcode
from bistrot.ruleset import Ruleset

R = TypeVar("R", bound=Ruleset)
Tag = tuple[str, str]
"""A tag: its name and its value."""

_TAG = re.compile(r'^\s*\[(\w+)\s+"([^"]*)"\]\s*$')


def shown(text: str, limit: int = 40) -> str:
    """``text`` as a message quotes it: whole if short, its start if long (a record read from
    anywhere may hold a huge word).

    >>> shown("AH"), shown("{" * 1000, 5)
    ("'AH'", "'{{{{{'... (1000 characters)")
    """
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def tag_lines(tags: Iterable[Tag]) -> list[str]:
    """Tags as record lines.

    >>> tag_lines([("Game", "Oti"), ("Result", "*")])
    ['[Game "Oti"]', '[Result "*"]']
    """
    return [f'[{name} "{value}"]' for name, value in tags]


def split_tags(text: str) -> tuple[dict[str, str], list[str]]:
    """The tags at the head of a record (a later tag wins) and the lines after them.

    >>> split_tags('[Game "Oti"]\\n[Seed "x"]\\n\\n0: ready')
    ({'Game': 'Oti', 'Seed': 'x'}, ['', '0: ready'])
    """
    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        match = _TAG.match(line)
        if match and not body:
            tags[match.group(1)] = match.group(2)
        else:
            body.append(line)
    return tags, body


def strip_comments(text: str) -> str:
    r"""``text`` with each comment replaced by a space: ``{...}`` (over several lines if need be)
    and ``;`` to the end of its line.  A ``{`` never closed is a plain character.

    One pass from left to right, in linear time whatever the text: each ``find`` either jumps
    past the comment it finds, or (a ``{`` never closed) fails once, after which no later ``{``
    is searched for.  (A regex such as ``\{[^}]*\}`` scanned to the end of the text from each
    unclosed brace: quadratic time.)

    >>> strip_comments("a {b} c ; d\ne {f")
    'a   c  \ne {f'
    """
    out: list[str] = []
    start = i = 0
    braces_close = True  # False once a "{" was found with no "}" after it
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "{" and braces_close:
            end = text.find("}", i + 1)
            if end < 0:
                braces_close = False
                i += 1
                continue
        elif ch == ";":
            end = text.find("\n", i + 1)
            end = n - 1 if end < 0 else end - 1  # the line's end stays
        else:
            i += 1
            continue
        out += [text[start:i], " "]
        start = i = end + 1
    out.append(text[start:])
    return "".join(out)


def words(lines: Iterable[str]) -> list[str]:
    """The words of a record's body, comments removed.

    >>> words(["1. AH 7H {a trump} ; a remark", "TH"])
    ['1.', 'AH', '7H', 'TH']
    """
    return strip_comments("\n".join(lines)).split()


@dataclass(frozen=True)
class ReadRecord(Generic[R]):
    """What :func:`read_record` finds: the common tags read, every tag, the body's words."""

    rules: R
    seed: int
    tags: dict[str, str]
    words: list[str]


def write_record(rules: Ruleset, seed: int, tags: Iterable[Tag], body: Iterable[str]) -> str:
    """A record: ``Game``, the rules and ``Seed`` tags, the game's ``tags``, a blank line,
    the ``body`` lines."""
    head = [("Game", rules.GAME), *rules.to_tags(), ("Seed", dealcode.encode(seed)), *tags]
    return "\n".join([*tag_lines(head), "", *body]).rstrip() + "\n"


def read_record(text: str, rules_class: type[R]) -> ReadRecord[R]:
    """Read the common part of a record of the game of ``rules_class``; ``ValueError`` says
    what is wrong (another game, a bad rules tag, no seed, not a text)."""
    if not isinstance(text, str):
        raise ValueError(f"a record is a text, not {type(text).__name__}")
    tags, body = split_tags(text)
    name = rules_class.GAME
    if tags.get("Game", name) != name:
        raise ValueError(f"this is a record of {tags['Game']}, not of {name}")
    rules = rules_class.from_tags(tags)
    if "Seed" not in tags:
        raise ValueError("a record needs a Seed tag")
    return ReadRecord(rules, dealcode.seed_from(tags["Seed"]), tags, words(body))
