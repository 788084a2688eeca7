"""Chat at a table where people play together (friends, hot seat): what a message may be, and
what every seat and spectator is sent.

A message is 1 to :data:`MAX_CHARS` characters once its outer spaces are gone, one line (line
breaks and other control characters become spaces: nothing can fake a second message or a
server line), and otherwise follows the rule of names (:mod:`bistrot.tablecore.text`).  The
table keeps the last :data:`KEPT` messages, stored with it (older ones are dropped from the
store as new ones come), and sends them to every connection that opens, so a reconnection
misses none (each has its number ``n`` to tell one already shown).

>>> clean("  well played!  ")
'well played!'
>>> clean("line one\\nline two\\x07")
'line one line two'
>>> clean("\u200b")
Traceback (most recent call last):
...
bistrot.tablecore.errors.TableError: a chat message cannot hold U+200B (ZERO WIDTH SPACE)
>>> clean("x" * 201)
Traceback (most recent call last):
...
bistrot.tablecore.errors.TableError: a chat message is at most 200 characters
>>> chat_message(ChatLine(3, 1, "Kasun", "hi", 1700000000.5))
{'type': 'chat', 'n': 3, 'seat': 1, 'name': 'Kasun', 'text': 'hi', 'at': 1700000000.5}
"""

from __future__ import annotations

import re
from typing import Any

from bistrot.tablecore import text as text_rule
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.records import ChatLine

MAX_CHARS = 200
#: Messages a table keeps (and sends to a connection as it opens).
KEPT = 50
#: Modes whose tables have a chat: people playing together (not a game against the computer,
#: nor a challenge).
MODES = frozenset({"friends", "hotseat"})

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def clean(text: str) -> str:
    """``text`` as it will be shown (one line), or :class:`TableError` ``chat_too_long``, or
    ``bad_chat``: empty, or a character that names may not hold either (the one rule of
    :mod:`bistrot.tablecore.text`: a direction override, a zero-width space, a lone surrogate)."""
    try:
        return text_rule.check(_CONTROL.sub(" ", text), "a chat message", MAX_CHARS)
    except text_rule.TextRefused as err:
        raise TableError("chat_too_long" if err.too_long else "bad_chat", err.message) from None


def chat_message(line: ChatLine) -> dict[str, Any]:
    """What every seat and spectator is sent for ``line``."""
    return {
        "type": "chat", "n": line.n, "seat": line.seat, "name": line.name, "text": line.text, "at": line.at,
    }
