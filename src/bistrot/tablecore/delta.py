"""What changed between two JSON values: a small patch, and the value it patches back.

A replay step (:mod:`bistrot.tablecore.replay`) carries the patch from the view before it to the
view after it, not that whole view: a long match's views repeat its whole history of hands,
and the page rebuilds each view from the one before (``js/delta.js`` applies the same patches,
docs/protocol.md, "Changes").  A patch is a JSON object with any of:

- ``set``: ``{key: value}`` members set to a new value (for a list: ``{"index": value}``);
- ``del``: keys removed (objects only);
- ``in``: ``{key: patch}`` members that are themselves patched (an object in an object, a
  list in a list...);
- ``append``: items appended to a list (a hand's results, a trick's cards).

>>> before = {"hand": ["AH", "KS"], "results": [1], "to_move": 0, "winner": None}
>>> after = {"hand": ["KS"], "results": [1, 2], "to_move": 1}
>>> change = diff(before, after)
>>> change["set"], change["del"]
({'to_move': 1}, ['winner'])
>>> change["in"]
{'hand': {'set': {'0': 'KS'}, 'len': 1}, 'results': {'append': [2]}}
>>> patched(before, change) == after, before["results"]  # the old value is never changed
(True, [1])
>>> diff(after, after)
{}
"""

from __future__ import annotations

from typing import Any

Patch = dict[str, Any]


def same(a: Any, b: Any) -> bool:
    """Whether two JSON values are taken as unchanged: equal, and of one type (``1``, ``1.0``
    and ``True`` differ).  Inside lists and objects Python's ``==`` decides, at C speed: a long
    match's history is compared at every step; a view never turns a ``1`` deep inside an
    unchanged list into a ``True``.

    >>> same([1, {"a": None}], [1, {"a": None}]), same(1, True), same([1], [1.0])
    (True, False, True)
    """
    return type(a) is type(b) and bool(a == b)


def diff(old: Any, new: Any) -> Patch:
    """The patch that turns ``old`` into ``new``, two objects or two lists (see the module
    docstring); ``{}`` when they are the same.  :func:`patched` undoes it.

    >>> diff([1, 2, 3], [1, 2, 3, 4]), diff([1, 2, 3], [9, 2]), diff({"a": [1]}, {"a": 5})
    ({'append': [4]}, {'set': {'0': 9}, 'len': 2}, {'set': {'a': 5}})
    """
    if isinstance(old, dict) and isinstance(new, dict):
        return _diff_object(old, new)
    if isinstance(old, list) and isinstance(new, list):
        return _diff_list(old, new)
    raise TypeError(f"a patch goes from an object or a list to one of the same kind, not {type(old).__name__}"
                    f" to {type(new).__name__}")


def _member(patch: Patch, key: str, old: Any, new: Any) -> None:
    # One member of an object or a list: patched in place when both are containers of one kind
    # (a small change to a long list stays small), else set whole.
    if same(old, new):
        return
    if type(old) is type(new) and isinstance(old, dict | list):
        patch.setdefault("in", {})[key] = diff(old, new)
    else:
        patch.setdefault("set", {})[key] = new


def _diff_object(old: dict[str, Any], new: dict[str, Any]) -> Patch:
    patch: Patch = {}
    for key, value in new.items():
        if key not in old:
            patch.setdefault("set", {})[key] = value
    gone = [key for key in old if key not in new]
    if gone:
        patch["del"] = gone
    for key, value in new.items():
        if key in old:
            _member(patch, key, old[key], value)
    return _ordered(patch)


def _diff_list(old: list[Any], new: list[Any]) -> Patch:
    patch: Patch = {}
    common = min(len(old), len(new))
    for i in range(common):
        _member(patch, str(i), old[i], new[i])
    if len(new) > len(old):
        patch["append"] = new[common:]
    elif len(new) < len(old):
        patch["len"] = len(new)  # cut to this length, after the members above are set
    return _ordered(patch)


def _ordered(patch: Patch) -> Patch:
    # One order for the keys, so that equal changes give equal texts.
    return {k: patch[k] for k in ("set", "del", "in", "append", "len") if k in patch}


def patched(old: Any, patch: Patch) -> Any:
    """``old`` with ``patch`` applied, as a new value (``old`` is never changed; members the
    patch does not touch are shared with it).

    >>> patched({"a": [1, 2], "b": 0}, {"in": {"a": {"append": [3]}}, "del": ["b"]})
    {'a': [1, 2, 3]}
    """
    if isinstance(old, list):
        items = list(old)
        for index, value in patch.get("set", {}).items():
            items[int(index)] = value
        for index, inner in patch.get("in", {}).items():
            items[int(index)] = patched(items[int(index)], inner)
        if "len" in patch:
            del items[patch["len"] :]
        items.extend(patch.get("append", ()))
        return items
    out = dict(old)
    for key in patch.get("del", ()):
        out.pop(key, None)
    out.update(patch.get("set", {}))
    for key, inner in patch.get("in", {}).items():
        out[key] = patched(out[key], inner)
    return out
