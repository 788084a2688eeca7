"""The daily deal: every player of a game gets the same deal on a UTC day, against the computer,
once, and is ranked against everybody else who played it (docs/protocol.md, "The daily deal").

**The deal.** A day's seed is derived (:func:`bistrot.seeding.derive`) from the day, the game
and a secret of the card room's: 128 random bits made on first use and kept in the database
(``server_secrets``), so every node of a cluster, sharing the database, deals the same, and
nobody without the database can work out tomorrow's deal.  A deal is shown as a deal code once a
game on it is over, as any table's: that tells nothing of another day's.

**The game.** Omi: the default rules as a match of :data:`DAILY_OPTIONS` ``hands=4`` (every seat
chooses trump once), Oti: the default rules; the player at seat :data:`DAILY_SEAT`, computers at
:data:`DAILY_LEVEL` elsewhere.  It is a table like every other, opened by the path a challenge's
attempt takes (:meth:`~bistrot.server.room.Room.create` with the seed), on the node asked.

**The score** (:func:`~bistrot.server.daily_store.seat_score`), stored in the transaction that
stores the game's end: Omi, the player's side's tokens minus the other side's after the four
hands; Oti, minus the cards the player still holds at the end (hand, face up, face down): 0 for
going out first.  Higher ranks
first; equal scores share a rank.  Each finished daily game is analysed in the analysis pool
(:class:`DailyAnalyses`), and the board shows the player's accuracy from it.

>>> utc_day(0.0), utc_day(86399.9), utc_day(86400.0)
('1970-01-01', '1970-01-01', '1970-01-02')
>>> daily_seed("s3cret", "2026-12-06", "omi") == daily_seed("s3cret", "2026-12-06", "omi")
True
>>> len({daily_seed(s, d, "omi") for s in ("a", "b") for d in ("2026-12-06", "2026-12-07")})
4
>>> daily_rules("omi")["hands"], match_hands("omi"), match_hands("oti")
(4, 4, 1)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from bistrot import dealcode, games
from bistrot.seeding import derive
from bistrot.server import daily_store, history
from bistrot.server.analysis_jobs import DONE, FAILED, AnalysisJobs
from bistrot.server.players import Profile, Profiles
from bistrot.server.protocol import ApiError
from bistrot.server.room import Room
from bistrot.tablecore.core import TableCore
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import OVER

log = logging.getLogger("bistrot.server.daily")

#: The rules options of each game's daily deal, on top of its defaults.
DAILY_OPTIONS: dict[str, dict[str, Any]] = {"omi": {"hands": 4}, "oti": {}}
#: The player's seat (Omi: the first trump chooser is seat 0, the dealer being the last seat).
DAILY_SEAT = 0
#: The computers' level: one for everyone, so the results compare.
DAILY_LEVEL = "medium"
#: The results listed: the best, then the asker's own line if it is not among them.
RESULTS_SHOWN = 100
#: The name of the secret the days' seeds come from (``server_secrets``).
SECRET = "daily"
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def utc_day(now: float) -> str:
    """The UTC day of the time ``now`` (seconds since the epoch), ``YYYY-MM-DD``."""
    return datetime.fromtimestamp(now, UTC).date().isoformat()


def asked_day(text: str, now: float) -> str:
    """``text`` as a day whose deal is out; ``bad_date`` (422) for anything that is not a date
    ``YYYY-MM-DD``, ``daily_not_yet`` (404) for a day after today (UTC).

    >>> asked_day("2026-02-30", 0.0)
    Traceback (most recent call last):
    ...
    bistrot.server.protocol.ApiError: a day is written YYYY-MM-DD (UTC), e.g. 2026-12-06
    """
    try:
        day = date.fromisoformat(text) if _DAY.fullmatch(text) else None
    except ValueError:
        day = None
    if day is None:
        raise ApiError(422, "bad_date", "a day is written YYYY-MM-DD (UTC), e.g. 2026-12-06")
    if day.isoformat() > utc_day(now):
        raise ApiError(404, "daily_not_yet", "this day's deal is not out yet: one a day, at 00:00 UTC")
    return day.isoformat()


def daily_options(game: str) -> dict[str, Any]:
    """The options of ``game``'s daily deal; ``not_found`` (404) for a game the card room deals
    none of (a game registered besides Omi and Oti: its score is not defined).

    >>> daily_options("chess")
    Traceback (most recent call last):
    ...
    bistrot.server.protocol.ApiError: there is no daily deal of chess
    """
    if game not in DAILY_OPTIONS:
        raise ApiError(404, "not_found", f"there is no daily deal of {game}")
    return DAILY_OPTIONS[game]


def daily_rules(game: str) -> dict[str, Any]:
    """The rules of ``game``'s daily deal, every option written out."""
    rules: dict[str, Any] = games.get(game).rules_from_dict(dict(daily_options(game))).to_dict()
    return rules


