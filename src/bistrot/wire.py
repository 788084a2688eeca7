"""The table protocol's pure half: client messages, answers, and the ``state`` a seat is sent.

docs/protocol.md is the contract.  Everything here is plain Python with no I/O and no
third-party import, so that two hosts speak exactly the same protocol: the card room server
(:mod:`bistrot.server`) and the table on the player's own device (:mod:`bistrot.local`, which
runs in the browser under Pyodide when the page is offline).

>>> parse_client_message('{"type": "act", "id": "m1", "action": "play TH"}')
ClientMessage(type='act', id='m1', key='"m1"', action='play TH', seat=None, text=None)
>>> parse_client_message('{"type": "chat", "id": 3, "text": "well played"}').text
'well played'
>>> parse_client_message('{"type": "hint", "id": 4}').type
'hint'
>>> parse_client_message('{"type": "act", "action": "play TH"}')
Traceback (most recent call last):
...
bistrot.wire.BadMessage: bad_id: an act needs an "id": a text of 1 to 64 characters or an integer
>>> reject(7, "revoke", "you must follow suit")
{'type': 'reject', 'id': 7, 'code': 'revoke', 'message': 'you must follow suit'}
>>> from bistrot.omi import OmiGame, OmiRules
>>> view = OmiGame.new(OmiRules(), seed=1).view(1)
>>> msg = state_message(dict(view), 0, legal=[], seats=[], table={}, last=None)
>>> msg["type"], msg["seq"], msg["view"]["seat"], len(msg["view"]["hand"]), msg["last"]
('state', 0, 1, 4, None)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MAX_ID_CHARS = 64
MAX_SAFE_INT = 2**53
CLIENT_TYPES = ("act", "ping", "sync", "chat", "hint")
#: Arrays and objects a client message may open inside each other (it needs 1).
MAX_DEPTH = 16
#: A chat message's text as sent, before the table cleans it (a bound on what is read).
MAX_CHAT_TEXT = 1000


class BadMessage(Exception):
    """A client message refused before reaching a table; ``id`` is echoed if it was readable."""

    def __init__(self, code: str, message: str, id: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.id = id


@dataclass(frozen=True)
class ClientMessage:
    """A well-formed client message.  ``key`` is the id as JSON: the idempotency key."""

    type: str
    id: Any
    key: str | None
    action: str | None = None
    seat: int | None = None
    text: str | None = None  # a chat message's


def too_deep(text: str) -> bool:
    """Whether ``text`` opens more than :data:`MAX_DEPTH` arrays or objects inside each other.

    No client message nests at all beyond its object; ``json.loads`` of ``"[" * 4000`` recurses
    until Python's own limit (an uncaught ``RecursionError``), so depth is counted before any
    parse, without recursion, brackets inside strings aside.

    >>> too_deep('{"type": "chat", "text": "[[[[[[[[[[[[[[[[[[["}'), too_deep("[" * 4000)
    (False, True)
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:  # every real message: no scan
        return False
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def loads(text: str) -> Any:
    """``json.loads`` for client messages: :class:`BadMessage` ``too_deep`` past
    :data:`MAX_DEPTH`, ``bad_json`` for anything not JSON."""
    if too_deep(text):
        raise BadMessage("too_deep", f"a message nests at most {MAX_DEPTH} arrays or objects")
    try:
        return json.loads(text)
    except ValueError:
        raise BadMessage("bad_json", "the message is not JSON") from None


def _valid_id(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -MAX_SAFE_INT <= value <= MAX_SAFE_INT
    return isinstance(value, str) and 1 <= len(value) <= MAX_ID_CHARS


def peek_id(text: str) -> Any:
    """The message's ``id`` if it is readable and valid, else None (to echo in a reject)."""
    try:
        data = loads(text)
    except BadMessage:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if _valid_id(value) else None


def parse_client_message(text: str) -> ClientMessage:
    """Read one client message; :class:`BadMessage` names what is wrong."""
    data = loads(text)
    if not isinstance(data, dict):
        raise BadMessage("bad_message", 'a message is a JSON object such as {"type": "ping"}')
    raw_id = data.get("id")
    id_ok = _valid_id(raw_id)
    echo = raw_id if id_ok else None
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
        what = 'has no "type"' if kind is None else f"has the unknown type {shown!r}"
        raise BadMessage("unknown_type", f"the message {what}; the types are {', '.join(CLIENT_TYPES)}", echo)
    if (raw_id is not None and not id_ok) or (kind == "act" and raw_id is None):
        raise BadMessage(
            "bad_id",
            f'{"an act needs an" if kind == "act" else "the"} "id": a text of 1 to {MAX_ID_CHARS} '
            "characters or an integer",
        )
    key = None if raw_id is None else json.dumps(raw_id)
    if kind == "chat":
        said = data.get("text")
        if not isinstance(said, str) or len(said) > MAX_CHAT_TEXT:
            raise BadMessage("bad_chat", 'a chat message needs a "text" of at most 200 characters', echo)
        return ClientMessage(kind, raw_id, key, text=said)
    if kind != "act":
        return ClientMessage(kind, raw_id, key)
    action = data.get("action")
    if not isinstance(action, str):
        raise BadMessage("bad_message", 'an act needs an "action" text such as "play TH"', echo)
    seat = data.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise BadMessage("bad_message", '"seat" is a seat number', echo)
    seq = data.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        raise BadMessage("bad_message", '"seq" is the last sequence number seen, a whole number', echo)
    return ClientMessage(kind, raw_id, key, action, seat)


def ack(id: Any, seq: int) -> dict[str, Any]:
    """The answer to an action stored as number ``seq``."""
    return {"type": "ack", "id": id, "seq": seq}


def reject(id: Any, code: str, message: str) -> dict[str, Any]:
    """The answer to a refused message (nothing changed)."""
    return {"type": "reject", "id": id, "code": code, "message": message}


def hint_message(id: Any, seq: int, action: str) -> dict[str, Any]:
    """The answer to a seat's ``hint``: what the strongest computer player would do from that
    seat's view at ``seq``.

    >>> hint_message(5, 12, "play AH")
    {'type': 'hint', 'id': 5, 'seq': 12, 'action': 'play AH'}
    """
    return {"type": "hint", "id": id, "seq": seq, "action": action}


def pong(id: Any, seq: int) -> dict[str, Any]:
    """The answer to a heartbeat."""
    return {"type": "pong", "id": id, "seq": seq}


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON, as sent on the wire."""
    return json.dumps(message, separators=(",", ":"))


# ---------------------------------------------------------------------- what a seat is sent


def last_action(seq: int, seat: int, action: str, by: str) -> dict[str, Any]:
    """The ``last`` of a state: the action that produced seq ``seq`` (``by`` human or computer)."""
    return {"seq": seq, "seat": seat, "action": action, "by": by}


def state_message(
    view: dict[str, Any],
    seq: int,
    *,
    legal: list[str],
    seats: list[dict[str, Any]],
    table: dict[str, Any],
    last: dict[str, Any] | None,
) -> dict[str, Any]:
    """The ``state`` message of one audience (a seat, or spectators), from its ``view``.

    The view is the engine's own ``game.view(audience)`` (a fresh dict, completed here), so it
    holds nothing that audience may not see; the host adds what only it knows: ``legal`` (what
    this seat may do now, as the host decides: empty for a computer seat, before the start,
    after the end), ``seats`` and ``table``.
    """
    view["legal"] = legal
    view["seats"] = seats
    view["table"] = table
    return {"type": "state", "seq": seq, "view": view, "last": last}
