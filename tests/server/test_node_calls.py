"""The calls between nodes (node_calls.py): every call goes through its JSON and comes back the
same; whatever else another node sends is decoded exactly or refused with a ValueError, never
anything else; an answer not of the call's result type is refused too."""

from __future__ import annotations

import dataclasses
import json
import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bistrot.server.node_calls import (
    CALLS,
    AdmitCall,
    Call,
    ConnectCall,
    InfoCall,
    JoinCall,
    MoveSeatCall,
    decode,
)

#: Any JSON value, as json.loads gives it.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
tags = [kind.tag for kind in CALLS]
field_names = sorted({field.name for kind in CALLS for field in dataclasses.fields(kind)})
#: Objects that look like calls: a tag (mostly a real one), some of the calls' field names.
near_calls = st.builds(
    lambda tag, fields: {"call": tag, **fields},
    st.sampled_from(tags) | json_values,
    st.dictionaries(st.sampled_from(field_names) | st.text(max_size=4), json_values, max_size=6),
)


def through_json(value: object) -> object:
    return json.loads(json.dumps(value))


def test_every_call_is_decoded_by_its_own_tag() -> None:
    assert set(CALLS) == set(typing.get_args(Call))
    assert len(set(tags)) == len(tags)


@pytest.mark.parametrize("kind", CALLS, ids=tags)
@given(data=st.data())
def test_every_call_round_trips_through_its_json(kind: type[Call], data: st.DataObject) -> None:
    call = data.draw(st.builds(kind))
    encoded = call.encode()
    assert encoded["call"] == kind.tag
    decoded = decode(through_json(encoded))
    assert type(decoded) is kind and decoded == call


@given(json_values | near_calls)
def test_anything_else_is_decoded_exactly_or_refused_with_a_value_error(message: object) -> None:
    try:
        call = decode(message)
    except ValueError as err:
        assert str(err)
    else:
        assert call.encode() == message  # nothing dropped, nothing converted


@given(st.sampled_from(CALLS).flatmap(st.builds), st.sampled_from(field_names), json_values)
def test_a_call_with_a_field_changed_is_decoded_as_changed_or_refused(
    call: Call, name: str, value: object
) -> None:
    message = {**call.encode(), name: value}
    try:
        decoded = decode(message)
    except ValueError:
        return
    assert decoded.encode() == message


@given(st.sampled_from(CALLS).flatmap(st.builds), st.data())
def test_a_call_missing_a_field_or_with_one_more_is_refused(call: Call, data: st.DataObject) -> None:
    message = call.encode()
    name = data.draw(st.sampled_from([key for key in message if key != "call"]))
    with pytest.raises(ValueError, match=f"'{name}' is missing"):
        decode({key: value for key, value in message.items() if key != name})
    with pytest.raises(ValueError, match="unknown field 'extra'"):
        decode({**message, "extra": None})


@given(st.sampled_from(CALLS).flatmap(st.builds), json_values)
def test_an_answer_is_taken_as_sent_or_refused_with_a_value_error(call: Call, raw: object) -> None:
    try:
        answer = call.result(raw)
    except ValueError as err:
        assert call.tag in str(err)
    else:
        assert answer is raw


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ([], "a call is an object, not an array"),
        ({"table_id": "t"}, "no such call: None"),
        ({"call": "getattr", "table_id": "t"}, "no such call: 'getattr'"),
        ({"call": "info", "table_id": None}, "call 'info': field 'table_id' must be a string, not null"),
        ({"call": "info"}, "call 'info': field 'table_id' is missing"),
        ({"call": "info", "table_id": "t", "a": 1, "b": 2}, "call 'info': unknown fields 'a', 'b'"),
        # A JSON true or 1.0 is no seat.
        ({"call": "move_seat", "table_id": "t", "token": "k", "seat": True, "to": 1},
         "field 'seat' must be an integer or null, not a boolean"),
        ({"call": "move_seat", "table_id": "t", "token": "k", "seat": None, "to": 1.0},
         "field 'to' must be an integer, not a number"),
        ({"call": "connect", "table_id": "t", "conn_id": "n/1", "who": [0], "since": None},
         "field 'who' must be an integer or a string, not an array"),
    ],
)
def test_a_refusal_says_why(message: object, said: str) -> None:
    with pytest.raises(ValueError) as refused:
        decode(message)
    assert said in str(refused.value)


def test_a_refusal_never_quotes_a_value() -> None:
    """A value in the wrong field may be a token: the refusal names its kind, never the value."""
    secret = "s3cr3t-token-of-a-seat"
    message = {"call": "move_seat", "table_id": "t", "token": "k", "seat": secret, "to": 1}
    with pytest.raises(ValueError) as refused:
        decode(message)
    assert secret not in str(refused.value)
    with pytest.raises(ValueError) as refused:
        InfoCall("t").result(secret)
    assert secret not in str(refused.value)


def test_each_call_answers_its_own_type() -> None:
    assert JoinCall("t", None, "Ama", None).result({"seat": 1}) == {"seat": 1}
    assert MoveSeatCall("t", "k", None, 2).result({}) == {}
    with pytest.raises(ValueError, match="must be an object"):
        InfoCall("t").result([1])
    assert AdmitCall("t", "k").result(2) == 2
    assert AdmitCall("t", "k").result("spectator") == "spectator"
    assert AdmitCall("t", "k").result(None) is None
    assert ConnectCall("t", "n/1", 0, None).result(None) is None
    with pytest.raises(ValueError, match="must be null"):
        ConnectCall("t", "n/1", 0, None).result({})