def match_hands(game: str) -> int:
    """Hands in ``game``'s daily match: Omi's option ``hands``, one deal for Oti."""
    return int(daily_options(game).get("hands", 1))


def daily_seed(secret: str, day: str, game: str) -> int:
    """The seed of ``game``'s deal on ``day`` (a deal code's width)."""
    return derive(0, "daily", secret, day, game) >> (64 - dealcode.SEED_BITS)


def already(attempt: daily_store.Attempt) -> ApiError:
    """The refusal of a second daily game of a profile on one day: ``daily_played`` once it is
    over, ``daily_unfinished`` (its ``table`` in the answer) while it is played."""
    if attempt.over:
        text = "you played today's deal already: one game a day, come back tomorrow"
        return ApiError(409, "daily_played", text)
    return DailyUnfinished(attempt.table_id)


class DailyUnfinished(ApiError):
    """A second ``POST`` while the day's game is still played: its table, whose seat token was
    given once (stored hashed, it cannot be given again)."""

    def __init__(self, table: str) -> None:
        super().__init__(
            409, "daily_unfinished",
            "your game of today's deal is still on: go back to its table (its seat token was given"
            " when it started)",
        )  # fmt: skip
        self.extra = {"table": table}


class DailyDeals:
    """The daily deal of every game: its description, starting a player's game, the results."""

    def __init__(self, room: Room, profiles: Profiles, clock: Callable[[], float] = time.time) -> None:
        self.room = room
        self.profiles = profiles
        self.clock = clock
        self.secret = daily_store.RoomSecret(profiles, SECRET, clock)

    async def _attempt(self, day: str, game: str, profile: Profile) -> daily_store.Attempt | None:
        return await self.profiles.read(lambda conn: daily_store.find_attempt(conn, day, game, profile.id))

    async def info(self, game: str, profile: Profile | None) -> dict[str, Any]:
        """``GET /api/daily/{game}``: today's deal described (never a card), and whether the
        asker played it."""
        day = utc_day(self.clock())
        mine = None
        if profile is not None:
            mine = await self._attempt(day, game, profile)
        return {
            "date": day,
            "game": game,
            "rules": daily_rules(game),
            "level": DAILY_LEVEL,
            "hands": match_hands(game),
            "seat": DAILY_SEAT,
            "played": mine is not None,
            "finished": mine is not None and mine.over,
            "table": None if mine is None else mine.table_id,
        }

    async def start(self, game: str, profile: Profile) -> dict[str, Any]:
        """``POST /api/daily/{game}``: open the profile's game of today's deal, once a day
        (:func:`already` otherwise); the attempt is stored before the answer."""
        now = self.clock()
        day = utc_day(now)
        found = await self._attempt(day, game, profile)
        if found is not None:
            raise already(found)
        seed = daily_seed(await self.secret.get(), day, game)
        request = {
            "game": game, "mode": "computer", "rules": daily_rules(game), "seat": DAILY_SEAT,
            "name": profile.name, "level": DAILY_LEVEL,
        }  # fmt: skip
        opened = await self.room.create(request, seed=seed, profile=profile.id, daily=day)
        seat = opened["seats"][0]
        attempt = daily_store.Attempt(day, game, profile.id, opened["table"], seat["seat"], now)
        kept = await self.profiles.write(lambda conn: daily_store.add_attempt(conn, attempt))
        if kept.table_id != attempt.table_id:
            # Another request of this profile counted first (another tab, another node): that
            # one is the day's game; this table is left to the computer (grace, then a bot).
            raise already(kept)
        return {"table": opened["table"], "seat": seat["seat"], "token": seat["token"],
                "table_url": opened["table_url"]}  # fmt: skip

    async def results(self, game: str, text: str, profile: Profile | None) -> dict[str, Any]:
        """``GET /api/daily/{game}/{date}``: how many finished that day's deal and, for a profile
        that finished it, the ranked results (the best :data:`RESULTS_SHOWN`, and its own line)."""
        daily_options(game)
        day = asked_day(text, self.clock())

        def read(conn: Any) -> dict[str, Any]:
            mine = None if profile is None else daily_store.find_attempt(conn, day, game, profile.id)
            if mine is None or not mine.over:
                count, _ = daily_store.board(conn, day, game, 0)
                return {"date": day, "game": game, "played": count, "results": None}
            count, rows = daily_store.board(conn, day, game, RESULTS_SHOWN)
            if not any(r["profile"] == mine.profile for r in rows):
                rows.append({
                    "profile": mine.profile, "name": profile and profile.name, "score": mine.score,
                    "rank": daily_store.rank_of(conn, mine), "accuracy": mine.accuracy,
                })  # fmt: skip
            return {"date": day, "game": game, "played": count, "results": rows}

        return await self.profiles.read(read)

    async def streaks(self, profile_id: str) -> dict[str, int]:
        """The profile's daily streak in each game (consecutive days ending today or yesterday)."""
        today, names = utc_day(self.clock()), list(DAILY_OPTIONS)
        return await self.profiles.read(lambda conn: daily_store.streaks(conn, profile_id, names, today))


