"""Template globals that cost little per call.

A table page calls ``url_for`` and ``csrf_token`` a dozen times; Flask's
and Flask-WTF's cost some 10 µs a call each (the URL map's builder, the
configuration's lookups), several times the rendering of a line of HTML.
Here they give the same answers for less:

- ``url_for``: Flask's, kept per application for the request's root
  (scheme, host and script root, as the WSGI environ has them: all a URL
  built during a request depends on besides its arguments).
- ``csrf_token``: Flask-WTF's token, made by ``generate_csrf`` once per
  request and then read back from ``g.csrf_token``, where Flask-WTF keeps it.
- ``face`` and ``back``: the cards (:mod:`.faces`).
- ``table_scoreboard``, ``table_felt``, ``table_log``, ``table_steps`` and
  ``table_counter``: the table's regions, ``table_keys``: what its dealer
  tag and points chip mean, and ``aids_form``: the playing aids
  (:mod:`.regions`).
- ``answer_address``: where a form's answer belongs (:data:`ANSWER_PAGES`).

And :class:`PageEnvironment`, the app's Jinja environment, makes two of
Jinja's steps cheaper with the same results.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from functools import lru_cache
from typing import Any

from flask import Flask, g, request, url_for
from flask.templating import Environment
from flask_wtf.csrf import generate_csrf
from werkzeug.urls import iri_to_uri

from . import faces, regions, store

#: URLs kept per application (about 100 bytes each).
URLS_KEPT = 4096
#: What the request's root URL (scheme, host, script root) is made of, in
#: its WSGI environ (after the proxy fix): read as they are, since
#: ``request.url_root`` builds and re-encodes the URL each time (some 15 µs).
_ROOT_PARTS = ("wsgi.url_scheme", "HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME")


#: The page a form's answer shows, by the form's endpoint or blueprint
#: (else the table): a page answering a POST takes that page's address, so
#: that reloading it reads the page instead of posting the form again.
#: :data:`OWN_ADDRESS`: the page at the form's own address (a deal link's).
ANSWER_PAGES = {
    "game.new_game": "game.home",
    "game.deal": "",
    "story.lesson_play": "story.lesson_page",
    "story.lesson_restart": "story.lesson_page",
    "story": "story.path",
    "players": "players.profile",
    "house": "house.form",
    "review": "review.upload_page",
    "daily": "daily.page",
}


#: The :data:`ANSWER_PAGES` entry of a form whose page has the form's own
#: address: a deal link's Start, refused without a table to show (a
#: browser that keeps no cookies, a rate limit), stays at the deal link,
#: which a reload (or an app's "Open in browser") shows again.
OWN_ADDRESS = ""


def answer_address() -> str:
    """Return the address (path and query, under the script root) of the
    page this POST's answer stands for (:func:`answer_page`): that page's,
    or the form's own for :data:`OWN_ADDRESS`."""
    endpoint = answer_page()
    if endpoint != OWN_ADDRESS:
        return url_for(endpoint)
    query = request.query_string.decode("ascii", "replace")
    return request.script_root + iri_to_uri(request.path) + (f"?{query}" if query else "")


def answer_page() -> str:
    """Return the endpoint of the page this POST's answer stands for: the
    one a view set as ``g.answer_page`` (the final page's name form, whose
    refusal shows that page), else by :data:`ANSWER_PAGES` (``game.table``
    for the game's own forms; :data:`OWN_ADDRESS` for a deal link's Start).
    Never reads the form: this runs on the error
    page of a body too large to read."""
    chosen: str | None = g.get("answer_page")
    if chosen:
        return chosen
    endpoint = request.endpoint or ""
    if endpoint in ANSWER_PAGES:
        return ANSWER_PAGES[endpoint]
    return ANSWER_PAGES.get(request.blueprint or "", "game.table")


class PageEnvironment(Environment):
    """Flask's Jinja environment, with

    - a template's globals a plain dict of the environment's globals (and
      its own) as they are when it is loaded, not a ``ChainMap`` over them:
      every context of every render and every ``import`` copies the globals,
      and a ``ChainMap`` is read key by key in Python. (Jinja already asks
      not to change the globals once a template is loaded; the app sets
      them all in :func:`app.create_app`.)
    - ``a.b`` on a dict looking up the key first: Jinja tries the attribute
      first, and a dict's missing attribute costs an exception. The pages'
      views are dicts whose keys are never the name of a dict method.
    """

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """Return a template's globals: the environment's, then ``d``."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        """Return ``obj.attribute``, the key first for a dict (else as Jinja)."""
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


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
    def build(root: tuple[object, ...], endpoint: str, values: tuple[tuple[str, Any], ...]) -> str:
        return app.url_for(endpoint, **dict(values))

    def url_for(endpoint: str, **values: Any) -> str:
        """Flask's ``url_for(endpoint, **values)``, kept."""
        environ = request.environ
        root = tuple(environ.get(part) for part in _ROOT_PARTS)
        try:
            return build(root, endpoint, tuple(sorted(values.items())))
        except TypeError:  # an argument that cannot be a key
            return app.url_for(endpoint, **values)

    return url_for


def init_app(app: Flask) -> None:
    """Give ``app``'s templates these globals (after Flask-WTF's set-up:
    it puts its ``csrf_token`` in every page's context too)."""
    build_url = app.extensions[faces.URL_BUILDER] = url_builder(app)
    app.jinja_env.globals.update(
        url_for=build_url,
        csrf_token=csrf_token,
        face=faces.face,
        back=faces.back,
        table_scoreboard=regions.scoreboard,
        table_felt=regions.felt,
        table_log=regions.log,
        table_counter=regions.counter,
        table_steps=regions.steps,
        table_keys=regions.keys,
        aids_form=regions.aids_form,
        this_page=regions.this_page,
        answer_address=answer_address,
        kept_limit=store.KEEP,
    )
    overrides = {"csrf_token": csrf_token}
    app.context_processor(lambda: overrides)
