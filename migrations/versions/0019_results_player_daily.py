"""results: an index of a player's Daily games, for recording a Daily result

Recording a Daily game asks whether the player finished another game of
that day's deal before (it is then a known deal, unranked, and holds back
tasks). With only ``ix_results_player_time`` the database read every
result of the player to find out: all 20,000 rows for a player with
20,000 games. This index finds the player's games of one day and rule set
directly, and holds the game id the question compares.

Revision ID: 0019_results_player_daily
Revises: 0018_results_player_games
Create Date: 2026-12-06 14:40:00
"""

from __future__ import annotations

from alembic import op

revision = "0019_results_player_daily"
down_revision = "0018_results_player_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_results_player_daily", "results", ["player_id", "daily_day", "rules", "game_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_results_player_daily", table_name="results")
