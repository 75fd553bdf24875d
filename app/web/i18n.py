"""Languages: English and Turkish with Flask-Babel.

The catalogues live in ``app/translations``; the ``.mo`` files are compiled
by the install scripts (``pybabel compile``), never committed. The language
is the player's choice on any page, else the browser's ``Accept-Language``.

:func:`gettext`, :func:`ngettext` and :func:`lazy_gettext` are Flask-Babel's,
with the request's catalogue looked up once per request (:func:`translations`)
instead of once per string: a table page translates over a hundred strings,
and Flask-Babel's lookup of the catalogue costs some 50 times the lookup of a
string in it. The templates' ``_()`` and ``ngettext()`` use the same
functions.
"""

from __future__ import annotations

from typing import Any, cast

from babel.support import NullTranslations
from flask import Flask, g, request
from flask_babel import Babel, get_translations
from flask_babel.speaklater import LazyString

from app.engine.cards import RANK_NAMES

from . import store

#: Language codes and their names, in their own language.
LANGUAGES = {"en": "English", "tr": "Türkçe"}

babel = Babel()


def translations() -> NullTranslations:
    """Return this request's catalogue (Flask-Babel's ``get_translations()``
    for the request's language), looked up once per request and kept on
    ``g``; outside a request, Flask-Babel's (which is the identity)."""
    found: NullTranslations | None = g.get("pisti_translations") if g else None
    if found is None:
        found = get_translations()
        if g:
            g.pisti_translations = found
    return found


def gettext(string: str, **variables: Any) -> str:
    """Return ``string`` in the page's language, formatted with
    ``variables`` (``%(name)s``), as Flask-Babel's ``gettext``."""
    text: str = translations().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Return ``singular`` or ``plural`` for ``num`` in the page's language,
    formatted with ``variables`` and ``num``, as Flask-Babel's ``ngettext``."""
    variables.setdefault("num", num)
    text: str = translations().ungettext(singular, plural, num)
    return text % variables


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    """Return ``string`` to be translated by :func:`gettext` each time it
    is used (module-level texts), as Flask-Babel's ``lazy_gettext``."""
    return LazyString(gettext, string, **variables)


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
    """Set up Flask-Babel on ``app`` with :func:`select_locale`, the
    templates' ``_()`` and ``ngettext()`` through :func:`translations`."""
    babel.init_app(app, locale_selector=select_locale)
    # Added to the environment by Jinja's i18n extension (Flask-Babel's).
    cast(Any, app.jinja_env).install_gettext_callables(
        gettext=lambda string: translations().ugettext(string),
        ngettext=lambda singular, plural, n: translations().ungettext(singular, plural, n),
        newstyle=True,
    )
