"""Server-side sessions: files in the instance folder (the default), or Redis
shared by several app instances.

With Redis, an outage must not turn into stack traces or lost moves: a
session Redis cannot load becomes an :class:`UnavailableSession`, which every
page but ``/healthz`` and static files answers with a 503; a session Redis
cannot save turns the response into that same 503, so the player is never
told a move was played when it was not kept. redis-py reconnects by itself,
so pages work again as soon as Redis is back.
"""

from __future__ import annotations

from pathlib import Path

import redis
from cachelib.file import FileSystemCache
from flask import Flask, Request, Response, request, session
from flask_session import Session
from flask_session.defaults import Defaults
from flask_session.redis import RedisSession, RedisSessionInterface
from redis.backoff import NoBackoff
from redis.retry import Retry

from .web.errors import StoreUnavailable, store_unavailable_page

#: Seconds to wait for Redis to accept a connection, and for an answer.
REDIS_CONNECT_TIMEOUT = 1.0
REDIS_TIMEOUT = 2.0
#: Endpoints that work without a session store.
_STORELESS = {"static", "game.healthz"}

_files = Session()


def init_sessions(app: Flask) -> redis.Redis | None:
    """Give ``app`` its session interface from ``SESSION_BACKEND``, and
    return the Redis client when it uses Redis (else ``None``).

    Creating the client does not connect, so the app starts while Redis is
    still coming up.
    """
    if app.config["SESSION_BACKEND"] == "filesystem":
        folder = app.config["SESSION_FILE_DIR"] or Path(app.instance_path) / "sessions"
        app.config["SESSION_TYPE"] = "cachelib"
        app.config["SESSION_CACHELIB"] = FileSystemCache(
            cache_dir=str(folder), threshold=int(app.config["SESSION_FILE_THRESHOLD"]), mode=0o600
        )
        _files.init_app(app)
        return None
    client = redis.Redis.from_url(
        app.config["REDIS_URL"],
        socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
        socket_timeout=REDIS_TIMEOUT,
        # One immediate retry covers a pooled connection Redis closed when it
        # restarted; more would only delay the 503 of a real outage.
        retry=Retry(NoBackoff(), 1),
    )
    app.session_interface = GuardedRedisSessions(
        app,
        client=client,
        key_prefix=app.config.get("SESSION_KEY_PREFIX", Defaults.SESSION_KEY_PREFIX),
        permanent=app.config["SESSION_PERMANENT"],
        sid_length=app.config.get("SESSION_ID_LENGTH", Defaults.SESSION_ID_LENGTH),
    )
    app.before_request(_refuse_without_store)
    return client


class UnavailableSession(RedisSession):
    """Stands in for a session Redis could not load. Pages may read and
    write it while rendering the 503; it is never saved."""


class GuardedRedisSessions(RedisSessionInterface):
    """Flask-Session's Redis sessions, answering 503 instead of failing
    when Redis cannot be reached."""

    def open_session(self, app: Flask, request: Request) -> RedisSession:
        """Load the session, or return an :class:`UnavailableSession` when
        Redis fails."""
        try:
            return super().open_session(app, request)
        except redis.RedisError as exc:
            app.logger.warning("session store unavailable: %s", exc)
            return UnavailableSession(sid=None)

    def is_null_session(self, obj: object) -> bool:
        """Whether ``obj`` must not be saved (Flask asks before saving)."""
        return isinstance(obj, UnavailableSession) or super().is_null_session(obj)

    def save_session(self, app: Flask, session: RedisSession, response: Response) -> None:
        """Save the session; when Redis fails, turn ``response`` into the
        503 page in place (it keeps the headers already set, such as the
        security headers)."""
        try:
            super().save_session(app, session, response)
        except redis.RedisError as exc:
            app.logger.warning("session store unavailable, nothing saved: %s", exc)
            for name in ("Location", "Content-Disposition", "Set-Cookie"):
                response.headers.pop(name, None)
            page, status, headers = store_unavailable_page()
            response.status_code = status
            response.headers.update(headers)
            response.mimetype = "text/html"
            response.set_data(page)


def _refuse_without_store() -> None:
    if (
        isinstance(session._get_current_object(), UnavailableSession)
        and request.endpoint not in _STORELESS
    ):
        raise StoreUnavailable()
