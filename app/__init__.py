"""Pişti web app: ``create_app()`` wires configuration, sessions, CSRF,
blueprints, error pages and the command line."""

from __future__ import annotations

import logging
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from cachelib.file import FileSystemCache
from flask import Flask
from flask_session import Session
from flask_wtf.csrf import CSRFProtect

ROOT = Path(__file__).resolve().parent.parent

csrf = CSRFProtect()
server_session = Session()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the app.

    Configuration comes from the defaults below, then ``FLASK_*`` environment
    variables (``FLASK_SECRET_KEY`` ...), then ``test_config``. Without a
    ``SECRET_KEY`` a random one is made once and kept in the instance folder,
    so a restart keeps games and forms valid. Sessions are files under
    ``SESSION_FILE_DIR`` (default: the instance folder's ``sessions``).
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        SESSION_TYPE="cachelib",
        SESSION_PERMANENT=True,
        SESSION_COOKIE_NAME="pisti_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_FILE_THRESHOLD=100_000,
        # A CSRF token lives as long as the session: a long game never
        # meets an "expired form".
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=16 * 1024,
        PISTI_LEVEL="medium",
    )
    app.config.from_prefixed_env()
    if test_config:
        app.config.update(test_config)

    instance = Path(app.instance_path)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(instance / "secret_key")
    if app.config["SESSION_TYPE"] == "cachelib" and not app.config.get("SESSION_CACHELIB"):
        app.config["SESSION_CACHELIB"] = FileSystemCache(
            cache_dir=str(app.config.get("SESSION_FILE_DIR") or instance / "sessions"),
            threshold=int(app.config["SESSION_FILE_THRESHOLD"]),
            mode=0o600,
        )

    server_session.init_app(app)
    csrf.init_app(app)

    from .web import errors, game

    app.register_blueprint(game.bp)
    errors.register(app)

    from .cli import register_cli

    register_cli(app)
    if not app.debug and not app.testing:
        _log_to_stdout(app)
    return app


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


def _log_to_stdout(app: Flask) -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    app.logger.handlers[:] = [handler]
    app.logger.setLevel(logging.INFO)
