"""The calls one node makes of another: one frozen dataclass per call, each with its result type.

A node asked about a table another node owns sends that node a *call* over the
:mod:`~bistrot.server.bus` (:meth:`bistrot.server.cluster.Cluster.call`): the owner's room runs
it (:meth:`bistrot.server.room.Room.forwarded`) and answers.  On the bus a call is a JSON object
tagged with its name, its fields beside the tag; :meth:`NodeCall.encode` writes it, :func:`decode`
reads it back:

>>> call = JoinCall("t1", invite="k3", name="Ama", profile=None)
>>> call.encode()
{'call': 'join', 'table_id': 't1', 'invite': 'k3', 'name': 'Ama', 'profile': None}
>>> decode(call.encode()) == call
True

A message from another node is still input.  :func:`decode` refuses, with a ``ValueError`` that
says why, anything but one of these calls with exactly its fields, each of its type (a node of
another version, a bug); so does :meth:`NodeCall.result` an answer that is not of the call's
result type:

>>> decode({"call": "join", "table_id": 7})
Traceback (most recent call last):
...
ValueError: call 'join': field 'table_id' must be a string, not an integer
>>> decode({"call": "shutdown"})
Traceback (most recent call last):
...
ValueError: no such call: 'shutdown'
>>> call.result({"table": "t1", "seat": 1})
{'table': 't1', 'seat': 1}
>>> AdmitCall("t1", "tok").result(True)
Traceback (most recent call last):
...
ValueError: the answer to 'admit' must be an integer, a string or null, not a boolean

Three families: calls about a table (:data:`TableCall`), run by the room of the node that owns
it; calls about a challenge (:data:`ChallengeIdCall`), run by the room of the node that owns
the challenge's source table; and a relayed WebSocket's calls (:data:`RelayCall`), run by the
owner's :class:`~bistrot.server.cluster.Cluster`.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Generic, Self, TypeAlias, TypeGuard, TypeVar, cast

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: An answer of the HTTP API, as the owner's room returns it (a JSON object).
JsonObject: TypeAlias = dict[str, object]

R = TypeVar("R", covariant=True)


class NodeCall(ABC, Generic[R]):
    """A call another node runs: its fields, and what it answers (``R``)."""

    #: The call's name on the bus (the ``"call"`` of its JSON object).
    tag: ClassVar[str]

    def encode(self) -> dict[str, object]:
        """The call as a JSON object: its tag and its fields (:func:`decode` reads it)."""
        fields: dict[str, object] = dataclasses.asdict(cast("DataclassInstance", self))
        return {"call": self.tag, **fields}

    @abstractmethod
    def result(self, raw: object) -> R:
        """The answer to this call, as another node sent it (decoded JSON), checked to be of the
        call's result type; ValueError otherwise."""

    @classmethod
    def from_fields(cls, fields: _Fields) -> Self:
        """The call from its message's fields, each read as the type its dataclass field says
        (:data:`_READERS`: the one list of the types a call's field may have)."""
        declared = dataclasses.fields(cast("type[DataclassInstance]", cls))
        return cls(*(_READERS[str(f.type)](fields, f.name) for f in declared))


class _Answered(NodeCall[JsonObject]):
    """A call the owner's room answers with a JSON object (the HTTP API's answer)."""

    def result(self, raw: object) -> JsonObject:
        if isinstance(raw, dict) and all(isinstance(key, str) for key in raw):
            return raw
        raise ValueError(f"the answer to {self.tag!r} must be an object, not {_kind(raw)}")


# ---------------------------------------------------------------- about a table


@dataclass(frozen=True)
class InfoCall(_Answered):
    """``GET /api/tables/{id}``."""

    tag: ClassVar[str] = "info"
    table_id: str


@dataclass(frozen=True)
class JoinCall(_Answered):
    """``POST /api/tables/{id}/join`` (``profile``: the joining player's checked profile id)."""

    tag: ClassVar[str] = "join"
    table_id: str
    invite: str | None
    name: str | None
    profile: str | None


