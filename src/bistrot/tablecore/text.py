"""The one rule for the texts people show each other: display names and chat messages.

A text shown to others must look like what it is.  So every character is printable as
``str.isprintable`` says (no control or format character, no lone surrogate, which no database
stores as UTF-8, no private or unassigned code point, no space but the plain one), except the
two joiners writing needs (ZWNJ and ZWJ: Sinhala conjuncts as in ``ශ්‍රී``, Persian, emoji
sequences); and at least one character shows (not only spaces, joiners or letters drawn
blank).  Direction overrides (U+202E), which make a text read backwards, and zero-width
characters, which make an empty message or two names that look alike, are refused.

>>> check("  Kasun ", "a name", 24)
'Kasun'
>>> check("ශ්‍රී", "a name", 24) == "ශ්‍රී"
True
>>> check("\\u202eevil", "a chat message", 200)
Traceback (most recent call last):
...
bistrot.tablecore.text.TextRefused: a chat message cannot hold U+202E (RIGHT-TO-LEFT OVERRIDE)
>>> check("\\u200b\\u200b", "a name", 24)
Traceback (most recent call last):
...
bistrot.tablecore.text.TextRefused: a name cannot hold U+200B (ZERO WIDTH SPACE)
>>> check("x" * 25, "a name", 24)
Traceback (most recent call last):
...
bistrot.tablecore.text.TextRefused: a name is at most 24 characters
"""

from __future__ import annotations

import unicodedata

#: Format characters that writing needs: ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER.
JOINERS = frozenset("\u200c\u200d")
#: Letters and symbols drawn blank (Hangul fillers, the blank Braille pattern): a text of only
#: these, spaces and joiners shows nothing.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


class TextRefused(ValueError):
    """A text that may not be shown; ``too_long`` tells a text over the length from one that is
    empty or holds a character refused."""

    def __init__(self, message: str, *, too_long: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.too_long = too_long


def _named(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def check(text: str, what: str, max_chars: int) -> str:
    """``text`` without its outer whitespace, if it may be shown as ``what`` (a name, a chat
    message) of 1 to ``max_chars`` characters; :class:`TextRefused` saying why otherwise."""
    text = text.strip()
    for char in text:
        if not (char.isprintable() or char in JOINERS):
            raise TextRefused(f"{what} cannot hold {_named(char)}")
    if all(char == " " or char in JOINERS or char in BLANKS for char in text):
        raise TextRefused(f"{what} needs some text")
    if len(text) > max_chars:
        raise TextRefused(f"{what} is at most {max_chars} characters", too_long=True)
    return text
