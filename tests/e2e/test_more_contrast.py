"""A system set to ask for more contrast (``prefers-contrast: more``): the
grey words and the links reach WCAG's enhanced contrast (7:1, axe-core's
``color-contrast-enhanced``) on the home page, at the table and on the
final page, in the light colours and the dark ones."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, play_out, settled_when_ready, take_deal


def below_seven(page: Page) -> list[str]:
    """The elements whose words have less than 7:1 on their ground."""
    result = Axe().run(page, options={"runOnly": ["color-contrast-enhanced"]})
    return [
        f"{node['target']}: {node['any'][0]['message'][:80]}"
        for finding in result.response["violations"]
        for node in finding["nodes"]
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_more_contrast_when_the_system_asks(browser: Browser, live_server, scheme):
    """In the light colours the grey words had 5.83:1 and the links
    5.85-6.67:1 (axe found 21 on the final page); the dark ones had 7:1."""
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    page.emulate_media(color_scheme=scheme, contrast="more")
    page.goto(f"{live_server}/")
    found = {"home": below_seven(page)}
    page.goto(f"{live_server}/deal/more-contrast")
    take_deal(page)
    settled_when_ready(page)
    found["table"] = below_seven(page)
    play_out(page)
    expect(page.locator(".verdict")).to_be_visible()
    found["final"] = below_seven(page)
    assert found == {"home": [], "table": [], "final": []}
    context.close()
