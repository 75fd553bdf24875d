"""results by game: an index on ``results.game_id``

The final page asks whether a game is recorded for anyone
(``app.db.queries.result_holder``) before it records a result the database
could not take when the game ended.

Revision ID: 0006_results_game
Revises: 0005_name_keys
Create Date: 2026-12-01 03:20:00
"""

from __future__ import annotations

from alembic import op

revision = "0006_results_game"
down_revision = "0005_name_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_results_game", "results", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_results_game", table_name="results")
