"""The table in Chromium: whole games fit every screen without scrolling;
cards move instead of blanking, the pile and the score stay visible while
they do, a click or a key skips to the end, the hand takes no play before
the replies have landed; nothing moves with reduced motion or after a
reload, an aids change or a language switch; and no JavaScript works."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from app.engine import CARDEMS, would_capture
from tests.e2e.conftest import (
    cards_in_hand,
    first_seed,
    never_answer_the_first,
    play_card,
    settled,
    take_deal,
    wait_settled,
)

SIZES = {
    "1280x700": {"width": 1280, "height": 700},
    "1280x800": {"width": 1280, "height": 800},
    "1440x900": {"width": 1440, "height": 900},
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
    # Phones held sideways.
    "844x390": {"width": 844, "height": 390},
    "667x375": {"width": 667, "height": 375},
}

#: What a player must see at every moment, each box inside the window.
SEEN = {
    "table": ".table",
    "hand": ".you .hand",
    "scores": ".scoreboard",
    "last action": ".happened",
    "pile": ".pile",
}

#: Samples, in the page, whether the pile and the scores are visible and
#: whether anything is moving.
SAMPLE = """() => {
  const shown = (element) => {
    if (!element) return false;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return box.width > 0 && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight
      && style.visibility === "visible" && Number(style.opacity) === 1;
  };
  const pile = document.querySelector(".pile");
  return {
    state: document.documentElement.dataset.state,
    moving: document.getAnimations().filter((a) => a.playState === "running").length,
    pile: shown(pile) && pile.querySelectorAll(".card").length > 0,
    score: shown(document.querySelector(".scoreboard")),
    taken: document.querySelector(".pile[data-taken-by]") !== null,
    ghosts: document.querySelectorAll(".ghost").length,
  };
}"""

#: Counts the centres put in place (one per step of a play) in window.steps.
COUNT_STEPS = """() => {
  window.steps = 0;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType === 1 && (node.matches("[data-region=centre]")
            || node.querySelector("[data-region=centre]"))) window.steps += 1;
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
}"""


def you_can_capture(state) -> bool:
    return any(would_capture(card, state.pile_top) for card in state.hands[0])


def deal(page: Page, live_server: str, seed: str, rules: str = "cardems") -> None:
    """Open a deal link and start the deal, up to the table's page load."""
    page.goto(f"{live_server}/deal/{seed}?rules={rules}")
    take_deal(page)
    expect(page.locator(".hand button").first).to_be_visible()


def assert_fits(page: Page) -> None:
    """No scrolling, the table, hand, scores and last action in view, and
    the stock's count on one line ("Stock: 32", not "Stock:" over "32")."""
    height, width, inner_height, inner_width = page.evaluate(
        "[document.scrollingElement.scrollHeight, document.scrollingElement.scrollWidth,"
        " innerHeight, innerWidth]"
    )
    assert height <= inner_height, f"scrolls: {height} > {inner_height}"
    assert width <= inner_width, f"scrolls sideways: {width} > {inner_width}"
    for name, selector in SEEN.items():
        box = page.locator(selector).first.bounding_box()
        assert box is not None, name
        assert box["y"] >= 0 and box["y"] + box["height"] <= inner_height + 0.5, name
    # Line boxes of the count's words (the element itself is one box).
    lines = page.locator(".stock > .count").evaluate_all(
        """els => els.map(e => {
            const words = document.createRange();
            words.selectNodeContents(e);
            return new Set([...words.getClientRects()].map(r => Math.round(r.top))).size;
        })"""
    )
    assert lines in ([], [1]), f"the stock's count takes {lines} lines"
    # Each side's name clear of its chips (with three or four sides it
    # once ran under them at 380-420 px).
    covered_chips = page.evaluate(
        """() => [...document.querySelectorAll('.scoreboard .side')].flatMap(side => {
            const words = document.createRange();
            words.selectNodeContents(side.querySelector('.who'));
            const lines = [...words.getClientRects()];
            return [...side.querySelectorAll('.chip')].filter(chip => {
                const c = chip.getBoundingClientRect();
                return lines.some(r => Math.min(r.right, c.right) - Math.max(r.left, c.left) > 1
                    && Math.min(r.bottom, c.bottom) - Math.max(r.top, c.top) > 1);
            }).map(chip => chip.textContent.trim());
        })"""
    )
    assert covered_chips == [], f"a side's name over {covered_chips}"
    # The language links, in the page's bottom corner, cover no words of
    # the board.
    covered = page.evaluate(
        """() => {
          const lines = (element) => {
            const found = [];
            const words = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
            while (words.nextNode()) {
              // Words shown: not blank, not in a closed panel, not visually hidden.
              const holder = words.currentNode.parentElement;
              const box = holder.getBoundingClientRect();
              if (!words.currentNode.data.trim() || !holder.checkVisibility()) continue;
              if (box.width <= 1 || box.height <= 1) continue;
              const range = document.createRange();
              range.selectNodeContents(words.currentNode);
              found.push(...[...range.getClientRects()].filter((box) => box.width && box.height));
            }
            return found;
          };
          const meets = (a, b) =>
            a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const foot = lines(document.querySelector('.foot'));
          // (A line scrolled out of its part's box is not shown.)
          const shown = (part) =>
            lines(part).filter((line) => meets(line, part.getBoundingClientRect()));
          return [...document.querySelectorAll('.board > *')]
            .filter((part) => shown(part).some((line) => foot.some((own) => meets(line, own))))
            .map((part) => part.className);
        }"""
    )
    assert covered == [], f"the language links cover {covered}"
    # Each seat's card count lies on the felt, not over its edge.
    felt = page.locator(".table").first.bounding_box()
    for badge in page.locator(".seat .backs-count").all():
        box = badge.bounding_box()
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"]


