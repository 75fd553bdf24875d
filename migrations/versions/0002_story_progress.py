"""story progress of known players

Revision ID: 0002_story
Revises: 0001
Create Date: 2026-11-29 20:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_story"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "story_progress",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("lesson", sa.String(length=8), nullable=True),
        sa.Column("lesson_step", sa.Integer(), nullable=False),
        sa.Column("beaten", sa.String(length=120), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id"),
    )


def downgrade() -> None:
    op.drop_table("story_progress")
