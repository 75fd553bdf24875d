"""A card tapped, or an aid toggled, with the phone offline, in Chromium:
the table stays (not the browser's "no internet" page), says so, and is
read again as it stands once the network is back."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import PHONE

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