def a_card(page: Page):
    """A capturing card when the page marks one, else the first card."""
    capturing = page.locator(".hand button.captures")
    return capturing.first if capturing.count() else page.locator(".hand button").first


def table_text(page: Page) -> list[str]:
    return [page.locator(s).first.inner_text() for s in (".table", ".scoreboard", ".happened")]


@pytest.mark.parametrize("size_name", list(SIZES))
@pytest.mark.parametrize("rules", ["cardems", "classic", "partners"])
def test_whole_game_fits_the_screen(
    browser: Browser, live_server, screenshots, rules: str, size_name: str
):
    context = browser.new_context(viewport=SIZES[size_name], reduced_motion="reduce")
    page = context.new_page()
    # A game in progress first, so the "other games in progress" notice shows too.
    deal(page, live_server, f"fit-first-{rules}", rules)
    deal(page, live_server, f"fit-{rules}", rules)
    expect(page.locator(".kept")).to_be_visible()
    plays = 0
    while True:
        while cards_in_hand(page):
            assert_fits(page)
            if plays == 2:
                page.screenshot(path=screenshots / f"fit-{rules}-{size_name}.png")
            assert play_card(page, a_card(page))
            plays += 1
        next_hand = page.get_by_role("button", name="Next hand")
        if not next_hand.count():
            break
        with page.expect_navigation():  # to the page's load, styles and all
            next_hand.click()
    expect(page.locator(".verdict")).to_be_visible()
    assert plays >= (12 if rules == "partners" else 24)
    context.close()


@pytest.mark.parametrize("rules", ["cardems", "partners"])
def test_cards_move_and_the_pile_and_scores_stay_visible(
    browser: Browser, live_server, screenshots, rules: str
):
    context = browser.new_context(viewport=SIZES["1280x700"])
    page = context.new_page()
    deal(page, live_server, f"motion-{rules}", rules)
    samples = []
    for play in range(4):
        before = settled(page)
        a_card(page).click()
        while settled(page) == before:
            samples.append(page.evaluate(SAMPLE))
            if play == 1 and len(samples) % 4 == 0:
                page.screenshot(path=screenshots / f"motion-{rules}-{len(samples)}.png")
        samples.append(page.evaluate(SAMPLE))
    busy = [sample for sample in samples if sample["state"] == "busy"]
    assert busy, "no sample caught a play on its way"
    assert any(sample["moving"] for sample in busy), "nothing moved"
    assert all(sample["pile"] and sample["score"] for sample in samples), [
        sample for sample in samples if not (sample["pile"] and sample["score"])
    ]
    # The page left at the end is the table as it stands: a reload shows the
    # same, at once, with nothing moving.
    shown = table_text(page)
    page.reload()
    assert page.evaluate(SAMPLE)["moving"] == 0
    assert table_text(page) == shown
    context.close()


WATCH_THE_CAPTURE = """() => {
  window.captureSeen = {taken: false, ghosts: false};
  new MutationObserver(() => {
    const seen = window.captureSeen;
    seen.taken ||= document.querySelector(".pile[data-taken-by]") !== null;
    seen.ghosts ||= document.querySelector(".ghost") !== null;
  }).observe(document.documentElement, {childList: true, subtree: true, attributes: true});
}"""


