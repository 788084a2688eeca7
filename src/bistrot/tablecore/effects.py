"""A table's inputs and the effects it answers them with: the one seam between the core and
its hosts.

Every host (the server's asyncio actor, the player's device under Pyodide) feeds the table core
an :data:`Input` — a connection's message, the computer's move, a hint worked out, a grace
period run out, or the outcome of an effect it performed — and :func:`handle` answers with a
list of :data:`Effect`: reply to the connection, deliver to audiences, store, think, re-arm the
timers.  A host is then an interpreter of effects: it performs each in order and, for an effect
that has an outcome (a store, a hint), feeds that outcome back as the next input.  "Parse,
apply, store, acknowledge, fan out" is written here once, for every host.

An effect with an outcome is always the last of its list: what follows depends on it.

>>> from bistrot.tablecore.plan import PlanDefaults, plan_table
>>> from bistrot.tablecore.records import StoredTable
>>> plan = plan_table({"game": "omi", "level": "easy", "seed": 5}, PlanDefaults(bot_delay_ms=0))
>>> core = TableCore(StoredTable(plan.table, plan.seats))
>>> [store] = handle(core, Message(0, '{"type": "act", "id": 1, "action": "trump H"}', now=0.0))
>>> [(e.seq, e.action) for e in store.commit.events]  # applied, to be stored before anything is sent
[(1, 'trump H')]
>>> [type(e).__name__ for e in handle(core, Stored(store.commit))]
['Reply', 'Deliver', 'Reschedule']
>>> handle(core, Message(None, '{"type": "act", "id": 2, "action": "play AS"}', now=0.0))[0].message["code"]
'spectator'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bistrot.tablecore.core import Audience, BotTurn, Commit, HintAsk, HintCommit, Out, TableCore
from bistrot.tablecore.plan import HUMAN
from bistrot.tablecore.records import ChatLine
from bistrot.wire import reject

#: Seconds before a host tries the computer's move again after the store refused it.
BOT_RETRY_S = 1.0

# ------------------------------------------------------------------ inputs


@dataclass(frozen=True)
class Message:
    """A text from a connection of ``audience`` (a seat, or None for a spectator), at ``now``
    (wall clock, the time stored with an action)."""

    audience: Audience
    text: str
    now: float


@dataclass(frozen=True)
class BotMove:
    """The computer player due (``turn``) chose ``action``."""

    turn: BotTurn
    action: str
    now: float


@dataclass(frozen=True)
class HintReady:
    """The hint asked with ``ask`` is worked out (``action``), or could not be (None); ``id``:
    the asking message's."""

    ask: HintAsk
    action: str | None
    id: Any = None


@dataclass(frozen=True)
class GraceOver:
    """The grace period of ``seat`` ran out."""

    seat: int


@dataclass(frozen=True)
class Stored:
    """The host stored :class:`StoreActions`' commit."""

    commit: Commit


@dataclass(frozen=True)
class StoreFailed:
    """The store refused :class:`StoreActions`' commit: nothing of it was kept."""

    commit: Commit


@dataclass(frozen=True)
class ChatSaved:
    """The host stored :class:`StoreChat`'s line (with the time it set)."""

    line: ChatLine


@dataclass(frozen=True)
class ChatFailed:
    """The store refused :class:`StoreChat`'s line."""

    id: Any


@dataclass(frozen=True)
class HintSaved:
    """The host stored :class:`StoreHint`'s seat record (one hint more)."""

    commit: HintCommit
    id: Any = None


@dataclass(frozen=True)
class HintFailed:
    """The store refused :class:`StoreHint`'s seat record: the hint is neither counted nor told."""

    id: Any = None


Input = (
    Message | BotMove | HintReady | GraceOver
    | Stored | StoreFailed | ChatSaved | ChatFailed | HintSaved | HintFailed  # outcomes of effects
)

# ------------------------------------------------------------------ effects


@dataclass(frozen=True)
class Reply:
    """Send ``message`` to the connection whose input this answers (a hint: to each asker)."""

    message: dict[str, Any]


