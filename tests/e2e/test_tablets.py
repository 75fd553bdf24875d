"""Tablets (iPad 1024x768 and 1180x820) and phones held sideways, at a
table of three or of four, the device turned after every play: the seats,
the stock and the pile, the score and what happened never lie over one
another or leave the felt, and the page never scrolls."""

from __future__ import annotations

import itertools

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import play_card, settled_when_ready, take_deal
from tests.e2e.test_large_text import CLASHES
from tests.e2e.test_table_aids import set_aid

#: Each device's two ways, the first one held as the game begins.
DEVICES = {
    "iPad": ({"width": 1024, "height": 768}, {"width": 768, "height": 1024}),
    "iPad Air": ({"width": 1180, "height": 820}, {"width": 820, "height": 1180}),
    "phone 740x360": ({"width": 740, "height": 360}, {"width": 360, "height": 740}),
    "phone 844x390": ({"width": 844, "height": 390}, {"width": 390, "height": 844}),
}

#: Deals whose piles grow long in the first deals (ten cards, six of them
#: face up underneath, in the second).
GAMES = {
    "three players": "rot1?rules=classic&players=3",
    "partners": "s2?rules=partners",
}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("device", list(DEVICES))
def test_the_table_keeps_its_layout_as_the_device_turns(
    browser: Browser, live_server, screenshots, device, game
):
    """At 1024x768 (and 1180x820) the side seats' fanned cards lay under
    the stock and the pile, or past the felt's edge over the score, once
    the pile grew (the cards, sized from the height alone, 190 px tall,
    left a side seat 52 px). Each device is turned after every play, and
    the table checked each way."""
    ways = DEVICES[device]
    context = browser.new_context(viewport=ways[0], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/{GAMES[game]}")
    take_deal(page)
    settled_when_ready(page)
    for turn in range(9):
        page.set_viewport_size(ways[turn % 2])
        found = page.evaluate(CLASHES)
        found["tall"] = page.evaluate("document.scrollingElement.scrollHeight - innerHeight")
        if found != {"clashes": [], "outside": [], "wide": 0, "tall": 0}:
            name = f"turned-{device.replace(' ', '-')}-{game.replace(' ', '-')}-{turn}.png"
            page.screenshot(path=screenshots / name)
        assert found == {"clashes": [], "outside": [], "wide": 0, "tall": 0}, (turn, ways[turn % 2])
        assert play_card(page, page.locator(".hand button").first)
    context.close()


#: Whether the log's latest line is in view: inside the window and inside
#: the box around it that scrolls (the lines under the felt on a phone,
#: what happened beside it held sideways), or, where it and the first hint
#: do not fit together, scrolled past it to the hint's start
#: (static/pisti.js, showNews).
LATEST_SEEN = """async () => {
  // As drawn once turned: a media query's change is told at the next frame.
  await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
  const line = document.querySelector(".log > li:last-child").getBoundingClientRect();
  const hint = document.querySelector(".hints li")?.getBoundingClientRect();
  let box = document.querySelector(".log");
  const scrolls = (found) =>
    found.scrollHeight > found.clientHeight && getComputedStyle(found).overflowY !== "visible";
  while (box && !scrolls(box)) box = box.parentElement;
  const within = (area) => line.top >= area.top - 1 && line.bottom <= area.bottom + 1;
  if (!within({ top: 0, bottom: innerHeight })) return false;
  if (!box || box === document.documentElement) return true;
  const area = box.getBoundingClientRect();
  const past = hint !== undefined && line.top < area.top;
  return within(area) || (past && hint.top >= area.top - 1 && hint.top < area.bottom);
}"""


def test_the_latest_play_stays_in_view_as_the_phone_turns(browser: Browser, live_server):
    """The log's latest line is scrolled into view as each play lands; a
    phone turned moves the log to another box (under the felt upright,
    beside it sideways), which showed its first lines again, the latest
    play's cut off below, until the next play (5 of 11 turns, each one to
    740x360). Turned after every play."""
    ways = DEVICES["phone 740x360"]
    context = browser.new_context(viewport=ways[0], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/probe-5?rules=partners")
    take_deal(page)
    settled_when_ready(page)
    unseen = []
    for turn in range(11):  # the hand's last play but one
        assert play_card(page, page.locator(".hand button").first)
        page.set_viewport_size(ways[(turn + 1) % 2])
        if not page.evaluate(LATEST_SEEN):
            unseen.append(turn)
    assert unseen == []
    context.close()


@pytest.mark.parametrize("size", [(740, 360), (667, 375)], ids=["740x360", "667x375"])
def test_a_phone_held_sideways_never_scrolls_as_the_log_grows(
    browser: Browser, live_server, screenshots, size
):
    """Held sideways, three sides, the page scrolled by 12-18 px when the
    log beside the felt held more than it showed (here the network gone,
    its note above the log): the words of a line out of view that only a
    screen reader gets (absolute, 1 px) stood below the log's box, where
    the page's height counted them."""
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/s1?rules=classic&players=3")
    take_deal(page)
    settled_when_ready(page)
    scrolled = []
    for turn in range(5):
        context.set_offline(True)
        page.locator(".alert.offline").wait_for()
        if page.evaluate("document.scrollingElement.scrollHeight > innerHeight"):
            page.screenshot(path=screenshots / f"sideways-{size[0]}x{size[1]}-{turn}.png")
            scrolled.append(turn)
        # Back online, the page reads the table again.
        with page.expect_navigation():
            context.set_offline(False)
        settled_when_ready(page)
        assert play_card(page, page.locator(".hand button").first)
    assert scrolled == []
    context.close()


#: The parts of the column beside the felt, top to bottom, as boxes.
COLUMN = """() => [...document.querySelectorAll(".board > :not(.table)")].map((part) => {
  const box = part.getBoundingClientRect();
  return {name: part.className, top: box.top, bottom: box.bottom, height: box.height};
})"""


@pytest.mark.parametrize("size", [(740, 360), (667, 375)], ids=["740x360", "667x375"])
@pytest.mark.parametrize(
    ("link", "lines"),
    [("rules=classic&players=3", 3), ("rules=partners&players=4&teams=solo", 2)],
    ids=["three", "four-solo"],
)
def test_a_phone_held_sideways_shows_the_log_beside_the_score_and_the_counter(
    browser: Browser, live_server, screenshots, size, link, lines
):
    """Held sideways below 800 px, three or four sides, the counter and
    the hints on: the score's sides took 159 px of the column's 309 at
    740x360 (212 with four), what happened kept 13 px and its box ran on
    under the counter, the hint cut through a line (four sides: the log
    never showed). The column's parts follow one another, none over the
    next, and the log shows ``lines`` lines or more."""
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/sideways-counter?{link}")
    take_deal(page)
    set_aid(page, "Played-cards counter", True)
    set_aid(page, "Hints on your turn", True)
    page.locator("details.settings summary").click()
    expect(page.locator("details.settings")).not_to_have_attribute("open", "")
    parts = page.evaluate(COLUMN)
    name = f"sideways-counter-{link.split('&')[1]}-{size[0]}x{size[1]}.png"
    page.screenshot(path=screenshots / name)
    assert [part["name"] for part in parts] == [
        "scoreboard",
        "happened with-hints",
        "counter",
        "settings",
    ]
    for upper, lower in itertools.pairwise(parts):
        assert upper["bottom"] <= lower["top"] + 0.5, (upper, lower)
    line = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.log li')).lineHeight)"
    )
    assert parts[1]["height"] >= lines * line
    assert page.evaluate("document.scrollingElement.scrollHeight - innerHeight") == 0
    context.close()
