"""On a phone, a tap on the dealer tag or on a side's points chip says what
it means (a title, the only word on them before, shows only under a
mouse), and a tap on the table closes it again, in English and Turkish.
Each is a finger's size to tap: 44 px wide and tall at least."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.e2e.conftest import PHONE, play_card, settled_when_ready, take_deal

# A button's background, border, underline and whether its words have its
# table cell's colour.
LABEL_LOOK = """el => {
  const own = getComputedStyle(el), cell = getComputedStyle(el.parentElement);
  return [own.backgroundColor, own.borderTopWidth, own.textDecorationLine,
          own.textDecorationStyle, own.color === cell.color];
}"""


def phone_context(browser: Browser, language: str) -> BrowserContext:
    """A phone's browser (touch, no motion) that reads ``language``."""
    return browser.new_context(
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
        extra_http_headers={"Accept-Language": language},
    )


@pytest.mark.parametrize(
    ("language", "dealer", "points"),
    [
        ("en", "plays last", "The points each side has so far in this hand"),
        ("tr", "en son oynar", "Her tarafın bu elde şimdiye kadarki puanları"),
    ],
)
def test_a_tap_on_the_dealer_tag_or_the_points_says_what_they_mean(
    browser: Browser, live_server, screenshots, language, dealer, points
):
    context = phone_context(browser, language)
    page = context.new_page()
    page.goto(f"{live_server}/deal/keys-phone?rules=partners")
    take_deal(page)
    settled_when_ready(page)
    key = page.locator("#key-dealer")
    expect(key).to_be_hidden()
    page.locator(".table .tag.dealer").first.tap()
    expect(key).to_be_visible()
    expect(key).to_contain_text(dealer)
    box = key.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=screenshots / f"table-key-dealer-{language}-390.png")
    # A tap elsewhere closes it (and plays nothing).
    page.mouse.click(5, PHONE["height"] // 2)
    expect(key).to_be_hidden()
    page.locator(".scoreboard .chip.points").first.tap()
    expect(page.locator("#key-points")).to_be_visible()
    expect(page.locator("#key-points")).to_contain_text(points)
    page.locator("#key-points .key-close").tap()
    expect(page.locator("#key-points")).to_be_hidden()
    assert page.locator(".you .hand button").count() == 4
    context.close()


#: For each of the buttons ``selector`` finds, the room a finger has to
#: tap it: the width and height, in px, of the run of points through its
#: centre, across and down, where a tap shows its popover (on it, or on
#: anything around it showing the same); "name: width x height".
ROOM = """(selector) => [...document.querySelectorAll(selector)].map((target) => {
  const box = target.getBoundingClientRect();
  const wanted = target.getAttribute("popovertarget");
  const shows = (x, y) =>
    document.elementFromPoint(x, y)?.closest("[popovertarget]")?.getAttribute("popovertarget")
    === wanted;
  const run = (x, y, dx, dy) => {
    let length = 0;
    while (length < 100 && shows(x + dx * (length + 1), y + dy * (length + 1))) length++;
    return length;
  };
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const wide = shows(x, y) ? run(x, y, -1, 0) + run(x, y, 1, 0) + 1 : 0;
  const high = shows(x, y) ? run(x, y, 0, -1) + run(x, y, 0, 1) + 1 : 0;
  return `${target.className}: ${Math.min(wide, 44)} x ${Math.min(high, 44)}`;
})"""


def fingers_room(page, selector: str) -> list[str]:
    """``ROOM`` for the buttons ``selector`` finds, each "…: 44 x 44" when
    a finger has its room (more is not told)."""
    return page.evaluate(ROOM, selector)


@pytest.mark.parametrize("size", [PHONE, {"width": 360, "height": 740}], ids=["390", "360"])
@pytest.mark.parametrize("query", ["rules=classic", "rules=classic&players=3", "rules=partners"])
def test_the_score_and_the_dealer_tag_are_a_fingers_size_on_a_phone(
    browser: Browser, live_server, size, query
):
    """The score's chips were 17-19 px tall, 2-4 px apart, and the dealer
    tag 13 px: a finger missed them, or hit the chip beside. The whole
    score shows what its points mean now (as each of its buttons does),
    and the dealer tag has 44 px of height round it; a tap on a side's
    name shows the points too."""
    context = browser.new_context(
        viewport=size, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/keys-room?{query}")
    take_deal(page)
    settled_when_ready(page)
    found = fingers_room(page, ".scoreboard button.chip, .table button.tag")
    assert len(found) >= 5 and all(room.endswith(": 44 x 44") for room in found), found
    name = page.locator(".scoreboard .who").last.bounding_box()
    assert name is not None
    page.touchscreen.tap(name["x"] + name["width"] / 2, name["y"] + name["height"] / 2)
    expect(page.locator("#key-points")).to_be_visible()
    context.close()


@pytest.mark.parametrize(
    ("language", "points", "dealer", "next_hand"),
    [
        ("en", "Each side's points in this hand", "plays last", "Next hand"),
        ("tr", "Her tarafın bu eldeki puanları", "en son oynar", "Sonraki el"),
    ],
)
def test_between_hands_a_tap_on_a_total_or_the_dealer_says_what_they_mean(
    browser: Browser, live_server, screenshots, language, points, dealer, next_hand
):
    context = phone_context(browser, language)
    page = context.new_page()
    page.goto(f"{live_server}/deal/keys-between-phone?rules=classic&last_sweep_bonus=3")
    take_deal(page)
    while page.locator(".you .hand button").count():
        assert play_card(page, page.locator(".you .hand button").first)
    expect(page.locator("body.between-page")).to_have_count(1)
    # Each a finger's size (the totals were 27 px tall, the tag 13 px),
    # and Next hand 8 px clear of the tag's room.
    for chip in page.locator("tfoot .chip").all():
        box = chip.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
        # Each reads as its row's label with the page's mark of a word
        # that explains itself (the bar's dotted rules link), not as a
        # button beside the table's own (outlined, or dark-filled).
        assert chip.evaluate(LABEL_LOOK) == ["rgba(0, 0, 0, 0)", "0px", "underline", "dotted", True]
    page.locator(".next-deal").scroll_into_view_if_needed()
    assert fingers_room(page, ".next-deal .tag") == ["tag dealer: 44 x 44"]
    tag = page.locator(".next-deal .tag").bounding_box()
    below = page.get_by_role("button", name=next_hand).bounding_box()
    assert tag is not None and below is not None
    assert below["y"] - (tag["y"] + tag["height"] / 2 + 22) >= 8
    key = page.locator("#key-points")
    for chip in ("tfoot .chip.points", "tfoot .chip.total"):
        expect(key).to_be_hidden()
        page.locator(chip).tap()
        expect(key).to_be_visible()
        expect(key).to_contain_text(points)
        box = key.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        page.locator("#key-points .key-close").tap()
    page.locator(".next-deal .tag.dealer").tap()
    expect(page.locator("#key-dealer")).to_contain_text(dealer)
    page.screenshot(path=screenshots / f"between-key-dealer-{language}-390.png")
    page.keyboard.press("Escape")
    expect(page.locator("#key-dealer")).to_be_hidden()
    context.close()
