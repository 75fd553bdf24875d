"""A player mid-game reads the rules of the game being played from the
table and comes back to the same table, on a phone (the link and, back
at the table, the cards on the first screen) and on a laptop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import PHONE, play_card, settled_when_ready, take_deal

SMALL_PHONE = {"width": 360, "height": 740}


def table_state(page) -> dict:
    """What the table shows of the game: the hand, the pile, the score and
    what happened."""
    return {
        "hand": page.locator(".you .hand button").evaluate_all(
            "(cards) => cards.map((card) => card.value)"
        ),
        "centre": page.locator(".centre").inner_text(),
        "score": page.locator(".scoreboard").inner_text(),
        "log": page.locator("[data-region=log] .log").inner_text(),
    }


def cards_on_first_screen(page, viewport: dict) -> None:
    """The hand's cards are inside the screen, the page not scrolled
    (nothing to scroll back to reach them)."""
    assert page.evaluate("() => window.scrollY") == 0
    for card in page.locator(".you .hand button").all():
        box = card.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]


def open_the_rules(page, link: str) -> None:
    """From the bar: a house rules line opens its list first, which leads
    to the rules; a base game's name leads to them."""
    line = page.locator(".bar .rules-line summary")
    if line.count():
        line.click()
    target = page.locator(".bar").get_by_role("link", name=link)
    box = target.bounding_box()
    assert box is not None and box["height"] > 0
    with page.expect_navigation():
        target.click()


HOUSE = "rules=classic&jack_pisti=10&last_sweep_bonus=3"


@pytest.mark.parametrize(
    ("language", "viewport", "rules", "link", "heading", "jack", "back"),
    [
        (
            "en",
            PHONE,
            HOUSE,
            "Every rule of this game",
            "The rules of this game",
            "also called a double pişti (10)",
            "Back to the game",
        ),
        (
            "tr",
            SMALL_PHONE,
            HOUSE,
            "Bu oyunun bütün kuralları",
            "Bu oyunun kuralları",
            "Vale piştisidir, çift pişti de denir (10)",
            "Oyuna dön",
        ),
        (
            "en",
            {"width": 1280, "height": 700},
            "rules=partners",
            "Partners (2 v 2): the rules",
            "The rules of this game",
            "also called a double pişti (20)",
            "Back to the game",
        ),
        (
            "tr",
            {"width": 1280, "height": 800},
            "rules=classic",
            "Klasik maç (2 oyuncu): kuralları",
            "Bu oyunun kuralları",
            "Vale piştisidir, çift pişti de denir (20)",
            "Oyuna dön",
        ),
    ],
)
def test_the_rules_from_the_table_and_back_to_the_same_table(
    browser: Browser, live_server, screenshots, language, viewport, rules, link, heading, jack, back
):
    phone = viewport["width"] < 800
    context = browser.new_context(
        viewport=viewport,
        has_touch=phone,
        is_mobile=phone,
        reduced_motion="reduce",
        extra_http_headers={"Accept-Language": language},
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/rules-table?{rules}")
    take_deal(page)
    assert play_card(page, page.locator(".you .hand button").first)
    settled_when_ready(page)
    before = table_state(page)
    in_hand = len(before["hand"])
    assert in_hand == 3
    cards_on_first_screen(page, viewport)
    size = f"{viewport['width']}x{viewport['height']}"

    # The game's own rules, house rules said, the way back on the first screen.
    open_the_rules(page, link)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.locator(".game-rules")).to_contain_text(jack)
    assert page.locator(".house-mark").count() == (2 if rules == HOUSE else 0)
    top = page.get_by_role("link", name=back).first
    box = top.bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"]
    page.screenshot(path=screenshots / f"rules-page-{language}-{size}.png")

    # The browser's Back: the same table, the cards on the first screen.
    page.go_back()
    settled_when_ready(page)
    assert table_state(page) == before
    cards_on_first_screen(page, viewport)

    # The page's own way back, after reading to its foot: the same.
    open_the_rules(page, link)
    with page.expect_navigation():
        page.get_by_role("link", name=back).last.click()
    settled_when_ready(page)
    assert table_state(page) == before
    cards_on_first_screen(page, viewport)
    page.screenshot(path=screenshots / f"rules-back-at-the-table-{language}-{size}.png")

    # The game goes on from there.
    assert play_card(page, page.locator(".you .hand button").first)
    assert page.locator(".you .hand button").count() == in_hand - 1
    context.close()
