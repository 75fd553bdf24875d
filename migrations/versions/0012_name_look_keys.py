"""name keys: a name in another alphabet's look-alike letters is the same name

Players' ``name_key`` now takes each letter beyond ASCII that looks like
an ASCII letter or digit (Unicode's confusables) as that one, so a
Cyrillic ``Рара`` has the key of ``Papa`` (``app.db.queries.name_key``).
Each player's key is worked out again here, as in ``0005_name_keys``:
where two players' names now fold to one key, the player who holds that
key already keeps it (else the first player to sign up takes it), and the
other keeps its old key: both keep their names, and no new player can
take either.

Revision ID: 0012_name_look_keys
Revises: 0011_constraint_names
Create Date: 2026-12-05 16:20:00
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op
from confusable_homoglyphs import confusables

revision = "0012_name_look_keys"
down_revision = "0011_constraint_names"
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


def _key(name: str) -> str:
    # The key as this revision defines it (the app's may change later).
    key = _latin_look(unicodedata.normalize("NFKC", name)).casefold()
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
