"""constraint names: every constraint named by the schema's convention

The models now name their constraints by a naming convention
(``app.db.NAMING_CONVENTION``): ``pk_<table>``, ``uq_<table>_<column>``,
``fk_<table>_<column>_<referred table>``. The tables made before it had
the names PostgreSQL gives (``players_pkey``, ``players_name_key_key``,
``results_player_id_fkey``) and, on SQLite, none, so a later migration
could not name a constraint it drops on both. PostgreSQL's are renamed
(no table is rewritten); SQLite's tables are copied with the names (batch
mode). The two constraints that had names keep them.

Revision ID: 0011_constraint_names
Revises: 0010_reviews_estimates
Create Date: 2026-12-05 16:10:00
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0011_constraint_names"
down_revision = "0010_reviews_estimates"
branch_labels = None
depends_on = None

#: The convention as this revision knows it (the app's may change later).
CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: Each table's constraints on PostgreSQL: its own name, the convention's.
RENAMED = {
    "players": [
        ("players_pkey", "pk_players"),
        ("players_name_key_key", "uq_players_name_key"),
        ("players_transfer_hash_key", "uq_players_transfer_hash"),
    ],
    "score_counts": [("score_counts_pkey", "pk_score_counts")],
    "player_tokens": [
        ("player_tokens_pkey", "pk_player_tokens"),
        ("player_tokens_player_id_fkey", "fk_player_tokens_player_id_players"),
    ],
    "results": [
        ("results_pkey", "pk_results"),
        ("results_player_id_fkey", "fk_results_player_id_players"),
    ],
    "daily_entries": [
        ("daily_entries_pkey", "pk_daily_entries"),
        ("daily_entries_player_id_fkey", "fk_daily_entries_player_id_players"),
    ],
    "daily_deals": [("daily_deals_pkey", "pk_daily_deals")],
    "weekly_totals": [
        ("weekly_totals_pkey", "pk_weekly_totals"),
        ("weekly_totals_player_id_fkey", "fk_weekly_totals_player_id_players"),
    ],
    "player_tasks": [
        ("player_tasks_pkey", "pk_player_tasks"),
        ("player_tasks_player_id_fkey", "fk_player_tasks_player_id_players"),
    ],
    "story_progress": [
        ("story_progress_pkey", "pk_story_progress"),
        ("story_progress_player_id_fkey", "fk_story_progress_player_id_players"),
    ],
    "reviews": [("reviews_pkey", "pk_reviews")],
}


#: The indexes with a column in descending order, which SQLite's copy of
#: a table would make ascending: they are made again as they were.
DESCENDING = {
    "players": [("ix_players_rank", ["score DESC", "id"])],
    "results": [("ix_results_deal", ["deal_key", "points DESC"])],
    "daily_entries": [
        ("ix_daily_rank", ["day", "rules", "points DESC", "pistis DESC", "finished_at"])
    ],
    "weekly_totals": [("ix_weekly_rank", ["week", "score DESC", "player_id"])],
}


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table in RENAMED:
            # The copy's constraints take the convention's names.
            with op.batch_alter_table(table, recreate="always", naming_convention=CONVENTION):
                pass
            for name, columns in DESCENDING.get(table, []):
                op.drop_index(name, table_name=table)
                op.create_index(name, table, [sa.literal_column(column) for column in columns])
        return
    _rename(lambda old, new: (old, new))


def downgrade() -> None:
    # On SQLite the names stay: they change nothing there, and a database
    # made since this revision had them from 0001 on, as on PostgreSQL.
    if op.get_bind().dialect.name != "sqlite":
        _rename(lambda old, new: (new, old))


def _rename(direction: Callable[[str, str], tuple[str, str]]) -> None:
    """Rename each of :data:`RENAMED`'s PostgreSQL constraints from one of
    its names to the other; one that does not have the first is left: a
    database made since this revision had the convention's names from its
    first migration on (Alembic names the constraints it creates by the
    models' convention)."""
    connection = op.get_bind()
    for table, names in RENAMED.items():
        found = set(
            connection.scalars(
                sa.text("SELECT conname FROM pg_constraint WHERE conrelid = CAST(:t AS regclass)"),
                {"t": table},
            )
        )
        for pair in names:
            before, after = direction(*pair)
            if before in found:
                op.execute(f"ALTER TABLE {table} RENAME CONSTRAINT {before} TO {after}")
