"""The database: players, results, Daily entries, tasks and leaderboards.

SQLAlchemy 2 through Flask-SQLAlchemy, the schema in Alembic migrations
(Flask-Migrate, ``migrations/``). SQLite in the instance folder by default
(``instance/pisti.db``); PostgreSQL (psycopg 3) when ``DATABASE_URL`` says
so. Migrations run when the app starts (several replicas starting together
on one PostgreSQL take turns on an advisory lock, on one SQLite file on a
file lock), or by hand with
``flask --app app db upgrade``; the ``flask db`` commands themselves find
the schema as it is (``db current`` upgrades nothing). Game state stays in
the session; only finished games reach the database.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import flask_migrate
import psycopg
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from flask import Flask, current_app, has_request_context
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from psycopg.abc import RV, PQGen
from psycopg.connection import _WAIT_INTERVAL
from psycopg.rows import TupleRow
from sqlalchemy import MetaData, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase

from ..config import flask_command

MIGRATIONS = Path(__file__).resolve().parent.parent.parent / "migrations"
#: The key of ``app.extensions`` that holds the schema's revision before
#: and after the app's start-up upgraded it (:func:`init_db`).
SCHEMA = "pisti.schema"
#: The key of ``app.extensions`` where the migrations' environment
#: (``migrations/env.py``) leaves the revision it found under its lock.
FOUND = "pisti.schema.found"
#: Milliseconds a statement waits for another transaction's locks before
#: giving up (SQLite's ``busy_timeout``, PostgreSQL's ``lock_timeout``),
#: so a transaction left open (an operator's ``psql`` session, say) costs
#: the pages that need its rows a 503, not a server thread each for as
#: long as it stays open. On PostgreSQL the migrations wait as long as
#: it takes (``migrations/env.py``).
LOCK_WAIT_MS = 10_000
#: Milliseconds PostgreSQL runs one statement before cancelling it
#: (``statement_timeout``): a lock waited for, then the work. The
#: migrations have no limit (``migrations/env.py``).
STATEMENT_MS = LOCK_WAIT_MS + 5_000
#: Milliseconds a page waits for each answer of PostgreSQL, 5 s more than
#: ``STATEMENT_MS`` so that a working server cancels a statement first: a
#: server that stopped (frozen, ``SIGSTOP``, its machine swapping) cancels
#: nothing, and its connection stays open, so the page closes it and
#: answers 503 (:class:`_AnsweredConnection`).
ANSWER_WAIT_MS = STATEMENT_MS + 5_000
#: Seconds a new connection to PostgreSQL may take (libpq's
#: ``connect_timeout``; at least 2).
CONNECT_WAIT_S = 5


#: How the schema names its constraints and indexes (SQLAlchemy's naming
#: convention), so a migration can name what it drops or changes on
#: SQLite and PostgreSQL alike; migration ``0011_constraint_names`` gave
#: the tables made before it these names.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Base of the models (:mod:`app.db.models`); their metadata names
    constraints by :data:`NAMING_CONVENTION`."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()


def database_url(app: Flask) -> str:
    """Return the SQLAlchemy URL of ``DATABASE_URL`` (``postgresql://`` is
    taken as psycopg 3), or SQLite's ``instance/pisti.db`` when it is unset."""
    url = app.config["DATABASE_URL"]
    if not url:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{Path(app.instance_path) / 'pisti.db'}"
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def shown_url() -> str:
    """The app's database as logs and messages show it: the engine's URL (a
    relative SQLite path made absolute, in the instance folder), its
    password as ``***``. Needs an app context."""
    return db.engine.url.render_as_string(hide_password=True)


