"""Reviewing a finished game in the browser: the final page's button, the
steps, a mistake's mark, the hidden cards on request, and the summary's
progress bar running to its end; uploaded records told in plain words, in
English and Turkish."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from app.engine import CLASSIC, PARTNERS, with_options
from tests.e2e.conftest import (
    COUNT_TIMERS,
    cards_in_hand,
    one_line_apart,
    play_card,
    play_out,
    set_hidden,
    submit,
    take_deal,
)
from tests.e2e.test_glance_in_browser import inside
from tests.web.test_review_pages import finished_record

SIZES = {
    "phone-390": {"width": 390, "height": 844},
    "phone-360": {"width": 360, "height": 740},
    "laptop-700": {"width": 1280, "height": 700},
    "laptop-800": {"width": 1280, "height": 800},
}


def shoot(page: Page, screenshots, name: str) -> None:
    """Screenshot the page at both phone and both laptop sizes."""
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        page.screenshot(path=screenshots / f"{name}-{size_name}.png", full_page=True)


def serious_violations(page: Page) -> list[str]:
    """The ids of axe-core's serious and critical findings on the page, in
    its light colours and its dark ones (``prefers-color-scheme: dark``)."""
    found = []
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        result = Axe().run(page)
        found += [
            f"{scheme}: {violation['id']}"
            for violation in result.response["violations"]
            if violation["impact"] in ("serious", "critical")
        ]
    return found


def test_review_a_finished_game(page: Page, live_server, screenshots):
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server + "/")
    page.get_by_label("Seed").fill("e2e-review")
    submit(page, page.get_by_role("button", name="Deal from a seed"))
    submit(page, page.get_by_role("button", name="Start this deal"))
    # Play badly on purpose: never take the pile when a card could.
    while cards_in_hand(page):
        keeps = page.locator(".hand button:not(.captures)")
        play_card(page, keeps.first if keeps.count() else page.locator(".hand button").first)
    page.get_by_role("button", name="Review this game").click()

    expect(page.get_by_role("heading", name=re.compile(r"Decision 1 of \d+"))).to_be_visible()
    expect(page.locator("table.estimates tbody tr.played")).to_have_count(1)
    expect(page.locator("table.estimates tbody tr").first).to_contain_text("best")
    page.get_by_role("link", name="Next").first.click()
    expect(page.get_by_role("heading", name=re.compile(r"Decision 2 of"))).to_be_visible()
    page.get_by_role("link", name="Previous").first.click()
    expect(page.get_by_role("heading", name=re.compile(r"Decision 1 of"))).to_be_visible()
    # The arrow keys step too, as the links' aria-keyshortcuts say.
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("heading", name=re.compile(r"Decision 2 of"))).to_be_visible()
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("heading", name=re.compile(r"Decision 1 of"))).to_be_visible()
    expect(page.get_by_role("navigation", name="Decisions")).to_have_count(1)
    # By Tab and Enter: the focus stays on Next in the next decision, so
    # Enter steps on without tabbing back from the top.
    page.get_by_role("link", name="Next").first.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=re.compile(r"Decision 2 of"))).to_be_visible()
    expect(page.get_by_role("link", name="Next").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name=re.compile(r"Decision 3 of"))).to_be_visible()
    expect(page.get_by_role("link", name="Next").first).to_be_focused()

    page.get_by_role("link", name="Summary").first.click()
    progress = page.locator("#review-progress")
    if progress.count():
        shoot(page, screenshots, "review-progress")
    # The script moves the bar and reloads the page once every step is done.
    expect(page.locator(".review-figures")).to_be_visible(timeout=120_000)
    expect(page.locator("#review-progress")).to_have_count(0)
    total = page.locator("table.per-decision tbody tr").count()
    assert total > 0
    # Up to three: a play the step page calls good is not a costly one.
    assert 1 <= page.locator(".costliest li").count() <= min(3, total)
    shoot(page, screenshots, "review-summary")
    assert serious_violations(page) == []

    mistakes = page.locator("table.per-decision tr.mistake-row")
    assert mistakes.count() > 0, "a game thrown away on purpose has mistakes"
    mistakes.first.locator("a").click()
    expect(page.locator(".mistake-line .mark.mistake")).to_be_visible()
    expect(page.locator("table.estimates tr.played .mark.mistake")).to_be_visible()
    expect(page.locator(".review-verdict .why")).not_to_be_empty()
    shoot(page, screenshots, "review-mistake")
    assert serious_violations(page) == []

    hidden_before = page.locator(".review-seat.opponent svg.card").count()
    assert hidden_before == 0
    page.get_by_role("link", name="Show the hidden cards").click()
    expect(page.locator(".review-seat.opponent svg.card").first).to_be_visible()
    shoot(page, screenshots, "review-revealed")
    # The summary leads back to the game's final page.
    page.get_by_role("link", name="Summary").first.click()
    page.get_by_role("link", name="Back to your game").click()
    expect(page.locator(".verdict")).to_be_visible()
    expect(page.get_by_role("button", name="Review this game")).to_be_visible()


def upload_record(page: Page, live_server, path) -> None:
    """Upload the record file at ``path`` on the "Review a game record" page."""
    page.goto(live_server + "/review/")
    page.locator("input[type=file]").set_input_files(path)
    page.locator("form[action$='/review/upload'] button").click()


def test_an_uploaded_record_is_told_in_plain_words(
    browser: Browser, live_server, screenshots, tmp_path
):
    """A three-player house record that does not name the player's seat,
    in English; a partners record naming seat 1 "you", in Turkish: the
    header in the table's words, seats by position, the seat named "you"
    its recorder's (this browser did not play it), never "You"."""
    three = finished_record(with_options(CLASSIC, {"players": 3, "jack_pisti": 10}), "e2e-three")
    (tmp_path / "three.json").write_text(json.dumps(three))
    partners = finished_record(PARTNERS, "e2e-partners")
    partners["players"] = ["West", "you", "East", "North"]
    (tmp_path / "partners.json").write_text(json.dumps(partners))

    english = browser.new_context(locale="en-GB", reduced_motion="reduce")
    page = english.new_page()
    upload_record(page, live_server, tmp_path / "three.json")
    expect(page.locator(".review-who")).to_have_text(
        ["Seat 0 (plays first)", "East", "West", re.compile("The pile")]
    )
    expect(page.locator("header")).to_contain_text("Review · Classic · 3 players · Jack pişti 10")
    expect(page.locator(".review-verdict h2")).to_contain_text("Card played:")
    shoot(page, screenshots, "review-upload-step")
    page.get_by_role("link", name="Summary").first.click()
    expect(page.locator(".review-figures")).to_be_visible(timeout=120_000)
    expect(page.locator("table.per-decision thead")).to_contain_text("Card played")
    shoot(page, screenshots, "review-upload-summary")
    assert serious_violations(page) == []
    english.close()

    turkish = browser.new_context(locale="tr-TR", reduced_motion="reduce")
    page = turkish.new_page()
    upload_record(page, live_server, tmp_path / "partners.json")
    expect(page.locator(".review-who")).to_have_text(
        ["Batı", "Kaydeden oyuncu", "Doğu", "Kuzey eş", re.compile("Yerdeki kartlar")]
    )
    expect(page.locator("header")).to_contain_text("İnceleme · Eşli")
    expect(page.locator(".review-verdict h2")).to_contain_text("Oynanan kart:")
    shoot(page, screenshots, "review-upload-step-tr")
    # On a laptop the seats sit where the table draws them: North across,
    # West and East to the left and right of the pile, the player below.
    page.set_viewport_size(SIZES["laptop-800"])
    box = {
        place: page.locator(f".review-table .{place}").bounding_box()
        for place in ("at-north", "at-west", "at-east", "pile-place", "you")
    }
    table = page.locator(".review-table").bounding_box()
    north, west, east, pile, you = box.values()
    assert north["y"] + north["height"] <= west["y"] and west["y"] == east["y"]
    assert west["x"] + west["width"] < east["x"]
    assert west["y"] + west["height"] <= pile["y"] and pile["y"] + pile["height"] <= you["y"]
    middle = table["x"] + table["width"] / 2
    assert abs(north["x"] + north["width"] / 2 - middle) < 2
    assert abs(you["x"] + you["width"] / 2 - middle) < 2
    # The estimates, with the Turkish words for their ranges, fit a phone.
    page.set_viewport_size(SIZES["phone-360"])
    table = page.locator("table.estimates")
    assert table.evaluate("t => t.scrollWidth - t.parentElement.clientWidth") <= 0
    # The three-player record again: its summary is done already.
    upload_record(page, live_server, tmp_path / "three.json")
    expect(page.locator(".review-who").first).to_have_text("0 numaralı oyuncu (ilk oynayan)")
    expect(page.locator(".review-verdict h2")).to_contain_text("Oynanan kart:")
    page.get_by_role("link", name="Özet").first.click()
    expect(page.locator("table.per-decision thead")).to_contain_text("Oynanan kart")
    shoot(page, screenshots, "review-upload-summary-tr")
    assert serious_violations(page) == []
    turkish.close()


