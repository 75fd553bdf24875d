"""What a browser sends and keeps: every request of every page stays on
the site (no font, script, image or statistics from elsewhere), every
cookie is HttpOnly, and a player downloads what is kept about them."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import submit

HAND_READY = (
    "() => { const b = document.querySelector('button.card-button');"
    " return !b || !b.closest('[inert]'); }"
)


def test_no_page_sends_anything_elsewhere_and_the_data_comes_down(browser: Browser, live_server):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    origins: set[str] = set()
    page.on("request", lambda request: origins.add(_origin(request.url)))
    for path in ("/", "/daily", "/leaderboard", "/me", "/me/stats", "/story", "/house", "/review/"):
        page.goto(f"{live_server}{path}")
    page.goto(f"{live_server}/deal/privacy-e2e")
    page.locator("form[action^='/deal/'] button[type=submit]").first.click()
    for _ in range(100):
        page.wait_for_load_state()
        if page.locator("#name-form").count():
            break
        page.wait_for_function(HAND_READY)
        if page.locator("button.card-button").count():
            page.locator("button.card-button").first.click()
    page.get_by_label("Your display name").fill("Gizli Oyuncu")
    submit(page, page.get_by_role("button", name="Keep my results"))
    for path in ("/me/stats", "/leaderboard", "/deal/privacy-e2e", "/me"):
        page.goto(f"{live_server}{path}")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download your data (JSON)").click()
    assert download.value.suggested_filename == "pisti-my-data.json"
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["player"]["name"] == "Gizli Oyuncu"
    assert len(data["results"]) == 1
    expect(page.locator("h1")).to_have_text("Gizli Oyuncu")  # the page stays
    assert origins == {_origin(live_server)}
    cookies = context.cookies()
    assert {cookie["name"] for cookie in cookies} >= {"pisti_csrf", "pisti_session", "pisti_player"}
    assert all(cookie["httpOnly"] and cookie["sameSite"] == "Lax" for cookie in cookies)
    context.close()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
