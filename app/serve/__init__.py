"""Serving the app: waitress in one process, many threads.

``python -m app.serve --listen 127.0.0.1:5000`` (``scripts/serve`` and the
container run it). Waitress reads each request whole — headers and body — in
its event loop before a worker thread takes it, so clients that send slowly
hold only a socket, never a thread: a hundred of them trickling bytes do not
keep anyone else waiting. A request must arrive within
:data:`REQUEST_READ_SECONDS` of its first byte, and a connection that sends
nothing for :data:`IDLE_SECONDS` is closed.

The waitress answers made before the app sees a request (400 for broken
HTTP, 413 for a body over :data:`MAX_BODY_BYTES`, 431 for headers over
:data:`MAX_HEADER_BYTES`) carry the app's security headers too, and are
pages in the player's language drawn with the app's template and catalogue
when the server starts (:func:`error_pages`). Bodies under
that bound but over the app's ``MAX_CONTENT_LENGTH`` (16 KiB, chunked or
not: waitress de-chunks and counts) get the app's own 413 page.

One process, so the rate limits counted in memory are the whole server's;
the computer's searches run in :mod:`app.searches`' process pool, so they
use every core without taking the web threads' CPU. ``python -m
app.serve`` runs :mod:`app.serve.__main__`, which calls :func:`main`.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import logging
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NamedTuple

import click
import redis
from flask import Flask
from flask_babel import force_locale, lazy_gettext
from markupsafe import Markup
from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher
from waitress.utilities import RequestHeaderFieldsTooLarge
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_list_header
from werkzeug.sansio.http import parse_cookie

from .. import create_app, jobs, searches
from ..config import hide_password
from ..db import SCHEMA, shown_url
from ..logs import first_line, json_handler
from ..sessions import FileSessions, redis_client, redis_refusal
from ..web.i18n import LANGUAGES, pick_language
from ..web.review import stop_summaries
from ..web.security import CONTENT_SECURITY_POLICY, HEADERS, plain_prefix
from ..web.store import LANGUAGE_COOKIE

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIApplication

#: Worker threads. Threads waiting for a search cost no CPU; there are
#: enough that a line of searches (see :data:`app.searches.MAX_IN_FLIGHT`)
#: leaves threads free for everyone else's pages.
THREADS = 32
#: Seconds a request may take to arrive whole, from its first byte.
REQUEST_READ_SECONDS = 20
#: Seconds a connection may stay silent (between requests too) before it is
#: closed.
IDLE_SECONDS = 30
#: Seconds from a stop asked for (SIGTERM) that a stopping server gives the
#: requests it holds to be answered: with the second or two its search
#: pool and the interpreter take to end, under the 10 s that ``docker
#: stop`` and Compose wait before a kill.
STOP_GRACE_SECONDS = 7.0
#: Seconds a stopping server waits for the request of a connection just made.
FIRST_BYTES_SECONDS = 1.0
#: Open connections at most; past that, new ones wait in the listen backlog.
CONNECTION_LIMIT = 1000
#: Requests larger than these get waitress's own 413 / 431 answer.
MAX_BODY_BYTES = 64 * 1024
MAX_HEADER_BYTES = 16 * 1024
#: The highest TCP port.
MAX_PORT = 65535


#: The words of the server's own error pages (:func:`error_pages`), by
#: status: the page's title, its heading and what it says.
_ERROR_WORDS = {
    400: (
        lazy_gettext("Not understood"),
        lazy_gettext("Sorry — error %(status)s", status=400),
        lazy_gettext(
            "Your browser's request could not be read, so nothing was changed. Go back and "
            "try again."
        ),
    ),
    413: (
        lazy_gettext("Too large"),
        lazy_gettext("That was too large"),
        lazy_gettext(
            "The server takes at most 64 KB at once, and nothing was changed. A game record "
            "is about 1 KB: choose the .json file that “Download record” gave you on a "
            "game's final page."
        ),
    ),
    431: (
        lazy_gettext("Too large"),
        lazy_gettext("Sorry — error %(status)s", status=431),
        lazy_gettext(
            "Your browser sent more than the server takes at once (16 KB of headers), so "
            "nothing was changed. Most often these are too many cookies for this site: "
            "delete its cookies in your browser's settings, then open it again."
        ),
    ),
}


#: The path the server's own error pages are drawn under, replaced when
#: one is sent by the path of the site that request was for
#: (:func:`served_under`): nothing at the root.
PATH_MARK = "/pisti-served-under-0f3a9c"


class ServerPage(NamedTuple):
    """One of waitress's own error answers as a page (:func:`error_pages`)."""

    #: The page, by language, its addresses under :data:`PATH_MARK`.
    by_language: dict[str, bytes]
    #: Its ``Content-Security-Policy``.
    policy: str
    #: The app's ``TRUSTED_PROXIES``, whose ``X-Forwarded-Prefix`` says
    #: the path the site is served under.
    proxies: int = 0


