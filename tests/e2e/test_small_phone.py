"""The smallest phone in use, 320x568 (and a laptop zoomed to 200%, whose
layout is the same width's): through a whole hand, two to four players,
the page never scrolls sideways, the table's seats, centre and score never
lie over one another, and the pile's fanned cards keep to their column."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import cards_in_hand, play_card, settled_when_ready, take_deal
from tests.e2e.test_large_text import CLASHES

#: How far the pile's cards run past the pile's column, left or right (px),
#: and whether one lies over the stock's count ("Stock: 32").
PILE = """() => {
  const pile = document.querySelector(".table .pile").getBoundingClientRect();
  const count = document.querySelector(".table .stock > .count").getBoundingClientRect();
  const cards = [...document.querySelectorAll(".table .pile .fan > .card")]
    .map((card) => card.getBoundingClientRect());
  return {
    past: Math.max(0, ...cards.map((card) => Math.max(pile.left - card.left,
                                                      card.right - pile.right))),
    overCount: cards.some((card) => card.right > count.left + 1 && card.left < count.right - 1
      && card.bottom > count.top + 1 && card.top < count.bottom - 1),
  };
}"""


#: The deal links' games, with their number of players.
GAMES = {
    "rules=classic": 2,
    "rules=partners": 4,
    "rules=classic&players=3": 3,
    "rules=classic&players=4": 4,
}


@pytest.mark.parametrize("query", GAMES)
@pytest.mark.parametrize("size", [(320, 568), (640, 400)])
def test_a_whole_hand_fits_a_small_phone(browser: Browser, live_server, query, size):
    """At 320 px the sides' score ran 6-13 px past the screen (two players
    and four: a match's total, "0 / 151 pts", cut off), and with three or
    four players the pile's cards 8-12 px over the stock's count and the
    seat beside the pile."""
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/small-phone?{query}&level=easy")
    take_deal(page)
    settled_when_ready(page)
    plays = 0
    while cards_in_hand(page):
        found = page.evaluate(CLASHES)
        assert found == {"clashes": [], "outside": [], "wide": 0}, (plays, found)
        assert page.evaluate(PILE) == {"past": 0, "overCount": False}, plays
        assert play_card(page, page.locator(".hand button").first)
        plays += 1
    assert plays == 48 // GAMES[query]
    assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0
    context.close()
