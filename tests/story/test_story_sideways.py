"""Mansion Evenings on a phone held sideways: the opponent's crest at the
table takes no more height than a computer's level line, so your hand
stays whole on the screen however long the pile's count."""

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
