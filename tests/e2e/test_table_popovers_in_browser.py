"""On a phone, a tap on the dealer tag or on a side's points chip says what
it means (a title, the only word on them before, shows only under a
mouse), and a tap on the table closes it again, in English and Turkish."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.e2e.conftest import PHONE, play_card, settled_when_ready, take_deal


def phone_context(browser: Browser, language: str) -> BrowserContext:
    """A phone's browser (touch, no motion) that reads ``language``."""
    return browser.new_context(
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
        extra_http_headers={"Accept-Language": language},
    )


@pytest.mark.parametrize(
    ("language", "dealer", "points"),
    [
        ("en", "plays last", "The points each side has so far in this hand"),
        ("tr", "en son oynar", "Her tarafın bu elde şimdiye kadarki puanları"),
    ],
)
def test_a_tap_on_the_dealer_tag_or_the_points_says_what_they_mean(
    browser: Browser, live_server, screenshots, language, dealer, points
):
    context = phone_context(browser, language)
    page = context.new_page()
    page.goto(f"{live_server}/deal/keys-phone?rules=partners")
    take_deal(page)
    settled_when_ready(page)
    key = page.locator("#key-dealer")
    expect(key).to_be_hidden()
    page.locator(".table .tag.dealer").first.tap()
    expect(key).to_be_visible()
    expect(key).to_contain_text(dealer)
    box = key.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=screenshots / f"table-key-dealer-{language}-390.png")
    # A tap elsewhere closes it (and plays nothing).
    page.mouse.click(5, PHONE["height"] // 2)
    expect(key).to_be_hidden()
    page.locator(".scoreboard .chip.points").first.tap()
    expect(page.locator("#key-points")).to_be_visible()
    expect(page.locator("#key-points")).to_contain_text(points)
    page.locator("#key-points .key-close").tap()
    expect(page.locator("#key-points")).to_be_hidden()
    assert page.locator(".you .hand button").count() == 4
    context.close()


@pytest.mark.parametrize(
    ("language", "points", "dealer"),
    [
        ("en", "Each side's points in this hand", "plays last"),
        ("tr", "Her tarafın bu eldeki puanları", "en son oynar"),
    ],
)
def test_between_hands_a_tap_on_a_total_or_the_dealer_says_what_they_mean(
    browser: Browser, live_server, screenshots, language, points, dealer
):
    context = phone_context(browser, language)
    page = context.new_page()
    page.goto(f"{live_server}/deal/keys-between-phone?rules=classic&last_sweep_bonus=3")
    take_deal(page)
    while page.locator(".you .hand button").count():
        assert play_card(page, page.locator(".you .hand button").first)
    expect(page.locator("body.between-page")).to_have_count(1)
    key = page.locator("#key-points")
    for chip in ("tfoot .chip.points", "tfoot .chip.total"):
        expect(key).to_be_hidden()
        page.locator(chip).tap()
        expect(key).to_be_visible()
        expect(key).to_contain_text(points)
        box = key.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        page.locator("#key-points .key-close").tap()
    page.locator(".next-deal .tag.dealer").tap()
    expect(page.locator("#key-dealer")).to_contain_text(dealer)
    page.screenshot(path=screenshots / f"between-key-dealer-{language}-390.png")
    page.keyboard.press("Escape")
    expect(page.locator("#key-dealer")).to_be_hidden()
    context.close()
