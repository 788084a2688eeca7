"""Planning a table from a request: the checks, the seats, the secrets.

``POST /api/tables`` on the server and ``create`` on the player's device take the same request
and refuse it with the same codes; both plan the table here.  A planned table is records to
store (the table, its seats) and the secrets to hand back once (seat tokens, invite, watch key),
which are stored only as hashes.

>>> plan = plan_table({"game": "omi", "mode": "friends", "name": "Ama"}, PlanDefaults())
>>> plan.table.status, [s.kind for s in plan.seats], sorted(plan.tokens)
('waiting', ['human', 'open', 'open', 'open'], [0])
>>> plan.seats[0].name, plan.invite is not None
('Ama', True)
>>> plan_table({"game": "omi", "seat": 4}, PlanDefaults())
Traceback (most recent call last):
...
bistrot.tablecore.errors.TableError: seats are numbered 0 to 3, not 4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bistrot import dealcode, games
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.records import SeatRecord, TableRecord, new_secret, secret_hash

HUMAN, COMPUTER, OPEN = "human", "computer", "open"
WAITING, PLAYING, OVER = "waiting", "playing", "over"
EXPIRED = "expired"
"""A table nobody came back to, retired by the server (never recovered, never played again)."""
PACE = ("bot_delay_ms", "grace_s")
"""A table's pace.  The device's player may choose it; on the server its operator does (a client
choosing 0 for both had computer players run a table as fast as the server could go)."""
MAX_BOT_DELAY_MS = 10_000
MAX_GRACE_S = 3600.0


@dataclass(frozen=True)
class PlanDefaults:
    """What a host fills in when the request leaves it out, and what it allows."""

    bot_delay_ms: int = 700
    grace_s: float = 30.0
    modes: tuple[str, ...] = games.MODES
    secrets: bool = True
    """Seats held by secret tokens, with invite and watch keys (the server); the device's tables
    need none: whoever holds the device holds its seats."""
    id_prefix: str = ""
    choose_pace: bool = False
    """Whether a request may set the table's :data:`PACE` (the device); otherwise a request
    naming either is refused (``server_setting``) and the defaults above apply."""


@dataclass
class Plan:
    """A planned table: what to store, and the secrets to hand back once."""

    table: TableRecord
    seats: list[SeatRecord]
    tokens: dict[int, str] = field(default_factory=dict)
    invite: str | None = None
    watch: str | None = None

    def answer(self) -> dict[str, Any]:
        """The body of ``POST /api/tables``'s answer."""
        r = self.table
        humans = [s.seat for s in self.seats if s.kind == HUMAN]
        return {
            "table": r.id,
            "game": r.game,
            "mode": r.mode,
            "status": r.status,
            "seats": [{"seat": s, "token": self.tokens.get(s)} for s in humans],
            "table_url": f"/t/{r.id}",
            # The join link carries the watch key too: a friend who finds every seat taken may watch.
            "join_url": None
            if self.invite is None
            else f"/join/{r.id}#{self.invite}" + (f".{self.watch}" if self.watch else ""),
            "watch_url": None if self.watch is None else f"/watch/{r.id}#{self.watch}",
            "invite": self.invite,
            "watch": self.watch,
        }


def _whole(value: object, name: str, low: float, high: float) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or
                              not low <= value <= high):
        raise TableError("bad_request", f"{name} is a number from {low:g} to {high:g}", 422)


def refuse_pace(request: Mapping[str, Any]) -> None:
    """Refuse a request that sets the table's pace where its host sets it (:data:`PACE`).

    >>> refuse_pace({"game": "omi", "bot_delay_ms": 0})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bistrot.tablecore.errors.TableError: bot_delay_ms is this server's setting (BISTROT_BOT_DELAY_MS), ...
    """
    for key in PACE:
        if key in request:
            raise TableError(
                "server_setting",
                f"{key} is this server's setting (BISTROT_{key.upper()}), not a table's: leave it out",
                422,
            )


