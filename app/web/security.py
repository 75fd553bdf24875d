"""Security headers on every response, refusing malformed forms and Host
headers, trusting a reverse proxy's ``X-Forwarded-*`` headers when told to
(its ``X-Forwarded-Prefix`` too: the site served under a path such as
``/pisti``), and the rate limits on creating games and on playing."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

import redis
from flask import Flask, Response, abort, current_app, g, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import BadRequest
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.sansio.utils import host_is_trusted

from app.config import HOST_NAME, without_root_dot
from app.logs import error_in_one_line

if TYPE_CHECKING:
    from _typeshed import OptExcInfo
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask.typing import RouteCallable

#: No inline script or style, nothing from other sites, never in a frame.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    # For browsers too old for frame-ancestors.
    "X-Frame-Options": "DENY",
}
#: What :class:`SecurityHeaders` adds: :data:`HEADERS`, and ``private``
#: caching, as a page is drawn for its visitor (their game, name,
#: language), never to be kept by a cache between the site and them. An
#: answer that says more keeps its own (the table's ``no-store``, the
#: static files' ``public``); a proxy in front adds only :data:`HEADERS`
#: to its own error pages.
_HEADER_ITEMS = [*HEADERS.items(), ("Cache-Control", "private")]
#: The endpoints that deal a new game, sharing one rate limit.
GAME_CREATION = (
    "game.new_game",
    "game.deal",
    "house.start",
    "daily.play",
    "daily.play_past",
    "story.play",
)
#: The endpoints that keep a hand for review (each may start a summary),
#: sharing a limit of their own, as many as ``NEW_GAME_LIMIT``.
REVIEW_KEEPING = ("review.upload", "review.from_game")
#: The leaderboard pages and the transfer code form, sharing ``RANKING_LIMIT``.
RANKING = ("daily.page", "daily.past", "players.leaderboard", "players.continue_here")
#: The endpoints that make the computers answer, sharing ``PLAY_LIMIT`` and
#: ``PLAY_ADDRESS_LIMIT``; their 429 says the move was not made.
PLAYING = ("game.play", "game.next_hand")
#: A review's step, which searches unless it is stored already: counted in
#: the same limits only when it searched (:data:`SEARCHED`).
SEARCHING = ("review.step",)
#: The key of ``flask.g`` a view sets when it ran a search.
SEARCHED = "searched"
#: The environ key :class:`HostCheck` sets on a request with a bad Host:
#: why it was refused.
BAD_HOST = "pisti.bad_host"
#: The environ key :class:`PrefixCheck` sets on a request whose
#: ``X-Forwarded-Prefix`` is not a plain path: why it was refused.
BAD_PREFIX = "pisti.bad_prefix"
#: The longest host name DNS allows.
_MAX_HOST = 253
#: A path prefix the site may be served under: segments of letters, digits
#: and ``. _ ~ -`` (none of them ``.`` or ``..``), each after a slash.
PREFIX = re.compile(r"(/(?!\.{1,2}(?:/|$))[A-Za-z0-9._~-]+)+")
#: The longest prefix taken.
MAX_PREFIX = 200


def plain_prefix(prefix: str) -> str | None:
    """Return ``prefix``, a path a proxy says the site is served under,
    without a slash at its end (``""``: the root), or ``None`` when it is
    not a plain path (:data:`PREFIX`, at most :data:`MAX_PREFIX`
    characters)."""
    prefix = prefix.rstrip("/")
    if not prefix or (len(prefix) <= MAX_PREFIX and PREFIX.fullmatch(prefix)):
        return prefix
    return None


def init_security(app: Flask) -> None:
    """Add the security headers (:class:`SecurityHeaders`) and the
    malformed-form check to ``app`` and, with ``TRUSTED_PROXIES`` above 0,
    the proxy fix. (A refused POST never sets a session cookie:
    :mod:`app.sessions` stores nothing for an error answer.)

    Requests whose Host (after the proxy fix) is not a host name, or not
    one of ``TRUSTED_HOSTS`` when that is set, are answered 400 by the app's
    error page (see :class:`HostCheck`). Share links use ``SERVER_NAME``;
    unset, without trusted proxies, the first of ``TRUSTED_HOSTS`` when it
    is a plain name, else the request's (checked) Host, which with trusted
    proxies is the nearest one's ``X-Forwarded-Host``, port included (a
    proxy on another port than 443 or 80 sends it, as nginx's
    ``$host:$server_port``). ``X-Forwarded-Port`` is not read: proxies that
    do not set it (nginx, Caddy) pass a client's own on.

    With trusted proxies, the nearest one's ``X-Forwarded-Prefix`` (as
    many from the end as for the other headers) is the path the site is
    served under: it becomes the request's ``SCRIPT_NAME``, so every URL
    that ``url_for`` builds, the cookies' ``Path`` and the share links
    carry it (see :class:`PrefixCheck`).

    Call before CSRF protection is set up, so that a form CSRF cannot read
    is a 400, not a 500.
    """
    app.before_request(_refuse_bad_requests)
    trusted = app.config["TRUSTED_HOSTS"]
    proxies = app.config["TRUSTED_PROXIES"]
    if (
        app.config["SERVER_NAME"] is None
        and not proxies
        and trusted
        and not trusted[0].startswith(".")
    ):
        app.config["SERVER_NAME"] = trusted[0]
    app.wsgi_app = SecurityHeaders(HostCheck(app.wsgi_app, trusted))
    if proxies:
        app.wsgi_app = ProxyFix(
            PrefixCheck(app.wsgi_app),
            x_for=proxies,
            x_proto=proxies,
            x_host=proxies,
            x_prefix=proxies,
        )


class SecurityHeaders:
    """WSGI middleware adding :data:`HEADERS` and ``Cache-Control:
    private`` to every response, each one the response does not carry
    already.

    It adds them to the plain list of header pairs the app gives the
    server, which costs a fraction of a microsecond, where setting them on
    a Flask response (an ``after_request`` hook) cost some 30 µs a request:
    werkzeug's ``Headers`` checks each name and value it is given.
    """

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Call the wrapped app, adding the headers as it starts its response."""

        def start_secured(
            status: str, headers: list[tuple[str, str]], exc_info: OptExcInfo | None = None
        ) -> Callable[[bytes], object]:
            present = {name.lower() for name, _ in headers}
            headers.extend(item for item in _HEADER_ITEMS if item[0].lower() not in present)
            return start_response(status, headers, exc_info)

        return self.app(environ, start_secured)


