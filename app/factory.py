"""The app factory: ``create_app()`` wires configuration, sessions, CSRF,
security, blueprints, error pages, logging and the command line. Its
names are the package's (``from app import create_app``)."""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from alembic.util.exc import CommandError
from flask import Flask
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from . import config
from .db import init_db
from .jobs import WORKER_COMMAND, stop_while_starting
from .logs import first_line, init_logging
from .sessions import init_sessions
from .web import security, static_files
from .web.templating import PageEnvironment

ROOT = Path(__file__).resolve().parent.parent

csrf = CSRFProtect()
#: ``flask`` commands that need no store: for them the app opens no
#: database and no session store and makes no secret key, so a replay
#: works (and exits 0 or 2) whatever the state of the database.
STORELESS_COMMANDS = frozenset({"replay", "arena"})


class StartupError(click.ClickException):
    """The app cannot start with what it was given to use: the message is
    one line, which ``python -m app.serve`` and every ``flask --app app``
    command print after ``Error:`` without a traceback."""


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the app.

    Configuration comes from :data:`app.config.DEFAULTS`, then ``FLASK_*``
    environment variables (``FLASK_SECRET_KEY`` ...), then ``test_config``.
    Without a ``SECRET_KEY`` a random one is made once and kept in the
    instance folder, so a restart keeps games and forms valid. Sessions are
    files under ``SESSION_FILE_DIR`` (default: the instance folder's
    ``sessions``), or in Redis at ``REDIS_URL`` with
    ``SESSION_BACKEND="redis"``. For a ``flask`` command of
    :data:`STORELESS_COMMANDS`, only the configuration and the commands.

    Raises:
        config.ConfigError: an unknown ``FLASK_*`` variable or an unusable
            value; the message names each.
        StartupError: the database, the session folder or the instance
            folder cannot be used (one line says why).
    """
    app = Flask(
        "app",
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    # A typed address with a slash at its end (/story/) is the page without
    # it, and /review is /review/: both spellings answer, neither is a 404.
    app.url_map.strict_slashes = False
    app.jinja_environment = PageEnvironment
    config.load(app.config, test_config)
    if config.flask_command() in STORELESS_COMMANDS:
        from .cli import register_cli

        register_cli(app)
        return app
    if config.flask_command() == WORKER_COMMAND:
        stop_while_starting()
    if not app.config["SECRET_KEY"]:
        with _starting("the instance folder (for the secret key)"):
            path = Path(app.instance_path) / "secret_key"
            app.config["SECRET_KEY"] = _instance_secret_key(path)
    # These checks run before CSRF's: a Redis outage is a 503 and a
    # malformed form a 400, not a "missing token" or a 500.
    with _starting("the session folder (FLASK_SESSION_FILE_DIR)"):
        redis_client = init_sessions(app)
    with _starting("the database (FLASK_DATABASE_URL)"):
        init_db(app)
    security.init_security(app)
    static_files.init_app(app)
    # Flask-WTF finds the token's secret half in the session, where
    # app.sessions puts it from its own cookie: a visitor's first form works
    # without any stored session.
    csrf.init_app(app)

    from .web import daily, documents, errors, game, house, players, review, story

    app.register_blueprint(game.bp)
    app.register_blueprint(house.bp)
    app.register_blueprint(daily.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(story.bp)
    app.register_blueprint(review.bp)
    app.register_blueprint(documents.bp)
    errors.register(app)
    security.limit_game_creation(app, redis_client)

    from .cli import register_cli

    register_cli(app)
    if not app.testing:
        init_logging(app)
    return app


@contextmanager
def _starting(part: str) -> Iterator[None]:
    """Turn a failure to open ``part`` (its words, naming the setting that
    chooses it) into a one-line :class:`StartupError`; a file-system
    permission's, and a database at a migration this version does not
    know, get what to do about it."""
    try:
        yield
    except (OSError, SQLAlchemyError, CommandError) as error:
        hint = ""
        if isinstance(error, CommandError) and "Can't locate revision" in str(error):
            # A database migrated by a newer release: no way down here.
            hint = (
                "; a newer version of Pişti has upgraded this database: run that "
                "version, or restore the backup taken before the upgrade"
            )
        elif isinstance(error, SQLAlchemyError) and "permission denied for schema" in str(error):
            # PostgreSQL 15 and later let only the database's owner make
            # tables in its public schema.
            hint = (
                "; the user in FLASK_DATABASE_URL makes the tables, so it must own the "
                "database (createdb --owner pisti pisti, or ALTER DATABASE pisti OWNER TO "
                "pisti)"
            )
        elif isinstance(error, OperationalError) and _unreached(error):
            # Not answering at start-up: the server does not wait for it.
            hint = (
                "; start the database server, or correct the host and port in "
                "FLASK_DATABASE_URL: the server does not wait for it, so start it once the "
                "database answers (a systemd unit with Restart=on-failure and RestartSec=5 "
                "tries again by itself)"
            )
        elif isinstance(error, OSError) and error.errno == errno.ENOENT:
            hint = "; correct the path, or make the folders on it first"
        elif (isinstance(error, OSError) and error.errno == errno.ENOSPC) or (
            isinstance(error, SQLAlchemyError) and _disk_full(error)
        ):
            hint = "; free some space on its disk"
        elif isinstance(error, OSError) and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            hint = (
                "; it must be writable by the user the server runs as "
                "(in the container, uid 10001: chown 10001 <folder>)"
            )
        raise StartupError(
            f"the app cannot start: {part} cannot be used: {first_line(error)}{hint}"
        ) from error


#: Words of a driver's error that mean the database server was not reached.
_UNREACHED = (
    "connection refused",
    "could not translate host name",
    "name or service not known",
    "timeout expired",
    "no route to host",
    "network is unreachable",
    "the database system is starting up",
)


def _disk_full(error: SQLAlchemyError) -> bool:
    """Whether ``error`` says the database's disk is full (SQLite's
    "database or disk is full", PostgreSQL's "No space left on device")."""
    said = str(error).lower()
    return "disk is full" in said or "no space left on device" in said


def _unreached(error: OperationalError) -> bool:
    """Whether ``error`` says the database server could not be reached
    (down, starting, or another host or port), not that it refused us."""
    said = str(error).lower()
    return any(words in said for words in _UNREACHED)


def _instance_secret_key(path: Path) -> str:
    """Return the key kept in ``path``, creating it atomically the first time
    (several gunicorn workers may start together)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(secrets.token_hex(32))
        tmp.chmod(0o600)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()
