"""The HTTP bodies of the protocol (docs/protocol.md), as pydantic models (hence the OpenAPI
schema).  The WebSocket messages are pure Python shared with the player's device: they live in
:mod:`bistrot.wire`.

>>> CreateTable(game="omi").mode
'computer'
>>> CreateTable(game="chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for CreateTable
...
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    model_validator,
)

from bistrot import games
from bistrot.server.schema import HISTORY_MAX
from bistrot.tablecore import text as text_rule
from bistrot.tablecore.errors import TableError
from bistrot.tablecore.plan import refuse_pace

Level = Literal["easy", "medium", "hard"]  # bistrot.games.LEVELS, spelled for the OpenAPI schema
Mode = Literal["computer", "friends", "hotseat"]  # bistrot.games.MODES, likewise
MAX_NAME_CHARS = 24


class ApiError(TableError):
    """A refused HTTP request: status, code for programs, message for people (the table core's
    :class:`~bistrot.tablecore.errors.TableError`, which the server answers alike)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code, message, status)


def unknown_table() -> ApiError:
    """The refusal of a table id that names no table (404)."""
    return ApiError(404, "unknown_table", "there is no table with this id")


def broken_table() -> ApiError:
    """The refusal of a table whose stored rows cannot be rebuilt (500)."""
    return ApiError(
        500,
        "broken_table",
        "this table's stored record is damaged and cannot be rebuilt; other tables are not affected",
    )


def store_unreadable() -> ApiError:
    """The refusal of a request whose read of the store failed (503: the client tries again)."""
    return ApiError(503, "storage_error", "the database could not be read; try again")


def store_refused() -> ApiError:
    """The refusal of a request whose write the store refused (503: nothing changed, the client
    tries again; the log and ``/healthz`` say whether the store refuses every write)."""
    return ApiError(503, "storage_error", "the database could not store this; nothing changed, try again")


def _check_name(name: str) -> str:
    # The rule of every text shown to others, chat's too (a TextRefused is a ValueError)
    return text_rule.check(name, "a name", MAX_NAME_CHARS)


Name = Annotated[str, AfterValidator(_check_name)]


def _check_game(name: str) -> str:
    if name not in games.names():
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(games.names())}")
    return name


