"""The Daily deal and the statistics page in a browser, at phone and laptop
sizes: choose a name, play today's deal by clicking, see your place, then
your statistics drawn as SVG charts."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import run_clocks_from
from tests.e2e.conftest import (
    COUNT_TIMERS,
    DESKTOP,
    PHONE,
    contrast,
    play_out,
    set_hidden,
    submit,
)

SIZES = [
    ("phone", PHONE),
    ("phone-small", {"width": 360, "height": 740}),
    ("laptop", {"width": 1280, "height": 700}),
    ("desktop", DESKTOP),
]

#: The served app's day stays one through each test, and the countdown far
#: from its end (CI may run at midnight; see the fixture).
pytestmark = pytest.mark.usefixtures("midday")


@pytest.mark.parametrize("size_name,size", SIZES)
def test_daily_flow_and_statistics(page: Page, live_server, screenshots, size_name, size):
    page.set_viewport_size(size)
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server + "/")
    page.get_by_role("link", name="Your profile and tasks").first.click()
    name = f"Karaosmanoğlu {size_name[:9]}"  # a long surname, as many are
    page.get_by_label("Your display name").fill(name)
    page.get_by_role("button", name="Keep my results").click()
    expect(page.locator("h1")).to_have_text(name)
    expect(page.locator(".tasks li")).to_have_count(4)
    page.screenshot(path=screenshots / f"profile-{size_name}.png", full_page=True)

    page.get_by_role("link", name="Daily deal").first.click()
    expect(page.locator(".countdown")).to_contain_text("Next deal in")
    page.screenshot(path=screenshots / f"daily-{size_name}.png", full_page=True)
    submit(page, page.get_by_role("button", name="Play today's deal (ranked)"))
    play_out(page)
    expect(page.locator(".verdict")).to_be_visible()
    expect(page.locator(".your-result")).to_contain_text("This was your ranked Daily game.")
    expect(page.locator("#share")).to_have_count(0)  # the seed is secret today
    page.screenshot(path=screenshots / f"daily-final-{size_name}.png", full_page=True)

    page.get_by_role("link", name="Daily deal").first.click()
    expect(page.locator(".your-place")).to_contain_text("Your place:")
    expect(page.locator("tr.mine")).to_contain_text(name)
    # The surname on one line, even on a phone's board (the finishing time
    # goes under the name there, leaving it the room).
    lines = page.evaluate(
        """() => {
          const text = document.querySelector('tr.mine th bdi').firstChild;
          const range = document.createRange();
          range.setStart(text, 0);
          range.setEnd(text, 'Karaosmanoğlu'.length);
          return range.getClientRects().length;
        }"""
    )
    assert lines == 1
    expect(page.locator("tr.mine")).to_contain_text(re.compile(r"\d\d:\d\d:\d\d"))
    # The whole board in sight, no column behind a scroll of its own.
    assert page.evaluate(
        "[...document.querySelectorAll('.board-wrap')].every((b) => b.scrollWidth <= b.clientWidth)"
    )
    submit(page, page.get_by_role("button", name="Play today's deal (unranked)"))
    play_out(page)
    expect(page.locator(".your-result")).to_contain_text("Daily deal, unranked.")

    page.goto(live_server + "/me/stats")
    expect(page.locator("svg.chart")).to_have_count(4)
    expect(page.locator("svg.chart polyline")).to_have_count(3)
    expect(page.locator(".chart-panel table").first).to_contain_text("Single hand")
    # The win rate before the game's name (a long house-rules name is cut at
    # the bar's end), and the pişti chart's two lines named.
    expect(page.locator(".bar-label").first).to_have_text(re.compile(r"^\d+\s?% · Single hand"))
    expect(page.locator(".legend")).to_have_text(re.compile(r"Piştis\s+Jack piştis"))
    # A bar is a thin track under its figure, not an outlined box that a
    # 0 % bar would make look like an empty field.
    track = page.locator(".bar-back").first.bounding_box()
    label = page.locator(".bar-label").first.bounding_box()
    assert track["height"] < label["height"] and track["y"] >= label["y"] + label["height"] - 1
    assert page.locator(".bar-back").first.evaluate("(r) => getComputedStyle(r).stroke") == "none"
    page.screenshot(path=screenshots / f"stats-{size_name}.png", full_page=True)
    # Every column shown is in sight: none left behind the table's own scroll.
    hidden = page.evaluate(
        """() => [...document.querySelectorAll('.chart-panel table')].filter(
            (table) => table.scrollWidth > table.clientWidth).length"""
    )
    assert hidden == 0
    # Each figure under its own heading: a column's heading and its cells
    # share their left edge.
    misplaced = page.evaluate(
        """() => {
          const table = document.querySelector('.by-rules');
          const heads = [...table.tHead.rows[0].cells];
          return [...table.tBodies[0].rows].flatMap((row) => [...row.cells].filter(
            (cell, i) => cell.offsetWidth && Math.abs(
              cell.getBoundingClientRect().left - heads[i].getBoundingClientRect().left) > 1,
          ).map((cell) => cell.textContent));
        }"""
    )
    assert misplaced == []
    # Dark: the lines and bars stand out from the panel, and the labels,
    # written over the bars' thin tracks, read on it.
    page.emulate_media(color_scheme="dark")
    colours = page.evaluate(
        """() => {
          const style = (selector) => getComputedStyle(document.querySelector(selector));
          return {
            line: style('.chart .line-points').stroke,
            panel: style('.chart-panel').backgroundColor,
            label: style('.chart .bar-label').fill,
            bar: style('.chart .bar').fill,
          };
        }"""
    )
    assert contrast(colours["line"], colours["panel"]) >= 3
    assert contrast(colours["bar"], colours["panel"]) >= 3
    assert contrast(colours["label"], colours["panel"]) >= 4.5
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


@pytest.mark.parametrize(
    "zone,language,local",
    [
        # Türkiye is three hours ahead all year: the same day.
        ("Europe/Istanbul", "en", re.compile(r"UTC, 03:00 your time\)$")),
        ("Europe/Istanbul", "tr", re.compile(r"UTC, sizin saatinizle 03:00\)$")),
        # New York is behind: its time of the next deal falls the day before.
        (
            "America/New_York",
            "en",
            re.compile(r"UTC, [A-Z][a-z]{2} \d{1,2}, (19|20):00 your time\)$"),
        ),
    ],
)
def test_the_next_deal_is_also_told_in_the_players_own_time(
    browser, live_server, screenshots, zone, language, local
):
    """The server writes the next deal's time in UTC; a player whose clock is
    elsewhere is also told it in theirs (a player in Istanbul is not left to
    work out that "00:00 UTC" is three in the morning). On UTC, nothing is
    added."""
    context = browser.new_context(
        timezone_id=zone, viewport=PHONE, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    page.goto(live_server + "/daily?rules=classic")
    when = page.locator(".countdown time")
    expect(when).to_have_text(local)
    page.screenshot(path=screenshots / f"daily-local-time-{zone.split('/')[1]}-{language}.png")
    context.close()
    context = browser.new_context(timezone_id="UTC")
    page = context.new_page()
    page.goto(live_server + "/daily?rules=classic")
    expect(page.locator(".countdown-left")).to_contain_text("Next deal in")
    assert page.locator(".countdown time").inner_text().endswith(" UTC)")
    context.close()


@pytest.mark.parametrize(
    "start,zone,local,today",
    [
        # London's clocks go forward at 01:00 UTC on March 29, 2026: the
        # 29th's deal comes at midnight there, the 30th's at one in the morning.
        (datetime(2026, 3, 28, 12), "Europe/London", None, "Saturday, March 28, 2026"),
        (datetime(2026, 3, 29, 0, 30), "Europe/London", "01:00 your time", "Sunday, March 29"),
        # New York's go forward at 07:00 UTC on March 8: 19:00 before, 20:00 after.
        (
            datetime(2026, 3, 7, 12),
            "America/New_York",
            "Mar 7, 19:00 your time",
            "Saturday, March 7",
        ),
        (datetime(2026, 3, 8, 8), "America/New_York", "Mar 8, 20:00 your time", "Sunday, March 8"),
        # The earliest and a quarter-hour zone: Monday morning in Kiritimati
        # and in Kathmandu is still Sunday's deal, as is Sunday morning in Pago Pago.
        (datetime(2026, 12, 6, 20), "Pacific/Kiritimati", "14:00 your time", "Sunday, December 6"),
        (datetime(2026, 12, 6, 20), "Asia/Kathmandu", "05:45 your time", "Sunday, December 6"),
        (
            datetime(2026, 12, 6, 20),
            "Pacific/Pago_Pago",
            "Dec 6, 13:00 your time",
            "Sunday, December 6",
        ),
    ],
)
def test_the_next_deals_time_is_true_around_the_world_and_clock_changes(
    browser, live_server, monkeypatch, start, zone, local, today
):
    """The next deal's local time is that of the next deal's own moment,
    in the zone's rules of that day (a clock change between now and then
    is counted), and the page names the UTC day whose deal it offers."""
    run_clocks_from(monkeypatch, start.replace(tzinfo=UTC))
    context = browser.new_context(timezone_id=zone, viewport=PHONE)
    page = context.new_page()
    page.goto(live_server + "/daily")
    expect(page.locator(".countdown time")).to_have_text(
        re.compile(re.escape(f"00:00 UTC, {local})" if local else "00:00 UTC)") + "$")
    )
    expect(page.locator("main .panel p").first).to_contain_text(f"Today (UTC) is {today}")
    context.close()


def test_the_countdown_does_not_tick_while_nobody_sees_it(page: Page, live_server):
    """A Daily page left in a background tab, or on a phone whose screen is
    off, sets no timer and changes nothing (it woke the phone every second);
    seen again, it shows the time left at once and ticks on."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.clock.install()
    page.goto(live_server + "/daily?rules=classic")
    left = page.locator(".countdown-left")
    expect(left).to_have_text(re.compile(r"^Next deal in \d+ h \d\d min \d\d s$"))
    page.evaluate(COUNT_TIMERS)
    set_hidden(page, True)
    hidden_at = left.inner_text()
    page.clock.run_for(5000)
    assert page.evaluate("window.timersSet") == 0
    assert left.inner_text() == hidden_at
    set_hidden(page, False)
    # Five seconds later than when it was hidden, shown at once.
    expect(left).not_to_have_text(hidden_at)
    page.clock.run_for(3000)
    assert page.evaluate("window.timersSet") >= 3


