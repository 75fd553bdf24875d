"""reviews: an index on when each was first kept

Past ``FLASK_REVIEWS_KEPT`` reviews, keeping a new one deletes the oldest;
the index finds them without reading the whole table.

Revision ID: 0009_reviews_created_index
Revises: 0008_results_house
Create Date: 2026-12-03 05:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0009_reviews_created_index"
down_revision = "0008_results_house"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_reviews_created_at", "reviews", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_reviews_created_at", table_name="reviews")
