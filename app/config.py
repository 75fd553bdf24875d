"""Configuration: defaults, then ``FLASK_*`` environment variables, then a
test's overrides, all checked before the app starts.

``FLASK_NAME`` sets ``NAME``; its value is read as JSON when it parses
(``true``, ``3600``), else as text (Flask's ``from_prefixed_env``). A
variable this app does not know, or a value it cannot use, stops start-up
with :class:`ConfigError` naming each problem.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click
import limits
import redis
from flask import Config
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from werkzeug.sansio.utils import host_is_trusted

from .web.table import TURN_BUDGET_MS

#: A host name a URL may carry: dot-separated labels of 1 to 63 letters,
#: digits, ``-`` or ``_`` (so an IPv4 address too), or an IPv6 address in
#: brackets. Names IDNA cannot encode (a longer label, ``a..b``) do not match.
HOST_NAME = re.compile(
    r"(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
    r"(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?"
    r"|\[[0-9A-Fa-f:.]{2,45}\])"
)

#: The settings a self-hoster may change, with their defaults.
DEFAULTS: dict[str, Any] = {
    "SECRET_KEY": None,  # None: generated once and kept in the instance folder
    "SESSION_BACKEND": "filesystem",  # or "redis"
    "SESSION_FILE_DIR": None,  # None: the instance folder's "sessions"
    "REDIS_URL": None,  # required with the redis backend
    "PERMANENT_SESSION_LIFETIME": 31 * 24 * 3600,  # seconds an idle game is kept
    "SESSION_COOKIE_SECURE": False,
    "LOG_LEVEL": "INFO",
    "LOG_ADDRESSES": True,  # false: the log gives no client address
    # Per client address, every form that deals a game (security.GAME_CREATION);
    # hands kept for review have as many of their own
    "NEW_GAME_LIMIT": "120 per minute",
    "PLAY_LIMIT": "5 per second",  # plays, next hands and searching review steps, per game
    # ... and per client address: one address may be many players (a school,
    # a café, a mobile network's shared address, a proxy not yet trusted):
    # 60 players each playing every 1 to 3 s fit
    "PLAY_ADDRESS_LIMIT": "60 per second",
    "RATELIMIT_ENABLED": True,
    "TRUSTED_PROXIES": 0,  # proxies in front whose X-Forwarded-* headers to believe
    "EXPERT_MS": 150,  # the Expert level's thinking time per move, milliseconds
    "DATABASE_URL": None,  # None: SQLite in the instance folder; or postgresql://...
    # Per client address, the leaderboard pages (the Daily deal's among them):
    # a class or two behind one address opening them together fit
    "RANKING_LIMIT": "600 per minute",
    "TRUSTED_HOSTS": None,  # Host names the site answers to, e.g. ["pisti.example"]; None: any
    "SERVER_NAME": None,  # the public host[:port] share links use; None: see security.py
    "REVIEW_QUEUE": None,  # review summaries on RQ (true) or in-process; None: RQ with redis
    "REVIEWS_KEPT": 10_000,  # the most hands kept for review; past it the oldest go
    "SESSIONS_PER_ADDRESS": 100,  # stored sessions per client address; past it the idlest go
    "SEARCH_WORKERS": None,  # the search pool's processes; None: one per core (searches.cores)
}

#: Fixed settings: not read from the environment (a test may override
#: them).
FIXED: dict[str, Any] = {
    "SESSION_PERMANENT": True,
    "SESSION_COOKIE_NAME": "pisti_session",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_FILE_THRESHOLD": 100_000,
    # A CSRF token lives as long as the session: a long game never meets an
    # "expired form".
    "WTF_CSRF_TIME_LIMIT": None,
    "MAX_CONTENT_LENGTH": 16 * 1024,
    # A dead rate-limit store must not take the site down with it: while
    # Redis is down, each process counts the limits in its own memory (one
    # warning), and goes back to Redis once it answers again.
    "RATELIMIT_SWALLOW_ERRORS": True,
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
}

#: Variables the ``flask`` command itself reads (``flask run``'s options
#: among them); not configuration.
_CLI_NAMES = {"APP", "DEBUG", "ENV_FILE", "SKIP_DOTENV"}
_CLI_PREFIX = "RUN_"
#: The database URL schemes the installed drivers serve (``postgresql://``
#: is taken as psycopg 3).
_DATABASE_DRIVERS = ("sqlite", "sqlite+pysqlite", "postgresql", "postgres", "postgresql+psycopg")
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_HOST_PORT = re.compile(HOST_NAME.pattern + r"(:[0-9]{1,5})?")
#: The port at the end of ``host:port`` (``[::1]`` has none).
_PORT = re.compile(r":([0-9]{1,5})$")
_MIN_SECRET = 16
#: ... and at least this many different ones: not "aaaa…", "abab…", "abcabc…"
#: (16 random hex digits have fewer about once in a billion).
_MIN_SECRET_VARIETY = 4
#: The longest an idle game may be kept, in seconds (ten years): the file
#: store writes a session's expiry time as a 32-bit number of seconds.
MAX_SESSION_LIFETIME = 10 * 365 * 24 * 3600
#: The most search worker processes a server may be given
#: (``FLASK_SEARCH_WORKERS``): a search's line never holds more
#: (``app.searches.MAX_IN_FLIGHT``).
MAX_SEARCH_WORKERS = 24
#: Variables once read by Flask that it no longer reads, with what to do.
_RETIRED = {"ENV": "Flask no longer reads it since Flask 2.3: remove it"}
#: A URL's ``scheme://user:`` and its password up to the first ``@``.
_USER_PASSWORD = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:/@?#]*:)[^@]*@")
#: A password in a URL's query (redis-py reads one for a Unix socket).
_QUERY_PASSWORD = re.compile(r"((?:^|&)password=)[^&]*")
#: The URL settings whose values may hold a password.
_SECRET_URLS = ("DATABASE_URL", "REDIS_URL")
#: The settings that may also be read from a file named by
#: ``FLASK_<NAME>_FILE`` (a Docker or Kubernetes secret), so the secret
#: stays out of the environment.
FROM_FILE = ("SECRET_KEY", *_SECRET_URLS)


class ConfigError(click.ClickException):
    """The configuration cannot be used; the message names every problem,
    one per line, by its environment variable.

    The server (:mod:`app.serve`) prints it as one ``Error:`` paragraph and
    exits with status 1; so does every ``flask --app app`` command (a
    :class:`click.ClickException`, which click shows without a traceback).
    """


def load(config: Config, test_config: dict[str, Any] | None = None) -> None:
    """Fill ``config`` from the defaults, the ``FLASK_*`` environment and
    ``test_config``, then check it.

    Normalises ``LOG_LEVEL`` to upper case and a numeric
    ``FLASK_SECRET_KEY`` back to text.

    Raises:
        ConfigError: an unknown ``FLASK_*`` variable, or a value that cannot
            be used.
    """
    config.from_mapping(DEFAULTS)
    config.from_mapping(FIXED)
    # Only this app's settings: the fixed ones, Flask's and the extensions'
    # others (a typo such as FLASK_RATELIMIT_ENABLE among them) are not
    # knobs here.
    known = DEFAULTS.keys() | _CLI_NAMES | {f"{name}_FILE" for name in FROM_FILE}
    problems = [
        f"FLASK_{name}: unknown setting ({_unknown_hint(name, known)})"
        for name in sorted(_environment_names())
        if name not in known and not name.startswith(_CLI_PREFIX)
    ]
    config.from_prefixed_env()
    secret = os.environ.get("FLASK_SECRET_KEY")
    if secret is not None:
        config["SECRET_KEY"] = secret
    for name in FROM_FILE:
        config.pop(f"{name}_FILE", None)
        path = os.environ.get(f"FLASK_{name}_FILE")
        if path is not None:
            problems += _read_setting_file(config, name, path)
    secret = config["SECRET_KEY"]
    if isinstance(secret, str) and (
        len(secret) < _MIN_SECRET or len(set(secret)) < _MIN_SECRET_VARIETY
    ):
        source = (
            "FLASK_SECRET_KEY_FILE" if "FLASK_SECRET_KEY_FILE" in os.environ else "FLASK_SECRET_KEY"
        )
        problems.append(
            f"{source}: use at least {_MIN_SECRET} random characters (this one has "
            f"{len(secret)}, {len(set(secret))} of them different), e.g. the output of "
            "python3 -c 'import secrets; print(secrets.token_hex(32))'"
        )
    if test_config:
        config.update(test_config)
    problems += _check(config)
    if problems:
        raise ConfigError("configuration error:\n  " + "\n  ".join(problems))


def _read_setting_file(config: Config, name: str, path: str) -> list[str]:
    """Set ``config[name]`` from the file ``FLASK_<name>_FILE`` names: its
    text (UTF-8), one final line ending dropped. Return the problems: both
    variables set, a file that cannot be read, an empty one."""
    variable = f"FLASK_{name}_FILE"
    if f"FLASK_{name}" in os.environ:
        return [f"{variable}: set FLASK_{name} or {variable}, not both"]
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return [f"{variable}: cannot read {path!r} ({reason})"]
    value = text.removesuffix("\n").removesuffix("\r")
    if not value:
        return [f"{variable}: {path!r} is empty"]
    config[name] = value
    return []


def _environment_names() -> set[str]:
    return {key.removeprefix("FLASK_") for key in os.environ if key.startswith("FLASK_")}


def _unknown_hint(name: str, known: set[str]) -> str:
    """What to do about an unknown ``FLASK_<name>``: remove a variable
    Flask no longer reads, mend a near miss of a known one, else read the
    README."""
    if name in _RETIRED:
        return _RETIRED[name]
    near = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.8)
    if near:
        return f"did you mean FLASK_{near[0]}?"
    return "see the README's Self-hosting section"


def hide_password(url: str) -> str:
    """Return ``url`` with its password shown as ``***``, for messages and
    logs: the one after the user name, and a ``password=`` of the query
    (a Redis socket's)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "***"
    hidden = url
    user_info, at, host = parts.netloc.rpartition("@")
    if at and ":" in user_info:
        user = user_info.split(":", 1)[0]
        hidden = hidden.replace(parts.netloc, f"{user}:***@{host}", 1)
    elif not at:
        # A "/", "?" or "#" in the password (unencoded) ends the netloc
        # early: hidden up to the first "@", as SQLAlchemy reads it.
        hidden = _USER_PASSWORD.sub(r"\1***@", url, count=1)
        parts = urlsplit(hidden)
    if parts.query:
        query = _QUERY_PASSWORD.sub(r"\1***", parts.query)
        hidden = hidden.replace(f"?{parts.query}", f"?{query}", 1)
    return hidden


def _needs_encoding(name: str, url: str) -> bool:
    """Whether the URL of setting ``name`` has a user name or password
    that its reader would split in the wrong place: an ``@`` for SQLAlchemy
    (which reads the database URL), seen in the host or, after a ``/`` in
    the password, in the database's name; any of ``@ # / ?`` for
    redis-py (which splits the URL as a browser does), seen as more than
    one ``@`` before the path or one after it. SQLite paths and Unix
    sockets are files, where these are ordinary characters."""
    scheme = url.partition("://")[0]
    if scheme.startswith(("sqlite", "unix")):
        return False
    if name == "DATABASE_URL":
        try:
            parsed = make_url(url)
        except (ArgumentError, ValueError):
            return False
        # A "/" in the password ends the host early: the rest, "@" and
        # all, is read as the database's name.
        return "@" in (parsed.host or "") + (parsed.database or "")
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.netloc.count("@") > 1 or "@" in parts.path + parts.query + parts.fragment


def _check(config: Config) -> list[str]:
    """Return one message per unusable value (normalising ``LOG_LEVEL``)."""
    problems = []

    def bad(name: str, rule: str) -> None:
        value = config[name]
        if name in _SECRET_URLS and isinstance(value, str):
            value = hide_password(value)
        problems.append(f"FLASK_{name}: {rule}, not {value!r}")

    # A URL read in the wrong place would show part of its password in the
    # other checks' messages: it is checked no further.
    unencoded = {
        name
        for name in _SECRET_URLS
        if isinstance(config[name], str) and _needs_encoding(name, config[name])
    }
    for name in sorted(unencoded):
        problems.append(
            f"FLASK_{name}: percent-encode the user name and password "
            "(@ as %40, # as %23, / as %2F, ? as %3F, : as %3A)"
        )

    if not isinstance(config["SECRET_KEY"], (str, bytes, type(None))):
        bad("SECRET_KEY", "must be text")
    backend = config["SESSION_BACKEND"]
    if backend not in ("filesystem", "redis"):
        bad("SESSION_BACKEND", "must be filesystem or redis")
    # An empty one (a compose file's ${VARIABLE} left unset) is refused, as
    # an empty FLASK_DATABASE_URL is, rather than read as the default.
    if (
        not isinstance(config["SESSION_FILE_DIR"], (str, type(None)))
        or config["SESSION_FILE_DIR"] == ""
    ):
        bad("SESSION_FILE_DIR", "must be a folder path (unset: the instance folder's sessions)")
    url = config["REDIS_URL"]
    if url is None:
        if backend == "redis":
            problems.append(
                "FLASK_REDIS_URL: required with FLASK_SESSION_BACKEND=redis, e.g. redis://redis:6379/0"
            )
    elif not isinstance(url, str):
        bad("REDIS_URL", "must be a URL such as redis://host:6379/0")
    elif "REDIS_URL" not in unencoded:
        try:
            redis.Redis.from_url(url)
            # redis-py reads a path that is not a number as database 0.
            parts = urlsplit(url)
            if parts.scheme != "unix" and not re.fullmatch(r"/?[0-9]*", parts.path):
                raise ValueError("the path must be a database number such as /0")
        except ValueError as exc:
            bad("REDIS_URL", f"must be a URL such as redis://host:6379/0 ({exc})")
    lifetime = config["PERMANENT_SESSION_LIFETIME"]
    if isinstance(lifetime, timedelta):
        lifetime = lifetime.total_seconds()
    elif not _is_int(lifetime):
        lifetime = 0
    if not 0 < lifetime <= MAX_SESSION_LIFETIME:
        bad(
            "PERMANENT_SESSION_LIFETIME",
            f"must be a whole number of seconds from 1 to {MAX_SESSION_LIFETIME} (ten years)",
        )
    for name in ("SESSION_COOKIE_SECURE", "RATELIMIT_ENABLED", "LOG_ADDRESSES"):
        if not isinstance(config[name], bool):
            bad(name, "must be true or false")
    level = config["LOG_LEVEL"]
    if isinstance(level, str) and level.upper() in _LOG_LEVELS:
        config["LOG_LEVEL"] = level.upper()
    else:
        bad("LOG_LEVEL", f"must be one of {', '.join(_LOG_LEVELS)}")
    for name in ("NEW_GAME_LIMIT", "PLAY_LIMIT", "PLAY_ADDRESS_LIMIT"):
        if not _is_rate(config[name]):
            bad(name, 'must be a rate such as "30 per minute" or "10/second;200/hour", above 0')
    if not (_is_int(config["TRUSTED_PROXIES"]) and config["TRUSTED_PROXIES"] >= 0):
        bad("TRUSTED_PROXIES", "must be a whole number, 0 or more")
    expert_ms = config["EXPERT_MS"]
    if not (
        isinstance(expert_ms, (int, float))
        and not isinstance(expert_ms, bool)
        and 1 <= expert_ms <= TURN_BUDGET_MS
    ):
        bad(
            "EXPERT_MS",
            f"must be a number of milliseconds from 1 to {TURN_BUDGET_MS:.0f} "
            "(the most one answer to a play may think)",
        )
    hosts = config["TRUSTED_HOSTS"]
    trusted: list[str] | None = None
    if hosts is not None and not (
        isinstance(hosts, list)
        and hosts
        and all(isinstance(host, str) and HOST_NAME.fullmatch(host.lstrip(".")) for host in hosts)
    ):
        bad("TRUSTED_HOSTS", 'must be a list of host names such as ["pisti.example", ".example"]')
    elif hosts is not None:
        # Host names ignore case; the Host header is compared in lower case.
        config["TRUSTED_HOSTS"] = [without_root_dot(host.lower()) for host in hosts]
        trusted = config["TRUSTED_HOSTS"]
    server_name = config["SERVER_NAME"]
    if server_name is not None and not (
        isinstance(server_name, str)
        and _HOST_PORT.fullmatch(server_name)
        and _port(server_name) <= 65535
    ):
        bad("SERVER_NAME", "must be a host name with an optional port, such as pisti.example")
    elif (
        server_name is not None
        and trusted
        and not host_is_trusted(without_root_dot(server_name.lower()), trusted)
    ):
        bad("SERVER_NAME", "must be one of FLASK_TRUSTED_HOSTS, the hosts the site answers to")
    for name in ("REVIEWS_KEPT", "SESSIONS_PER_ADDRESS"):
        if not (_is_int(config[name]) and config[name] >= 1):
            bad(name, "must be a whole number, 1 or more")
    workers = config["SEARCH_WORKERS"]
    if workers is not None and not (_is_int(workers) and 1 <= workers <= MAX_SEARCH_WORKERS):
        bad("SEARCH_WORKERS", f"must be a whole number from 1 to {MAX_SEARCH_WORKERS}")
    review_queue = config["REVIEW_QUEUE"]
    if review_queue is not None and not isinstance(review_queue, bool):
        bad("REVIEW_QUEUE", "must be true or false")
    elif review_queue and url is None:
        problems.append("FLASK_REVIEW_QUEUE: the review queue needs FLASK_REDIS_URL")
    database = config["DATABASE_URL"]
    if database is not None and "DATABASE_URL" not in unencoded:
        try:
            if not isinstance(database, str):
                raise ArgumentError("not text")
            if make_url(database).drivername not in _DATABASE_DRIVERS:
                raise ArgumentError("not sqlite or postgresql with psycopg 3")
        except (ArgumentError, ValueError):
            bad(
                "DATABASE_URL",
                "must be a URL such as postgresql://user:password@host/pisti "
                "(psycopg 3, the driver installed) or sqlite:////path/pisti.db",
            )
    if not _is_rate(config["RANKING_LIMIT"]):
        bad("RANKING_LIMIT", 'must be a rate such as "60 per minute", above 0')
    if not (_is_int(config["MAX_CONTENT_LENGTH"]) and config["MAX_CONTENT_LENGTH"] > 0):
        bad("MAX_CONTENT_LENGTH", "must be a number of bytes above 0")
    return problems


def without_root_dot(host: str) -> str:
    """Return ``host`` (``name[:port]``) without a final dot on its name:
    ``pisti.example.`` (the root's dot written out) is ``pisti.example``.
    One dot only: ``a..`` stays as it is, and refused."""
    found = _PORT.search(host)
    name, port = (host[: found.start()], host[found.start() :]) if found else (host, "")
    if name.endswith(".") and not name.endswith(".."):
        name = name[:-1]
    return name + port


def _port(host: str) -> int:
    """The port of ``host`` (``name[:port]``, ``[v6][:port]``), 0 for none."""
    found = _PORT.search(host)
    return int(found.group(1)) if found else 0


def _is_rate(value: object) -> bool:
    """Whether ``value`` is a rate limit's text (``"30 per minute"``,
    ``"10/second;200/hour"``) whose every rate lets at least one request
    through: ``0 per minute`` would refuse everyone, for ever."""
    try:
        return isinstance(value, str) and all(rate.amount >= 1 for rate in limits.parse_many(value))
    except ValueError:
        return False


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: The ``flask`` command's options that take a value (before the command).
FLASK_OPTIONS = frozenset({"-A", "--app", "-e", "--env-file"})


def flask_command() -> str | None:
    """The name of the ``flask`` command loading the app (``"db"``,
    ``"replay"``...), or ``None`` when no ``flask`` command is (the server,
    a test). Click has not split the command line when the app is loaded,
    so its first word that is no option (nor an option's value) is read
    here."""
    if click.get_current_context(silent=True) is None:
        return None
    words = iter(sys.argv[1:])
    for word in words:
        if word in FLASK_OPTIONS:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None
