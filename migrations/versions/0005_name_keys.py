"""name keys: names unique regardless of look-alike spellings too

Players' ``name_key`` was ``name.casefold()``; it is now the name in
Unicode's compatibility form (NFKC), case-folded, with the Turkish ``İ``
and ``ı`` folded to ``i`` (``app.db.queries.name_key``). Each player's key
is worked out again here. Where two players' names now fold to one key,
the player who holds that key already keeps it (else the first player
to sign up takes it), and the other keeps its old key: both keep their
names, and no new player can take either.

Revision ID: 0005_name_keys
Revises: 0004_reviews
Create Date: 2026-11-30 21:10:00
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0005_name_keys"
down_revision = "0004_reviews"
branch_labels = None
depends_on = None

players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def _key(name: str) -> str:
    # The key as this revision defines it (the app's may change later).
    key = unicodedata.normalize("NFKC", name).casefold()
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
    # them with the case-folded names of new players.
    pass
