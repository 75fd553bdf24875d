"""Times of day in the player's own clock: the server writes them in UTC
(the Daily board's finishing times, when the tasks and the challenge
change); a browser whose clock is elsewhere adds its own time, as the
Daily's countdown does. Days stay UTC days."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.conftest import run_clocks_from
from tests.e2e.conftest import PHONE, play_out, submit

#: A Sunday at noon UTC: Monday's challenge is half a day away.
SUNDAY_NOON = datetime(2026, 12, 6, 12, tzinfo=UTC)


def _named(browser, live_server, zone: str, name: str, language: str = "en"):
    """A phone in ``zone`` whose player chose ``name``; its page, on the profile."""
    context = browser.new_context(
        timezone_id=zone, viewport=PHONE, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    page.goto(live_server + "/me")
    page.locator("#name").fill(name)
    submit(page, page.locator("#name-form button[type=submit]"))
    expect(page.locator("h1")).to_have_text(name)
    return context, page


@pytest.mark.parametrize(
    "zone,language,daily,weekly",
    [
        ("Europe/Istanbul", "en", "00:00 UTC, 03:00 your time", "00:00 UTC, 03:00 your time"),
        (
            "Europe/Istanbul",
            "tr",
            "00:00 UTC, sizin saatinizle 03:00",
            "00:00 UTC, sizin saatinizle 03:00",
        ),
        # New York's midnight UTC is 19:00 the evening before: "every Monday"
        # is Sunday evening there, and its weekday is said.
        ("America/New_York", "en", "00:00 UTC, 19:00 your time", "00:00 UTC, Sun 19:00 your time"),
    ],
)
def test_the_profile_says_when_tasks_change_in_the_players_own_time(
    browser, live_server, monkeypatch, screenshots, zone, language, daily, weekly
):
    """The profile said the tasks change "every day at 00:00 UTC": a player
    in Istanbul was left to work out that it is three in the morning."""
    run_clocks_from(monkeypatch, SUNDAY_NOON)
    context, page = _named(browser, live_server, zone, f"Saat {zone[-4:]} {language}", language)
    times = page.locator(".task-times time")
    expect(times.nth(0)).to_have_text(daily)
    expect(times.nth(1)).to_have_text(weekly)
    page.locator(".task-times").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / f"profile-local-time-{zone.split('/')[1]}-{language}.png")
    context.close()


def test_the_daily_boards_finishing_times_are_in_the_players_own_time_too(
    browser, live_server, monkeypatch, screenshots
):
    """The Daily board's "Finished (UTC)" times, in a browser in Istanbul,
    add the time there (seconds and all, as the UTC one); on a clock on UTC
    the board and the profile are as the server wrote them."""
    run_clocks_from(monkeypatch, SUNDAY_NOON)
    context, page = _named(browser, live_server, "Europe/Istanbul", "Boğaziçi")
    page.goto(live_server + "/daily?rules=cardems")
    submit(page, page.get_by_role("button", name="Play today's deal (ranked)"))
    play_out(page)
    expect(page.locator(".your-result")).to_contain_text("This was your ranked Daily game.")
    page.goto(live_server + "/daily?rules=cardems")
    cell = page.locator("tr.mine td.col-finished_at time")
    finished = datetime.fromisoformat(cell.get_attribute("datetime").replace("Z", "+00:00"))
    there = finished.astimezone(ZoneInfo("Europe/Istanbul"))
    expect(cell).to_have_text(f"{finished:%H:%M:%S}, {there:%H:%M:%S} your time")
    # On a phone the time goes under the name, "UTC" after the server's.
    expect(page.locator("tr.mine .when")).to_have_text(
        f"{finished:%H:%M:%S} UTC, {there:%H:%M:%S} your time"
    )
    assert page.evaluate(
        "[...document.querySelectorAll('.board-wrap')].every((b) => b.scrollWidth <= b.clientWidth)"
    )
    page.locator("tr.mine").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "daily-board-local-time-Istanbul.png")
    context.close()
    context, page = _named(browser, live_server, "UTC", "Greenwich")
    expect(page.locator(".task-times time").nth(0)).to_have_text("00:00 UTC")
    page.goto(live_server + "/daily?rules=cardems")
    row = page.locator("tbody tr", has_text="Boğaziçi")
    expect(row.locator("td.col-finished_at time")).to_have_text(f"{finished:%H:%M:%S}")
    expect(row.locator(".when")).to_have_text(f"{finished:%H:%M:%S} UTC")
    assert not re.search("your time", page.locator("main").inner_text())
    context.close()
