"""Static files a browser keeps for a release, sent compressed.

Every URL of a static file that ``url_for`` builds carries a digest of the
file's content (``/static/pisti.css?v=3f2a9c0d1e4b``), and a request that
names the current digest is answered with a year's caching
(``Cache-Control: public, max-age=31536000``): a page's styles, script and
card sprite are fetched once per release, where before every page and
every play checked each again (a round trip each, ``304 Not Modified``).
A new release changes the digest of every file that changed, so its pages
ask for the new files. A stylesheet's own references (``url("card-back.svg")``)
are sent with their digest too, so the card backs are kept as long as the
styles; a stylesheet's digest is that of its content so sent, which
changes with any file it names. Any other request of a static file (no
digest, an old one, a bookmark) is answered as Flask does by default:
``no-cache``, checked each time.

Text files (styles, scripts, SVG, manifests) are sent gzip-compressed to a
browser that accepts it (``Accept-Encoding: gzip``), compressed once per
process: the styles and the script, some 95 KB, are some 25 KB on the wire,
a second or two less on a slow phone connection. They hold no secret, so
compressing them gives nothing away (unlike a page with a form's token).

In debug mode, where files change under a running server, nothing of this
is done.
"""

from __future__ import annotations

import gzip
import hashlib
import posixpath
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from flask import Flask, Response, request
from werkzeug.security import safe_join
from werkzeug.wrappers import Response as BaseResponse

#: How long a browser keeps a static file asked for by its digest, in seconds.
ONE_YEAR = 365 * 24 * 3600
#: Digests kept per process (the static folder has a few dozen files; the
#: bound keeps requests for made-up names from growing it).
DIGESTS_KEPT = 256
#: Static files sent compressed, by their names' endings, with their types.
TEXT_TYPES = {
    ".css": "text/css",
    ".js": "text/javascript",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
}
#: A stylesheet's reference to a file beside it: ``url("name")``, ``url(name)``.
CSS_URL = re.compile(r"""url\(\s*(["']?)([\w./-]+\.\w+)\1\s*\)""")


def init_app(app: Flask) -> None:
    """Add the digest to ``app``'s static URLs, cache what is asked for by
    it and compress text files (see the module's docstring)."""
    if app.debug or app.static_folder is None:
        return
    folder = app.static_folder

    @lru_cache(maxsize=DIGESTS_KEPT)
    def content(filename: str) -> bytes | None:
        """Static file ``filename`` (a path inside the static folder) as
        sent, a stylesheet's references with their digests; ``None`` when
        there is no such file."""
        path = safe_join(folder, filename)
        if path is None or not Path(path).is_file():
            return None
        data = Path(path).read_bytes()
        if not filename.endswith(".css"):
            return data
        here = posixpath.dirname(filename)

        def versioned(found: re.Match[str]) -> str:
            quote, name = found.group(1), found.group(2)
            version = digest(posixpath.normpath(posixpath.join(here, name)))
            if version is None or name.startswith("/"):
                return found.group(0)
            return f"url({quote}{name}?v={version}{quote})"

        return CSS_URL.sub(versioned, data.decode()).encode()

    @lru_cache(maxsize=DIGESTS_KEPT)
    def digest(filename: str) -> str | None:
        """The first 12 hex digits of the SHA-256 of static file
        ``filename`` as sent, or ``None`` when there is no such file."""
        data = content(filename)
        return None if data is None else hashlib.sha256(data).hexdigest()[:12]

    @lru_cache(maxsize=DIGESTS_KEPT)
    def compressed(filename: str) -> bytes:
        """Text file ``filename`` as sent, gzip-compressed (a fixed time in
        its header, so the same bytes in every process)."""
        return gzip.compress(content(filename) or b"", compresslevel=9, mtime=0)

    @app.url_defaults
    def _versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values and isinstance(values.get("filename"), str):
            version = digest(values["filename"])
            if version is not None:
                values["v"] = version

    def max_age(filename: str | None) -> int | None:
        """Seconds a browser may keep static file ``filename`` in this
        request: a year when the request names its current digest, else
        ``None`` (Flask's ``no-cache``)."""
        wanted = request.args.get("v")
        if filename is not None and wanted is not None and wanted == digest(filename):
            return ONE_YEAR
        return None

    app.get_send_file_max_age = max_age
    plain = app.view_functions["static"]

    def static(filename: str) -> BaseResponse:
        """A static file: a text file from memory as sent (compressed
        when the browser accepts it), any other as Flask sends it."""
        mimetype = TEXT_TYPES.get(Path(filename).suffix)
        data = content(filename) if mimetype else None
        if data is None or mimetype is None:
            return cast(BaseResponse, plain(filename=filename))
        version = digest(filename)
        gzipped = "gzip" in request.accept_encodings
        response = Response(compressed(filename) if gzipped else data, mimetype=mimetype)
        if gzipped:
            response.content_encoding = "gzip"
        response.vary.add("Accept-Encoding")
        response.set_etag(f"{version}-gzip" if gzipped else f"{version}")
        seconds = max_age(filename)
        if seconds is None:
            response.cache_control.no_cache = True
        else:
            response.cache_control.public = True
            response.cache_control.max_age = seconds
        return response.make_conditional(request)

    app.view_functions["static"] = static