@dataclass(frozen=True)
class Deliver:
    """Send each message to every connection of its audience, in order."""

    out: Out


@dataclass(frozen=True)
class StoreActions:
    """Store the commit's events (and the table's status, and its result at the end) durably;
    answer :class:`Stored` or :class:`StoreFailed`."""

    commit: Commit


@dataclass(frozen=True)
class StoreChat:
    """Store a chat line, its time set by the host; answer :class:`ChatSaved` or
    :class:`ChatFailed`.  A host may refuse it first by its own limits (the server's rate)."""

    line: ChatLine
    id: Any


@dataclass(frozen=True)
class Think:
    """Work out the hint ``ask`` (the computer player's choice from the seat's view), away from
    the table; answer :class:`HintReady` when done."""

    ask: HintAsk
    id: Any


@dataclass(frozen=True)
class StoreHint:
    """Store the seat's record counting one hint more; answer :class:`HintSaved` or
    :class:`HintFailed`."""

    commit: HintCommit
    id: Any


@dataclass(frozen=True)
class Reschedule:
    """The table changed: arm the computer's next move (:meth:`TableCore.bot_turn`) and, once
    the game is over, drop the grace timers."""


@dataclass(frozen=True)
class RetryLater:
    """The computer's move could not be stored (the table is as it was): try again after
    ``delay_s`` seconds."""

    delay_s: float


Effect = Reply | Deliver | StoreActions | StoreChat | Think | StoreHint | Reschedule | RetryLater

# ------------------------------------------------------------------ the core's answers


def handle(core: TableCore, event: Input) -> list[Effect]:
    """The effects ``core`` answers ``event`` with (see the module docstring)."""
    match event:
        case Message(audience, text, now):
            return message(core, audience, text, now)
        case Stored(commit):
            answer, out = core.confirm(commit)
            return [*([] if answer is None else [Reply(answer)]), Deliver(out), Reschedule()]
        case StoreFailed(commit):
            refused = core.abort(commit)
            return [Reply(refused)] if commit.proposal.by == HUMAN else [RetryLater(BOT_RETRY_S)]
        case ChatSaved(line):
            return [Deliver(core.chat_stored(line))]
        case ChatFailed(id):
            text = "the message could not be stored; nothing was sent, try again"
            return [Reply(reject(id, "storage_error", text))]
        case BotMove(turn, action, now):
            proposal = core.bot_proposal(turn, action)
            if proposal is None:  # the table moved on meanwhile: think again
                return [Reschedule()]
            proposed = core.propose(proposal, now)
            if not isinstance(proposed, Commit):  # (a legal computer move is always applied)
                raise RuntimeError(f"table {core.id}: the computer's {proposal.action!r} was refused")
            return [StoreActions(proposed)]
        case HintReady(ask, action, id):
            if action is None:
                return [Reply(reject(id, "hint_failed", "the hint could not be worked out; try again"))]
            ready = core.hint_ready(ask, action)
            if isinstance(ready, dict):
                return [Reply({**ready, "id": id})]
            return [StoreHint(ready, id)]
        case HintSaved(commit, id):
            return [Reply(core.hint_stored(commit, id))]
        case HintFailed(id):
            text = "the hint could not be stored; nothing was counted, try again"
            return [Reply(reject(id, "storage_error", text))]
        case GraceOver(seat):
            return [Deliver(core.broadcast()), Reschedule()] if core.grace_over(seat) else []


def message(core: TableCore, audience: Audience, text: str, now: float) -> list[Effect]:
    """A connection's text: answered at once, or a chat line, a hint or an action to carry out."""
    step = core.receive(audience, text)
    effects: list[Effect] = [Reply(m) for m in step.replies]
    if step.chat is not None:
        effects.append(StoreChat(step.chat, step.id))
    if step.hint is not None:
        effects.append(Think(step.hint, step.id))
    if step.proposal is not None:
        proposed = core.propose(step.proposal, now)
        effects.append(StoreActions(proposed) if isinstance(proposed, Commit) else Reply(proposed))
    return effects
