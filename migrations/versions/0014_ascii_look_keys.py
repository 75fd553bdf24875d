"""look keys: a name in look-alike ASCII letters is the same name

Players get a second key, ``look_key`` (``app.db.queries.look_key``), unique
like ``name_key``: the name as it looks, with Unicode's confusables among
ASCII letters and digits (``I`` and ``1`` as ``l``, ``0`` as ``O``, ``m`` as
``rn``) and ``w`` as ``vv``, case kept, so ``AIi`` (a capital ``I``) is
taken next to ``Ali``. Each player's look key is worked out here, the first
player to sign up first: where two players' names already look alike, the
later one gets none (``NULL``, which a unique column takes more than once).
Both keep their names, and no new player can take either: a look-alike of
the later one's name looks like the earlier one's too. The later one gets a
look key the next time they choose a name.

Revision ID: 0014_ascii_look_keys
Revises: 0013_name_look_keys_case
Create Date: 2026-12-05 19:40:00
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op
from confusable_homoglyphs import confusables

revision = "0014_ascii_look_keys"
down_revision = "0013_name_look_keys_case"
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
    return "".join(ASCII_LOOKS.get(char, char) for char in text)[:96]


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("look_key", sa.String(length=96), nullable=True))
        batch.create_unique_constraint("uq_players_look_key", ["look_key"])
    if op.get_bind().dialect.name == "sqlite":
        # SQLite's copy of the table made its descending index ascending.
        op.drop_index("ix_players_rank", table_name="players")
        op.create_index("ix_players_rank", "players", [sa.literal_column("score DESC"), "id"])
    connection = op.get_bind()
    rows = connection.execute(sa.select(players.c.id, players.c.name).order_by(players.c.id)).all()
    taken = set()
    for player_id, name in rows:
        key = _look_key(name)
        if key in taken:  # looks like an earlier player's name: left without
            continue
        taken.add(key)
        connection.execute(players.update().where(players.c.id == player_id).values(look_key=key))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_look_key", type_="unique")
        batch.drop_column("look_key")
    if op.get_bind().dialect.name == "sqlite":
        op.drop_index("ix_players_rank", table_name="players")
        op.create_index("ix_players_rank", "players", [sa.literal_column("score DESC"), "id"])