def test_a_capture_slides_to_the_taker(page: Page, live_server):
    page.set_viewport_size(SIZES["1280x800"])
    deal(page, live_server, first_seed(CARDEMS, you_can_capture))
    take = page.locator(".hand button.captures").first
    expect(take).to_be_visible()
    before = settled(page)
    # Watched in the page, at every change, not sampled from here: a busy
    # machine's samples could miss the short moment the cards move.
    page.evaluate(WATCH_THE_CAPTURE)
    take.click()
    wait_settled(page, before)
    seen = page.evaluate("() => window.captureSeen")
    assert seen["taken"], "the taken pile was never shown"
    assert seen["ghosts"], "the taken cards did not move"
    expect(page.locator(".ghost")).to_have_count(0)
    expect(page.locator(".log li").first).to_contain_text("captured the pile")


def test_the_hands_last_cards_are_seen_before_its_score(page: Page, live_server, screenshots):
    """The hand's last play: the computer's last card lands on the pile and
    its capture or the final sweep is shown on the table before the score
    page takes its place."""
    page.set_viewport_size(SIZES["390x844"])
    page.emulate_media(reduced_motion="reduce")
    deal(page, live_server, "last-seen")
    for _ in range(23):  # all but your last card
        assert play_card(page, page.locator(".hand button").first)
    page.emulate_media(reduced_motion="no-preference")
    before, samples = settled(page), []
    page.locator(".hand button").first.click()
    while settled(page) == before:
        samples.append(
            page.evaluate(
                """() => ({
                    taken: document.querySelector(".pile[data-taken-by]") !== null,
                    caption: document.querySelector("#pile-count")?.textContent || "",
                    score: document.querySelector(".verdict") !== null,
                })"""
            )
        )
        if samples[-1]["taken"] and len(samples) % 5 == 0:
            page.screenshot(path=screenshots / "last-cards-390x844.png")
    held = [sample for sample in samples if sample["taken"] and not sample["score"]]
    assert held, "the hand's last cards were never shown on the table"
    assert re.search(r"(You take|The computer takes) \d+ cards?", held[-1]["caption"])
    expect(page.locator(".verdict")).to_be_visible()


def test_a_click_or_a_key_skips_to_the_end(page: Page, live_server):
    page.set_viewport_size(SIZES["1280x800"])
    deal(page, live_server, "skip", "partners")
    page.evaluate(COUNT_STEPS)
    for skip in (lambda: page.mouse.click(30, 120), lambda: page.keyboard.press("Shift")):
        page.evaluate("window.steps = 0")
        before = settled(page)
        page.locator(".hand button").first.click()
        page.wait_for_function("() => document.getAnimations().length > 0")
        skip()
        wait_settled(page, before)
        # Four plays would be four steps and the page: skipped, fewer.
        assert page.evaluate("window.steps") < 5
        shown = table_text(page)
        page.reload()
        assert table_text(page) == shown
        page.evaluate(COUNT_STEPS)


#: Counts, in window.drawn, each region put in place anew (its old one
#: taken out of the page), by name.
COUNT_REDRAWN = """() => {
  window.drawn = {};
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.removedNodes) {
        if (node.nodeType !== 1) continue;
        for (const region of [node, ...node.querySelectorAll("[data-region]")]) {
          const name = region.dataset.region;
          if (name) window.drawn[name] = (window.drawn[name] || 0) + 1;
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
}"""


def test_a_step_leaves_the_regions_it_does_not_change(page: Page, live_server):
    """At each step of a play (your card, then each reply) only the regions
    the step changes are drawn anew: a play that takes nothing leaves the
    score as it was until the page at its end. Every region was drawn anew
    at every step (five times a play at a table of four), costing a slow
    phone its style and layout for nothing."""
    page.set_viewport_size(SIZES["360x740"])
    deal(page, live_server, "e2e-quiet-3", "partners")
    score = page.locator("[data-region=score]")
    shown = score.inner_text()
    page.evaluate(COUNT_STEPS)
    page.evaluate(COUNT_REDRAWN)
    play_card(page, page.locator(".hand button").first)
    # Your card and the three replies, then the page.
    assert page.evaluate("window.steps") == 5
    # Nobody took a card (else this test needs another deal).
    assert score.inner_text() == shown
    drawn = page.evaluate("window.drawn")
    assert drawn["score"] == 1
    # The centre changes at every step.
    assert drawn["centre"] == 5