class HostCheck:
    """WSGI middleware refusing a Host header that no URL can carry (a
    label over 63 characters, ``a..b``, stray characters) or, with
    ``trusted`` hosts (as in Flask's ``TRUSTED_HOSTS``), one not among
    them.

    A refused request goes on with a harmless Host (so building the error
    page's links cannot fail) and :data:`BAD_HOST` set in its environ to
    why it was refused; the app then logs that and answers
    :class:`UnknownHost`, a 400 with its usual error page and headers. A
    request without a Host header (HTTP/1.0 allows it) is answered as the
    first trusted host when trusted hosts are set.
    """

    def __init__(self, app: WSGIApplication, trusted: list[str] | None) -> None:
        self.app = app
        self.trusted = trusted
        self.stand_in = trusted[0].lstrip(".") if trusted else "localhost"

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Check the Host (in lower case: host names ignore case), then call
        the wrapped app."""
        host = environ.get("HTTP_HOST")
        if host is None and self.trusted is not None:
            # No Host (HTTP/1.0 allows it): the site, not the server's own
            # name, which no trusted host names.
            environ["HTTP_HOST"] = self.stand_in
        elif host is not None:
            sent = host.lower()
            host = environ["HTTP_HOST"] = without_root_dot(sent)
            refusal = self.refusal(host, sent)
            if refusal:
                environ[BAD_HOST] = refusal
                environ["HTTP_HOST"] = self.stand_in
        return self.app(environ, start_response)

    def refusal(self, host: str, sent: str | None = None) -> str | None:
        """Why ``host`` (``name[:port]``) is refused, for the log (which
        shows the Host as ``sent``, when given): it is not a host name, or
        not a trusted one when trusted hosts are set; ``None`` when it is
        acceptable."""
        name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
        if not name:
            name, port = host, ""
        shown = repr((sent or host)[:100])
        if port and not (port.isascii() and port.isdigit() and len(port) <= 5):
            return f"the Host {shown} has no valid port"
        if len(name) > _MAX_HOST or not HOST_NAME.fullmatch(name):
            return f"the Host {shown} is not a host name"
        if self.trusted is None or host_is_trusted(host, self.trusted):
            return None
        return f"the Host {shown} is not one of FLASK_TRUSTED_HOSTS"


class PrefixCheck:
    """WSGI middleware behind werkzeug's ``ProxyFix``, checking the path
    prefix it took from ``X-Forwarded-Prefix`` (now ``SCRIPT_NAME``): a
    slash at its end is dropped (``/`` is the root); one that is not a
    plain path (:data:`PREFIX`) is put back to the server's own, with
    :data:`BAD_PREFIX` set in the environ to why, and the app answers 400.
    """

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Check ``SCRIPT_NAME`` when the proxy fix changed it, then call
        the wrapped app."""
        original = environ.get("werkzeug.proxy_fix.orig", {}).get("SCRIPT_NAME") or ""
        prefix = environ.get("SCRIPT_NAME") or ""
        if prefix != original:
            plain = plain_prefix(prefix)
            if plain is None:
                environ[BAD_PREFIX] = (
                    f"the X-Forwarded-Prefix {prefix.rstrip('/')[:100]!r} is not a path such as"
                    " /pisti"
                )
                plain = original
            environ["SCRIPT_NAME"] = plain
        return self.app(environ, start_response)