class DailyAnalyses:
    """Every finished daily game analysed in the node's analysis pool, its player's accuracy
    stored: every ``every_s`` the finished games without one are looked for (oldest first) and
    queued while the pool has room for background work (:meth:`AnalysisJobs.background`).  Each
    node sweeps; the store's claim gives each game to one job."""

    def __init__(self, deals: DailyDeals, analyses: AnalysisJobs, every_s: float = 5.0) -> None:
        self.deals = deals
        self.analyses = analyses
        self.every_s = every_s
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start sweeping."""
        self._task = asyncio.create_task(self._loop())

    async def close(self) -> None:
        """Stop sweeping."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            try:
                await self.sweep()
            except (TableError, OSError) as err:  # the store is down: the next sweep tries again
                log.warning("daily analyses: %s", err)

    async def _finished(self, table_id: str) -> TableCore:
        stored = await history.stored_table(self.deals.room.storage, table_id)
        if stored is None or stored.table.status != OVER:
            raise ApiError(404, "unknown_table", "no finished table")
        return await asyncio.to_thread(history.rebuild, stored)

    async def sweep(self) -> int:
        """One look for finished daily games to analyse: how many were queued or recorded."""
        profiles = self.deals.profiles
        room = self.analyses.background_room()
        # Beyond the queue's room: games done or under way elsewhere are passed over.
        looked = room + 2 * self.analyses.queue_max
        todo = await profiles.read(lambda conn: daily_store.to_analyse(conn, looked))
        moved = 0
        for table_id, seat in todo:
            state = await self.analyses.state(table_id)
            if state["status"] in (DONE, FAILED):
                accuracy = None
                if state["status"] == DONE:
                    accuracy = state["result"]["players"].get(str(seat), {}).get("accuracy")
                await profiles.write(functools.partial(daily_store.set_accuracy, table_id=table_id,
                                                       accuracy=accuracy))  # fmt: skip
                moved += 1
            elif state["status"] == "none" and room > 0:
                try:
                    # Read as the room: a daily table's record goes to its player only.
                    core = await self._finished(table_id)
                except TableError as err:
                    if err.code not in ("unknown_table", "broken_table"):
                        raise  # the store: the next sweep tries again
                    # A game that cannot be rebuilt is never analysed: no accuracy, for good.
                    log.warning("daily analyses: table %s: %s", table_id[:6], err.code)
                    await profiles.write(functools.partial(daily_store.set_accuracy, table_id=table_id,
                                                           accuracy=None))  # fmt: skip
                    continue
                if await self.analyses.background(core):
                    room -= 1
                    moved += 1
        return moved
