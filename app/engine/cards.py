"""Cards and their codes.

A card is its canonical two-character code, rank then suit: ``"7H"``,
``"TD"`` (ten of diamonds), ``"2C"``, ``"JS"``. Ranks are
``A 2 3 4 5 6 7 8 9 T J Q K`` and suits ``C D H S`` (clubs, diamonds, hearts,
spades), as in ``docs/record-format.md``. Plain strings keep game
state, records and sessions trivially serialisable.
"""

from __future__ import annotations

import json

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JACK = "J"

#: The 52 cards in a fixed canonical order (clubs A..K, then diamonds, ...).
#: The seeded shuffle starts from this order, so it must never change.
FULL_DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

RANK_NAMES = {
    "A": "Ace",
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


class InvalidCard(ValueError):
    """Raised by :func:`parse_card` for text that is not a card code."""


def written(value: object) -> str:
    """``value`` spelled as a record's JSON writes it (``"XX"``, ``true``,
    ``null``, ``10``), for the messages about a record; Python's ``repr``
    for a value JSON cannot write. A string with a lone surrogate (JSON's
    ``"\\ud800"``, which no page or log line can carry in UTF-8) is written
    with JSON's escapes."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
    try:
        text.encode()
    except UnicodeEncodeError:
        return json.dumps(value)
    return text


def parse_card(text: object) -> str:
    """Return the canonical code of a card written as ``text``.

    Accepts the canonical form (``"TD"``), ``10`` for ``T`` and lower case
    (``"10d"``, ``"td"``), as ``docs/record-format.md`` says; nothing
    else (no spaces, no other alphabets).

    Raises:
        InvalidCard: ``text`` is not a string naming one of the 52 cards.
    """
    if not isinstance(text, str) or not text.isascii():
        raise InvalidCard(f"{written(text)} is not a card code")
    code = text.upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise InvalidCard(f"{written(text)} is not a card code")
    return code


def rank(card: str) -> str:
    """Return the rank letter of a card code (``"TD"`` -> ``"T"``)."""
    return card[0]


def is_jack(card: str) -> bool:
    """Return whether the card is a Jack."""
    return card[0] == JACK


def card_points(card: str) -> int:
    """Return a card's own points: Ace 1, Jack 1, 2♣ 2, 10♦ 3, else 0.

    The values are common to every source document (seeds 000, 001, 003).
    """
    if card[0] in "AJ":
        return 1
    if card == "2C":
        return 2
    if card == "TD":
        return 3
    return 0


def card_name(card: str) -> str:
    """Return a card's English name, e.g. ``"Queen of hearts"``."""
    return f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def card_label(card: str) -> str:
    """Return a short label for display, e.g. ``"10♦"`` or ``"Q♥"``."""
    shown = "10" if card[0] == "T" else card[0]
    return shown + SUIT_SYMBOLS[card[1]]


#: Each card's own points (:func:`card_points`), for fast lookups.
CARD_POINTS: dict[str, int] = {card: card_points(card) for card in FULL_DECK}
