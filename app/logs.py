"""Logging to standard output, one JSON object a line: a line per request
(method, path, status, milliseconds, client address, request id, and the
game it read or wrote) and a line per finished game (its id, rule set,
levels, result), beside the app's, the libraries' and Python's
warnings and errors.

Example lines::

    {"time": "2026-11-29T10:00:00.123Z", "level": "INFO", "event": "request",
     "method": "POST", "path": "/play", "status": 303, "ms": 12.4,
     "addr": "203.0.113.7", "id": "5f0c2a9be1d34c77", "game": "3f9a1c07"}
    {"time": "2026-11-29T10:00:00.124Z", "level": "INFO", "event": "game finished",
     "game": "3f9a1c07", "rules": "cardems", "levels": ["medium"], "result": "win",
     "points": [14, 9], "hands": 1}

(each on one line in the log).
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TextIO

from flask import Flask, has_request_context, request

if TYPE_CHECKING:
    from _typeshed import OptExcInfo
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

    from .web.table import Table

#: The loggers of the two kinds of lines; children of the app's logger.
REQUESTS = logging.getLogger("app.requests")
#: The health checks' paths, whose answers 200 are logged at DEBUG only.
HEALTH_PATHS = ("/healthz", "/readyz")
GAMES = logging.getLogger("app.games")
#: The header naming a request: taken from the proxy in front when it sends
#: one (:data:`REQUEST_ID_FORM`), else made here; sent back with the answer.
REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_FORM = re.compile(r"[A-Za-z0-9._:-]{1,64}")
#: Where the request's id is kept in the WSGI environ.
REQUEST_ID_KEY = "pisti.request_id"
#: Where a request refused by a rate limit keeps the limit's setting
#: (``FLASK_PLAY_ADDRESS_LIMIT``...), which its line gives as ``limit``.
REQUEST_LIMIT_KEY = "pisti.limit"
#: Where a request whose session cookie names a session the store does not
#: hold (expired, evicted, dropped, the store emptied) says so; its line
#: gives ``"session": "gone"``.
SESSION_GONE_KEY = "pisti.session_gone"
#: Where a request that read or wrote a game (the table, a play, a new game,
#: a deal link, a record, a review of a hand) keeps that game's id
#: (:attr:`app.web.table.Table.game_id`, 8 hex digits: the end of its record
#: files' names and the "Game" line of its final page); its line gives it as
#: ``game``. Set by :func:`note_game`.
GAME_KEY = "pisti.game"
#: A review's key (64 hex digits), wherever a line has one (a path, the
#: review worker's job lines): the key is the review page's only access
#: control, so a log shows its first :data:`KEY_SHOWN` characters only.
REVIEW_KEY = re.compile(r"([0-9a-fA-F]{8})[0-9a-fA-F]{56}")
KEY_SHOWN = 8


def cut_keys(text: str) -> str:
    """``text`` with every review key in it cut short (:func:`short_key`)."""
    return REVIEW_KEY.sub(r"\1…", text)


def init_logging(app: Flask) -> None:
    """Send the app's log records (its own, requests, games) to standard
    output as JSON lines at ``LOG_LEVEL``, and log every request.

    Libraries' records and Python warnings (``warnings.warn``, through
    :func:`logging.captureWarnings`) go to the same JSON lines, at the root
    logger's level (``WARNING``), so every line on standard output is JSON.
    cachelib logs a warning on the root logger when a session file cannot
    be read or written (see :func:`app.sessions.cache_file_error`).
    """
    handler = json_handler()
    app.logger.handlers[:] = [handler]
    app.logger.setLevel(app.config["LOG_LEVEL"])
    app.logger.propagate = False
    app.wsgi_app = RequestLog(
        app.wsgi_app,
        proxy_ids=bool(app.config["TRUSTED_PROXIES"]),
        addresses=bool(app.config["LOG_ADDRESSES"]),
    )
    root = logging.getLogger()
    if not any(isinstance(existing, _StdoutHandler) for existing in root.handlers):
        root.addHandler(handler)
    logging.captureWarnings(True)


def short_key(key: str) -> str:
    """A review's key as logs show it: its first :data:`KEY_SHOWN`
    characters and "…" (enough to find it in the database; the whole key
    opens the review)."""
    return f"{key[:KEY_SHOWN]}…"


def first_line(error: BaseException) -> str:
    """What went wrong, in one line and without the traceback: a database
    error's own driver message (SQLAlchemy's adds a help link), else the
    error's text, first line only."""
    cause = getattr(error, "orig", None) or error
    text = str(cause).strip() or type(cause).__name__
    return text.splitlines()[0]


def error_in_one_line(record: logging.LogRecord) -> bool:
    """Log ``record``'s exception as its first line (:func:`first_line`),
    in the record's ``error`` field, not as a traceback (a logging filter:
    keeps every record)."""
    if record.exc_info and record.exc_info[1] is not None:
        fields = getattr(record, "fields", {})
        record.fields = {**fields, "error": first_line(record.exc_info[1])}
        record.exc_info = None
        record.exc_text = None
    return True


def json_handler() -> logging.Handler:
    """Return a handler writing records to standard output as JSON lines
    (for other loggers to share the format, such as the server's)."""
    handler = _StdoutHandler()
    handler.setFormatter(JsonFormatter())
    handler.addFilter(_with_request_id)
    return handler


