"""Chat at a table where people play together (friends, hot seat): what a message may be, and
what every seat and spectator is sent.

A message is 1 to :data:`MAX_CHARS` characters once its outer spaces are gone, one line (line
breaks and other control characters become spaces: nothing can fake a second message or a
server line).  The table keeps the last :data:`KEPT` messages, stored with it, and sends them to
every connection that opens, so a reconnection misses none (each has its number ``n`` to tell
one already shown).

>>> clean("  well played!  ")
'well played!'
>>> clean("line one\\nline two\\x07")
'line one line two'
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
    """``text`` as it will be shown, or :class:`TableError` ``bad_chat`` (empty) or
    ``chat_too_long``."""
    cleaned = _CONTROL.sub(" ", text).strip()
    if not cleaned:
        raise TableError("bad_chat", "a chat message needs some text")
    if len(cleaned) > MAX_CHARS:
        raise TableError("chat_too_long", f"a chat message is at most {MAX_CHARS} characters")
    return cleaned


def chat_message(line: ChatLine) -> dict[str, Any]:
    """What every seat and spectator is sent for ``line``."""
    return {
        "type": "chat", "n": line.n, "seat": line.seat, "name": line.name, "text": line.text, "at": line.at,
    }
