"""What a connection may be sent: the checks of test_server_secrecy.py and test_fuzz_ws.py.

Every message a connection received is checked against the game rebuilt from the stored events
at that message's seq:

* a ``state``'s view is exactly the engine's view for that audience (plus the server's
  ``seats``/``table`` and its own ``legal``), ``last`` is the stored action of that seq;
* no card hidden from the audience at that seq appears anywhere in it (the engine's history
  fields, compared exactly above, are left out of this scan: they name cards public then);
* no other message names a hidden card the client did not name itself;
* the deal code (which reveals every hand) appears only once the game is over.

>>> sorted(cards_in({"hand": ["TH", "10♠"], "id": "AS", "note": "play 7C"}))
['7C', 'TH', 'TS']
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping
from typing import Any

from bistrot import dealcode
from bistrot.cards import CARD_NAMES

CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([SHDC♠♥♦♣])(?![0-9A-Za-z])")
SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SERVER_KEYS = {"seats", "table", "legal"}
HISTORY_KEYS = {"last_trick", "history"}  # compared exactly with the engine's, not scanned
SKIPPED_STRING_KEYS = {"id", "rematch"}  # random ids could look like a card name
# The help texts of rejects name a card as an example ("e.g. 'play TH'"), whatever the game holds.
EXAMPLE = re.compile(r"(?:e\.g\.|such as) (['\"])[^'\"]*\1")

Event = tuple[int, int, str, str, str | None]
"""A stored event: (seq, actor, action, by, client_id)."""


def cards_in(value: Any, key: str | None = None) -> set[str]:
    """Every card named anywhere in a JSON value (text or pretty form), as ``TH``-style names."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            found |= cards_in(k) | cards_in(v, k)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v, key)
    elif isinstance(value, str) and key not in SKIPPED_STRING_KEYS:
        for rank, suit in CARD.findall(value):
            found.add(("T" if rank == "10" else rank) + SUIT_OF_SYMBOL.get(suit, suit))
    return found


def names(mask: int) -> set[str]:
    """The names of the cards of a card set (one bit a card)."""
    return {CARD_NAMES[c] for c in range(52) if mask >> c & 1}


def hidden(game: Any, audience: int | None) -> set[str]:
    """The cards ``audience`` (a seat, or None for spectators) may not see in this state."""
    n = game.rules.players
    if game.view(None)["game"] == "omi":
        secret = set()
        for seat in range(n):
            secret |= names(
                game.hands[seat] if seat != audience else game.hands[seat] & ~game.visible_hand(seat)
            )
        return secret
    secret = {CARD_NAMES[c] for cards in game.down for c in cards} | {
        CARD_NAMES[c] for c in game.draw[game.draw_pos :]
    }
    for seat in range(n):
        if seat != audience:
            secret |= names(game.hands[seat] & ~game.known[seat])
    return secret


def stored_events(db: str, table: str) -> list[Event]:
    """The table's stored events, in order."""
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT seq, actor, action, by, client_id FROM events WHERE table_id = ? ORDER BY seq", (table,)
        ).fetchall()


def stored_seed(db: str, table: str) -> int:
    """The table's stored seed (a friends table's is never shown to anyone)."""
    with sqlite3.connect(db) as conn:
        seed: int = conn.execute("SELECT seed FROM tables WHERE id = ?", (table,)).fetchone()[0]
    return seed


def replay(game_spec: Any, rules: Any, seed: int, events: list[Event]) -> list[Any]:
    """The game at every seq (index = seq), rebuilt from the stored events."""
    played = [game_spec.game_class().new(rules, seed)]
    for _, actor, action, *_ in events:
        step = played[-1].copy()
        step.apply(action, seat=actor)
        played.append(step)
    return played


def check_messages(
    audience: int | None,
    messages: list[dict[str, Any]],
    played: list[Any],
    events: list[Event],
    seed: int,
    sent: Mapping[Any, list[str]],
) -> int:
    """Check every message one connection of ``audience`` received, in order (see the module
    docstring); ``sent``: the texts this audience sent under each message id (a reject may
    repeat them).  Returns how many states were checked."""
    code = dealcode.encode(seed)
    seq = None
    checked = 0
    for message in messages:
        text = json.dumps(message, ensure_ascii=False)
        if message["type"] == "state":
            seq = message["seq"]
            game = played[seq]
            view = dict(message["view"])
            expected = game.view(audience)
            assert {k: v for k, v in view.items() if k not in SERVER_KEYS} == {
                k: v for k, v in expected.items() if k != "legal"
            }
            assert set(view["legal"]) <= set(game.legal_actions(audience) if audience is not None else [])
            if seq:
                assert (
                    message["last"] is None
                    or (message["last"]["seat"], message["last"]["action"]) == events[seq - 1][1:3]
                )
            scanned = {k: v for k, v in view.items() if k not in HISTORY_KEYS}
            rest = {k: v for k, v in message.items() if k not in ("view", "last")}
            shown = cards_in(scanned) | cards_in(rest)
            secret = hidden(game, audience)
            assert not shown & secret, (audience, seq, shown & secret)
            if not game.is_over:
                assert code not in text
            checked += 1
        else:
            assert code not in text
            if seq is not None:
                mine = cards_in(" ".join(sent.get(message.get("id"), [])))
                told = cards_in({k: EXAMPLE.sub("", v) if k == "message" else v for k, v in message.items()})
                assert not (told - mine) & hidden(played[seq], audience), message
    return checked


#: Keys whose values are random ids (which may look like a card name, ``x-7C_``), never cards.
ID_KEYS = frozenset({"profile", "event", "event_url", "table", "table_id", "table_url", "token", "key"})


def no_cards(answer: Any) -> None:
    """No card named anywhere in a JSON ``answer`` but in its random ids (:data:`ID_KEYS`)."""
    if isinstance(answer, dict):
        for k, v in answer.items():
            if k not in ID_KEYS:
                no_cards(v)
    elif isinstance(answer, list):
        for v in answer:
            no_cards(v)
    else:
        assert not cards_in(answer), answer
