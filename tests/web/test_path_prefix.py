"""The site served under a path (``https://example.org/pisti/``) by a proxy
that strips the path and says so in ``X-Forwarded-Prefix``, as nginx's
``location /pisti/ { proxy_pass http://127.0.0.1:5000/; ... }`` does:
every link, form, script address, redirect and cookie carries the path,
share links the configured host too; served at the root, nothing changes."""

from __future__ import annotations

import json
import re
import time
from http.cookies import SimpleCookie
from urllib.parse import urljoin, urlsplit

import pytest
from werkzeug.test import Client

from app import create_app
from tests.conftest import CSRF, app_config, form_fields

PREFIX = "/pisti"
HOST = "example.org"
#: Every address a page names for the visitor to fetch or go to.
ADDRESS = re.compile(r'(?<![\w-])(?:href|src|action|data-reach|data-address)="([^"#][^"]*)"')


class PathProxy:
    """A reverse proxy serving ``app`` under ``prefix`` on ``host`` over
    ``proto``, as nginx does: a request under the prefix goes on without
    it, with ``X-Forwarded-Prefix``, ``-Proto``, ``-Host`` and ``-For``;
    any other path is another site's (404, the app never sees it). With
    ``host`` ``None``, the host the browser asked for."""

    def __init__(
        self, app, prefix: str = PREFIX, host: str | None = HOST, proto: str = "https"
    ) -> None:
        self.app = app
        self.prefix = prefix
        self.host = host
        self.proto = proto

    def __call__(self, environ, start_response):
        path = environ["PATH_INFO"]
        if not path.startswith(self.prefix + "/"):
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"another site"]
        environ["PATH_INFO"] = path[len(self.prefix) :]
        environ["HTTP_X_FORWARDED_PREFIX"] = self.prefix
        environ["HTTP_X_FORWARDED_PROTO"] = self.proto
        environ["HTTP_X_FORWARDED_HOST"] = self.host or environ["HTTP_HOST"]
        environ["HTTP_X_FORWARDED_FOR"] = "198.51.100.7"
        environ["HTTP_HOST"] = "127.0.0.1:5000"
        return self.app(environ, start_response)


class Visitor(Client):
    """A visitor's requests: each sends the site's page as its
    ``Referer``, which CSRF checks over HTTPS."""

    def open(self, *args, **kwargs):
        """Werkzeug's ``Client.open``, with the ``Referer``."""
        kwargs["headers"] = {"Referer": f"https://{HOST}{PREFIX}/", **kwargs.get("headers", {})}
        return super().open(*args, **kwargs)


@pytest.fixture
def proxied(tmp_path):
    """The app with one trusted proxy and its host name, as the README's
    systemd unit sets it."""
    return create_app(app_config(tmp_path, TRUSTED_PROXIES=1, TRUSTED_HOSTS=[HOST]))


@pytest.fixture
def visitor(proxied):
    """A client of the site through :class:`PathProxy`, keeping cookies as
    a browser does (by their ``Path``)."""
    return Visitor(PathProxy(proxied))


def page_of(response) -> str:
    return response.get_data(as_text=True)


def addresses(page: str) -> list[str]:
    """The site's own addresses the page names (not other sites')."""
    return [
        found.replace("&amp;", "&")
        for found in ADDRESS.findall(page)
        if not found.startswith(("http://", "https://", "mailto:"))
    ]


def cookie_paths(response) -> dict[str, str]:
    """The cookies ``response`` sets, each with its ``Path``."""
    paths = {}
    for line in response.headers.getlist("Set-Cookie"):
        cookie = SimpleCookie()
        cookie.load(line)
        for name, morsel in cookie.items():
            paths[name] = morsel["path"]
    return paths


def start_game(visitor) -> str:
    """Start a game from the home page's form; return the table page."""
    home = page_of(visitor.get(f"{PREFIX}/"))
    fields = {"csrf_token": CSRF.search(home).group(1), "level": "easy"}
    started = visitor.post(f"{PREFIX}/new", data=fields)
    assert started.status_code == 303
    assert started.headers["Location"] == f"{PREFIX}/game"
    return page_of(visitor.get(started.headers["Location"]))


@pytest.mark.parametrize(
    "path", ["/", "/daily", "/leaderboard", "/me", "/story", "/story/lesson", "/house", "/review/"]
)
def test_every_address_a_page_names_is_under_the_path(visitor, path):
    answer = visitor.get(PREFIX + path)
    assert answer.status_code == 200
    found = addresses(page_of(answer))
    assert found
    outside = [address for address in found if not address.startswith(PREFIX + "/")]
    assert outside == []


def test_the_page_scripts_health_check_and_the_table_forms_are_under_the_path(visitor):
    table = start_game(visitor)
    assert f'data-reach="{PREFIX}/healthz"' in table
    assert f'action="{PREFIX}/play"' in table
    assert [address for address in addresses(table) if not address.startswith(PREFIX + "/")] == []
    assert visitor.get(f"{PREFIX}/healthz").status_code == 200


