"""The documents the pages name (``/docs/<name>``): the rules page's "Fair
deals" sends a doubting player to the record format's "Checking a deal
yourself", which the site did not serve (nor did the image hold docs/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import ROOT
from app.web.documents import SERVED

SECTION = "## Checking a deal yourself"


def stored_sessions(app) -> dict[str, bytes]:
    """The session folder's files by name, with their content."""
    folder = Path(app.config["SESSION_FILE_DIR"])
    return {path.name: path.read_bytes() for path in folder.glob("*") if path.is_file()}


def test_the_record_format_is_served_as_readable_text(client):
    response = client.get("/docs/record-format.md")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    body = response.get_data(as_text=True)
    assert body == (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    assert SECTION in body and "python3 check.py game.json" in body
    # The rules page's link finds the section by its heading's words (a
    # text fragment), which the document must say nowhere else.
    assert body.count("Checking a deal yourself") == 1
    assert "pişti" in body  # UTF-8 as written
    # As every answer: the security headers; as a static file: checked
    # each time, and a browser's current copy is a 304.
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Cache-Control"] == "public, no-cache"
    again = client.get(
        "/docs/record-format.md", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304


@pytest.mark.parametrize(
    "path",
    [
        "/docs/translations.md",
        "/docs/rules.md",
        "/docs/table.png",
        "/docs/",
        "/docs/RECORD-FORMAT.md",
        "/docs/record-format",
        "/docs/../README.md",
        "/docs/..%2FREADME.md",
        "/docs/..%2fapp%2fconfig.py",
        "/docs/%2e%2e/README.md",
        "/docs/record-format.md%2F..%2F..%2FREADME.md",
        "/docs/..",
        "/docs/%2e%2e",
        "/docs/./record-format.md/",
    ],
)
def test_nothing_else_of_the_tree_is_served(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "Content-Security-Policy" in response.headers
    assert SECTION not in response.get_data(as_text=True)


def test_reading_a_document_touches_no_session(app, player):
    # A visitor: no session stored, no cookie.
    empty = stored_sessions(app)  # the store's own count, no session
    visitor = app.test_client()
    response = visitor.get("/docs/record-format.md")
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers
    assert stored_sessions(app) == empty
    # A player in a game: their stored session is neither written nor
    # refreshed, and no cookie is sent again.
    player.deal("docs-session")
    before = stored_sessions(app)
    assert len(before) > len(empty)
    response = player.client.get("/docs/record-format.md")
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers
    assert stored_sessions(app) == before


def test_every_served_document_exists():
    for name in SERVED:
        assert (ROOT / "docs" / name).is_file()