def error_pages(app: Flask) -> dict[int, ServerPage]:
    """Return the pages of waitress's own error answers (400 for a request
    it cannot read, 413 for a body over :data:`MAX_BODY_BYTES`, most often
    a photo picked as a game record, 431 for headers over
    :data:`MAX_HEADER_BYTES`), by status: drawn once per language, with
    ``app``'s template ``errors/server.html`` and its catalogue, since the
    app never sees those requests.

    The 431's browser sends the same headers (most often cookies) with its
    every request, so the stylesheet it would ask for is refused in turn:
    that page holds the stylesheet itself, allowed by its hash in the
    page's ``Content-Security-Policy``.
    """
    template = app.jinja_env.get_template("errors/server.html")
    sheet = Path(app.static_folder or "static", "pisti.css").read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(sheet.encode()).digest()).decode()
    own_sheet = CONTENT_SECURITY_POLICY.replace(
        "style-src 'self'", f"style-src 'self' 'sha256-{digest}'"
    )
    pages: dict[int, ServerPage] = {}
    for status in _ERROR_WORDS:
        policy = own_sheet if status == 431 else CONTENT_SECURITY_POLICY
        pages[status] = ServerPage({}, policy, app.config["TRUSTED_PROXIES"])
    # Drawn for a host the site answers to (FLASK_TRUSTED_HOSTS): any other
    # is refused before the page's session is opened.
    host = (app.config["TRUSTED_HOSTS"] or ["localhost"])[0].lstrip(".")
    for lang in LANGUAGES:
        # One request context per language: the page's catalogue is kept
        # for the request (app.web.i18n.translations).
        with (
            app.test_request_context("/", base_url=f"http://{host}{PATH_MARK}/"),
            force_locale(lang),
        ):
            for status, (title, heading, message) in _ERROR_WORDS.items():
                page = template.render(
                    lang=lang,
                    status=status,
                    title=str(title),
                    heading=str(heading),
                    message=str(message),
                    sheet=Markup(sheet) if status == 431 else None,
                )
                pages[status].by_language[lang] = page.encode()
    return pages


def served_under(headers: dict[str, str], proxies: int) -> str:
    """Return the path the site is served under for a request with
    ``headers`` (keyed as waitress's parser keys them): the
    ``X-Forwarded-Prefix`` of the ``proxies`` trusted proxies as the app
    reads it (werkzeug's ``ProxyFix``, :class:`app.web.security.PrefixCheck`),
    without a slash at its end; ``""`` for the root, without trusted
    proxies, or for one that is not a plain path."""
    values = parse_list_header(headers.get("X_FORWARDED_PREFIX", "")) if proxies else []
    if len(values) < proxies or not values:
        return ""
    return plain_prefix(values[-proxies]) or ""