def cookie_path() -> str:
    """The ``Path`` of the site's cookies in this request: the path the
    site is served under (a proxy's ``X-Forwarded-Prefix``, see
    :class:`PrefixCheck`), so that other sites under the same host name
    never get them, else ``/``."""
    return request.script_root or "/"


def limit_game_creation(app: Flask, redis_client: redis.Redis | None) -> None:
    """Rate-limit creating games: ``NEW_GAME_LIMIT`` per client address,
    shared by the endpoints of :data:`GAME_CREATION`; and the leaderboards:
    ``RANKING_LIMIT``, shared by :data:`RANKING` (none when
    ``RATELIMIT_ENABLED`` is false).

    Plays and next hands (:data:`PLAYING`) are limited to ``PLAY_LIMIT``
    per game and, separately, to ``PLAY_ADDRESS_LIMIT`` per client address
    (higher: one address may be many players): every one may make the
    computers search; a review's step (:data:`SEARCHING`) counts in the
    same limits only when it searched (a stored step is read freely).
    Keeping hands for review (:data:`REVIEW_KEEPING`) has a limit of its
    own, as many a minute as new games, so uploads never use up the
    player's new games.

    Counted in Redis, a limit is a moving window, exact: a request passes
    when fewer than the limit passed in the window's length before it (a
    list of their times per key, at most the limit long, expiring with the
    window; counted in memory while Redis is down). In memory, ``limits``
    (5.8) keeps every key of a moving window once its times are past, one
    per game ever played, so there the limit is a sliding window counter,
    whose counts go with their windows: it weighs the last window's count
    by the part of it still inside the window that ends now, so a burst
    over a window's boundary is refused, as fixed windows would not; it is
    an estimate: requests at a window's end and others spread over the
    next window pass up to twice a limit within one window's length
    (measured, "3 per minute": plays 1, 2 and 3 s before a window's start,
    then 1, 21 and 41 s after it), never more.
    Call after every blueprint is registered. Hits are counted in Redis
    when ``redis_client`` is given, so all instances share them; else in
    the server process's memory (one process: :mod:`app.serve`).

    Raises:
        KeyError: a game-creation endpoint is missing.
    """
    if not app.config["RATELIMIT_ENABLED"]:
        return
    storage: dict[str, Any] = {"storage_uri": "memory://"}
    # Exact in Redis; in memory, counts that go once their windows are past.
    strategy = "sliding-window-counter"
    if redis_client is not None:
        strategy = "moving-window"
        storage = {
            "storage_uri": "redis://",
            "storage_options": {"connection_pool": redis_client.connection_pool},
        }
    limiter = Limiter(
        _address_key,
        app=app,
        key_prefix="pisti-limit",
        strategy=strategy,
        **storage,
    )
    # A limit's storage error (Redis stalled: every request in flight fails on it
    # once, before the limits move to memory) in one line, not a traceback.
    limiter.logger.addFilter(error_in_one_line)
    creating = limiter.shared_limit(app.config["NEW_GAME_LIMIT"], scope="new-game")
    for endpoint in GAME_CREATION:
        app.view_functions[endpoint] = cast("RouteCallable", creating(app.view_functions[endpoint]))
    keeping = limiter.shared_limit(app.config["NEW_GAME_LIMIT"], scope="review-keeping")
    for endpoint in REVIEW_KEEPING:
        app.view_functions[endpoint] = cast("RouteCallable", keeping(app.view_functions[endpoint]))
    ranking = limiter.shared_limit(app.config["RANKING_LIMIT"], scope="ranking")
    for endpoint in RANKING:
        app.view_functions[endpoint] = cast("RouteCallable", ranking(app.view_functions[endpoint]))

    def searched(_response: Response) -> bool:
        return bool(g.get(SEARCHED))

    # Plays count every time; a review's step only when it searched.
    for endpoints, deduct_when in ((PLAYING, None), (SEARCHING, searched)):
        per_game = limiter.shared_limit(
            app.config["PLAY_LIMIT"], scope="play", key_func=_game_key, deduct_when=deduct_when
        )
        per_address = limiter.shared_limit(
            app.config["PLAY_ADDRESS_LIMIT"], scope="play-address", deduct_when=deduct_when
        )
        for endpoint in endpoints:
            limited = per_address(per_game(app.view_functions[endpoint]))
            app.view_functions[endpoint] = cast("RouteCallable", limited)


