"""reviews: a hand's review for one seat, its summary job and result

Revision ID: 0004_reviews
Revises: 0003_score_counts
Create Date: 2026-11-29 20:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_reviews"
down_revision = "0003_score_counts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("steps", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("reviews")