def page_language(headers: dict[str, str]) -> str:
    """Return the language of a server's own error page, from the request's
    ``headers`` as waitress's parser keeps them (``COOKIE``,
    ``ACCEPT_LANGUAGE``): the language chosen on a page (its cookie, as
    the app reads it), else the browser's best match, else English.

    The headers are as waitress keeps them, each byte a Latin-1 character;
    cookies are UTF-8, and bytes that are not (a cookie some other site's
    script wrote) are read as the app reads them, replaced, never an
    error: the page of a request nobody could read must still be drawn."""
    cookie = headers.get("COOKIE", "").encode("latin-1", "replace").decode("utf-8", "replace")
    return pick_language(
        parse_cookie(cookie).get(LANGUAGE_COOKIE),
        parse_accept_header(headers.get("ACCEPT_LANGUAGE"), LanguageAccept),
    )


def language_headers(received: bytes) -> dict[str, str]:
    """Return the ``COOKIE``, ``ACCEPT_LANGUAGE`` and ``X_FORWARDED_PREFIX``
    fields (keyed as waitress's parser keys them) among the whole header
    lines of ``received``, a request's beginning as it came: its request
    line, and a last line perhaps cut short, are left out."""
    found: dict[str, list[str]] = {}
    for line in received.split(b"\r\n")[1:-1]:
        name, colon, value = line.partition(b":")
        key = name.upper().replace(b"-", b"_").decode("latin-1")
        if colon and key in ("COOKIE", "ACCEPT_LANGUAGE", "X_FORWARDED_PREFIX"):
            found.setdefault(key, []).append(value.strip(b" \t").decode("latin-1"))
    return {key: ("; " if key == "COOKIE" else ", ").join(values) for key, values in found.items()}


class _SecureErrorTask(ErrorTask):
    """Waitress's own error answers, with the app's security headers; its
    400, 413 and 431 are the server's pages (:func:`error_pages`) in the
    player's language (:func:`page_language`), their addresses under the
    path the site is served under (:func:`served_under`)."""

    def execute(self) -> None:
        self.response_headers = [*self.response_headers, *HEADERS.items()]
        # self.request is waitress's request parser (its stubs say its error).
        error = getattr(self.request, "error", None)
        pages = getattr(self.channel.server, "error_pages", {}).get(getattr(error, "code", None))
        if error is None or pages is None:
            super().execute()
            return
        self.status = f"{error.code} {error.reason}"
        self.response_headers = [
            (name, pages.policy if name == "Content-Security-Policy" else value)
            for name, value in self.response_headers
        ]
        self.response_headers.append(("Content-Type", "text/html; charset=utf-8"))
        self.set_close_on_finish()
        # Headers too large were never parsed: what came of them is read.
        headers = getattr(self.request, "language_headers", None)
        if headers is None:
            headers = getattr(self.request, "headers", None) or {}
        page = pages.by_language[page_language(headers)].replace(
            PATH_MARK.encode(), served_under(headers, pages.proxies).encode()
        )
        self.content_length = len(page)
        self.write(page)


class _RequestParser(HTTPRequestParser):
    """Waitress's request parser, whose ``path`` is empty until its request
    line is read. Waitress 3.0.2 names ``request.path`` in the log line of a
    client that hung up while its answer was written, so the 400 of a
    request line it could not read (``GARBAGE``), answered to a client
    gone already, logged an ``AttributeError`` traceback instead."""

    path = ""
    #: For a request whose headers were too large (431), which waitress
    #: leaves unparsed: its ``COOKIE`` and ``ACCEPT_LANGUAGE`` as far as
    #: they came (:func:`language_headers`), for its page's language.
    language_headers: dict[str, str] | None = None

    def received(self, data: bytes) -> int:
        """Take in ``data`` (waitress's parser); keep the language of a
        request whose headers are too large."""
        before = self.header_plus
        consumed: int = super().received(data)
        if self.language_headers is None and isinstance(self.error, RequestHeaderFieldsTooLarge):
            self.language_headers = language_headers(before + data[:consumed])
        return consumed


