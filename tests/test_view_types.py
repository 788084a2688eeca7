"""The page's type of a view (the JSDoc ``GameView`` of ``js/protocol-types.js``, which tsc checks
the page against) and the engines' (:class:`bistrot.engine.GameView`) cannot drift apart: the same
keys, the same ones optional (``[name]`` in JSDoc, ``NotRequired`` in Python), and the same ones
nullable (``| null``, ``| None``).

The typedef is read from the file's text (``@property {type} name`` lines); the tests on altered
copies show that a key added, removed or made optional on one side only is caught.

Which keys are optional is read from the TypedDict's annotations (``NotRequired[...]``), not from
``__optional_keys__`` alone: engine.py has ``from __future__ import annotations``, and under it
Python 3.11 cannot see ``NotRequired`` in the string annotations, so it lists every key of
``GameView`` in ``__required_keys__`` and none in ``__optional_keys__``. The keys themselves are
``__required_keys__ | __optional_keys__``, and where a Python does tell the optional ones apart,
they must be the annotations' (``test_the_typed_dicts_own_key_sets_agree``).
"""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path

import pytest

from bistrot.engine import GameView

TYPES_JS = Path(__file__).parents[1] / "src/bistrot/web/static/js/protocol-types.js"

#: The doc comment that holds ``@typedef {object} GameView``, up to its end.
TYPEDEF = re.compile(r"/\*\*(?:(?!\*/).)*?@typedef\s+\{object\}\s+GameView\b((?:(?!\*/).)*)\*/", re.S)
#: ``@property {type} name`` or ``@property {type} [name]`` (optional); a type may hold one level
#: of braces (``{{ a: number }}``).
PROPERTY = re.compile(r"@property\s+\{((?:[^{}]|\{[^{}]*\})*)\}\s+(\[\s*\w+\s*\]|\w+)")


def js_game_view(text: str) -> dict[str, tuple[bool, bool]]:
    """Key -> (optional, nullable) of the JSDoc ``GameView`` typedef in ``text``."""
    found = TYPEDEF.findall(text)
    assert len(found) == 1, f"one `@typedef {{object}} GameView` doc comment expected, found {len(found)}"
    keys: dict[str, tuple[bool, bool]] = {}
    for js_type, name in PROPERTY.findall(found[0]):
        optional = name.startswith("[")
        key = name.strip("[] ")
        assert key not in keys, f"GameView's {key!r} is declared twice"
        keys[key] = (optional, bool(re.search(r"\bnull\b", js_type)))
    assert keys, "the GameView typedef has no @property"
    return keys


def python_game_view() -> dict[str, tuple[bool, bool]]:
    """Key -> (optional, nullable) of :class:`bistrot.engine.GameView`."""
    keys = GameView.__required_keys__ | GameView.__optional_keys__
    hints = typing.get_type_hints(GameView, include_extras=True)
    assert set(hints) == keys
    return {key: (_optional(hints[key]), _nullable(_unwrapped(hints[key]))) for key in keys}


def _optional(hint: object) -> bool:
    origin = typing.get_origin(hint)
    if origin is typing.NotRequired:
        return True
    return False if origin is typing.Required else not GameView.__total__


def _unwrapped(hint: object) -> object:
    """The type inside ``NotRequired[...]`` or ``Required[...]``."""
    if typing.get_origin(hint) in (typing.NotRequired, typing.Required):
        return typing.get_args(hint)[0]
    return hint


def _nullable(hint: object) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in typing.get_args(hint)


def differences(text: str) -> list[str]:
    """What differs between the typedef in ``text`` and the Python TypedDict, said per key."""
    js, py = js_game_view(text), python_game_view()
    said = []
    for key in sorted(py.keys() - js.keys()):
        said.append(f"{key}: in bistrot.engine.GameView, not in the JSDoc typedef")
    for key in sorted(js.keys() - py.keys()):
        said.append(f"{key}: in the JSDoc typedef, not in bistrot.engine.GameView")
    for key in sorted(js.keys() & py.keys()):
        (js_optional, js_null), (py_optional, py_null) = js[key], py[key]
        if js_optional != py_optional:
            said.append(f"{key}: optional in {'JSDoc' if js_optional else 'Python'} only")
        if js_null != py_null:
            said.append(f"{key}: nullable in {'JSDoc' if js_null else 'Python'} only")
    return said


def test_the_page_and_the_engines_have_one_view() -> None:
    assert differences(TYPES_JS.read_text(encoding="utf-8")) == []


def test_the_typedef_holds_the_typed_dicts_keys() -> None:
    js = js_game_view(TYPES_JS.read_text(encoding="utf-8"))
    assert set(js) == GameView.__required_keys__ | GameView.__optional_keys__
    optional = {key for key, (opt, _) in python_game_view().items() if opt}
    assert {key for key, (opt, _) in js.items() if opt} == optional


def test_the_typed_dicts_own_key_sets_agree() -> None:
    """``__optional_keys__`` are the keys the annotations make optional, or, on Python 3.11 under
    ``from __future__ import annotations`` (the module's doc), none: every key is then listed
    required."""
    py = python_game_view()
    optional = {key for key, (opt, _) in py.items() if opt}
    assert optional, "GameView has NotRequired keys (deal_code, seats, table)"
    assert (GameView.__required_keys__, GameView.__optional_keys__) in [
        (py.keys() - optional, optional),
        (py.keys(), frozenset()),
    ]


def _altered(old: str, new: str) -> str:
    text = TYPES_JS.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        # a key the page expects that the engines do not send
        (" * @property {boolean} is_over\n", " * @property {boolean} is_over\n * @property {string} trump\n",
         "trump: in the JSDoc typedef, not in bistrot.engine.GameView"),
        # a key the engines send that the page does not know
        (" * @property {boolean} is_over\n", "",
         "is_over: in bistrot.engine.GameView, not in the JSDoc typedef"),
        # optional on one side only, both ways
        (" * @property {string} phase\n", " * @property {string} [phase]\n", "phase: optional in JSDoc only"),
        (" * @property {string} [deal_code]\n", " * @property {string} deal_code\n",
         "deal_code: optional in Python only"),
        # null on one side only
        (" * @property {number | null} winner\n", " * @property {number} winner\n",
         "winner: nullable in Python only"),
    ],
)
def test_a_drift_is_caught(old: str, new: str, said: str) -> None:
    assert differences(_altered(old, new)) == [said]


def test_a_key_added_to_the_typed_dict_alone_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other side: the Python TypedDict gaining a key the typedef lacks."""

    class Wider(GameView):
        trump: str | None
        hands: typing.NotRequired[list[str]]

    monkeypatch.setattr(f"{__name__}.GameView", Wider)
    assert differences(TYPES_JS.read_text(encoding="utf-8")) == [
        "hands: in bistrot.engine.GameView, not in the JSDoc typedef",
        "trump: in bistrot.engine.GameView, not in the JSDoc typedef",
    ]
