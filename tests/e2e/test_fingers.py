"""Under a finger: on a phone, upright or held sideways, each card of your
hand is 44 px wide and tall at least and 8 px from the next, so that a
finger's slip beside a card plays none rather than the wrong one, and the
hand still fits the felt and the screen; the language buttons are 8 px
apart too."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page

from tests.e2e.conftest import one_line_apart, play_card, settled_when_ready, take_deal

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


def a_phone(browser: Browser, size: str) -> tuple[BrowserContext, Page]:
    """A new context of a phone of ``size`` (``"390x844"``; touch, reduced
    motion) and its page; close the context after."""
    context = browser.new_context(
        viewport=viewport(size), has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    return context, context.new_page()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("query", ["rules=classic", "rules=classic&players=3", "rules=partners"])
def test_your_cards_are_a_finger_apart_on_a_phone(browser: Browser, live_server, size, query):
    """They were 6.4 px apart on every phone."""
    context, page = a_phone(browser, size)
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
    context, page = a_phone(browser, size)
    page.goto(f"{live_server}/story/lesson")
    found = page.evaluate(HAND)
    assert found["cards"] == 4 and found["narrowest"] >= 44, found
    assert found["gap"] >= 8 and found["past"] == 0 and found["wide"] <= 0, found
    context.close()


@pytest.mark.parametrize("address", ["/", "/deal/fingers-languages?rules=partners"])
def test_the_languages_are_a_finger_apart(browser: Browser, live_server, address):
    """English and Türkçe, each 44 px, were 4 px apart (at the table too,
    beside the aids)."""
    context, page = a_phone(browser, "360x740")
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


#: The boxes of the elements ``selector`` finds, top to bottom: their least
#: height and the least gap between one and the next.
ROWS = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)]
    .map((row) => row.getBoundingClientRect()).filter((box) => box.height);
  return {
    rows: boxes.length,
    lowest: Math.min(...boxes.map((box) => box.height)),
    gap: Math.min(...boxes.slice(1).map((box, i) => box.top - boxes[i].bottom)),
  };
}"""


@pytest.mark.parametrize("size", ["390x844", "360x740"])
def test_the_choices_and_switches_are_a_finger_apart(browser: Browser, live_server, size):
    """The home page's games and levels (each a row on a phone) and the
    playing aids' switches, on the home page and at the table: each 44 px
    tall, 8 px from the next (4 px and 1.6 px before)."""
    context, page = a_phone(browser, size)
    page.goto(live_server + "/")
    choices = page.evaluate(ROWS, ".choice")
    assert choices["rows"] == 6 and choices["lowest"] >= 44 and choices["gap"] >= 8, choices
    switches = page.evaluate(ROWS, "form.aids .toggle")
    assert switches["rows"] >= 9 and switches["lowest"] >= 44 and switches["gap"] >= 8, switches
    page.goto(f"{live_server}/deal/fingers-switches")
    take_deal(page)
    page.locator(".settings summary").click()
    switches = page.evaluate(ROWS, ".settings .toggle")
    assert switches["rows"] >= 9 and switches["lowest"] >= 44 and switches["gap"] >= 8, switches
    context.close()


#: How tall the strip is, through the middle of the first element
#: ``selector`` finds, where a tap lands on it (its own box or a pseudo
#: element's), in px; the page moved 60 px down first, so that the room
#: above a line at the screen's top edge is counted too.
TAP_HEIGHT = """(selector) => {
  document.body.style.marginTop = "60px";
  const link = document.querySelector(selector);
  const box = link.getBoundingClientRect();
  const x = box.left + box.width / 2;
  let tall = 0;
  for (let y = box.top - 40; y < box.bottom + 40; y += 0.5) {
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === link || link.contains(hit))) tall += 0.5;
  }
  return tall;
}"""


@pytest.mark.parametrize("size", ["390x844", "360x740", "1280x800"])
@pytest.mark.parametrize(
    ("query", "selector"),
    [
        ("rules=classic", ".bar .rules-link"),
        ("rules=classic&last_sweep_bonus=3", ".rules-line summary"),
    ],
)
def test_the_bars_rules_are_a_fingers_height(browser: Browser, live_server, size, query, selector):
    """The game's name in the bar, leading to its rules (or opening the
    list of house rules), takes a tap 44 px tall (37-40 px before)."""
    context = browser.new_context(viewport=viewport(size), reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/fingers-rules?{query}")
    take_deal(page)
    assert page.evaluate(TAP_HEIGHT, selector) >= 44
    context.close()


@pytest.mark.parametrize("size", ["390x844", "360x740"])
@pytest.mark.parametrize(
    "query", ["rules=partners", "rules=classic&players=3", "rules=partners&teams=solo"]
)
def test_the_scores_chips_are_a_finger_apart_on_a_phone_upright(
    browser: Browser, live_server, size, query
):
    """The score's points and total chips (buttons showing how the points
    add up) of partners and three or four sides were 17-19 px tall and
    20.7-21.7 px apart on a phone upright, under WCAG 2.2's target size
    (axe-core's target-size rule): the sides' rows are 24 px apart now,
    and the page still does not scroll. Checked at three of your turns, a
    side's face-down cards among them."""
    context, page = a_phone(browser, size)
    page.goto(f"{live_server}/deal/fingers-score?{query}")
    take_deal(page)
    settled_when_ready(page)
    options = {
        "runOnly": {"type": "rule", "values": ["target-size"]},
        "resultTypes": ["violations"],
    }
    for turn in range(3):
        assert page.locator(".scoreboard button.chip.points").count() >= 2
        found = Axe().run(page, context=".scoreboard", options=options).response["violations"]
        assert [node["target"] for finding in found for node in finding["nodes"]] == [], turn
        assert page.evaluate("document.scrollingElement.scrollHeight - innerHeight") == 0, turn
        assert play_card(page, page.locator(".hand button").first)
    context.close()
