"""How the letters of any script carry their combining marks, for deal
seeds (:mod:`app.engine.shuffle`) and players' names (:mod:`app.db.queries`)
alike: both may have the accents and vowel signs of their letters, as
UAX #31's identifiers do, within UTS #39's limit on stacked marks."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

#: The most combining marks (accents, vowel signs) on one letter, none twice
#: in a row: UTS #39's limit on nonspacing marks, past which marks stack over
#: and under the next line.
MARKS_ON_A_LETTER = 4


def is_mark(char: str) -> bool:
    """Whether the one character ``char`` is a combining mark that goes on
    the letter before it: nonspacing (``Mn``: an accent, Thai's vowels) or
    spacing (``Mc``: Devanagari's ``ि``)."""
    return unicodedata.category(char) in ("Mn", "Mc")


def marks_fit(text: str, carries: Callable[[str], bool] = str.isalpha) -> bool:
    """Whether each combining mark (:func:`is_mark`) of ``text`` sits on a
    character that ``carries`` (a letter by default; a letter or digit for
    seeds), directly or after other marks on it, with at most
    :data:`MARKS_ON_A_LETTER` on one, none twice in a row.

    Marks are counted apart (NFD), as UTS #39 counts them: an ``á`` is an
    ``a`` and an acute, so ``á`` with four more accents has five (its
    composed form hid one). ``text`` is any string; the empty one fits."""
    marks = ""  # the marks on the character so far
    carried = False  # whether that character carries marks
    for char in unicodedata.normalize("NFD", text):
        if is_mark(char):
            if not carried or len(marks) == MARKS_ON_A_LETTER or char in marks[-1:]:
                return False
            marks += char
        else:
            marks, carried = "", carries(char)
    return True
