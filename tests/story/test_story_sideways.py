"""Mansion Evenings on a phone held sideways (and a small tablet upright):
the opponent's crest at the table takes no more height than a computer's
level line, so your hand stays whole on the screen however long the
pile's count; the lesson's hand stays inside its column."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import play_card


@pytest.mark.parametrize(
    "size", [(740, 360), (667, 375), (844, 390)], ids=["740x360", "667x375", "844x390"]
)
def test_a_story_table_held_sideways_never_scrolls(
    browser: Browser, live_server, screenshots, monkeypatch, size
):
    """At 740x360 Aunt Hayriye's 28 px crest made her seat 15 px taller
    than a computer's; once the pile's count took two lines ("Pile: 6
    cards (2 more face up underneath)") your hand ran 8 px past the
    screen's foot, the page scrolling, on three plays of the first eight
    of this deal."""
    monkeypatch.setattr("app.web.story.new_seed", lambda: "s0")
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(live_server + "/story")
    with page.expect_navigation():
        page.get_by_role("button", name="Skip the lesson").click()
    with page.expect_navigation():
        page.locator("main form button", has_text="Play").first.click()
    scrolled = []
    for turn in range(8):
        page.wait_for_load_state()
        if page.evaluate("document.scrollingElement.scrollHeight - innerHeight"):
            page.screenshot(path=screenshots / f"story-sideways-{size[0]}x{size[1]}-{turn}.png")
            scrolled.append(turn)
        assert play_card(page, page.locator(".you .hand button").first)
    assert scrolled == []
    context.close()


@pytest.mark.parametrize(
    "size", [(740, 360), (844, 390), (768, 1024)], ids=["740x360", "844x390", "768x1024"]
)
def test_the_lessons_hand_stays_in_its_column(browser: Browser, live_server, screenshots, size):
    """From 700 to 899 px wide the lesson puts your hand in a column beside
    the centre, narrower than four cards of 76 px: at 740x360 the hand ran
    22 px past it on each side, its first card over the centre's edge and
    its last 6 px off the screen (the page scrolled sideways by 11 px;
    a tablet upright, 768 px, the same). Each card now lies inside the
    column, and is still at least 44 px wide to tap."""
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(live_server + "/story/lesson")
    page.screenshot(path=screenshots / f"lesson-{size[0]}x{size[1]}.png")
    column = page.locator(".lesson-play > .you").bounding_box()
    assert column is not None
    cards = [card.bounding_box() for card in page.locator(".lesson-play .hand button").all()]
    assert len(cards) == 4
    for card in cards:
        assert card is not None
        assert column["x"] <= card["x"]
        assert card["x"] + card["width"] <= column["x"] + column["width"]
        assert card["width"] >= 44
    assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") == 0
    context.close()
