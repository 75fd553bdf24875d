"""Mansion Evenings in Chromium: the path, the lesson's right and wrong
moves, remarks at the table, progress kept across a restart; screenshots at
phone and laptop sizes."""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from app import create_app
from app.story.lesson import STEPS, position
from app.web.i18n import card_name
from tests.conftest import serve
from tests.e2e.conftest import cards_in_hand, play_card

SIZES = {
    "phone": {"width": 390, "height": 844},
    "small-phone": {"width": 360, "height": 740},
    "laptop": {"width": 1280, "height": 700},
    "laptop-tall": {"width": 1280, "height": 800},
}


def english_card(card: str) -> str:
    """A card's name as the English pages say it."""
    app = create_app({"TESTING": True, "SECRET_KEY": "names-only-secret"})
    with app.test_request_context():
        return card_name(card)


@pytest.mark.parametrize("size_name", list(SIZES))
def test_the_story_path_fits_and_is_drawn(page: Page, live_server, screenshots, size_name):
    size = SIZES[size_name]
    page.set_viewport_size(size)
    page.goto(live_server + "/")
    with page.expect_navigation():
        page.get_by_role("link", name="Mansion Evenings: the story mode").click()
    expect(page.get_by_role("heading", name="Mansion Evenings", exact=True)).to_be_visible()
    expect(page.locator(".story-place")).to_have_count(6)
    expect(page.locator(".story-place.next h2")).to_contain_text("Aunt Hayriye")
    for image in page.locator(".story-place img.portrait").all():
        assert image.evaluate("e => e.complete && e.naturalWidth > 0")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.screenshot(path=screenshots / f"story-path-{size_name}.png", full_page=True)


def click_card(page: Page, card: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=english_card(card), exact=True).click()


@pytest.mark.parametrize("size_name", ["phone", "laptop"])
def test_the_lesson_right_and_wrong_moves(browser: Browser, live_server, screenshots, size_name):
    context = browser.new_context(viewport=SIZES[size_name])
    page = context.new_page()
    page.goto(live_server + "/story")
    with page.expect_navigation():
        page.get_by_role("link", name="Start the lesson").click()
    expect(page.locator(".ask")).to_contain_text("Which of your cards takes it?")
    page.screenshot(path=screenshots / f"lesson-start-{size_name}.png", full_page=True)
    click_card(page, "5D")
    expect(page.get_by_role("alert")).to_contain_text("does not take the 7 of clubs")
    expect(page.locator(".hand button")).to_have_count(4)
    page.screenshot(path=screenshots / f"lesson-wrong-{size_name}.png", full_page=True)
    click_card(page, "7H")
    expect(page.locator(".said").first).to_contain_text("You took 5 cards")
    expect(page.locator(".lesson-title")).to_have_text("A pişti")
    click_card(page, "JC")
    expect(page.get_by_role("alert")).to_contain_text("that is no pişti")
    for step in STEPS[1:]:
        expect(page.locator(".lesson-title")).to_have_text(str(step.title))
        click_card(page, step.card)
    expect(page.locator(".lesson-title")).to_have_text("The scoring")
    expect(page.locator(".said").last).to_contain_text("You won the hand")
    page.screenshot(path=screenshots / f"lesson-scoring-{size_name}.png", full_page=True)
    with page.expect_navigation():
        page.get_by_role("link", name="To Mansion Evenings").click()
    expect(page.get_by_role("button", name="Play the lesson again")).to_be_visible()
    context.close()


def test_the_teachers_reply_is_read_out(page: Page, live_server):
    """Her answer to a play lands in the box a screen reader watches: the
    page's script keeps that live region (a new one, filled as it arrives,
    is not read out) and puts her words in it."""
    page.goto(live_server + "/story/lesson")
    lesson_step_shown(page, 0)
    live = page.locator(".lesson-talk [aria-live=polite]")
    expect(live).to_have_count(1)
    live.evaluate("box => { box.kept = true; }")  # not an attribute: those are the page's
    click_card(page, "7H")
    expect(page.locator(".lesson-title")).to_have_text("A pişti")
    assert live.evaluate("box => box.kept === true")
    expect(live.locator(".said").first).to_contain_text("You took 5 cards")


