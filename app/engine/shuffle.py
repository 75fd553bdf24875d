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
from .letters import ZWJ, ZWNJ, is_mark, joiners_fit, marks_fit, without_idle_joiners
from .rules import RuleSet

#: 1 to 64 letters (any alphabet: ``şans``), digits, ``-`` or ``_``: what
#: Python's Unicode ``\w`` matches, and the hyphen; the combining marks on
#: its letters and digits (:func:`~app.engine.letters.marks_fit`) and the
#: zero-width joiners between its letters
#: (:func:`~app.engine.letters.joiners_fit`) aside.
SEED_PATTERN = re.compile(r"[\w-]{1,64}")
_LIMIT = 2**64


class InvalidSeed(ValueError):
    """Raised for a seed that is not 1-64 letters, digits, ``-`` or ``_``
    in Unicode's composed form (NFC)."""


def check_seed(seed: object) -> str:
    """Return ``seed`` if it is a valid deal seed: 1 to 64 characters, each
    a letter of any alphabet (``ç ğ ı ö ş ü`` too) or one of its vowel
    signs or accents (combining marks on a letter or digit, at most
    :data:`~app.engine.letters.MARKS_ON_A_LETTER` on one, none twice in a
    row: :func:`~app.engine.letters.marks_fit`) or a zero-width non-joiner
    or joiner where its script needs one (Persian's half-space:
    :func:`~app.engine.letters.joiners_fit`), a digit,
    ``-`` or ``_``, in the composed form (NFC) that :func:`normalize_seed`
    gives, so one word typed on any keyboard is one seed.

    Raises:
        InvalidSeed: not such a string (not a ``str``, empty, too long, a
            space or other sign, or decomposed letters).
    """
    if (
        not isinstance(seed, str)
        or len(seed) > 64
        or not SEED_PATTERN.fullmatch(
            "".join(c for c in seed if c not in (ZWNJ, ZWJ) and not is_mark(c))
        )
        or not unicodedata.is_normalized("NFC", seed)
        or not marks_fit(seed, str.isalnum)
        or not joiners_fit(seed)
    ):
        raise InvalidSeed("a seed is 1 to 64 letters, digits, '-' or '_'")
    return seed


def normalize_seed(text: str) -> str:
    """Return ``text`` as a seed is written: spaces at either end removed,
    letters composed (NFC: ``s`` + combining cedilla becomes ``ş``), and
    each zero-width non-joiner or joiner that changes nothing on the screen
    left out (:func:`~app.engine.letters.without_idle_joiners`: a Persian
    half-space after an ``ا``, which joins no letter after it). The result
    still needs :func:`check_seed`."""
    return without_idle_joiners(unicodedata.normalize("NFC", text.strip()))


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
