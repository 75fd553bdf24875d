"""Every question the pages ask the database, each a function named for it.
The web never builds SQL; the engine and the bots never see it.

Writes that must happen once rely on the database, not on the caller: a
result is unique per player and game id, a Daily entry per day, rule set and
player, a task's reward is added by the one update that marks it done.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any, cast

from confusable_homoglyphs import confusables
from sqlalchemy import (
    Boolean,
    CursorResult,
    DateTime,
    Integer,
    Table,
    and_,
    bindparam,
    case,
    delete,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import ColumnElement, Select, Subquery

from app.engine.letters import ZWJ, ZWNJ, marks_fit, without_idle_joiners
from app.story import progress as story

from . import db, dialect_insert
from .facts import GameFacts, points_count
from .models import (
    DailyDeal,
    DailyEntry,
    Player,
    PlayerTask,
    PlayerToken,
    Result,
    ScoreCount,
    StoryProgress,
    WeeklyTotal,
)
from .tasks import DAILY_COUNT, TASKS, Task, daily_tasks, week_start, weekly_challenge

#: Rows on a leaderboard page.
PAGE_SIZE = 20
NAME_MAX = 24
#: The most characters of a name's key (:func:`name_key`; the column's width).
NAME_KEY_MAX = 96
#: Letters that draw nothing (the Hangul fillers): a name of them is a
#: blank row on the leaderboards.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
#: Combining marks that draw nothing (Unicode's default-ignorable ones: the
#: grapheme joiner, Khmer's inherent vowels, variation selectors): "Ali"
#: with one is another name to the keys, the same to the eye.
BLANK_MARKS = frozenset(
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)
#: Punctuation a name may have besides letters (any script) and digits.
NAME_MARKS = frozenset(" -_.'")
#: Apostrophes a keyboard types for ``'`` (a phone's typographic one, the
#: Hebrew geresh of ``ג׳ורג׳``, a full-width one): a name has them as ``'``,
#: so ``O’Brien`` is ``O'Brien``.
APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u2018\u05f3\uff07", "'"))
#: The middle dots a name may have between two letters: the Chinese and
#: Catalan ``·`` (``列奥纳多·迪卡普里奥``, ``Gal·la``) and the Japanese
#: ``・`` (``ジョン・スミス``); the half-width ``･`` is kept as ``・``, the
#: hyphenation point ``‧`` as ``·``. The two are one to the keys.
NAME_DOTS = frozenset("\u00b7\u30fb")
_DOTS_TYPED = str.maketrans({"\uff65": "\u30fb", "\u2027": "\u00b7"})
#: How long a transfer code works, and its alphabet (no 0/O, 1/I/L).
TRANSFER_LIFETIME = timedelta(hours=1)
TRANSFER_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
TRANSFER_LENGTH = 12


def utcnow() -> datetime:
    """The current time as a naive UTC datetime (as stored)."""
    return datetime.now(UTC).replace(tzinfo=None)


def secret_hash(text: str) -> str:
    """Return the SHA-256 hex digest kept in place of a token or code."""
    return hashlib.sha256(text.encode()).hexdigest()


# --- players -----------------------------------------------------------


class NameRefused(ValueError):
    """A display name that cannot be used; ``reason`` is one of ``"empty"``,
    ``"long"``, ``"characters"``, ``"taken"`` (the pages word them). For
    ``"taken"``, ``like`` is the other player's name it looks like (``None``
    when that player was renamed or forgotten meanwhile)."""

    def __init__(self, reason: str, like: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.like = like


def check_name(text: object) -> str:
    """Return ``text`` as a display name: NFC-normalised, each zero-width
    non-joiner or joiner that changes nothing on the screen left out
    (:func:`~app.engine.letters.without_idle_joiners`: a half-space after a
    Persian ``ا``, which joins no letter after it), each space of
    any width (a no-break space, the ideographic space of a Japanese or
    Chinese keyboard) a plain one, spaces trimmed and runs of spaces made
    one; each of :data:`APOSTROPHES` a ``'``; 1–24 characters, each a
    letter of any script, a digit, a space, ``-``, ``_``, ``.`` or ``'``,
    or an accent or vowel sign (a combining mark: Devanagari, Thai, Arabic
    or Hebrew vowels) on a letter, as UAX #31's identifiers have them, a
    zero-width non-joiner or joiner where UAX #31 allows one (Persian's
    half-space, :func:`~app.engine.letters.joiner_fits`), or one of
    :data:`NAME_DOTS` between two letters.

    Raises:
        NameRefused: ``"empty"``, ``"long"``, ``"characters"`` (one that is
            not allowed, or a letter or mark that draws nothing),
            ``"accents"`` (a combining mark on no letter, the same one twice in a row, or more
            than :data:`~app.engine.letters.MARKS_ON_A_LETTER` on one letter,
            past which a name stacks marks over and under the rows of a
            leaderboard: :func:`~app.engine.letters.marks_fit`), ``"dots"`` (a
            middle dot not between two letters), ``"marks"`` (no
            letter or digit: a "-", "." or "'", or a letter that looks like
            one of :data:`APOSTROPHE_LOOKS` or :data:`DOT_LOOKS`, reads as a
            row with no name),
            ``"spelled"`` (ligatures that spell out to more than
            :data:`NAME_KEY_MAX` letters) or ``"scripts"`` (letters of
            scripts that are not written together, :func:`mixes_scripts`: a
            Cyrillic ``А`` in ``Аyşe`` would pass for another player's
            ``Ayşe``).
    """
    typed = without_idle_joiners(unicodedata.normalize("NFC", str(text or "")))
    typed = typed.translate(APOSTROPHES)
    name = "".join(
        " " if unicodedata.category(char) == "Zs" else char for char in typed.translate(_DOTS_TYPED)
    )
    name = " ".join(part for part in name.split(" ") if part)
    if not name:
        raise NameRefused("empty")
    if len(name) > NAME_MAX:
        raise NameRefused("long")
    for index, char in enumerate(name):
        kind = unicodedata.category(char)
        if char in NAME_DOTS:
            if not (0 < index < len(name) - 1 and name[index + 1].isalpha()):
                raise NameRefused("dots")
            if unicodedata.category(name[index - 1])[0] not in "LM":
                raise NameRefused("dots")
            continue
        if char in (ZWNJ, ZWJ):
            continue
        if not (kind[0] in "LM" or kind == "Nd" or char in NAME_MARKS) or kind == "Me":
            raise NameRefused("characters")
        if char in BLANK_LETTERS or char in BLANK_MARKS:
            raise NameRefused("characters")
    if not marks_fit(name):
        raise NameRefused("accents")
    if len(_folded(name)) > NAME_KEY_MAX:  # ligatures that unfold to many letters
        raise NameRefused("spelled")
    if all(char in NAME_MARKS or char in NAME_DOTS for char in look_key(name)):
        # Signs only, or letters that look like them (``ʼ``, ``ꞏ``).
        raise NameRefused("marks")
    if mixes_scripts(name):
        raise NameRefused("scripts")
    return name


#: Scripts written together in one name (Unicode's "highly restrictive"
#: level, UTS #39): Latin with Japanese, Chinese or Korean writing; any
#: other name keeps to one script.
SCRIPTS_TOGETHER = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: The first words of letters' Unicode names that are one script here.
_SCRIPT_NAMES = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "KATAKANA-HIRAGANA": "KATAKANA"}


def mixes_scripts(name: str) -> bool:
    """Whether ``name``'s letters and vowel signs (in compatibility form,
    NFKC: a full-width ``ａ`` is Latin; modifier letters, such as the okina
    ``ʻ``, and the accents of any script left out) come from more than one
    script, other than the ones of :data:`SCRIPTS_TOGETHER`. A letter's or
    sign's script is the first word of its Unicode name (``CYRILLIC CAPITAL
    LETTER A``, ``DEVANAGARI VOWEL SIGN I``)."""
    scripts = set()
    for char in unicodedata.normalize("NFKC", name):
        if unicodedata.category(char) in ("Ll", "Lu", "Lt", "Lo", "Mn", "Mc"):
            word = unicodedata.name(char, "").split(" ")[0]
            if word != "COMBINING":  # an accent of any script (U+0300 to U+036F)
                scripts.add(_SCRIPT_NAMES.get(word, word))
    if len(scripts) <= 1:
        return False
    return not any(scripts <= together for together in SCRIPTS_TOGETHER)


def name_key(name: str) -> str:
    """Return what makes two display names the same, so that only one
    player may take it (at most 96 characters, the column's width):
    ``name`` case-folded and in Unicode's compatibility form (NFKC: a
    full-width ``ａ`` is an ``a``), with the Turkish ``İ`` and ``ı`` folded
    to ``i`` like ``I``, so ``istanbul``, ``İSTANBUL`` and ``ISTANBUL`` are
    one name, and ``kıyı`` and ``KIYI`` too; and each letter that looks like
    an ASCII letter or digit (Unicode's confusables, :func:`latin_look`)
    taken as it, so a Cyrillic ``Рара`` or a Greek ``ΑΒΕ`` is another
    player's ``Papa`` or ``ABE``, in any case (``ИВАН`` is ``Иван``) and
    with its accents (a Cyrillic ``Рӓрӓ`` is ``Päpä``)."""
    return _folded(name)[:NAME_KEY_MAX]


def _folded(name: str) -> str:
    # Letters apart from their accents (NFKD), so a look-alike's accent
    # stays on its Latin twin; folded in case first, so the key is one
    # for a name in capitals and in small letters.
    key = "".join(map(_look, unicodedata.normalize("NFKD", name).casefold())).casefold()
    key = key.replace("i\u0307", "i").replace("ı", "i")
    return unicodedata.normalize("NFKC", key).replace("\u30fb", "\u00b7")


def _look(char: str) -> str:
    """The ASCII letter or digit a case-folded ``char`` looks like
    (:func:`latin_look`), else the one its capital looks like (a Cyrillic
    ``в`` is small ``В``, which looks like ``B``), else ``char``."""
    small = latin_look(char)
    if small != char:
        return small
    capital = char.upper()
    looks = latin_look(capital) if len(capital) == 1 else capital
    return looks if looks != capital else char


def latin_look(text: str) -> str:
    """Return ``text`` with each character beyond ASCII that Unicode's
    confusables (UTS #39, ``confusable_homoglyphs``' copy) say looks like an
    ASCII letter or digit written as that one (``Р`` → ``P``, ``ǀ`` →
    ``l``); the others, and ASCII (an ``I`` and an ``l`` stay two), as they are."""
    found = confusables.is_confusable(text, greedy=True, preferred_aliases=[]) or []
    looks = {}
    for entry in found:
        char = entry["character"]
        ascii_glyphs = [
            glyph["c"]
            for glyph in entry["homoglyphs"]
            if glyph["c"].isascii() and glyph["c"].isalnum()
        ]
        if not char.isascii() and ascii_glyphs:
            looks[char] = ascii_glyphs[0]
    return "".join(looks.get(char, char) for char in text)


#: The letters and digits of ASCII that Unicode's confusables (UTS #39)
#: write as another, as a skeleton does (``I`` → ``l``), which
#: :func:`latin_look` leaves as they are; and, not in Unicode's data, ``w``
#: as ``vv`` (as it has ``m`` as ``rn``).
ASCII_LOOKS = {"0": "O", "1": "l", "I": "l", "m": "rn", "w": "vv", "W": "VV"}
#: The letters a name may have that Unicode's confusables (UTS #39) say
#: look like an apostrophe ``'`` (the modifier letter apostrophe ``ʼ``,
#: the okina ``ʻ``, primes and accents, the saltillo ``ꞌ`` and its capital
#: ``Ꞌ`` (a name in capitals has it), N'Ko's tone
#: apostrophes ``ߴ`` and ``ߵ``, which no script check sees, being modifier
#: letters) or two (``ˮ``), in their NFKC form: :func:`look_key` takes each
#: as ``'``, so ``Oʼbrien`` is taken next to ``O'brien``. Letters of an
#: alphabet of their own (the Hebrew yod) are not among them.
APOSTROPHE_LOOKS = str.maketrans(
    {
        **dict.fromkeys(
            "\u02b9\u02bb\u02bc\u02bd\u02be\u02c8\u02ca\u02cb\ua78b\ua78c\u07f4\u07f5", "'"
        ),
        "\u02ee": "''",
    }
)
#: The letters a name may have that look like a middle dot ``·`` (the
#: Japanese ``・``, the Latin sinological dot ``ꞏ``, a letter where ``·`` is
#: not: ``Galꞏla`` would pass for ``Gal·la``): :func:`look_key` takes each
#: as ``·``.
DOT_LOOKS = str.maketrans(dict.fromkeys("\u30fb\ua78f", "\u00b7"))
_NO_JOINERS = str.maketrans(dict.fromkeys(ZWNJ + ZWJ))


def look_key(name: str) -> str:
    """Return what makes two display names look the same, so that only one
    player may take it (at most 96 characters, the column's width): ``name``
    in Unicode's compatibility form (NFKC), each letter beyond ASCII that
    looks like an ASCII letter or digit taken as it (:func:`latin_look`),
    then each of :data:`ASCII_LOOKS` as its look-alike, so ``AIi`` (a
    capital ``I``) is ``Ali``, ``B0B`` is ``BOB`` and ``Ernre`` is ``Emre``,
    each of :data:`APOSTROPHE_LOOKS` as ``'`` and each of :data:`DOT_LOOKS`
    as ``·``, without its zero-width non-joiners and joiners: ``نیک‌نام``
    (with a half-space) reads as ``نیکنام`` (a Persian reader sees one word
    either way, its letters only joined apart), ``क्‌ष`` as ``क्ष``.

    Unlike :func:`name_key` it keeps the case: an ``I`` looks like an
    ``l``, but an ``i`` does not, so ``All`` stays another name than
    ``Ali``. A name is taken when either key is."""
    text = latin_look(unicodedata.normalize("NFKC", name))
    text = text.translate(DOT_LOOKS).translate(APOSTROPHE_LOOKS).translate(_NO_JOINERS)
    return "".join(ASCII_LOOKS.get(char, char) for char in text)[:NAME_KEY_MAX]


def _holder_of_look(name: str, player_id: int | None = None) -> str | None:
    """The name of the player other than ``player_id`` whose :func:`name_key`
    or :func:`look_key` is ``name``'s (the same key first), or ``None``."""
    key = name_key(name)
    return db.session.scalar(
        select(Player.name)
        .where(
            or_(Player.name_key == key, Player.look_key == look_key(name)),
            Player.id != (player_id or 0),
        )
        .order_by(case((Player.name_key == key, 0), else_=1), Player.id)
        .limit(1)
    )


def create_player(name: str) -> tuple[Player, str]:
    """Make a player called ``name`` (checked with :func:`check_name`) and
    return it with its new device token (only the token's hash is kept).

    Raises:
        NameRefused: the name is not usable, or ``"taken"``: another
            player's name has its :func:`name_key` or :func:`look_key`.
    """
    name = check_name(name)
    player = Player(
        name=name, name_key=name_key(name), look_key=look_key(name), created_at=utcnow()
    )
    db.session.add(player)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise NameRefused("taken", _holder_of_look(name)) from None
    token = _new_token(player.id)
    _count_scores({0: 1})
    db.session.commit()
    return player, token


def recount_scores() -> None:
    """Rebuild :class:`ScoreCount` from the players' scores, in one
    transaction: after a bulk load that wrote players directly (the
    benchmarks), or to repair the counts. The pages never need it."""
    db.session.execute(delete(ScoreCount))
    db.session.execute(
        ScoreCount.__table__.insert().from_select(
            ["score", "players"], select(Player.score, func.count()).group_by(Player.score)
        )
    )
    db.session.commit()


def _count_scores(changes: dict[int, int]) -> None:
    """Add ``changes`` (score → players gained, negative for lost) to
    :class:`ScoreCount`, in one statement. The rows are written in score
    order, so two recordings at once lock them in the same order (no
    deadlock); call it last in a transaction, after the player's own rows."""
    rows = [
        {"score": score, "players": change} for score, change in sorted(changes.items()) if change
    ]
    if not rows:
        return
    stmt = dialect_insert(db.engine)(ScoreCount).values(rows)
    db.session.execute(
        stmt.on_conflict_do_update(
            index_elements=["score"],
            set_={"players": ScoreCount.players + stmt.excluded.players},
        )
    )


def _new_token(player_id: int) -> str:
    token = secrets.token_urlsafe(32)
    db.session.add(
        PlayerToken(token_hash=secret_hash(token), player_id=player_id, created_at=utcnow())
    )
    return token


def player_by_token(token: str | None) -> Player | None:
    """Return the player whose device token this is, or ``None`` (no token,
    a forged one, or one of a forgotten player)."""
    if not token or len(token) > 100:
        return None
    return db.session.scalar(
        select(Player)
        .join(PlayerToken, PlayerToken.player_id == Player.id)
        .where(PlayerToken.token_hash == secret_hash(token))
    )


def rename_player(player: Player, name: str) -> None:
    """Give ``player`` a new display name (the same name changes nothing:
    a player whose look-alike took the name's key when keys changed, see
    migrations ``0005_name_keys``, ``0012_name_look_keys``,
    ``0013_name_look_keys_case``, ``0014_ascii_look_keys``,
    ``0015_apostrophe_look_keys``, ``0016_tone_and_dot_look_keys`` and
    ``0017_capital_saltillo_look_keys``, keeps
    theirs).

    Raises:
        NameRefused: as :func:`create_player`.
    """
    name = check_name(name)
    if name == player.name:
        return
    player_id = player.id
    player.name, player.name_key, player.look_key = name, name_key(name), look_key(name)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise NameRefused("taken", _holder_of_look(name, player_id)) from None


def open_transfer(player: Player) -> str:
    """Return a new one-time transfer code for ``player``, working for
    :data:`TRANSFER_LIFETIME` (a code opened before stops working)."""
    code = "".join(secrets.choice(TRANSFER_ALPHABET) for _ in range(TRANSFER_LENGTH))
    player.transfer_hash = secret_hash(code)
    player.transfer_expires = utcnow() + TRANSFER_LIFETIME
    db.session.commit()
    return "-".join(code[i : i + 4] for i in range(0, TRANSFER_LENGTH, 4))


def redeem_transfer(code: object) -> tuple[Player, str] | None:
    """Use a transfer code: return its player and a new device token, or
    ``None`` when the code is unknown, used or expired. A code works once."""
    text = "".join(char for char in str(code or "").upper() if char.isalnum())
    if len(text) != TRANSFER_LENGTH:
        return None
    now = utcnow()
    claimed = db.session.execute(
        update(Player)
        .where(Player.transfer_hash == secret_hash(text), Player.transfer_expires > now)
        .values(transfer_hash=None, transfer_expires=None)
        .returning(Player.id)
    ).scalar()
    if claimed is None:
        db.session.rollback()
        return None
    token = _new_token(claimed)
    db.session.commit()
    player = db.session.get(Player, claimed)
    assert player is not None
    return player, token


#: Every table with rows of one player (a ``player_id`` column), with the
#: name its rows have in :func:`player_data`: what "Forget me" deletes and
#: "Download your data" gives, besides the player's own row.
PLAYER_TABLES: tuple[tuple[str, Any], ...] = (
    ("devices", PlayerToken),
    ("results", Result),
    ("daily_entries", DailyEntry),
    ("tasks", PlayerTask),
    ("weekly_totals", WeeklyTotal),
    ("story_progress", StoryProgress),
)
#: Columns :func:`player_data` leaves out: the row's owner (the player
#: themself), and hashes of secrets (a device's cookie, an open transfer
#: code), which tell their owner nothing and are no one else's business.
_NOT_EXPORTED = {"player_id", "token_hash", "transfer_hash"}
#: The ``format`` of :func:`player_data`'s answer.
PLAYER_DATA_FORMAT = "pisti-player-data/1"


def forget_player(player_id: int) -> None:
    """Delete a player with their devices, results, Daily entries, tasks,
    weekly totals and story progress (every table of :data:`PLAYER_TABLES`).
    The player's row is locked first, as :func:`record_result` writes it
    first: a game of theirs being recorded is written before, or not at all."""
    db.session.rollback()
    db.session.execute(select(Player.id).where(Player.id == player_id).with_for_update())
    for _, model in PLAYER_TABLES:
        db.session.execute(delete(model).where(model.player_id == player_id))
    score = db.session.execute(
        delete(Player).where(Player.id == player_id).returning(Player.score)
    ).scalar()
    if score is not None:
        _count_scores({score: -1})
    db.session.commit()


def player_named(name: str) -> Player | None:
    """Return the player whose name is ``name`` whatever its case and
    spelling (:func:`name_key`, stripped as names are), or ``None``."""
    return db.session.scalars(
        select(Player).where(Player.name_key == name_key(name.strip()))
    ).first()


def _exported(row: Any) -> dict[str, Any]:
    """A row as plain JSON data: every column but :data:`_NOT_EXPORTED`,
    times as ISO 8601 (UTC, ``Z``), days as ``YYYY-MM-DD``."""
    data: dict[str, Any] = {}
    for column in row.__table__.columns:
        if column.key in _NOT_EXPORTED:
            continue
        value = getattr(row, column.key)
        if isinstance(value, datetime):
            value = value.isoformat() + "Z"
        elif isinstance(value, date):
            value = value.isoformat()
        data[column.key] = value
    return data


def player_data(player_id: int) -> dict[str, Any] | None:
    """Return everything the database keeps about the player ``player_id``
    (``None``: no such player), for them to download: their row (name,
    when they joined, totals; ``transfer_expires`` while a transfer code is
    open) and every row of theirs in :data:`PLAYER_TABLES`, each table's
    rows in the order they were made. Hashes of secrets are left out
    (:data:`_NOT_EXPORTED`); a device is its ``created_at``."""
    player = db.session.get(Player, player_id)
    if player is None:
        return None
    data: dict[str, Any] = {
        "format": PLAYER_DATA_FORMAT,
        "made": utcnow().isoformat() + "Z",
        "player": _exported(player),
    }
    for name, model in PLAYER_TABLES:
        order = list(model.__table__.primary_key.columns)
        rows = db.session.scalars(
            select(model).where(model.player_id == player_id).order_by(*_made_order(model), *order)
        )
        data[name] = [_exported(row) for row in rows]
    return data


def _made_order(model: Any) -> list[Any]:
    """The columns that order ``model``'s rows as they were made."""
    for column in ("created_at", "finished_at", "started_at", "start", "week", "day"):
        if column in model.__table__.columns:
            return [model.__table__.columns[column]]
    return []


# --- Mansion Evenings progress ------------------------------------------


def story_progress(player_id: int) -> dict[str, Any]:
    """Return the player's story progress (``app/story/progress.py``'s
    shape; nothing yet is no lesson and nobody beaten)."""
    row = db.session.get(StoryProgress, player_id)
    if row is None:
        return story.clean({})
    return story.clean(
        {
            "lesson": row.lesson,
            "lesson_step": row.lesson_step,
            "beaten": row.beaten.split(",") if row.beaten else [],
        }
    )


#: Tries of :func:`update_story_progress` before it gives up.
STORY_ATTEMPTS = 5


class StoryBusy(RuntimeError):
    """The player's story progress changed under every try of
    :func:`update_story_progress`."""


def update_story_progress(
    player_id: int, change: Callable[[dict[str, Any]], dict[str, Any] | None]
) -> None:
    """Change the player's story progress atomically: ``change`` gets the
    progress as kept and returns the new one (``None``: no change); it is
    written only if nobody wrote the progress meanwhile (compare-and-set on
    the row's values), else ``change`` is made again on the fresh progress,
    so a lesson step and a story win made at once both stay.

    Raises:
        StoryBusy: the progress changed under each of :data:`STORY_ATTEMPTS`
            tries.
        Whatever ``change`` raises (nothing is written then).
    """
    for _ in range(STORY_ATTEMPTS):
        db.session.rollback()
        row = db.session.get(StoryProgress, player_id, populate_existing=True)
        before = story_progress(player_id)
        after = change(before)
        if after is None:
            return
        data = story.clean(after)
        fields = {
            "lesson": data["lesson"],
            "lesson_step": data["lesson_step"],
            "beaten": ",".join(data["beaten"]),
            "updated_at": utcnow(),
        }
        if row is None:
            written = db.session.execute(
                dialect_insert(db.engine)(StoryProgress)
                .values(player_id=player_id, **fields)
                .on_conflict_do_nothing()
            )
        else:
            written = db.session.execute(
                update(StoryProgress)
                .where(
                    StoryProgress.player_id == player_id,
                    StoryProgress.lesson.is_not_distinct_from(row.lesson),
                    StoryProgress.lesson_step == row.lesson_step,
                    StoryProgress.beaten == row.beaten,
                )
                .values(**fields)
            )
        db.session.commit()
        if cast("CursorResult[Any]", written).rowcount:
            return
    raise StoryBusy(f"story progress of player {player_id} kept changing")


def merge_story_progress(player_id: int, value: object) -> None:
    """Merge ``value`` (an anonymous session's progress) into the player's:
    the furthest of the two is kept (:func:`app.story.progress.merge`)."""
    if story.is_empty(value):
        return
    update_story_progress(player_id, lambda kept: story.merge(kept, value))


# --- recording a finished game ------------------------------------------


@dataclass
class Recorded:
    """What recording a game did: whether it was the ranked Daily game, and
    the tasks it finished (their reward added to the score)."""

    ranked: bool = False
    finished_tasks: list[Task] = field(default_factory=list)


def result_holder(game_id: str) -> int | None:
    """Return the id of the player the game ``game_id`` (a table's game id,
    one device's game) is recorded for, or ``None`` when it is not
    recorded."""
    return db.session.scalar(select(Result.player_id).where(Result.game_id == game_id).limit(1))


def result_daily_day(game_id: str) -> date | None:
    """Return the Daily deal's day the recorded game ``game_id`` was
    played as, or ``None`` (not a Daily game, or not recorded)."""
    return db.session.scalar(select(Result.daily_day).where(Result.game_id == game_id).limit(1))


def record_result(player_id: int, facts: GameFacts) -> Recorded | None:
    """Write a finished game once, in one transaction: the result, the Daily
    entry when this is the player's ranked Daily game, task progress and
    rewards, the player's totals and weekly score, and the players per
    score.

    Return ``None`` when this game (player and game id) was recorded before
    (a retry or a second POST changes nothing), or the player was forgotten
    meanwhile. The player's row is written first, so recordings of one
    player and forgetting them (which locks that row first too) take turns
    rather than each waiting for rows the other holds. A game whose
    ``daily_day`` is not the day of the time it is written (found to be the
    day's Daily game just before midnight UTC, written just after) is
    written as the game finished after midnight it is: not a Daily game.
    A :attr:`~app.db.facts.GameFacts.known_deal`, or a Daily deal the
    player finished or started before (another game of it claimed their
    rank, or spent it), adds its win to the scores but not its points, and
    advances no task about playing well (:attr:`~app.db.tasks.Task.skill`).

    Every statement is a Core statement built once (:func:`_recording`)
    and run with this game's values, so recording spends its time in the
    database rather than in building SQL.
    """
    db.session.rollback()  # start the write transaction with the write
    now = utcnow()
    if facts.daily_day is not None and facts.daily_day != now.date():
        # Taken for the day's Daily game a moment before midnight, written
        # a moment after it: a game that ended after its day, unranked (as
        # a game finished after midnight is, its deal public by then: it
        # adds its win but not its points), so its finish, its day, its
        # tasks and its week all agree.
        facts = replace(facts, daily_day=None, known_deal=True)
    sql = _recording(db.engine.dialect.name)
    score = db.session.execute(
        sql.update_player, {"b_id": player_id, "b_win": int(facts.won), "b_won": facts.won}
    ).scalar()
    if score is None:  # forgotten meanwhile
        db.session.rollback()
        return None
    # Each day's Daily deal of a game counts once for the tasks ("Finish 5
    # Daily deals this week") and the scores, the first time the player
    # finishes it: a replay of the same deal, unranked, is no other Daily
    # deal, and its cards are known. Looked for with the player's row
    # written, so two of their games recorded at once take turns.
    again = facts.daily_day is not None and _finished_daily_before(player_id, facts)
    if again or (facts.daily_day is not None and _dealt_daily_before(player_id, facts)):
        facts = replace(facts, known_deal=True)
    points = facts.points if facts.counts_points else 0
    # Then the Daily entry, so the result is written ranked or not in one
    # statement; a second POST finds the entry finished (and its result
    # insert then conflicts and rolls everything back).
    recorded = Recorded()
    if facts.daily_day is not None:
        done = db.session.execute(
            sql.finish_daily,
            {
                "b_day": facts.daily_day,
                "b_rules": facts.rules,
                "b_player": player_id,
                "b_game": facts.game_id,
                "b_now": now,
                "b_points": facts.points,
                "b_pistis": facts.pistis + facts.jack_pistis,
            },
        )
        recorded.ranked = bool(cast("CursorResult[Any]", done).rowcount)
    result_id = db.session.execute(
        sql.insert_result,
        {
            "player_id": player_id,
            "game_id": facts.game_id,
            "finished_at": now,
            "rules": facts.rules,
            "house": facts.house_rules,
            "target": facts.target,
            "levels": ",".join(facts.levels),
            "deal_key": facts.deal_key,
            "daily_day": facts.daily_day,
            "ranked": recorded.ranked,
            "outcome": facts.outcome,
            "points": facts.points,
            "opp_points": facts.opp_points,
            "hands": facts.hands,
            "pistis": facts.pistis,
            "jack_pistis": facts.jack_pistis,
            "most_cards": facts.most_cards,
        },
    ).scalar()
    if result_id is None:
        db.session.rollback()
        return None
    task_facts = replace(facts, daily_day=None) if again else facts
    recorded.finished_tasks = _advance_tasks(player_id, task_facts, now)
    rewards = sum(task.reward for task in recorded.finished_tasks)
    gained = points + rewards
    if gained:
        added = {"b_id": player_id, "b_points": points, "b_rewards": rewards}
        score = db.session.execute(sql.add_score, added).scalar_one()
    week = week_start(now.date())
    db.session.execute(sql.add_weekly, {"week": week, "player_id": player_id, "score": gained})
    if gained:
        _count_scores({score - gained: -1, score: 1})
    db.session.commit()
    return recorded


def _finished_daily_before(player_id: int, facts: GameFacts) -> bool:
    """Whether the player finished another game of the Daily deal of
    ``facts`` (its day and rule set) before this one."""
    return (
        db.session.scalar(
            select(Result.id)
            .where(
                Result.player_id == player_id,
                Result.daily_day == facts.daily_day,
                Result.rules == facts.rules,
                Result.game_id != facts.game_id,
            )
            .limit(1)
        )
        is not None
    )


def _dealt_daily_before(player_id: int, facts: GameFacts) -> bool:
    """Whether the player's Daily entry of the deal of ``facts`` (its day
    and rule set) names another game than this one: a game of it started
    before claimed the rank (or spent it), so this one, or the ranked one
    resumed after a second start, is played knowing the deal."""
    return (
        db.session.scalar(
            select(DailyEntry.player_id)
            .where(
                DailyEntry.player_id == player_id,
                DailyEntry.day == facts.daily_day,
                DailyEntry.rules == facts.rules,
                DailyEntry.game_id != facts.game_id,
            )
            .limit(1)
        )
        is not None
    )


_PLAYERS = cast(Table, Player.__table__)
_RESULTS = cast(Table, Result.__table__)
_DAILY = cast(Table, DailyEntry.__table__)
_TASKS = cast(Table, PlayerTask.__table__)
_WEEKLY = cast(Table, WeeklyTotal.__table__)
_SCORES = cast(Table, ScoreCount.__table__)
#: The columns of a task row that recording reads.
_TASK_COLUMNS = tuple(
    _TASKS.c[name] for name in ("id", "task", "period", "progress", "goal", "reward", "done_at")
)


@dataclass(frozen=True)
class _Recording:
    """The statements :func:`record_result` runs, for one SQL dialect;
    their parameters are named ``b_...`` (or after the columns, for the
    inserts)."""

    update_player: Any
    finish_daily: Any
    insert_result: Any
    add_score: Any
    add_weekly: Any
    current_tasks: Any
    advance_task: Any


@cache
def _recording(dialect: str) -> _Recording:
    """Build :class:`_Recording`'s statements for ``dialect`` (once)."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    players, daily, tasks = _PLAYERS.c, _DAILY.c, _TASKS.c
    won = bindparam("b_won", type_=Boolean())
    streak = players.streak + 1
    weekly = insert(_WEEKLY)
    progress = tasks.progress + bindparam("b_gained", type_=Integer())
    return _Recording(
        update_player=update(_PLAYERS)
        .where(players.id == bindparam("b_id"))
        .values(
            games=players.games + 1,
            wins=players.wins + bindparam("b_win", type_=Integer()),
            streak=case((won, streak), else_=0),
            best_streak=case(
                (and_(won, streak > players.best_streak), streak), else_=players.best_streak
            ),
        )
        .returning(players.score),
        finish_daily=update(_DAILY)
        .where(
            daily.day == bindparam("b_day"),
            daily.rules == bindparam("b_rules"),
            daily.player_id == bindparam("b_player"),
            daily.game_id == bindparam("b_game"),
            daily.finished_at.is_(None),
        )
        .values(
            finished_at=bindparam("b_now"),
            points=bindparam("b_points"),
            pistis=bindparam("b_pistis"),
        ),
        insert_result=insert(_RESULTS).on_conflict_do_nothing().returning(_RESULTS.c.id),
        add_score=update(_PLAYERS)
        .where(players.id == bindparam("b_id"))
        .values(
            points=players.points + bindparam("b_points", type_=Integer()),
            rewards=players.rewards + bindparam("b_rewards", type_=Integer()),
            score=players.score
            + bindparam("b_points", type_=Integer())
            + bindparam("b_rewards", type_=Integer()),
        )
        .returning(players.score),
        add_weekly=weekly.on_conflict_do_update(
            index_elements=["week", "player_id"],
            set_={"score": _WEEKLY.c.score + weekly.excluded.score},
        ),
        current_tasks=select(*_TASK_COLUMNS)
        .where(
            tasks.player_id == bindparam("b_player"),
            or_(
                and_(tasks.period == "day", tasks.start == bindparam("b_day")),
                and_(tasks.period == "week", tasks.start == bindparam("b_week")),
            ),
        )
        .order_by(tasks.period, tasks.id),
        # One statement moves the progress and marks the task done when it
        # reaches the goal; "done_at IS NULL" makes the reward happen once
        # even when two games of the player are recorded at the same time.
        advance_task=update(_TASKS)
        .where(tasks.id == bindparam("b_id"), tasks.done_at.is_(None))
        .values(
            progress=case((progress > tasks.goal, tasks.goal), else_=progress),
            done_at=case(
                (progress >= tasks.goal, bindparam("b_now", type_=DateTime())), else_=None
            ),
        )
        .returning(tasks.done_at),
    )


def _task_rows(player_id: int, day: date) -> list[dict[str, Any]]:
    """The rows of the player's three tasks of ``day`` and its week's
    challenge, as :func:`_ensure_tasks` makes them."""
    chosen = [("day", day, task) for task in daily_tasks(player_id, day)]
    chosen.append(("week", week_start(day), weekly_challenge(day)))
    return [
        {
            "player_id": player_id,
            "period": period,
            "start": start,
            "task": task.id,
            "progress": 0,
            "goal": task.goal,
            "reward": task.reward,
        }
        for period, start, task in chosen
    ]


def _ensure_tasks(player_id: int, day: date) -> list[Any]:
    """Make the player's task rows of ``day`` and its week that are missing;
    return the rows made (as :func:`_current_tasks`)."""
    return list(
        db.session.execute(
            dialect_insert(db.engine)(_TASKS)
            .values(_task_rows(player_id, day))
            .on_conflict_do_nothing()
            .returning(*_TASK_COLUMNS)
        )
    )


def _current_tasks(player_id: int, day: date) -> list[Any]:
    """The player's task rows of ``day`` and its week (id, task, period,
    progress, goal, reward, done_at), daily ones first."""
    return list(
        db.session.execute(
            _recording(db.engine.dialect.name).current_tasks,
            {"b_player": player_id, "b_day": day, "b_week": week_start(day)},
        )
    )


def _advance_tasks(player_id: int, facts: GameFacts, now: datetime) -> list[Task]:
    day = now.date()
    rows = _current_tasks(player_id, day)
    if len(rows) < DAILY_COUNT + 1:
        rows = sorted(rows + _ensure_tasks(player_id, day), key=lambda row: (row.period, row.id))
        if len(rows) < DAILY_COUNT + 1:  # another recording made some meanwhile
            rows = _current_tasks(player_id, day)
    advance = _recording(db.engine.dialect.name).advance_task
    finished = []
    for row in rows:
        task = TASKS.get(row.task)
        gained = task.gained(facts) if task is not None and row.done_at is None else 0
        if not gained:
            continue
        done_at = db.session.execute(
            advance, {"b_id": row.id, "b_gained": gained, "b_now": now}
        ).scalar()
        if done_at is not None and task is not None:
            finished.append(task)
    return finished


def held_back_tasks(player_id: int, facts: GameFacts) -> list[Task]:
    """Return the player's tasks that their recorded game ``facts`` did not
    advance because its deal could be known beforehand
    (:meth:`~app.db.tasks.Task.held_back`): ``facts`` a known deal, or the
    game finished today's Daily deal again (an earlier result of that deal
    is theirs); the tasks of the day and week it was recorded in, but for
    those done before it. Empty when the game is not recorded as theirs."""
    result = db.session.execute(
        select(Result.id, Result.finished_at, Result.daily_day, Result.rules).where(
            Result.player_id == player_id, Result.game_id == facts.game_id
        )
    ).first()
    if result is None:
        return []
    if result.daily_day is not None and not facts.known_deal:
        earlier = select(Result.id).where(
            Result.player_id == player_id,
            Result.daily_day == result.daily_day,
            Result.rules == result.rules,
            Result.id < result.id,
        )
        facts = replace(facts, known_deal=db.session.scalar(earlier.limit(1)) is not None)
    if not facts.known_deal:
        return []
    held = []
    for row in _current_tasks(player_id, result.finished_at.date()):
        task = TASKS.get(row.task)
        if task is None or (row.done_at is not None and row.done_at <= result.finished_at):
            continue
        if task.held_back(facts):
            held.append(task)
    return held


@dataclass
class TaskProgress:
    """A task as a page shows it."""

    task: Task
    period: str
    progress: int
    goal: int
    reward: int
    done: bool


def player_tasks(player_id: int, day: date) -> list[TaskProgress]:
    """Return the player's three tasks of ``day`` and the week's challenge,
    with their progress (made on first sight)."""
    _ensure_tasks(player_id, day)
    db.session.commit()
    return [
        TaskProgress(
            TASKS[row.task], row.period, row.progress, row.goal, row.reward, bool(row.done_at)
        )
        for row in _current_tasks(player_id, day)
        if row.task in TASKS
    ]


# --- the Daily deal -------------------------------------------------------


def daily_deal_seed(day: date, rules: str) -> str | None:
    """Return the kept seed of ``day``'s Daily deal of ``rules``, or
    ``None`` when no Daily game of it has been started."""
    deal = db.session.get(DailyDeal, (day, rules))
    return deal.seed if deal is not None else None


def past_daily_day(seed: str, rules: str, before: date) -> date | None:
    """Return the day before ``before`` whose kept Daily deal of ``rules``
    has the seed ``seed``, or ``None`` (no Daily game of it was started
    then, or the seed is another's)."""
    return db.session.scalar(
        select(DailyDeal.day)
        .where(DailyDeal.seed == seed, DailyDeal.rules == rules, DailyDeal.day < before)
        .limit(1)
    )


def keep_daily_deal_seed(day: date, rules: str, seed: str) -> str:
    """Keep ``seed`` (32 hex digits) as ``day``'s Daily seed of ``rules``
    unless one is kept already (another server may have been first), and
    return the one kept."""
    db.session.execute(
        dialect_insert(db.engine)(DailyDeal)
        .values(day=day, rules=rules, seed=seed)
        .on_conflict_do_nothing()
    )
    db.session.commit()
    return cast(str, daily_deal_seed(day, rules))


def start_daily(player_id: int, day: date, rules: str, game_id: str) -> bool:
    """Claim the player's ranked Daily game of ``day`` and ``rules`` for the
    game ``game_id``; return ``False`` when one was started before (this
    game is then unranked)."""
    db.session.rollback()
    claimed = db.session.execute(
        dialect_insert(db.engine)(DailyEntry)
        .values(day=day, rules=rules, player_id=player_id, game_id=game_id, started_at=utcnow())
        .on_conflict_do_nothing()
        .returning(DailyEntry.player_id)
    ).scalar()
    db.session.commit()
    return claimed is not None


def drop_daily_claim(player_id: int, day: date, rules: str, game_id: str) -> None:
    """Give back the claim :func:`start_daily` made for ``game_id``, a game
    that was then not started after all."""
    db.session.rollback()
    db.session.execute(
        delete(DailyEntry).where(
            DailyEntry.day == day,
            DailyEntry.rules == rules,
            DailyEntry.player_id == player_id,
            DailyEntry.game_id == game_id,
            DailyEntry.finished_at.is_(None),
        )
    )
    db.session.commit()


#: The game id of a Daily entry whose rank was spent (:func:`spend_daily_claim`):
#: no game has it (a game's id is 8 hex digits), so no game finishes it.
SPENT_GAME = ""


def spend_daily_claim(player_id: int, day: date, rules: str) -> bool:
    """Give up the rank of the player's unfinished ranked Daily game of
    ``day`` and ``rules``, as another game of the same deal has started:
    that game would show every card, and the ranked one, kept aside, could
    be played on knowing them. Return whether there was one to give up."""
    db.session.rollback()
    spent = db.session.execute(
        update(DailyEntry)
        .where(
            DailyEntry.day == day,
            DailyEntry.rules == rules,
            DailyEntry.player_id == player_id,
            DailyEntry.finished_at.is_(None),
            DailyEntry.game_id != SPENT_GAME,
        )
        .values(game_id=SPENT_GAME)
    )
    db.session.commit()
    return bool(cast("CursorResult[Any]", spent).rowcount)


def unfinished_daily_day(player_id: int, game_id: str) -> date | None:
    """Return the day of the player's ranked Daily entry claimed by the game
    ``game_id`` and never finished (the game ended after its day, when its
    deal was public, so it was recorded unranked), or ``None``."""
    return db.session.scalar(
        select(DailyEntry.day)
        .where(
            DailyEntry.player_id == player_id,
            DailyEntry.game_id == game_id,
            DailyEntry.finished_at.is_(None),
        )
        .limit(1)
    )


def daily_entry(player_id: int, day: date, rules: str) -> DailyEntry | None:
    """Return the player's Daily entry of ``day`` and ``rules``, if any."""
    return db.session.get(DailyEntry, (day, rules, player_id))


@dataclass
class Board:
    """A leaderboard page.

    Attributes:
        rows: the page's rows, best first; each a dict with ``rank``,
            ``player_id``, ``name`` and the board's figures.
        page, pages: this page (from 1) and the number of pages (at least 1).
        total: rows on the whole board.
        mine: the viewer's own row (wherever it is), or ``None``.
        entry: on a Daily board, the viewer's entry of that day, finished
            (then also :attr:`mine`) or only started; else ``None``.
    """

    rows: list[dict[str, Any]]
    page: int
    pages: int
    total: int
    mine: dict[str, Any] | None
    entry: dict[str, Any] | None = None

    @property
    def mine_on_page(self) -> bool:
        """Whether the viewer's row is among :attr:`rows`."""
        return self.mine is not None and any(
            row["player_id"] == self.mine["player_id"] for row in self.rows
        )


def _pages(total: int) -> int:
    return max(1, math.ceil(total / PAGE_SIZE))


def _page_rows(query: Select[*tuple[Any, ...]], page: int, **params: Any) -> list[dict[str, Any]]:
    """Return page ``page`` (1-based, :data:`PAGE_SIZE` rows) of a ranked
    leaderboard query of :data:`_BOARDS` with its ``params``, each row a
    dict with its ``rank`` added."""
    first = (page - 1) * PAGE_SIZE
    rows = db.session.execute(query, {**params, "b_offset": first, "b_limit": PAGE_SIZE})
    return [{**row._asdict(), "rank": first + index + 1} for index, row in enumerate(rows)]


def _ranked_page(query: Select[*tuple[Any, ...]]) -> Select[*tuple[Any, ...]]:
    return query.offset(bindparam("b_offset", type_=Integer())).limit(
        bindparam("b_limit", type_=Integer())
    )


def _named_page(
    ranked: Subquery, order: tuple[ColumnElement[Any], ...], *extra: ColumnElement[Any]
) -> Select[Any]:
    """A page of a board from ``ranked``, the page's rows picked from the
    board's own index (with ``b_offset``/``b_limit``), each with its
    player's name (and the players' columns ``extra``): only the page's
    rows are joined to the players, not every row skipped to reach a deep
    page (0.2 s at row 26,000 of a week on SQLite, 1 ms so; the all-time
    board's row 25,000 on PostgreSQL 156 ms, 3 ms so)."""
    columns = [column for column in ranked.c if column.key != "player_id"]
    return (
        select(ranked.c.player_id, _PLAYERS.c.name, *columns, *extra)
        .select_from(ranked.join(_PLAYERS, _PLAYERS.c.id == ranked.c.player_id))
        .order_by(*order)
    )


def _build_boards() -> dict[str, Select[*tuple[Any, ...]]]:
    """The leaderboards' queries, built once as Core statements with bound
    parameters ``b_...`` (a page view then only runs them): for each board
    its ``total``, ``page`` (with ``b_offset``/``b_limit``) and ``own`` row
    with its ``rank``."""
    players, daily, weekly, counts = _PLAYERS.c, _DAILY.c, _WEEKLY.c, _SCORES.c
    boards: dict[str, Select[*tuple[Any, ...]]] = {}

    # Daily: finished ranked games by points, then piştis, then the earlier finish.
    day_is = (daily.day == bindparam("b_day"), daily.rules == bindparam("b_rules"))
    finished = (*day_is, daily.finished_at.is_not(None))
    columns: tuple[ColumnElement[Any], ...] = (
        daily.player_id,
        players.name,
        daily.points,
        daily.pistis,
        daily.finished_at,
    )
    joined = _DAILY.join(_PLAYERS, players.id == daily.player_id)
    boards["daily total"] = select(func.count()).select_from(_DAILY).where(*finished)
    ranked = _ranked_page(
        select(daily.player_id, daily.points, daily.pistis, daily.finished_at)
        .where(*finished)
        .order_by(daily.points.desc(), daily.pistis.desc(), daily.finished_at)
    ).subquery("ranked")
    boards["daily page"] = _named_page(
        ranked, (ranked.c.points.desc(), ranked.c.pistis.desc(), ranked.c.finished_at)
    )
    # The entries ahead of the viewer's, counted in three ranges of
    # ix_daily_rank (more points; as many and more piştis; as many of both
    # and finished earlier), each read from the index alone.
    other = _DAILY.alias("other")
    ahead = (
        other.c.points > daily.points,
        and_(other.c.points == daily.points, other.c.pistis > daily.pistis),
        and_(
            other.c.points == daily.points,
            other.c.pistis == daily.pistis,
            other.c.finished_at < daily.finished_at,
        ),
    )
    counts_ahead = [
        select(func.count())
        .select_from(other)
        .where(
            other.c.day == daily.day,
            other.c.rules == daily.rules,
            other.c.finished_at.is_not(None),
            condition,
        )
        .scalar_subquery()
        for condition in ahead
    ]
    better = counts_ahead[0] + counts_ahead[1] + counts_ahead[2]
    # The entry whether finished or not (the Daily page says which).
    boards["daily own"] = (
        select(*columns, (better + 1).label("rank"))
        .select_from(joined)
        .where(*day_is, daily.player_id == bindparam("b_player"))
    )

    # All-time: players by Pişti score, then the one who joined first; a
    # player with no points yet (a name chosen, no game finished) is not
    # on it.
    columns = (
        players.id.label("player_id"),
        players.name,
        players.score,
        players.points,
        players.rewards,
        players.games,
        players.wins,
    )
    players_in = func.coalesce(func.sum(counts.players), 0)
    boards["all total"] = select(players_in).where(counts.score > 0)
    ranked = _ranked_page(
        select(players.id.label("player_id"), players.score)
        .where(players.score > 0)
        .order_by(players.score.desc(), players.id)
    ).subquery("ranked")
    boards["all page"] = _named_page(
        ranked,
        (ranked.c.score.desc(), ranked.c.player_id),
        players.points,
        players.rewards,
        players.games,
        players.wins,
    )
    other = _PLAYERS.alias("other")
    above = select(players_in).where(counts.score > players.score).scalar_subquery()
    tied = (
        select(func.count())
        .select_from(other)
        .where(other.c.score == players.score, other.c.id < players.id)
        .scalar_subquery()
    )
    boards["all own"] = select(*columns, (above + tied + 1).label("rank")).where(
        players.id == bindparam("b_player"), players.score > 0
    )

    # Weekly: players by that week's score, then the one who joined first.
    week_is = weekly.week == bindparam("b_week")
    columns = (weekly.player_id, players.name, weekly.score)
    joined = _WEEKLY.join(_PLAYERS, players.id == weekly.player_id)
    boards["week total"] = select(func.count()).select_from(_WEEKLY).where(week_is)
    ranked = _ranked_page(
        select(weekly.player_id, weekly.score)
        .where(week_is)
        .order_by(weekly.score.desc(), weekly.player_id)
    ).subquery("ranked")
    boards["week page"] = _named_page(ranked, (ranked.c.score.desc(), ranked.c.player_id))
    other = _WEEKLY.alias("other")
    better = (
        select(func.count())
        .select_from(other)
        .where(
            other.c.week == weekly.week,
            or_(
                other.c.score > weekly.score,
                and_(other.c.score == weekly.score, other.c.player_id < weekly.player_id),
            ),
        )
        .scalar_subquery()
    )
    boards["week own"] = (
        select(*columns, (better + 1).label("rank"))
        .select_from(joined)
        .where(week_is, weekly.player_id == bindparam("b_player"))
    )
    return boards


_BOARDS = _build_boards()


def _board(kind: str, page: int, player_id: int | None, **params: Any) -> Board:
    """Return a page of the board ``kind`` (``"daily"``, ``"all"`` or
    ``"week"``) with the viewer's row; ``params`` name the board's day,
    rules or week."""
    total = db.session.scalar(_BOARDS[f"{kind} total"], params) or 0
    page = min(max(page, 1), _pages(total))
    rows = _page_rows(_BOARDS[f"{kind} page"], page, **params)
    board = Board(rows, page, _pages(total), total, None)
    if player_id is not None:
        own = db.session.execute(_BOARDS[f"{kind} own"], {**params, "b_player": player_id}).first()
        if own is not None:
            board.mine = own._asdict()
    return board


def daily_leaderboard(day: date, rules: str, page: int, player_id: int | None) -> Board:
    """Return a page of ``day``'s Daily leaderboard of ``rules``: finished
    ranked games by points, then piştis, then the earlier finish; with the
    viewer's entry (:attr:`Board.entry`) when ``player_id`` has one."""
    board = _board("daily", page, player_id, b_day=day, b_rules=rules)
    if board.mine is not None:
        board.entry = board.mine
        if board.mine["finished_at"] is None:
            board.mine = None
    return board


def alltime_leaderboard(page: int, player_id: int | None) -> Board:
    """Return a page of the all-time leaderboard: players by Pişti score,
    then the one who joined first. Players with no points yet (a score of
    0) are left out, the viewer's row too (:attr:`Board.mine` is then
    ``None``).

    The number of players and the viewer's place come from
    :class:`ScoreCount` (a sum over the scores above theirs, one row per
    score), plus the players of their own score who joined before them
    (from ``ix_players_rank``): no count over all players.
    """
    return _board("all", page, player_id)


def weekly_leaderboard(week: date, page: int, player_id: int | None) -> Board:
    """Return a page of the leaderboard of the week from Monday ``week``:
    players by that week's score, then the one who joined first."""
    return _board("week", page, player_id, b_week=week)


# --- shared deals and statistics -----------------------------------------


def deal_results(key: str, limit: int = 20) -> list[dict[str, Any]]:
    """Return the best ``limit`` players' results of the deal ``key`` (see
    :func:`app.db.facts.deal_key`), each player's best once (who played the
    link again is not listed twice): name, points, the other side's points,
    outcome; best points first, then the earlier finish."""
    best_first = (Result.points.desc(), Result.finished_at, Result.id)
    ranked = (
        select(
            Result.player_id,
            Result.points,
            Result.opp_points,
            Result.outcome,
            Result.finished_at,
            Result.id,
            func.row_number().over(partition_by=Result.player_id, order_by=best_first).label("nth"),
        )
        .where(Result.deal_key == key)
        .subquery()
    )
    query = (
        select(
            Player.name, ranked.c.points, ranked.c.opp_points, ranked.c.outcome, ranked.c.player_id
        )
        .join(Player, Player.id == ranked.c.player_id)
        .where(ranked.c.nth == 1)
        .order_by(ranked.c.points.desc(), ranked.c.finished_at, ranked.c.id)
        .limit(limit)
    )
    return [row._asdict() for row in db.session.execute(query)]


def player_results(player_id: int, limit: int = 200) -> list[Result]:
    """Return the player's last ``limit`` results, oldest first."""
    rows = db.session.scalars(
        select(Result)
        .where(Result.player_id == player_id)
        .order_by(Result.finished_at.desc(), Result.id.desc())
        .limit(limit)
    )
    return list(reversed(list(rows)))


def games_by_rules_and_level(player_id: int) -> list[dict[str, Any]]:
    """Return games and wins per rule set (with its house rules) and
    computer levels, most played first: dicts with ``rules``, ``house``,
    ``levels``, ``games``, ``wins``."""
    wins = func.sum(case((Result.outcome == "win", 1), else_=0))
    game = (Result.rules, Result.house, Result.levels)
    query = (
        select(*game, func.count().label("games"), wins.label("wins"))
        .where(Result.player_id == player_id)
        .group_by(*game)
        .order_by(func.count().desc(), *game)
    )
    return [row._asdict() for row in db.session.execute(query)]


def games_against(
    player_id: int, levels: list[str], rules: str, target: int | None
) -> dict[str, tuple[int, int]]:
    """Return the player's ``(games, wins)`` in the rule set ``rules`` (a
    name, e.g. ``"classic"``) to ``target`` points against each computer of
    ``levels`` (a result's whole ``levels``, e.g. a story opponent's key
    ``"hayriye"``); levels never played are left out."""
    wins = func.sum(case((Result.outcome == "win", 1), else_=0))
    query = (
        select(Result.levels, func.count(), wins)
        .where(
            Result.player_id == player_id,
            Result.levels.in_(levels),
            Result.rules == rules,
            Result.target == target,
        )
        .group_by(Result.levels)
    )
    return {name: (int(games), int(won)) for name, games, won in db.session.execute(query)}


def hand_totals(player_id: int) -> dict[str, int]:
    """Return the player's sums over all results: ``games``, ``hands``,
    ``pistis``, ``jack_pistis``, ``most_cards``; and ``points``,
    ``points_hands`` and ``points_games``, the points, hands and number of
    the games that score as their rule set does
    (:func:`app.db.facts.points_count`: not those whose house rules set
    what a pişti or the cards are worth), over every game, not only the
    last ones :func:`player_results` gives the charts.

    The database adds up each game and computers apart (a player has a
    few dozen) and :func:`~app.db.facts.points_count` tells which count:
    no string matching on every row (1.2 s for 20,000 games on a busy
    machine, where these sums take 20 ms)."""
    query = (
        select(
            Result.house,
            func.count(),
            func.sum(Result.hands),
            func.sum(Result.points),
            func.sum(case((Result.hands > 0, 1), else_=0)),
            func.sum(Result.pistis),
            func.sum(Result.jack_pistis),
            func.sum(Result.most_cards),
        )
        .where(Result.player_id == player_id)
        # In ix_results_player_games' order: groups as it lists the rows.
        .group_by(Result.rules, Result.levels, Result.house)
    )
    totals = dict.fromkeys(
        ("games", "hands", "points", "points_hands", "points_games", "pistis", "jack_pistis",
         "most_cards"),
        0,
    )  # fmt: skip
    for house, games, hands, points, with_hands, pistis, jacks, most in db.session.execute(query):
        summed = {"games": games, "hands": hands, "pistis": pistis, "jack_pistis": jacks}
        summed["most_cards"] = most
        if points_count(house):
            summed.update(points=points, points_hands=hands, points_games=with_hands)
        for key, value in summed.items():
            totals[key] += int(value)
    return totals