def init_db(app: Flask) -> None:
    """Connect ``app`` to its database and bring the schema up to date.

    Raises:
        sqlalchemy.exc.OperationalError: the database cannot be reached.
        FileNotFoundError: a SQLite database's folder does not exist.
    """
    url = database_url(app)
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    options: dict[str, Any] = {"pool_pre_ping": True}
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        options.update(
            pool_size=5, max_overflow=10, connect_args={"connect_timeout": CONNECT_WAIT_S}
        )
    if parsed.get_backend_name() == "postgresql" or parsed.database not in (None, "", ":memory:"):
        # A page that finds every pooled connection taken waits for one as
        # long as for an answer (not SQLAlchemy's 30 s), so it gives up no
        # later than a page whose connection froze (ANSWER_WAIT_MS, then
        # CONNECT_WAIT_S to connect again): a 503 either way. (An in-memory
        # SQLite database has one connection and no pool to wait on.)
        options["pool_timeout"] = ANSWER_WAIT_MS / 1000
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", options)
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            event.listen(db.engine, "do_connect", _answered_connection)
            event.listen(db.engine, "connect", _postgresql_settings)
            app.extensions[SCHEMA] = _upgrade()
            return
        event.listen(db.engine, "connect", _sqlite_pragmas)
        # Two servers starting on one SQLite file take turns, as replicas
        # on PostgreSQL do on the advisory lock (migrations/env.py).
        database = db.engine.url.database
        if not database or database == ":memory:":
            app.extensions[SCHEMA] = _upgrade()
            return
        file = Path(database)
        if not file.parent.is_dir():
            raise FileNotFoundError(
                errno.ENOENT, "the SQLite database's folder does not exist", str(file.parent)
            )
        with migration_lock(database):
            if not file.exists():
                # Players' names and results: for the server's user only, as
                # the sessions and the secret key are. Made empty (an empty
                # file is an empty SQLite database) before SQLite opens it,
                # which gives its -wal and -shm files the database's mode. A
                # file made by its owner keeps the mode the owner gave it.
                os.close(os.open(file, os.O_CREAT | os.O_WRONLY, 0o600))
            app.extensions[SCHEMA] = _upgrade()


#: The SQLite files whose migration lock this thread holds
#: (:func:`migration_lock`).
_held = threading.local()


