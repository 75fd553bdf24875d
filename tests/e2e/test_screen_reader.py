"""What a screen reader's user meets at the table, in Chromium: where the
focus goes after a play, and what the live region reads out."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import DESKTOP, settled_when_ready, wait_settled
from tests.e2e.test_table_aids import deal


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_card_pressed_without_a_pointer_keeps_the_focus_in_the_hand(
    browser: Browser, live_server, motion
):
    """A card pressed by a screen reader or voice control (a click no
    pointer made, ``detail`` 0, and no key reaching the page) leaves the
    focus on the hand's first card once the replies have landed, as a key
    does: not on the page's body, from where a screen reader starts again
    at the top of the page."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    page = context.new_page()
    deal(page, live_server, f"no-pointer-{motion}")
    before = settled_when_ready(page)
    page.locator(".hand button").first.dispatch_event("click")
    wait_settled(page, before)
    expect(page.locator(".hand button")).to_have_count(3)
    expect(page.locator(".hand button").first).to_be_focused()
    context.close()
