"""A form pressed twice while the server is slow to answer is sent once, in
Chromium: the browser would otherwise drop the first answer (and the
cookie it sets) for the second's, which the server refuses as a repeat."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.conftest import serve
from tests.e2e.conftest import e2e_app, slowed

#: How long the slowed server waits before it answers a POST, in seconds.
SLOW_POST_S = 0.5

PRESS_TWICE = """([selector, gap]) => {
  const button = document.querySelector(selector);
  button.click();
  setTimeout(() => button.click(), gap);
}"""

SEEN_ON_ITS_WAY = """() => window.addEventListener("submit", (event) => {
  const style = (pseudo) => getComputedStyle(event.submitter, pseudo);
  const seen = [style("::after").content, style(null).cursor];
  seen.push(document.querySelectorAll("button[data-sending]").length);
  sessionStorage.setItem("seen", JSON.stringify(seen));
})"""

SEND_THEN_STOP = """(selector) => {
  document.querySelector(selector).click();
  setTimeout(() => window.stop(), 100);
}"""


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    """The app served with every POST answered half a second late (a slow
    network or a busy server); yields its base URL and the count of the
    POSTs that reached it, by path."""
    app = e2e_app(tmp_path_factory)
    posts = slowed(app, SLOW_POST_S)
    with serve(app) as url:
        yield url, posts


def name_typed(browser: Browser, url: str, name: str) -> tuple[BrowserContext, Page]:
    """A new browser's profile page with ``name`` typed in its name form."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}/me")
    page.fill("#name", name)
    return context, page


def test_a_first_name_pressed_twice_makes_the_player_of_this_browser(browser: Browser, slow_server):
    url, posts = slow_server
    context, page = name_typed(browser, url, "Double Tap")
    before = posts["/me/name"]
    with page.expect_navigation(url=f"{url}/me"):
        page.evaluate(PRESS_TWICE, ["#name-form button[type=submit]", 150])
    assert posts["/me/name"] - before == 1
    expect(page.locator("main")).not_to_contain_text("That name is taken")
    # The answer's cookie was kept: this browser is the player.
    page.goto(f"{url}/me")
    expect(page.locator("#name")).to_have_value("Double Tap")
    assert "pisti_player" in {cookie["name"] for cookie in context.cookies()}
    context.close()


def test_new_game_pressed_twice_starts_one_game_at_the_table(browser: Browser, slow_server):
    url, posts = slow_server
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    before = posts["/new"]
    with page.expect_navigation(url=f"{url}/game") as arrived:
        page.evaluate(PRESS_TWICE, ["form[action='/new'] button[type=submit]", 150])
    assert arrived.value.status == 200
    assert posts["/new"] - before == 1
    expect(page.locator(".hand button")).to_have_count(4)
    context.close()


def test_a_form_whose_sending_was_stopped_can_be_sent_again(browser: Browser, slow_server):
    url, posts = slow_server
    context, page = name_typed(browser, url, "Stopped Once")
    before = posts["/me/name"]
    # Sent, then stopped before the answer (the browser's stop button).
    page.evaluate(SEND_THEN_STOP, "#name-form button[type=submit]")
    page.wait_for_timeout(2 * SLOW_POST_S * 1000)
    assert page.url == f"{url}/me"
    page.fill("#name", "Sent Again")
    with page.expect_navigation(url=f"{url}/me", timeout=5000):
        page.click("#name-form button[type=submit]")
    assert posts["/me/name"] - before == 2
    expect(page.locator("main")).to_contain_text("Sent Again")
    context.close()


def test_a_button_pressed_says_its_form_is_on_its_way(browser: Browser, live_server):
    # On a slow network the page stayed as it was for seconds after "New
    # game" was pressed, with nothing to say the press was taken: a player
    # pressed again, or thought the site was stuck. What the button shows
    # once the form is on its way is kept for the next page to read.
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(live_server)
    page.evaluate(SEEN_ON_ITS_WAY)
    with page.expect_navigation(url=f"{live_server}/game"):
        page.locator("form[action='/new'] button[type=submit]").first.click()
    expect(page.locator(".hand button")).to_have_count(4)
    shown = page.evaluate("JSON.parse(sessionStorage.getItem('seen'))")
    # Only the button pressed says so.
    assert shown == ['" …"', "progress", 1]
    context.close()
