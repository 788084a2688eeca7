"""Duplicate events for clubs (docs/events.md): an organiser's event, the pairs that join it,
each board's game, and the results compared board by board (:mod:`bistrot.server.duplicate`).

**An event** is made by a profile (its organiser): Omi, :data:`~bistrot.server.duplicate.MIN_BOARDS`
to :data:`~bistrot.server.duplicate.MAX_BOARDS` boards, some boards a round, an optional start time.
Profiles join it as pairs (a pair of one plays with a computer partner) until it starts: when the
organiser says so, or at the start time (the first request after it starts it), with at least two
pairs.  It then has ``max(2, ceil(pairs / 2))`` tables; computers are the pairs missing.

**A board** is one game of one Omi hand (rules ``hands=1``), a table like every other, tagged with
its event.  It is opened when the first of its players asks for their next board
(:meth:`ClubEvents.next`) once every pair of that table is done with its previous board, on the
node asked (an event's tables live on any node of a cluster); the store's claim
(:func:`~bistrot.server.club_store.claim`, in the transaction that stores the table) gives each
board at each table one game, whoever asks together.  Its players' seat tokens are derived from
a secret of the room's and the table (:func:`seat_token`), so each player is given theirs when they
ask, from any node, and only their hashes are stored, as every seat token's.  The game's end
stores its tricks with it (:func:`~bistrot.server.club_store.finished_work`).

**Secrecy.** A board's cards, and every table's result on it, go to a profile only once its pair
has played the board, or to anyone once the event is over; a board's game is a secret deal (its
record and replay go only to its players) until then.

>>> seat_token("s3cret", "t1", 0) == seat_token("s3cret", "t1", 0) != seat_token("s3cret", "t1", 2)
True
>>> len(seat_token("s3cret", "t1", 0))
22
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bistrot import dealcode, games
from bistrot.cards import CARD_NAMES
from bistrot.omi import OmiGame
from bistrot.server import club_store, daily_store, duplicate
from bistrot.server.club_store import ClubEvent, Played, Player
from bistrot.server.duplicate import COMPASS, EW, NS, Sitting
from bistrot.server.players import Profile, Profiles
from bistrot.server.protocol import ApiError
from bistrot.server.room import Room
from bistrot.tablecore.plan import COMPUTER, HUMAN, Plan, PlanDefaults, plan_table
from bistrot.tablecore.records import SeatRecord, new_secret, secret_hash

#: The games an event may be of (duplicate needs partnerships and hands compared by tricks).
GAMES = ("omi",)
#: The rules of every board on top of the game's defaults: one hand.
BOARD_RULES: dict[str, Any] = {"hands": 1}
#: The computer players' level, the same at every table so that results compare.
LEVEL = "medium"
#: Events an organiser may have waiting to start at once.
MAX_WAITING = 5
#: The furthest ahead an event may be set to start, in seconds (30 days).
MAX_AHEAD_S = 30 * 86400.0
#: The name of the secret the boards' deals and the players' seat tokens come from.
SECRET = "club-events"
#: How an event's page is reached.
URL = "/e/{id}"


def seat_token(secret: str, table_id: str, seat: int) -> str:
    """The seat token of ``seat`` of the board's game ``table_id``: 128 bits as unguessable as a
    new one, which any node of the room can give its player again."""
    digest = hmac.new(secret.encode(), f"{table_id}:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


def board_rules(game: str) -> dict[str, Any]:
    """Every option of a board's rules written out."""
    rules: dict[str, Any] = games.get(game).rules_from_dict(dict(BOARD_RULES)).to_dict()
    return rules


def refusal(code: str) -> ApiError:
    """The answer to a join the store refused (:func:`~bistrot.server.club_store.join`)."""
    texts = {
        "not_open": (409, "this event has started: pairs join before the start"),
        "already_joined": (409, "you are in this event already"),
        "no_pair": (404, "there is no such pair in this event: join a pair listed, or start a new one"),
        "pair_full": (409, "this pair has its two players: start a new pair, or join one with a free place"),
        "event_full": (409, f"this event has its {duplicate.MAX_PAIRS} pairs: no more can join"),
    }
    status, text = texts[code]
    return ApiError(status, code, text)


