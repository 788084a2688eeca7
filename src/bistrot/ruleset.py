"""What every game's rules object shares: a frozen dataclass of named options, read from and
written to plain dicts (JSON, query strings, records).

>>> from bistrot.omi import OmiRules
>>> OmiRules.from_dict({"target": 5}).to_dict()["target"]
5
>>> OmiRules.from_dict({"trumps": 2})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown Omi rules option trumps; the options are deal_rotation, direction, kapothi, ...
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar, Self


class Ruleset:
    """Mixin for a frozen dataclass of rules options; ``GAME`` names the game in messages."""

    GAME: ClassVar[str] = "game"

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