class _Channel(HTTPChannel):
    """A connection that closes when a request takes longer than
    :data:`REQUEST_READ_SECONDS` to arrive."""

    error_task_class = _SecureErrorTask
    parser_class = _RequestParser
    #: ``time.time()`` of the first byte of a request not yet received whole.
    request_began: float | None = None
    #: Whether the client has sent anything yet.
    spoke = False

    def received(self, data: bytes) -> bool:
        """Take ``data`` in (waitress's parser), noting when a request begins."""
        self.spoke = self.spoke or bool(data)
        result = super().received(data)
        if self.request is None:
            self.request_began = None
        elif self.request_began is None:
            self.request_began = time.time()
        return result

    def readable(self) -> bool:
        """Whether to read more (waitress); past the server's
        ``read_seconds``, close instead (the event loop asks every
        ``asyncore_loop_timeout``, 1 s)."""
        began = self.request_began
        if began is not None and time.time() - began > getattr(
            self.server, "read_seconds", REQUEST_READ_SECONDS
        ):
            self.will_close = True
        return super().readable()


class _Server(TcpWSGIServer):
    """Waitress's TCP server with :class:`_Channel` connections."""

    channel_class = _Channel
    #: Seconds a request may take to arrive whole.
    read_seconds: float = REQUEST_READ_SECONDS
    #: The pages of waitress's own error answers (:func:`error_pages`), by
    #: status (set by :func:`make_server`); without one, waitress's own words.
    error_pages: dict[int, ServerPage]
    #: Whether a stop was asked for (:meth:`stop`).
    stopping = False
    #: ``time.monotonic()`` of the stop asked for.
    stop_asked = 0.0
    #: The open connections and the listening socket, by file number
    #: (waitress's socket map, set by :func:`make_server`).
    connections: dict[int, Any]

    def stop(self) -> None:
        """Ask :meth:`run` to end, the requests in hand answered first
        (safe in a signal handler: it sets a flag and wakes the event loop
        through waitress's trigger, a write to a pipe, so the loop sees it
        at once rather than at its next turn)."""
        self.stop_asked = time.monotonic()
        self.stopping = True
        self.pull_trigger()

    def run(self) -> None:
        """Serve until :meth:`stop`, then stop taking connections (the
        listening socket closes, so a proxy in front sends the next
        request to another replica) and answer the requests already
        taken, those being worked out included, until
        :data:`STOP_GRACE_SECONDS` after the stop was asked for; then end the worker threads, close
        every connection and return. A ``KeyboardInterrupt`` (a second
        stop asked for) skips the wait. (Waitress's own ``run`` returned at once on a stop, so the
        process ended with the answers being worked out unsent: a play
        was lost to its player, whom the proxy answered 502 though the
        other replicas were there.)"""
        try:
            while not self.stopping:
                self._loop(self.adj.asyncore_loop_timeout)
            # The connections already made are taken before the listening
            # socket closes (closing it would reset them unanswered).
            while True:
                made = len(self.connections)
                self.handle_accept()
                if len(self.connections) == made:
                    break
            wasyncore.dispatcher.close(self)
            deadline = self.stop_asked + STOP_GRACE_SECONDS
            while self._answering() and time.monotonic() < deadline:
                self._loop(0.05)
        except (SystemExit, KeyboardInterrupt):
            pass
        finally:
            self.task_dispatcher.shutdown()
            wasyncore.close_all(self.connections)

    def _loop(self, timeout: float) -> None:
        """One turn of the event loop: wait at most ``timeout`` seconds for
        a connection to be ready, and serve those that are."""
        self.asyncore.loop(
            timeout=timeout, map=self.connections, use_poll=self.adj.asyncore_use_poll, count=1
        )

    def _answering(self) -> bool:
        """Whether a connection has a request not answered yet: being
        received, worked out or sent, or on its way (a connection made less
        than :data:`FIRST_BYTES_SECONDS` ago that has sent nothing yet).
        An idle kept-alive connection has none."""
        now = time.time()
        return any(
            isinstance(channel, _Channel)
            and bool(
                channel.requests
                or channel.total_outbufs_len
                or channel.request is not None
                or (not channel.spoke and now - channel.last_activity < FIRST_BYTES_SECONDS)
            )
            for channel in list(self.connections.values())
        )


