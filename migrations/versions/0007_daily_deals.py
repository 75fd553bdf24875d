"""daily deals: each day's Daily seeds, kept once played

A Daily deal's seed is worked out from the secret key and the date; it is
now kept when a Daily game of that day is first started, so a new secret
key no longer changes a day already played (``app.web.daily.daily_seed``).

Revision ID: 0007_daily_deals
Revises: 0006_results_game
Create Date: 2026-12-01 05:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_daily_deals"
down_revision = "0006_results_game"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_deals",
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("rules", sa.String(16), primary_key=True),
        sa.Column("seed", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("daily_deals")
