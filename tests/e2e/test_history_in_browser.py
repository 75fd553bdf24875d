"""Back and Forward to a table in Chromium: the table's plays are shown in
place by the page's script, so the page the browser kept from its load is
an older table; Back or Forward must show the table as it stands, never
the cards already played back in hand."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import PHONE, play_card, submit


def test_back_to_the_table_shows_it_as_it_stands(browser: Browser, live_server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/deal/back-to-the-table")
    submit(page, page.get_by_role("button", name="Start this deal"))
    hand = page.locator(".you .hand button")
    expect(hand).to_have_count(4)
    played = hand.first.get_attribute("value")
    assert play_card(page, hand.first)
    expect(hand).to_have_count(3)

    page.locator(".bar-new").click()
    page.wait_for_url(f"{live_server}/")
    page.go_back()
    page.wait_for_url(f"{live_server}/game")
    # The played card is not back in hand; what happened says it was played.
    expect(hand).to_have_count(3)
    assert played not in hand.evaluate_all("cards => cards.map(card => card.value)")
    expect(page.locator(".log li").first).to_contain_text("You played")

    page.go_forward()
    page.wait_for_url(f"{live_server}/")
    page.go_back()
    page.wait_for_url(f"{live_server}/game")
    expect(hand).to_have_count(3)
    context.close()
