"""Template globals that cost little per call.

A table page calls ``url_for`` and ``csrf_token`` a dozen times; Flask's
and Flask-WTF's cost some 10 µs a call each (the URL map's builder, the
configuration's lookups), several times the rendering of a line of HTML.
Here both give the same answers for less:

- ``url_for``: Flask's, kept per application for the request's root
  (scheme, host and script root: all a URL built during a request depends
  on besides its arguments).
- ``csrf_token``: Flask-WTF's token, made by ``generate_csrf`` once per
  request and then read back from ``g.csrf_token``, where Flask-WTF keeps it.
- ``face`` and ``back``: the cards (:mod:`.faces`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import Flask, g, request
from flask_wtf.csrf import generate_csrf

from . import faces

#: URLs kept per application (about 100 bytes each).
URLS_KEPT = 4096


def csrf_token() -> str:
    """Return the request's CSRF token (Flask-WTF's ``generate_csrf()``,
    which keeps it in ``g.csrf_token`` for the rest of the request)."""
    token: str | None = g.get("csrf_token")
    return token if token is not None else generate_csrf()


def url_builder(app: Flask) -> Callable[..., str]:
    """Return ``url_for`` for ``app``'s templates: Flask's ``url_for`` with
    its answers kept by request root, endpoint and arguments (an argument
    that cannot be a key, such as a list, is passed to Flask's each time)."""

    @lru_cache(maxsize=URLS_KEPT)
    def build(root: str, endpoint: str, values: tuple[tuple[str, Any], ...]) -> str:
        return app.url_for(endpoint, **dict(values))

    def url_for(endpoint: str, **values: Any) -> str:
        """Flask's ``url_for(endpoint, **values)``, kept."""
        try:
            return build(request.url_root, endpoint, tuple(sorted(values.items())))
        except TypeError:  # an argument that cannot be a key
            return app.url_for(endpoint, **values)

    return url_for


def init_app(app: Flask) -> None:
    """Give ``app``'s templates these globals."""
    app.jinja_env.globals.update(
        url_for=url_builder(app), csrf_token=csrf_token, face=faces.face, back=faces.back
    )
