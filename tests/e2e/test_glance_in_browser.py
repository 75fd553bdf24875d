"""On a phone, the end of a hand shows its count in the first screen: each
side's cards (the most-cards points beside the side that earned them),
piştis, the hand's points and the match total of the target, above the
last plays, with Next hand still in view for two sides. The full score
table comes after the buttons on a phone, a screen or more down."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import play_card, take_deal

PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]


def inside(page, locator, viewport) -> bool:
    """Whether all of ``locator``'s box is inside the first screen."""
    box = locator.bounding_box()
    assert box is not None
    return (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"]
        and box["y"] + box["height"] <= viewport["height"]
    )


@pytest.mark.parametrize("viewport", PHONES, ids=["390x844", "360x740"])
@pytest.mark.parametrize(
    ("link", "language", "sides", "next_in_view"),
    [
        ("rules=classic", "en", 2, True),
        ("rules=classic", "tr", 2, True),
        ("rules=partners&target=51", "tr", 2, True),
        ("rules=classic&players=3", "en", 3, False),
    ],
    ids=["classic-en", "classic-tr", "partners-tr", "three-en"],
)
def test_the_hands_count_is_in_the_first_screen_of_a_phone(
    browser: Browser, live_server, screenshots, viewport, link, language, sides, next_in_view
):
    context = browser.new_context(
        viewport=viewport,
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
        extra_http_headers={"Accept-Language": language},
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/glance-phone?{link}&level=easy")
    take_deal(page)
    while page.locator(".you .hand button").count():
        assert play_card(page, page.locator(".you .hand button").first)
    expect(page.locator("body.between-page")).to_have_count(1)
    table = page.locator("table.glance")
    expect(table.locator("tbody tr")).to_have_count(sides)
    assert page.evaluate("() => window.scrollY") == 0
    assert inside(page, table, viewport)
    # Whole: its box does not scroll sideways (its last column cut off).
    assert page.evaluate(
        "() => { const box = document.querySelector('table.glance').parentElement;"
        " return box.scrollWidth <= box.clientWidth; }"
    )
    # It comes before the last plays, and no column runs past the screen.
    assert table.bounding_box()["y"] < page.locator(".last-plays").bounding_box()["y"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    # The same figures as the hand's score table further down.
    totals = page.locator("table.hand-score tfoot td.score-points").all_inner_texts()
    assert table.locator("td.glance-points").all_inner_texts() == totals
    if next_in_view:
        assert inside(page, page.locator(".result form button.primary"), viewport)
    page.screenshot(
        path=screenshots / f"between-glance-{link.split('&')[0][6:]}-{sides}-{language}"
        f"-{viewport['width']}.png"
    )
    context.close()


@pytest.mark.parametrize(
    "viewport",
    [{"width": 844, "height": 390}, {"width": 740, "height": 360}, {"width": 667, "height": 375}],
    ids=["844x390", "740x360", "667x375"],
)
@pytest.mark.parametrize(
    ("link", "page_class", "button"),
    [
        ("rules=classic", "between-page", "Next hand"),
        ("rules=classic&players=3", "between-page", "Next hand"),
        ("rules=partners&players=4&teams=solo", "between-page", "Next hand"),
        ("rules=cardems", "final-page", "Play again"),
    ],
    ids=["two", "three", "four", "final"],
)
def test_a_phone_held_sideways_shows_the_count_and_the_next_step_in_the_first_screen(
    browser: Browser, live_server, screenshots, viewport, link, page_class, button
):
    """Held sideways, the end of a hand was one column under a 60 px bar:
    Next hand stood 445-489 px down at 740x360 (505-549 with three sides),
    the final page's Play again 415-459, a scroll away. The count at a
    glance and the next step now share the first screen, the last plays
    beside them, and nothing runs past the screen's width."""
    context = browser.new_context(
        viewport=viewport, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/glance-sideways?{link}&level=easy")
    take_deal(page)
    while page.locator(".you .hand button").count():
        assert play_card(page, page.locator(".you .hand button").first)
    expect(page.locator(f"body.{page_class}")).to_have_count(1)
    page.screenshot(path=screenshots / f"sideways-{page_class}-{link}-{viewport['width']}.png")
    assert page.evaluate("() => window.scrollY") == 0
    assert inside(page, page.locator("table.glance"), viewport)
    assert inside(page, page.get_by_role("button", name=button, exact=True), viewport)
    assert inside(page, page.locator(".last-plays h2"), viewport)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    context.close()
