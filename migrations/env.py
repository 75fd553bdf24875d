"""Alembic's environment: the app's engine and models (Flask-Migrate).

Online upgrades on PostgreSQL first take a transaction-wide advisory lock,
on an SQLite file its file lock (``app.db.migration_lock``), so replicas
starting together, or a server starting while ``flask --app app db
upgrade`` runs, run the migrations one after the other; the second finds
the schema up to date, and the revision each found is kept for its
start-up log (``app.db.FOUND``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

from alembic import context
from flask import current_app
from sqlalchemy import Connection, text

from app.db import (
    FOUND,
    migration_lock,
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


def _sqlite_turn(connection: Connection) -> AbstractContextManager[None]:
    """The SQLite file's migration lock (none for PostgreSQL, whose lock is
    taken in the transaction, nor for a database in memory)."""
    database = connection.engine.url.database
    if connection.dialect.name != "sqlite" or not database or database == ":memory:":
        return nullcontext()
    return migration_lock(database)


@contextmanager
def _sqlite_foreign_keys_off(connection: Connection) -> Iterator[None]:
    """On SQLite, foreign keys unenforced while the migrations run, and
    enforced again after: a batch migration rebuilds a table by copying
    it, dropping the old one and renaming the copy, and dropping
    ``players`` with them enforced deletes every row that refers to a
    player (``ON DELETE CASCADE``). SQLite takes this setting only outside
    a transaction."""
    if connection.dialect.name != "sqlite":
        yield
        return
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    connection.commit()  # so that the migrations' transaction is their own
    try:
        yield
    finally:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.commit()


def run_migrations_online() -> None:
    """Run the migrations on the app's database, in one transaction."""
    with (
        db.engine.connect() as connection,
        _sqlite_turn(connection),
        _sqlite_foreign_keys_off(connection),
    ):
        context.configure(
            connection=connection, target_metadata=target_metadata, render_as_batch=True
        )
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                # Waiting for another replica's migrations, or for a table
                # the app's pages are reading, is no reason to give up, nor
                # is a migration's long work on a large table.
                connection.execute(text("SET LOCAL lock_timeout = 0"))
                connection.execute(text("SET LOCAL statement_timeout = 0"))
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
