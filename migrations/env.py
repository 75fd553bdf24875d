"""Alembic's environment: the app's engine and models (Flask-Migrate).

Online upgrades on PostgreSQL first take a transaction-wide advisory lock,
so replicas starting together run the migrations one after the other; the
second finds the schema up to date, and the revision each found is kept
for its start-up log (``app.db.FOUND``).
"""

from __future__ import annotations

from alembic import context
from flask import current_app
from sqlalchemy import text

from app.db import (
    FOUND,
    models,  # noqa: F401 (registers the tables on the metadata)
)

#: The advisory lock's key ("pisti" in ASCII).
MIGRATION_LOCK = 0x7069737469

db = current_app.extensions["migrate"].db
target_metadata = db.metadata


def run_migrations_offline() -> None:
    """Print the SQL of the migrations (``flask db upgrade --sql``)."""
    context.configure(
        url=db.engine.url.render_as_string(hide_password=False),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the app's database, in one transaction."""
    with db.engine.connect() as connection:
        context.configure(
            connection=connection, target_metadata=target_metadata, render_as_batch=True
        )
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            # What this upgrade starts from, read under the lock: a replica
            # that waited finds what the first one made.
            current_app.extensions[FOUND] = context.get_context().get_current_revision()
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