def _with_request_id(record: logging.LogRecord) -> bool:
    """Give a record logged while a request is handled that request's id
    (``request_id``), to find the request's own line."""
    if has_request_context() and not hasattr(record, "request_id"):
        request_id = request.environ.get(REQUEST_ID_KEY)
        if request_id is not None:
            record.request_id = request_id
    return True


def note_game(game_id: str) -> None:
    """Name the game ``game_id`` in this request's line (``game``); the
    last game noted wins (a new game after the one it puts aside). Outside
    a request, nothing."""
    if has_request_context():
        request.environ[GAME_KEY] = game_id


def log_game_finished(table: Table) -> None:
    """Log one line for a finished match: the game's id (``game``, as its
    request lines give it), rule set, computer levels, the
    player's result (``"win"``, ``"loss"`` or ``"draw"``), each side's points
    (the player's side first) and the number of hands played.

    Call it once, when a move ends the match (``table.match.over``).
    """
    match = table.match
    winner = match.winner()
    GAMES.info(
        "game finished",
        extra={
            "fields": {
                "game": table.game_id,
                "rules": match.rules.name,
                "levels": table.levels[1:],
                # Any other side's win is a loss, with two, three or four sides.
                "result": "draw" if winner is None else "win" if winner == 0 else "loss",
                "points": match.totals,
                "hands": match.hand_number + 1,
            }
        },
    )


class JsonFormatter(logging.Formatter):
    """Format a record as one JSON object: time (UTC, ISO 8601), level,
    event (the message), the record's ``fields`` extra, and ``error`` (the
    traceback) when it carries an exception. RQ's lines name a review's job
    by the review's key: there it is cut short (:func:`cut_keys`)."""

    def format(self, record: logging.LogRecord) -> str:
        """Return ``record`` as a single line of JSON."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        event = record.getMessage()
        if record.name.split(".")[0] == "rq":
            event = cut_keys(event)
        line: dict[str, Any] = {
            "time": f"{stamp}.{int(record.msecs):03d}Z",
            "level": record.levelname,
            "event": event,
            **getattr(record, "fields", {}),
        }
        if hasattr(record, "request_id"):
            line["request_id"] = record.request_id
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class RequestLog:
    """WSGI middleware logging each request once it is answered: method,
    path (no query string; a review's key cut short, :func:`short_key`),
    status, the time the app took in milliseconds, the client's address (the
    one ``FLASK_TRUSTED_PROXIES`` forwarded, with proxies trusted), the game
    the request read or wrote (``game``, when one did: :data:`GAME_KEY`) and the
    request's id (``addresses`` false, ``FLASK_LOG_ADDRESSES=false``: no
    address, ``null``), which the answer carries as ``X-Request-ID`` (with
    ``proxy_ids``, proxies being trusted, the proxy's own when it sent a
    plain one; a client's is never taken). It wraps the whole app, so answers made
    before a view runs (a 503 with the session store down, a 413) are
    logged too. A health check answered 200 (a container's, every 30 s) is
    logged at ``DEBUG`` only; one that fails, at ``INFO`` like every other
    request."""

    def __init__(
        self, app: WSGIApplication, proxy_ids: bool = False, addresses: bool = True
    ) -> None:
        self.app = app
        self.proxy_ids = proxy_ids
        self.addresses = addresses

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Call the wrapped app, then log the request."""
        start = time.perf_counter()
        status: list[str] = []
        given = environ.get("HTTP_X_REQUEST_ID", "") if self.proxy_ids else ""
        request_id = given if REQUEST_ID_FORM.fullmatch(given) else uuid.uuid4().hex[:16]
        environ[REQUEST_ID_KEY] = request_id

        def record_status(
            line: str, headers: list[tuple[str, str]], exc_info: OptExcInfo | None = None
        ) -> Callable[[bytes], object]:
            status.append(line)
            return start_response(line, [*headers, (REQUEST_ID_HEADER, request_id)], exc_info)

        try:
            return self.app(environ, record_status)
        finally:
            path = environ.get("PATH_INFO", "")
            code = int(status[-1].split()[0]) if status else 500
            level = logging.DEBUG if path in HEALTH_PATHS and code == 200 else logging.INFO
            if REQUESTS.isEnabledFor(level):
                # Logger.info would also look up the caller's file and line
                # in the stack, which the line does not show.
                fields = {
                    "method": environ.get("REQUEST_METHOD"),
                    "path": cut_keys(path),
                    "status": code,
                    "ms": round((time.perf_counter() - start) * 1000, 1),
                    # ProxyFix, inside, put the forwarded address in place.
                    "addr": environ.get("REMOTE_ADDR") if self.addresses else None,
                    "id": request_id,
                }
                if REQUEST_LIMIT_KEY in environ:
                    fields["limit"] = environ[REQUEST_LIMIT_KEY]
                if GAME_KEY in environ:
                    fields["game"] = environ[GAME_KEY]
                if environ.get(SESSION_GONE_KEY):
                    fields["session"] = "gone"
                REQUESTS.handle(
                    REQUESTS.makeRecord(
                        REQUESTS.name,
                        level,
                        __file__,
                        0,
                        "request",
                        (),
                        None,
                        extra={"fields": fields},
                    )
                )


class _StdoutHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stdout`` is at the time (test runners swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stdout
        super().emit(record)
