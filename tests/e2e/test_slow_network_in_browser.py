"""A slow or lost network, in Chromium: a play slow to be answered says it
is on its way; a card tapped, or an aid toggled, with the phone offline
leaves the table in place (not the browser's "no internet" page), says so,
and the table is read again as it stands once the network is back."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, expect

from app import create_app
from tests.conftest import serve
from tests.e2e.conftest import PHONE

#: How long the slowed server waits before it answers a play, in seconds.
SLOW_PLAY_S = 2.5

OFFLINE = "You are offline. The table comes back as it stands when the connection does."


def test_a_card_tapped_offline_leaves_the_table_and_it_comes_back_online(
    browser: Browser, live_server
):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/deal/offline-card")
    page.get_by_role("button", name="Start this deal").click()
    hand = page.locator(".you .hand button")
    expect(hand).to_have_count(4)

    context.set_offline(True)
    hand.first.click()
    expect(page.locator(".happened .alert")).to_have_text(OFFLINE)
    assert page.url == f"{live_server}/game"
    expect(hand).to_have_count(4)

    with page.expect_navigation(url=f"{live_server}/game"):
        context.set_offline(False)
    # The card never reached the server: it is still in hand, and can be played.
    expect(hand).to_have_count(4)
    expect(page.locator(".happened .alert")).to_have_count(0)
    context.close()


def test_an_aid_toggled_offline_leaves_the_table(browser: Browser, live_server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/deal/offline-aid")
    page.get_by_role("button", name="Start this deal").click()
    expect(page.locator(".you .hand button")).to_have_count(4)

    page.locator("details.settings summary").click()
    context.set_offline(True)
    page.locator("form.aids input[type=checkbox]").first.click()
    expect(page.locator(".happened .alert")).to_have_text(OFFLINE)
    assert page.url == f"{live_server}/game"
    context.close()


@pytest.fixture(scope="module")
def slow_play_server(tmp_path_factory):
    """The app served with every play answered 2.5 s late; yields its URL."""
    app = create_app(
        {
            "SECRET_KEY": "e2e-secret",
            "SESSION_FILE_DIR": str(tmp_path_factory.mktemp("sessions")),
            "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('db') / 'pisti.db'}",
            "RATELIMIT_ENABLED": False,
        }
    )
    inner = app.wsgi_app

    def slow_plays(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"] == "/play":
            time.sleep(SLOW_PLAY_S)
        return inner(environ, start_response)

    app.wsgi_app = slow_plays  # type: ignore[method-assign]
    with serve(app) as url:
        yield url


def test_a_play_slow_to_be_answered_says_it_is_on_its_way(browser: Browser, slow_play_server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{slow_play_server}/deal/slow-play")
    page.get_by_role("button", name="Start this deal").click()
    hand = page.locator(".you .hand button")
    expect(hand).to_have_count(4)
    tag = page.locator(".you .turn-tag")
    expect(tag).to_have_text("your turn")

    hand.first.click()
    # Not at once (an answer within a second needs no word), then until the answer.
    page.wait_for_timeout(500)
    expect(tag).to_have_text("your turn")
    expect(tag).to_have_text("sending…", timeout=1500)
    expect(hand).to_have_count(3, timeout=10_000)
    expect(page.locator(".you .turn-tag.sending")).to_have_count(0)
    context.close()