def test_without_javascript_the_server_countdown_stays(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server + "/daily")
    expect(page.locator(".countdown-left")).to_have_text(
        re.compile(r"^Next deal in \d+ h \d+ min$")
    )
    expect(page.locator(".countdown-done")).to_be_hidden()
    context.close()


def _play_through(page: Page) -> None:
    play_out(page)
    expect(page.locator(".verdict")).to_be_visible()


@pytest.mark.parametrize("size_name,size", [("phone", PHONE), ("laptop", DESKTOP)])
def test_a_newcomer_walks_the_whole_daily_flow(browser, live_server, screenshots, size_name, size):
    """Issue 11's "done when": a newcomer plays today's Daily deal, chooses a
    name, sees their rank and tasks, continues on another device with the
    transfer code, and sees a friend's result on a shared deal."""
    shot = lambda page, step: page.screenshot(  # noqa: E731
        path=screenshots / f"newcomer-{step}-{size_name}.png", full_page=True
    )
    contexts = [browser.new_context(viewport=size, reduced_motion="reduce") for _ in range(3)]
    phone, laptop, friend = (context.new_page() for context in contexts)
    name = f"Yeni {size_name}"

    # From the home page to the Daily page, where a newcomer learns to
    # choose a name first for a ranked game.
    phone.goto(live_server + "/")
    phone.get_by_role("link", name="Daily deal").first.click()
    expect(phone.locator(".countdown-left")).to_contain_text("Next deal in")
    shot(phone, "1-daily-anonymous")
    phone.get_by_role("link", name="Choose a name").click()
    phone.get_by_label("Your display name").fill(name)
    phone.get_by_role("button", name="Keep my results").click()
    expect(phone.locator("h1")).to_have_text(name)
    shot(phone, "2-named")

    # Today's Daily deal, ranked; then the place on the Daily leaderboard.
    phone.get_by_role("link", name="Daily deal").first.click()
    submit(phone, phone.get_by_role("button", name="Play today's deal (ranked)"))
    _play_through(phone)
    expect(phone.locator(".your-result")).to_contain_text("This was your ranked Daily game.")
    expect(phone.locator(".your-result .your-place")).to_have_text(
        re.compile(r"^Your place on the Daily leaderboard: \d+ of \d+$")
    )
    shot(phone, "3-daily-final")
    phone.locator(".your-result").get_by_role("link", name="Daily deal").click()
    expect(phone.locator(".your-place")).to_have_text(re.compile(r"^Your place: \d+ of \d+$"))
    expect(phone.locator("tr.mine")).to_contain_text(name)
    # The Daily board ranks by points: they show at every width.
    expect(phone.locator("thead .col-points")).to_have_text("Points")
    expect(phone.locator("tr.mine .col-points")).to_be_visible()
    shot(phone, "4-daily-place")

    # Tasks and a transfer code on the profile page.
    phone.get_by_role("link", name="Your profile and tasks").click()
    expect(phone.locator(".tasks li")).to_have_count(4)
    phone.get_by_role("button", name="Make a transfer code").click()
    code = phone.locator(".transfer-code code").inner_text()
    assert len(code) == 14
    shot(phone, "5-transfer-code")
    # Reloading the code's page reads the profile, not the table's address.
    phone.reload()
    expect(phone).to_have_url(live_server + "/me#transfer")
    expect(phone.locator("h1")).to_have_text(name)
    # The leaderboards fit the screen's width: nothing cut off to the right.
    phone.goto(live_server + "/leaderboard")
    expect(phone.locator("tr.mine")).to_contain_text(name)
    overflow = (
        "[...document.querySelectorAll('.board-wrap')].map(e => e.scrollWidth - e.clientWidth)"
    )
    assert max(phone.evaluate(overflow)) <= 0
    phone.goto(live_server + "/me")

    # The other device: the same player, with the Daily game done.
    laptop.goto(live_server + "/me")
    laptop.get_by_label("Transfer code from your other device").fill(code.lower())
    laptop.get_by_role("button", name="Continue").click()
    expect(laptop.locator("h1")).to_have_text(name)
    shot(laptop, "6-other-device")
    laptop.get_by_role("link", name="Daily deal").first.click()
    expect(laptop.locator(".daily-play button")).to_have_text("Play today's deal (unranked)")

    # A shared deal: the player sends a link; a friend plays it without a
    # name, keeps the result under one on the final page, and sees both.
    link = live_server + "/deal/friends-of-" + size_name
    laptop.goto(link)
    submit(laptop, laptop.get_by_role("button", name="Start this deal"))
    _play_through(laptop)
    expect(laptop.locator(".deal-results tr.mine")).to_contain_text(name)
    friend.goto(link)
    submit(friend, friend.get_by_role("button", name="Start this deal"))
    _play_through(friend)
    # Before a name: only the player's result, and the name form.
    expect(friend.locator(".deal-results tbody tr")).to_have_count(1)
    shot(friend, "7-shared-deal-anonymous")
    friend.get_by_label("Your display name").fill(f"Arkadaş {size_name}")
    friend.get_by_role("button", name="Keep my results").click()
    results = friend.locator(".deal-results tbody tr")
    expect(results).to_have_count(2)
    expect(friend.locator(".deal-results")).to_contain_text(name)
    expect(friend.locator(".deal-results tr.mine")).to_contain_text(f"Arkadaş {size_name}")
    shot(friend, "8-shared-deal")
    for context in contexts:
        context.close()


@pytest.mark.parametrize("locale", ["en-GB", "tr-TR"])
def test_the_daily_page_fits_a_phone_with_text_at_twice_its_size(browser, live_server, locale):
    """With the text at 200 % on a 390 px phone the Daily page scrolled
    sideways: the next deal's date and time, "(Dec 5, 2026 00:00 UTC)",
    were kept on one line wider than the screen."""
    context = browser.new_context(viewport=PHONE, locale=locale, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server + "/daily")
    page.add_style_tag(content="html { font-size: 200% !important; }")
    expect(page.locator(".countdown time")).to_contain_text("UTC")
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the Daily page scrolls sideways: {width} > {inner}"
    # The date and the time each kept whole, on their lines.
    lines = page.locator(".countdown time .nowrap").evaluate_all(
        "spans => spans.map((span) => span.getClientRects().length)"
    )
    assert lines == [1, 1]
    context.close()