def lesson_step_shown(page: Page, number: int) -> None:
    """Wait until the lesson shows step ``number`` (from 0) and its script
    is settled (a card is posted with fetch and the answer replaces the page)."""
    expect(page.locator('.hand input[name="step"]').first).to_have_value(str(number))
    page.wait_for_function("document.documentElement.dataset.state === 'ready'")


def outside_the_screen(page: Page) -> list[str]:
    """The parts of the lesson not wholly on the screen with the page scrolled
    to the top: the step's question, the pile, the hand."""
    return page.evaluate(
        """() => [".ask", ".lesson-fan", ".hand"].filter((part) => {
            const box = document.querySelector(part).getBoundingClientRect();
            const top = box.top + window.scrollY;
            return top < 0 || top + box.height > window.innerHeight
              || box.left < 0 || box.right > window.innerWidth;
        })"""
    )


def scrolled_by(page: Page) -> int:
    """How far the whole page would scroll, in CSS pixels (0: it fits)."""
    return page.evaluate("Math.max(0, document.documentElement.scrollHeight - innerHeight)")


def one_row(page: Page, selector: str) -> bool:
    """Whether the cards in ``selector`` lie on one row (it is less than one
    and a half of its tallest card high)."""
    return page.evaluate(
        """(selector) => {
            const row = document.querySelector(selector);
            const heights = [...row.children].map((card) => card.getBoundingClientRect().height);
            return row.getBoundingClientRect().height < 1.5 * Math.max(...heights);
        }""",
        selector,
    )


@pytest.mark.parametrize(
    ("size_name", "locale"),
    [(name, locale) for name in SIZES for locale in ("en-GB", "tr-TR")],
)
def test_every_lesson_step_fits_the_screen(
    browser: Browser, live_server, screenshots, size_name, locale
):
    """Each step fits the screen without scrolling (its words, the pile and
    the hand above all), after the right card and after a wrong one; the
    pile stays on one row."""
    context = browser.new_context(viewport=SIZES[size_name], locale=locale)
    page = context.new_page()
    page.goto(live_server + "/story/lesson")
    for number, step in enumerate(STEPS):
        lesson_step_shown(page, number)
        assert outside_the_screen(page) == [], f"step {number + 1}"
        assert scrolled_by(page) == 0, f"step {number + 1}"
        assert one_row(page, ".lesson-fan"), f"step {number + 1}: the pile wraps"
        # The pile is named above it; her hand is counted below, not as its
        # caption.
        lines = page.locator(".lesson-table > *").evaluate_all("e => e.map(x => x.className)")
        assert lines[:2] == ["place-name", "lesson-fan"] and lines[-1] == "count", lines
        page.screenshot(path=screenshots / f"lesson-step{number + 1}-{size_name}-{locale}.png")
        wrong = next((card for card in position(number).hands[0] if card != step.card), None)
        if wrong is not None:
            page.locator(f'.hand button[value="{wrong}"]').click()
            expect(page.locator(".wrong")).to_be_visible()
            lesson_step_shown(page, number)
            assert outside_the_screen(page) == [], f"step {number + 1}, a wrong card"
            assert scrolled_by(page) == 0, f"step {number + 1}, a wrong card"
            page.screenshot(
                path=screenshots / f"lesson-step{number + 1}-wrong-{size_name}-{locale}.png"
            )
        page.locator(f'.hand button[value="{step.card}"]').click()
    expect(page.locator(".score")).to_be_visible()
    # The scoring too: the table, her verdict and both ways on.
    assert scrolled_by(page) == 0, "the scoring"
    expect(page.locator(".lesson-score .story-actions button")).to_be_in_viewport(ratio=1)
    page.screenshot(path=screenshots / f"lesson-scoring-{size_name}-{locale}.png")
    context.close()


