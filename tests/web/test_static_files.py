"""Static files: their URLs carry their content's digest, and a browser
keeps what it asked for by the current digest for a year (no check on every
page and play); anything else is checked each time."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path
from urllib.parse import urljoin

from app import ROOT

STATIC = ROOT / "static"


def test_static_urls_carry_the_digest_of_their_content(client):
    page = client.get("/").get_data(as_text=True)
    urls = dict(re.findall(r'"/static/([^"?]+)\?v=([0-9a-f]+)"', page))
    assert {"pisti.css", "pisti.js", "favicon.svg"} <= set(urls)
    for name, version in urls.items():
        # The content as sent (a stylesheet's references with their digests).
        sent = client.get(f"/static/{name}?v={version}").get_data()
        assert version == hashlib.sha256(sent).hexdigest()[:12]
        if not name.endswith(".css"):
            assert sent == (STATIC / name).read_bytes()
    # The card sprite inside the table's faces too.
    client.get("/deal/static-digest")
    table = client.post(
        "/deal/static-digest?rules=cardems&level=medium",
        data={"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)},
        follow_redirects=True,
    ).get_data(as_text=True)
    sprite = hashlib.sha256(Path(STATIC / "cards.svg").read_bytes()).hexdigest()[:12]
    assert f"/static/cards.svg?v={sprite}#" in table


def css_version(client) -> str:
    """The digest the pages name the stylesheet by."""
    return re.search(r"/static/pisti\.css\?v=(\w+)", client.get("/").get_data(as_text=True)).group(
        1
    )


def test_the_current_digest_is_kept_a_year_anything_else_is_checked(client):
    version = css_version(client)
    kept = client.get(f"/static/pisti.css?v={version}")
    assert kept.status_code == 200
    assert kept.headers["Cache-Control"] == "public, max-age=31536000"
    for path in ("/static/pisti.css", "/static/pisti.css?v=0123456789ab"):
        checked = client.get(path)
        assert checked.status_code == 200
        assert checked.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/../pyproject.toml?v=x").status_code == 404
    assert client.get(f"/static/no-such.css?v={version}").status_code == 404


def test_every_page_names_the_web_app_manifest_and_the_bars_colour(client):
    # A phone colours its browser bar like the page's, and may add the site
    # to its home screen as an app with its own icon.
    for path in ("/", "/story", "/daily", "/no-such-page"):
        page = client.get(path).get_data(as_text=True)
        assert '<meta name="theme-color" content="#0f4a2d">' in page
        assert re.search(r'<link rel="manifest" href="/static/manifest.webmanifest\?v=\w+">', page)
    answer = client.get("/static/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    manifest = answer.get_json(force=True)
    assert manifest["name"] == "Pişti"
    # Beside the manifest's address: the site's root, or the path it is
    # served under (tests/web/test_path_prefix.py).
    opened = urljoin("http://localhost/static/manifest.webmanifest", manifest["start_url"])
    assert opened == "http://localhost/"
    assert manifest["display"] == "standalone" and manifest["theme_color"] == "#0f4a2d"
    for icon in manifest["icons"]:
        image = client.get(f"/static/{icon['src']}")
        assert image.status_code == 200 and image.mimetype == "image/svg+xml"


def test_a_turkish_page_names_the_turkish_manifest(client):
    """A Turkish player who adds the site to a home screen is shown its
    description in Turkish: every page named the English manifest ("The
    Turkish fishing card game against the computer.")."""
    page = client.get("/", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    link = re.search(r'<link rel="manifest" href="(/static/manifest-tr.webmanifest)\?v=\w+">', page)
    assert link
    answer = client.get(link.group(1))
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    turkish = answer.get_json(force=True)
    assert turkish["lang"] == "tr"
    assert turkish["description"] == "Bilgisayara karşı sevilen Türk kart oyunu."
    english = client.get("/static/manifest.webmanifest").get_json(force=True)
    # The same app in either language: only the words differ.
    assert {**turkish, "lang": "en", "description": english["description"]} == english


def test_the_stylesheet_names_the_card_backs_by_their_digest(client):
    """The card backs, named in the stylesheet, were asked for with no
    digest: checked again on every page (a round trip on a slow phone
    connection before the computers' cards showed their backs)."""
    styles = client.get(f"/static/pisti.css?v={css_version(client)}").get_data(as_text=True)
    back = hashlib.sha256((STATIC / "card-back.svg").read_bytes()).hexdigest()[:12]
    assert f'url("card-back.svg?v={back}")' in styles
    assert 'url("card-back.svg")' not in styles
    kept = client.get(f"/static/card-back.svg?v={back}")
    assert kept.status_code == 200 and kept.mimetype == "image/svg+xml"
    assert kept.headers["Cache-Control"] == "public, max-age=31536000"
    assert kept.get_data() == (STATIC / "card-back.svg").read_bytes()


def test_text_files_are_sent_compressed_to_a_browser_that_takes_it(client):
    """The styles and the script, some 95 KB, were sent as they are: two
    seconds on a slow phone connection before a first page showed."""
    version = css_version(client)
    plain = client.get(f"/static/pisti.css?v={version}")
    assert "Content-Encoding" not in plain.headers
    packed = client.get(
        f"/static/pisti.css?v={version}", headers={"Accept-Encoding": "gzip, deflate, br"}
    )
    assert packed.status_code == 200 and packed.mimetype == "text/css"
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert packed.headers["Cache-Control"] == "public, max-age=31536000"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) < len(plain.get_data()) / 3
    # Asked again with what it has: not sent again.
    again = client.get(
        f"/static/pisti.css?v={version}",
        headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]},
    )
    assert again.status_code == 304
    script = client.get("/static/pisti.js", headers={"Accept-Encoding": "gzip"})
    assert script.headers["Content-Encoding"] == "gzip"
    assert script.headers["Cache-Control"] == "no-cache"
    assert gzip.decompress(script.get_data()) == (STATIC / "pisti.js").read_bytes()
