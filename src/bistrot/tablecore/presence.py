"""Who is at a table: the connections each seat and the spectators hold, and a player's grace period.

A seat whose player left keeps its place for the table's ``grace_s`` seconds (on the host's clock:
:meth:`Presence.grace_deadlines`); if nobody comes back by then, the player is *away* and a computer
player plays the seat (:meth:`Presence.grace_over`) until they return.  A part of
:class:`~bistrot.tablecore.core.TableCore` (see :mod:`bistrot.tablecore.base`).

Who is away and how much grace is left must outlive the process hosting the table (a server
restarted, another node taking the table over), or a player who left long ago would be waited for
a whole grace period again: the host stores :meth:`Presence.presence_records` as they change, and
hands what it loads back to :meth:`Presence.restore_presence`, with the time on both clocks.
"""

from __future__ import annotations

from bistrot.tablecore.base import CoreBase
from bistrot.tablecore.plan import HUMAN, PLAYING
from bistrot.tablecore.records import PresenceRecord
from bistrot.tablecore.values import Audience, Out


class Presence(CoreBase):
    """Connections opening and closing, who is present, grace periods."""

    def present(self, seat: int) -> bool:
        """Whether the person of ``seat`` is connected."""
        if self.seats[seat].record.kind != HUMAN:
            return False
        if self.local:  # the device holds every seat: all are there while it is connected
            return self.spectators > 0 or any(s.conns for s in self.seats)
        if self.table.mode == "hotseat":  # one device: all its seats are there or none is
            return any(s.conns for s in self.seats if s.record.kind == HUMAN)
        return self.seats[seat].conns > 0

    def attended(self) -> bool:
        """Whether anyone holds a seat's connection now (computer players pause at a table left
        unattended for a while: the host keeps the clock)."""
        return any(s.conns for s in self.seats)

    def connect(self, audience: Audience) -> Out:
        """A connection of ``audience`` opens; what everyone already connected must now be told
        (the host delivers it before it sends the newcomer :meth:`catch_up`)."""
        before = self._presence()
        if audience is None:
            self.spectators += 1
        else:
            self.seats[audience].conns += 1
        return self._presence_changed(before)

    def disconnect(self, audience: Audience) -> Out:
        """A connection of ``audience`` closes; what the others must now be told."""
        before = self._presence()
        if audience is None:
            self.spectators = max(0, self.spectators - 1)
        else:
            self.seats[audience].conns = max(0, self.seats[audience].conns - 1)
        return self._presence_changed(before)

    def _presence(self) -> list[tuple[bool, bool]]:
        """Who is connected and who away: what a connection opening or closing may change (the
        grace time left changes by itself, and is no news)."""
        return [(info["connected"], info["away"]) for info in self.seats_info(None)]

    def _presence_changed(self, before: list[tuple[bool, bool]]) -> Out:
        # The host hands these to the connections it already has: a newcomer is not yet among
        # them, and gets its state through its own catch-up.
        for i, seat in enumerate(self.seats):
            if self.present(i):
                seat.away = False
        return [] if self._presence() == before else self.broadcast()

    def needs_grace(self) -> list[int]:
        """Human seats with nobody connected, not yet away, while the game is on: the host
        starts (or keeps) a grace timer for each and cancels the others'."""
        if self.status != PLAYING:
            return []
        return [
            i for i, s in enumerate(self.seats)
            if s.record.kind == HUMAN and not s.away and not self.present(i)
        ]

    def grace_deadlines(self) -> dict[int, float]:
        """When a computer player takes each seat of :meth:`needs_grace` (on the host's
        :attr:`clock`): set as its grace period starts, forgotten as it ends.  The host times
        its grace timers by these, and the views show what is left of them."""
        due = set(self.needs_grace()) if self.clock is not None else set()
        for i, seat in enumerate(self.seats):
            if i not in due:
                seat.grace_until = None
            elif seat.grace_until is None and self.clock is not None:
                seat.grace_until = self.clock() + self.table.grace_s
        return {i: s.grace_until for i, s in enumerate(self.seats) if s.grace_until is not None}

    def grace_over(self, seat: int) -> bool:
        """The grace period of ``seat`` ran out: whether a computer player now takes over (the
        player is still away); if so the host tells everyone (:meth:`broadcast`) and asks for
        the computer's move (:meth:`bot_turn`)."""
        if self.present(seat) or self.status != PLAYING or self.seats[seat].record.kind != HUMAN:
            return False
        self.seats[seat].away = True
        return True

    def presence_records(self, now: float, clock_now: float) -> list[PresenceRecord]:
        """Each seat's presence as it is to be stored with the table: away or not, and the end
        of its grace period while one runs, on the wall clock (``now``: the wall clock's time,
        ``clock_now``: :attr:`clock`'s, at the same instant)."""
        deadlines = self.grace_deadlines()
        return [
            PresenceRecord(i, s.away, now + deadlines[i] - clock_now if i in deadlines else None)
            for i, s in enumerate(self.seats)
        ]

    def restore_presence(self, stored: list[PresenceRecord], now: float, clock_now: float) -> None:
        """Start from the presence stored with a table loaded back (``now``: the wall clock's
        time, ``clock_now``: :attr:`clock`'s, at the same instant): a seat away stays away, and
        one whose grace period was running gets what is left of it (never more than
        ``grace_s``), or is away at once if it ran out meanwhile.  A seat with nothing stored
        starts as it always did: a whole grace period if nobody comes."""
        for record in stored:
            if not 0 <= record.seat < len(self.seats) or self.seats[record.seat].record.kind != HUMAN:
                continue  # (a seat a computer plays has no presence to restore)
            seat = self.seats[record.seat]
            if record.away:
                seat.away = True
            elif record.grace_ends is not None:
                left = min(record.grace_ends - now, self.table.grace_s)
                if left > 0:
                    seat.grace_until = clock_now + left
                else:
                    self.grace_over(record.seat)
