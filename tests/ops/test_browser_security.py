"""In Chromium: the pages work under the Content-Security-Policy with no
violation, and a form on another site cannot play in the player's game."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Page, expect

from app import create_app
from tests.conftest import serve
from tests.e2e.conftest import play_card


@pytest.fixture
def site(tmp_path):
    """The app on 127.0.0.1 (a free port); yields its base URL."""
    app = create_app({"SECRET_KEY": "ops-browser", "SESSION_FILE_DIR": str(tmp_path)})
    with serve(app) as url:
        yield url


@pytest.fixture
def other_site():
    """Another site (``localhost``, not ``127.0.0.1``) serving whatever page
    the test puts in ``pages[path]``; yields ``(base URL, pages)``."""
    pages: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{server.server_port}", pages
    server.shutdown()
    server.server_close()
    thread.join()


def test_pages_run_under_the_policy_without_violations(page: Page, site):
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto(site + "/")
    page.get_by_label("Seed").fill("csp-check")
    page.get_by_role("button", name="Deal from a seed").click()
    page.get_by_role("button", name="Start this deal").click()
    expect(page.locator(".hand button")).to_have_count(4)
    for _ in range(24):
        play_card(page, page.locator(".hand button").first)
    expect(page.locator(".verdict")).to_be_visible()
    page.goto(site + "/no-such-page")
    assert violations == []
    # The stylesheet applied: the hand is not laid out as plain buttons.
    page.goto(site + "/")
    assert page.evaluate("document.styleSheets[0].cssRules.length") > 10


def test_a_form_on_another_site_cannot_play(page: Page, site, other_site):
    page.goto(site + "/deal/cross-site")
    page.get_by_role("button", name="Start this deal").click()
    expect(page.locator(".hand button")).to_have_count(4)
    card = page.locator(".hand button").first.get_attribute("value")
    move = page.locator('.hand input[name="move"]').first.get_attribute("value")
    base, pages = other_site
    pages["/prize"] = (
        f'<form method="post" action="{site}/play"><input type="hidden" name="card" value="{card}">'
        f'<input type="hidden" name="move" value="{move}"><button>Claim your prize</button></form>'
    )
    page.goto(base + "/prize")
    with page.expect_navigation():
        page.get_by_role("button", name="Claim your prize").click()
    expect(page.locator("[role=alert]")).to_contain_text("security token")
    page.goto(site + "/game")
    expect(page.locator(".hand button")).to_have_count(4)
    assert page.locator('.hand input[name="move"]').first.get_attribute("value") == move


def test_a_play_over_the_limit_is_told_on_the_table(browser, tmp_path, limits_clock):
    """Plays faster than the limit (a quick keyboard with reduced motion):
    the one refused is told on the table, the hand still there, and the
    next play after the wait is taken."""
    app = create_app(
        {
            "SECRET_KEY": "ops-browser",
            "SESSION_FILE_DIR": str(tmp_path),
            "PLAY_LIMIT": "2 per 2 seconds",
        }
    )
    with serve(app) as url:
        context = browser.new_context(reduced_motion="reduce")
        page = context.new_page()
        page.goto(url + "/deal/too-fast")
        with page.expect_navigation():
            page.locator(".deal-link button[type=submit]").click()
        assert play_card(page, page.locator(".hand button").first)
        assert play_card(page, page.locator(".hand button").first)
        assert not play_card(page, page.locator(".hand button").first)
        expect(page.locator(".alert")).to_contain_text("Too many moves in a short time")
        expect(page.locator(".hand button")).to_have_count(2)
        expect(page.locator(".verdict")).to_have_count(0)
        limits_clock.now += 2.1  # the limit's two seconds, and a little
        assert play_card(page, page.locator(".hand button").first)
        expect(page.locator(".hand button")).to_have_count(1)
        context.close()
