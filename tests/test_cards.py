"""Cards: text forms, parsing errors, card sets."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bistrot.cards import (
    CARD_NAMES,
    FULL_DECK,
    HEARTS,
    SUIT_MASKS,
    Card,
    CardSet,
    bits,
    deck_mask,
    mask_of,
    parse_cards,
    parse_suit,
)


def test_every_card_round_trips_through_its_text():
    assert len(Card.all()) == 52
    for card in Card.all():
        assert Card.parse(str(card)) == card
        assert Card.parse(str(card).lower()) == card
        assert Card.parse(card.pretty) == card
        assert Card.of(card.rank, card.suit) == card


def test_ten_is_written_t_and_read_as_t_or_10():
    ten_of_hearts = Card.of(10, HEARTS)
    assert str(ten_of_hearts) == "TH"
    assert ten_of_hearts.pretty == "10♥"
    assert Card.parse("10H") == Card.parse("10h") == Card.parse(" th ") == ten_of_hearts


@pytest.mark.parametrize("text", ["", "1H", "11H", "TX", "HT", "AH!", "10", "joker"])
def test_bad_card_text_is_refused_with_the_expected_form(text):
    with pytest.raises(ValueError, match="is not a card: write the rank"):
        Card.parse(text)


def test_rank_order_within_a_suit_follows_the_ints():
    ranks = "23456789TJQKA"
    cards = [Card.parse(r + "S") for r in ranks]
    assert cards == sorted(cards)
    assert [c.rank for c in cards] == list(range(2, 15))


def test_suit_names_symbols_and_letters():
    assert [parse_suit(s) for s in "SHDC"] == [0, 1, 2, 3]
    assert [parse_suit(s) for s in "♠♥♦♣"] == [0, 1, 2, 3]
    assert parse_suit("Diamonds") == 2
    with pytest.raises(ValueError, match="is not a suit"):
        parse_suit("X")


def test_card_sets_behave_like_sets():
    hand = CardSet.parse("AH JH 8H KC")
    assert len(hand) == 4 and Card.parse("KC") in hand and Card.parse("KH") not in hand
    assert str(hand) == "AH JH 8H KC"
    assert hand.pretty == "A♥ J♥ 8♥ K♣"
    assert hand.suit(HEARTS) == CardSet.parse("8H JH AH")
    assert hand - CardSet.parse("KC") | CardSet.parse("7S") == CardSet.parse("7S AH JH 8H")
    assert "AH" not in hand  # only cards are members, not texts
    assert not CardSet()


@given(st.sets(st.integers(0, 51)))
def test_masks_and_bits_are_inverse(cards):
    mask = mask_of(cards)
    assert set(bits(mask)) == cards
    assert len(CardSet(mask)) == len(cards)
    assert {int(c) for c in CardSet(mask)} == cards


def test_masks_cover_the_deck():
    assert sum(SUIT_MASKS) == FULL_DECK
    assert CardSet(deck_mask(range(7, 15))).count() == 32
    assert parse_cards("AS, 10d") == [Card.parse("AS"), Card.parse("TD")]
    assert len(set(CARD_NAMES)) == 52
