"""The House rules page on a phone: a select cannot wrap, so each field's
choice is said in a few words that fit its box, in English and in Turkish,
whatever game, number of players and choice; the line under a select,
tied to it, gives the whole words of the choice when the label does not.
On a laptop the start button is on the first screen, the folds' rules
in two columns."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.test_table_motion import SIZES

#: The room Chromium's arrow takes in a select: the text stops this far
#: before the select's padding (240 px of text in a select of 260 px inside
#: its padding, found by lengthening a text until it no longer showed).
ARROW = 20

#: Every game, number of players and choice of every field, one at a time
#: (through the page's own change events), with the fields whose shown text
#: (the chosen option, or a number field's placeholder) is wider than the
#: box it is drawn in, and the selects whose line under them does not give
#: the chosen option's whole words (or is shown empty).
SWEEP = """(arrow) => {
  const form = document.querySelector("form[data-base]");
  const canvas = document.createElement("canvas").getContext("2d");
  const change = (field) => field.dispatchEvent(new Event("change", { bubbles: true }));
  const cut = new Set();
  const unsaid = new Set();
  function check() {
    for (const field of form.querySelectorAll("select, .rule input")) {
      const style = getComputedStyle(field);
      canvas.font = style.font;
      const select = field.tagName === "SELECT";
      const text = select ? field.selectedOptions[0].text : field.placeholder;
      const room = field.clientWidth - parseFloat(style.paddingLeft)
        - parseFloat(style.paddingRight) - (select ? arrow : 0);
      if (canvas.measureText(text).width > room + 0.5) cut.add(field.id + ": " + text);
      const line = select && document.getElementById(field.id + "-chosen");
      if (line) {
        const words = field.selectedOptions[0].dataset.words || "";
        if (line.hidden !== !words || (words && line.textContent !== words)) {
          unsaid.add(field.id + ": " + text);
        }
      }
    }
  }
  const players = form.querySelector("#players");
  for (const base of form.querySelectorAll("input[name=rules]")) {
    base.checked = true;
    change(base);
    for (const number of ["", "2", "3", "4"]) {
      players.value = number;
      change(players);
      for (const select of form.querySelectorAll("select")) {
        if (select === players) continue;
        const was = select.value;
        for (const option of [...select.options]) {
          select.value = option.value;
          change(select);
          check();
        }
        select.value = was;
        change(select);
      }
    }
  }
  return { cut: [...cut], unsaid: [...unsaid] };
}"""


def house_page(browser: Browser, live_server: str, size_name: str, language: str):
    """A new context at ``size_name`` on the House rules page in
    ``language`` (switched with the page's own links); returns it and the
    page."""
    context = browser.new_context(viewport=SIZES[size_name])
    page = context.new_page()
    page.goto(f"{live_server}/house")
    if language != "English":
        with page.expect_navigation():
            page.get_by_role("button", name=language).click()
        expect(page.locator("html")).to_have_attribute("lang", "tr")
    return context, page


def open_every_fold(page) -> None:
    page.evaluate(
        "() => document.querySelectorAll('details.rule-group').forEach((f) => { f.open = true; })"
    )


@pytest.mark.parametrize("size_name", ["360x740", "390x844"])
@pytest.mark.parametrize("language", ["English", "Türkçe"])
def test_every_field_says_its_choice_whole_on_a_phone(
    browser: Browser, live_server, screenshots, language: str, size_name: str
):
    context, page = house_page(browser, live_server, size_name, language)
    open_every_fold(page)
    found = page.evaluate(SWEEP, ARROW)
    assert found == {"cut": [], "unsaid": []}
    # No field makes the page scroll sideways; the lines wrap.
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner
    # A choice made with a finger: its whole words under it, and each line
    # is read with its select.
    page.locator("#opening_jack").select_option("under")
    expect(page.locator("#opening_jack-chosen")).to_be_visible()
    expect(page.locator("#opening_jack")).to_have_attribute(
        "aria-describedby", "opening_jack-chosen opening_jack-explained"
    )
    page.screenshot(
        path=screenshots / f"house-fields-{size_name}-{language[:2].lower()}.png", full_page=True
    )
    context.close()


#: Rules side by side whose fields do not start at the same height: the
#: tops of each open fold's fields, row by row of the fold's two columns.
UNEVEN = """() => {
  const uneven = [];
  for (const rules of document.querySelectorAll("details.rule-group[open] .rules")) {
    const fields = [...rules.querySelectorAll(".rule")].map(
      (rule) => rule.querySelector("select, input").getBoundingClientRect());
    for (let i = 0; i + 1 < fields.length; i += 2) {
      if (fields[i].left >= fields[i + 1].left) uneven.push("one column: " + i);
      else if (Math.abs(fields[i].top - fields[i + 1].top) > 1) uneven.push("row " + i / 2);
    }
  }
  return uneven;
}"""


@pytest.mark.parametrize("size_name", ["1280x700", "1280x800"])
@pytest.mark.parametrize("language", ["English", "Türkçe"])
def test_house_rules_fit_a_laptop(
    browser: Browser, live_server, screenshots, language: str, size_name: str
):
    """On a laptop the page's start button is in sight with the folds
    closed (the games on a line, the match and level side by side), and an
    open fold's rules stand in two columns whose fields line up."""
    context, page = house_page(browser, live_server, size_name, language)
    start = page.locator("form[data-base] button[type=submit]")
    box = start.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= SIZES[size_name]["height"]
    assert page.evaluate("scrollY") == 0
    open_every_fold(page)
    assert page.evaluate(UNEVEN) == []
    found = page.evaluate(SWEEP, ARROW)
    assert found == {"cut": [], "unsaid": []}
    page.screenshot(
        path=screenshots / f"house-fields-{size_name}-{language[:2].lower()}.png", full_page=True
    )
    context.close()
