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
ValueError: unknown Omi rules option trumps; the options are deal_rotation, direction, hands, ...
>>> [o.name for o in OmiRules.options()][:2]
['target', 'players']
>>> OmiRules.option("redeal_few_trumps").parse("on")
True
>>> OmiRules(target=5).to_tags()[:2]
[('Players', '4'), ('Target', '5')]
>>> OmiRules.from_tags({"Target": "5", "Players": "3"}).deck_size
24
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
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
    help: str = ""
    """What it does, in one line (the command line's help; the page translates ``opt.NAME.help``)."""

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
            "help": self.help,
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

    def from_tag(self, text: str) -> Any:
        """The value of a record tag, written as :meth:`text` writes it (records are strict).

        >>> Option("redeal", "bool", False, tag="Redeal").from_tag("yes")
        Traceback (most recent call last):
        ...
        ValueError: the Redeal tag must be on or off, not 'yes'
        """
        if self.type == "bool":
            if text not in ("on", "off"):
                raise ValueError(f"the {self.tag} tag must be on or off, not {text!r}")
            return text == "on"
        if self.type == "int":
            if not text.isdigit():
                raise ValueError(f"the {self.tag} tag must be a whole number, not {text!r}")
            return int(text)
        return text


def option(
    default: Any,
    type: OptionType,
    *,
    choices: tuple[Any, ...] = (),
    min: int | None = None,
    max: int | None = None,
    tag: str,
    help: str = "",
) -> Any:
    """A rules dataclass field described by an :class:`Option` (name and default from the field)."""
    meta = {"option": {"type": type, "choices": choices, "min": min, "max": max, "tag": tag, "help": help}}
    return dataclasses.field(default=default, metadata=meta)


class Ruleset:
    """Mixin for a frozen dataclass of rules options; ``GAME`` names the game in messages and
    records.  Every game's rules have a ``players`` option: the number of seats."""

    GAME: ClassVar[str] = "game"
    players: int

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

    def to_tags(self) -> list[tuple[str, str]]:
        """The options as record tags ``(tag, text)``: the number of players first (what a
        reader needs before anything else), then the option order."""
        ordered = sorted(self.options(), key=lambda o: o.name != "players")
        return [(o.tag, o.text(getattr(self, o.name))) for o in ordered]

    @classmethod
    def from_tags(cls, tags: Mapping[str, str]) -> Self:
        """Rules from record tags (any order, other tags ignored, missing options default)."""
        return cls(**{o.name: o.from_tag(tags[o.tag]) for o in cls.options() if o.tag in tags})
