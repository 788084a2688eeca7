"""The record and deal-code parsers, fuzzed: whatever they are given, they answer a correct
result or a ``ValueError`` (never a ``TypeError``, ``AttributeError``, ``IndexError``...).

No time is measured here (speed is measured in bench/): the parsers are linear by construction
(``bistrot.records.strip_comments`` is one left-to-right pass whose ``find`` calls never scan
the same text twice; the tag regex is anchored and cannot backtrack over more than its line),
so an 80,000-brace record is only checked to give its ``ValueError``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bistrot import dealcode, games
from bistrot.omi import OmiGame
from bistrot.oti import OtiGame
from bistrot.records import strip_comments, words

GAMES = {"omi": OmiGame, "oti": OtiGame}
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Texts made of what records are made of, so mutations reach deep into the readers.
RECORD_ALPHABET = st.sampled_from(
    [
        *'[]{}"; :.-/\n\t 0123456789',
        *("trump", "play", "ready", "pickup", "flip", "kapothi", "AH", "7S", "TD", "QC"),
        *("Seed", "Game", "Omi", "Oti", "Dealer", "Deal", "Hands", "FaceUp", "FaceDown", "Players", "Target"),
        *("\u00b2", "\u0663", "\x00", "\u2028", "\r"),
    ]
)
RECORDISH = st.lists(RECORD_ALPHABET, max_size=60).map("".join)
ANY_TEXT = st.one_of(st.text(max_size=200), RECORDISH)
OBJECTS = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(), st.binary(max_size=30), st.text(max_size=20),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=5), inner, max_size=3),
        st.frozensets(st.integers(), max_size=3),
    ),
    max_leaves=8,
)


def read(game: str, text: Any) -> Any:
    """``from_record``: a game, or None for a ``ValueError``; anything else escapes."""
    try:
        return GAMES[game].from_record(text)
    except ValueError:
        return None


def read_back(game: str, text: Any) -> None:
    """A record read without error writes a record that reads back as the same game."""
    found = read(game, text)
    if found is not None:
        assert GAMES[game].from_record(found.record()) == found


def random_game(game: str, rng: random.Random) -> Any:
    """A game of ``game`` with random rules, seed and legal actions, finished or not."""
    if game == "omi":
        rules = {"players": rng.choice([3, 4]), "target": rng.choice([1, 2])}
    else:
        rules = {"players": rng.choice([2, 3, 4])}
    entry = games.get(game)
    played = entry.game_class().new(entry.rules_from_dict(rules), rng.randrange(1 << dealcode.SEED_BITS))
    for _ in range(rng.choice([0, 5, 40, 400])):
        actors = played.actors()
        if not actors:
            break
        seat = rng.choice(actors)
        played.apply(rng.choice(played.legal_actions(seat)), seat=seat)
    return played


# ---------------------------------------------------------------------------- deal codes


@FUZZ
@given(st.one_of(ANY_TEXT, OBJECTS))
def test_deal_codes_give_a_seed_or_value_error(value):
    for parse in (dealcode.decode, dealcode.seed_from):
        try:
            seed = parse(value)
        except ValueError:
            continue
        assert isinstance(seed, int) and 0 <= seed < 1 << dealcode.SEED_BITS
        if parse is dealcode.decode or isinstance(value, str):
            assert dealcode.decode(dealcode.encode(seed)) == seed


@pytest.mark.parametrize("value", [None, 42, 4.2, b"0000-0000-01A5", ["0000-0000-01A5"], object()])
def test_decode_refuses_what_is_not_a_text_with_a_value_error(value):
    with pytest.raises(ValueError, match="a deal code is a text"):
        dealcode.decode(value)


# ---------------------------------------------------------------------------- records


@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(text=ANY_TEXT)
def test_random_texts_give_a_game_or_value_error(game, text):
    read_back(game, text)


@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(value=OBJECTS.filter(lambda v: not isinstance(v, str)))
def test_what_is_not_a_text_gives_a_value_error(game, value):
    with pytest.raises(ValueError):
        GAMES[game].from_record(value)


MUTATIONS = st.lists(
    st.tuples(st.sampled_from(["delete", "insert", "replace", "duplicate", "swap"]), st.integers(0, 10**6),
              st.integers(0, 40), RECORDISH),
    min_size=1,
    max_size=4,
)


def mutate(text: str, mutations: list[tuple[str, int, int, str]]) -> str:
    for kind, where, size, extra in mutations:
        at = where % (len(text) + 1)
        end = min(len(text), at + size)
        if kind == "delete":
            text = text[:at] + text[end:]
        elif kind == "insert":
            text = text[:at] + extra + text[at:]
        elif kind == "replace":
            text = text[:at] + extra + text[end:]
        elif kind == "duplicate":
            text = text[:end] + text[at:end] + text[end:]
        elif end - at >= 2:
            text = text[:at] + text[end - 1] + text[at + 1 : end - 1] + text[at] + text[end:]
    return text


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(seed=st.integers(0, 2**32), mutations=MUTATIONS)
def test_mutated_records_give_a_game_or_value_error(game, seed, mutations):
    record = random_game(game, random.Random(seed)).record()
    assert GAMES[game].from_record(record).record() == record
    read_back(game, mutate(record, mutations))


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
@FUZZ
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 100), value=st.one_of(RECORDISH, st.text(max_size=30)))
def test_a_tag_value_changed_reads_back_or_gives_a_value_error(game, seed, pick, value):
    record = random_game(game, random.Random(seed)).record()
    lines = record.split("\n")
    tags = [i for i, line in enumerate(lines) if line.startswith("[")]
    i = tags[pick % len(tags)]
    name = lines[i][1 : lines[i].index(" ")]
    lines[i] = f'[{name} "{value}"]'
    read_back(game, "\n".join(lines))


# ---------------------------------------------------------------------------- unclosed braces


@pytest.mark.parametrize("game", sorted(GAMES))
def test_eighty_thousand_unclosed_braces_give_a_value_error(game):
    header = random_game(game, random.Random(1)).record().split("\n\n")[0]
    for text in ("{" * 80_000, header + "\n\n" + "{" * 80_000, header + "\n\n" + "{ ;\n" * 20_000):
        with pytest.raises(ValueError):
            GAMES[game].from_record(text)


@given(st.lists(st.sampled_from(list("ab{};\n ")), max_size=30).map("".join))
def test_comments_are_stripped_as_the_record_format_says(text):
    """``{...}`` (over lines too) and ``;`` to the end of the line are comments; a ``{`` never
    closed is a character: the same as ``re.sub(r"\\{[^}]*\\}|;[^\\n]*", " ", text)``, which took
    quadratic time on unclosed braces."""
    import re

    assert strip_comments(text) == re.sub(r"\{[^}]*\}|;[^\n]*", " ", text)
    assert words([text]) == strip_comments(text).split()
