"""look keys: the capital saltillo looks like an apostrophe

``app.db.queries.look_key`` takes the capital saltillo ``Ꞌ`` (a Latin
letter: a name in capitals has it) as ``'``, as it took the small ``ꞌ``
since ``0015_apostrophe_look_keys`` and as Unicode's confusables have both:
``OꞋBRIEN`` passed for ``O'BRIEN``. Each player's look key is worked out
again here, the first player to sign up first: where it is now another
player's key, the player gets none (``NULL``), as in
``0015_apostrophe_look_keys``. Both keep their names, and no new player can
take either. Only names with the capital saltillo change.

Revision ID: 0017_capital_saltillo_look_keys
Revises: 0016_tone_and_dot_look_keys
Create Date: 2026-12-06 09:55:00
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op
from confusable_homoglyphs import confusables

revision = "0017_capital_saltillo_look_keys"
down_revision = "0016_tone_and_dot_look_keys"
branch_labels = None
depends_on = None

players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("look_key", sa.String),
)

#: As this revision defines them (the app's may change later).
ASCII_LOOKS = {"0": "O", "1": "l", "I": "l", "m": "rn", "w": "vv", "W": "VV"}
APOSTROPHE_LOOKS = str.maketrans(
    {
        **dict.fromkeys(
            "\u02b9\u02bb\u02bc\u02bd\u02be\u02c8\u02ca\u02cb\ua78b\ua78c\u07f4\u07f5", "'"
        ),
        "\u02ee": "''",
    }
)
DOT_LOOKS = str.maketrans(dict.fromkeys("\u30fb\ua78f", "\u00b7"))
#: The letter whose look this revision changes.
CHANGED = "\ua78b"


def _latin_look(text: str) -> str:
    looks = {}
    for entry in confusables.is_confusable(text, greedy=True, preferred_aliases=[]) or []:
        glyphs = [glyph["c"] for glyph in entry["homoglyphs"]]
        ascii_glyphs = [glyph for glyph in glyphs if glyph.isascii() and glyph.isalnum()]
        if not entry["character"].isascii() and ascii_glyphs:
            looks[entry["character"]] = ascii_glyphs[0]
    return "".join(looks.get(char, char) for char in text)


def _look_key(name: str) -> str:
    text = _latin_look(unicodedata.normalize("NFKC", name))
    text = text.translate(DOT_LOOKS).translate(APOSTROPHE_LOOKS)
    return "".join(ASCII_LOOKS.get(char, char) for char in text)[:96]


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(players.c.id, players.c.name, players.c.look_key).order_by(players.c.id)
    ).all()
    taken = {old for _id, _name, old in rows if old is not None}
    for player_id, name, old in rows:
        if not any(letter in name for letter in CHANGED):
            continue  # its key is as it was
        new = _look_key(name)
        if new == old:
            continue
        key = None if new in taken else new  # another player's key: none
        connection.execute(players.update().where(players.c.id == player_id).values(look_key=key))
        taken.discard(old)
        if key is not None:
            taken.add(key)


def downgrade() -> None:
    # The earlier keys differ only for names with the capital saltillo: they
    # have none; such a player gets a key again the next time they choose a name.
    connection = op.get_bind()
    for letter in CHANGED:
        connection.execute(
            players.update().where(players.c.name.contains(letter)).values(look_key=None)
        )
