"""Card faces and backs for the pages, drawn in Python: a table page draws
some twenty cards, and a Jinja macro call costs several times the lookup of
a ready-made piece of markup.

A face is an inline SVG using the pips of ``static/cards.svg``, its colours
from CSS (``.suit-H`` ...), so the four-colour deck is a class on
``<body>``. The templates call :func:`face` and :func:`back` (template
globals, see :mod:`.templating`).
"""

from __future__ import annotations

from functools import lru_cache

from flask import current_app, g, url_for
from markupsafe import Markup, escape

#: Where :mod:`.templating` keeps the app's kept ``url_for`` (in
#: ``app.extensions``).
URL_BUILDER = "pisti.url_for"


def cards_sprite() -> str:
    """Return the address of the card faces' sprite sheet
    (``static/cards.svg``), built once per request (by the templates'
    ``url_for``, which keeps it for the request's root)."""
    space = g._get_current_object()
    url: str | None = getattr(space, "cards_sprite", None)
    if url is None:
        build = current_app.extensions.get(URL_BUILDER, url_for)
        url = space.cards_sprite = build("static", filename="cards.svg")
    return url


def face(card: str, extra: str = "", flip: str | None = None) -> Markup:
    """Return the face of ``card`` (a canonical code such as ``"TD"``) as
    SVG markup, with the classes ``extra`` (``"tiny"``, ``"top"`` ...) and,
    when given, ``data-flip="<flip>"`` (the card the table's script moves).
    A ``"tiny"`` or ``"small"`` face (20-30 px wide) shows its index over a
    pip of 52 of the card's 100 units, and nothing in the middle: the
    corner's pip (24 units) was drawn 4.2-6.3 px wide there.
    """
    return _face(cards_sprite(), card, extra, flip)


@lru_cache(maxsize=4096)
def _face(url: str, card: str, extra: str, flip: str | None) -> Markup:
    sprite = escape(url)
    rank, suit = card[0], escape(card[1])
    shown = escape(rank)
    flipped = Markup(' data-flip="%s"') % flip if flip else ""
    # A 10's two digits fill the width of another rank's one (x 6 to 32):
    # wider, a card fanned over it covered its "0" (a pile's fan shows 45
    # of each card's 100 units).
    if rank == "T":
        index = (
            '<text class="index ten" x="6" y="35" textLength="26"'
            ' lengthAdjust="spacingAndGlyphs">10</text>'
        )
    else:
        index = f'<text class="index" x="7" y="35">{shown}</text>'
    pip = f'<use href="{sprite}#pip-{suit}" x="8" y="41" width="24" height="24"/>'
    if {"tiny", "small"} & set(extra.split()):
        # Under the index, on the card's left: in a fan of tiny cards (the
        # seen cards) each shows its left 14 of 24 px.
        pip = f'<use href="{sprite}#pip-{suit}" x="4" y="44" width="52" height="52"/>'
        middle = "\n  "
    elif rank in "JQK":
        middle = (
            f'\n  <use class="crown" href="{sprite}#crown" x="50" y="62" width="40" height="24"/>'
            f'\n  <text class="court" x="70" y="126" text-anchor="middle">{shown}</text>\n  '
        )
    else:
        middle = f'\n  <use href="{sprite}#pip-{suit}" x="38" y="70" width="54" height="54"/>\n  '
    return Markup(
        f'<svg class="card face suit-{suit} {escape(extra)}"{flipped} viewBox="0 0 100 140"'
        ' aria-hidden="true" focusable="false">\n'
        '  <rect class="paper" x="0.5" y="0.5" width="99" height="139" rx="9"/>\n'
        f"  {index}\n"
        f"  {pip}\n"
        f"  {middle}\n</svg>"
    )


@lru_cache(maxsize=16)
def back(extra: str = "") -> Markup:
    """Return a card's back (a styled ``<span>``), with the classes ``extra``."""
    return Markup('<span class="card back %s" aria-hidden="true"></span>') % extra
