"""A game played in the browser at a path of the host (``/pisti/``) behind
a proxy that strips it and says so (``X-Forwarded-Prefix``): every request
the pages and their script make (styles, script, the health check before
a form is sent, plays, the language switch) stays under the path, and so
do the cookies."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from app import create_app
from tests.conftest import app_config, serve
from tests.e2e.conftest import cards_in_hand, play_card, submit
from tests.web.test_path_prefix import PREFIX, PathProxy


@pytest.fixture(scope="module")
def under_a_path(tmp_path_factory):
    """The app behind :class:`PathProxy` at ``/pisti``; yields the site's
    address (``http://127.0.0.1:<port>/pisti``)."""
    app = create_app(
        app_config(tmp_path_factory.mktemp("prefix"), TRUSTED_PROXIES=1, RATELIMIT_ENABLED=False)
    )
    with serve(PathProxy(app, host=None, proto="http")) as url:
        yield url + PREFIX


def test_a_game_played_under_a_path_stays_under_it(page: Page, under_a_path):
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.emulate_media(reduced_motion="reduce")
    page.goto(under_a_path + "/")
    page.get_by_label("Seed").fill("e2e-prefix")
    submit(page, page.get_by_role("button", name="Deal from a seed"))
    submit(page, page.get_by_role("button", name="Start this deal"))
    assert page.url == under_a_path + "/game"
    while cards_in_hand(page):
        assert play_card(page, page.locator(".hand button").first)
    expect(page.locator(".verdict")).to_be_visible()
    share = page.locator("#share").input_value()
    assert share.startswith(under_a_path + "/deal/~")
    submit(page, page.locator("footer button[lang=tr]"))
    assert page.url == under_a_path + "/game"
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    # The script asked the health check under the path before sending a form.
    assert under_a_path + "/healthz" in asked
    outside = [url for url in asked if not url.startswith(under_a_path + "/")]
    assert outside == []
    paths = {cookie["name"]: cookie["path"] for cookie in page.context.cookies()}
    assert paths and set(paths.values()) == {PREFIX}, paths
