"""The computer at a table: the moves of computer players (and of players away), and hints.

The core says which move is due (:meth:`Computer.bot_turn`) and what a hint asks
(:meth:`Computer.ask_hint`), each with the view and seed a computer player is given; the host has
the computer player choose, off its loop, and hands the choice back.  A part of
:class:`~bistrot.tablecore.core.TableCore` (see :mod:`bistrot.tablecore.base`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bistrot.seeding import derive
from bistrot.tablecore.base import CoreBase
from bistrot.tablecore.plan import COMPUTER, OVER, PLAYING, WAITING
from bistrot.tablecore.values import BotTurn, HintAsk, HintCommit, Proposal, Step
from bistrot.wire import hint_message, reject


class Computer(CoreBase):
    """Computer turns and hints."""

    def bot_turn(self) -> BotTurn | None:
        """The computer move due now (lowest seat first), or None.  Its seed comes from the
        table's seed, the seat and the seq, so the same history gets the same computer play."""
        if self.status != PLAYING or self.game.is_over:
            return None
        for seat in range(self.players):
            if self.computer_plays(seat) and self.game.legal_actions(seat):
                level = self.level(seat)
                assert level is not None
                return BotTurn(
                    seat,
                    self.seq,
                    level,
                    derive(self.table.seed, "bot", seat, self.seq),
                    self.view(self.game, seat),
                    self.table.bot_delay_ms / 1000,
                )
        return None

    def bot_proposal(self, turn: BotTurn, action: str) -> Proposal | None:
        """The computer's chosen action as a proposal; None if the table moved on meanwhile
        (the host asks :meth:`bot_turn` again).  An illegal choice (a faulty bot) becomes the
        first legal action: a computer player never stalls a table."""
        if turn.seq != self.seq or self.status != PLAYING or not self.computer_plays(turn.seat):
            return None
        legal = self.game.legal_actions(turn.seat)
        if not legal:
            return None
        return Proposal(turn.seat, action if action in legal else legal[0], COMPUTER)

    @property
    def hints_allowed(self) -> bool:
        """Whether a seat may ask for hints here: only in a game against the computer, never at
        a friends or hot-seat table nor in a challenge's or a daily deal's game (whose results
        are compared)."""
        table = self.table
        return (self.entry.capabilities["hints"] and table.mode == "computer" and table.challenge is None
                and table.daily is None)

    @property
    def hint_level(self) -> str:
        """The computer player whose choice a hint is: the game's strongest level."""
        return self.entry.levels[-1]

    def hint_refusal(self, seat: int, id: Any) -> dict[str, Any] | None:
        """The ``reject`` of a hint ``seat`` may not have now, or None."""
        if not self.hints_allowed:
            text = "hints are for games against the computer only, not friends, challenges or the daily deal"
            return reject(id, "hints_off", text)
        if self.status == WAITING:
            return reject(id, "not_started", "the table has not started: it is waiting for players")
        if self.status == OVER or self.game.is_over:
            return reject(id, "game_over", "the game is over")
        if self.computer_plays(seat) or not self.game.legal_actions(seat):
            return reject(id, "not_your_turn", "a hint is for your own turn")
        return None

    def ask_hint(self, seat: int, id: Any) -> Step:
        """A seat's ``hint`` message: refused (nothing changes), answered at once if this seat
        was already given the hint of this seq, else the :class:`HintAsk` the host computes
        (off its loop) and hands to :meth:`hint_ready`.  The seed comes from the table's seed,
        the seat and the seq, so the same position gets the same hint.

        >>> from bistrot.tablecore.core import TableCore
        >>> from bistrot.tablecore.records import StoredTable
        >>> from bistrot.tablecore.plan import PlanDefaults, plan_table
        >>> plan = plan_table({"game": "omi", "seed": 5}, PlanDefaults(bot_delay_ms=0))
        >>> core = TableCore(StoredTable(plan.table, plan.seats))
        >>> ask = core.receive(0, '{"type": "hint", "id": 1}').hint
        >>> ask.seat, ask.seq, ask.level, ask.view == core.view(core.game, 0)
        (0, 0, 'hard', True)
        >>> commit = core.hint_ready(ask, "trump H")
        >>> core.hint_stored(commit, 1), core.seats[0].record.hints
        ({'type': 'hint', 'id': 1, 'seq': 0, 'action': 'trump H'}, 1)
        >>> core.receive(0, '{"type": "hint", "id": 2}').replies  # asked again: not counted again
        [{'type': 'hint', 'id': 2, 'seq': 0, 'action': 'trump H'}]
        >>> core.receive(1, '{"type": "hint", "id": 3}').replies[0]["code"]
        'not_your_turn'
        """
        refused = self.hint_refusal(seat, id)
        if refused is not None:
            return Step([refused])
        last = self.last_hint.get(seat)
        if last is not None and last[0] == self.seq:
            return Step([hint_message(id, self.seq, last[1])])
        seed = derive(self.table.seed, "hint", seat, self.seq)
        ask = HintAsk(seat, self.seq, self.hint_level, seed, self.view(self.game, seat))
        return Step(id=id, hint=ask)

    def hint_ready(self, ask: HintAsk, action: str) -> HintCommit | dict[str, Any]:
        """The hint for ``ask`` is computed: the seat's record counting it, for the host to
        store before it sends the hint (:meth:`hint_stored`); or, if the table moved on
        meanwhile, the refusal ``hint_stale`` (its ``id`` for the host to set).  An illegal
        choice (a faulty computer player) becomes the first legal action, as for its moves."""
        if ask.seq != self.seq or self.hint_refusal(ask.seat, None) is not None:
            return reject(None, "hint_stale", "the game moved on before the hint was ready; ask again")
        legal = self.game.legal_actions(ask.seat)
        chosen = action if action in legal else legal[0]
        record = self.seats[ask.seat].record
        return HintCommit(ask, chosen, replace(record, hints=record.hints + 1))

    def hint_stored(self, commit: HintCommit, id: Any) -> dict[str, Any]:
        """The counted hint is stored: it takes effect, and is the answer (to the asking
        connection only: nobody else ever sees a seat's hint)."""
        ask = commit.ask
        self.seats[ask.seat].record = commit.record
        self.last_hint[ask.seat] = (ask.seq, commit.action)
        return hint_message(id, ask.seq, commit.action)
