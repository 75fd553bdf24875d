"""Static files a browser keeps for a release.

Every URL of a static file that ``url_for`` builds carries a digest of the
file's content (``/static/pisti.css?v=3f2a9c0d1e4b``), and a request that
names the current digest is answered with a year's caching
(``Cache-Control: public, max-age=31536000``): a page's styles, script and
card sprite are fetched once per release, where before every page and
every play checked each again (a round trip each, ``304 Not Modified``).
A new release changes the digest of every file that changed, so its pages
ask for the new files. Any other request of a static file (no digest, an
old one, a bookmark, a file named inside the styles) is answered as Flask
does by default: ``no-cache``, checked each time. In debug mode, where
files change under a running server, no digest is added.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, request
from werkzeug.security import safe_join

#: How long a browser keeps a static file asked for by its digest, in seconds.
ONE_YEAR = 365 * 24 * 3600
#: Digests kept per process (the static folder has a few dozen files; the
#: bound keeps requests for made-up names from growing it).
DIGESTS_KEPT = 256


def init_app(app: Flask) -> None:
    """Add the digest to ``app``'s static URLs and cache what is asked for
    by it (see the module's docstring)."""
    if app.debug or app.static_folder is None:
        return
    folder = app.static_folder

    @lru_cache(maxsize=DIGESTS_KEPT)
    def digest(filename: str) -> str | None:
        """The first 12 hex digits of the SHA-256 of static file
        ``filename`` (a path inside the static folder), or ``None`` when
        there is no such file."""
        path = safe_join(folder, filename)
        if path is None or not Path(path).is_file():
            return None
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]

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
