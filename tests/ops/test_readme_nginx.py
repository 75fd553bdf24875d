"""The README's nginx block for serving the site under a path of a host
name ("Under a path of a host name"), run as written by Debian's nginx in
front of the app: the bare path is sent on to the path with a slash, every
address a page names, the redirects and the cookies stay under the path,
and a path a visitor sends in ``X-Forwarded-Prefix`` is not believed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from app import create_app
from benchmarks.load_servers import free_port
from tests.conftest import CSRF, app_config, serve

ROOT = Path(__file__).resolve().parents[2]
HOST = "example.org"


def readme_block() -> str:
    """The README's ``location`` blocks for nginx under a path."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### Under a path of a host name") :]
    block = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert block is not None, "the README's nginx block"
    return block.group(1)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    """nginx with the README's block in front of the app (one trusted
    proxy, the README's trusted host); yields nginx's address."""
    folder = tmp_path_factory.mktemp("nginx")
    folder.chmod(0o755)  # nginx's workers may run as another user
    app = create_app(
        app_config(
            tmp_path_factory.mktemp("app"),
            TRUSTED_PROXIES=1,
            TRUSTED_HOSTS=[HOST],
            RATELIMIT_ENABLED=False,
        )
    )
    with serve(app) as app_url:
        locations = readme_block().replace("http://127.0.0.1:5000/", app_url + "/")
        port = free_port()
        (folder / "nginx.conf").write_text(
            f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
            "events { worker_connections 64; }\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {folder}/body;\n"
            f"  proxy_temp_path {folder}/proxy;\n"
            f"  server {{\n    listen 127.0.0.1:{port};\n    server_name {HOST};\n"
            '    location / { return 404 "another site"; }\n'
            f"{locations}  }}\n}}\n"
        )
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        started = subprocess.run(
            [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert started.returncode == 0, started.stderr
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            pid = int((folder / "nginx.pid").read_text())
            os.kill(pid, 15)
            for _ in range(100):
                if not Path(f"/proc/{pid}").exists():
                    break
                time.sleep(0.05)


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
