"""Server-side sessions (Flask-Session): files in the instance folder (the
default), or Redis shared by several app instances.

One writer per game. Each stored session carries a version number. A
request remembers the version it loaded; its changes are stored by a
compare-and-set that holds the backend's own lock (a :mod:`filelock` lock
for files, a Redis ``WATCH``/``MULTI`` transaction): the stored version must
still be the one loaded, else nothing is stored and :class:`Stale` is
raised. So overlapping requests of one player never overwrite each other,
and a request stalled for minutes cannot bring back what it loaded.

Only what a request changed is ever written: nothing for GET and HEAD,
static files, the documents' files (``/docs/*.md``) and ``/healthz`` (which do not
even load the session), error answers, or a session whose content is
unchanged. Game pages store their
changes themselves with :meth:`VersionedSessions.commit`, so they can answer
a stale change with a 409 that shows the table as it stands; any other
changed session is stored when the response is saved (a stale one turns the
response into the 409 error page).

No state for passers-by: a visitor who has not started a game has no stored
session and no session cookie. The CSRF token's secret half lives in its own
cookie (:data:`CSRF_COOKIE`, HttpOnly, SameSite=Lax), never in the store;
Flask-WTF finds it in the session as usual.

Each client address has at most ``SESSIONS_PER_ADDRESS`` stored sessions (a
setting); a new one beyond that drops that address's idlest (least recently
written), and says so in the log.

With Redis, an outage must not turn into stack traces or lost moves: a
session Redis cannot load becomes an :class:`UnavailableSession`, which every
page but ``/healthz``, static files and the documents answers with a 503; a
session Redis cannot save turns the response into that same 503 (or, from a page's own
commit, raises the Redis error that the error pages answer with a 503), so
the player is never told a move was played when it was not kept. redis-py
reconnects by itself, so pages work again as soon as Redis is back. A file
that cannot be written (a read-only or full disk) is the same 503, and a
folder that cannot be written stops the server at start-up.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import cachelib
import redis
from cachelib.file import FileSystemCache
from cachetools import LRUCache
from filelock import FileLock
from flask import Flask, Request, Response, current_app, request, session
from flask_session.base import ServerSideSession, ServerSideSessionInterface
from flask_session.cachelib import CacheLibSessionInterface
from flask_session.defaults import Defaults
from flask_session.redis import RedisSessionInterface
from redis.backoff import NoBackoff
from redis.connection import parse_url
from redis.retry import Retry
from werkzeug.exceptions import HTTPException

from .config import hide_password
from .logs import SESSION_GONE_KEY, error_in_one_line
from .web.errors import (
    StoreNotReached,
    StoreUnavailable,
    StoreWriteFailed,
    never_reached,
    stale_page,
    store_unavailable_page,
)
from .web.security import address_digest, cookie_path

#: Seconds to wait for Redis to accept a connection, and for an answer.
REDIS_CONNECT_TIMEOUT = 1.0
REDIS_TIMEOUT = 2.0
#: Endpoints that never load or store a session.
_STORELESS = {"static", "docs.document", "game.healthz", "game.readyz"}
#: The stored session's version number (a key of the stored data only).
VERSION = "_v"
#: When the session's and the CSRF cookie were last sent, in whole seconds
#: since the epoch (a key of the stored data only; see :func:`refresh_seconds`).
COOKIES_SENT = "_c"
#: Flask-WTF's key for the CSRF token's secret half in the session.
CSRF_KEY = "csrf_token"
#: The cookie that carries the CSRF token's secret half.
CSRF_COOKIE = "pisti_csrf"
#: What a session id replaced by a new one holds for a while: no data, only
#: the news that it moved (to which id, and by which browser: a digest of
#: its CSRF cookie, :data:`MOVED_BY`), so a late request from a page of the
#: old id is told its page is out of date rather than that there is no game,
#: and the browser that made the new game is led to it should the answer
#: that carried the new id have been lost (Back pressed while it was on its
#: way, the network dropped): it still sends the old id.
MOVED = "_moved"
MOVED_BY = "_by"
MOVED_SECONDS = 600
#: The most moves followed from one id to the newest (games started one
#: after the other, every answer lost).
FOLLOWED_MOVES = 3
#: How long a browser's first game start is remembered, in seconds
#: (:meth:`VersionedSessions.claim_first_start`): long enough for a double
#: click or a retry to be refused.
FIRST_START_SECONDS = 10
#: How long a start sent again waits for the first one's game to be
#: stored, and how often it looks, in seconds.
FIRST_START_WAIT = 1.0
FIRST_START_POLL = 0.05
#: The log of the file store's sweeps (the app's log, as ``app.sessions``).
_LOG = logging.getLogger(__name__)
#: What share of its threshold the file store prunes down to.
PRUNE_TO = 0.9
#: Seconds between the file store's sweeps of expired sessions off the disk.
SWEEP_SECONDS = 3600
#: Lock files the file-system backend spreads its sessions over.
LOCK_STRIPES = 256
#: cachelib's source folder (its file cache logs on the root logger).
_CACHELIB = f"{Path(cachelib.__file__).parent}/"


class Stale(Exception):
    """The stored session changed (or went) since this request loaded it;
    nothing was stored."""


class VersionedSession(ServerSideSession):
    """A session that knows which stored version it was loaded from.

    Attributes:
        stored_sid: the id whose stored data was loaded, ``None`` when
            nothing was stored (a new visitor, an unknown or expired id).
        version: the stored version loaded (``None`` with nothing stored).
        snapshot: the loaded content, serialized, to tell a change.
        detached: never loaded and never stored (static files, health).
        committed: stored during this request, so the cookie must be sent.
        moved: the cookie's id was replaced by a newer game's (of another
            browser, or gone since).
        followed: the cookie's id was replaced by this browser's newer
            game, loaded instead, so the cookie must be sent.
        cookies_sent: when the cookies were last sent with a change stored
            (seconds since the epoch; ``None``: never, or not known).
        cookies_due: the cookies must go with this answer, their lifetime
            counted from now (a change stored under a new id, or the first
            change :func:`refresh_seconds` after they were last sent).
    """

    @property
    def holds_nothing(self) -> bool:
        """Whether nothing is stored for this visitor: it has no game."""
        return self.stored_sid is None

    def __init__(
        self,
        initial: dict[str, Any] | None = None,
        sid: str | None = None,
        permanent: bool | None = None,
    ) -> None:
        super().__init__(initial, sid, permanent)
        self.stored_sid: str | None = None
        self.version: int | None = None
        self.snapshot = b""
        self.detached = False
        self.committed = False
        self.moved = False
        self.followed = False
        self.cookies_sent: int | None = None
        self.cookies_due = False


class UnavailableSession(VersionedSession):
    """Stands in for a session Redis could not load. Pages may read and
    write it while rendering the 503; it is never saved."""

    @property
    def holds_nothing(self) -> bool:
        """Unknown, so not to be assumed: the player may well have a game."""
        return False

    @classmethod
    def detached_one(cls) -> UnavailableSession:
        """One for a request whose session the store could not load (it
        is never loaded again nor saved)."""
        unavailable = cls(sid=None)
        unavailable.detached = True
        return unavailable


class VersionedSessions(ServerSideSessionInterface):
    """Open, commit and save :class:`VersionedSession` objects; mixed
    before a Flask-Session backend's interface, with :meth:`_load`,
    :meth:`_swap` and :meth:`_register` for that backend."""

    session_class = VersionedSession

    def get_cookie_path(self, app: Flask) -> str:
        """The session's and the CSRF cookie's ``Path``: the path the site
        is served under (:func:`~app.web.security.cookie_path`)."""
        return cookie_path()

    def _load(self, store_id: str) -> dict[str, Any] | None:
        """Return the stored data of ``store_id`` (version included), or
        ``None``."""
        raise NotImplementedError

    def _swap(
        self,
        old_id: str | None,
        expected: int | None,
        new_id: str,
        data: dict[str, Any] | None,
        ttl: int,
        mark: dict[str, Any],
    ) -> None:
        """Atomically: check that ``old_id`` (when given) still holds version
        ``expected``, store ``data`` under ``new_id`` for ``ttl`` seconds
        (or delete it when ``data`` is ``None``), and leave under ``old_id``,
        when it is not ``new_id``, only the :data:`MOVED` mark ``mark`` for
        :data:`MOVED_SECONDS`.

        Raises:
            Stale: ``old_id`` holds another version, or nothing.
        """
        raise NotImplementedError

    def claim_first_start(self, browser: str, sid: str, form: str) -> bool:
        """Claim a game start by a browser with no session for
        :data:`FIRST_START_SECONDS` (``browser``: its CSRF cookie, which it
        sends with every form; ``sid``: the id the new game is stored
        under; ``form``: a digest of the start's form, without spaces):
        ``False`` when it was claimed already. Two such starts sent at once
        (a double click) have no session between them to tell one from the
        other; the claim does, and leads the same form sent again to the
        game the first one stored (:meth:`follow_first_start`).

        Raises:
            redis.RedisError: Redis did not answer (the Redis store).
            StoreWriteFailed: the file store cannot write (a 503).
        """
        return self._add(self._start_key(browser), f"{sid} {form}", FIRST_START_SECONDS)

    def first_start_form(self, browser: str) -> str | None:
        """The ``form`` digest of ``browser``'s claimed first start, or
        ``None`` with no claim (:meth:`claim_first_start`).

        Raises:
            redis.RedisError: Redis did not answer (the Redis store).
        """
        claimed = self._claimed(self._start_key(browser))
        return None if claimed is None else claimed.partition(" ")[2]

    def follow_first_start(self, session: VersionedSession, browser: str, form: str) -> bool:
        """Load into ``session`` (one that holds nothing) the game that
        ``browser``'s first start, claimed in the last
        :data:`FIRST_START_SECONDS` with the same ``form`` digest, stored,
        and return ``True``; ``False`` when there is none (no claim, one of
        another form, or its game not stored within
        :data:`FIRST_START_WAIT`). The answer that carried that game's id
        was lost (Back pressed while it was on its way, the network
        dropped), and the browser sends the start again; the cookie goes
        with this answer instead.

        Raises:
            redis.RedisError: Redis did not answer (the Redis store).
        """
        claimed = self._claimed(self._start_key(browser))
        if claimed is None:
            return False
        sid, _, claimed_form = claimed.partition(" ")
        if claimed_form != form:
            return False
        fresh = self._open_stored(sid)
        waited = 0.0
        while fresh.stored_sid is None and waited < FIRST_START_WAIT:
            # The first start is still on its way (a double click): it
            # stores its game within milliseconds.
            time.sleep(FIRST_START_POLL)
            waited += FIRST_START_POLL
            fresh = self._open_stored(sid)
        if fresh.stored_sid is None:
            return False
        self._adopt(session, fresh)
        session.followed = True
        return True

    def _start_key(self, browser: str) -> str:
        return f"{self.key_prefix}start:{_digest(browser)}"

    def _add(self, key: str, value: str, seconds: int) -> bool:
        """Store ``value`` under ``key`` for ``seconds`` unless ``key`` is
        stored: whether it was not (atomic against every worker and
        server).

        Raises:
            StoreWriteFailed: the file store cannot write (a 503).
        """
        raise NotImplementedError

    def _write_failed(self, what: str) -> StoreWriteFailed:
        """The error of ``what`` failing to be written in the folder, saying
        why (a write tried again now: cachelib only answers ``False``) and
        what to do, for the log's warning."""
        try:
            _check_writable(self.folder)
        except OSError as error:
            why = str(error)
        else:
            why = "the write failed, though a test write now works (see the warning before)"
        return StoreWriteFailed(
            f"{what} in {self.folder}: {why}; free space on its disk, or make the folder "
            "writable by the user the server runs as (in the container, uid 10001): until "
            "then no game can change, and nothing already kept is lost"
        )

    def _claimed(self, key: str) -> str | None:
        """The value :meth:`_add` stored under ``key``, or ``None``."""
        raise NotImplementedError

    def _register(self, address: str, sid: str, ttl: int, replaced: str | None) -> None:
        """Count the new session ``sid`` against ``address`` in place of
        ``replaced`` (the id it took over, now only a :data:`MOVED` mark,
        which must outlive the bound: it tells a form sent twice to refuse);
        beyond the ``SESSIONS_PER_ADDRESS`` setting, drop that address's
        idlest sessions (:func:`_dropped_for_address` logs it)."""
        raise NotImplementedError

    def check_ready(self) -> None:
        """Check that the store can be used now (for ``/readyz``).

        Raises:
            OSError: the file store's folder cannot be written (read-only,
                full).
            redis.RedisError: Redis does not answer.
        """
        raise NotImplementedError

    # Flask's session interface.

    def open_session(self, app: Flask, request: Request) -> VersionedSession:
        """Load the player's session (not for static files, the documents
        and health checks), remembering its version; an id the store does
        not know is never adopted (the request's log line says ``"session":
        "gone"``). The CSRF cookie's value goes in as Flask-WTF's key."""
        if _endpoint(app, request) in _STORELESS:
            new = self._new()
            new.detached = True
            return new
        sid = request.cookies.get(app.config["SESSION_COOKIE_NAME"])
        opened = self._open_stored(sid)
        # A cookie of a game the store no longer holds: the request's log
        # line says so ("my game vanished at 10:42").
        request.environ[SESSION_GONE_KEY] = (
            bool(sid) and opened.stored_sid is None and not (opened.moved)
        )
        csrf = request.cookies.get(CSRF_COOKIE)
        if csrf:
            dict.__setitem__(opened, CSRF_KEY, csrf)
        return opened

    def _open_stored(self, sid: str | None) -> VersionedSession:
        """The session stored under ``sid``, or a new one (marked
        :attr:`~VersionedSession.moved` when ``sid`` was replaced). An id
        this browser replaced (the request's CSRF cookie is the one of the
        request that replaced it) is followed to the newer game, at most
        :data:`FOLLOWED_MOVES` times: its answer, with the new id, was lost
        on the way."""
        data = self._load(self._get_store_id(sid)) if sid else None
        followed = False
        for _ in range(FOLLOWED_MOVES):
            if data is None or MOVED not in data:
                break
            newer = data[MOVED]
            browser = request.cookies.get(CSRF_COOKIE)
            if browser is None:
                break
            if not isinstance(newer, str) or data.get(MOVED_BY) != _digest(browser):
                break
            found = self._load(self._get_store_id(newer))
            if found is None:
                break
            sid, data, followed = newer, found, True
        if data is None or sid is None or MOVED in data:
            opened = self._new()
            opened.moved = data is not None
        else:
            opened = self._loaded(sid, data)
            opened.followed = followed
        return opened

    def is_null_session(self, obj: object) -> bool:
        """Whether ``obj`` must not be saved (Flask asks before saving)."""
        return isinstance(obj, UnavailableSession)

    def regenerate(self, session: VersionedSession) -> None:
        """Give ``session`` a new id; when the session is stored, the same
        atomic step leaves only a :data:`MOVED` mark under the old one."""
        session.sid = self._generate_sid(self.sid_length)
        session.modified = True

    def commit(self, app: Flask, session: VersionedSession) -> None:
        """Store the session's changes now, if it has any, against the
        version it was loaded from (under a new id after
        :meth:`regenerate`).

        Raises:
            Stale: the stored session changed since it was loaded; nothing
                was stored.
            redis.RedisError: Redis could not be reached (nothing stored).
        """
        if session.detached:
            return
        content = _content(session)
        encoded = self.serializer.encode(content)
        rotated = session.sid != session.stored_sid
        replaced = session.stored_sid
        if encoded == session.snapshot and not rotated:
            return
        ttl = int(app.permanent_session_lifetime.total_seconds())
        now = _seconds_now()
        sent = session.cookies_sent
        due = rotated or sent is None or not 0 <= now - sent < refresh_seconds(ttl)
        if not _worth_storing(content):
            if session.stored_sid is None:
                return
            content_to_store = None
        else:
            stored_sent = now if due else sent
            content_to_store = {
                **content,
                VERSION: (session.version or 0) + 1,
                COOKIES_SENT: stored_sent,
            }
        old_id = self._get_store_id(session.stored_sid) if session.stored_sid else None
        assert session.sid is not None
        mark: dict[str, Any] = {MOVED: session.sid}
        if rotated and old_id is not None:
            browser = request.cookies.get(CSRF_COOKIE)
            mark[MOVED_BY] = _digest(browser) if browser else None
        self._swap(
            old_id, session.version, self._get_store_id(session.sid), content_to_store, ttl, mark
        )
        if content_to_store is None:
            session.stored_sid, session.version = None, None
        else:
            session.stored_sid, session.version = session.sid, content_to_store[VERSION]
            session.cookies_sent = content_to_store[COOKIES_SENT]
            session.cookies_due = session.cookies_due or due
            if rotated:
                self._register(request.remote_addr or "-", session.sid, ttl, replaced)
        session.snapshot = encoded
        session.committed = True
        session.modified = False

    def reload(self, session: VersionedSession) -> None:
        """Replace ``session``'s content with what is stored now (after
        :class:`Stale`); when nothing is stored any more, it becomes new."""
        self._adopt(session, self._open_stored(session.stored_sid))

    def _adopt(self, session: VersionedSession, fresh: VersionedSession) -> None:
        """Make ``session`` (the request's) what ``fresh`` is: its content,
        id and version, its CSRF token kept."""
        csrf = dict.get(session, CSRF_KEY)
        dict.clear(session)
        dict.update(session, fresh)
        if csrf is not None:
            dict.__setitem__(session, CSRF_KEY, csrf)
        session.sid, session.stored_sid = fresh.sid, fresh.stored_sid
        session.version, session.snapshot = fresh.version, fresh.snapshot
        session.moved, session.followed = fresh.moved, fresh.followed
        session.cookies_sent = fresh.cookies_sent
        session.modified = False

    def save_session(self, app: Flask, session: VersionedSession, response: Response) -> None:
        """Store a changed session of a successful POST (a stale one turns
        ``response`` into the 409 page); send the session cookie when the
        session was stored under a new id or followed to one, and both
        cookies when their lifetime is to be counted again
        (:attr:`~VersionedSession.cookies_due`); send the CSRF cookie with
        a page that made a new token."""
        if session.detached:
            return
        if session.accessed:
            response.vary.add("Cookie")
        if request.method not in ("GET", "HEAD") and response.status_code < 400:
            try:
                self.commit(app, session)
            except Stale:
                _replace(response, *stale_page())
            except StoreWriteFailed as error:
                app.logger.warning("session store cannot write, nothing saved: %s", error)
                _replace(response, *store_unavailable_page(before_any_change=True))
        # The cookie is sent with a new id, and once a day or so with the
        # same id (refresh_seconds), so that the browser keeps it as long
        # as the store keeps the session: the lifetime from its last change.
        # Never with an id this request did not store or follow: an answer
        # that arrives late must not put back an id that a newer game has
        # replaced. (An answer that renews the cookie of an id a newer game
        # replaced just after, and arrives after the newer game's, puts
        # that id back: its mark leads this browser's next request on to
        # the newer game, for MOVED_SECONDS.) A cookie sent with every
        # change would also keep the table's pages (no-store) out of the
        # browser's back/forward cache, which drops them when a cookie
        # changes.
        cookie = request.cookies.get(app.config["SESSION_COOKIE_NAME"])
        lasts = cookie_seconds(app)
        due = session.committed and session.cookies_due
        new_id = (session.committed or session.followed) and session.stored_sid != cookie
        if session.stored_sid and (due or new_id):
            response.set_cookie(
                app.config["SESSION_COOKIE_NAME"],
                session.stored_sid,
                max_age=lasts,
                httponly=self.get_cookie_httponly(app),
                domain=self.get_cookie_domain(app),
                path=self.get_cookie_path(app),
                secure=app.config["SESSION_COOKIE_SECURE"],
                samesite=app.config["SESSION_COOKIE_SAMESITE"],
            )
            response.vary.add("Cookie")
        token = dict.get(session, CSRF_KEY)
        made = request.method in ("GET", "HEAD") and token != request.cookies.get(CSRF_COOKIE)
        if token and (made or due):
            response.set_cookie(
                CSRF_COOKIE,
                token,
                max_age=lasts,
                httponly=True,
                path=self.get_cookie_path(app),
                secure=app.config["SESSION_COOKIE_SECURE"],
                samesite="Lax",
            )

    # Helpers.

    def _new(self) -> VersionedSession:
        return self.session_class(sid=self._generate_sid(self.sid_length), permanent=True)

    def _loaded(self, sid: str, data: dict[str, Any]) -> VersionedSession:
        version = data.pop(VERSION, 0)
        sent = data.pop(COOKIES_SENT, None)
        data.pop(CSRF_KEY, None)
        loaded = self.session_class(data, sid=sid)
        loaded.stored_sid, loaded.version = sid, version
        loaded.cookies_sent = sent if isinstance(sent, int) else None
        loaded.snapshot = self.serializer.encode(_content(loaded))
        return loaded


def _seconds_now() -> int:
    """The time by which the cookies are sent again (whole seconds since
    the epoch); the store's files keep their own clock."""
    return int(time.time())


def refresh_seconds(lifetime: int) -> int:
    """How long after the session's and the CSRF cookie were sent a change
    stored sends them again, in seconds (a day with the default lifetime of
    31 days; ``lifetime``: the session's, in seconds). The cookies last this
    much longer than the session (:func:`cookie_seconds`), so the browser
    keeps them at least as long as the store keeps the session."""
    return max(1, lifetime // 31)


def cookie_seconds(app: Flask) -> int:
    """How long the browser keeps the session's and the CSRF cookie, in
    seconds: the session's lifetime and :func:`refresh_seconds`."""
    lifetime = int(app.permanent_session_lifetime.total_seconds())
    return lifetime + refresh_seconds(lifetime)


def _dropped_for_address(address: str, count: int) -> None:
    """Log that ``count`` stored sessions of ``address`` were dropped for
    the ``SESSIONS_PER_ADDRESS`` bound: games in progress, maybe, of people
    behind one address (a proxy whose forwarded address the app does not
    believe, a shared network)."""
    current_app.logger.warning(
        "%s stored session(s) of the address %s dropped: it had more than "
        "FLASK_SESSIONS_PER_ADDRESS (%s); behind a proxy, see FLASK_TRUSTED_PROXIES",
        count,
        address if current_app.config["LOG_ADDRESSES"] else "(not logged)",
        current_app.config["SESSIONS_PER_ADDRESS"],
    )


def _digest(browser: str) -> str:
    """A browser's CSRF cookie as kept in the store: a digest, not the
    secret itself."""
    return hashlib.sha256(browser.encode()).hexdigest()[:32]


def _content(session: VersionedSession) -> dict[str, Any]:
    """What of ``session`` is stored: everything but the CSRF secret."""
    items: dict[str, Any] = dict(dict.items(session))
    items.pop(CSRF_KEY, None)
    return items


def _worth_storing(content: dict[str, Any]) -> bool:
    return bool(content.keys() - {"_permanent"})


#: What a request's URL is matched on (see :func:`_endpoint`).
_URL_PARTS = (
    "REQUEST_METHOD",
    "wsgi.url_scheme",
    "HTTP_HOST",
    "SERVER_NAME",
    "SERVER_PORT",
    "SCRIPT_NAME",
    "PATH_INFO",
)
#: Endpoints found, per application (the most recently used).
ENDPOINTS_KEPT = 4096
_ENDPOINTS: WeakKeyDictionary[Flask, LRUCache[tuple[object, ...], str | None]] = WeakKeyDictionary()
_ENDPOINTS_LOCK = threading.Lock()


def _endpoint(app: Flask, request: Request) -> str | None:
    """The endpoint ``request`` goes to (``None`` when it matches none),
    kept per application by the parts of the request the URL map matches
    on (Flask matches the URL again after the session is opened)."""
    key = tuple(request.environ.get(part) for part in _URL_PARTS)
    with _ENDPOINTS_LOCK:
        found = _ENDPOINTS.get(app)
        if found is None:
            found = _ENDPOINTS[app] = LRUCache(maxsize=ENDPOINTS_KEPT)
        if key in found:
            return found[key]
    endpoint = _match_endpoint(app, request)
    with _ENDPOINTS_LOCK:
        found[key] = endpoint
    return endpoint


def _match_endpoint(app: Flask, request: Request) -> str | None:
    adapter = app.create_url_adapter(request)
    if adapter is None:
        return None
    try:
        rule, _ = adapter.match(return_rule=True)
    except HTTPException:
        return None
    return str(rule.endpoint)


def _replace(response: Response, page: str, status: int, headers: dict[str, str]) -> None:
    """Turn ``response`` into ``page`` in place (keeping the headers
    already set, such as the security headers). The page's own cookies
    stay: the session's is set only once it is stored, and the player's
    says what the database already holds (a name chosen, a device moved)."""
    for name in ("Location", "Content-Disposition"):
        response.headers.pop(name, None)
    response.status_code = status
    response.headers.update(headers)
    response.mimetype = "text/html"
    response.set_data(page)


def cache_file_error(record: logging.LogRecord) -> bool:
    """A filter of the root logger, which cachelib logs on: its warning
    of a session file it could not read or write because of the disk (an
    ``OSError``: full, read-only; one per failed write, before the app's
    own warning saying why and what to do) is one line, the error in its
    ``error`` field (:func:`app.logs.error_in_one_line`); any other error
    (a damaged file) keeps its traceback. Keeps every record."""
    if (
        record.pathname.startswith(_CACHELIB)
        and record.exc_info
        and isinstance(record.exc_info[1], OSError)
    ):
        return error_in_one_line(record)
    return True


class PruningFileCache(FileSystemCache):
    """cachelib's file cache, which past its threshold deletes the expired
    files and then those written longest ago (the idlest games); here it
    deletes down to :data:`PRUNE_TO` of the threshold, so its scan of every
    file runs once per many new sessions rather than for each one.

    Below the threshold cachelib deletes an expired file only when it is
    read, and an abandoned game's never is: here the first write, and then
    one every :data:`SWEEP_SECONDS` at most, starts a thread that deletes
    the expired files (reading each file's first 4 bytes), so an idle game
    leaves the disk within an hour of its lifetime's end, and no request
    waits for the sweep (seconds for thousands of files on a slow disk).
    The sweep also deletes the temporary files that writes the disk
    refused left behind, once they are :data:`SWEEP_SECONDS` old."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pruning = threading.local()
        self._sweeping = threading.Lock()
        #: ``time.time()`` of the last sweep of expired files (0: none yet).
        self._swept = 0.0
        #: The thread of the last sweep (``None``: none yet).
        self.sweeper: threading.Thread | None = None

    def _prune(self) -> None:
        self._sweep()
        if not super()._over_threshold():
            return
        self._pruning.active = True
        try:
            super()._prune()
        finally:
            self._pruning.active = False

    def _sweep(self) -> None:
        """Start a thread deleting the expired files when the last sweep
        is :data:`SWEEP_SECONDS` old and over (a thread refused, as a
        process short of memory may be, is a warning: the write goes on)."""
        now = time.time()
        if now - self._swept < SWEEP_SECONDS or not self._sweeping.acquire(blocking=False):
            return
        self._swept = now
        self.sweeper = threading.Thread(
            target=self._sweep_expired, args=(now,), name="session-sweep", daemon=True
        )
        try:
            self.sweeper.start()
        except RuntimeError as error:  # no thread to be had (short of memory): the next hour
            self._sweeping.release()
            _LOG.warning("expired sessions not deleted: %s", error)

    def _sweep_expired(self, now: float) -> None:
        try:
            self._remove_expired(now)
            self._remove_unfinished(now)
        except OSError as error:  # the folder removed, or unreadable, meanwhile
            _LOG.warning("expired sessions not deleted: %s", error)
        finally:
            self._sweeping.release()

    def _remove_unfinished(self, now: float) -> None:
        # A write the disk refused (full) leaves cachelib's temporary file,
        # which its listing skips: delete those SWEEP_SECONDS old (a write
        # in progress takes a moment).
        with os.scandir(self._path) as entries:
            for entry in entries:
                if not entry.name.endswith(self._fs_transaction_suffix):
                    continue
                try:
                    if entry.stat().st_mtime < now - SWEEP_SECONDS:
                        os.remove(entry.path)
                except FileNotFoundError:  # its write just finished
                    pass

    def _over_threshold(self) -> bool:
        if getattr(self._pruning, "active", False):
            return bool(self._file_count > self._threshold * PRUNE_TO)
        return bool(super()._over_threshold())


class FileSessions(VersionedSessions, CacheLibSessionInterface):
    """Sessions as files (cachelib), compare-and-set under a file lock.

    The locks are :data:`LOCK_STRIPES` files in a folder next to the
    sessions' (a session's lock is picked by a hash of its id), so their
    number stays bounded however many sessions there are. A session that
    cannot be written (cachelib logs it and answers ``False``) raises
    :class:`~app.web.errors.StoreWriteFailed`, answered with a 503.

    Raises:
        OSError: a folder cannot be made (its parent does not exist: a
            mistyped path is not made into a new, empty store), or a file
            cannot be written in it (read-only, full), so that the server
            does not start.
    """

    def __init__(self, app: Flask, folder: Path, threshold: int) -> None:
        folder.mkdir(exist_ok=True)
        _check_writable(folder)
        logging.getLogger().addFilter(cache_file_error)  # once: addFilter skips a known one
        super().__init__(
            app,
            client=PruningFileCache(cache_dir=str(folder), threshold=threshold, mode=0o600),
            key_prefix=app.config.get("SESSION_KEY_PREFIX", Defaults.SESSION_KEY_PREFIX),
            permanent=True,
            sid_length=app.config.get("SESSION_ID_LENGTH", Defaults.SESSION_ID_LENGTH),
        )
        self.folder = folder
        self.lock_folder = folder.with_name(folder.name + ".locks")
        self.lock_folder.mkdir(exist_ok=True)
        _check_writable(self.lock_folder)
        self.locks: dict[int, FileLock] = {}
        self.locks_pid = os.getpid()

    def open_session(self, app: Flask, request: Request) -> VersionedSession:
        """Load the session; when the browser names one and nothing is
        found because the sessions folder is gone (removed while the
        server runs), return an :class:`UnavailableSession` (a 503), not
        "no game"."""
        opened = super().open_session(app, request)
        if (
            opened.stored_sid is None
            and not opened.detached
            and request.cookies.get(app.config["SESSION_COOKIE_NAME"])
            and not self.folder.is_dir()
        ):
            app.logger.warning("session store unavailable: the folder %s is gone", self.folder)
            return UnavailableSession.detached_one()
        return opened

    @contextmanager
    def _lock(self, key: str) -> Iterator[None]:
        stripe = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % LOCK_STRIPES
        if self.locks_pid != os.getpid():
            # A lock must not cross a fork (gunicorn --preload): each worker
            # makes its own.
            self.locks, self.locks_pid = {}, os.getpid()
        lock = self.locks.get(stripe)
        if lock is None:
            # Each thread holds its own descriptor of the file (thread_local),
            # so the threads of one process exclude each other too.
            lock = FileLock(
                self.lock_folder / f"{stripe}.lock", preserve_lock_file=True, thread_local=True
            )
            lock = self.locks.setdefault(stripe, lock)
        with lock:
            yield

    def _load(self, store_id: str) -> dict[str, Any] | None:
        data = self.cache.get(store_id)
        return dict(data) if isinstance(data, dict) else None

    def _swap(
        self,
        old_id: str | None,
        expected: int | None,
        new_id: str,
        data: dict[str, Any] | None,
        ttl: int,
        mark: dict[str, Any],
    ) -> None:
        with self._lock(old_id or new_id):
            if old_id is not None:
                current = self._load(old_id)
                if current is None or current.get(VERSION, 0) != expected:
                    raise Stale()
            if data is None:
                written = self.cache.delete(new_id)
            else:
                written = self.cache.set(new_id, data, timeout=ttl)
            # The errors never name a session: its id is the player's key.
            if not written:
                raise self._write_failed("a session")
            if old_id not in (None, new_id) and not self.cache.set(
                old_id, mark, timeout=MOVED_SECONDS
            ):
                # The 503 keeps the browser on the old id, whose game is
                # as it was: the new id never reaches it.
                raise self._write_failed("a replaced session's mark")

    def _add(self, key: str, value: str, seconds: int) -> bool:
        with self._lock(key):
            if self.cache.has(key):
                return False
            if not self.cache.set(key, value, timeout=seconds):
                raise self._write_failed("a first start's claim")
            return True

    def _claimed(self, key: str) -> str | None:
        value = self.cache.get(key)
        return value if isinstance(value, str) else None

    def check_ready(self) -> None:
        _check_writable(self.folder)

    def _register(self, address: str, sid: str, ttl: int, replaced: str | None) -> None:
        key = f"{self.key_prefix}address:{address_digest(address)}"
        with self._lock(key):
            known = self.cache.get(key)
            sids = [s for s in known if isinstance(s, str)] if isinstance(known, list) else []
            sids = [
                s
                for s in sids
                if s not in (sid, replaced) and self.cache.has(self._get_store_id(s))
            ]
            bound = current_app.config["SESSIONS_PER_ADDRESS"]
            if len(sids) >= bound:
                sids.sort(key=self._last_written)
                for idle in sids[: len(sids) - bound + 1]:
                    self.cache.delete(self._get_store_id(idle))
                _dropped_for_address(address, len(sids) - bound + 1)
                sids = sids[len(sids) - bound + 1 :]
            self.cache.set(key, [*sids, sid], timeout=ttl)

    def _last_written(self, sid: str) -> float:
        try:
            return os.stat(self.cache._get_filename(self._get_store_id(sid))).st_mtime
        except FileNotFoundError:
            return 0.0


def _check_writable(folder: Path) -> None:
    """Write a byte to a new file in ``folder`` and remove it (an empty
    file can still be made on a full disk).

    Raises:
        OSError: it cannot be done (a read-only or full file system; a
            permission check alone would pass for root).
    """
    handle, name = tempfile.mkstemp(dir=folder, prefix=".write-check-")
    try:
        os.write(handle, b"\0")
        os.fsync(handle)
    finally:
        os.close(handle)
        os.unlink(name)


class RedisSessions(VersionedSessions, RedisSessionInterface):
    """Sessions in Redis, compare-and-set in a ``WATCH``/``MULTI``
    transaction, answering 503 instead of failing when Redis cannot be
    reached. Every key carries an expiry, so Redis's ``volatile-lru``
    eviction may drop idle sessions under memory pressure."""

    def open_session(self, app: Flask, request: Request) -> VersionedSession:
        """Load the session, or return an :class:`UnavailableSession` when
        Redis fails."""
        try:
            return super().open_session(app, request)
        except redis.RedisError as exc:
            app.logger.warning("session store unavailable: %s", exc)
            return UnavailableSession.detached_one()

    def save_session(self, app: Flask, session: VersionedSession, response: Response) -> None:
        """Save as :meth:`VersionedSessions.save_session`; when Redis fails,
        turn ``response`` into the 503 page in place."""
        try:
            super().save_session(app, session, response)
        except redis.RedisError as exc:
            app.logger.warning("session store unavailable, nothing saved: %s", exc)
            _replace(response, *store_unavailable_page(before_any_change=never_reached(exc)))

    def _reach(self) -> None:
        """Make sure a connection to Redis can be had before a write is sent
        (no round trip when a pooled one is open: redis-py's pool checks it).

        Raises:
            StoreNotReached: none can be had; nothing was sent.
        """
        pool = self.client.connection_pool
        try:
            connection = pool.get_connection()
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise StoreNotReached(str(exc)) from exc
        pool.release(connection)

    def _load(self, store_id: str) -> dict[str, Any] | None:
        raw = self.client.get(store_id)
        if not raw:
            return None
        data = self.serializer.decode(raw)
        return data if isinstance(data, dict) else None

    def _swap(
        self,
        old_id: str | None,
        expected: int | None,
        new_id: str,
        data: dict[str, Any] | None,
        ttl: int,
        mark: dict[str, Any],
    ) -> None:
        self._reach()
        payload = None if data is None else self.serializer.encode(data)
        moved = self.serializer.encode(mark)

        def attempt(pipe: redis.client.Pipeline) -> None:
            if old_id is not None:
                raw = pipe.get(old_id)
                current = self.serializer.decode(raw) if raw else None
                if not isinstance(current, dict) or current.get(VERSION, 0) != expected:
                    raise Stale()
            pipe.multi()
            if payload is None:
                pipe.delete(new_id)
            else:
                pipe.set(new_id, payload, ex=ttl)
            if old_id is not None and old_id != new_id:
                pipe.set(old_id, moved, ex=MOVED_SECONDS)

        self.client.transaction(attempt, *([old_id] if old_id else []))

    def _add(self, key: str, value: str, seconds: int) -> bool:
        return bool(self.client.set(key, value, nx=True, ex=seconds))

    def _claimed(self, key: str) -> str | None:
        value = self.client.get(key)
        return value.decode() if isinstance(value, bytes) else None

    def check_ready(self) -> None:
        self.client.ping()

    def _register(self, address: str, sid: str, ttl: int, replaced: str | None) -> None:
        # The session is stored: a count that fails only skips this bound
        # once (a flood guard), never the new game that was just kept.
        try:
            self._count(address, sid, ttl, replaced)
        except redis.RedisError as exc:
            current_app.logger.warning("sessions per address not counted: %s", exc)

    def _count(self, address: str, sid: str, ttl: int, replaced: str | None) -> None:
        key = f"{self.key_prefix}address:{address_digest(address)}"
        pipe = self.client.pipeline()
        if replaced is not None:
            # Only a mark now, with its own short life: not a session.
            pipe.zrem(key, replaced)
        pipe.zadd(key, {sid: time.time()})
        pipe.expire(key, ttl)
        pipe.zrange(key, 0, -1)
        *_, members = pipe.execute()
        bound = current_app.config["SESSIONS_PER_ADDRESS"]
        if len(members) <= bound:
            return
        others = [m.decode() for m in members if m.decode() != sid]
        pipe = self.client.pipeline()
        for other in others:
            pipe.pttl(self._get_store_id(other))
        # The shortest time to live is the longest since written: the idlest.
        ttls = pipe.execute()
        gone = [other for other, left in zip(others, ttls, strict=True) if left < 0]
        alive = sorted((left, other) for other, left in zip(others, ttls, strict=True) if left >= 0)
        idlest = [other for _, other in alive[: len(alive) + 1 - bound]]
        pipe = self.client.pipeline()
        for other in gone + idlest:
            pipe.delete(self._get_store_id(other))
        pipe.zrem(key, *gone, *idlest)
        pipe.execute()
        if idlest:
            _dropped_for_address(address, len(idlest))


def redis_client(url: str) -> redis.Redis:
    """A Redis client for work done inside a page's request (``url`` such
    as ``redis://host:6379/0``): it gives up after
    :data:`REDIS_CONNECT_TIMEOUT` / :data:`REDIS_TIMEOUT` seconds, so an
    outage is a clear 503 rather than a hung page. Does not connect until
    used."""
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
        socket_timeout=REDIS_TIMEOUT,
        # One immediate retry covers a pooled connection Redis closed when it
        # restarted; more would only delay the 503 of a real outage.
        retry=Retry(NoBackoff(), 1),
    )


def redis_refusal(error: redis.RedisError, url: str) -> str | None:
    """What is wrong with ``FLASK_REDIS_URL`` (``url``) when Redis answered
    and refused this server, in words that say what to change: a password
    it wants or does not take, a database number it does not have. ``None``
    when it did not answer (a refused connection, no such host, a timeout,
    its data still loading): a Redis that may still be coming up.

    A refusal never mends itself: the server and the review worker stop at
    start-up with it, rather than answer 503 until someone reads the log.
    """
    if not isinstance(error, (redis.AuthenticationError, redis.ResponseError)):
        return None  # a ConnectionError (BusyLoadingError too) or a TimeoutError
    reason = " ".join(str(error).split()).rstrip(".")
    if isinstance(error, redis.AuthenticationError):
        if parse_url(url).get("password") is None:
            # Its own words ("HELLO must be called with the client already
            # authenticated...", with RESP3) say no more than this.
            what, reason = "it asks for a password, and the URL gives none", ""
        else:
            what = "it does not take the user name and password the URL gives"
        fix = "put Redis's password (its requirepass) in the URL: redis://:password@host:6379/0"
    elif "DB index" in reason:
        what = "it has no database of the number the URL ends with"
        fix = "Redis has 0 to 15 unless its `databases` setting says more"
    else:
        what, fix = "it refuses this server", "it must let the app read and write keys"
    said = f" ({reason})" if reason else ""
    return f"Redis at FLASK_REDIS_URL ({hide_password(url)}) cannot be used: {what}{said}; {fix}"


def init_sessions(app: Flask) -> redis.Redis | None:
    """Give ``app`` its session interface from ``SESSION_BACKEND``, and
    return the Redis client when it uses Redis (else ``None``).

    Creating the client does not connect, so the app starts while Redis is
    still coming up.
    """
    # A session the store could not load (Redis down, the sessions folder
    # gone) is a 503 for every page that needs one.
    app.before_request(_refuse_without_store)
    if app.config["SESSION_BACKEND"] == "filesystem":
        # A relative folder is under the instance folder, as a relative
        # SQLite path is (the one folder the container can write).
        folder = Path(app.config["SESSION_FILE_DIR"] or "sessions")
        if not folder.is_absolute():
            Path(app.instance_path).mkdir(parents=True, exist_ok=True)
            folder = Path(app.instance_path) / folder
        app.session_interface = FileSessions(app, folder, int(app.config["SESSION_FILE_THRESHOLD"]))
        return None
    client = redis_client(app.config["REDIS_URL"])
    app.session_interface = RedisSessions(
        app,
        client=client,
        key_prefix=app.config.get("SESSION_KEY_PREFIX", Defaults.SESSION_KEY_PREFIX),
        permanent=True,
        sid_length=app.config.get("SESSION_ID_LENGTH", Defaults.SESSION_ID_LENGTH),
    )
    return client


def _refuse_without_store() -> None:
    if (
        isinstance(session, UnavailableSession)  # the proxy passes isinstance through
        and request.endpoint not in _STORELESS
    ):
        raise StoreUnavailable()
