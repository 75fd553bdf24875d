"""The schema comes from the migrations, matches the models, and running
the migrations again (at every start, or by hand) keeps the data."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, select

from app import create_app
from app.db import db, queries
from app.db.models import Player


def test_the_migrated_schema_matches_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_a_restart_and_the_upgrade_command_keep_the_data(app, database_url, tmp_path):
    with app.app_context():
        queries.create_player("Kalıcı")
    again = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "db-tests-secret",
            "SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "DATABASE_URL": database_url,
        }
    )
    result = again.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with again.app_context():
        assert db.session.scalar(select(Player.name)) == "Kalıcı"
        assert db.session.scalar(select(func.count()).select_from(Player)) == 1
        db.session.remove()
        db.engine.dispose()