def test_the_hand_takes_no_play_before_the_replies_have_landed(page: Page, live_server):
    page.set_viewport_size(SIZES["1280x800"])
    deal(page, live_server, "no-double", "partners")
    buttons = page.locator(".hand button")
    first, second = buttons.nth(0).get_attribute("value"), buttons.nth(1).get_attribute("value")
    box = buttons.nth(1).bounding_box()
    before = settled(page)
    buttons.nth(0).click()
    # Clicking another card while the replies come in plays nothing.
    for _ in range(3):
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_settled(page, before)
    expect(page.locator(".log li").filter(has_text="You played")).to_have_count(1)
    hand = page.locator(".hand button").evaluate_all("bs => bs.map(b => b.value)")
    assert first not in hand and second in hand and len(hand) == 3
    page.reload()
    assert page.locator(".hand button").evaluate_all("bs => bs.map(b => b.value)") == hand


def test_a_mouse_play_leaves_no_card_looking_selected(page: Page, live_server):
    page.set_viewport_size(SIZES["390x844"])
    deal(page, live_server, "no-ring")
    play_card(page, page.locator(".hand button").first)
    assert page.evaluate("document.activeElement.closest('.hand') === null")
    assert page.locator(".hand :focus-visible").count() == 0


def test_reduced_motion_moves_nothing(browser: Browser, live_server):
    context = browser.new_context(viewport=SIZES["1280x800"], reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, "calm", "partners")
    page.evaluate(
        """() => {
          window.mostMoving = 0;
          const look = () => {
            window.mostMoving = Math.max(window.mostMoving, document.getAnimations().length);
            requestAnimationFrame(look);
          };
          look();
        }"""
    )
    for _ in range(3):
        assert play_card(page, page.locator(".hand button").first)
    assert page.evaluate("window.mostMoving") == 0
    expect(page.locator(".log li").first).to_contain_text("You played")
    context.close()


@pytest.mark.parametrize("touch", [True, False], ids=["double tap", "double click"])
def test_a_double_tap_plays_one_card(browser: Browser, live_server, touch):
    # With reduced motion the replies land within a tap's time, so the
    # second tap of a double tap fell on the card that had come under it.
    context = browser.new_context(
        viewport=SIZES["390x844"], reduced_motion="reduce", has_touch=touch
    )
    page = context.new_page()
    deal(page, live_server, "twice")
    page.wait_for_function("document.documentElement.dataset.state === 'ready'")
    # What the browser made of the two presses: a pair (detail 2) is one
    # play; on a machine so busy that they came too far apart, two presses.
    page.evaluate(
        "window.presses = [];"
        "document.addEventListener('click', (e) => e.target.closest('.hand button')"
        " && window.presses.push(e.detail), true)"
    )
    # Near the first card's right edge: after the play, the next card is there.
    box = page.locator(".hand button").first.bounding_box()
    x, y = box["x"] + box["width"] * 0.9, box["y"] + box["height"] / 2
    for press in range(2):
        if touch:
            page.touchscreen.tap(x, y)
        else:
            # The second press of a double click, as the browser gets it.
            page.mouse.move(x, y)
            page.mouse.down(click_count=press + 1)
            page.mouse.up(click_count=press + 1)
        page.wait_for_timeout(150)
    page.wait_for_function("document.documentElement.dataset.state === 'ready'")
    presses = page.evaluate("window.presses")
    assert len(presses) == 2 and presses[0] == 1
    assert cards_in_hand(page) == (3 if presses[1] > 1 else 2), presses
    # A press on a card once the play has landed is a play of its own.
    page.wait_for_timeout(600)
    before = cards_in_hand(page)
    assert play_card(page, page.locator(".hand button").last)
    assert cards_in_hand(page) == before - 1
    context.close()


@pytest.mark.parametrize(
    ("reaches_server", "told"),
    [(False, None), (True, "That card was already played")],
    ids=["lost on the way", "answer lost"],
)
def test_a_play_whose_answer_never_comes_is_sent_again(
    browser: Browser, live_server, reaches_server, told
):
    # A play whose answer never comes (a connection that died on the way)
    # left the table busy for good. After 15 s it is sent again the
    # ordinary way: the server plays it once, or, when the first one was
    # played and only its answer lost, says so.
    context = browser.new_context(viewport=SIZES["390x844"], reduced_motion="reduce")
    page = context.new_page()
    page.clock.install()
    held = never_answer_the_first(page, "**/play", reaches_server=reaches_server)
    deal(page, live_server, f"unanswered-{reaches_server}")
    page.locator(".hand button").first.click()
    page.wait_for_function("document.documentElement.dataset.state === 'busy'")
    held.wait(page, reaches_server)
    page.clock.run_for(14_000)
    assert page.evaluate("document.documentElement.dataset.state") == "busy"
    with page.expect_navigation():
        page.clock.run_for(2_000)
    assert len(held.routes) == 1
    assert cards_in_hand(page) == 3
    if told:
        expect(page.locator("[role=alert]")).to_contain_text(told)
    else:
        expect(page.locator(".log li").first).to_contain_text("You played")
        expect(page.locator(".alert")).to_have_count(0)
    context.close()


