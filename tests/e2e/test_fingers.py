"""Under a finger: on a phone, upright or held sideways, each card of your
hand is 44 px wide and tall at least and 8 px from the next, so that a
finger's slip beside a card plays none rather than the wrong one, and the
hand still fits the felt and the screen; the language buttons are 8 px
apart too."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import one_line_apart, settled_when_ready, take_deal

#: Your cards' boxes, the least gap between neighbours, and how far the
#: hand runs past the felt's sides or the page past the screen's width.
HAND = """() => {
  const boxes = [...document.querySelectorAll(".hand .card-button")]
    .map((card) => card.getBoundingClientRect());
  const felt = document.querySelector(".table, .lesson-play").getBoundingClientRect();
  const hand = document.querySelector(".hand").getBoundingClientRect();
  return {
    cards: boxes.length,
    narrowest: Math.min(...boxes.map((box) => Math.min(box.width, box.height))),
    gap: Math.min(...boxes.slice(1).map((box, i) => box.left - boxes[i].right)),
    past: Math.max(felt.left - hand.left, hand.right - felt.right, 0),
    wide: document.scrollingElement.scrollWidth - innerWidth,
  };
}"""

SIZES = ["390x844", "360x740", "844x390", "740x360", "667x375"]


def viewport(size: str) -> dict[str, int]:
    """``"390x844"`` as Playwright's viewport."""
    width, height = size.split("x")
    return {"width": int(width), "height": int(height)}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query", ["rules=classic", "rules=classic&players=3", "rules=partners"])
def test_your_cards_are_a_finger_apart_on_a_phone(browser: Browser, live_server, size, query):
    """They were 6.4 px apart on every phone."""
    context = browser.new_context(
        viewport=viewport(size), has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/fingers?{query}")
    take_deal(page)
    settled_when_ready(page)
    found = page.evaluate(HAND)
    assert found["cards"] == 4 and found["narrowest"] >= 44, found
    assert found["gap"] >= 8 and found["past"] == 0 and found["wide"] <= 0, found
    context.close()


@pytest.mark.parametrize("size", ["390x844", "360x740", "740x360"])
def test_the_lessons_cards_are_a_finger_apart(browser: Browser, live_server, size):
    """The lesson's hand as the table's (6.4 px apart before)."""
    context = browser.new_context(
        viewport=viewport(size), has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/story/lesson")
    found = page.evaluate(HAND)
    assert found["cards"] == 4 and found["narrowest"] >= 44, found
    assert found["gap"] >= 8 and found["past"] == 0 and found["wide"] <= 0, found
    context.close()


@pytest.mark.parametrize("address", ["/", "/deal/fingers-languages?rules=partners"])
def test_the_languages_are_a_finger_apart(browser: Browser, live_server, address):
    """English and Türkçe, each 44 px, were 4 px apart (at the table too,
    beside the aids)."""
    context = browser.new_context(
        viewport=viewport("360x740"), has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(live_server + address)
    if "deal" in address:
        take_deal(page)
    languages = page.locator(".languages")
    buttons = languages.locator("button").all()
    assert len(buttons) == 2
    for button in buttons:
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44
    assert one_line_apart(languages, "button") >= 8
    context.close()