def make_server(
    app: WSGIApplication,
    host: str,
    port: int,
    threads: int = THREADS,
    read_seconds: float = REQUEST_READ_SECONDS,
    pages: dict[int, ServerPage] | None = None,
) -> _Server:
    """Return a waitress server for the WSGI ``app`` bound to ``host:port``
    (``port`` 0 picks a free one), not yet running: call ``run()``. A
    request must arrive whole within
    ``read_seconds`` of its first byte. Waitress's own error answers are
    ``pages`` (:func:`error_pages`) when given.

    Raises:
        OSError: the address cannot be bound.
    """
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        channel_timeout=IDLE_SECONDS,
        connection_limit=CONNECTION_LIMIT,
        max_request_body_size=MAX_BODY_BYTES,
        max_request_header_size=MAX_HEADER_BYTES,
        # X-Forwarded-* headers go to the app, which believes them only from
        # FLASK_TRUSTED_PROXIES proxies (werkzeug's ProxyFix).
        clear_untrusted_proxy_headers=False,
        # poll(), not select(): more than 1024 connections may be open.
        asyncore_use_poll=True,
        ident="pisti",
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(threads)
    connections: dict[int, Any] = {}
    server = _Server(app, map=connections, dispatcher=dispatcher, adj=adj)
    server.connections = connections
    server.read_seconds = read_seconds
    server.error_pages = pages or {}
    return server


