"""Static files: their URLs carry their content's digest, and a browser
keeps what it asked for by the current digest for a year (no check on every
page and play); anything else is checked each time."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from app import ROOT

STATIC = ROOT / "static"


def test_static_urls_carry_the_digest_of_their_content(client):
    page = client.get("/").get_data(as_text=True)
    urls = dict(re.findall(r'"/static/([^"?]+)\?v=([0-9a-f]+)"', page))
    assert {"pisti.css", "pisti.js", "favicon.svg"} <= set(urls)
    for name, version in urls.items():
        assert version == hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]
    # The card sprite inside the table's faces too.
    client.get("/deal/static-digest")
    table = client.post(
        "/deal/static-digest?rules=cardems&level=medium",
        data={"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)},
        follow_redirects=True,
    ).get_data(as_text=True)
    sprite = hashlib.sha256(Path(STATIC / "cards.svg").read_bytes()).hexdigest()[:12]
    assert f"/static/cards.svg?v={sprite}#" in table


def test_the_current_digest_is_kept_a_year_anything_else_is_checked(client):
    version = hashlib.sha256((STATIC / "pisti.css").read_bytes()).hexdigest()[:12]
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
    assert manifest["name"] == "Pişti" and manifest["start_url"] == "/"
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