GameName = Annotated[str, AfterValidator(_check_game)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateTable(_Body):
    """``POST /api/tables``: see docs/protocol.md."""

    game: GameName = Field(max_length=32, description="which game: a name listed by GET /api/games")
    mode: Mode = Field("computer", description="computer, friends or hotseat")
    rules: dict[str, Any] = Field(default_factory=dict, description="the game's rules options")
    level: Level | None = Field(None, description="computer level of every computer seat (default medium)")
    # JSON object keys are texts: "2" names seat 2 (the one place a number comes as text).  Not
    # dict[int, ...]: pydantic's int keys take " 1" and "01"; the plan checks them strictly.
    bots: dict[str, Level] = Field(
        default_factory=dict, description='per-seat computer levels: {"2": "hard"} (a seat number as text)'
    )
    # Strict: "1", 1.0 or true are no seat, true no seed (lax coercion would take them)
    seat: StrictInt = Field(0, ge=0, le=7, description="the human seat of a computer table")
    seed: StrictInt | StrictStr | None = Field(
        None,
        description="a deal code (or integer seed) to play a known deal (not at a friends table)",
    )
    name: Name | None = Field(
        None, description="the creator's display name (with a profile: the profile's name instead)"
    )
    public: StrictBool = Field(
        False, description="a friends table listed in the lobby while it waits; needs a profile"
    )

    @model_validator(mode="before")
    @classmethod
    def _no_pace(cls, data: Any) -> Any:
        # The table's pace is the operator's (Settings); the plan's refusal, named as such,
        # rather than pydantic's "extra inputs are not permitted".  A TableError is not a
        # ValueError: pydantic lets it through and the app answers it like any other.
        if isinstance(data, dict):
            refuse_pace(data)
        return data


class JoinTable(_Body):
    """``POST /api/tables/{table}/join``."""

    invite: str | None = Field(
        None, max_length=64, description="the invite of the join link (a public table: a profile instead)"
    )
    name: Name | None = None


class CheckInvite(_Body):
    """``POST /api/tables/{table}/check-invite``."""

    invite: str = Field(max_length=64, description="the invite of the join link")


class SeatAuth(_Body):
    """A request made as one seat: start, rematch, challenge."""

    token: str = Field(max_length=64, description="the seat's token")


class MoveSeat(_Body):
    """``POST /api/tables/{table}/seat``: move the player of ``seat`` (default: the token's own)
    to seat ``to``, before the start."""

    token: str = Field(max_length=64, description="your seat's token (the creator's to move another)")
    # Strict, as CreateTable.seat: "1", 1.0 or true are no seat
    to: StrictInt = Field(ge=0, le=7, description="the seat to move to")
    seat: StrictInt | None = Field(None, ge=0, le=7, description="whose player moves (default: yours)")


class PlayChallenge(_Body):
    """``POST /api/challenges/{challenge}/play``."""

    name: Name | None = None


class SeatToken(BaseModel):
    seat: int
    token: str


class CreatedTable(BaseModel):
    """The answer to opening a table (or a challenge's table)."""

    table: str
    game: str
    mode: str
    status: str
    seats: list[SeatToken]
    table_url: str
    join_url: str | None
    watch_url: str
    invite: str | None
    watch: str


class Joined(BaseModel):
    table: str
    seat: int
    token: str
    table_url: str
    status: str


class SeatInfo(BaseModel):
    seat: int
    kind: str
    name: str | None
    level: str | None
    connected: bool
    away: bool
    you: bool
    profile: str | None = Field(None, description="the public id of its player's profile, if any")
    grace_left: int | None = Field(
        None, description="while its player's grace period runs: seconds left before a computer takes it"
    )


class InviteOpen(BaseModel):
    """The seat a join link would take now (nothing is taken), and what it invites to: the
    public facts a friend decides on (no card, no secret)."""

    table: str
    seat: int
    game: str
    host: str | None = Field(description="the name of whoever invites (seat 0: the table's creator)")
    players: int
    rules: dict[str, Any]
    seats: list[SeatInfo] = Field(description="who sits where already (kind open: a free seat)")


class TableInfo(BaseModel):
    """Public facts of a table: no secret, no card."""

    table: str
    game: str
    mode: str
    status: str
    seq: int
    players: int
    rules: dict[str, Any]
    seats: list[SeatInfo]
    rematch: str | None
    public: bool = Field(False, description="listed in the lobby while it waits")
    rated: bool = Field(False, description="its game will count for its players' ratings")


class Rematch(BaseModel):
    table: str
    table_url: str
    seat: int
    token: str


class ChallengeLink(BaseModel):
    challenge: str
    challenge_url: str


class ChallengeResult(BaseModel):
    table: str
    name: str | None
    status: str
    seq: int
    won: bool | None
    summary: dict[str, Any] | None
    seats: list[HistorySeat] | None = Field(
        default=None,
        description="the original game's result only: who sat where in it (kind, name, level); an"
        " attempt's other seats are the challenge's computers",
    )
    facts: dict[str, Any] | None = Field(
        default=None,
        description="only when the answer's facts_shown is true (absent otherwise): once the game"
        " is over, its public facts (the registry's facts: Omi's hands one by one, Oti's order of"
        " going out, cards left, turns), null while it is played; never a card",
    )


class ChallengeInfo(BaseModel):
    challenge: str
    game: str
    rules: dict[str, Any]
    seat: int
    players: int
    computers: list[dict[str, Any]]
    first_to_move: int | None = Field(
        description="the seat that acts first on this deal, as anyone sitting down sees at once"
        " (Omi: the first trump's chooser); null where several act at once (Oti's swap)"
    )
    facts_shown: bool = Field(
        description="whether the results carry their games' facts: only for a caller naming a"
        " finished table of this challenge (?table=) with a token of it"
    )
    results: list[ChallengeResult]


class Health(BaseModel):
    """``GET /healthz``.  ``ok`` is false (HTTP 503) only when the store cannot be reached or
    refuses writes: a broken table is reported, but it does not take the whole server out of a
    load balancer."""

    #: Most broken table ids listed (the count is always whole).
    BROKEN_SHOWN: ClassVar[int] = 20

    ok: bool = Field(description="the server answers and its store is reachable and takes writes")
    tables: int = Field(description="tables in memory")
    store_reachable: bool = Field(description="the store answered a read just now")
    store_writable: bool = Field(
        True,
        description="the store's last write went through (false: it refuses writes, say its file is"
        " damaged or its disk full, until one goes through again; the log says why)",
    )
    broken_tables: int = Field(description="tables found broken since the server started")
    broken: list[str] = Field(
        description="the first 6 characters of their ids (this page is public), the first 20;"
        " the log says why each is broken"
    )
    acts: dict[str, float] | None = None
    store: dict[str, float] | None = None


class GameOption(BaseModel):
    """One rules option of a game."""

    name: str
    type: Literal["int", "bool", "choice"]
    default: Any
    choices: list[Any] = Field(description="a choice option's values; an int option's values offered first")
    min: int | None = Field(description="the smallest value of an int option")
    max: int | None = Field(description="the largest value of an int option")
    tag: str = Field(description="its tag in game records")
    label: str = Field(description="the key of its name in the page's translations")
    help: str = Field(description="what it does, in one line (English)")


class Capabilities(BaseModel):
    """What a game provides beyond being played (``GameEntry.capabilities``); the page offers
    only what is declared here."""

    analysis: bool = Field(description="its finished games can be analysed (POST /api/tables/{id}/analysis)")
    hints: bool = Field(description="a computer player can give hints")
    terminal: bool = Field(description="`bistrot play <name>` plays it in a terminal")
    rated: bool = Field(description="its public games count for ratings")
    facts: bool = Field(description="a challenge's results compare its games hand by hand")


class GameInfo(BaseModel):
    """One game of the card room, from the game registry."""

    name: str
    title: str
    label: str
    options: list[GameOption]
    levels: list[Level]
    default_level: Level
    modes: list[Mode]
    capabilities: Capabilities


class Sharing(BaseModel):
    """``GET /api/room``: where the links a player shares should point."""

    share_origin: str | None
    """The origin for invite, watch and challenge links; null: the page's own address."""
    local_only: bool
    """Whether such links open on this machine only (the page says so next to them)."""


class GameList(BaseModel):
    """``GET /api/games``."""

    games: list[GameInfo]


class HistoryRequest(_Body):
    """``POST /api/history``: the tables this browser remembers (ids, at most HISTORY_MAX)."""

    tables: list[Annotated[str, Field(max_length=64)]] = Field(max_length=HISTORY_MAX)


class HistorySeat(BaseModel):
    seat: int
    kind: str
    name: str | None
    level: str | None


class FinishedTable(BaseModel):
    """What the history and a replay say alike of a finished game."""

    table: str
    game: str
    mode: str
    players: int
    rules: dict[str, Any]
    result: dict[str, Any] | None
    winners: list[int] = Field(description="the seats that won")


class HistoryGame(FinishedTable):
    """One finished game: no secret and no card."""

    seats: list[HistorySeat]
    created_at: float = Field(description="when the table was opened (seconds since the epoch)")
    ended_at: float = Field(description="when the table last changed: the end of its game")
    challenge: bool = Field(description="the table was opened from a challenge")


class History(BaseModel):
    """``POST /api/history``: the finished games among those asked for, the latest ended first."""

    games: list[HistoryGame]


class ReplayStep(BaseModel):
    """One action of a finished game, and what it changed."""

    index: int = Field(description="the action's index among the record's actions, from 0")
    seq: int
    seat: int
    action: str
    by: str = Field(description="human or computer")
    change: dict[str, Any] = Field(
        description="the patch (docs/protocol.md, \"Changes\") from the view before this action to the"
        " view after it: the spectators' view, with `hands`, every seat's hand"
    )


class Replay(FinishedTable):
    """``GET /api/tables/{id}/replay``: a finished game, step by step, every hand shown."""

    seats: list[SeatInfo]
    start: dict[str, Any] = Field(description="the view before the first action")
    steps: list[ReplayStep]


class AnalysisState(BaseModel):
    """``GET``/``POST /api/tables/{id}/analysis``: where a finished game's analysis stands."""

    status: Literal["none", "queued", "running", "done", "failed"] = Field(
        description="none: never asked (or its job died: ask again); queued or running: `done` of"
        " `total` decisions judged so far; done: `result` holds it; failed: it may be asked again later"
    )
    done: int | None = None
    total: int | None = None
    result: dict[str, Any] | None = Field(
        None, description="the analysis, as `bistrot analyze --json` prints it (docs/analysis.md)"
    )


class ErrorBody(BaseModel):
    code: str
    message: str