def test_a_play_whose_answer_never_comes_while_offline_keeps_the_table(
    browser: Browser, live_server
):
    # The phone went offline while the play's answer was awaited: after
    # 15 s the play is not sent again the ordinary way (the browser would
    # show its "no internet" page, and stay there), the table stays with
    # its note and is read again, as it stands, once the network is back.
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    page.clock.install()
    held = never_answer_the_first(page, "**/play", reaches_server=True)
    deal(page, live_server, "unanswered-offline")
    page.locator(".hand button").first.click()
    page.wait_for_function("document.documentElement.dataset.state === 'busy'")
    held.wait(page, reaches_server=True)
    context.set_offline(True)
    page.clock.run_for(16_000)
    assert page.url == f"{live_server}/game"
    expect(page.locator(".happened .alert")).to_contain_text("You are offline")
    expect(page.locator(".you .hand")).to_have_class("hand offline")
    with page.expect_navigation(url=f"{live_server}/game"):
        context.set_offline(False)
    assert len(held.routes) == 1
    assert cards_in_hand(page) == 3
    expect(page.locator(".log li").first).to_contain_text("You played")
    context.close()


def test_aids_change_in_place_and_nothing_replays(page: Page, live_server):
    page.set_viewport_size(SIZES["1280x800"])
    deal(page, live_server, "in-place")
    play_card(page, page.locator(".hand button").first)
    page.evaluate("window.samePage = true")
    page.locator("details.settings summary").click()
    before = settled(page)
    page.get_by_label("Played-cards counter").check()
    wait_settled(page, before)
    expect(page.locator(".counter li")).to_have_count(13)
    expect(page.locator("details.settings")).to_have_attribute("open", "")
    assert page.evaluate("window.samePage === true"), "the page was reloaded"
    assert page.evaluate("document.getAnimations().length") == 0
    # A reload and a language switch show the table at once.
    page.reload()
    assert page.evaluate("document.getAnimations().length") == 0
    with page.expect_navigation():
        page.get_by_role("button", name="Türkçe").click()
    assert page.evaluate("document.getAnimations().length") == 0
    expect(page.locator(".log li").first).to_contain_text("oynadınız")


def test_whole_game_without_javascript(browser: Browser, live_server):
    context = browser.new_context(viewport=SIZES["390x844"], java_script_enabled=False)
    page = context.new_page()
    deal(page, live_server, "no-script")
    plays = 0
    while cards_in_hand(page):
        assert_fits(page)
        with page.expect_navigation():
            a_card(page).click()
        plays += 1
        if page.locator(".hand button").count():
            expect(page.locator(".log li").first).to_contain_text("You played")
            # The steps are inert templates: never shown.
            expect(page.locator(".frame .table")).to_have_count(0)
    assert plays == 24
    expect(page.locator(".verdict")).to_be_visible()
    context.close()


def test_your_card_stays_on_the_table_while_the_play_is_posted(
    browser: Browser, live_server, screenshots
):
    # With six cards fanned on the pile, the card going to its top used to
    # slide past the right edge of a phone while the server answered.
    context = browser.new_context(viewport=SIZES["390x844"])
    page = context.new_page()
    deal(page, live_server, "lift-2")
    throw = ".hand button:not(.captures):not([value^=J])"
    for _ in range(2):  # nothing taken: the pile grows
        assert play_card(page, page.locator(throw).first)
    assert page.locator(".pile .fan .card").count() >= 6
    held = []
    page.route("**/play", lambda route: held.append(route))
    button = page.locator(".hand button").first
    button.click()
    page.wait_for_timeout(600)  # the card's slide (250 ms) is over; the POST is held
    assert held, "the play was not posted"
    box = button.locator("[data-flip]").bounding_box()
    table = page.locator(".table").bounding_box()
    page.screenshot(path=screenshots / "lift-wide-pile-390.png")
    assert box["x"] + box["width"] <= table["x"] + table["width"] + 0.5
    assert box["x"] >= page.locator(".pile .fan .card.top").bounding_box()["x"] - 0.5
    held[0].continue_()
    page.unroute("**/play")
    expect(page.locator(".log")).to_contain_text("You played")
    context.close()
