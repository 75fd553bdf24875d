"""results: an index that holds a player's games, for their statistics and story

The statistics page adds up every result of its player (games and wins
per rule set and computers, hands, points, piştis, most cards) and the
story's path counts their games against each opponent. With only
``ix_results_player_time`` each read every row of the player's results
from the table: 0.2 s for a player with 20,000 games on SQLite. This index
holds every column those queries read, in the order they group and filter
by, so they read it alone (and the story only its opponents' part).

Revision ID: 0018_results_player_games
Revises: 0017_capital_saltillo_look_keys
Create Date: 2026-12-06 13:40:00
"""

from __future__ import annotations

from alembic import op

revision = "0018_results_player_games"
down_revision = "0017_capital_saltillo_look_keys"
branch_labels = None
depends_on = None

COLUMNS = [
    "player_id", "rules", "levels", "house", "target", "outcome", "hands", "points", "pistis",
    "jack_pistis", "most_cards",
]  # fmt: skip


def upgrade() -> None:
    op.create_index("ix_results_player_games", "results", COLUMNS)


def downgrade() -> None:
    op.drop_index("ix_results_player_games", table_name="results")
