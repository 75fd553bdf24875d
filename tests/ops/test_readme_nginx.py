"""The README's nginx blocks, run as written by Debian's nginx in front of
the app. Under a path of a host name: the bare path is sent on to the path
with a slash, every address a page names, the redirects and the cookies
stay under the path, and a path a visitor sends in ``X-Forwarded-Prefix``
is not believed. At the root over HTTPS on another port than 443 ("On a
server of your own"): forms are accepted and share links carry the port."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from app import create_app
from benchmarks.load_servers import free_port
from tests.conftest import CSRF, app_config, serve

ROOT = Path(__file__).resolve().parents[2]
HOST = "example.org"


def readme_block(section_title: str) -> str:
    """The first nginx block of the README's section ``section_title``."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index(f"### {section_title}") :]
    block = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert block is not None, f"the README's nginx block under {section_title}"
    return block.group(1)


@contextmanager
def nginx(folder: Path, servers: str) -> Iterator[None]:
    """Debian's nginx with the ``server`` blocks ``servers``, its files in
    ``folder``, stopped after."""
    folder.chmod(0o755)  # nginx's workers may run as another user
    (folder / "nginx.conf").write_text(
        f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {folder}/body;\n"
        f"  proxy_temp_path {folder}/proxy;\n{servers}}}\n"
    )
    program = shutil.which("nginx") or "/usr/sbin/nginx"
    started = subprocess.run(
        [program, "-p", str(folder), "-c", str(folder / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert started.returncode == 0, started.stderr
    try:
        yield
    finally:
        pid = int((folder / "nginx.pid").read_text())
        os.kill(pid, 15)
        for _ in range(100):
            if not Path(f"/proc/{pid}").exists():
                break
            time.sleep(0.05)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    """nginx with the README's block in front of the app (one trusted
    proxy, the README's trusted host); yields nginx's address."""
    app = create_app(
        app_config(
            tmp_path_factory.mktemp("app"),
            TRUSTED_PROXIES=1,
            TRUSTED_HOSTS=[HOST],
            RATELIMIT_ENABLED=False,
        )
    )
    with serve(app) as app_url:
        locations = readme_block("Under a path of a host name").replace(
            "http://127.0.0.1:5000/", app_url + "/"
        )
        port = free_port()
        server = (
            f"  server {{\n    listen 127.0.0.1:{port};\n    server_name {HOST};\n"
            '    location / { return 404 "another site"; }\n'
            f"{locations}  }}\n"
        )
        with nginx(tmp_path_factory.mktemp("nginx"), server):
            yield f"http://127.0.0.1:{port}"


def visit(site: str) -> requests.Session:
    visitor = requests.Session()
    visitor.headers["Host"] = HOST
    visitor.get(site + "/pisti/", timeout=30)  # the CSRF cookie
    return visitor


def test_the_bare_path_is_sent_on_to_the_path_with_a_slash(site):
    answer = requests.get(
        site + "/pisti", headers={"Host": HOST}, allow_redirects=False, timeout=30
    )
    assert answer.status_code == 301
    assert answer.headers["Location"].endswith("/pisti/")
    assert requests.get(site + "/", headers={"Host": HOST}, timeout=30).text == "another site"


def test_a_deal_played_behind_the_readmes_nginx_stays_under_the_path(site):
    visitor = visit(site)
    home = visitor.get(site + "/pisti/", timeout=30)
    assert home.status_code == 200
    named = re.findall(r'(?:href|src|action)="(/[^"]*)"', home.text)
    assert named and all(address.startswith("/pisti/") for address in named), named
    assert {cookie.path for cookie in visitor.cookies} == {"/pisti"}
    deal = visitor.get(site + "/pisti/deal/%C5%9Fans", timeout=30)
    assert deal.status_code == 200
    assert "Deal “şans”" in deal.text
    action = re.search(r'<form method="post" action="(/pisti/deal/[^"]+)"', deal.text).group(1)
    started = visitor.post(
        site + action,
        data={"csrf_token": CSRF.search(deal.text).group(1)},
        allow_redirects=False,
        timeout=30,
    )
    assert started.status_code == 303, started.text
    assert started.headers["Location"] == "/pisti/game"
    table = visitor.get(site + "/pisti/game", timeout=30)
    assert table.status_code == 200
    assert 'action="/pisti/play"' in table.text
    assert visitor.get(site + "/pisti/healthz", timeout=30).status_code == 200


def test_a_path_a_visitor_sends_is_not_believed(site):
    answer = requests.get(
        site + "/pisti/",
        headers={"Host": HOST, "X-Forwarded-Prefix": "/elsewhere"},
        timeout=30,
    )
    assert answer.status_code == 200
    assert 'class="brand" href="/pisti/"' in answer.text
    assert "/elsewhere" not in answer.text


@pytest.fixture(scope="module")
def tls_site(tmp_path_factory) -> Iterator[tuple[str, int, str]]:
    """nginx with the README's block of "On a server of your own", over
    HTTPS (a throw-away certificate) on a port other than 443, in front of
    the app as its unit starts it; yields nginx's address, port and
    certificate."""
    folder = tmp_path_factory.mktemp("tls-nginx")
    made = subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=pisti.example", "-addext", "subjectAltName=IP:127.0.0.1"),
            *("-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    app = create_app(
        app_config(
            tmp_path_factory.mktemp("tls-app"),
            TRUSTED_PROXIES=1,
            TRUSTED_HOSTS=["pisti.example"],
            SESSION_COOKIE_SECURE=True,
            RATELIMIT_ENABLED=False,
        )
    )
    with serve(app) as app_url:
        port = free_port()
        server = (
            readme_block("On a server of your own")
            .replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
            .replace(
                "server_name pisti.example;",
                f"server_name pisti.example;\n    ssl_certificate {folder}/cert.pem;\n"
                f"    ssl_certificate_key {folder}/key.pem;",
            )
            .replace("http://127.0.0.1:5000", app_url)
        )
        with nginx(folder, server):
            yield f"https://127.0.0.1:{port}", port, str(folder / "cert.pem")


def test_a_game_behind_the_readmes_nginx_on_another_port_shares_that_port(tls_site):
    # nginx on port 8443, say: with X-Forwarded-Host $host the app took
    # the site to be at https://pisti.example/, so every form a browser
    # sent from https://pisti.example:8443/ was refused (Flask-WTF: "The
    # referrer does not match the host") and share links had no port.
    site, port, certificate = tls_site
    origin = f"https://pisti.example:{port}"
    visitor = requests.Session()
    visitor.trust_env = False  # REQUESTS_CA_BUNDLE would replace the certificate
    visitor.verify = certificate
    # As a browser sends them: the port in Host, the page in Referer.
    visitor.headers["Host"] = f"pisti.example:{port}"
    deal = visitor.get(site + "/deal/port-8443", timeout=30)
    assert deal.status_code == 200
    action = re.search(r'<form method="post" action="(/deal/[^"]+)"', deal.text).group(1)
    fields = {"csrf_token": CSRF.search(deal.text).group(1)}
    fields["replaces"] = re.search(r'name="replaces" value="([^"]*)"', deal.text).group(1)
    referer = {"Referer": f"{origin}/deal/port-8443"}
    started = visitor.post(
        site + action.replace("&amp;", "&"),
        data=fields,
        headers=referer,
        allow_redirects=False,
        timeout=30,
    )
    assert started.status_code == 303, started.text
    page = visitor.get(site + "/game", timeout=30).text
    while cards := re.findall(r'name="card" value="([^"]+)"', page):
        play = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        played = visitor.post(
            site + "/play",
            data={**play, "card": cards[0]},
            headers={"Referer": f"{origin}/game"},
            allow_redirects=False,
            timeout=30,
        )
        assert played.status_code == 303, played.text
        page = visitor.get(site + "/game", timeout=30).text
    share = re.search(r'id="share"[^>]*value="([^"]+)"', page).group(1)
    assert share.startswith(f"{origin}/deal/~") and "port-8443" in share
