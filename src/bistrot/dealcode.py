"""Deal codes: short, URL-safe texts that name the seed of a whole match.

A seed is a whole number from 0 to 2**55 - 1.  Its code is 11 Crockford base-32 digits
(``0-9`` and ``A-Z`` without ``I L O U``), most significant first, then one check digit,
written in three groups of four: ``XXXX-XXXX-XXXX``.  On input, case, hyphens and spaces do not
matter, ``I``/``L`` read as ``1`` and ``O`` as ``0`` (Crockford's rules), and the check digit
catches any single mistyped character and most swapped neighbours.

>>> encode(42)
'0000-0000-01A5'
>>> decode('0000-0000-01a5')
42
>>> decode(encode(2**55 - 1)) == 2**55 - 1
True
"""

from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SEED_BITS = 55
DATA_DIGITS = 11
_VALUES = {ch: i for i, ch in enumerate(ALPHABET)} | {"I": 1, "L": 1, "O": 0}


class DealCodeError(ValueError):
    """A text that is not a valid deal code, with the reason."""


def _check_digit(digits: list[int]) -> int:
    # Odd weights are units mod 32, so every single-digit error changes the sum.
    return sum((2 * i + 1) * d for i, d in enumerate(digits)) % 32


def encode(seed: int) -> str:
    """The deal code of ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << SEED_BITS:
        raise DealCodeError(f"a seed is a whole number from 0 to 2**{SEED_BITS} - 1, not {seed!r}")
    digits = [(seed >> (5 * i)) & 31 for i in reversed(range(DATA_DIGITS))]
    text = "".join(ALPHABET[d] for d in [*digits, _check_digit(digits)])
    return f"{text[:4]}-{text[4:8]}-{text[8:]}"


def _shown(code: str) -> str:
    # a long text is not echoed whole in a message
    return repr(code) if len(code) <= 40 else f"{code[:30]!r}... ({len(code)} characters)"


def decode(code: str) -> int:
    """The seed named by ``code``; :class:`DealCodeError` says what is wrong otherwise (a
    ``ValueError``, whatever ``code`` is: a text or not).

    >>> decode(42)
    Traceback (most recent call last):
    ...
    bistrot.dealcode.DealCodeError: a deal code is a text, not int
    """
    if not isinstance(code, str):
        raise DealCodeError(f"a deal code is a text, not {type(code).__name__}")
    cleaned = code.replace("-", "").replace(" ", "").upper()
    if len(cleaned) != DATA_DIGITS + 1:
        raise DealCodeError(
            f"{_shown(code)} is not a deal code: it has {len(cleaned)} characters, "
            f"a code has {DATA_DIGITS + 1} (like 0000-0000-01A5)"
        )
    bad = sorted({ch for ch in cleaned if ch not in _VALUES})
    if bad:
        raise DealCodeError(f"{_shown(code)} is not a deal code: {''.join(bad[:10])!r} cannot appear in one")
    digits = [_VALUES[ch] for ch in cleaned]
    if _check_digit(digits[:-1]) != digits[-1]:
        raise DealCodeError(f"{_shown(code)} is not a deal code: its check digit does not match (a typo?)")
    seed = 0
    for d in digits[:-1]:
        seed = seed << 5 | d
    if seed >= 1 << SEED_BITS:
        raise DealCodeError(f"{_shown(code)} is not a deal code: it names a seed out of range")
    return seed


def new_seed() -> int:
    """A fresh random seed from the operating system."""
    return secrets.randbits(SEED_BITS)


def parse_seed(text: str) -> int:
    """A seed as a person types it: a deal code, or a whole number (the library's seeds, e.g.
    ``--seed 42``); a text that is both (twelve digits with a matching check digit) is the code.

    >>> parse_seed("42"), parse_seed("0000-0000-01A5")
    (42, 42)
    >>> parse_seed("4x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bistrot.dealcode.DealCodeError: '4x' is neither a whole number nor a deal code: it has 2 ...
    """
    try:
        return decode(text)
    except DealCodeError as err:
        if not text.strip().isdecimal():
            why = str(err).removeprefix(f"{_shown(text)} is not a deal code")
            raise DealCodeError(f"{_shown(text)} is neither a whole number nor a deal code{why}") from None
    return seed_from(int(text))


def seed_from(value: int | str | None) -> int:
    """A seed from an int, a deal code, or ``None`` (a fresh random seed).

    >>> seed_from("0000-0000-01A5"), seed_from(7)
    (42, 7)
    """
    if value is None:
        return new_seed()
    if isinstance(value, bool):
        raise DealCodeError("a seed is a whole number or a deal code, not a bool")
    if isinstance(value, int):
        encode(value)  # validates the range with a clear message
        return value
    if isinstance(value, str):
        return decode(value)
    raise DealCodeError(f"a seed is a whole number or a deal code, not {type(value).__name__}")