def _seat_number(value: object, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise TableError("bad_seat", f"seats are numbered 0 to {players - 1}, not {value}", 422)
    return value


def _bot_seat(key: object, players: int) -> int:
    """A key of ``bots``: a seat number, as a JSON object key writes it (``"2"``; the device's
    Python callers may pass 2).  Strict, as every number of a request: ``" 1"``, ``"01"`` or
    ``"+1"`` name no seat (``int()`` would take them).

    >>> _bot_seat("2", 4), _bot_seat(2, 4)
    (2, 2)
    >>> _bot_seat("01", 4)
    Traceback (most recent call last):
    ...
    bistrot.tablecore.errors.TableError: the keys of bots are seat numbers "0" to "3", not '01'
    """
    if isinstance(key, str) and key.isascii() and key.isdigit() and str(int(key)) == key:
        key = int(key)
    if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < players:
        seats = f'"0" to "{players - 1}"'
        raise TableError("bad_seat", f"the keys of bots are seat numbers {seats}, not {key!r}", 422)
    return key


def game_entry(name: object) -> games.GameEntry:
    """The registry's entry of the game a request names; ``unknown_game`` otherwise."""
    try:
        return games.get(name)
    except ValueError as err:
        raise TableError("unknown_game", str(err), 422) from None


def table_rules(entry: games.GameEntry, raw: object) -> Any:
    """The rules a request's ``rules`` object asks of ``entry``'s game, defaults filled in;
    ``bad_rules`` otherwise.  Their ``to_dict()`` is the one spelling stored and compared.

    >>> table_rules(game_entry("omi"), {}).to_dict() == table_rules(game_entry("omi"), None).to_dict()
    True
    """
    try:
        return entry.rules_from_dict(dict(raw or {}))  # type: ignore[call-overload]
    except (ValueError, TypeError) as err:
        raise TableError("bad_rules", str(err), 422) from None


def plan_table(
    request: Mapping[str, Any],
    defaults: PlanDefaults,
    *,
    seed: int | None = None,
    challenge: str | None = None,
    now: float = 0.0,
    profile: str | None = None,
    daily: str | None = None,
) -> Plan:
    """Check a table request and plan the table; :class:`TableError` says what is wrong.

    ``seed`` (a challenge's deal) overrides the request's.  A friends table takes no chosen
    deal (``seed_not_allowed``): its creator would know every hand.  ``profile``: the public
    id of the creator's profile, which the host has checked (the creator's seat keeps it); a
    ``public`` table, listed in the lobby while it waits, needs one.  ``daily``: the day whose
    daily deal the table plays (the host's, with the day's seed).  Nothing is stored here.

    >>> plan = plan_table({"game": "oti", "mode": "friends", "public": True}, PlanDefaults(),
    ...                   profile="p" * 16)
    >>> plan.table.public, plan.seats[0].profile
    (True, 'pppppppppppppppp')
    >>> plan_table({"game": "oti", "public": True}, PlanDefaults(), profile="p" * 16)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bistrot.tablecore.errors.TableError: only a friends table can be public (a computer table has no ...
    """
    if not isinstance(request, Mapping):
        raise TableError("bad_request", "a table request is an object", 422)
    if not defaults.choose_pace:
        refuse_pace(request)
    entry = game_entry(request.get("game"))
    mode = request.get("mode") or "computer"
    if mode == "friends" and "friends" not in defaults.modes:
        raise TableError("needs_network", "a table with friends needs the network: play offline "
                         "against the computer or in hot seat", 422)
    if mode not in defaults.modes:
        raise TableError("bad_request", f"mode is one of {', '.join(defaults.modes)}, not {mode!r}", 422)
    public = request.get("public", False)
    if not isinstance(public, bool):
        raise TableError("bad_request", "public is true or false", 422)
    if public and mode != "friends":
        text = f"only a friends table can be public (a {mode} table has no seat to offer)"
        raise TableError("public_needs_friends", text, 422)
    if public and profile is None:
        raise TableError("no_profile", "a public table needs a profile: make one, then open the table", 401)
    rules = table_rules(entry, request.get("rules"))
    players = entry.players(rules)
    if seed is None and mode == "friends" and request.get("seed") is not None:
        # Whoever chose the deal would know every hand of the friends who join.
        raise TableError(
            "seed_not_allowed",
            "a friends table is always dealt a fresh deal: a chosen deal (seed) is only for a table "
            "against the computer or in hot seat",
            422,
        )
    if seed is None:
        try:
            seed = dealcode.seed_from(request.get("seed"))
        except (ValueError, TypeError) as err:
            raise TableError("bad_seed", str(err), 422) from None
    levels = entry.levels
    if not levels:
        raise TableError("bad_level", f"there is no computer player for {entry.name} yet", 422)
    level = request.get("level")
    raw_bots = request.get("bots") or {}
    if not isinstance(raw_bots, Mapping):
        raise TableError("bad_seat", "bots maps seat numbers to levels", 422)
    per_seat = {_bot_seat(s, players): lv for s, lv in raw_bots.items()}
    for wanted in [level, *per_seat.values()]:
        if wanted is not None and wanted not in levels:
            raise TableError(
                "bad_level",
                f"there is no {wanted} computer player for {entry.name}; levels: {', '.join(levels)}",
                422,
            )
    default_level = level or entry.level_or_weaker(entry.default_level)
    if mode == "computer":
        human = _seat_number(request.get("seat", 0), players)
        if human in per_seat:
            raise TableError("bad_seat", f"seat {human} is your seat, it cannot be a computer player", 422)
        kinds = {s: COMPUTER for s in range(players) if s != human} | {human: HUMAN}
    elif mode == "friends":
        if 0 in per_seat:
            raise TableError("bad_seat", "seat 0 is the creator's seat at a friends table", 422)
        kinds = {s: COMPUTER if s in per_seat else OPEN for s in range(players)} | {0: HUMAN}
    else:
        kinds = {s: COMPUTER if s in per_seat else HUMAN for s in range(players)}
        if HUMAN not in kinds.values():
            raise TableError("bad_seat", "a hot-seat table needs at least one human seat", 422)
    delay = request.get("bot_delay_ms")
    if delay is not None and (isinstance(delay, bool) or not isinstance(delay, int)):
        raise TableError("bad_request", f"bot_delay_ms is a whole number from 0 to {MAX_BOT_DELAY_MS}", 422)
    _whole(delay, "bot_delay_ms", 0, MAX_BOT_DELAY_MS)
    grace = request.get("grace_s")
    _whole(grace, "grace_s", 0, MAX_GRACE_S)
    name = request.get("name")

    tokens: dict[int, str] = {}
    seats = []
    first_human = min(s for s, k in kinds.items() if k == HUMAN)
    for s in range(players):
        kind = kinds[s]
        if kind == HUMAN:
            token_hash = None
            if defaults.secrets:
                tokens[s] = new_secret()
                token_hash = secret_hash(tokens[s])
            shown = name if s == first_human and isinstance(name, str) else None
            # A hot seat's seats are one device's: no seat is the profile's alone.
            own = profile if s == first_human and mode != "hotseat" else None
            seats.append(SeatRecord(s, HUMAN, None, token_hash, shown, profile=own))
        elif kind == COMPUTER:
            seats.append(SeatRecord(s, COMPUTER, per_seat.get(s, default_level)))
        else:
            seats.append(SeatRecord(s, OPEN))
    invite = new_secret() if defaults.secrets and mode == "friends" else None
    watch = new_secret() if defaults.secrets else None
    table = TableRecord(
        id=defaults.id_prefix + new_secret(),
        game=entry.name,
        mode=mode,
        rules=rules.to_dict(),
        seed=seed,
        level=default_level,
        bot_delay_ms=defaults.bot_delay_ms if delay is None else delay,
        grace_s=defaults.grace_s if grace is None else float(grace),
        status=WAITING if OPEN in kinds.values() else PLAYING,
        invite_hash=None if invite is None else secret_hash(invite),
        watch_hash="" if watch is None else secret_hash(watch),
        created_at=now,
        challenge=challenge,
        public=public,
        daily=daily,
    )
    return Plan(table, seats, tokens, invite, watch)


def plan_rematch(old: TableRecord, seats: list[SeatRecord], *, id_prefix: str = "", now: float = 0.0) -> Plan:
    """The same table again: the same seats, tokens, invite and watch key, a new deal."""
    table = TableRecord(
        id=id_prefix + new_secret(),
        game=old.game,
        mode=old.mode,
        rules=dict(old.rules),
        seed=dealcode.new_seed(),
        level=old.level,
        bot_delay_ms=old.bot_delay_ms,
        grace_s=old.grace_s,
        status=PLAYING,
        invite_hash=old.invite_hash,
        watch_hash=old.watch_hash,
        created_at=now,
        rematch_of=old.id,
        public=old.public,
    )
    copies = [SeatRecord(s.seat, s.kind, s.level, s.token_hash, s.name, profile=s.profile) for s in seats]
    return Plan(table, copies)