class ClubEvents:
    """Every club event of the room: making, joining and starting one, each player's next board,
    and the event as a profile may see it."""

    def __init__(self, room: Room, profiles: Profiles, clock: Callable[[], float] = time.time) -> None:
        self.room = room
        self.profiles = profiles
        self.clock = clock
        self.secret = daily_store.RoomSecret(profiles, SECRET, clock)

    async def _event(self, event_id: str) -> ClubEvent:
        found = await self.profiles.read(lambda conn: club_store.find_event(conn, event_id))
        if found is None:
            raise ApiError(404, "unknown_event", "there is no such event (check the link)")
        return found

    # ------------------------------------------------------------------ before the start

    async def create(self, profile: Profile, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/events``: a new event of ``profile``'s, taking pairs."""
        now = self.clock()
        game, boards, per_round = body["game"], body["boards"], body["boards_per_round"]
        if game not in GAMES:
            raise ApiError(422, "bad_game", f"an event is of {', '.join(GAMES)}: pairs compare their results")
        if boards % per_round:
            raise ApiError(422, "bad_boards", f"{boards} boards do not split into rounds of {per_round}")
        starts_at = body.get("starts_at")
        if starts_at is not None and not now <= starts_at <= now + MAX_AHEAD_S:
            raise ApiError(422, "bad_start", "an event starts between now and 30 days from now")
        name = (body.get("name") or "").strip() or f"{profile.name}'s event"
        event = ClubEvent(new_secret(), game, name, profile.id, boards, per_round, club_store.OPEN, None,
                          starts_at, now)  # fmt: skip

        def write(conn: Any) -> bool:
            if club_store.waiting_events(conn, profile.id) >= MAX_WAITING:
                return False
            club_store.add_event(conn, event)
            return True

        if not await self.profiles.write(write):
            text = f"you have {MAX_WAITING} events waiting to start: start or finish one first"
            raise ApiError(429, "too_many_events", text)
        return {"event": event.id, "event_url": URL.format(id=event.id)}

    async def join(self, event_id: str, profile: Profile, pair: int | None) -> dict[str, Any]:
        """``POST /api/events/{id}/join``: ``profile`` into ``pair``, or a new pair."""
        await self._event(event_id)
        now = self.clock()
        joined = await self.profiles.write(
            lambda conn: club_store.join(conn, event_id, profile.id, pair, now)
        )
        if isinstance(joined, str):
            raise refusal(joined)
        return {"pair": joined}

    async def leave(self, event_id: str, profile: Profile) -> dict[str, Any]:
        """``POST /api/events/{id}/leave``: ``profile`` out of the event, before its start."""
        event = await self._event(event_id)
        if event.status != club_store.OPEN:
            raise refusal("not_open")
        if not await self.profiles.write(lambda conn: club_store.leave(conn, event_id, profile.id)):
            raise ApiError(409, "not_joined", "you are not in this event")
        return {"left": True}

    async def start(self, event_id: str, profile: Profile) -> dict[str, Any]:
        """``POST /api/events/{id}/start``: the organiser starts the event."""
        event = await self._event(event_id)
        if event.organiser != profile.id:
            raise ApiError(403, "not_organiser", "only the event's organiser starts it")
        if event.status != club_store.OPEN:
            raise ApiError(409, "already_started", "this event has started")
        tables = await self.profiles.write(
            functools.partial(self._start, event_id=event_id, now=self.clock())
        )
        if tables is None:
            text = f"an event needs at least {duplicate.MIN_PAIRS} pairs: share its link"
            raise ApiError(409, "too_few_pairs", text)
        return {"tables": tables}

    @staticmethod
    def _start(conn: Any, event_id: str, now: float) -> int | None:
        """Start the event (its pairs numbered 1, 2, ... in the order they joined): its tables,
        or None with too few pairs (or if it has started)."""
        pairs = club_store.renumber(conn, event_id)
        if pairs < duplicate.MIN_PAIRS:
            return None
        tables = duplicate.tables_for(pairs)
        return tables if club_store.start(conn, event_id, tables, now) else None

    async def _started(self, event: ClubEvent) -> ClubEvent:
        """The event, started if its start time has come (and it has its pairs)."""
        if event.status != club_store.OPEN or event.starts_at is None or self.clock() < event.starts_at:
            return event
        await self.profiles.write(functools.partial(self._start, event_id=event.id, now=self.clock()))
        return await self._event(event.id)

    # ------------------------------------------------------------------ playing

    async def next(self, event_id: str, profile: Profile) -> dict[str, Any]:
        """``POST /api/events/{id}/next``: where ``profile`` plays now: ``play`` (the board's
        table, its seat and seat token, opened if it was not), ``wait`` (for the pairs of its next
        table to finish their boards), or ``done``."""
        event = await self._started(await self._event(event_id))
        if event.status == club_store.OPEN or event.tables is None:
            raise ApiError(409, "not_started", "this event has not started yet")

        def read(conn: Any) -> tuple[list[Player], list[Played]]:
            return club_store.players(conn, event_id), club_store.played(conn, event_id)

        seated, boards = await self.profiles.read(read)
        mine = next((p for p in seated if p.profile == profile.id), None)
        if mine is None:
            raise ApiError(403, "not_in_event", "you are not playing in this event")
        opened = {(b.board, b.table_no): b for b in boards}
        humans = {p.pair for p in seated}
        for board in range(1, event.boards + 1):
            sitting = duplicate.sitting_of(mine.pair, board, event.tables, event.per_round)
            found = opened.get((board, sitting.table))
            if found is not None and found.finished_at is not None:
                continue
            if found is None:
                late = [
                    p for p in (sitting.ns, sitting.ew)
                    if p in humans and board > 1 and not pair_finished(opened, p, board - 1, event)
                ]  # fmt: skip
                if late:
                    return {"status": "wait", "board": board, "round": sitting.round, "table": sitting.table,
                            "waiting_for": late}  # fmt: skip
                found = await self._open_board(event, board, sitting, seated)
            return self._seat(event, found, sitting, mine, await self.secret.get())
        return {"status": "done"}

    def _seat(
        self, event: ClubEvent, board: Played, sitting: Sitting, me: Player, secret: str
    ) -> dict[str, Any]:
        compass = (NS if me.pair == sitting.ns else EW)[me.place]
        seat = duplicate.seat_of(compass, board.board)
        return {
            "status": "play", "board": board.board, "round": sitting.round, "table": sitting.table,
            "table_id": board.table_id, "table_url": f"/t/{board.table_id}", "seat": seat,
            "token": seat_token(secret, board.table_id, seat), "compass": COMPASS[compass],
        }  # fmt: skip

    async def _open_board(
        self, event: ClubEvent, board: int, sitting: Sitting, seated: list[Player]
    ) -> Played:
        """Open ``board``'s game at ``sitting``'s table, unless another request did first: the
        board's game, either way."""
        secret = await self.secret.get()
        plan = self.plan_board(event, board, sitting, seated, secret, self.room.plan_defaults, self.clock())
        claim = functools.partial(
            club_store.claim, event_id=event.id, board=board, table_no=sitting.table, table_id=plan.table.id,
            now=plan.table.created_at,
        )  # fmt: skip
        await self.room.open_planned(plan, claim)
        boards = await self.profiles.read(lambda conn: club_store.played(conn, event.id))
        return next(b for b in boards if (b.board, b.table_no) == (board, sitting.table))

    @staticmethod
    def plan_board(
        event: ClubEvent,
        board: int,
        sitting: Sitting,
        seated: list[Player],
        secret: str,
        defaults: PlanDefaults,
        now: float,
    ) -> Plan:
        """The game of ``board`` at ``sitting``'s table: the board's deal, its dealer's seat, each
        pair's players in their compass places (a computer where a pair or a place has nobody),
        each seat token derived (:func:`seat_token`)."""
        players = {(p.pair, p.place): p for p in seated}
        where: dict[int, Player | None] = {}
        for pair, places in ((sitting.ns, NS), (sitting.ew, EW)):
            for place, compass in enumerate(places):
                where[duplicate.seat_of(compass, board)] = players.get((pair, place))
        bots = {str(seat): LEVEL for seat, player in where.items() if player is None}
        request = {
            "game": event.game,
            "mode": "hotseat",
            "rules": board_rules(event.game),
            "level": LEVEL,
            "bots": bots,
        }
        seed = duplicate.board_seed(secret, event.id, board, dealcode.SEED_BITS)
        planned = plan_table(request, defaults, seed=seed, now=now)
        table = replace(planned.table, mode="friends", event=event.id)
        seats = []
        for seat in range(len(where)):
            player = where[seat]
            if player is None:
                seats.append(SeatRecord(seat, COMPUTER, LEVEL))
            else:
                token_hash = secret_hash(seat_token(secret, table.id, seat))
                seats.append(SeatRecord(seat, HUMAN, None, token_hash, player.name, profile=player.profile))
        return Plan(table, seats)

    # ------------------------------------------------------------------ the event as seen

    async def info(self, event_id: str, profile: Profile | None) -> dict[str, Any]:
        """``GET /api/events/{id}``: the event as ``profile`` (or anyone) may see it."""
        event = await self._started(await self._event(event_id))

        def read(conn: Any) -> tuple[list[Player], list[Played], str | None]:
            names = club_store.names(conn, [event.organiser])
            return (
                club_store.players(conn, event_id),
                club_store.played(conn, event_id),
                names.get(event.organiser),
            )

        seated, boards, organiser_name = await self.profiles.read(read)
        secret = await self.secret.get() if boards else ""
        return shown_event(event, seated, boards, organiser_name, profile, secret)


def shown_event(
    event: ClubEvent,
    seated: list[Player],
    boards: list[Played],
    organiser_name: str | None,
    profile: Profile | None,
    secret: str,
) -> dict[str, Any]:
    """The answer of ``GET /api/events/{id}`` from what is stored (see :meth:`ClubEvents.info`)."""
    me = next((p for p in seated if profile is not None and p.profile == profile.id), None)
    organiser = profile is not None and profile.id == event.organiser
    tables = event.tables
    pair_count = 0 if tables is None else 2 * tables
    numbers = sorted({p.pair for p in seated} | set(range(1, pair_count + 1)))
    pairs = []
    for n in numbers:
        people: list[dict[str, Any] | None] = [None, None]
        for p in seated:
            if p.pair == n:
                people[p.place] = {"profile": p.profile, "name": p.name}
        pairs.append({"pair": n, "players": people, "computer": people == [None, None]})
    finished = [b for b in boards if b.finished_at is not None]
    over = tables is not None and len(finished) == event.boards * tables
    status = "over" if over else event.status
    answer: dict[str, Any] = {
        "event": event.id, "name": event.name, "game": event.game, "rules": board_rules(event.game),
        "organiser": {"profile": event.organiser, "name": organiser_name}, "status": status,
        "boards": event.boards, "boards_per_round": event.per_round,
        "rounds": duplicate.rounds_of(event.boards, event.per_round), "tables": tables,
        "starts_at": event.starts_at, "created_at": event.created_at, "movement": "mitchell", "level": LEVEL,
        "pairs": pairs,
        "me": {"pair": None if me is None else me.pair, "organiser": profile is not None and organiser},
        "progress": [], "results": [], "ranking": [],
    }  # fmt: skip
    if tables is None:
        return answer
    opened = {(b.board, b.table_no): b for b in boards}
    sittings = duplicate.movement(tables, event.boards, event.per_round)
    answer["progress"] = [
        {
            "round": s.round, "table": s.table, "ns": s.ns, "ew": s.ew,
            "boards": [_board_state(opened.get((b, s.table))) | {"board": b} for b in s.boards],
        }
        for s in sittings
    ]  # fmt: skip
    scores: dict[int, list[tuple[int, int]]] = {n: [] for n in range(1, pair_count + 1)}
    for board in range(1, event.boards + 1):
        done = {t: b for (n, t), b in opened.items() if n == board and b.side0_tricks is not None}
        ns_tricks = {t: _ns_tricks(b) for t, b in done.items()}
        points = duplicate.matchpoints(ns_tricks)
        top = duplicate.top(len(done))
        lines = []
        for t in sorted(done):
            s = duplicate.sitting_of(t, board, tables, event.per_round)
            ns_points, ew_points = points[t]
            if len(done) > 1:
                scores[s.ns].append((ns_points, top))
                scores[s.ew].append((ew_points, top))
            lines.append({
                "table": t, "ns": s.ns, "ew": s.ew, "ns_tricks": ns_tricks[t],
                "ew_tricks": duplicate.TRICKS - ns_tricks[t], "ns_points": ns_points, "ew_points": ew_points,
                "table_id": done[t].table_id,
            })  # fmt: skip
        if over or (me is not None and pair_finished(opened, me.pair, board, event)):
            hands = board_hands(event, board, secret)
            dealt = COMPASS[duplicate.dealer(board)]
            shown = {"board": board, "dealer": dealt, "hands": hands, "top": top, "tables": lines}
            answer["results"].append(shown)
    answer["ranking"] = [
        {"pair": s.pair, "rank": s.rank, "points": s.points, "top": s.top, "percent": s.percent}
        for s in duplicate.ranking(scores)
    ]
    return answer


def _board_state(played: Played | None) -> dict[str, Any]:
    if played is None:
        return {"status": "to_play"}
    return {"status": "playing" if played.finished_at is None else "over"}


def _ns_tricks(played: Played) -> int:
    assert played.side0_tricks is not None
    mine = played.side0_tricks
    return mine if duplicate.ns_side(played.board) == 0 else duplicate.TRICKS - mine


def pair_finished(opened: dict[tuple[int, int], Played], pair: int, board: int, event: ClubEvent) -> bool:
    """Whether ``pair``'s table has finished ``board`` (``opened``: the boards by board and table)."""
    assert event.tables is not None
    table = duplicate.sitting_of(pair, board, event.tables, event.per_round).table
    found = opened.get((board, table))
    return found is not None and found.finished_at is not None


def board_hands(event: ClubEvent, board: int, secret: str) -> dict[str, list[str]]:
    """The cards each compass position of ``board`` was dealt (never before it may be shown)."""
    entry = games.get(event.game)
    rules = entry.rules_from_dict(dict(BOARD_RULES))
    game = entry.game_class().new(
        rules, seed=duplicate.board_seed(secret, event.id, board, dealcode.SEED_BITS)
    )
    if not isinstance(game, OmiGame):  # a board's compass hands are Omi's deal
        raise ValueError(f"club events deal Omi boards, not {entry.title}")
    return {
        COMPASS[duplicate.compass_of(seat, board)]: [CARD_NAMES[c] for c in sorted(cards, reverse=True)]
        for seat, cards in enumerate(game.dealt)
    }