def test_the_lesson_s_cards_grow_with_a_taller_phone(browser: Browser, live_server):
    """The cards are 74 px tall where the longest step just fits (360×740)
    and use a taller phone's room (they were 88 px at 390×844, a third of
    its screen empty under the hand)."""
    heights = {}
    for name in ("small-phone", "phone"):
        context = browser.new_context(viewport=SIZES[name])
        page = context.new_page()
        page.goto(live_server + "/story/lesson")
        heights[name] = round(page.locator(".hand .card").first.bounding_box()["height"])
        context.close()
    assert heights["small-phone"] == 74
    assert heights["phone"] >= 105, heights


def to_aunt_hayriye(page: Page, live_server: str) -> None:
    """From the story's path, past the lesson, to a match with Aunt Hayriye."""
    page.goto(live_server + "/story")
    with page.expect_navigation():
        page.get_by_role("button", name="Skip the lesson").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Play · Aunt Hayriye").click()


def test_the_lines_under_the_felt_fade_their_cut_first_line(browser: Browser, live_server):
    """On a phone her remark and the hint push the lines under the felt to
    scroll: the first line shown, cut through the middle (it looked like a
    drawing fault on 18 of 24 turns at 390×844), fades in instead; scrolled
    back to the top, nothing fades."""
    context = browser.new_context(viewport=SIZES["phone"], reduced_motion="reduce")
    page = context.new_page()
    to_aunt_hayriye(page, live_server)
    said = page.locator(".said")
    mask = "e => getComputedStyle(e).maskImage"
    for _ in range(6):
        if said.evaluate("e => e.scrollTop") > 1:
            break
        assert said.evaluate(mask) == "none"
        assert play_card(page, page.locator(".hand button").first)
    assert said.evaluate("e => e.scrollTop") > 1
    assert said.evaluate(mask).startswith("linear-gradient")
    said.evaluate("e => { e.scrollTop = 0; }")
    expect(said).not_to_have_class(re.compile("scrolled"))
    assert said.evaluate(mask) == "none"
    context.close()


@pytest.mark.parametrize("size_name", ["phone", "laptop"])
def test_a_story_match_with_remarks_that_never_cover_the_table(
    browser: Browser, live_server, screenshots, size_name
):
    context = browser.new_context(viewport=SIZES[size_name])
    page = context.new_page()
    to_aunt_hayriye(page, live_server)
    expect(page.locator(".place-1 .place-name")).to_contain_text("Aunt Hayriye")
    crest = page.locator(".place-1 img.crest")
    expect(crest).to_be_visible()
    assert crest.evaluate("e => e.complete && e.naturalWidth > 0")
    expect(page.locator(".scoreboard .side-1 .who")).to_have_text("Aunt Hayriye")
    # The script plays in place: wait until her reply has landed and settled.
    assert play_card(page, page.locator(".hand button").first)
    remark = page.locator(".remark")
    expect(remark).to_contain_text("Aunt Hayriye:")
    page.emulate_media(reduced_motion="reduce")
    page.screenshot(path=screenshots / f"story-table-{size_name}.png")
    box = remark.bounding_box()
    for part in (".centre", ".hand"):
        other = page.locator(part).bounding_box()
        apart = (
            box["y"] + box["height"] <= other["y"]
            or other["y"] + other["height"] <= box["y"]
            or box["x"] + box["width"] <= other["x"]
            or other["x"] + other["width"] <= box["x"]
        )
        assert apart, part
    # Her last card and its note stay on the felt, play after play.
    for _ in range(12):
        note = page.locator(".place-1 .last-play").bounding_box()
        felt = page.locator(".table").bounding_box()
        assert note["x"] + note["width"] <= felt["x"] + felt["width"] - 4, note
        assert play_card(page, page.locator(".hand button").first)
    page.screenshot(path=screenshots / f"story-table-later-{size_name}.png")
    context.close()


