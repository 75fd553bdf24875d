"""The combining marks on a letter and the zero-width joiners between
letters (``app/engine/letters.py``), which seeds and names share."""

from __future__ import annotations

import sys

import pytest
from idna import idnadata, intranges

from app.engine import letters
from app.engine.letters import ZWJ, ZWNJ, joiners_fit, marks_fit, without_idle_joiners


@pytest.mark.parametrize(
    ("text", "fits"),
    [
        ("", True),
        ("a\u0301\u0302\u0303\u0304", True),  # four on one letter
        ("\u00e1\u0302\u0303\u0304\u0306", False),  # á and four more: five
        ("a\u0301\u0301", False),  # the same one twice in a row
        ("\u0301a", False),  # on nothing
        ("7\u0308", False),  # on a digit, which a name's letters are not
    ],
)
def test_marks_fit_on_letters(text, fits):
    assert marks_fit(text) is fits


def test_a_seeds_digit_carries_marks():
    assert marks_fit("7\u0308", str.isalnum)


@pytest.mark.parametrize(
    ("text", "fits"),
    [
        ("\u0646\u06cc\u06a9\u200c\u0646\u0627\u0645", True),  # نیک‌نام: A1
        ("\u0628\u064e\u0651\u200c\u0646", True),  # marks either side are passed over
        ("\u0915\u094d\u200c\u0937", True),  # क्‌ष: A2
        ("\u0915\u094d\u200d\u0937", True),  # क्‍ष: B
        ("\u0d28\u0d4d\u200d", True),  # ന്‍: B, last
        ("\u0627\u200c\u0646", False),  # alef joins no letter after it
        ("\u0646\u200c\u0621", False),  # hamza joins no letter before it
        ("\u0646\u06cc\u06a9\u200d\u0646", False),  # ZWJ needs a virama
        ("\u094d\u200c\u0937", False),  # a virama on no letter
        (ZWNJ, False),
        (ZWJ + "a", False),
        ("a" + ZWNJ + "b", False),
        ("\u0646" + ZWNJ + ZWNJ + "\u0646", False),
    ],
)
def test_joiners_fit_where_uax_31_allows_them(text, fits):
    assert joiners_fit(text) is fits


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        (
            "\u0646\u06cc\u06a9\u200c\u0646\u0627\u0645",
            "\u0646\u06cc\u06a9\u200c\u0646\u0627\u0645",
        ),
        (
            "\u0631\u0636\u0627\u200c\u0632\u0627\u062f\u0647",
            "\u0631\u0636\u0627\u0632\u0627\u062f\u0647",
        ),
        ("\u0646" + ZWNJ + ZWNJ + "\u0646", "\u0646" + ZWNJ + "\u0646"),
        (ZWNJ + "\u0646\u06cc\u06a9" + ZWJ, "\u0646\u06cc\u06a9"),
        ("Ali" + ZWJ + "Veli", "AliVeli"),
        ("\u0915\u094d\u200d\u0937", "\u0915\u094d\u200d\u0937"),
        ("\u0915\u200d\u0937", "\u0915\u0937"),
        ("", ""),
    ],
)
def test_only_the_joiners_that_draw_nothing_are_left_out(typed, kept):
    """``رضا‌زاده`` typed with a half-space after its ``ا`` (which joins no
    letter after it) was refused for a character nobody can see; the
    half-space is left out instead, those that keep letters apart stay."""
    assert without_idle_joiners(typed) == kept
    assert joiners_fit(kept)


@pytest.mark.parametrize(("side", "types"), [("next", "DL"), ("previous", "DR")])
def test_the_joining_types_are_unicodes(side, types):
    """The table of joining letters is the ``idna`` package's (Unicode's
    ``DerivedJoiningType.txt``), not a hand-made list."""
    theirs = {
        chr(point)
        for point in range(sys.maxunicode + 1)
        if any(intranges.intranges_contain(point, idnadata.joining_types[t]) for t in types)
    }
    assert letters._joining(side) == theirs