@contextmanager
def migration_lock(database: str) -> Iterator[None]:
    """Take turns with every other process migrating the SQLite file
    ``database``, on the file lock ``<database>.migrate-lock``, as
    PostgreSQL's replicas do on an advisory lock (``migrations/env.py``):
    two servers starting at once, or a server and ``flask --app app db
    upgrade``. Re-entrant in one thread: the start-up's upgrade takes it
    around the migrations' environment, which takes it for the ``db``
    commands."""
    held: set[str] = _held.__dict__.setdefault("databases", set())
    if database in held:
        yield
        return
    with open(f"{database}.migrate-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        held.add(database)
        try:
            yield
        finally:
            held.discard(database)


def _schema_command() -> bool:
    """Whether the ``flask`` command is loading the app for one of
    Flask-Migrate's ``flask db`` commands (``current``, ``history``,
    ``upgrade``, ``downgrade``...), which work on the schema themselves."""
    return flask_command() == "db"


def _upgrade() -> tuple[str | None, str | None]:
    """Bring the schema to the newest migration; return its revision
    before and after (``None``: an empty database). For Flask-Migrate's
    ``flask db`` commands (:func:`_schema_command`), which work on the
    schema themselves, nothing is upgraded: ``db current`` reports and
    ``db downgrade`` goes down from the schema as it is.

    Raises:
        alembic.util.exc.CommandError: the database is at a revision this
            version does not have (a newer release upgraded it); the
            engine's pooled connections are closed first, as the app will
            not start.
        sqlalchemy.exc.SQLAlchemyError: a migration failed (a user that
            may not make tables); the pooled connections are closed too.
    """
    before = _revision()
    if _schema_command():
        _tell_schema_command(before)
        return before, before
    if before is not None:
        try:
            # Flask-Migrate would log this and exit the process.
            ScriptDirectory(str(MIGRATIONS)).get_revision(before)
        except CommandError:
            db.engine.dispose()
            raise
    try:
        flask_migrate.upgrade(directory=str(MIGRATIONS))
    except Exception:
        # The app will not start (a user that may not make tables, say):
        # its pooled connections are closed, not left to the collector.
        db.engine.dispose()
        raise
    # Another replica may have upgraded while this one waited for the lock.
    before = current_app.extensions.pop(FOUND, before)
    return before, _revision()


def _tell_schema_command(before: str | None) -> None:
    """For a ``flask db`` command: say on standard error which database it
    works on and the revision it is at, and let Alembic's own lines for each
    migration it runs ("Running upgrade 0008_… -> 0009_…") through, so an
    upgrade by hand shows what it did."""
    click.echo(f"Database {shown_url()}: {_schema_state(before)}", err=True)
    migrations = logging.getLogger("alembic.runtime.migration")
    _plain_lines(migrations, lambda record: record.getMessage().startswith("Running "))
    migrations.setLevel(logging.INFO)
    # Flask-Migrate's "Error: Can't locate revision ..." too, not on stdout.
    _plain_lines(logging.getLogger("flask_migrate"), lambda record: True)


def _schema_state(revision: str | None) -> str:
    """Where a schema at ``revision`` (``None``: empty) stands against this
    version's newest migration, in words: ``"at 0009_…, the newest"``."""
    scripts = ScriptDirectory(str(MIGRATIONS))
    newest = scripts.get_current_head()
    if revision is None:
        return f"empty; this version's newest schema is {newest}"
    if revision == newest:
        return f"at {revision}, the newest"
    try:
        scripts.get_revision(revision)
    except CommandError:
        return f"at {revision}, which this version does not know (a newer version's)"
    return f"at {revision}; this version's newest is {newest}"


def _plain_lines(log: logging.Logger, wanted: Callable[[logging.LogRecord], bool]) -> None:
    """Send ``log``'s ``wanted`` records to standard error as plain lines
    (once), not also as the server's JSON lines on standard output."""
    if not any(getattr(h, "name", None) == _SCHEMA_LINES for h in log.handlers):
        said = logging.StreamHandler(sys.stderr)
        said.set_name(_SCHEMA_LINES)
        said.setFormatter(logging.Formatter("%(message)s"))
        said.addFilter(wanted)
        log.addHandler(said)
    log.propagate = False


#: The name of the handler of :func:`_tell_schema_command`.
_SCHEMA_LINES = "pisti-schema-command"


def _revision() -> str | None:
    with db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets pages read while a result is written; writers wait for each
    # other instead of failing; foreign keys make "forget me" cascade.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={LOCK_WAIT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # A large history: keep hot index pages in memory (64 MiB a connection)
    # and read the rest through the OS page cache without copying.
    cursor.execute("PRAGMA cache_size=-65536")
    cursor.execute("PRAGMA mmap_size=268435456")
    cursor.close()


def _postgresql_settings(connection: Any, _record: Any) -> None:
    # Set for the session, outside any transaction the app makes.
    with connection.cursor() as cursor:
        cursor.execute(f"SET lock_timeout = {LOCK_WAIT_MS}")
        cursor.execute(f"SET statement_timeout = {STATEMENT_MS}")
    connection.commit()


class _AnsweredConnection(psycopg.Connection[TupleRow]):
    """A psycopg connection on which a page waits for the server at most
    :data:`ANSWER_WAIT_MS` for each answer, then closes the connection and
    raises :class:`psycopg.OperationalError` (a 503 page; the pool drops
    the connection). Outside a request (the migrations at start-up, the
    ``flask`` commands, the review jobs) the waits are PostgreSQL's own.

    It uses psycopg's own wait with a timeout (``Connection.wait``, whose
    ``_WaitTimeout`` and ``_WAIT_INTERVAL`` are internal names: the lock
    pins psycopg, and a test freezes a server to check)."""

    def wait(
        self, gen: PQGen[RV], interval: float = _WAIT_INTERVAL, timeout: float | None = None
    ) -> RV:
        """Consume ``gen``, psycopg's exchange with the server, as
        :meth:`psycopg.Connection.wait` does, within :data:`ANSWER_WAIT_MS`
        during a request.

        Raises:
            psycopg.OperationalError: no answer in time (the connection is
                closed).
        """
        if timeout is not None or not has_request_context():
            return super().wait(gen, interval, timeout)
        try:
            return super().wait(gen, interval, ANSWER_WAIT_MS / 1000)
        except psycopg.errors._WaitTimeout:
            self.close()
            raise psycopg.OperationalError(
                f"the database server did not answer in {ANSWER_WAIT_MS} ms"
            ) from None


def _answered_connection(
    _dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]
) -> _AnsweredConnection:
    # SQLAlchemy's psycopg dialect would call psycopg.connect().
    return _AnsweredConnection.connect(*cargs, **cparams)


def dialect_insert(engine: Engine) -> Any:
    """Return the ``insert`` of ``engine``'s dialect (PostgreSQL's or
    SQLite's), which offers ``on_conflict_do_nothing/update``."""
    return postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
