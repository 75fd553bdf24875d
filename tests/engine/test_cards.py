"""Card codes (record-format.md, "Card codes") and card points."""

import pytest

from app.engine import FULL_DECK, InvalidCard, card_points, parse_card


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("TD", "TD"),
        ("10d", "TD"),
        ("td", "TD"),
        ("10D", "TD"),
        ("Td", "TD"),
        ("tD", "TD"),
        ("10h", "TH"),
        ("as", "AS"),
        ("2c", "2C"),
        ("JS", "JS"),
        ("qh", "QH"),
        ("Kd", "KD"),
        ("9C", "9C"),
    ],
)
def test_parse_card_accepts_canonical_ten_and_lower_case(text, code):
    assert parse_card(text) == code


@pytest.mark.parametrize("code", FULL_DECK)
def test_every_canonical_code_parses_to_itself(code):
    assert parse_card(code) == code
    assert parse_card(code.lower()) == code


@pytest.mark.parametrize(
    "text",
    [
        "1H",
        "XX",
        "",
        None,
        "11H",
        "10",
        "T",
        "1",
        "0D",
        "TX",
        "HT",
        "TDD",
        "100D",
        "J",
        "ZZ",
        "1D",
        "2",
        7,
        10,
        ["TD"],
        b"TD",
    ],
)
def test_parse_card_rejects(text):
    with pytest.raises(InvalidCard):
        parse_card(text)


def test_invalid_card_is_a_value_error_naming_the_text():
    with pytest.raises(ValueError, match="11H"):
        parse_card("11H")


@pytest.mark.parametrize(
    ("card", "points"),
    [
        ("AC", 1),
        ("AD", 1),
        ("AH", 1),
        ("AS", 1),
        ("JC", 1),
        ("JD", 1),
        ("JH", 1),
        ("JS", 1),
        ("2C", 2),
        ("TD", 3),
        ("2D", 0),
        ("2H", 0),
        ("2S", 0),
        ("TC", 0),
        ("TH", 0),
        ("TS", 0),
        ("QS", 0),
        ("KH", 0),
        ("9D", 0),
        ("3C", 0),
    ],
)
def test_card_points(card, points):
    assert card_points(card) == points


def test_card_points_of_the_whole_deck_are_13():
    # 4 Aces + 4 Jacks + 2 of clubs (2) + 10 of diamonds (3); the most-cards
    # bonus (3) brings a hand to the 16 points of seed 001.
    assert sum(card_points(card) for card in FULL_DECK) == 13
    assert sum(1 for card in FULL_DECK if card_points(card)) == 10


def test_full_deck_is_52_distinct_canonical_codes():
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52
    assert {card[0] for card in FULL_DECK} == set("A23456789TJQK")
    assert {card[1] for card in FULL_DECK} == set("CDHS")
