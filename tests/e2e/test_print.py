"""Printed pages: the rules, the score between hands, the final page and a
review's decision print in ink on white paper, whether the system's theme
is light or dark, without the bar's links, the buttons and forms or the
languages, which do nothing on paper.

A browser prints no backgrounds unless asked: a word's contrast is taken
against white paper, or against its own colour where it keeps it
(``print-color-adjust: exact``, the small marks and chips)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import take_deal

#: The words printed too pale on their ground (WCAG's 4.5:1), and the
#: controls left on the printed page.
ON_PAPER = """() => {
  const luminance = (colour) => {
    const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const pale = [];
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (texts.nextNode()) {
    const text = texts.currentNode;
    const element = text.parentElement;
    if (!text.textContent.trim() || element.closest("svg, .visually-hidden, template")) continue;
    if (!shown(element)) continue;
    let ground = "rgb(255, 255, 255)";
    for (let at = element; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.printColorAdjust === "exact" && !/, 0\\)$/.test(style.backgroundColor)) {
        ground = style.backgroundColor;
        break;
      }
    }
    const colour = getComputedStyle(element).color;
    if (ratio(colour, ground) < 4.5) {
      pale.push(`${text.textContent.trim()}: ${colour} on ${ground}`);
    }
  }
  const controls = [...document.querySelectorAll(".button, .skip, .foot, input, select")]
    .filter(shown)
    .map((el) => el.textContent.trim() || el.outerHTML.slice(0, 60));
  return {pale, controls, page: getComputedStyle(document.documentElement).backgroundColor};
}"""


def printed(page: Page, screenshots, name: str) -> dict:
    """What ``page`` prints (an A4 page's width): :data:`ON_PAPER`'s
    findings, with a screenshot of the print; the screen is shown again
    after."""
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 718, "height": 1000})
    page.screenshot(path=screenshots / f"print-{name}.png", full_page=True)
    found = page.evaluate(ON_PAPER)
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 390, "height": 844})
    return found


def play_out_without_script(page: Page) -> None:
    """Play the first card of the hand until the hand is over (no script:
    each play loads the next page)."""
    while page.locator(".hand button").count():
        with page.expect_navigation():
            page.locator(".hand button").first.click()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_print_in_ink_without_their_controls(
    browser: Browser, live_server, screenshots, scheme
):
    """Before, every page printed its bar's words white (contrast 1:1 on
    the paper), its buttons, the languages and the felt's white words; with
    a dark theme the whole page's words were pale (1.24:1)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, java_script_enabled=False, color_scheme=scheme
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/print-match?rules=classic&level=easy")
    take_deal(page)
    page.goto(f"{live_server}/game/rules")
    pages = {"rules": printed(page, screenshots, f"rules-{scheme}")}
    expect(page.get_by_role("heading", name="How to play")).to_be_visible()
    page.goto(f"{live_server}/game")
    play_out_without_script(page)
    expect(page.get_by_role("heading", name="Hand 1 is over")).to_be_visible()
    pages["between hands"] = printed(page, screenshots, f"between-{scheme}")

    page.goto(f"{live_server}/deal/print-hand")
    take_deal(page)
    play_out_without_script(page)
    pages["final"] = printed(page, screenshots, f"final-{scheme}")
    with page.expect_navigation():
        page.get_by_role("button", name="Review this game").click()
    expect(page.get_by_role("heading", name="Decision 1 of")).to_be_visible()
    pages["review"] = printed(page, screenshots, f"review-{scheme}")
    for name, found in pages.items():
        assert found == {"pale": [], "controls": [], "page": "rgb(255, 255, 255)"}, name
    # What the pages are for is printed: the felt's seats, the score.
    page.emulate_media(media="print")
    expect(page.locator(".review-table")).to_contain_text("The computer")
    expect(page.locator(".review-table .card.back").first).to_be_visible()
    page.go_back()
    expect(page.locator(".hand-score")).to_contain_text("Hand total")
    context.close()
