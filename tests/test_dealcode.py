"""Deal codes: round trips, typo detection, clear refusals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bistrot.dealcode import ALPHABET, SEED_BITS, DealCodeError, decode, encode, new_seed, seed_from

seeds = st.integers(0, 2**SEED_BITS - 1)


@given(seeds)
def test_codes_round_trip_and_are_url_safe(seed):
    code = encode(seed)
    assert decode(code) == seed
    assert decode(code.lower().replace("-", "")) == seed
    assert len(code) == 14 and set(code) <= set(ALPHABET) | {"-"}


@given(seeds, st.integers(0, 11), st.integers(1, 31))
def test_any_single_mistyped_character_is_caught(seed, position, shift):
    digits = list(encode(seed).replace("-", ""))
    digits[position] = ALPHABET[(ALPHABET.index(digits[position]) + shift) % 32]
    with pytest.raises(DealCodeError):
        decode("".join(digits))


def test_crockford_look_alikes_are_read_as_digits():
    code = encode(1 + 32 * 0)  # ...0001 then check digit
    assert decode(code.replace("0", "O")) == 1
    assert decode(encode(33).replace("1", "l")) == 33


@pytest.mark.parametrize(
    ("text", "reason"),
    [("", "has 0 characters"), ("ABCD", "has 4 characters"), ("0000-0000-00U1", "cannot appear"),
     ("0000-0000-01A6", "check digit")],
)
def test_bad_codes_are_refused_with_a_reason(text, reason):
    with pytest.raises(DealCodeError, match=reason):
        decode(text)


@pytest.mark.parametrize("seed", [-1, 2**SEED_BITS, 1.5, True, None])
def test_encode_refuses_what_is_not_a_seed(seed):
    with pytest.raises(DealCodeError):
        encode(seed)


def test_seed_from_accepts_ints_codes_and_none():
    assert seed_from(42) == 42 == seed_from(encode(42))
    assert 0 <= seed_from(None) < 2**SEED_BITS
    assert new_seed() != new_seed()  # 55 random bits: a collision would mean a broken source
    with pytest.raises(DealCodeError):
        seed_from(3.0)
