"""Shuffling: seeded decks that never change, and fresh random seeds.

The seeded shuffle ("pisti-shuffle/1") is defined here and must never change,
so that a shared deal link deals the same cards forever, on any Python:

1. Start from :data:`~app.engine.cards.FULL_DECK` (clubs A..K, diamonds,
   hearts, spades).
2. Random numbers are 64-bit big-endian words read from SHA-256 blocks:
   block ``k`` is ``sha256(b"pisti-shuffle/1\\0" + seed + b"\\0" +
   str(hand) + b"\\0" + str(k))`` (seed UTF-8, ``hand`` and ``k`` in
   decimal), giving four words each.
3. Fisher-Yates: for ``i`` from 51 down to 1, draw words until one is below
   ``2**64 - 2**64 % (i + 1)`` (rejection, so no bias), swap positions
   ``i`` and ``word % (i + 1)``.
4. If the rule set forbids the result (four Jacks in the centre, a Jack at the
   bottom under the partners cut), shuffle the result again with the same
   stream, as a table would redeal or recut, until it is allowed.

The result is the deck top first, as in ``docs/record-format.md``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Iterator

from .cards import FULL_DECK
from .rules import RuleSet

#: 1 to 64 letters (any alphabet: ``şans``), digits, ``-`` or ``_``: what
#: Python's Unicode ``\w`` matches, and the hyphen; a letter's combining
#: marks (:func:`_without_marks`) aside.
SEED_PATTERN = re.compile(r"[\w-]{1,64}")
#: The most combining marks (accents, vowel signs) on one letter of a seed,
#: none twice in a row (UTS #39's limit on nonspacing marks).
SEED_MARKS_ON_A_LETTER = 4
_LIMIT = 2**64


class InvalidSeed(ValueError):
    """Raised for a seed that is not 1-64 letters, digits, ``-`` or ``_``
    in Unicode's composed form (NFC)."""


def check_seed(seed: object) -> str:
    """Return ``seed`` if it is a valid deal seed: 1 to 64 characters, each
    a letter of any alphabet (``ç ğ ı ö ş ü`` too) or one of its vowel
    signs or accents (combining marks, :func:`_without_marks`), a digit,
    ``-`` or ``_``, in the composed form (NFC) that :func:`normalize_seed`
    gives, so one word typed on any keyboard is one seed.

    Raises:
        InvalidSeed: not such a string (not a ``str``, empty, too long, a
            space or other sign, or decomposed letters).
    """
    if (
        not isinstance(seed, str)
        or len(seed) > 64
        or not SEED_PATTERN.fullmatch(_without_marks(seed))
        or not unicodedata.is_normalized("NFC", seed)
        or not _marks_fit(seed)
    ):
        raise InvalidSeed("a seed is 1 to 64 letters, digits, '-' or '_'")
    return seed


def _without_marks(seed: str) -> str:
    """Return ``seed`` without the combining marks on its letters and
    digits: the vowel signs of Devanagari or Thai (``दिवाली``, ``สงกรานต์``),
    or an accent that has no composed letter, at most
    :data:`SEED_MARKS_ON_A_LETTER` on one, none twice in a row. Other marks
    (on nothing, on ``-``, one too many) stay, and ``\\w`` refuses them."""
    kept: list[str] = []
    marks = ""  # the marks on the letter so far
    for char in seed:
        if unicodedata.category(char) in ("Mn", "Mc"):
            on_letter = bool(kept) and (kept[-1].isalnum() or bool(marks))
            if on_letter and len(marks) < SEED_MARKS_ON_A_LETTER and char not in marks[-1:]:
                marks += char
                continue
        else:
            marks = ""
        kept.append(char)
    return "".join(kept)


def _marks_fit(seed: str) -> bool:
    """Whether the combining marks on each letter of ``seed`` are at most
    :data:`SEED_MARKS_ON_A_LETTER`, none twice in a row, counted apart
    (NFD), as UTS #39 counts them: an ``á`` is an ``a`` and one accent, so
    ``á`` with four more has five (its composed form hid one). No seed
    valid before marks were has a letter past the limit."""
    marks = ""  # the marks on the letter so far
    for char in unicodedata.normalize("NFD", seed):
        if unicodedata.category(char) in ("Mn", "Mc"):
            if len(marks) == SEED_MARKS_ON_A_LETTER or char in marks[-1:]:
                return False
            marks += char
        else:
            marks = ""
    return True


def normalize_seed(text: str) -> str:
    """Return ``text`` as a seed is written: spaces at either end removed,
    letters composed (NFC: ``s`` + combining cedilla becomes ``ş``). The
    result still needs :func:`check_seed`."""
    return unicodedata.normalize("NFC", text.strip())


def new_seed() -> str:
    """Return a fresh unpredictable seed: 128 bits from :mod:`secrets`, as
    22 URL-safe characters (a valid seed)."""
    return secrets.token_urlsafe(16)


def _words(seed: str, hand: int) -> Iterator[int]:
    prefix = b"pisti-shuffle/1\0" + seed.encode() + b"\0" + str(hand).encode() + b"\0"
    block = 0
    while True:
        digest = hashlib.sha256(prefix + str(block).encode()).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(digest[offset : offset + 8], "big")
        block += 1


def _below(words: Iterator[int], bound: int) -> int:
    limit = _LIMIT - _LIMIT % bound
    for word in words:
        if word < limit:
            return word % bound
    raise AssertionError("the word stream is infinite")


def seeded_deck(seed: str, rules: RuleSet, hand: int = 0) -> list[str]:
    """Return the deck for hand number ``hand`` (0 for the first hand of a
    match) of the deal seeded by ``seed``, top of the stock first.

    Raises:
        InvalidSeed: the seed is malformed (see :func:`check_seed`).
    """
    check_seed(seed)
    words = _words(seed, hand)
    deck = list(FULL_DECK)
    while True:
        for i in range(len(deck) - 1, 0, -1):
            j = _below(words, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        if rules.deck_problem(deck) is None:
            return deck
