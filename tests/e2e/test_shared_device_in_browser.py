"""A family's one browser, at phone and laptop sizes: grandmother's name,
then a child's own beside it, and back to hers with one press, each page
saying whose name it plays under."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, submit


@pytest.mark.parametrize("size_name,size", [("phone", PHONE), ("laptop", DESKTOP)])
def test_a_second_player_switches_names_on_one_browser(
    page: Page, live_server, screenshots, size_name, size
):
    nene, ali = f"Nene {size_name}", f"Ali {size_name}"
    page.set_viewport_size(size)
    page.goto(f"{live_server}/me")
    page.get_by_label("Your display name").fill(nene)
    submit(page, page.get_by_role("button", name="Keep my results"))
    page.goto(f"{live_server}/")
    expect(page.get_by_text(f"Playing as {nene}.")).to_be_visible()
    with page.expect_navigation():
        page.get_by_role("link", name="Someone else? Switch player").click()
    # The way out is in the first screen, above "Change your name".
    aside = page.get_by_role("button", name="Someone else is playing")
    box = aside.bounding_box()
    assert box is not None and box["y"] + box["height"] <= size["height"]
    submit(page, aside)
    expect(page.get_by_role("status")).to_contain_text("nothing was deleted")
    page.screenshot(path=screenshots / f"shared-device-aside-{size_name}.png", full_page=True)
    page.get_by_label("Your display name").fill(ali)
    submit(page, page.get_by_role("button", name="Keep my results"))
    expect(page.locator("h1")).to_have_text(ali)
    submit(page, page.get_by_role("button", name=f"Play as {nene}"))
    expect(page.locator("h1")).to_have_text(nene)
    expect(page.get_by_role("button", name=f"Play as {ali}")).to_be_visible()
    expect(
        page.get_by_label(f"Delete the name “{nene}” and everything kept under it for good")
    ).not_to_be_checked()
    page.screenshot(path=screenshots / f"shared-device-back-{size_name}.png", full_page=True)
