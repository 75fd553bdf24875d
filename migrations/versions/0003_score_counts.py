"""score_counts: players per all-time score, for the leaderboard's places

Revision ID: 0003_score_counts
Revises: 0002_story
Create Date: 2026-11-29 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_score_counts"
down_revision = "0002_story"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "score_counts",
        sa.Column("score", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("score"),
    )
    op.execute(
        "INSERT INTO score_counts (score, players) "
        "SELECT score, count(*) FROM players GROUP BY score"
    )


def downgrade() -> None:
    op.drop_table("score_counts")
