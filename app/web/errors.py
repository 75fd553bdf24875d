"""Error pages: every error is a page that says what went wrong, never a
stack trace."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

import redis
from flask import Flask, current_app, render_template, request
from flask_babel import format_timedelta, lazy_gettext
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm.exc import ObjectDeletedError, StaleDataError
from werkzeug.exceptions import (
    HTTPException,
    MethodNotAllowed,
    ServiceUnavailable,
)

from app.db import db
from app.logs import REQUEST_LIMIT_KEY, first_line
from app.searches import SearchBusy, SearchWorkerDied

from .security import PLAYING, UnknownHost

MESSAGES = {
    400: lazy_gettext("The request was not understood."),
    404: lazy_gettext("There is no page here."),
    405: lazy_gettext("That address does not take this kind of request."),
    409: lazy_gettext(
        "That page was out of date: the game went on in another tab or window. Nothing was "
        "changed; open the game again to see it as it stands."
    ),
    413: lazy_gettext("That request was too large."),
    429: lazy_gettext(
        "Too many new games from your address in a short time. Wait a minute, then try again."
    ),
    500: lazy_gettext(
        "Something went wrong on our side. Your game is safe; go back and try again."
    ),
    503: lazy_gettext(
        "The game store is not answering right now. Nothing was played and your game is kept; "
        "try again in a few seconds."
    ),
}
#: A store that failed during or after a change may have kept it anyway (a
#: write that timed out can still complete).
STORE_UNSURE_MESSAGE = lazy_gettext(
    "The game store did not answer in time, so your last move may or may not have been kept. "
    "Reload the page in a few seconds to see where your game stands."
)
#: The same outage for a visitor with no game stored.
STORE_NO_GAME_MESSAGE = lazy_gettext(
    "The game store is not answering right now, so nothing was changed. Try again in a few seconds."
)
DATABASE_MESSAGE = lazy_gettext(
    "The results database is not answering right now. Your game is kept; reload the page in a "
    "few seconds."
)
#: The same outage for a visitor with no game stored.
DATABASE_NO_GAME_MESSAGE = lazy_gettext(
    "The results database is not answering right now. Reload the page in a few seconds."
)
HOST_MESSAGE = lazy_gettext(
    "This site does not answer to the host name in this address. Check the address; if you "
    "run this server, its log says why the name was refused."
)
PLAY_LIMIT_MESSAGE = lazy_gettext(
    "Too many moves in a short time; this one was not made. Wait a moment, then try again."
)
#: A play over the limit of its client address (``PLAY_ADDRESS_LIMIT``): the
#: player's own game was not too fast, the address's games together were.
PLAY_ADDRESS_LIMIT_MESSAGE = lazy_gettext(
    "Many games are being played from your network right now (a school, an office or a "
    "café shares one address); this move was not made. Wait a moment, then try again."
)
REQUEST_LIMIT_MESSAGE = lazy_gettext(
    "Too many pages asked for in a short time. Wait a moment, then try again."
)
REVIEW_LIMIT_MESSAGE = lazy_gettext(
    "Too many hands sent for review from your address in a short time. Wait a minute, then "
    "try again."
)
SEARCH_BUSY_MESSAGE = lazy_gettext(
    "The computer players are thinking for many games right now. Nothing was played; try "
    "again in a few seconds."
)
SEARCH_DIED_MESSAGE = lazy_gettext(
    "The computer players' thinking was cut short on the server. Nothing was played; try "
    "again in a few seconds."
)
CSRF_MESSAGE = lazy_gettext(
    "This form was missing its security token or it did not match (it may come from another "
    "site). Nothing was played; reload the page and try again."
)
CSRF_NO_COOKIE_MESSAGE = lazy_gettext(
    "Your browser sent no cookie back: this site keeps your game, and the check of its "
    "forms, in cookies. Nothing was played; allow cookies for this site, then reload the "
    "page and try again. In a chat app's own browser, open the page in your phone's browser "
    "instead (the app's menu has 'Open in browser')."
)
#: A page at least this old (seconds since its form's token was made) whose
#: form comes back with no cookie was most likely left open until the
#: browser let the cookies go (the session's lifetime, and a little more,
#: after the last change: :func:`app.sessions.cookie_seconds`), rather than
#: shown by a browser that keeps no cookies.
OLD_PAGE_SECONDS = 24 * 3600
CSRF_OLD_PAGE_MESSAGE = lazy_gettext(
    "This page was opened %(age)s ago, and your browser sent no cookie back with its form: a "
    "browser lets this site's cookies go %(kept)s after the last move, and the game with them. "
    "Nothing was played; reload the page to go on."
)
CSRF_NO_REFERRER_MESSAGE = lazy_gettext(
    "Your browser did not say which page this form was sent from (its Referer header), which "
    "this site checks over HTTPS. Nothing was played; allow it for this site, reload the page "
    "and try again."
)
#: Flask-WTF's reason for a form over HTTPS without a Referer header.
NO_REFERRER = "The referrer header is missing."
CSRF_OVER_HTTP_MESSAGE = lazy_gettext(
    "This site keeps its cookies for HTTPS only, and this page came over plain HTTP, so its "
    "form could not be checked. Nothing was played; open the site with https:// and try again."
)
#: Pages that answer a body too large for their own form, by endpoint
#: (a record upload's says what a record is); other 413s get the error page.
TOO_LARGE_PAGES: dict[str, Callable[[], tuple[str, int]]] = {}
#: Seconds a client is asked to wait after a 503.
RETRY_AFTER = 5


def _page_age(app: Flask) -> int:
    """Seconds since the posted form's CSRF token was made (when its page
    was shown), 0 for a form without one of this site's tokens. Flask-WTF's
    tokens are signed with the time they were made."""
    secret = app.config.get("WTF_CSRF_SECRET_KEY") or app.secret_key
    token = request.form.get("csrf_token", "")
    if not secret:
        return 0
    try:
        _, made = URLSafeTimedSerializer(secret, salt="wtf-csrf-token").loads(
            token, return_timestamp=True
        )
    except BadData:
        return 0
    return max(0, int(time.time() - made.timestamp()))


def _game_cookies(app: Flask) -> bool:
    """Whether the request carries the CSRF cookie or the session's (the
    two the browser lets go together, a month after the last move)."""
    from ..sessions import CSRF_COOKIE

    names = (CSRF_COOKIE, app.config["SESSION_COOKIE_NAME"])
    return any(name in request.cookies for name in names)


def _old_page_message(app: Flask, age: int) -> str:
    """:data:`CSRF_OLD_PAGE_MESSAGE` for a page ``age`` seconds old."""
    return str(CSRF_OLD_PAGE_MESSAGE) % {
        "age": format_timedelta(timedelta(seconds=age), "day"),
        "kept": format_timedelta(app.permanent_session_lifetime, "minute"),
    }


def database_gone(error: Exception) -> None:
    """Log that the database did not answer (``error``: SQLAlchemy's
    ``SQLAlchemyError`` or the pool's timeout, its first line only) and roll
    this request's transaction back, so the page can go on without the
    database's part (a result recorded later, rows left out)."""
    current_app.logger.warning("database unavailable: %s", first_line(error))
    db.session.rollback()


def has_game() -> bool:
    """Whether the request's session holds a game; true when the session
    could not be read (the game may well be there)."""
    # Imported here: the session store imports this module's pages.
    from . import store

    try:
        return store.has_table()
    except redis.RedisError:
        return True


def error_page(status: int, message: object, game: bool | None = None) -> str:
    """Return the error page (HTML) of ``status`` saying ``message``; needs
    a request context. It leads back to the game when ``game`` says there
    is one (by default, when the session holds one: :func:`has_game`),
    else home."""
    game = has_game() if game is None else game
    return render_template("errors/error.html", status=status, message=message, has_game=game)


class StoreUnavailable(ServiceUnavailable):
    """The session store (Redis) could not load the session, before the request
    changed anything: a 503."""


#: The setting of each rate limit (by its scope in :mod:`.security`), as
#: the request line of a request it refused names it.
LIMIT_SETTINGS = {
    "new-game": "FLASK_NEW_GAME_LIMIT",
    "review-keeping": "FLASK_NEW_GAME_LIMIT",
    "ranking": "FLASK_RANKING_LIMIT",
    "play": "FLASK_PLAY_LIMIT",
    "play-address": "FLASK_PLAY_ADDRESS_LIMIT",
}


def note_limit(error: RateLimitExceeded) -> None:
    """Have the request's log line name the setting of the limit that
    refused it (``limit``), so a host knows which one to raise."""
    scope = str(error.limit.scope)  # every limit of security.py has a scope
    request.environ[REQUEST_LIMIT_KEY] = LIMIT_SETTINGS.get(scope, scope)


def rate_limited_page(error: RateLimitExceeded) -> tuple[str, int, dict[str, str]]:
    """Return the 429 page for a request over one of the rate limits, as
    ``(html, status, headers)`` with ``Retry-After`` in seconds; needs a
    request context. (A play or next hand over the limit, with a game
    stored, gets the game's page instead, the table or the hand's score:
    :mod:`app.web.game`.) The request's log line names the limit
    (:func:`note_limit`)."""
    note_limit(error)
    if error.limit.scope == "new-game":
        message = MESSAGES[429]
    elif error.limit.scope == "review-keeping":
        message = REVIEW_LIMIT_MESSAGE
    elif request.endpoint in PLAYING:
        message = play_limit_message(error)
    else:
        message = REQUEST_LIMIT_MESSAGE
    return error_page(429, message), 429, retry_after(error)


def play_limit_message(error: RateLimitExceeded) -> str:
    """What a player is told when a play is over a limit: their game's own
    (``PLAY_LIMIT``), or their address's (``PLAY_ADDRESS_LIMIT``), which
    other players behind the same address used up."""
    if error.limit.scope == "play-address":
        return str(PLAY_ADDRESS_LIMIT_MESSAGE)
    return str(PLAY_LIMIT_MESSAGE)


def retry_after(error: RateLimitExceeded) -> dict[str, str]:
    """The ``Retry-After`` header of a 429 for ``error``: the seconds until
    the limit's window ends."""
    return {"Retry-After": str(error.limit.limit.get_expiry())}


def store_unavailable_page(before_any_change: bool = False) -> tuple[str, int, dict[str, str]]:
    """Return the 503 page for a session store that cannot be reached or
    written, as ``(html, status, headers)``; needs a request context.

    ``before_any_change`` says the store failed before the request could
    change anything (loading the session, or a write that left the stored
    one as it was), so the page may say nothing was played; otherwise it
    says the move may or may not have been kept. A visitor with no game
    stored is told only that nothing was changed, and sent home.
    """
    # Imported here: the session store imports this module's pages.
    from . import store

    if store.holds_nothing():
        page = render_template(
            "errors/error.html", status=503, message=STORE_NO_GAME_MESSAGE, has_game=False
        )
    else:
        message = MESSAGES[503] if before_any_change else STORE_UNSURE_MESSAGE
        page = render_template("errors/error.html", status=503, message=message)
    return page, 503, {"Retry-After": str(RETRY_AFTER)}


class StoreWriteFailed(Exception):
    """The file store could not write a session (a read-only or full disk):
    the stored one is as it was, so nothing of the change was kept."""


class StoreNotReached(redis.ConnectionError):
    """No connection to Redis could be had before a write was sent (refused,
    no such host, or no answer to the connect), so nothing of it can have
    been stored: raised by the session store before it sends a write."""


def never_reached(error: redis.RedisError) -> bool:
    """Whether ``error`` says the write never reached Redis
    (:class:`StoreNotReached`). Any other failure, a timeout or a connection
    lost midway, may come after a write landed."""
    return isinstance(error, StoreNotReached)


def stale_page() -> tuple[str, int, dict[str, str]]:
    """Return the 409 page for a change made from an out-of-date copy of
    the session, as ``(html, status, headers)``; needs a request context."""
    return error_page(409, MESSAGES[409]), 409, {}


def register(app: Flask) -> None:
    """Register the error pages on ``app``."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        # Imported here: the session store imports this module's pages.
        from ..sessions import CSRF_COOKIE

        message = CSRF_MESSAGE
        secure_only = app.config["SESSION_COOKIE_SECURE"] and not request.is_secure
        # A form of this site (one from another site says it is cross-site).
        ours = request.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")
        age = _page_age(app)
        if secure_only and CSRF_COOKIE not in request.cookies:
            # The browser keeps Secure cookies from plain HTTP pages: a
            # setting meant for a site served over HTTPS (or a proxy that
            # does not say it is, see FLASK_TRUSTED_PROXIES).
            app.logger.warning(
                "a form came over plain HTTP while FLASK_SESSION_COOKIE_SECURE is true: "
                "its cookies were not sent back"
            )
            message = CSRF_OVER_HTTP_MESSAGE
        elif ours and not _game_cookies(app) and age >= OLD_PAGE_SECONDS:
            # A page of this site left open (a laptop closed, a tab put
            # aside) until the browser let the game's cookies go; others
            # (the language) may be kept longer.
            app.logger.warning("form refused: no CSRF cookie sent back, its page %d s old", age)
            message = _old_page_message(app, age)
        elif ours and not request.cookies:
            # A form of this site came back with no cookie at all: the
            # browser keeps none (a form from another site has none
            # either, SameSite, but says it is cross-site).
            app.logger.warning("form refused: no cookie sent back (%s)", error.description)
            message = CSRF_NO_COOKIE_MESSAGE
        else:
            # Flask-WTF's reason ("The CSRF token is missing.", "The
            # referrer does not match the host.", ...): a proxy that drops
            # a header or says another host shows here.
            app.logger.warning("form refused: %s", error.description)
            if error.description == NO_REFERRER:
                message = CSRF_NO_REFERRER_MESSAGE
        return error_page(400, message), 400

    app.register_error_handler(RateLimitExceeded, rate_limited_page)

    @app.errorhandler(UnknownHost)
    def unknown_host(error: UnknownHost) -> tuple[str, int]:
        return error_page(400, HOST_MESSAGE), 400

    @app.errorhandler(StoreUnavailable)
    def store_unavailable(error: StoreUnavailable) -> tuple[str, int, dict[str, str]]:
        return store_unavailable_page(before_any_change=True)

    @app.errorhandler(StoreWriteFailed)
    def store_write_failed(error: StoreWriteFailed) -> tuple[str, int, dict[str, str]]:
        app.logger.warning("session store cannot write, nothing saved: %s", error)
        return store_unavailable_page(before_any_change=True)

    @app.errorhandler(SearchBusy)
    def search_busy(error: SearchBusy) -> tuple[str, int, dict[str, str]]:
        died = isinstance(error, SearchWorkerDied)
        app.logger.warning("%s: %s", "search failed" if died else "searches busy", error)
        page = error_page(503, SEARCH_DIED_MESSAGE if died else SEARCH_BUSY_MESSAGE)
        return page, 503, {"Retry-After": str(RETRY_AFTER)}

    @app.errorhandler(redis.RedisError)
    def redis_error(error: redis.RedisError) -> tuple[str, int, dict[str, str]]:
        app.logger.warning("session store unavailable: %s", error)
        return store_unavailable_page(before_any_change=never_reached(error))

    @app.errorhandler(OperationalError)
    @app.errorhandler(PoolTimeout)
    def database_error(error: OperationalError | PoolTimeout) -> tuple[str, int, dict[str, str]]:
        # The database went away (players, results, reviews), or is so slow
        # that every pooled connection stayed taken while this request
        # waited for one; games live in the session store, so none is lost.
        database_gone(error)
        game = has_game()
        message = DATABASE_MESSAGE if game else DATABASE_NO_GAME_MESSAGE
        return error_page(503, message, game), 503, {"Retry-After": str(RETRY_AFTER)}

    @app.errorhandler(StaleDataError)
    @app.errorhandler(ObjectDeletedError)
    @app.errorhandler(IntegrityError)
    def database_race(error: Exception) -> tuple[str, int, dict[str, str]]:
        # A row this request read was changed or deleted by another request
        # meanwhile (a player forgotten from another tab while this one
        # renames them, opens a transfer code or starts the Daily): the
        # transaction is rolled back, and the request is out of date.
        app.logger.warning("a database row changed under the request: %s", first_line(error))
        db.session.rollback()
        return stale_page()

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int] | tuple[str, int, dict[str, str]]:
        status = error.code or 500
        if status == 413 and request.endpoint in TOO_LARGE_PAGES:
            return TOO_LARGE_PAGES[request.endpoint]()
        page = error_page(status, MESSAGES.get(status, error.description))
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            # A 405 says which methods the address takes (RFC 9110, 15.5.6).
            return page, status, {"Allow": ", ".join(sorted(error.valid_methods))}
        return page, status

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception) -> tuple[str, int]:
        app.logger.exception("unexpected error", exc_info=error)
        return error_page(500, MESSAGES[500]), 500
