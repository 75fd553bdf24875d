"""Copy every row of another Pişti database into the app's own, empty one:
``flask --app app copy-database FROM``, for a host moving from SQLite to
PostgreSQL when the club grows (or back). The two must be at the same
migration; the copy is one transaction, so it lands whole or not at all."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic.migration import MigrationContext
from sqlalchemy import Connection, Table, create_engine, func, select, text
from sqlalchemy.engine import make_url

from . import db

#: Rows read and written at a time (a kept review is up to some 20 KB).
BATCH = 500


class CopyRefused(Exception):
    """The copy cannot be made; the message says why, in one line, and
    nothing was written."""


def source_url(given: str, instance_path: str) -> str:
    """The SQLAlchemy URL of the database ``given`` names: a URL
    (``postgresql://`` taken as psycopg 3; a relative SQLite path under
    ``instance_path``, as ``FLASK_DATABASE_URL`` is read) or the path of a
    SQLite file.

    Raises:
        CopyRefused: a SQLite file that does not exist (it would be made
            empty), or a URL that is neither SQLite nor PostgreSQL.
    """
    url = make_url(given if "://" in given else f"sqlite:///{Path(given).resolve()}")
    backend = url.get_backend_name()
    if backend == "postgresql":
        return url.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    if backend != "sqlite":
        raise CopyRefused(f"{given!r} is not a SQLite file or a postgresql:// URL")
    file = Path(instance_path) / (url.database or "")
    if not url.database or not file.is_file():
        raise CopyRefused(f"no SQLite database at {file}")
    return url.set(database=str(file)).render_as_string(hide_password=False)


@contextmanager
def _source(url: str) -> Iterator[Connection]:
    """A connection to the database at ``url``, in one read transaction
    (a consistent view while its old server still writes), closed after."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection, connection.begin():
            yield connection
    finally:
        engine.dispose()


def copy_database(url: str) -> dict[str, int]:
    """Copy every row of every table of the database at ``url`` (a URL as
    :func:`source_url` returns) into the app's database; return the rows
    copied by table name. On PostgreSQL the ids counted up by the database
    (players, results, tasks) go on after the highest copied. Needs an app
    context.

    Raises:
        CopyRefused: the two databases are one, the source is at another
            migration than the app's, or the app's database holds rows.
        sqlalchemy.exc.SQLAlchemyError: the source cannot be read or the
            app's database written (nothing is written then).
    """
    target = db.engine
    shown = make_url(url).render_as_string(hide_password=True)
    if make_url(url) == target.url:
        raise CopyRefused("the database to copy from is the app's own (FLASK_DATABASE_URL)")
    tables = db.metadata.sorted_tables  # players before the rows that point at them
    with _source(url) as source:
        theirs = MigrationContext.configure(source).get_current_revision()
        with target.connect() as connection:
            ours = MigrationContext.configure(connection).get_current_revision()
        if theirs != ours:
            raise CopyRefused(
                f"{shown} is at migration {theirs or 'none (empty)'}, this version's database "
                f"at {ours}: first run this version on it once (FLASK_DATABASE_URL=<it> "
                "flask --app app db upgrade)"
            )
        copied: dict[str, int] = {}
        with target.begin() as connection:
            for table in tables:
                if connection.scalar(select(func.count()).select_from(table)):
                    raise CopyRefused(
                        f"the app's database {target.url.render_as_string(hide_password=True)} "
                        f"is not empty ({table.name} has rows): copy into a new database"
                    )
            for table in tables:
                rows = source.execution_options(stream_results=True).execute(select(table))
                copied[table.name] = 0
                for batch in rows.mappings().partitions(BATCH):
                    connection.execute(table.insert(), [dict(row) for row in batch])
                    copied[table.name] += len(batch)
                if target.dialect.name == "postgresql":
                    _count_on(connection, table)
    return copied


def _count_on(connection: Connection, table: Table) -> None:
    """Have PostgreSQL's sequence of ``table``'s own id (a one-column
    primary key it counts up: players, results, tasks) go on after the
    highest id copied; a table without one is left alone."""
    key = list(table.primary_key.columns)
    if len(key) != 1:
        return
    sequence = connection.scalar(
        text("SELECT pg_get_serial_sequence(:table, :column)"),
        {"table": table.name, "column": key[0].name},
    )
    if sequence is not None:
        connection.execute(
            select(func.setval(sequence, func.coalesce(func.max(key[0]), 0) + 1, False))
        )
