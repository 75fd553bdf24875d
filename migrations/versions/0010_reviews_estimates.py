"""reviews: the version of the estimates their steps were made with

A review's steps were kept however the estimates were made, so after an
upgrade that changed them a summary showed old figures beside new ones.
Each review now says the version of its steps' estimates; those kept
before (0) are evaluated again when next opened.

Revision ID: 0010_reviews_estimates
Revises: 0009_reviews_created_index
Create Date: 2026-12-05 01:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_reviews_estimates"
down_revision = "0009_reviews_created_index"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("reviews") as batch:
        batch.add_column(sa.Column("estimates", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("reviews") as batch:
        batch.drop_column("estimates")
