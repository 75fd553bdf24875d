"""Windows' high contrast (forced colours), light and dark: what the pages
mark with box shadows or backgrounds alone is not drawn there, so each mark
a player needs is checked for a line of its own in a colour that stands
out from the page's (3:1, WCAG's figure for a part of the page)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, expect

from app.engine import CLASSIC
from tests.e2e.conftest import contrast, play_card, settled_when_ready, take_deal
from tests.web.test_review_pages import finished_record

#: Each element's drawn line (outline, else border): its style, width and colour.
LINES = """(selector) => [...document.querySelectorAll(selector)].map((element) => {
  const style = getComputedStyle(element);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  return outline
    ? [style.outlineStyle, parseFloat(style.outlineWidth), style.outlineColor]
    : [style.borderTopStyle, parseFloat(style.borderTopWidth), style.borderTopColor];
})"""

CANVAS = "() => getComputedStyle(document.documentElement).backgroundColor"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_reviews_rings_show_in_forced_colours(browser: Browser, live_server, tmp_path, scheme):
    """The review's rings round the card played and the best card, and the
    legend's, were box shadows: in forced colours none was drawn."""
    record = tmp_path / "record.json"
    record.write_text(json.dumps(finished_record(CLASSIC, "fc-review")))
    context = browser.new_context(forced_colors="active", color_scheme=scheme)
    page = context.new_page()
    page.goto(live_server + "/review/")
    page.locator("input[type=file]").set_input_files(record)
    page.locator("form[action$='/review/upload'] button").click()
    # Decision 1 of this record: Ace of hearts played, Jack of hearts the best.
    expect(page.locator(".review-card.played:not(.best)")).to_have_count(1)
    expect(page.locator(".review-card.best:not(.played)")).to_have_count(1)
    canvas = page.evaluate(CANVAS)
    marks = {}
    for name in ("played", "best"):
        for selector in (f".review-card.{name}", f".review-legend .ring.{name}"):
            [(style, width, colour)] = page.evaluate(LINES, selector)
            assert style != "none" and width >= 2, (selector, style, width)
            assert contrast(colour, canvas) >= 3, (selector, colour, canvas)
            marks.setdefault(name, set()).add(style)
    # Told apart by their lines, not only by a colour the theme chooses.
    assert marks["played"].isdisjoint(marks["best"]), marks
    context.close()


#: The first colour of an element's box shadow (its ring), or None.
RING = """(selector) => {
  const shadow = getComputedStyle(document.querySelector(selector)).boxShadow;
  return shadow === "none" ? null : shadow.match(/rgba?\\([^)]*\\)/)[0];
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_cards_focus_and_takes_rings_show_in_forced_colours(
    browser: Browser, live_server, scheme
):
    """At the table the keyboard's ring on a card was white and the "takes"
    ring gold, drawn on the system's background where the felt was: the
    white one vanished on a light background (1:1), the gold showed at 1.6:1."""
    context = browser.new_context(forced_colors="active", color_scheme=scheme)
    page = context.new_page()
    page.goto(live_server + "/deal/fc-1?rules=classic")
    take_deal(page)
    settled_when_ready(page)
    # This deal's first hand: the 8 of clubs takes the pile's 8 of hearts.
    takes = page.locator(".hand .card-button.captures")
    expect(takes).to_have_count(1)
    page.keyboard.press("Tab")  # from the page's top to a card, as a keyboard does
    takes.focus()
    canvas = page.evaluate(CANVAS)
    [(style, width, colour)] = page.evaluate(LINES, ".hand .card-button:focus-visible .card")
    assert style != "none" and width >= 2, (style, width)
    assert contrast(colour, canvas) >= 3, (colour, canvas)
    ring = page.evaluate(RING, ".hand .card-button.captures .card")
    assert ring is not None
    assert contrast(ring, canvas) >= 3, (ring, canvas)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tables_labels_and_your_turn_have_lines_in_forced_colours(
    browser: Browser, live_server, scheme
):
    """The "takes 4" under a card, the "Pişti!" stamp over the pile and the
    tags (your turn, dealer, hint) were pills of colour, and your turn a
    gold ring round your hand (a shadow): in forced colours the labels were
    loose words over the cards, and the ring was not drawn."""
    context = browser.new_context(forced_colors="active", color_scheme=scheme)
    page = context.new_page()
    page.goto(live_server + "/deal/fc-1?rules=classic")
    take_deal(page)
    settled_when_ready(page)
    expect(page.locator(".hand .take-mark")).to_have_count(1)
    # The stamp shows only as a pişti is made: one is put over this pile.
    page.evaluate(
        """() => document.querySelector(".pile").insertAdjacentHTML(
            "beforeend", '<span class="pisti-mark">Pişti!</span>')"""
    )
    canvas = page.evaluate(CANVAS)
    for selector, least in (
        (".hand .take-mark", 2),
        (".pile .pisti-mark", 2),
        (".you.turn .hand", 2),
        (".tag.turn-tag", 1),
        (".tag.dealer", 1),
        (".hint-tag", 1),
    ):
        lines = page.evaluate(LINES, selector)
        assert lines, selector
        for style, width, colour in lines:
            assert style != "none" and width >= least, (selector, style, width)
            assert contrast(colour, canvas) >= 3, (selector, colour, canvas)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_panels_over_the_table_have_an_edge_in_forced_colours(
    browser: Browser, live_server, scheme
):
    """The playing aids, the house rules' list and what the points chip
    means open over the table with a shadow for their only edge: in forced
    colours nothing showed where they end and the score or the cards under
    them begin."""
    context = browser.new_context(forced_colors="active", color_scheme=scheme)
    page = context.new_page()
    page.goto(live_server + "/deal/fc-panels?rules=classic&players=3&jack_pisti=10")
    take_deal(page)
    settled_when_ready(page)
    canvas = page.evaluate(CANVAS)
    for summary, selector in (
        ("details.settings summary", "details.settings form"),
        (".rules-line summary", ".rules-line ul"),
        (".scoreboard .side-0 .chip.points", "#key-points"),
    ):
        page.locator(summary).click()
        expect(page.locator(selector)).to_be_visible()
        [(style, width, colour)] = page.evaluate(LINES, selector)
        assert style != "none" and width >= 1, (selector, style, width)
        assert contrast(colour, canvas) >= 3, (selector, colour, canvas)
    context.close()


#: The face-up cards under the pile's fan: their background (the edges,
#: a gradient) and their paper's colour.
EDGES = """() => {
  const style = getComputedStyle(document.querySelector(".pile .face-up-edge"));
  return [style.backgroundImage, style.backgroundColor];
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_face_up_cards_under_the_pile_keep_their_edges_in_forced_colours(
    browser: Browser, live_server, scheme
):
    """The face-up cards under the fan are paper with an edge per card (a
    gradient): forced colours drew no gradient and painted the paper the
    system's background, so the stack was a blank box beside the fan's
    cards (black on a dark theme)."""
    context = browser.new_context(
        forced_colors="active", color_scheme=scheme, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(live_server + "/deal/rot1?rules=classic&players=3")
    take_deal(page)
    settled_when_ready(page)
    # This deal's pile has six cards face up under its fan after four turns.
    for _ in range(4):
        assert play_card(page, page.locator(".hand button").first)
    expect(page.locator(".pile .face-up-edge")).to_have_count(1)
    image, paper = page.evaluate(EDGES)
    assert "gradient" in image, image
    # Its paper is the cards' own, not the page's background.
    assert paper == "rgb(253, 253, 250)" != page.evaluate(CANVAS), paper
    context.close()
