"""What a screen reader's user meets at the table, in Chromium: where the
focus goes after a play, and what the live region reads out."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, play_card, settled, settled_when_ready, wait_settled
from tests.e2e.test_table_aids import CAPTURE_SEED, deal, set_aid

#: Record each change of the live region's content that a screen reader
#: would read out (made while the region is not marked busy), as its text.
WATCH_THE_LIVE_REGION = """() => {
  window.told = [];
  const live = document.querySelector(".live");
  new MutationObserver(() => {
    if (live.getAttribute("aria-busy") !== "true") window.told.push(live.innerText);
  }).observe(live, { childList: true, subtree: true, characterData: true });
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_card_pressed_without_a_pointer_keeps_the_focus_in_the_hand(
    browser: Browser, live_server, motion
):
    """A card pressed by a screen reader or voice control (a click no
    pointer made, ``detail`` 0, and no key reaching the page) leaves the
    focus on the hand's first card once the replies have landed, as a key
    does: not on the page's body, from where a screen reader starts again
    at the top of the page."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    page = context.new_page()
    deal(page, live_server, f"no-pointer-{motion}")
    before = settled_when_ready(page)
    page.locator(".hand button").first.dispatch_event("click")
    wait_settled(page, before)
    expect(page.locator(".hand button")).to_have_count(3)
    expect(page.locator(".hand button").first).to_be_focused()
    context.close()


def test_an_aids_change_does_not_read_the_log_again(page: Page, live_server):
    """Turning an aid on updates the page in place; the log's live region,
    whose lines are the same, is left alone, so a screen reader does not
    read the last round out a second time."""
    deal(page, live_server, "aids-quiet")
    settled_when_ready(page)
    assert play_card(page, page.locator(".hand button").first)
    page.evaluate(WATCH_THE_LIVE_REGION)
    set_aid(page, "Played-cards counter", True)
    expect(page.locator(".counter")).to_be_visible()
    assert page.evaluate("window.told") == []
    # A play after it is read out, once.
    assert play_card(page, page.locator(".hand button").first)
    told = page.evaluate("window.told")
    assert len(told) == 1 and told[0].count("You played") == 1


#: Record the text of each piece added to the live region that a screen
#: reader would read out (added while the region is not marked busy).
WATCH_WHAT_IS_ADDED = """() => {
  window.added = [];
  const live = document.querySelector(".live");
  new MutationObserver((changes) => {
    if (live.getAttribute("aria-busy") === "true") return;
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.textContent.trim()) window.added.push(node.textContent.trim());
      }
    }
  }).observe(live, { childList: true, subtree: true });
}"""


def test_hints_are_read_out_and_alone_when_turned_on(page: Page, live_server):
    """The hints are in the live region: a play reads out its lines and
    the next turn's hint; turning the hints on reads the hint alone, not
    the plays again, and turning them off reads nothing."""
    deal(page, live_server, CAPTURE_SEED)
    settled_when_ready(page)
    expect(page.locator(".live .hints li").first).to_contain_text("The Hard level would play")
    page.evaluate(WATCH_WHAT_IS_ADDED)
    assert play_card(page, page.locator(".hand button").first)
    added = " ".join(page.evaluate("window.added"))
    assert added.count("You played") == 1 and added.count("The Hard level would play") == 1
    page.evaluate("window.added = []")
    set_aid(page, "Hints on your turn", False)
    expect(page.locator(".hints")).to_have_count(0)
    assert page.evaluate("window.added") == []
    set_aid(page, "Hints on your turn", True)
    added = page.evaluate("window.added")
    assert len(added) == 1 and added[0].startswith("Hint The Hard level would play"), added


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_end_of_a_hand_reads_out_its_last_plays(browser: Browser, live_server, motion):
    """The hand's last card played with a click or a tap: the result's
    heading takes the focus (a screen reader reads who won) and the live
    region reads out the result and the hand's last plays - the
    computer's last card, which the table's log never read out - once."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    page = context.new_page()
    deal(page, live_server, f"last-plays-{motion}")
    settled_when_ready(page)
    for _ in range(23):  # all but your last card of the hand
        assert play_card(page, page.locator(".hand button").first)
    page.evaluate(WATCH_THE_LIVE_REGION)
    before = settled(page)
    page.locator(".hand button").first.click()
    wait_settled(page, before)
    expect(page.locator(".verdict")).to_be_focused()
    told = page.evaluate("window.told")
    assert len(told) == 1, told
    assert "points to" in told[0]
    assert "The last plays" in told[0] and "The computer played" in told[0]
    assert page.locator(".verdict:focus-visible").count() == 0
    context.close()


def test_the_lessons_word_on_a_wrong_card_is_read_out_each_time(page: Page, live_server):
    """A wrong card at Aunt Hayriye's lesson, tried twice: her word on it
    (an alert in the live region) is read out both times, though the page
    is the same."""
    page.goto(f"{live_server}/story/lesson")
    settled_when_ready(page)
    # Her first question: the 7 of hearts takes the 7 of clubs.
    assert play_card(page, page.get_by_role("button", name="7 of hearts"))
    expect(page.get_by_role("heading", name="A pişti")).to_be_visible()
    page.evaluate(WATCH_THE_LIVE_REGION)
    for tries in (1, 2):
        before = settled(page)
        page.get_by_role("button", name="Jack of clubs").click()
        wait_settled(page, before)
        told = page.evaluate("window.told")
        assert len(told) == tries and "no pişti" in told[-1], told


def test_the_face_down_cards_your_side_took_are_read_apart(page: Page, live_server):
    """The face-down centre cards your side has taken, shown beside the
    pile, are read as a list ("Ace of clubs, Jack of diamonds, 3 of
    clubs"), not as names run together."""
    deal(page, live_server, "abc", "partners")
    settled_when_ready(page)
    for _ in range(2):  # North takes the centre's face-down cards
        assert play_card(page, page.locator(".hand button").first)
    names = page.locator(".seen-cards .visually-hidden").all_text_contents()
    assert len(names) == 3
    read = "".join(names)  # the faces are hidden from a screen reader
    assert read == ", ".join(name.rstrip(", ") for name in names), read
    assert " of " in names[0]
