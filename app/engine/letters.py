"""How the letters of any script carry their combining marks and where the
zero-width joiners go, for deal seeds (:mod:`app.engine.shuffle`) and
players' names (:mod:`app.db.queries`) alike: both may have the accents and
vowel signs of their letters, as UAX #31's identifiers do, within UTS #39's
limit on stacked marks, and the zero-width joiners of Persian or Hindi words
where UAX #31 allows them."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache

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


#: The zero-width non-joiner (Persian's half-space: ``نیک‌نام``) and joiner.
ZWNJ, ZWJ = "\u200c", "\u200d"

#: Unicode's joining types (``DerivedJoiningType.txt`` of Unicode 16.0, as
#: the ``idna`` package has it; the code points, or ranges of them, in hex):
#: the letters of Arabic, Syriac, N'Ko, Mongolian and other cursive scripts
#: that join on both sides (dual), on the side of the next letter only
#: (left), or of the letter before only (right: Persian's ``ا د ر و``).
_DUAL_JOINING = (
    "0620 0626 0628 062A-062E 0633-063F 0641-0647 0649-064A 066E-066F 0678-0687 "
    "069A-06BF 06C1-06C2 06CC 06CE 06D0-06D1 06FA-06FC 06FF 0712-0714 071A-071D "
    "071F-0727 0729 072B 072D-072E 074E-0758 075C-076A 076D-0770 0772 0775-0777 "
    "077A-077F 07CA-07EA 0841-0845 0848 084A-0853 0855 0860 0862-0865 0868 0886 "
    "0889-088D 088F 08A0-08A9 08AF-08B0 08B3-08B8 08BA-08C8 1807 1820-1878 "
    "1887-18A8 18AA A840-A871 10AC0-10AC4 10AD3-10AD6 10AD8-10ADC 10ADE-10AE0 "
    "10AEB-10AEE 10B80 10B82 10B86-10B88 10B8A-10B8B 10B8D 10B90 10BAD-10BAE "
    "10D01-10D21 10D23 10EC3-10EC4 10EC6-10EC7 10F30-10F32 10F34-10F44 "
    "10F51-10F53 10F70-10F73 10F76-10F81 10FB0 10FB2-10FB3 10FB8 10FBB-10FBC "
    "10FBE-10FBF 10FC1 10FC4 10FCA 1E900-1E943"
)
_LEFT_JOINING = "A872 10ACD 10AD7 10D00 10ED9-10EEE 10FCB"
_RIGHT_JOINING = (
    "0622-0625 0627 0629 062F-0632 0648 0671-0673 0675-0677 0688-0699 06C0 "
    "06C3-06CB 06CD 06CF 06D2-06D3 06D5 06EE-06EF 0710 0715-0719 071E 0728 072A "
    "072C 072F 074D 0759-075B 076B-076C 0771 0773-0774 0778-0779 0840 0846-0847 "
    "0849 0854 0856-0858 0867 0869-086A 0870-0882 088E 08AA-08AC 08AE 08B1-08B2 "
    "08B9 10AC5 10AC7 10AC9-10ACA 10ACE-10AD2 10ADD 10AE1 10AE4 10AEF 10B81 "
    "10B83-10B85 10B89 10B8C 10B8E-10B8F 10B91 10BA9-10BAC 10D22 10EC2 10F33 "
    "10F54 10F74-10F75 10FB4-10FB6 10FB9-10FBA 10FBD 10FC2-10FC3 10FC9"
)


def _code_points(ranges: str) -> frozenset[str]:
    points: set[str] = set()
    for item in ranges.split():
        first, _, last = item.partition("-")
        points.update(map(chr, range(int(first, 16), int(last or first, 16) + 1)))
    return frozenset(points)


@cache
def _joining(side: str) -> frozenset[str]:
    """The letters that join the letter after them (``side`` ``"next"``:
    dual or left joining), or the letter before them (``"previous"``: dual
    or right joining)."""
    one_sided = _LEFT_JOINING if side == "next" else _RIGHT_JOINING
    return _code_points(_DUAL_JOINING) | _code_points(one_sided)


def _transparent(char: str) -> bool:
    # Joining type T: the marks, which a join passes over (ArabicShaping.txt's
    # rule for the characters it does not list).
    return unicodedata.category(char) in ("Mn", "Me")


def _after_a_virama(text: str, index: int) -> bool:
    # UAX #31's A2 and B: $L $M* $V $M₁* before text[index].
    before = index - 1
    while before > 0 and unicodedata.combining(text[before]):
        if unicodedata.combining(text[before]) == 9:  # $V, a virama
            letter = before - 1
            while letter >= 0 and unicodedata.category(text[letter]) == "Mn":
                letter -= 1  # $M
            return letter >= 0 and text[letter].isalpha()  # $L
        if unicodedata.category(text[before]) != "Mn":
            return False  # not $M₁
        before -= 1
    return False


def joiner_fits(text: str, index: int) -> bool:
    """Whether the zero-width non-joiner :data:`ZWNJ` or joiner :data:`ZWJ`
    at ``text[index]`` (``text`` any string, composed: NFC) stands where
    UAX #31 (section 2.3) allows one in an identifier, and so changes how
    the word is drawn:

    * A1, a ZWNJ between two letters that would join, marks aside
      (``$LJ $T* ZWNJ $T* $RJ``): Persian's ``می‌خواهم``;
    * A2 and B, a ZWNJ or ZWJ after a virama on a letter, with marks
      (``$L $M* $V $M₁* ZWNJ``): Hindi's ``क्‍ष``.

    Anywhere else (first or last, twice, between Latin letters, after a
    letter that joins nothing: ``رضا‌زاده``, whose ``ا`` joins no letter
    after it) it draws nothing, and would make another name of the same
    look."""
    if _after_a_virama(text, index):
        return True
    if text[index] != ZWNJ:
        return False
    before, after = index - 1, index + 1
    while before >= 0 and _transparent(text[before]):
        before -= 1
    while after < len(text) and _transparent(text[after]):
        after += 1
    return (
        before >= 0
        and after < len(text)
        and text[before] in _joining("next")
        and text[after] in _joining("previous")
    )


def joiners_fit(text: str) -> bool:
    """Whether each zero-width non-joiner and joiner of ``text`` (any
    string, composed: NFC) stands where it changes how the word is drawn
    (:func:`joiner_fits`); a ``text`` without them fits."""
    return all(joiner_fits(text, index) for index, char in enumerate(text) if char in (ZWNJ, ZWJ))


def without_idle_joiners(text: str) -> str:
    """Return ``text`` (any string, composed: NFC) without the zero-width
    non-joiners and joiners that change nothing on the screen
    (:func:`joiner_fits`), from the first on, each judged beside what is
    kept: a Persian half-space typed where the letter before joins nothing
    anyway (``رضا‌زاده``) or twice in a row (one is kept), a joiner between
    Latin letters. What a player types (a name, a seed) is taken so, as it
    looks: the result fits :func:`joiners_fit`."""
    kept = text
    index = 0
    while index < len(kept):
        if kept[index] in (ZWNJ, ZWJ) and not joiner_fits(kept, index):
            kept = kept[:index] + kept[index + 1 :]
        else:
            index += 1
    return kept
