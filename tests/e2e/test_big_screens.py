"""Big screens (1600x900, 1920x1080, 2560x1440, an ultra-wide 3440x1440,
and 1920x1080 at twice the pixels): the table at two, three and four seats is
a felt wider than tall, centred, its cards sized to the screen, nothing
lying over anything else, and the page never scrolls, from the first play
to the hand's last card."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import play_card, settled_when_ready, take_deal
from tests.e2e.test_large_text import CLASHES

SCREENS = {
    "1600x900": ({"width": 1600, "height": 900}, 1),
    "1920x1080": ({"width": 1920, "height": 1080}, 1),
    "2560x1440": ({"width": 2560, "height": 1440}, 1),
    "3440x1440": ({"width": 3440, "height": 1440}, 1),
    "1920x1080 at 2x": ({"width": 1920, "height": 1080}, 2),
}

GAMES = {
    "two players": "big-2?rules=cardems",
    "three players": "big-3?rules=classic&players=3",
    "partners": "big-4?rules=partners",
}

#: The felt's and your first card's boxes, and the space left and right of
#: the page's content (the felt and the column beside it), in CSS px.
MEASURE = """() => {
  const felt = document.querySelector(".table").getBoundingClientRect();
  const card = document.querySelector(".hand button .card, .hand button").getBoundingClientRect();
  const board = document.querySelector(".board").getBoundingClientRect();
  return {
    felt: {width: felt.width, height: felt.height},
    card: card.height,
    left: board.left,
    right: innerWidth - board.right,
    tall: document.scrollingElement.scrollHeight - innerHeight,
  };
}"""


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_table_fills_a_big_screen(browser: Browser, live_server, screenshots, screen, game):
    """At 2560x1440 the felt stood 1040 px wide and 1372 px tall (a column
    of felt), its cards the laptop's 190 px (a seventh of the screen's
    height) far apart in it; at 1920x1080 the cards were 190 px too. Now
    the felt is wider than it is tall, the cards a fifth of the height
    (less at four seats, where the felt's width sets them), the page
    centred, and the table stays clear of clashes play after play."""
    viewport, scale = SCREENS[screen]
    context = browser.new_context(
        viewport=viewport, device_scale_factor=scale, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/{GAMES[game]}")
    take_deal(page)
    settled_when_ready(page)
    found = page.evaluate(MEASURE)
    name = f"big-{screen.replace(' ', '-')}-{game.replace(' ', '-')}.png"
    if not found["felt"]["width"] > found["felt"]["height"]:
        page.screenshot(path=screenshots / name)
    assert found["felt"]["width"] > found["felt"]["height"], found
    assert found["card"] >= 0.18 * viewport["height"], found
    assert abs(found["left"] - found["right"]) <= 2, found
    assert found["tall"] == 0, found
    for turn in range(6):
        clashes = page.evaluate(CLASHES)
        clashes["tall"] = page.evaluate("document.scrollingElement.scrollHeight - innerHeight")
        if clashes != {"clashes": [], "outside": [], "wide": 0, "tall": 0}:
            page.screenshot(path=screenshots / name)
        assert clashes == {"clashes": [], "outside": [], "wide": 0, "tall": 0}, turn
        assert play_card(page, page.locator(".hand button").first)
    context.close()


#: How far the lesson's hand (its last card) runs past the inner edge of
#: its box ("Your hand"), in CSS px; 0 or less when it keeps inside.
LESSON_HAND_PAST = """() => {
  const box = document.querySelector(".lesson-play > .you");
  const inner = box.getBoundingClientRect().right - parseFloat(getComputedStyle(box).paddingRight);
  const cards = [...box.querySelectorAll(".hand .card")];
  return Math.max(...cards.map((card) => card.getBoundingClientRect().right)) - inner;
}"""


@pytest.mark.parametrize(
    "size", [(1280, 800), (1920, 1080), (2560, 1440)], ids=["1280x800", "1920x1080", "2560x1440"]
)
def test_the_lessons_hand_keeps_inside_its_box(browser: Browser, live_server, size):
    """From 900 px wide the lesson's four cards (76 px, 12 px apart) were
    wider than the column of "Your hand": the last card ran 11 px past
    the box's inner edge, over its padding to its very border, at every
    laptop and big screen. The column is now as wide as the hand."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{live_server}/story/lesson")
    assert page.locator(".lesson-play > .you .hand .card").count() == 4
    assert page.evaluate(LESSON_HAND_PAST) <= 0
    context.close()


#: The cards (your hand's, the pile's, the backs) lying past the felt's
#: left or right edge, by their seat's class and how far, in CSS px.
CARDS_OFF_THE_FELT = """() => {
  const felt = document.querySelector(".table").getBoundingClientRect();
  return [...document.querySelectorAll(".table .card")].map((card) => {
    const box = card.getBoundingClientRect();
    const past = Math.max(felt.left - box.left, box.right - felt.right);
    return [card.closest(".place, .centre")?.className, Math.round(past)];
  }).filter(([, past]) => past > 1);
}"""


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("screen", [(1600, 2560), (2160, 3840)], ids=["1600x2560", "2160x3840"])
def test_a_portrait_big_screen_keeps_the_table_on_it(browser: Browser, live_server, screen, game):
    """A big screen turned upright (2560x1600 or a 4K one, at 100 %) took
    the big screen's sizes, cards a fifth of its height: 512 and 768 px
    tall, four of them wider than the felt, so your hand ran off the
    screen's left edge and under the column beside the felt, and the pile
    off it too. It has the laptop's sizes again."""
    context = browser.new_context(
        viewport={"width": screen[0], "height": screen[1]}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/{GAMES[game]}")
    take_deal(page)
    settled_when_ready(page)
    clashes = page.evaluate(CLASHES)
    clashes["tall"] = page.evaluate("document.scrollingElement.scrollHeight - innerHeight")
    assert clashes == {"clashes": [], "outside": [], "wide": 0, "tall": 0}
    assert page.evaluate(CARDS_OFF_THE_FELT) == []
    context.close()
