"""Tablets and phones held sideways, at a table of three or of four: the
page never scrolls."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import play_card, settled_when_ready, take_deal


@pytest.mark.parametrize("size", [(740, 360), (667, 375)], ids=["740x360", "667x375"])
def test_a_phone_held_sideways_never_scrolls_as_the_log_grows(
    browser: Browser, live_server, screenshots, size
):
    """Held sideways, three sides, the page scrolled by 12-18 px when the
    log beside the felt held more than it showed (here the network gone,
    its note above the log): the words of a line out of view that only a
    screen reader gets (absolute, 1 px) stood below the log's box, where
    the page's height counted them."""
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/s1?rules=classic&players=3")
    take_deal(page)
    settled_when_ready(page)
    scrolled = []
    for turn in range(5):
        context.set_offline(True)
        page.locator(".alert.offline").wait_for()
        if page.evaluate("document.scrollingElement.scrollHeight > innerHeight"):
            page.screenshot(path=screenshots / f"sideways-{size[0]}x{size[1]}-{turn}.png")
            scrolled.append(turn)
        # Back online, the page reads the table again.
        with page.expect_navigation():
            context.set_offline(False)
        settled_when_ready(page)
        assert play_card(page, page.locator(".hand button").first)
    assert scrolled == []
    context.close()
