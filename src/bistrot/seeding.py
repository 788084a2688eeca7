"""Deterministic randomness for deals and bots.

Deals must be the same on every machine and every Python version, in the server and in the
browser under Pyodide, for as long as deal codes are shared.  ``random.Random`` promises no
such stability for ``shuffle``, so the shuffles here use SplitMix64 (Steele, Lea & Flood, 2014):
a 64-bit generator defined by a few lines of arithmetic.

>>> rng = SeededRandom(42)
>>> [rng.randrange(10) for _ in range(5)]
[2, 4, 5, 0, 3]
>>> derive(42, "hand", 3) == derive(42, "hand", 3) != derive(42, "hand", 4)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK64 = (1 << 64) - 1


def derive(seed: int, *labels: object) -> int:
    """A 64-bit sub-seed for one purpose (e.g. the deal of hand 3), stable everywhere."""
    text = ":".join([str(seed), *map(str, labels)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


class SeededRandom:
    """SplitMix64 with the few draws the engines need: integers, floats, shuffles, choices."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A uniform int in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("randrange needs a positive bound")
        bits = n.bit_length()
        while True:
            value = self.next64() >> (64 - bits)
            if value < n:
                return value

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        """One element, uniformly."""
        return items[self.randrange(len(items))]
