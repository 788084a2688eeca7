"""A friends table's seats before its game: invites, joining, moving seats, starting early.

A request (:meth:`Seats.join`, :meth:`Seats.move_seat`, :meth:`Seats.start_early`) says what to
store (seat records, the table's status) and changes nothing; once the host has stored it,
:meth:`Seats.seats_saved` (or :meth:`Seats.seats_moved`) makes it take effect.
A part of :class:`~bistrot.tablecore.core.TableCore` (see :mod:`bistrot.tablecore.base`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from bistrot.tablecore.base import CoreBase
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import COMPUTER, HUMAN, OPEN, OVER, PLAYING, WAITING
from bistrot.tablecore.records import SeatRecord, new_secret, secret_hash
from bistrot.tablecore.values import Out


class Seats(CoreBase):
    """Invites, joining, the creator's early start, moving seats, seats saved."""

    def check_invite(self, invite: str | None, profile: str | None = None) -> int:
        """The seat a friend with ``invite`` would take now (nothing changes), or the refusal
        :meth:`join` would give: ``not_joinable``, ``bad_invite``, ``table_over``, ``table_full``.
        A public table needs no invite but a ``profile`` (its public id, checked by the host):
        ``no_profile`` without one, ``already_seated`` if that profile has a seat here."""
        r = self.table
        if r.mode != "friends":
            raise TableError(
                "not_joinable", f"this is a {r.mode} table: only friends tables take players by link"
            )
        if r.public and invite is None:
            if profile is None:
                raise TableError("no_profile", "joining a public table needs a profile: make one first", 401)
        elif r.invite_hash is None or invite is None or secret_hash(invite) != r.invite_hash:
            raise TableError("bad_invite", "this invite does not open this table", 403)
        if profile is not None and any(s.record.profile == profile for s in self.seats):
            raise TableError("already_seated", "this profile already has a seat at this table", 409)
        if r.status == OVER:
            raise TableError("table_over", "this table's game is over")
        free = [s for s in self.seats if s.record.kind == OPEN]
        if r.status != WAITING or not free:
            raise TableError("table_full", "every seat of this table is taken")
        return free[0].record.seat

    def invitation(self, invite: str | None) -> dict[str, Any]:
        """``POST /api/tables/{id}/check-invite``'s answer: the seat :meth:`check_invite` finds,
        and what the friend is asked to: the game, its rules, who invites (seat 0, the creator)
        and who sits where already; the public facts of :meth:`public_info`, no card."""
        seat = self.check_invite(invite)
        return {
            "table": self.id,
            "seat": seat,
            "game": self.table.game,
            "host": self.seats[0].record.name,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "seats": self.seats_info(None),
        }

    def join(
        self, invite: str | None, name: str | None, profile: str | None = None
    ) -> tuple[SeatRecord, str, str]:
        """The next free seat for a friend with the invite (or, at a public table, a player
        with a ``profile``): (its record, its token, the table's status once it is taken); the
        host stores them, then calls :meth:`seats_saved`."""
        seat = self.check_invite(invite, profile)
        token = new_secret()
        if profile is not None and name is not None and any(s.record.name == name for s in self.seats):
            # Names need not be unique: another person of this name here is told apart by the
            # short form of the profile's public id.
            name = f"{name} #{profile[:4]}"
        record = SeatRecord(seat, HUMAN, None, secret_hash(token), name, profile=profile)
        last = sum(s.record.kind == OPEN for s in self.seats) == 1
        return record, token, PLAYING if last else WAITING

    def start_early(self, token: str) -> list[SeatRecord]:
        """The creator starts a friends table now: the computer players taking the free seats
        (to store, then :meth:`seats_saved` with status ``playing``)."""
        if self.seat_of(token) != 0:
            raise TableError("not_creator", "only the table's creator (seat 0) can start it early", 403)
        if self.status != WAITING:
            raise TableError("already_started", "the table has already started")
        return self.fill_open(self.table.level)

    def fill_open(self, level: str) -> list[SeatRecord]:
        """Computer players of ``level`` (or the strongest this game has below it) for every free
        seat: the records to store, then :meth:`seats_saved` with status ``playing``."""
        level = self.entry.level_or_weaker(level)
        return [SeatRecord(s.record.seat, COMPUTER, level) for s in self.seats if s.record.kind == OPEN]

    def someone_waits(self) -> bool:
        """Whether a human player is connected to this waiting table."""
        return self.status == WAITING and any(
            s.record.kind == HUMAN and self.present(i) for i, s in enumerate(self.seats)
        )

    def move_seat(self, token: str, seat: int | None, to: int) -> list[SeatRecord]:
        """Before a friends table starts, move the player of ``seat`` (None: the token's own
        seat) to seat ``to``: the two seat records to store, then :meth:`seats_moved`.  Each
        player keeps their token, which then holds the new seat.  A player moves themselves to
        a free seat; the creator also moves anyone else, to a free seat or in exchange with its
        player.  Seat 0 stays the creator's: it is how the table knows them (start, rematch).
        Refusals, with nothing changed: ``bad_token``, ``already_started``, ``bad_seat``,
        ``same_seat``, ``not_creator``, ``seat_free`` (nobody to move), ``creator_seat``,
        ``seat_taken``.

        >>> from bistrot.tablecore.core import TableCore
        >>> from bistrot.tablecore.records import StoredTable
        >>> from bistrot.tablecore.plan import PlanDefaults, plan_table
        >>> plan = plan_table({"game": "omi", "mode": "friends"}, PlanDefaults())
        >>> core = TableCore(StoredTable(plan.table, plan.seats))
        >>> joined, token, _ = core.join(plan.invite, "Kasun")
        >>> _ = core.seats_saved([joined], "waiting")
        >>> records = core.move_seat(token, None, 2)
        >>> [(r.seat, r.kind, r.name) for r in records]
        [(1, 'open', None), (2, 'human', 'Kasun')]
        >>> moved, _ = core.seats_moved(records)
        >>> moved, core.seat_of(token)
        ([1, 2], 2)
        >>> core.move_seat(token, 2, 0)
        Traceback (most recent call last):
        ...
        bistrot.tablecore.errors.TableError: seat 0 stays the creator's
        """
        mine = self.seat_of(token)
        if self.status != WAITING:
            raise TableError("already_started", "seats change before the start only; the table has started")
        seat = mine if seat is None else seat
        for s in (seat, to):
            if not 0 <= s < self.players:
                raise TableError("bad_seat", f"this table has seats 0 to {self.players - 1}, not {s}", 422)
        if seat == to:
            raise TableError("same_seat", f"that player already sits at seat {to}")
        if seat != mine and mine != 0:
            raise TableError("not_creator", "only the table's creator (seat 0) moves other players", 403)
        moving, there = self.seats[seat].record, self.seats[to].record
        if moving.kind == OPEN:
            raise TableError("seat_free", f"nobody sits at seat {seat}")
        if 0 in (seat, to):
            raise TableError("creator_seat", "seat 0 stays the creator's")
        if mine != 0 and there.kind != OPEN:
            raise TableError("seat_taken", f"seat {to} is taken; only the creator exchanges players")
        return [replace(there, seat=seat), replace(moving, seat=to)]

    def seats_moved(self, records: list[SeatRecord]) -> tuple[list[int], Out]:
        """Stored moved seats (:meth:`move_seat`) take effect: (the seats whose connections the
        host now closes, as their players sit elsewhere and come back with the same token, what
        everyone else is told)."""
        for record in records:
            state = self.seats[record.seat]
            state.conns, state.away = 0, False  # the host closes them: reconnected, they count again
            self.rejects[record.seat] = OrderedDict()  # (refusals before the start: said again)
        return [r.seat for r in records], self.seats_saved(records, WAITING)[1]

    def seats_saved(self, records: Iterable[SeatRecord], status: str) -> tuple[bool, Out]:
        """Stored seats take effect: (whether the game just started, what everyone is told)."""
        for record in records:
            self.seats[record.seat].record = record
            if record.token_hash:
                self.token_seats[record.token_hash] = record.seat
        started = self.status == WAITING and status == PLAYING
        self.table.status = status
        return started, self.broadcast()