def _game_key() -> str:
    # The game a play is for: the form's game id, else the session's cookie.
    game = request.form.get("game") or request.cookies.get(
        current_app.config["SESSION_COOKIE_NAME"], ""
    )
    return f"game:{game[:64]}" if game else f"address:{_address_key()}"


def address_digest(address: str) -> str:
    """A client address as the stores keep it (the sessions counted per
    address, the rate limits' counts): an HMAC-SHA256 of it under the
    secret key, the same on every replica, so the count works while no
    address is kept in Redis or in the name of a sessions file (a plain
    hash of an IPv4 address is undone by trying all 2^32).

    ``address`` is the client's address as text. An IPv6 address counts as
    its /64 network (:func:`counted_address`)."""
    key = str(current_app.secret_key or "").encode()
    return hmac.new(key, counted_address(address).encode(), hashlib.sha256).hexdigest()[:32]


def counted_address(address: str) -> str:
    """The part of a client address that the per-address limits count:
    an IPv4 address whole (``"192.0.2.7"``), an IPv6 address as its /64
    network (``"2001:db8:1:2::/64"``), as one home or phone is given a
    whole /64 and may take any address in it, and an IPv4-mapped IPv6
    address (``"::ffff:192.0.2.7"``) as its IPv4 address. A port after
    the address (``"192.0.2.7:51234"``, ``"[2001:db8::1]:443"``: some
    proxies forward one) is left out, or each connection would count
    apart. Text that is no address (a test client's, a Unix socket's) is
    counted as it is."""
    host = _without_port(address)
    try:
        parsed = ipaddress.ip_address(host)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv4Address):
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((parsed, 64), strict=False))