@dataclass(frozen=True)
class CheckInviteCall(_Answered):
    """``POST /api/tables/{id}/check-invite``."""

    tag: ClassVar[str] = "check_invite"
    table_id: str
    invite: str


@dataclass(frozen=True)
class StartTableCall(_Answered):
    """``POST /api/tables/{id}/start``."""

    tag: ClassVar[str] = "start_table"
    table_id: str
    token: str


@dataclass(frozen=True)
class MoveSeatCall(_Answered):
    """``POST /api/tables/{id}/seat``: the player of ``seat`` (None: the token's own) to ``to``."""

    tag: ClassVar[str] = "move_seat"
    table_id: str
    token: str
    seat: int | None
    to: int


@dataclass(frozen=True)
class RematchCall(_Answered):
    """``POST /api/tables/{id}/rematch``."""

    tag: ClassVar[str] = "rematch"
    table_id: str
    token: str


@dataclass(frozen=True)
class ChallengeCall(_Answered):
    """``POST /api/tables/{id}/challenge``: a challenge made from the token's seat."""

    tag: ClassVar[str] = "challenge"
    table_id: str
    token: str


# ---------------------------------------------------------------- about a challenge


@dataclass(frozen=True)
class ChallengeInfoCall(_Answered):
    """``GET /api/challenges/{id}``, naming ``table`` with its ``token`` to be shown the facts
    (both None: it names none)."""

    tag: ClassVar[str] = "challenge_info"
    challenge_id: str
    table: str | None
    token: str | None


@dataclass(frozen=True)
class PlayChallengeCall(_Answered):
    """``POST /api/challenges/{id}/play`` (``challenger``: the caller's key, once per challenge)."""

    tag: ClassVar[str] = "play_challenge"
    challenge_id: str
    name: str | None
    challenger: str | None


# ---------------------------------------------------------------- a relayed WebSocket's


@dataclass(frozen=True)
class AdmitCall(NodeCall[int | str | None]):
    """Who ``token`` is at the table: a seat, :data:`~bistrot.server.table.SPECTATOR` (the watch
    key), or None (neither)."""

    tag: ClassVar[str] = "admit"
    table_id: str
    token: str

    def result(self, raw: object) -> int | str | None:
        if raw is None or isinstance(raw, str) or _is_integer(raw):
            return raw
        wanted = "an integer, a string or null"
        raise ValueError(f"the answer to {self.tag!r} must be {wanted}, not {_kind(raw)}")


@dataclass(frozen=True)
class ConnectCall(NodeCall[None]):
    """A socket on the calling node joins the table as ``who`` (a seat or
    :data:`~bistrot.server.table.SPECTATOR`); its frames go under ``conn_id`` (``since``: the
    last seq its page has, as in the hello)."""

    tag: ClassVar[str] = "connect"
    table_id: str
    conn_id: str
    who: int | str
    since: int | None

    def result(self, raw: object) -> None:
        if raw is not None:
            raise ValueError(f"the answer to {self.tag!r} must be null, not {_kind(raw)}")


#: The calls about a table: the node that owns the table runs them.
TableCall: TypeAlias = (
    InfoCall | JoinCall | CheckInviteCall | StartTableCall | MoveSeatCall | RematchCall | ChallengeCall
)
#: The calls about a challenge: the node that owns the challenge's source table runs them.
ChallengeIdCall: TypeAlias = ChallengeInfoCall | PlayChallengeCall
#: What the owner's room runs (:meth:`bistrot.server.room.Room.forwarded`).
RoomCall: TypeAlias = TableCall | ChallengeIdCall
#: What the owner's cluster runs for a socket relayed from the calling node.
RelayCall: TypeAlias = AdmitCall | ConnectCall
#: Every call (what :func:`decode` returns).
Call: TypeAlias = RoomCall | RelayCall

#: Every kind of call, each decoded by its tag.
CALLS: tuple[type[Call], ...] = (
    InfoCall, JoinCall, CheckInviteCall, StartTableCall, MoveSeatCall, RematchCall, ChallengeCall,
    ChallengeInfoCall, PlayChallengeCall, AdmitCall, ConnectCall,
)
_DECODERS: dict[str, Callable[[_Fields], Call]] = {kind.tag: kind.from_fields for kind in CALLS}