def test_progress_is_kept_across_a_restart(browser: Browser, tmp_path):
    config = {
        "SECRET_KEY": "story-restart-secret",
        "SESSION_FILE_DIR": str(tmp_path / "sessions"),
        "RATELIMIT_ENABLED": False,
    }
    context = browser.new_context()
    page = context.new_page()
    with serve(create_app(config)) as url:
        page.goto(url + "/story/lesson")
        for step in STEPS:
            click_card(page, step.card)
        expect(page.locator(".lesson-title")).to_have_text("The scoring")
    # A new process: the same session folder and key, a new port (cookies
    # belong to the host, so the browser still sends its session).
    with serve(create_app(config)) as url:
        page.goto(url + "/story")
        expect(page.get_by_role("button", name="Play the lesson again")).to_be_visible()
        expect(page.locator(".story-place.next h2")).to_contain_text("Aunt Hayriye")
    context.close()


def test_a_known_players_progress_is_kept_across_a_restart(browser: Browser, tmp_path):
    """A known player's progress is in the database: after a restart with
    the session store wiped, a new browser with only the player's cookie
    still finds the lesson done."""
    database = f"sqlite:///{tmp_path / 'pisti.db'}"

    def app(sessions: str):
        return create_app(
            {
                "SECRET_KEY": "story-known-secret",
                "SESSION_FILE_DIR": str(tmp_path / sessions),
                "DATABASE_URL": database,
                "RATELIMIT_ENABLED": False,
            }
        )

    first = browser.new_context()
    page = first.new_page()
    with serve(app("sessions")) as url:
        page.goto(url + "/me")
        page.get_by_label("Your display name").fill("Lessoned")
        with page.expect_navigation():
            page.get_by_role("button", name="Keep my results").click()
        page.goto(url + "/story/lesson")
        for step in STEPS:
            click_card(page, step.card)
        expect(page.locator(".lesson-title")).to_have_text("The scoring")
    cookie = next(c for c in first.cookies() if c["name"] == "pisti_player")
    first.close()
    # A new process with an empty session store; a new browser holding only
    # the player's cookie (cookies belong to the host, not the port).
    with serve(app("wiped-sessions")) as url:
        second = browser.new_context()
        second.add_cookies([{**cookie, "expires": -1}])
        page = second.new_page()
        page.goto(url + "/story")
        expect(page.get_by_role("button", name="Play the lesson again")).to_be_visible()
        stranger = browser.new_context()
        other = stranger.new_page()
        other.goto(url + "/story")
        expect(other.get_by_role("link", name="Start the lesson")).to_be_visible()
        stranger.close()
        second.close()


@pytest.mark.parametrize(("locale", "scheme"), [("en-GB", "light"), ("tr-TR", "dark")])
def test_no_serious_accessibility_violations(browser: Browser, live_server, locale, scheme):
    context = browser.new_context(locale=locale, color_scheme=scheme)
    page = context.new_page()
    axe = Axe()
    pages = []
    page.goto(live_server + "/story")
    pages.append(("path", axe.run(page)))
    page.goto(live_server + "/story/lesson")
    pages.append(("lesson", axe.run(page)))
    with page.expect_navigation():
        page.locator(".hand button").nth(1).click()
    pages.append(("lesson, wrong card", axe.run(page)))
    context.close()
    for name, result in pages:
        serious = [
            v["id"] for v in result.response["violations"] if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], f"{name}: {serious}"


def test_her_word_after_a_hand_keeps_the_last_plays_heading_apart(browser: Browser, live_server):
    """Between hands her line sits above "The last plays" as the result's
    own sentence does, a line's height apart (at .35rem, the heading
    pressed against it)."""
    context = browser.new_context(viewport=SIZES["small-phone"], reduced_motion="reduce")
    page = context.new_page()
    to_aunt_hayriye(page, live_server)
    while cards_in_hand(page):
        play_card(page, page.locator(".hand button").first)
    heading = page.get_by_role("heading", name="The last plays")
    expect(heading).to_be_visible()
    remark = page.locator(".result .remark")
    if not remark.count():  # a drawn hand: she says nothing
        pytest.skip("a drawn hand has no remark")
    said = page.locator(".result .why").bounding_box()
    first = page.locator(".result .story-remark").bounding_box()
    line = remark.bounding_box()
    title = heading.bounding_box()
    assert said and first and line and title
    gap = title["y"] - (line["y"] + line["height"])
    assert gap >= first["y"] - (said["y"] + said["height"]) - 1, gap
    context.close()