def test_the_cookies_are_for_the_path_only(visitor):
    """Other sites under the same host name never get the game's cookies."""
    first = visitor.get(f"{PREFIX}/")
    assert cookie_paths(first) == {"pisti_csrf": PREFIX}
    home = page_of(first)
    started = visitor.post(
        f"{PREFIX}/new", data={"csrf_token": CSRF.search(home).group(1), "level": "easy"}
    )
    assert cookie_paths(started) == {
        "pisti_session": PREFIX,
        "pisti_csrf": PREFIX,
        "pisti_unfinished": PREFIX,
    }
    table = page_of(visitor.get(f"{PREFIX}/game"))
    fields = form_fields(table, f"{PREFIX}/settings")
    saved = visitor.post(f"{PREFIX}/settings", data={**fields, "hints": "on"})
    assert cookie_paths(saved) == {"pisti_aids": PREFIX}
    chosen = visitor.post(
        f"{PREFIX}/language", data={"csrf_token": fields["csrf_token"], "language": "tr"}
    )
    assert cookie_paths(chosen) == {"pisti_language": PREFIX}


def test_the_language_switch_and_the_playing_aids_come_back_to_the_page_under_the_path(visitor):
    rules = page_of(visitor.get(f"{PREFIX}/game/rules?from=home"))
    fields = form_fields(rules, f"{PREFIX}/language")
    assert fields["next"] == f"{PREFIX}/game/rules?from=home"
    chosen = visitor.post(f"{PREFIX}/language", data={**fields, "language": "tr"})
    assert chosen.status_code == 303
    assert chosen.headers["Location"] == f"{PREFIX}/game/rules?from=home"
    assert '<html lang="tr">' in page_of(visitor.get(chosen.headers["Location"]))
    home = page_of(visitor.get(f"{PREFIX}/"))
    fields = form_fields(home, f"{PREFIX}/settings")
    assert fields["next"] == f"{PREFIX}/?"
    saved = visitor.post(f"{PREFIX}/settings", data={**fields, "hints": "on"})
    assert saved.headers["Location"] in (f"{PREFIX}/", f"{PREFIX}/?")


def test_a_deal_its_share_link_its_record_and_its_review_are_under_the_path(visitor):
    """A deal link's game played out: the share link on its final page
    carries the configured host and the path (and is the checked one),
    the record and the review too, the summary's progress its status."""
    deal = visitor.get(f"{PREFIX}/deal?seed=prefix-share")
    assert deal.status_code in (302, 303, 308)
    assert deal.headers["Location"].startswith(f"{PREFIX}/deal/~")
    page = page_of(visitor.get(deal.headers["Location"]))
    start = re.search(r'<form method="post" action="([^"]+)"', page).group(1)
    assert start.startswith(f"{PREFIX}/deal/~")
    started = visitor.post(start.replace("&amp;", "&"), data=form_fields(page, start))
    assert started.status_code == 303 and started.headers["Location"] == f"{PREFIX}/game"
    table = page_of(visitor.get(started.headers["Location"]))
    while cards := re.findall(r'name="card" value="(\w\w)"', table):
        fields = form_fields(table, f"{PREFIX}/play")
        played = visitor.post(f"{PREFIX}/play", data={**fields, "card": cards[0]})
        assert played.status_code == 303 and played.headers["Location"].startswith(f"{PREFIX}/")
        table = page_of(visitor.get(played.headers["Location"]))
    share = re.search(r'id="share" class="share" type="text" readonly value="([^"]+)"', table)
    parts = urlsplit(share.group(1).replace("&amp;", "&"))
    assert (parts.scheme, parts.netloc) == ("https", HOST)
    assert parts.path.startswith(f"{PREFIX}/deal/~")
    assert visitor.get(f"{parts.path}?{parts.query}").status_code == 200
    record_link = re.search(r'href="([^"]*/record\?[^"]*)"', table).group(1)
    assert record_link.startswith(f"{PREFIX}/record")
    record = visitor.get(record_link.replace("&amp;", "&"))
    assert record.status_code == 200 and json.loads(record.get_data())["format"]
    kept = visitor.post(f"{PREFIX}/review/game", data=form_fields(table, f"{PREFIX}/review/game"))
    assert kept.status_code == 303 and kept.headers["Location"].startswith(f"{PREFIX}/review/")
    step = page_of(visitor.get(kept.headers["Location"]))
    summary = re.search(r'href="([^"]+)"[^>]*>Summary<', step).group(1)
    assert summary.startswith(f"{PREFIX}/review/")
    progress = page_of(visitor.get(summary))
    status = re.search(r'data-status="([^"]+)"', progress)
    if status:  # the summary is being worked out: its bar asks here
        assert status.group(1).startswith(f"{PREFIX}/review/")
        for _ in range(600):  # bounded: a broken job must not hang the suite
            answer = visitor.get(status.group(1)).get_json()
            if answer["status"] in ("done", "failed"):
                break
            time.sleep(0.1)
        assert answer["status"] == "done"