def decode(message: object) -> Call:
    """The call ``message`` (decoded JSON, as :meth:`NodeCall.encode` wrote it) is; ValueError,
    saying why, for anything else: not an object, no such call, a field missing, unknown, or of
    the wrong type.  See the module docstring."""
    if not isinstance(message, dict):
        raise ValueError(f"a call is an object, not {_kind(message)}")
    tag = message.get("call")
    if not isinstance(tag, str) or tag not in _DECODERS:
        raise ValueError(f"no such call: {_shown(tag)}")
    fields = _Fields(tag, message)
    call = _DECODERS[tag](fields)
    fields.nothing_else()
    return call


class _Fields:
    """The fields of one call's message, each read once as its type (ValueError otherwise)."""

    def __init__(self, tag: str, message: Mapping[object, object]) -> None:
        self._tag = tag
        self._message = message
        self._read: set[object] = {"call"}

    def _get(self, key: str) -> object:
        if key not in self._message:
            raise ValueError(f"call {self._tag!r}: field {key!r} is missing")
        self._read.add(key)
        return self._message[key]

    def _wrong(self, key: str, wanted: str, value: object) -> ValueError:
        return ValueError(f"call {self._tag!r}: field {key!r} must be {wanted}, not {_kind(value)}")

    def text(self, key: str) -> str:
        value = self._get(key)
        if isinstance(value, str):
            return value
        raise self._wrong(key, "a string", value)

    def text_or_none(self, key: str) -> str | None:
        value = self._get(key)
        if value is None or isinstance(value, str):
            return value
        raise self._wrong(key, "a string or null", value)

    def integer(self, key: str) -> int:
        value = self._get(key)
        if _is_integer(value):
            return value
        raise self._wrong(key, "an integer", value)

    def integer_or_none(self, key: str) -> int | None:
        value = self._get(key)
        if value is None or _is_integer(value):
            return value
        raise self._wrong(key, "an integer or null", value)

    def integer_or_text(self, key: str) -> int | str:
        value = self._get(key)
        if isinstance(value, str) or _is_integer(value):
            return value
        raise self._wrong(key, "an integer or a string", value)

    def nothing_else(self) -> None:
        """ValueError if the message has a field no read asked for."""
        unknown = [key for key in self._message if key not in self._read]
        if unknown:
            named = ", ".join(_shown(key) for key in unknown[:5])
            raise ValueError(f"call {self._tag!r}: unknown field{'s' if len(unknown) > 1 else ''} {named}")


#: How a field of each type a call may declare is read (the dataclass field's annotation, as
#: written: ``from __future__ import annotations`` keeps it a text).
_READERS: dict[str, Callable[[_Fields, str], object]] = {
    "str": _Fields.text,
    "str | None": _Fields.text_or_none,
    "int": _Fields.integer,
    "int | None": _Fields.integer_or_none,
    "int | str": _Fields.integer_or_text,
}


def _is_integer(value: object) -> TypeGuard[int]:
    # (a JSON true is no seat: bool is an int to Python)
    return isinstance(value, int) and not isinstance(value, bool)


_KINDS: tuple[tuple[type[object], str], ...] = (
    (bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string"),
    (list, "an array"), (dict, "an object"),
)


def _kind(value: object) -> str:
    """What a JSON value is, in words (never the value: it may be a token)."""
    if value is None:
        return "null"
    return next((name for kind, name in _KINDS if isinstance(value, kind)), type(value).__name__)


def _shown(name: object) -> str:
    """A call's or a field's name as a refusal quotes it: shortened."""
    text = repr(name)
    return text if len(text) <= 40 else text[:37] + "..."


def _readable(kinds: tuple[type[Call], ...]) -> None:
    """TypeError, at import, for a call with a field of a type no reader reads."""
    for kind in kinds:
        for f in dataclasses.fields(kind):
            if str(f.type) not in _READERS:
                raise TypeError(f"{kind.__name__}.{f.name}: a call's field is one of {', '.join(_READERS)}")


_readable(CALLS)
