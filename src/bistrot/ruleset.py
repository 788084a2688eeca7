"""What every game's rules object shares: a frozen dataclass of named options, each described
once by an :class:`Option` (type, choices, default, record tag, label key), read from and written
to plain dicts (JSON, query strings, records).

The option schema is the one description of a game's rules: the page builds its rules form from
it (``GET /api/games``), records name one tag per option from it, and the command line reads
``--rule NAME=VALUE`` through :meth:`Option.parse`.

>>> from bistrot.omi import OmiRules
>>> OmiRules.from_dict({"target": 5}).to_dict()["target"]
5
>>> OmiRules.from_dict({"trumps": 2})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown Omi rules option trumps; the options are deal_rotation, direction, kapothi, ...
>>> [o.name for o in OmiRules.options()][:2]
['target', 'direction']
>>> OmiRules.option("redeal_few_trumps").parse("on")
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, Self

OptionType = Literal["int", "bool", "choice"]
_TRUE = ("on", "true", "yes", "1")
_FALSE = ("off", "false", "no", "0")


@dataclass(frozen=True)
class Option:
    """One rules option: its name, type, allowed or suggested values and default.

    ``choices`` are every allowed value of a ``choice`` option, and the values offered first for
    an ``int`` one (which may take any whole number from ``min`` to ``max``).  ``tag`` names it
    in game records; ``label`` is the key of its name in the page's translations (``opt.NAME``).
    """

    name: str
    type: OptionType
    default: Any
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None
    tag: str = ""
    label: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form served at ``GET /api/games``."""
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "choices": list(self.choices),
            "min": self.min,
            "max": self.max,
            "tag": self.tag,
            "label": self.label,
        }

    def parse(self, text: str) -> Any:
        """The value a text stands for (``"5"`` -> 5, ``"on"`` -> True); ``ValueError`` otherwise.

        >>> Option("target", "int", 10).parse("x")
        Traceback (most recent call last):
        ...
        ValueError: target must be a whole number, not 'x'
        """
        if self.type == "bool":
            low = text.strip().lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise ValueError(f"{self.name} must be on or off, not {text!r}")
        if self.type == "int":
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"{self.name} must be a whole number, not {text!r}") from None
        return text.strip()

    def text(self, value: Any) -> str:
        """The value as written in records and on the command line (booleans on/off)."""
        return ("on" if value else "off") if isinstance(value, bool) else str(value)


def option(
    default: Any,
    type: OptionType,
    *,
    choices: tuple[Any, ...] = (),
    min: int | None = None,
    max: int | None = None,
    tag: str,
) -> Any:
    """A rules dataclass field described by an :class:`Option` (name and default from the field)."""
    meta = {"option": {"type": type, "choices": choices, "min": min, "max": max, "tag": tag}}
    return dataclasses.field(default=default, metadata=meta)


class Ruleset:
    """Mixin for a frozen dataclass of rules options; ``GAME`` names the game in messages."""

    GAME: ClassVar[str] = "game"

    @classmethod
    def options(cls) -> tuple[Option, ...]:
        """Every option, in the order of the dataclass fields."""
        found = []
        for f in fields(cls):  # type: ignore[arg-type]  # subclasses are dataclasses
            meta = f.metadata.get("option")
            if meta is None:
                raise TypeError(f"{cls.__name__}.{f.name} is not declared with ruleset.option()")
            found.append(Option(f.name, default=f.default, label=f"opt.{f.name}", **meta))
        return tuple(found)

    @classmethod
    def option(cls, name: str) -> Option:
        """The option called ``name``; ``ValueError`` naming the known ones otherwise."""
        for found in cls.options():
            if found.name == name:
                return found
        known = ", ".join(sorted(o.name for o in cls.options()))
        raise ValueError(f"unknown {cls.GAME} rules option {name}; the options are {known}")

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict."""
        # Every field is a plain immutable value: no deep copy (dataclasses.asdict) needed.
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, options: dict[str, Any]) -> Self:
        """Rules from a dict of options; unknown names are refused with the list of known ones."""
        known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(
                f"unknown {cls.GAME} rules option {', '.join(unknown)}; "
                f"the options are {', '.join(sorted(known))}"
            )
        return cls(**options)