def test_the_web_app_manifest_opens_the_site_at_its_path(visitor):
    home = page_of(visitor.get(f"{PREFIX}/"))
    href = re.search(r'<link rel="manifest" href="([^"]+)"', home).group(1)
    manifest = visitor.get(href)
    assert manifest.status_code == 200
    base = f"https://{HOST}{href}"
    fields = json.loads(manifest.get_data())
    assert urljoin(base, fields["start_url"]) == f"https://{HOST}{PREFIX}/"
    assert urljoin(base, fields["scope"]) == f"https://{HOST}{PREFIX}/"
    for icon in fields["icons"]:
        assert visitor.get(urlsplit(urljoin(base, icon["src"])).path).status_code == 200


def test_a_links_preview_names_its_address_and_picture_under_the_path(visitor):
    """A chat app fetches a link's preview picture (og:image) by the whole
    address the page gives, which must be the site's public one: the
    proxy's scheme and host and the path the site is served under."""
    for page_path in ("/", "/deal/cuma?level=hard"):
        page = page_of(visitor.get(f"{PREFIX}{page_path}"))
        found = dict(re.findall(r'<meta property="og:(url|image)" content="([^"]+)">', page))
        assert found["url"].startswith(f"https://{HOST}{PREFIX}/")
        assert re.fullmatch(rf"https://{HOST}{PREFIX}/static/preview\.png\?v=\w+", found["image"])
        picture = visitor.get(found["image"].removeprefix(f"https://{HOST}"))
        assert picture.status_code == 200 and picture.mimetype == "image/png"


def test_error_pages_link_under_the_path(visitor):
    missing = visitor.get(f"{PREFIX}/no-such-page")
    assert missing.status_code == 404
    found = addresses(page_of(missing))
    assert f"{PREFIX}/" in found
    assert [address for address in found if not address.startswith(PREFIX + "/")] == []


def test_a_prefix_that_is_not_a_path_is_refused(proxied, caplog):
    client = proxied.test_client()
    for prefix in ("/pisti/../admin", "//evil.example", "/p<script>", "/a b"):
        answer = client.get("/", headers={"X-Forwarded-Prefix": prefix, "Host": HOST})
        assert answer.status_code == 400
        assert prefix not in page_of(answer)
    assert "is not a path such as /pisti" in caplog.text


def test_without_trusted_proxies_a_prefix_is_not_believed(tmp_path):
    client = create_app(app_config(tmp_path)).test_client()
    page = page_of(client.get("/", headers={"X-Forwarded-Prefix": "/elsewhere"}))
    assert "/elsewhere" not in page
    assert 'href="/static/pisti.css' in page


def test_at_the_root_nothing_changes(proxied):
    """The same proxied app, reached without a prefix (a proxy serving it
    at the root, or a health check from the machine itself)."""
    client = proxied.test_client()
    first = client.get("/", headers={"Host": HOST})
    assert cookie_paths(first) == {"pisti_csrf": "/"}
    found = addresses(page_of(first))
    assert "/static/" in " ".join(found) and not any(a.startswith(PREFIX) for a in found)
    # A proxy at the root may send "/" for "no path".
    slash = page_of(client.get("/", headers={"Host": HOST, "X-Forwarded-Prefix": "/"}))
    assert 'data-reach="/healthz"' in slash


def test_the_shared_device_cookies_are_for_the_path_only(visitor):
    """The player and device cookies of "Someone else is playing" and a
    switch back, set and dropped under the path, with the others' flags."""
    profile = page_of(visitor.get(f"{PREFIX}/me"))
    token = CSRF.search(profile).group(1)
    named = visitor.post(f"{PREFIX}/me/name", data={"csrf_token": token, "name": "Nene"})
    assert cookie_paths(named) == {"pisti_player": PREFIX}
    nene = re.search(r'name="player" value="(\d+)"', page_of(visitor.get(f"{PREFIX}/me")))
    aside = visitor.post(f"{PREFIX}/me/aside", data={"csrf_token": token})
    assert cookie_paths(aside) == {"pisti_device": PREFIX, "pisti_player": PREFIX}
    switched = visitor.post(
        f"{PREFIX}/me/switch", data={"csrf_token": token, "player": nene.group(1)}
    )
    assert cookie_paths(switched) == {"pisti_device": PREFIX, "pisti_player": PREFIX}
    for line in aside.headers.getlist("Set-Cookie") + switched.headers.getlist("Set-Cookie"):
        assert "HttpOnly" in line and "SameSite=Lax" in line
    # Back as Nene: the device remembers nobody else, so its cookie is dropped.
    assert "pisti_device=;" in " ".join(switched.headers.getlist("Set-Cookie"))
    assert "Nene" in page_of(visitor.get(f"{PREFIX}/me")).split("<h1>")[1].split("</h1>")[0]
