"""What a table core sends: the views, the ``state`` messages and who gets them, and a catch-up.

Every message is built from its audience's own view (:meth:`Rendering.view`), so nobody is ever
sent a card they may not see.  A connection opening is first sent what it missed
(:meth:`Rendering.catch_up`), state by state within a budget of seqs and of bytes, else one fresh
state.  A part of :class:`~bistrot.tablecore.core.TableCore` (see :mod:`bistrot.tablecore.base`).
"""

from __future__ import annotations

import json
import math
from typing import Any, cast

from bistrot.engine import Game
from bistrot.ruleset import Ruleset
from bistrot.tablecore import chat
from bistrot.tablecore.base import CoreBase
from bistrot.tablecore.plan import COMPUTER, WAITING
from bistrot.tablecore.records import EventRecord
from bistrot.tablecore.values import Audience, Out
from bistrot.wire import last_action, state_message


class Rendering(CoreBase):
    """Views, states, the audiences they go to, and catch-up."""

    def seats_info(self, audience: Audience) -> list[dict[str, Any]]:
        """The ``seats`` of a view: kind, name, level, connected, away, you; and ``grace_left``,
        the whole seconds left before a computer player takes a seat whose player left, while
        its grace period runs (seconds, not a time of day: the device's clock need not agree)."""
        deadlines = self.grace_deadlines()
        now = self.clock() if deadlines and self.clock else 0.0
        return [
            {
                "seat": i,
                "kind": s.record.kind,
                "name": s.record.name,
                "level": self.level(i),
                "connected": s.record.kind == COMPUTER or self.present(i),
                "away": s.away,
                "you": audience == i,
                "profile": s.record.profile,
                **({"grace_left": max(0, math.ceil(deadlines[i] - now))} if i in deadlines else {}),
            }
            for i, s in enumerate(self.seats)
        ]

    def table_info(self) -> dict[str, Any]:
        """The ``table`` of a view (``local``: this table lives on the player's device)."""
        r = self.table
        info: dict[str, Any] = {
            "id": r.id,
            "game": r.game,
            "mode": r.mode,
            "status": r.status,
            "rematch": r.rematch,
            "bot_delay_ms": r.bot_delay_ms,
            "grace_s": 0 if self.local else r.grace_s,
            "teams": self.entry.teams(self.rules),
            "hints": self.hints_allowed,
        }
        used = (r.result or {}).get("hints")
        if used:
            info["hints_used"] = used
        if r.event is not None:
            info["event"] = r.event
        if self.local:
            info["local"] = True
        return info

    def public_info(self) -> dict[str, Any]:
        """``GET /api/tables/{id}``: no secret and no card."""
        r = self.table
        return {
            "table": r.id,
            "game": r.game,
            "mode": r.mode,
            "status": r.status,
            "seq": self.seq,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "seats": self.seats_info(None),
            "rematch": r.rematch,
            "public": r.public,
            "rated": self.rated,
        }

    def legal(self, game: Game[Ruleset], audience: Audience) -> list[str]:
        """What ``audience`` may do now: nothing for spectators, computer-played seats, before
        the start and after the end."""
        if audience is None or self.status == WAITING or game.is_over or self.computer_plays(audience):
            return []
        return list(game.legal_actions(audience))

    @property
    def deal_secret(self) -> bool:
        """Whether this table's deal is never shown, even once the game is over: a challenge's
        table, whose deal the next challenger plays (its deal code would show them every hand),
        or a daily deal's, which everybody plays that day, or a club event's board, which other
        tables of the event play too."""
        r = self.table
        return r.challenge is not None or r.daily is not None or r.event is not None

    def view(self, game: Game[Ruleset], audience: Audience) -> dict[str, Any]:
        """The engine's view of ``audience``, less the deal code at a :attr:`deal_secret` table:
        every view this core hands out (states, computer players' views) is made here."""
        # a dict the host goes on filling (seats, table, legal): the engine's is a fresh one
        view = cast("dict[str, Any]", game.view(audience))
        if self.deal_secret:
            view.pop("deal_code", None)
        return view

    def state(
        self, game: Game[Ruleset], seq: int, audience: Audience, last: EventRecord | None
    ) -> dict[str, Any]:
        """The ``state`` message for ``audience`` at ``seq`` (``game`` as it stood then)."""
        shown = None if last is None else last_action(last.seq, last.actor, last.action, last.by)
        return state_message(
            self.view(game, audience),
            seq,
            legal=self.legal(game, audience),
            seats=self.seats_info(audience),
            table=self.table_info(),
            last=shown,
        )

    def audiences(self) -> list[Audience]:
        """The audiences with at least one connection."""
        seats: list[Audience] = [i for i, s in enumerate(self.seats) if s.conns]
        return [*seats, None] if self.spectators else seats

    def broadcast(self) -> Out:
        """A fresh state for every audience connected (seats or table changed, no action)."""
        return [(a, self.state(self.game, self.seq, a, None)) for a in self.audiences()]

    def publish(self, events: list[EventRecord]) -> Out:
        """What every audience connected is sent for stored ``events`` (:meth:`confirm`): one
        state per seq, so nobody sees a gap; engines log one action per apply, but an engine
        logging several gets its intermediate states rebuilt."""
        out: Out = []
        audiences = self.audiences()
        if len(events) > 1 and audiences:
            game = self.rebuilt(events[0].seq - 1)
            for event in events[:-1]:
                game.apply(event.action, seat=event.actor)
                out += [(a, self.state(game, event.seq, a, event)) for a in audiences]
        out += [(a, self.state(self.game, self.seq, a, events[-1])) for a in audiences]
        return out

    def catch_up(self, audience: Audience, since: int | None) -> list[dict[str, Any]]:
        """What a connection opened with ``since`` (the last seq it saw) is sent first: the
        states it missed, one per seq, or one fresh state when that is too far back (over
        :attr:`replay_limit` seqs) or too much to send (over :attr:`catch_up_bytes` of JSON);
        then the chat kept (each message numbered: the page shows one it has already once)."""
        said = [chat.chat_message(line) for line in self.chat]  # after the states: the table first
        if since is None or not 0 <= since < self.seq or self.seq - since > self.replay_limit:
            return [self.state(self.game, self.seq, audience, None), *said]
        game = self.rebuilt(since)
        out, size = [], 0
        for event in self.history[since:]:
            game.apply(event.action, seat=event.actor)
            state = self.state(game, event.seq, audience, event)
            size += len(json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode())
            if size > self.catch_up_bytes:  # one state now says it all, for less
                return [self.state(self.game, self.seq, audience, None), *said]
            out.append(state)
        return out + said
