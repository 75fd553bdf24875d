"""A laptop with the browser's text size made larger (Chrome's "Very
large", 24 px, and 32 px: twice the usual 16), as a low-vision player sets
it: the table's seats, the stock and pile, the score and what happened
never lie over one another, and nothing leaves the felt or the screen's
width. The browser's own text size is set as its settings do
(``Page.setFontSizes``), which the layouts' breakpoints (in em) follow;
a style sheet's larger root size would not reach them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import DESKTOP, settled_when_ready, take_deal

#: Pairs of the table's parts, each in a different region (a seat, the
#: centre, the score, what happened), whose boxes overlap by more than 2 px;
#: and the seats and the centre that go past the felt's edges.
CLASHES = """() => {
  const parts = [...document.querySelectorAll(
    ".table .place-name, .table .place-level, .table .backs, .table .last-play, "
    + ".table .stock, .table .pile, .table .hand, .board > .scoreboard, .board > .happened")];
  const region = (part) => part.closest(".place, .centre, .board > *");
  const boxes = parts.map((part) => [part, part.getBoundingClientRect()]);
  const clashes = [];
  for (const [i, [a, boxA]] of boxes.entries()) {
    for (const [b, boxB] of boxes.slice(i + 1)) {
      if (region(a) === region(b) || !boxA.width || !boxB.width) continue;
      if (boxA.left < boxB.right - 2 && boxB.left < boxA.right - 2
          && boxA.top < boxB.bottom - 2 && boxB.top < boxA.bottom - 2) {
        clashes.push(`${a.className} / ${b.className}`);
      }
    }
  }
  const felt = document.querySelector(".table").getBoundingClientRect();
  const seats = document.querySelectorAll(".table > .place, .table > .centre");
  const outside = [...seats].filter((part) => {
    const box = part.getBoundingClientRect();
    return box.left < felt.left - 1 || box.right > felt.right + 1 || box.bottom > felt.bottom + 1;
  }).map((part) => part.className);
  return {clashes, outside, wide: document.scrollingElement.scrollWidth - innerWidth};
}"""


@pytest.mark.parametrize("size", [24, 32])
@pytest.mark.parametrize("query", ["rules=classic", "rules=classic&players=3", "rules=partners"])
def test_a_laptop_table_with_larger_text(browser: Browser, live_server, size, query):
    """At 1280x800 with 24 px text a three-player or partners table had the
    side seats' cards and words under the stock and the pile (their columns
    left some 40 px by the centre's fixed room); at 32 px they ran into the
    score too and the hand went past the felt."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": size, "fixed": size * 13 // 16}})
    page.goto(f"{live_server}/deal/large-text-laptop?{query}")
    take_deal(page)
    settled_when_ready(page)
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == f"{size}px"
    assert page.evaluate(CLASHES) == {"clashes": [], "outside": [], "wide": 0}
    context.close()
