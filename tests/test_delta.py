"""A patch from one JSON value to another gives that other back (bistrot.tablecore.delta)."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bistrot.tablecore.delta import diff, patched

SCALARS = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=2), inner, max_size=5),
    max_leaves=25,
)
CONTAINERS = st.lists(JSON, max_size=6) | st.dictionaries(st.text(max_size=2), JSON, max_size=6)


@settings(max_examples=400, deadline=None)
@given(pair=st.one_of(st.tuples(st.lists(JSON, max_size=6), st.lists(JSON, max_size=6)),
                      st.tuples(st.dictionaries(st.text(max_size=2), JSON, max_size=6),
                                st.dictionaries(st.text(max_size=2), JSON, max_size=6))))
def test_a_patch_turns_the_old_value_into_the_new_one_through_json(pair):
    old, new = pair
    kept = copy.deepcopy(old)
    change = json.loads(json.dumps(diff(old, new)))  # as it travels
    assert patched(old, change) == new
    assert old == kept  # never changed
    assert diff(new, new) == {}


@settings(max_examples=200, deadline=None)
@given(old=st.lists(JSON, max_size=20), more=st.lists(JSON, min_size=1, max_size=3))
def test_a_list_that_grows_is_sent_only_its_new_items(old, more):
    assert diff(old, old + more) == {"append": more}


def test_a_scalar_of_another_type_is_a_change():
    assert diff({"a": 1}, {"a": True}) == {"set": {"a": True}}
    assert patched({"a": 1}, diff({"a": 1}, {"a": True}))["a"] is True


def test_values_that_are_not_both_objects_or_both_lists_are_refused_and_named():
    with pytest.raises(TypeError, match="not list to dict"):
        diff([], {})
