"""Two tabs of one game, and deal links, in Chromium: a play from an
out-of-date tab is refused (409) on a page at the table's address, so a
reload reads the table instead of posting again; a deal link asks first and
the game in progress is kept to go back to."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import DESKTOP, PHONE, play_card, settled, submit, wait_settled

SIZES = {"phone": PHONE, "small-phone": {"width": 360, "height": 740}, "laptop": DESKTOP}


def test_a_play_from_an_out_of_date_tab_is_refused_at_the_tables_address(
    browser: Browser, live_server
):
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    first.goto(f"{live_server}/deal/two-tabs")
    submit(first, first.get_by_role("button", name="Start this deal"))
    expect(first.locator(".hand button")).to_have_count(4)
    second.goto(f"{live_server}/game")
    stale_card = second.locator(".hand button").nth(1).get_attribute("value")
    play_card(first, first.locator(".hand button").first)
    # The page's script posts the play and shows the answer in place.
    before = settled(second)
    with second.expect_response(lambda response: response.url.endswith("/play")) as answer:
        second.locator(".hand button").nth(1).click()
    wait_settled(second, before)
    assert answer.value.status == 409
    expect(second.locator("[role=alert]")).to_contain_text("That page was out of date")
    assert second.url == f"{live_server}/game"
    # Reloading reads the table (a GET): the stale card was not played.
    with second.expect_navigation() as reloaded:
        second.reload()
    assert reloaded.value.status == 200 and reloaded.value.request.method == "GET"
    hand = second.locator(".hand button").evaluate_all("els => els.map(e => e.value)")
    assert stale_card in hand and len(hand) == 3
    context.close()


@pytest.mark.parametrize("size_name", list(SIZES))
def test_a_deal_link_asks_and_keeps_the_game_in_progress(
    browser: Browser, live_server, screenshots, size_name
):
    context = browser.new_context(viewport=SIZES[size_name], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/kept-first-{size_name}?rules=classic")
    submit(page, page.get_by_role("button", name="Start this deal"))
    play_card(page, page.locator(".hand button").first)
    page.goto(f"{live_server}/deal/kept-second-{size_name}")
    expect(page.get_by_text("You have a game in progress")).to_be_visible()
    page.screenshot(path=screenshots / f"deal-link-asks-{size_name}.png", full_page=True)
    submit(page, page.get_by_role("button", name="Start this deal"))
    page.get_by_text("Your other games in progress (1)").click()
    page.screenshot(path=screenshots / f"kept-table-{size_name}.png")
    page.goto(f"{live_server}/")
    page.screenshot(path=screenshots / f"kept-home-{size_name}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size_name]["width"]
    page.get_by_role("button", name="Back to it").click()
    expect(page.locator(".meta")).to_contain_text("Classic match")
    expect(page.get_by_text("Your other games in progress (1)")).to_be_visible()
    context.close()


def test_a_tab_brought_back_to_the_front_shows_the_table_as_it_stands(
    browser: Browser, live_server
):
    # The game went on in the other tab: back in front, this tab showed
    # the old table (the card played there still in hand) until a tap was
    # refused as out of date.
    context = browser.new_context(viewport=SIZES["small-phone"])
    first, second = context.new_page(), context.new_page()
    first.goto(f"{live_server}/deal/two-tabs-front")
    submit(first, first.get_by_role("button", name="Start this deal"))
    expect(first.locator(".hand button")).to_have_count(4)
    second.goto(f"{live_server}/game")
    played = first.locator(".hand button").first.get_attribute("value")
    play_card(first, first.locator(".hand button").first)

    before = settled(second)
    second.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    wait_settled(second, before)
    hand = second.locator(".hand button")
    expect(hand).to_have_count(3)
    assert played not in hand.evaluate_all("cards => cards.map(card => card.value)")
    expect(second.locator(".log li").first).to_contain_text("You played")
    expect(second.locator(".alert")).to_have_count(0)
    context.close()


def test_a_tab_brought_back_to_the_front_keeps_a_keyboards_focus_in_the_hand(
    browser: Browser, live_server
):
    # The table shown as it stands took the focus away from the card a
    # keyboard's player was on: it went back to the top of the page.
    context = browser.new_context(viewport=SIZES["small-phone"], reduced_motion="reduce")
    first, second = context.new_page(), context.new_page()
    first.goto(f"{live_server}/deal/two-tabs-focus")
    submit(first, first.get_by_role("button", name="Start this deal"))
    second.goto(f"{live_server}/game")
    hand = second.locator(".hand button")
    kept = hand.last.get_attribute("value")
    hand.last.focus()
    second.keyboard.press("Shift")  # the keyboard was the last thing used
    play_card(first, first.locator(".hand button").first)

    before = settled(second)
    second.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    wait_settled(second, before)
    expect(hand).to_have_count(3)
    expect(second.locator(f".hand button[value='{kept}']")).to_be_focused()
    context.close()