@pytest.mark.parametrize(
    "viewport",
    [{"width": 844, "height": 390}, {"width": 740, "height": 360}, {"width": 667, "height": 375}],
    ids=["844x390", "740x360", "667x375"],
)
def test_a_phone_held_sideways_shows_the_verdict_and_the_steps_in_the_first_screen(
    browser: Browser, live_server, screenshots, tmp_path, viewport
):
    """Held sideways, a step was one column: the verdict on the card
    played, under the table as the seat saw it, began 633-758 px down, a
    scroll at every step. The verdict now sits beside the table: its
    heading and words, and the links to the other steps, in the first
    screen, and Next leads on to the next decision. Previous, Summary and
    Next keep one line, above the table and under it, 8 px apart at
    least (at 667x375 Next wrapped onto a line of its own: the three took
    285 px of a 283 px column; they were 4.8 px apart)."""
    record = finished_record(PARTNERS, "e2e-sideways-step")
    (tmp_path / "sideways.json").write_text(json.dumps(record))
    context = browser.new_context(
        viewport=viewport, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )
    page = context.new_page()
    upload_record(page, live_server, tmp_path / "sideways.json")
    page.get_by_role("link", name="Next").first.click()
    heading = page.get_by_role("heading", name=re.compile(r"Decision 2 of"))
    expect(heading).to_be_visible()
    page.screenshot(path=screenshots / f"review-sideways-{viewport['width']}.png")
    assert page.evaluate("() => window.scrollY") == 0
    assert inside(page, heading, viewport)
    assert inside(page, page.locator(".review-verdict h2"), viewport)
    assert inside(page, page.locator(".review-verdict h2 + p"), viewport)
    steps = page.get_by_role("navigation", name="Decisions")
    for name in ("Previous", "Summary", "Next"):
        assert inside(page, steps.get_by_role("link", name=name), viewport)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    for links in page.locator(".review-nav").all():
        assert links.locator("a").count() == 3
        assert one_line_apart(links) >= 8
    steps.get_by_role("link", name="Next").click()
    expect(page.get_by_role("heading", name=re.compile(r"Decision 3 of"))).to_be_visible()
    context.close()


