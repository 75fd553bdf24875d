"""Label in Name (WCAG 2.2 SC 2.5.3) on every page and state of the axe
sweep (``test_accessibility_sweep.py``) and a table of three players, in
English and Turkish, on a phone and a laptop: every control shown (link,
button, summary, field) and every other stop of the Tab key has an
accessible name, and every word shown on a control is in that name, in
the order shown, so that a player who drives the browser by voice ("click
takes 5", "click Play again", "click 0 of 51 points") reaches it by the
words they see, said as they read them ("0 / 51 puan" is not named "0
puan, hedef 51").

The names are Chromium's own, read from its accessibility tree (CDP's
``Accessibility.getPartialAXTree``). What is shown is each text of the
control not hidden from the eye (text under ``.visually-hidden`` is for a
screen reader only); a field's is its labels'. Words are compared without
case, punctuation or symbols ("/", "·", "♥", "×" are not said). A text of
one letter is a symbol too, whose word the name says: the J, Q, K and A
in a card's corner ("Queen of diamonds", "Karo Kızı"). "pts", the match
total's, is said "points"."""

from __future__ import annotations

import unicodedata

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import resize, settled_when_ready, submit, take_deal, wait_settled
from tests.e2e.test_accessibility_sweep import SIZES, Sweep, drawn_pages, sweep_the_site

#: What a player can press or type in, and the page's other stops of the
#: Tab key (a box of lines that scroll).
CONTROLS = (
    "a[href], button, summary, input:not([type=hidden]), select, textarea, "
    "[tabindex]:not([tabindex='-1'])"
)
#: The controls shown, as an array (for the accessibility tree's look-up).
LISTED = f"[...document.querySelectorAll({CONTROLS!r})].filter((c) => c.checkVisibility())"
#: Each control's start tag and the texts it shows (see the module).
SHOWN = r"""function () {
  return this.map((control) => {
    const texts = [];
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) texts.push(node.textContent);
      else if (node instanceof Element && node.checkVisibility()
               && !node.matches(".visually-hidden")) node.childNodes.forEach(walk);
    };
    if (control.matches("input[type=submit], input[type=button]")) texts.push(control.value);
    else if (control.matches("input, select, textarea")) [...control.labels].forEach(walk);
    else if (control.matches("a[href], button, summary")) walk(control);
    return [control.outerHTML.split(">")[0] + ">", texts];
  });
}"""
#: Abbreviations shown, and the word a name says for each.
SAID_AS = {"pts": "points"}


def words(text: str) -> list[str]:
    """``text``'s words in lower case (Turkish dotted and dotless i as
    "i"), without punctuation or symbols."""
    text = text.replace("İ", "i").replace("I", "i").replace("ı", "i").lower()
    kept = "".join(" " if unicodedata.category(ch)[0] in "PSZC" else ch for ch in text)
    return kept.split()


def in_order(shown: list[str], said: list[str]) -> bool:
    """Whether ``said`` has every word of ``shown`` in the same order,
    other words between them allowed ("0 of 51 points" says "0 / 51
    pts")."""
    rest = iter(said)
    return all(word in rest for word in shown)


def mismatches(page: Page) -> list[str]:
    """A line for each control shown on ``page`` without a name, with a
    word shown that its name does not say ("<tag>: name 'N', missing
    [words]"), or whose name says the words shown in another order
    ("<tag>: name 'N', not in the order shown [words]")."""
    cdp = page.context.new_cdp_session(page)
    try:
        listed = cdp.send("Runtime.evaluate", {"expression": LISTED})["result"]["objectId"]
        shown = cdp.send(
            "Runtime.callFunctionOn",
            {"objectId": listed, "functionDeclaration": SHOWN, "returnByValue": True},
        )["result"]["value"]
        items = cdp.send("Runtime.getProperties", {"objectId": listed, "ownProperties": True})
        controls = [item["value"]["objectId"] for item in items["result"] if item["name"].isdigit()]
        found = []
        for (tag, texts), control in zip(shown, controls, strict=True):
            tree = cdp.send(
                "Accessibility.getPartialAXTree", {"objectId": control, "fetchRelatives": False}
            )
            name = tree["nodes"][0].get("name", {}).get("value", "")
            said = words(name)
            shown = [
                SAID_AS.get(word, word)
                for text in texts
                for word in words(text)
                if not (len(words(text)) == 1 and len(word) == 1 and word.isalpha())
            ]
            missing = [word for word in shown if word not in said]
            if not said or missing:
                found.append(f"{tag}: name {name!r}, missing {missing}")
            elif not in_order(shown, said):
                found.append(f"{tag}: name {name!r}, not in the order shown {shown}")
        return found
    finally:
        cdp.detach()


class NameSweep(Sweep):
    """Checks Label in Name (see the module) on each page of the sweep."""

    def check(self, state: str, page: Page | None = None) -> None:
        """Check the page as it stands (or ``page``) at each size."""
        page = page or self.page
        page.wait_for_load_state()
        self.states.append(state)
        for size_name, size in SIZES.items():
            resize(page, size)
            self.found += [f"{state}, {size_name}: {line}" for line in mismatches(page)]
        resize(page, SIZES["phone"])


@pytest.mark.parametrize(("locale", "language"), [("en-GB", "en"), ("tr-TR", "tr")])
def test_every_control_is_named_by_the_words_it_shows(
    browser: Browser, live_server, tmp_path_factory, locale, language
):
    context = browser.new_context(locale=locale, reduced_motion="reduce", viewport=SIZES["phone"])
    page = context.new_page()
    sweep = sweep_the_site(NameSweep(page), live_server, drawn_pages(tmp_path_factory, language))
    page.goto(live_server + "/deal/names-three?rules=classic&players=3")
    take_deal(page)
    settled_when_ready(page)
    sweep.check("three players")
    context.close()
    assert len(sweep.states) >= 36
    assert sweep.found == [], "\n".join(sweep.found)


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 360, "height": 740}])
def test_the_lines_that_scroll_on_a_phone_are_a_named_stop(browser: Browser, live_server, size):
    """After a play at a story table, the lines under the felt of a phone
    (the opponent's remark, the hint) scroll, and their box takes the focus
    in turn: a stop named by its section's heading, not a nameless one
    (reached by Tab or a switch, it said nothing of what it is)."""
    context = browser.new_context(locale="en-GB", reduced_motion="reduce", viewport=size)
    page = context.new_page()
    page.goto(live_server + "/story")
    submit(page, page.locator("form[action$='/lesson/skip'] button"))
    submit(page, page.locator("form[action$='/story/play'] button").first)
    before = settled_when_ready(page)
    page.locator(".hand button").first.click()
    wait_settled(page, before)
    box = page.locator(".said")
    assert box.get_attribute("tabindex") == "0"
    assert mismatches(page) == []
    expect(box).to_have_accessible_name("What just happened")
    context.close()
