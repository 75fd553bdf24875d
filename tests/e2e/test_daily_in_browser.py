"""The Daily deal and the statistics page in a browser, at phone and laptop
sizes: choose a name, play today's deal by clicking, see your place, then
your statistics drawn as SVG charts."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import DESKTOP, PHONE, play_card

SIZES = [
    ("phone", PHONE),
    ("phone-small", {"width": 360, "height": 740}),
    ("laptop", {"width": 1280, "height": 700}),
    ("desktop", DESKTOP),
]


@pytest.mark.parametrize("size_name,size", SIZES)
def test_daily_flow_and_statistics(page: Page, live_server, screenshots, size_name, size):
    page.set_viewport_size(size)
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server + "/")
    page.get_by_role("link", name="Your profile and tasks").first.click()
    name = f"Oyuncu {size_name}"
    page.get_by_label("Your display name").fill(name)
    page.get_by_role("button", name="Keep my results").click()
    expect(page.locator("h1")).to_have_text(name)
    expect(page.locator(".tasks li")).to_have_count(4)
    page.screenshot(path=screenshots / f"profile-{size_name}.png", full_page=True)

    page.get_by_role("link", name="Daily deal").first.click()
    expect(page.locator(".countdown")).to_contain_text("Next deal in")
    page.screenshot(path=screenshots / f"daily-{size_name}.png", full_page=True)
    page.get_by_role("button", name="Play today's deal (ranked)").click()
    while page.locator(".hand button").count():
        play_card(page, page.locator(".hand button").first)
    expect(page.locator(".verdict")).to_be_visible()
    expect(page.locator(".your-result")).to_contain_text("This was your ranked Daily game.")
    expect(page.locator("#share")).to_have_count(0)  # the seed is secret today
    page.screenshot(path=screenshots / f"daily-final-{size_name}.png", full_page=True)

    page.get_by_role("link", name="Daily deal").first.click()
    expect(page.locator(".your-place")).to_contain_text("Your place:")
    expect(page.locator("tr.mine")).to_contain_text(name)
    page.get_by_role("button", name="Play today's deal (unranked)").click()
    while page.locator(".hand button").count():
        play_card(page, page.locator(".hand button").first)
    expect(page.locator(".your-result")).to_contain_text("Daily deal, unranked.")

    page.goto(live_server + "/me/stats")
    expect(page.locator("svg.chart")).to_have_count(4)
    expect(page.locator("svg.chart polyline")).to_have_count(3)
    expect(page.locator(".chart-panel table").first).to_contain_text("Single deal")
    page.screenshot(path=screenshots / f"stats-{size_name}.png", full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow


@pytest.mark.parametrize("size_name,size", [("phone", PHONE), ("laptop", DESKTOP)])
def test_the_countdown_ticks_and_ends_in_a_link(
    page: Page, live_server, screenshots, size_name, size
):
    page.set_viewport_size(size)
    page.clock.install()
    page.goto(live_server + "/daily?rules=classic")
    left = page.locator(".countdown-left")
    expect(left).to_have_text(re.compile(r"^Next deal in \d+ h \d\d min \d\d s$"))
    first = left.inner_text()
    page.clock.run_for(3000)
    expect(left).not_to_have_text(first)
    page.screenshot(path=screenshots / f"daily-countdown-{size_name}.png")
    seconds = int(page.locator(".countdown").get_attribute("data-seconds-left"))
    page.clock.fast_forward(seconds * 1000)
    expect(page.locator(".countdown")).to_be_hidden()
    link = page.get_by_role("link", name="The new day's deal is out: open it")
    expect(link).to_be_visible()
    expect(page.locator(".daily-play")).to_be_hidden()
    page.screenshot(path=screenshots / f"daily-countdown-zero-{size_name}.png")
    link.click()
    expect(page).to_have_url(re.compile(r"/daily\?rules=classic$"))
    expect(page.locator(".countdown-left")).to_contain_text("Next deal in")


def test_without_javascript_the_server_countdown_stays(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server + "/daily")
    expect(page.locator(".countdown-left")).to_have_text(
        re.compile(r"^Next deal in \d+ h \d+ min$")
    )
    expect(page.locator(".countdown-done")).to_be_hidden()
    context.close()