def test_the_summary_comes_in_place_and_keeps_the_focus(page: Page, live_server):
    """When the summary's job ends, the page puts the summary in place
    without a reload: the link the keyboard was on keeps the focus, and the
    progress text's live region, kept, says the summary is in."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server + "/deal/e2e-review-focus")
    take_deal(page)
    play_out(page)
    # The status says "running" until the test lets the real one through.
    held = {"running": True}

    def status(route):
        if held["running"]:
            route.fulfill(
                json={"status": "running", "done": 1, "total": 18, "ahead": None, "busy": False}
            )
        else:
            route.continue_()

    page.route("**/status", status)
    page.get_by_role("button", name="Review this game").click()
    page.get_by_role("link", name="Summary").first.click()
    expect(page.locator("#review-progress")).to_be_visible()
    link = page.get_by_role("link", name="Step through the decisions")
    link.focus()
    page.evaluate("window.notReloaded = true")
    held["running"] = False
    expect(page.locator(".review-figures")).to_be_visible(timeout=60_000)
    expect(link).to_be_focused()
    assert page.evaluate("window.notReloaded === true")
    expect(page.locator("#review-progress-text")).to_have_text(
        "The review is done: the summary is below."
    )
    expect(page).to_have_title("Review summary · Pişti")


def test_a_photo_picked_as_a_record_is_refused_before_it_is_sent(page: Page, live_server):
    page.goto(f"{live_server}/review/")
    sent = []
    page.on(
        "request", lambda request: sent.append(request.url) if request.method == "POST" else None
    )
    photo = {"name": "photo.png", "mimeType": "image/png", "buffer": b"\x89PNG" + b"x" * 200_000}
    page.locator("#record").set_input_files(photo)
    page.get_by_role("button", name="Review this record").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "That file is too big to be a game record: a record is about 1 KB, at most 8 KB."
    )
    assert sent == []
    assert page.evaluate("document.activeElement.id") == "record"


INSETS = """e => {
  const box = e.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(e);
  const words = range.getBoundingClientRect();
  const first = e.firstElementChild ? e.firstElementChild.getBoundingClientRect() : words;
  const last = e.lastElementChild ? e.lastElementChild.getBoundingClientRect() : words;
  return [Math.round(first.top - box.top), Math.round(box.bottom - last.bottom)];
}"""


def test_a_refused_record_is_said_in_a_box_like_every_other_alert(page: Page, live_server):
    """The upload's refusal sits as close to its box's edges as the alert of
    any other page (the 404's): its paragraph's own margins doubled the
    box's height, the server's words and the page's own alike."""
    page.goto(live_server + "/no-such-page")
    usual = page.get_by_role("alert").evaluate(INSETS)
    page.goto(live_server + "/review/")
    page.locator("#record").set_input_files(
        {"name": "notes.json", "mimeType": "application/json", "buffer": b'{"a": 1}'}
    )
    page.get_by_role("button", name="Review this record").click()
    refused = page.get_by_role("alert")
    expect(refused).to_contain_text("That file is not a game record.")
    top, bottom = refused.evaluate(INSETS)
    # Below the words, the folded reader's words keep a small gap of their own.
    assert top == usual[0] and bottom <= usual[1] + 8, (top, bottom, usual)
    photo = {"name": "photo.png", "mimeType": "image/png", "buffer": b"\x89PNG" + b"x" * 20_000}
    page.locator("#record").set_input_files(photo)
    page.get_by_role("button", name="Review this record").click()
    expect(refused).to_contain_text("That file is too big to be a game record")
    assert refused.evaluate(INSETS) == usual


def test_a_costly_moves_sentence_keeps_even_lines_on_a_phone(page: Page, live_server, tmp_path):
    """On a 360 px phone a costly move's sentence wraps: its first line,
    with the decision's link (a finger's height to tap), stood some 20 px
    apart from the next as if a new paragraph began."""
    record = finished_record(CLASSIC, "e2e-costly-lines")
    (tmp_path / "costly.json").write_text(json.dumps(record))
    page.set_viewport_size({"width": 360, "height": 740})
    upload_record(page, live_server, tmp_path / "costly.json")
    page.get_by_role("link", name="Summary").first.click()
    expect(page.locator(".review-figures")).to_be_visible(timeout=60_000)
    items = page.locator(".costliest li")
    assert items.count() >= 1
    for item in items.all():
        link = item.locator("a")
        assert link.bounding_box()["height"] >= 44
        # The link's sentence up to the mark or the reason: its lines'
        # bottoms evenly apart.
        bottoms = item.evaluate(
            """li => {
              const stop = li.querySelector('.mark, br');
              const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
              const bottoms = new Set();
              for (let text = walker.nextNode(); text; text = walker.nextNode()) {
                const after = stop && stop.compareDocumentPosition(text);
                if (after & Node.DOCUMENT_POSITION_FOLLOWING) break;
                const range = document.createRange();
                range.selectNodeContents(text);
                for (const r of range.getClientRects()) {
                  if (r.width) bottoms.add(Math.round(r.bottom));
                }
              }
              return [...bottoms].sort((a, b) => a - b);
            }"""
        )
        assert len(bottoms) >= 3, bottoms  # wrapped, or the test shows nothing
        steps = {b - a for a, b in itertools.pairwise(bottoms)}
        assert max(steps) - min(steps) <= 2, bottoms


def test_the_shown_cards_note_keeps_even_lines_on_a_phone(page: Page, live_server, tmp_path):
    """With the hidden cards shown, the note on what is shown goes under
    its link, in even lines: after the link and a "·" on the link's line,
    44 px tall, its first words stood apart from the rest."""
    record = finished_record(CLASSIC, "e2e-shown-note")
    (tmp_path / "shown.json").write_text(json.dumps(record))
    page.set_viewport_size({"width": 360, "height": 740})
    upload_record(page, live_server, tmp_path / "shown.json")
    page.get_by_role("link", name="Show the hidden cards").click()
    link = page.get_by_role("link", name="Hide those cards again")
    expect(link).to_be_visible()
    assert link.bounding_box()["height"] >= 44
    note = page.locator(".reveal-note")
    expect(note).to_have_text(re.compile(r"^Shown: the other hands"))
    assert note.bounding_box()["y"] >= link.bounding_box()["y"] + link.bounding_box()["height"] - 1


def wait_for_asks(page: Page, asked: list[int], count: int) -> None:
    """Runs the page's installed clock 100 ms at a time (with 100 ms of
    real time each, up to 20 s) until the page has asked for the review's
    status ``count`` times (``asked`` holds one entry an ask)."""
    for _ in range(200):
        if len(asked) >= count:
            return
        page.clock.run_for(100)
        page.wait_for_timeout(100)
    raise AssertionError("the page stopped asking for the status")


def test_the_progress_is_read_out_only_when_it_moves(page: Page, live_server):
    """The progress text is a live region and the page asks for the status
    every second: an answer that brings no new decision leaves the text as
    it is, so a screen reader does not read "2 of 18 decisions evaluated"
    out again every second while the Expert works."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server + "/deal/e2e-review-quiet")
    take_deal(page)
    play_out(page)
    answers = [2, 2, 2, 3]
    asked: list[int] = []

    def status(route):
        done = answers[min(len(asked), len(answers) - 1)]
        asked.append(done)
        route.fulfill(
            json={"status": "running", "done": done, "total": 18, "ahead": None, "busy": False}
        )

    page.route("**/status", status)
    page.clock.install()
    page.get_by_role("button", name="Review this game").click()
    page.get_by_role("link", name="Summary").first.click()
    expect(page.locator("#review-progress")).to_be_visible()
    page.evaluate(
        """() => {
          window.told = [];
          const text = document.getElementById("review-progress-text");
          new MutationObserver(() => window.told.push(text.textContent))
            .observe(text, { childList: true, subtree: true, characterData: true });
        }"""
    )
    # Each answer is shown before the next is asked for (real time, up to
    # 20 s each: the page's clock only runs when told to).
    for count in range(1, len(answers) + 1):
        wait_for_asks(page, asked, count)
    expect(page.locator("#review-progress-text")).to_have_text("3 of 18 decisions evaluated")
    assert page.evaluate("window.told") == [
        "2 of 18 decisions evaluated",
        "3 of 18 decisions evaluated",
    ]


def test_a_summary_stalled_for_a_while_says_so_until_it_moves(page: Page, live_server):
    """The status says a running summary stored nothing for a while (its
    server may have died: another takes it over within two minutes): the
    page says so while it lasts, and no longer once the bar moves."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server + "/deal/e2e-review-stalled")
    take_deal(page)
    play_out(page)
    answers = [(2, True), (3, False)]
    asked: list[int] = []

    def status(route):
        done, stalled = answers[min(len(asked), len(answers) - 1)]
        asked.append(done)
        route.fulfill(
            json={
                "status": "running",
                "done": done,
                "total": 18,
                "ahead": None,
                "busy": False,
                "stalled": stalled,
            }
        )

    page.route("**/status", status)
    page.clock.install()
    page.get_by_role("button", name="Review this game").click()
    page.get_by_role("link", name="Summary").first.click()
    stalled = page.locator("#review-stalled")
    expect(page.locator("#review-progress")).to_be_visible()
    for count, seen in ((1, True), (2, False)):
        wait_for_asks(page, asked, count)
        if seen:
            expect(stalled).to_be_visible()
            expect(stalled).to_contain_text("its server stopped")
        else:
            expect(stalled).to_be_hidden()


def test_the_progress_is_not_asked_for_while_nobody_sees_it(page: Page, live_server):
    """A summary's page left in a background tab, or on a phone whose
    screen is off, does not ask for the status every second (it woke the
    phone and its radio each second, the summary going on on the server
    all the same); seen again, it asks at once."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server + "/deal/e2e-review-hidden")
    take_deal(page)
    play_out(page)
    asked: list[int] = []

    def status(route):
        asked.append(2)
        route.fulfill(
            json={"status": "running", "done": 2, "total": 18, "ahead": None, "busy": False}
        )

    page.route("**/status", status)
    page.clock.install()
    page.get_by_role("button", name="Review this game").click()
    page.get_by_role("link", name="Summary").first.click()
    expect(page.locator("#review-progress")).to_be_visible()
    page.clock.run_for(1000)
    # The first answer is shown (the next ask is then waiting a second).
    expect(page.locator("#review-progress-text")).to_have_text("2 of 18 decisions evaluated")
    page.evaluate(COUNT_TIMERS)
    set_hidden(page, True)
    hidden_at = len(asked)
    # Ten seconds of the page's clock, each step given real time for an
    # ask to reach the server and its answer to come back.
    for _ in range(20):
        page.clock.run_for(500)
        page.wait_for_timeout(50)
    assert len(asked) == hidden_at
    assert page.evaluate("window.timersSet") == 0
    set_hidden(page, False)
    # Asked at once, the page's clock standing still.
    for _ in range(100):
        if len(asked) > hidden_at:
            break
        page.wait_for_timeout(100)
    assert len(asked) == hidden_at + 1


#: Each element's ring: the style of its outline, else of its border, else
#: "solid" for a box shadow; None when it has none.
RING_LINE = """(element) => {
  const s = getComputedStyle(element);
  if (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) return s.outlineStyle;
  if (s.borderTopStyle !== "none" && parseFloat(s.borderTopWidth) > 0) return s.borderTopStyle;
  return s.boxShadow === "none" ? null : "solid";
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_reviews_rings_differ_by_more_than_their_colour(
    browser: Browser, live_server, tmp_path, scheme
):
    """The rings round the card played (gold) and the best card (mint), and
    the legend's, differed only by colour: one yellow to a red-green
    colour-blind player. The best card's ring is dashed, the played card's
    solid, here as in the legend."""
    record = tmp_path / "record.json"
    record.write_text(json.dumps(finished_record(CLASSIC, "fc-review")))
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    upload_record(page, live_server, record)
    # Decision 1 of this record: Ace of hearts played, Jack of hearts the best.
    expect(page.locator(".review-card.played:not(.best)")).to_have_count(1)
    expect(page.locator(".review-card.best:not(.played)")).to_have_count(1)
    for name, line in (("played", "solid"), ("best", "dashed")):
        for selector in (f".review-card.{name}", f".review-legend .ring.{name}"):
            assert page.eval_on_selector(selector, RING_LINE) == line, selector
    context.close()