#: An address with a port: ``192.0.2.7:51234`` or ``[2001:db8::1]:443``.
_WITH_PORT = re.compile(r"\[(?P<v6>[^\]]+)\](?::[0-9]{1,5})?|(?P<v4>[0-9.]+):[0-9]{1,5}")


def _without_port(address: str) -> str:
    """``address`` without the brackets and port around it, if any."""
    found = _WITH_PORT.fullmatch(address)
    if found is None:
        return address
    return found.group("v6") or found.group("v4")


def _address_key() -> str:
    """The client's address as the rate limits count it: a keyed digest
    (:func:`address_digest`), so Redis keeps no address."""
    return address_digest(get_remote_address())


#: The key of ``app.extensions`` set once :func:`_check_forwarding` warned.
UNTRUSTED_PROXY_WARNED = "pisti.untrusted_proxy_warned"


def _check_forwarding(forwarded: str) -> None:
    """Warn once per process when the players' addresses look like a proxy's
    (``forwarded``: the request's ``X-Forwarded-For``): it came while
    ``TRUSTED_PROXIES`` is 0, or the address taken from it is a private one
    with more addresses before it (a TLS proxy in front of the compose nginx
    with ``TRUSTED_PROXIES`` left at 1). Then every player counts as that
    proxy's address, sharing one address's rate limits and bound of stored
    sessions, until the self-hoster sets it. (A client may send its own
    ``X-Forwarded-For``: the warning says "if".)"""
    if current_app.extensions.get(UNTRUSTED_PROXY_WARNED):
        return
    proxies = current_app.config["TRUSTED_PROXIES"]
    address = request.remote_addr or ""
    if proxies:
        try:
            private = ipaddress.ip_address(address).is_private
        except ValueError:
            return
        if not private or forwarded.count(",") < proxies:
            return
        seen = (
            f"X-Forwarded-For has addresses before the one FLASK_TRUSTED_PROXIES ({proxies}) "
            "takes, a private one"
        )
    else:
        seen = "a request came with X-Forwarded-For, but FLASK_TRUSTED_PROXIES is 0"
    current_app.extensions[UNTRUSTED_PROXY_WARNED] = True
    current_app.logger.warning(
        "%s: if a proxy of yours sent it, every player counts as its address %s (one "
        "address's rate limits and FLASK_SESSIONS_PER_ADDRESS for all of them, the log's addr "
        "too); set FLASK_TRUSTED_PROXIES to the number of proxies in front of the app",
        seen,
        address if current_app.config["LOG_ADDRESSES"] else "(not logged)",
    )


class UnknownHost(BadRequest):
    """A request whose Host this server does not answer to (see
    :class:`HostCheck`): a 400 that says so."""


def _refuse_bad_requests() -> None:
    # One hook for both checks: Flask looks at each hook on every request.
    refusal = request.environ.get(BAD_HOST)
    if refusal:
        current_app.logger.warning("request refused: %s", refusal)
        raise UnknownHost()
    refusal = request.environ.get(BAD_PREFIX)
    if refusal:
        current_app.logger.warning("request refused: %s", refusal)
        abort(400)
    forwarded = request.environ.get("HTTP_X_FORWARDED_FOR")
    if forwarded:
        _check_forwarding(forwarded)
    # A multipart part whose name cannot be read comes out with the name
    # None, which the CSRF check cannot handle.
    if request.method == "POST" and (None in request.form or None in request.files):
        abort(400)
