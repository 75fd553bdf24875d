"""The documents the pages name (``/docs/<name>``): the rules page's "Fair
deals" sends a doubting player to the record format's "Checking a deal
yourself", which the site did not serve (nor did the image hold docs/),
then served only as plain text (on a phone its tables and code blocks ran
off the screen); now a page of the site, the file itself beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import ROOT
from app.web.documents import MARKDOWN, SERVED

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
        "/docs/record-format.md.md",
        "/docs/rules",
        "/docs/translations",
        "/docs/README",
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


def test_the_record_format_is_a_page_of_the_site(client):
    response = client.get("/docs/record-format")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    # The site's own page: its header, its language switch, its style.
    assert '<a class="brand" href="/">Pişti</a>' in page
    assert 'class="languages"' in page
    assert "<title>Game records · Pişti</title>" in page
    # The Markdown as HTML: the headings with the ids the links use (the
    # rules page's, and the document's own "the games").
    assert '<h1 id="game-records">Game records</h1>' in page
    assert '<h2 id="checking-a-deal-yourself">Checking a deal yourself</h2>' in page
    assert '<h3 id="the-three-games">The three games</h3>' in page
    assert '<a href="#the-three-games">the games</a>' in page
    assert "## " not in page and "|---|" not in page
    # Every table and every code block scrolls in a box of its own, which
    # the keyboard can reach, named by what it is and where it stands;
    # the script is there, its text escaped.
    source = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    assert page.count('<div class="doc-scroll" tabindex="0" role="region" aria-label="Table: ') == 3
    assert 'aria-label="Table: The three games">\n<table>' in page
    blocks = [t for t in MARKDOWN.parse(source) if t.type in ("fence", "code_block")]
    assert len(blocks) >= 5
    assert page.count('<pre class="doc-scroll" tabindex="0" role="region" aria-label="Code') == len(
        blocks
    )
    assert 'aria-label="Code: Checking a deal yourself">' in page
    assert 'aria-label="Code 2: What a replay prints">' in page  # no two named alike
    assert page.count("<pre") == len(blocks)
    assert "python3 check.py game.json" in page
    assert "<th>key</th>" in page and "<code>&quot;pisti-record/1&quot;</code>" in page
    # The file itself, a click away (downloaded), for the check script.
    assert '<a href="/docs/record-format.md" download>Download it as Markdown' in page
    # In English, the page does not say the document is in English.
    assert "This document is in English." not in page


def test_the_page_tells_a_turkish_reader_the_document_is_in_english(client):
    page = client.get("/docs/record-format?lang=tr").get_data(as_text=True)
    assert '<html lang="tr">' in page
    assert "Bu belge İngilizcedir." in page
    assert "Markdown olarak indirin (record-format.md)" in page
    assert '<article lang="en">' in page
    assert '<h2 id="checking-a-deal-yourself">Checking a deal yourself</h2>' in page


def test_raw_html_in_a_document_is_shown_as_text():
    html = MARKDOWN.render('<script>alert(1)</script>\n\n<b onclick="x">b</b> [a](javascript:x)')
    assert "<script" not in html and "<b " not in html and "href" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_reading_the_page_stores_no_session(app):
    empty = stored_sessions(app)
    visitor = app.test_client()
    assert visitor.get("/docs/record-format").status_code == 200
    assert stored_sessions(app) == empty
