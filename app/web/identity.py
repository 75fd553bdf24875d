"""Who is playing: the player of this device's cookie, if any.

The cookie (``pisti_player``: ``HttpOnly``, ``SameSite=Lax``, 400 days, the
longest browsers keep one, from the last game finished under it) holds a
long random token; the database keeps only its SHA-256. A forged or stale
token is nobody: the pages are then the anonymous ones.
"""

from __future__ import annotations

from flask import after_this_request, current_app, g, request
from werkzeug.wrappers import Response

from app.db import queries
from app.db.models import Player
from app.web.security import cookie_path

COOKIE = "pisti_player"
#: The cookie's lifetime in seconds (browsers cap cookies at 400 days).
COOKIE_AGE = 400 * 24 * 3600


def current_player() -> Player | None:
    """Return the player of this device's cookie, or ``None`` (no cookie, or
    a token that is nobody's). Asked once per request."""
    if "player" not in g:
        g.player = queries.player_by_token(request.cookies.get(COOKIE))
    player: Player | None = g.player
    return player


def remember(response: Response, token: str) -> Response:
    """Set the player cookie holding ``token`` on ``response``."""
    return keep_cookie(response, COOKIE, token)


def renew() -> None:
    """Send this device's player cookie again with this request's answer,
    for :data:`COOKIE_AGE` from now, when it names the player this request
    found (:func:`current_player`, asked before): it was sent only when the
    name was chosen, so a player who played every day lost their name on
    this device 400 days later. Call it when a game ends under the name."""
    token = request.cookies.get(COOKIE)
    if token and g.get("player") is not None:
        after_this_request(lambda response: remember(response, token))


def keep_cookie(response: Response, name: str, value: str) -> Response:
    """Set the cookie ``name`` holding ``value`` on ``response`` for
    :data:`COOKIE_AGE` seconds (``HttpOnly``, ``SameSite=Lax``, ``Secure``
    when ``SESSION_COOKIE_SECURE`` is set), for the path the site is served
    under."""
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_AGE,
        path=cookie_path(),
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
    )
    return response


def forget(response: Response) -> Response:
    """Drop the player cookie."""
    secure = bool(current_app.config["SESSION_COOKIE_SECURE"])
    response.delete_cookie(COOKIE, path=cookie_path(), httponly=True, samesite="Lax", secure=secure)
    return response


def drop_stale_cookie(response: Response) -> Response:
    """Drop a player cookie that names nobody (its player was forgotten,
    on this device or another, or it was never anyone's), once a page has
    looked it up: a device whose name was forgotten keeps no token of it.
    An answer that sets the cookie itself (a name just chosen) is left
    alone; so is a request whose lookup failed (the database down)."""
    if g.get("player", False) is None and request.cookies.get(COOKIE):
        setting = response.headers.getlist("Set-Cookie")
        if not any(line.startswith(f"{COOKIE}=") for line in setting):
            forget(response)
    return response
