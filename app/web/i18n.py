"""Languages: English and Turkish with Flask-Babel.

The catalogues live in ``app/translations``; the ``.mo`` files are compiled
by the install scripts (``pybabel compile``), never committed. The language
is the player's choice on any page, else the browser's ``Accept-Language``.
"""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel, gettext, lazy_gettext

from app.engine.cards import RANK_NAMES

from . import store

#: Language codes and their names, in their own language.
LANGUAGES = {"en": "English", "tr": "Türkçe"}

babel = Babel()

SUITS = {
    "C": lazy_gettext("clubs"),
    "D": lazy_gettext("diamonds"),
    "H": lazy_gettext("hearts"),
    "S": lazy_gettext("spades"),
}
NAMED_RANKS = {
    "A": lazy_gettext("Ace of %(suit)s"),
    "J": lazy_gettext("Jack of %(suit)s"),
    "Q": lazy_gettext("Queen of %(suit)s"),
    "K": lazy_gettext("King of %(suit)s"),
}


def select_locale() -> str:
    """Return the player's language: chosen, else the browser's best match."""
    chosen = store.language()
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def card_name(card: str) -> str:
    """Return a card's name in the page's language, e.g. ``"Queen of
    hearts"`` or ``"Kupa Kızı"``."""
    suit = str(SUITS[card[1]])
    if card[0] in NAMED_RANKS:
        return str(NAMED_RANKS[card[0]]) % {"suit": suit}
    return str(gettext("%(rank)s of %(suit)s", rank=RANK_NAMES[card[0]], suit=suit))


def init_app(app: Flask) -> None:
    """Set up Flask-Babel on ``app`` with :func:`select_locale`."""
    babel.init_app(app, locale_selector=select_locale)
