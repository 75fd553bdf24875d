"""Security headers on every response, refusing malformed forms, trusting a
reverse proxy's ``X-Forwarded-*`` headers when told to, and the rate limit
on creating games."""

from __future__ import annotations

import redis
from flask import Flask, Response, abort, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix

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
#: The endpoints that deal a new game, sharing one rate limit.
GAME_CREATION = ("game.new_game", "game.deal", "story.play")


def init_security(app: Flask) -> None:
    """Add the security headers and the malformed-form check to ``app``
    and, with ``TRUSTED_PROXIES`` above 0, the proxy fix. (A refused POST
    never sets a session cookie: :mod:`app.sessions` stores nothing for an
    error answer.)

    Call before CSRF protection is set up, so that a form CSRF cannot read
    is a 400, not a 500.
    """
    app.before_request(_refuse_malformed_forms)
    app.after_request(_add_headers)
    proxies = app.config["TRUSTED_PROXIES"]
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)


def limit_game_creation(app: Flask, redis_client: redis.Redis | None) -> None:
    """Rate-limit creating games: ``NEW_GAME_LIMIT`` per client address,
    shared by the endpoints of :data:`GAME_CREATION` (none when
    ``RATELIMIT_ENABLED`` is false).

    Call after the game blueprint is registered. Hits are counted in Redis
    when ``redis_client`` is given, so all instances share them; else in
    each process's memory.

    Raises:
        KeyError: a game-creation endpoint is missing.
    """
    if not app.config["RATELIMIT_ENABLED"]:
        return
    if redis_client is None:
        storage = {"storage_uri": "memory://"}
    else:
        storage = {
            "storage_uri": "redis://",
            "storage_options": {"connection_pool": redis_client.connection_pool},
        }
    limiter = Limiter(get_remote_address, app=app, key_prefix="pisti-limit", **storage)
    creating = limiter.shared_limit(app.config["NEW_GAME_LIMIT"], scope="new-game")
    for endpoint in GAME_CREATION:
        app.view_functions[endpoint] = creating(app.view_functions[endpoint])


def _refuse_malformed_forms() -> None:
    # A multipart part whose name cannot be read comes out with the name
    # None, which the CSRF check cannot handle.
    if request.method == "POST" and (None in request.form or None in request.files):
        abort(400)


def _add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response
