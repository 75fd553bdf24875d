"""The record format as a page, on phones: it was served as plain text,
whose long lines ran off a 390 px screen (the page scrolled sideways) and
whose tables were rows of pipes. Now the page keeps to the screen's width;
a table or a code block wider than that scrolls on its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import settled_when_ready, take_deal

#: Each box that scrolls on its own: how much wider its content is than
#: the box (px), and how far the box runs past the screen's right edge.
BOXES = """() => [...document.querySelectorAll(".doc-scroll")].map((box) => ({
  tag: box.tagName,
  hidden: box.scrollWidth - box.clientWidth,
  past: Math.max(0, box.getBoundingClientRect().right - innerWidth),
}))"""


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_the_record_format_fits_a_phone(browser: Browser, live_server, size):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{live_server}/docs/record-format")
    expect(page.locator("article h1")).to_have_text("Game records")
    assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0
    boxes = page.evaluate(BOXES)
    assert [box["tag"] for box in boxes].count("DIV") == 3  # the three tables
    assert all(box["past"] <= 0 for box in boxes), boxes
    # The check script is wider than a phone: its own box scrolls, by the
    # keyboard too (it takes the focus), and the page stays where it is.
    script = page.locator("pre.doc-scroll").last
    assert script.evaluate("box => box.scrollWidth - box.clientWidth") > 0
    script.focus()
    expect(script).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("box => box.scrollLeft > 0", arg=script.element_handle())
    assert page.evaluate("scrollX") == 0
    context.close()


def test_the_rules_page_leads_to_the_section(browser: Browser, live_server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server}/deal/doc-link?rules=classic&level=easy")
    take_deal(page)
    settled_when_ready(page)
    page.goto(f"{live_server}/game/rules")
    page.get_by_role("link", name="“Checking a deal yourself”").click()
    heading = page.get_by_role("heading", name="Checking a deal yourself")
    expect(heading).to_be_in_viewport()
    assert page.url.endswith("/docs/record-format#checking-a-deal-yourself")
    # The Markdown itself, a click away, saved as a file.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download it as Markdown").click()
    assert download.value.suggested_filename == "record-format.md"
    context.close()
