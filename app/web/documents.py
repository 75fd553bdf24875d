"""The documents of ``docs/`` the pages name, served as they are written.

The rules page tells a player who doubts the deal that the record format's
"Checking a deal yourself" describes the shuffle and gives a script that
re-deals a record; ``GET /docs/record-format.md`` lets them read it on the
site (and a self-hoster's players on theirs: the image holds the file).
Only the names in :data:`SERVED` are answered, from memory; any other name
is a 404, so nothing else of the tree can be asked for. A document is sent
as UTF-8 plain text (Markdown reads as it is written), ``public`` but
checked each time (``no-cache`` with an ``ETag``), as a static file asked
for without its digest; it never loads or stores a session.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, request
from werkzeug.wrappers import Response as BaseResponse

bp = Blueprint("docs", __name__)

#: The folder of the documents (``docs/`` beside ``app/``).
FOLDER = Path(__file__).resolve().parents[2] / "docs"
#: The file names of ``docs/`` the site answers (each one named by a page).
SERVED = ("record-format.md",)
#: The type a document is sent as: text a browser shows, in UTF-8.
TEXT = "text/plain; charset=utf-8"


@lru_cache(maxsize=len(SERVED))
def _content(name: str) -> tuple[bytes, str]:
    """Document ``name`` (one of :data:`SERVED`) as bytes, with the first
    16 hex digits of their SHA-256 for its ``ETag``. Raises ``OSError``
    when the file is missing."""
    data = (FOLDER / name).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:16]


@bp.get("/docs/<name>")
def document(name: str) -> BaseResponse:
    """Document ``name`` of :data:`SERVED` as UTF-8 plain text (a 304 when
    the browser's copy is current); 404 for any other name."""
    if name not in SERVED:
        abort(404)
    data, version = _content(name)
    response = Response(data, content_type=TEXT)
    response.set_etag(version)
    response.cache_control.public = True
    response.cache_control.no_cache = True
    return response.make_conditional(request)
