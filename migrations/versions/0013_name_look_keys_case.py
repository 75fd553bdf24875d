"""name keys: look-alike letters in any case and with accents

``0012_name_look_keys`` took each letter that looks like an ASCII one as
that one as it was typed, before the case was folded, so a Cyrillic or
Greek name in capitals (``ИВАН``: В, А and Н look like B, A and H) had
another key than the same name in small letters, and a look-alike with an
accent (a Cyrillic ``ӓ``) was none. Keys now take the letters apart from
their accents and in one case (``app.db.queries.name_key``). Each
player's key is worked out again here, as in ``0012_name_look_keys``:
where two players' names now fold to one key, the player who holds that
key already keeps it (else the first player to sign up takes it), and the
other keeps its old key: both keep their names, and no new player can
take either.

Revision ID: 0013_name_look_keys_case
Revises: 0012_name_look_keys
Create Date: 2026-12-05 19:30:00
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op
from confusable_homoglyphs import confusables

revision = "0013_name_look_keys_case"
down_revision = "0012_name_look_keys"
branch_labels = None
depends_on = None

players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def _latin_look(text: str) -> str:
    looks = {}
    for entry in confusables.is_confusable(text, greedy=True, preferred_aliases=[]) or []:
        glyphs = [glyph["c"] for glyph in entry["homoglyphs"]]
        ascii_glyphs = [glyph for glyph in glyphs if glyph.isascii() and glyph.isalnum()]
        if not entry["character"].isascii() and ascii_glyphs:
            looks[entry["character"]] = ascii_glyphs[0]
    return "".join(looks.get(char, char) for char in text)


def _look(char: str) -> str:
    small = _latin_look(char)
    if small != char:
        return small
    capital = char.upper()
    looks = _latin_look(capital) if len(capital) == 1 else capital
    return looks if looks != capital else char


def _key(name: str) -> str:
    # The key as this revision defines it (the app's may change later).
    key = "".join(map(_look, unicodedata.normalize("NFKD", name).casefold())).casefold()
    key = key.replace("i\u0307", "i").replace("ı", "i")
    return unicodedata.normalize("NFKC", key)[:96]


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(players.c.id, players.c.name, players.c.name_key).order_by(players.c.id)
    ).all()
    taken = {old for _id, _name, old in rows}
    for player_id, name, old in rows:
        new = _key(name)
        if new in taken:  # its own key already, or another player's
            continue
        connection.execute(players.update().where(players.c.id == player_id).values(name_key=new))
        taken.discard(old)
        taken.add(new)


def downgrade() -> None:
    # The keys stay: they are unique, and the earlier code only compares
    # them with the keys of new players' names.
    pass