def address_url(host: str, port: int) -> str:
    """The URL of a listening address, e.g. ``http://127.0.0.1:5000``; an
    IPv6 address in brackets (``http://[::1]:5000``), as URLs write it."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def main(argv: list[str] | None = None) -> int:
    """Serve the app until SIGTERM or SIGINT; return the exit status (1,
    with one ``Error:`` paragraph on standard error, for a configuration
    error)."""
    parser = argparse.ArgumentParser(prog="python -m app.serve", description=__doc__)
    parser.add_argument("--listen", default="127.0.0.1:5000", help="HOST:PORT to serve on")
    parser.add_argument("--threads", type=int, default=THREADS, help="worker threads")
    parser.add_argument(
        "--read-timeout",
        type=float,
        default=REQUEST_READ_SECONDS,
        help="seconds a request may take to arrive whole",
    )
    args = parser.parse_args(argv)
    refused = _refuse_container_port(args.listen)
    if refused is not None:
        return _fail(refused)
    host, _, port = args.listen.rpartition(":")
    if not host or _port(port) is None:
        parser.error(
            f"--listen must be HOST:PORT with a port from 0 to {MAX_PORT}, not {args.listen!r}"
        )
    refused = _refuse_debug()
    if refused is not None:
        return _fail(refused)
    waitress_log = logging.getLogger("waitress")
    waitress_log.handlers[:] = [json_handler()]
    waitress_log.setLevel(logging.INFO)
    waitress_log.propagate = False
    # The handlers come before the start-up's work (the schema's migration,
    # a replica waiting its turn on the migration lock, the search pool), so
    # a stop asked for meanwhile ends the server cleanly too: in a container
    # the server is process 1, which a SIGTERM without a handler leaves
    # running until the runtime kills it.
    stop = Stop()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    serving = False
    try:
        try:
            app = create_app()
        except click.ClickException as error:  # ConfigError, StartupError
            return _fail(error.format_message())
        except ImportError as error:
            return _fail(f"the app cannot start: {first_line(error)}")
        pages = error_pages(app)
        try:
            server = make_server(
                app,
                host.strip("[]"),
                int(port),
                args.threads,
                args.read_timeout,
                pages=pages,
            )
        except (OSError, ValueError) as error:  # ValueError: waitress cannot resolve the host
            return _fail(f"cannot listen on {args.listen}: {first_line(error)}")
        refused = _check_redis(app)
        if refused is not None:
            server.close()
            return _fail(refused)
        # The summary of the setup, like "serving on", is logged whatever
        # FLASK_LOG_LEVEL says: it is what a self-hoster reads first.
        _describe_setup(app, waitress_log)
        try:
            if app.config["SEARCH_WORKERS"] is not None:
                searches.POOL.processes = app.config["SEARCH_WORKERS"]
            searches.POOL.start()
            host, port = server.getsockname()[:2]
            waitress_log.info("serving on %s", address_url(str(host), int(port)))
            serving = True
            stop.server = server
            server.run()
        finally:
            stop_summaries(app)
            searches.shutdown()
    except KeyboardInterrupt:  # a stop asked for (Stop) before or after serving
        pass
    # A stop asked for, told from a crash (which logs its error instead).
    stopped_by = stop.signals[-1] if stop.signals else "request"
    waitress_log.info("stopped on %s%s", stopped_by, "" if serving else " while starting")
    return 0


def _port(text: str) -> int | None:
    """``text`` as a port number, 0 to :data:`MAX_PORT` (ASCII digits
    only), or ``None``."""
    if text.isascii() and text.isdigit() and int(text) <= MAX_PORT:
        return int(text)
    return None


def _refuse_container_port(listen: str) -> str | None:
    """Return the error to stop with when ``listen`` is the container's
    ``0.0.0.0:$PORT`` (its ``CMD``) and ``PORT`` is no port the container
    can be reached on: not a number from 1 to :data:`MAX_PORT` (0 would
    pick one at random, which neither ``docker run -p`` nor the health
    check can know). Named as the variable the self-hoster set, not as
    ``--listen``, which they never typed; else ``None``."""
    given = os.environ.get("PORT")
    if given is None or listen != f"0.0.0.0:{given}":
        return None
    if _port(given):  # a port, and not 0
        return None
    return (
        f"PORT: the port the container serves on must be a number from 1 to {MAX_PORT}, "
        f"not {given!r}"
    )


def _refuse_debug() -> str | None:
    """Take ``FLASK_DEBUG`` out of this process's environment, so Flask
    never reads it; return the error to stop with when it asked for debug
    mode (anything but empty, ``0``, ``false`` or ``no``), else ``None``.

    Debug mode is for development: here it would read the templates again
    for every page and serve the static files without their digests and
    year-long caching (:mod:`app.web.static_files`); under ``flask run``
    it adds the debugger, which lets anyone who reaches it run code. The
    server is never meant to be either.
    """
    value = os.environ.pop("FLASK_DEBUG", None)
    if value is None or value.strip().lower() in ("", "0", "false", "no"):
        return None
    return (
        f"FLASK_DEBUG={value!r}: the server does not run in debug mode, which is for "
        "development (`flask --app app run --debug` on your own machine, whose debugger "
        "lets anyone who reaches it run code); unset FLASK_DEBUG"
    )


def _fail(message: str) -> int:
    """Print ``message`` as the one ``Error:`` paragraph of a failed start;
    return the exit status, 1."""
    print(f"Error: {message}", file=sys.stderr)
    return 1


def _check_redis(app: Flask) -> str | None:
    """Ask the Redis of ``FLASK_REDIS_URL``, when the sessions or the review
    queue are kept there, for a ``PING``. When it does not answer, log a
    warning; the server starts all the same (Redis may still be coming up),
    and pages that need it answer 503 until it does. Return the error to
    stop with when Redis answered and refused this server (a wrong or
    missing password, a database number it does not have:
    :func:`redis_refusal`), which no wait mends; else ``None``."""
    client = getattr(app.session_interface, "client", None)
    if not isinstance(client, redis.Redis):
        if not jobs.uses_queue(app):
            return None
        client = redis_client(app.config["REDIS_URL"])
    try:
        client.ping()
    except redis.RedisError as error:
        refused = redis_refusal(error, app.config["REDIS_URL"])
        if refused is not None:
            return f"the app cannot start: {refused}"
        app.logger.warning(
            "Redis at FLASK_REDIS_URL does not answer (%s); pages that need it answer 503 "
            "until it does",
            first_line(error),
        )
    return None


def _describe_setup(app: Flask, log: logging.Logger) -> None:
    """Log to ``log``, in one line, what this server keeps where: the
    sessions, the database (passwords hidden), the schema's migration,
    where the secret key comes from and where the reviews' summaries are
    computed; then a warning if sessions are shared in Redis while the
    secret key is this instance folder's own (a server with another
    instance folder would make its own key and refuse this one's forms;
    servers sharing the folder share the key)."""
    config = app.config
    store = app.session_interface
    if isinstance(store, FileSessions):
        shared, sessions = False, f"files in {store.folder.resolve()}"
    else:
        shared, sessions = True, f"Redis at {hide_password(config['REDIS_URL'])}"
    with app.app_context():
        database = shown_url()
    key_file = os.environ.get("FLASK_SECRET_KEY_FILE")
    own_key = "FLASK_SECRET_KEY" not in os.environ and key_file is None
    if own_key:
        key = "this instance's own (instance/secret_key)"
    elif key_file is not None:
        key = f"the file {key_file} (FLASK_SECRET_KEY_FILE)"
    else:
        key = "FLASK_SECRET_KEY"
    before, after = app.extensions.get(SCHEMA, (None, None))
    schema = f"upgraded {before or 'empty'} to {after}" if before != after else f"at {after}"
    try:
        release = version("pisti")
    except PackageNotFoundError:  # run from a checkout never installed
        release = "(not installed)"
    commit = build_commit()
    said_release = release if commit is None else f"{release} (commit {commit})"
    reviews = (
        f"on the RQ queue {jobs.QUEUE!r} (run `flask --app app review-worker`)"
        if jobs.uses_queue(app)
        else "in this process"
    )
    log.info(
        "pisti %s: sessions: %s; database: %s, schema %s; secret key: %s; review summaries: %s",
        said_release,
        sessions,
        database,
        schema,
        key,
        reviews,
        # The same, field by field, for a log reader.
        extra={
            "fields": {
                "version": release,
                "commit": commit,
                "sessions": sessions,
                "database": database,
                "schema": after,
                "schema_before": before,
                "secret_key": key,
                "review_summaries": reviews,
            }
        },
    )
    if shared and own_key:
        app.logger.warning(
            "sessions are in Redis but the secret key is this instance's own: set "
            "FLASK_SECRET_KEY (or FLASK_SECRET_KEY_FILE), the same on every server, or a "
            "server with another instance folder than %s (on another machine, in another "
            "container) will refuse this one's forms and plays; servers sharing this folder "
            "share its key",
            app.instance_path,
        )


def build_commit() -> str | None:
    """Return the commit this server was built from, its first 12 hex
    digits: ``PISTI_COMMIT`` when set (the image's, given to its build as
    ``--build-arg PISTI_COMMIT=...``), else the checkout's (``git
    rev-parse``), else ``None`` (no git, no checkout)."""
    given = os.environ.get("PISTI_COMMIT", "").strip()
    if given:
        return given[:12]
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


@dataclass
class Stop:
    """The handler of the signals that stop :func:`main` (SIGTERM, SIGINT),
    called with a signal's number and the frame it came in: the first stop
    once ``server`` serves lets it answer the requests in hand
    (:meth:`_Server.stop`); a stop while starting (``server`` is ``None``),
    or a second one meanwhile, stops at once by raising
    :class:`KeyboardInterrupt` (the server's loop ends cleanly on it).
    ``signals`` are the signals received, by name (``"SIGTERM"``), the last
    logged once the server stopped."""

    server: _Server | None = None
    signals: list[str] = field(default_factory=list)

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.signals.append(signal.Signals(signum).name)
        if self.server is not None and not self.server.stopping:
            self.server.stop()
            return
        raise KeyboardInterrupt
