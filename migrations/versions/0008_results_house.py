"""results' house rules: the options a game was played with

A result kept the rule set's name alone, so the statistics could not tell
a house game (say, classic with a 20-point pişti) from the preset. The
options over the base are now kept as the record writes them after the
base's name (``players=3 teams=solo pisti=20``; empty for a preset, as for
every result written before).

Revision ID: 0008_results_house
Revises: 0007_daily_deals
Create Date: 2026-12-01 23:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_results_house"
down_revision = "0007_daily_deals"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("house", sa.String(400), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("house")
