"""Who is playing: the player of this device's cookie, if any.

The cookie (``pisti_player``: ``HttpOnly``, ``SameSite=Lax``, 400 days, the
longest browsers keep one, from the last game finished under it) holds a
long random token; the database keeps only its SHA-256. A forged or stale
token is nobody: the pages are then the anonymous ones.

A device shared by a family keeps the others who played on it in a second
cookie (``pisti_device``, the same attributes): their tokens, up to
:data:`DEVICE_PLAYERS`, joined by full stops. "Someone else is playing"
moves this device's player there (:func:`step_aside`) and a switch takes
one back (:func:`switch_to`); nobody's results move, and a token of a
forgotten player is dropped when the list is next written.
"""

from __future__ import annotations

from flask import after_this_request, current_app, g, request
from werkzeug.wrappers import Response

from app.db import db, queries
from app.db.models import Player
from app.web.security import cookie_path

COOKIE = "pisti_player"
#: The cookie's lifetime in seconds (browsers cap cookies at 400 days).
COOKIE_AGE = 400 * 24 * 3600
#: The cookie of the other players this device remembers.
DEVICE = "pisti_device"
#: How many other players a device remembers (``/me/aside`` refuses one more).
DEVICE_PLAYERS = 8


def current_player() -> Player | None:
    """Return the player of this device's cookie, or ``None`` (no cookie, or
    a token that is nobody's). Asked once per request."""
    if "player" not in g:
        g.player = queries.player_by_token(request.cookies.get(COOKIE))
    player: Player | None = g.player
    return player


def player_key(player: Player | None) -> str:
    """Who a game is started or a Daily deal dealt under: ``""`` for no
    name, else the player's id and when they joined (a forgotten player's
    id may be given again, to the same name taken again)."""
    if player is None:
        return ""
    return f"{player.id}@{player.created_at.isoformat()}"


def player_by_key(key: str) -> Player | None:
    """The player of a :func:`player_key`; ``None`` for ``""``, a damaged
    key, or a player forgotten since.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    number = key.partition("@")[0]
    if not (number.isascii() and number.isdigit() and len(number) < 12):
        return None
    player = db.session.get(Player, int(number))
    return player if player_key(player) == key else None


def forgotten_starter(key: str) -> bool:
    """Whether a game started under the :func:`player_key` ``key`` was
    started under a name forgotten since (Forget me, on this device or
    another; or a damaged key): such a game is recorded for nobody, not
    for whoever finishes it. ``False`` for ``""`` (no name).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    return bool(key) and player_by_key(key) is None


def _device_tokens() -> list[str]:
    """The tokens of the :data:`DEVICE` cookie, newest first, at most
    :data:`DEVICE_PLAYERS`, without repeats or this device's own token."""
    own = request.cookies.get(COOKIE)
    tokens: list[str] = []
    for token in request.cookies.get(DEVICE, "").split("."):
        if token and token != own and token not in tokens and len(token) <= 100:
            tokens.append(token)
    return tokens[:DEVICE_PLAYERS]


def device_players() -> list[Player]:
    """The other players this device remembers (:data:`DEVICE`), newest
    first: those a switch can take back; forgotten ones are left out.
    Asked once per request.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    if "device_players" not in g:
        found = (queries.player_by_token(token) for token in _device_tokens())
        g.device_players = [player for player in found if player is not None]
    players: list[Player] = g.device_players
    return players


def _keep_device(response: Response, tokens: list[str]) -> Response:
    """Set the :data:`DEVICE` cookie to ``tokens`` (those of known players
    only, the first :data:`DEVICE_PLAYERS`), or drop it when none is left."""
    known = [token for token in tokens if queries.player_by_token(token) is not None]
    if not known:
        secure = bool(current_app.config["SESSION_COOKIE_SECURE"])
        response.delete_cookie(
            DEVICE, path=cookie_path(), httponly=True, samesite="Lax", secure=secure
        )
        return response
    return keep_cookie(response, DEVICE, ".".join(known[:DEVICE_PLAYERS]))


def step_aside(response: Response) -> Response:
    """Let someone else play on this device: its player's token joins the
    :data:`DEVICE` list (first) and the player cookie is dropped, so the
    pages are the anonymous ones until a name is chosen, a transfer code
    used or a switch made. Without a player, nothing changes."""
    token = request.cookies.get(COOKIE)
    if not token or current_player() is None:
        return response
    return forget(_keep_device(response, [token, *_device_tokens()]))


def switch_to(response: Response, player_id: int) -> Response | None:
    """Make the remembered player ``player_id`` (:func:`device_players`)
    this device's player: their token becomes the player cookie, and the
    player of this device so far, if any, joins the :data:`DEVICE` list.
    Return ``response`` with both cookies set, ``response`` as it is when
    that player is this device's already (a second press: nothing set), or
    ``None`` when this device does not remember that player (nothing set).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    here = current_player()
    if here is not None and here.id == player_id:
        return response
    tokens = _device_tokens()
    chosen = next(
        (
            token
            for token in tokens
            if (player := queries.player_by_token(token)) is not None and player.id == player_id
        ),
        None,
    )
    if chosen is None:
        return None
    rest = [token for token in tokens if token != chosen]
    own = request.cookies.get(COOKIE)
    if own and here is not None:
        rest.insert(0, own)
    return remember(_keep_device(response, rest), chosen)


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
