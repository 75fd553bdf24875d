"""The table's aids, keyboard play, languages and accessibility, in Chromium."""

from __future__ import annotations

import itertools
import json
import math
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from app.engine import CARDEMS, PARTNERS, GameState, seeded_deck, would_capture
from app.story.cast import CAST
from benchmarks.click_to_settled import play_fast
from tests.e2e.conftest import (
    DESKTOP,
    PHONE,
    cards_in_hand,
    first_seed,
    never_answer_the_first,
    play_card,
    play_out,
    settled,
    settled_when_ready,
    submit,
    take_deal,
    wait_settled,
)
from tests.e2e.test_table_motion import SIZES, assert_fits

CAPTURE_SEED = first_seed(CARDEMS, lambda s: any(would_capture(c, s.pile_top) for c in s.hands[0]))
QUIET_SEED = first_seed(
    CARDEMS, lambda s: not any(would_capture(c, s.pile_top) for c in s.hands[0])
)


def set_aid(page: Page, label: str, on: bool) -> None:
    """Toggle an aid in the settings panel, as a player would: the script
    posts it and updates the page in place, the panel staying open."""
    if page.locator("details.settings[open]").count() == 0:
        page.locator("details.settings summary").click()
    box = page.get_by_label(label)
    if box.is_checked() != on:
        before = settled(page)
        box.click()
        wait_settled(page, before)
    expect(page.locator("details.settings")).to_have_attribute("open", "")


def deal(page: Page, live_server: str, seed: str, rules: str = "cardems") -> None:
    query = "" if rules == "cardems" else f"?rules={rules}"
    page.goto(f"{live_server}/deal/{seed}{query}")
    take_deal(page)
    expect(page.locator(".hand button").first).to_be_visible()


def test_capture_highlight_toggles(page: Page, live_server):
    deal(page, live_server, CAPTURE_SEED)
    expect(page.locator(".hand button.captures").first).to_be_visible()
    assert "captures" in page.locator(".hand button.captures").first.get_attribute("aria-label")
    set_aid(page, "Highlight the cards that would capture", False)
    expect(page.locator(".hand button.captures")).to_have_count(0)
    expect(page.locator(".take-mark")).to_have_count(0)
    set_aid(page, "Highlight the cards that would capture", True)
    expect(page.locator(".hand button.captures").first).to_be_visible()


def test_played_cards_counter_toggles(page: Page, live_server):
    deal(page, live_server, QUIET_SEED)
    expect(page.locator(".counter")).to_have_count(0)
    set_aid(page, "Played-cards counter", True)
    expect(page.locator(".counter li")).to_have_count(13)
    top_rank = page.locator(".fan svg.top text.index").text_content()
    cell = page.locator(".counter li", has=page.locator(".rank", has_text=top_rank)).first
    expect(cell.locator(".seen")).to_have_text("1")
    # Read out as a sentence ("Aces: 1 of 4"), not the letter and the figure run together.
    expect(cell.locator(".seen")).to_have_attribute("aria-hidden", "true")
    word = {"A": "Aces", "J": "Jacks", "Q": "Queens", "K": "Kings"}.get(top_rank, top_rank)
    expect(cell.locator(".visually-hidden")).to_have_text(f"{word}: 1 of 4")
    set_aid(page, "Played-cards counter", False)
    expect(page.locator(".counter")).to_have_count(0)


def test_four_colour_deck_toggles(page: Page, live_server):
    deal(page, live_server, QUIET_SEED)
    set_aid(page, "Four-colour deck", True)
    expect(page.locator("body")).to_have_class(r"table-page players-2 four-colour")
    page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', '<svg class=\"suit-D\" id=\"probe\"></svg>')"
    )
    assert page.eval_on_selector("#probe", "e => getComputedStyle(e).color") == "rgb(21, 70, 184)"
    set_aid(page, "Four-colour deck", False)
    page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', '<svg class=\"suit-D\" id=\"probe\"></svg>')"
    )
    assert page.eval_on_selector("#probe", "e => getComputedStyle(e).color") == "rgb(198, 40, 40)"


#: The simulation of Machado, Oliveira and Fernandes (2009) at full
#: severity, on linear RGB (Chromium's emulated vision deficiencies use
#: its matrices).
DEFICIENCIES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
}


def seen_apart(first: str, second: str, deficiency: str) -> float:
    """How far apart two CSS colours (``rgb(r, g, b)``) look to a player
    with ``deficiency`` (a key of :data:`DEFICIENCIES`): the CIE Lab
    distance (CIE76; about 2 is just told apart) of the simulated colours."""

    def lab(colour: str) -> tuple[float, float, float]:
        channels = [int(part) / 255 for part in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        r, g, b = (
            min(1.0, max(0.0, sum(w * c for w, c in zip(row, linear, strict=True))))
            for row in DEFICIENCIES[deficiency]
        )
        xyz = (
            (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
            0.2126 * r + 0.7152 * g + 0.0722 * b,
            (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
        )
        fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
        return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)

    return math.dist(lab(first), lab(second))


def test_the_four_colour_deck_keeps_its_suits_apart_for_the_colour_blind(page: Page, live_server):
    """The four-colour deck's green clubs looked like its red hearts to a
    red-green colour-blind player (one man in twelve): CIE Lab 17 apart in
    simulated protanopia, 18 in deuteranopia. Every two suits on a card are
    now at least 30 apart in both (the red hearts and black spades, which
    the deck keeps, are 37 in protanopia)."""
    deal(page, live_server, QUIET_SEED)
    set_aid(page, "Four-colour deck", True)
    colours = {}
    for suit in "SHDC":
        page.evaluate(
            "suit => document.body.insertAdjacentHTML("
            '\'beforeend\', `<svg class="card face suit-${suit}" id="probe-${suit}"></svg>`)',
            suit,
        )
        colours[suit] = page.eval_on_selector(f"#probe-{suit}", "e => getComputedStyle(e).color")
    assert len(set(colours.values())) == 4, colours
    for deficiency in DEFICIENCIES:
        for first, second in itertools.combinations("SHDC", 2):
            apart = seen_apart(colours[first], colours[second], deficiency)
            assert apart >= 30, (deficiency, first, second, round(apart, 1))


def test_hints_toggle(page: Page, live_server):
    """On in a new player's first games (seed 001), then as set."""
    deal(page, live_server, CAPTURE_SEED)
    expect(page.locator(".hints li").first).to_contain_text("The Hard level would play")
    set_aid(page, "Hints on your turn", False)
    expect(page.locator(".hints")).to_have_count(0)
    set_aid(page, "Hints on your turn", True)
    expect(page.locator(".hints li").first).to_contain_text("The Hard level would play")


def test_a_hint_is_hidden_once_you_play(page: Page, live_server):
    """The hint is about your turn: from your click until the replies have
    landed it is not shown (it stayed, "would play your 4 of diamonds",
    over the 4♦ on its way to the pile), then the next turn's is."""
    deal(page, live_server, CAPTURE_SEED)
    hint = page.locator(".hints").first
    expect(hint).to_be_visible()
    before = settled(page)
    page.locator(".hand button").first.click()
    # The state and the hint are read in one evaluation: read apart, the
    # page could settle in between and show the next turn's hint.
    seen_while_busy = []
    while settled(page) == before:
        shown = page.evaluate(
            """() => document.documentElement.dataset.state !== "busy" ? null
                : [...document.querySelectorAll(".hints")].some((e) =>
                    e.checkVisibility({ visibilityProperty: true }))"""
        )
        if shown is not None:
            seen_while_busy.append(shown)
    assert seen_while_busy and not any(seen_while_busy)
    expect(page.locator(".hints li").first).to_contain_text("The Hard level would play")
    expect(page.locator(".hints").first).to_be_visible()


#: Whether every hint is whole in view: in the lines under the felt on a
#: phone (which scroll), beside it on a laptop.
HINTS_IN_VIEW = """() => {
  const box = document.querySelector('.said').getBoundingClientRect();
  return [...document.querySelectorAll('.hints li')].every((hint) => {
    const line = hint.getBoundingClientRect();
    return line.top >= box.top - 1 && line.bottom <= box.bottom + 1;
  });
}"""


@pytest.mark.parametrize("size_name", ["360x740", "390x844", "1280x700", "1280x800"])
@pytest.mark.parametrize(
    ("locale", "reason"),
    [("en-GB", "the fewest in your hand"), ("tr-TR", "elinizdekilerin en azı")],
    ids=["en", "tr"],
)
def test_the_hints_reason_shows_whole_and_the_table_still_fits(
    browser: Browser, live_server, screenshots, size_name, locale, reason
):
    """The hint's reason (/deal/why-3: only two Kings unseen) is read whole
    on the first turn, on a phone too, where it takes the lines kept for
    the hints: the cards stay in view and nothing scrolls."""
    context = browser.new_context(viewport=SIZES[size_name], locale=locale, reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, "why-3")
    expect(page.locator(".hints li").first).to_contain_text(reason)
    assert page.evaluate(HINTS_IN_VIEW)
    assert_fits(page)
    page.screenshot(path=screenshots / f"hint-reason-{locale}-{size_name}.png")
    context.close()


#: Whether the first hint, the card to play, is whole in view.
FIRST_HINT_IN_VIEW = """() => {
  const box = document.querySelector('.said').getBoundingClientRect();
  const line = document.querySelector('.hints li').getBoundingClientRect();
  return line.top >= box.top - 1 && line.bottom <= box.bottom + 1;
}"""


def test_the_card_to_play_is_whole_beside_a_note_on_a_phone(browser: Browser, live_server):
    """/deal/scan-1 at its 14th turn (the first card of the hand played
    each time) has a risky lead's note as well as the recommendation: six
    lines at 360x740, where the hints get five. The recommendation comes
    first and is whole in view, the note after it; the recommendation
    came last and was cut through the middle."""
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, "scan-1")
    for _ in range(13):
        play_card(page, page.locator(".hand button").first)
    hints = page.locator(".hints li")
    expect(hints).to_have_count(2)
    expect(hints.first).to_contain_text("The Hard level would play")
    expect(hints.last).to_contain_text("Risky lead")
    assert not page.evaluate(HINTS_IN_VIEW), "both fit: not the case this test is for"
    assert page.evaluate(FIRST_HINT_IN_VIEW)
    assert_fits(page)
    context.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("rules", ["partners", "classic&players=3"])
def test_clockwise_puts_the_next_player_on_your_left(
    browser: Browser, live_server, screenshots, size, rules
):
    """With the aid, the seat that plays after you is drawn on your left
    and named West; without it, on your right and named East."""
    context = browser.new_context(viewport=size)
    page = context.new_page()
    deal(page, live_server, "aid-turn", rules)

    def side_of_next_player() -> str:
        seat = page.locator(".place-1").bounding_box()
        centre = page.locator(".centre").bounding_box()
        return "left" if seat["x"] + seat["width"] <= centre["x"] else "right"

    expect(page.locator(".place-1 .place-name")).to_contain_text("East")
    assert side_of_next_player() == "right"
    set_aid(page, "Play goes clockwise: the next player sits on your left", True)
    expect(page.locator(".place-1 .place-name")).to_contain_text("West")
    assert side_of_next_player() == "left"
    last = ".place-3" if rules == "partners" else ".place-2"
    expect(page.locator(f"{last} .place-name")).to_contain_text("East")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.keyboard.press("Escape")
    name = f"clockwise-{rules.split('&')[0]}-{size['width']}.png"
    page.screenshot(path=screenshots / name)
    context.close()


def test_bottom_card_toggle(page: Page, live_server):
    deal(page, live_server, "aid-bottom", "partners")
    bottom = seeded_deck("aid-bottom", PARTNERS)[51]
    expect(page.locator(".bottom-card")).to_contain_text("bottom card")
    set_aid(page, "Show the stock's bottom card (partners)", False)
    expect(page.locator(".bottom-card")).to_have_count(0)
    set_aid(page, "Show the stock's bottom card (partners)", True)
    expect(page.locator(".bottom-card .visually-hidden")).to_have_count(1)
    assert bottom[1] in page.locator(".bottom-card svg").get_attribute("class")


def test_pile_fan_toggle(page: Page, live_server):
    deal(page, live_server, QUIET_SEED)
    # A card that stays on the pile makes two face-up cards.
    play_card(page, page.locator(".hand button").first)
    faces = page.locator(".fan svg.face").count()
    set_aid(page, "Fan the pile's top cards", False)
    expect(page.locator(".fan svg.face")).to_have_count(min(faces, 1))
    set_aid(page, "Fan the pile's top cards", True)
    expect(page.locator(".fan svg.face")).to_have_count(faces)


def test_aids_work_without_javascript(browser: Browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    deal(page, live_server, QUIET_SEED)
    page.locator("details.settings summary").click()
    page.get_by_label("Played-cards counter").check()
    with page.expect_navigation():
        page.locator("form.aids").get_by_role("button", name="Save").click()
    expect(page.locator(".counter li")).to_have_count(13)
    with page.expect_navigation():
        page.locator(".hand button").first.click()
    expect(page.locator(".log li").first).to_contain_text("You played")
    context.close()


def test_whole_game_with_the_keyboard(page: Page, live_server):
    deal(page, live_server, "keyboard-only")
    # The page's script has run (else its first "settled" would be taken for the play's).
    settled_when_ready(page)
    page.keyboard.press("Tab")  # the skip link
    while page.evaluate("document.activeElement.closest('.hand') === null"):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    before = settled(page)
    page.keyboard.press("Enter")
    wait_settled(page, before)
    # The first card of your hand has the keyboard focus, with its ring.
    assert page.evaluate("document.activeElement.matches('.hand button:focus-visible')")
    presses = 1
    while (count := page.locator(".hand button").count()) and presses < 40:
        before = settled(page)
        page.keyboard.press(str(count))
        wait_settled(page, before)
        presses += 1
    expect(page.locator(".verdict")).to_be_visible()


def test_a_second_enter_while_cards_move_plays_nothing(page: Page, live_server):
    """Enter pressed again while the play is shown ends the moves at once and
    is spent on that: it does not also press the card focused as the play
    settles."""
    deal(page, live_server, "enter-twice")
    settled_when_ready(page)
    page.locator(".hand button").first.focus()
    before = settled(page)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getAnimations().length > 0")
    page.keyboard.press("Enter")
    wait_settled(page, before)
    page.wait_for_timeout(300)  # a second play would be under way by now
    expect(page.locator(".log li").filter(has_text="You played")).to_have_count(1)
    expect(page.locator(".hand button")).to_have_count(3)
    assert page.evaluate("document.activeElement.matches('.hand button')")


def test_a_held_number_key_plays_one_card(page: Page, live_server):
    """A number key held down plays its card once: the key's repeats play
    nothing, with the moves shown or not."""
    for motion in ("no-preference", "reduce"):
        page.emulate_media(reduced_motion=motion)
        deal(page, live_server, f"held-key-{motion}")
        settled_when_ready(page)
        before = settled(page)
        page.keyboard.down("1")
        for _ in range(30):  # as a held key repeats, for over a second
            page.wait_for_timeout(40)
            page.evaluate(
                """() => document.activeElement.dispatchEvent(new KeyboardEvent("keydown",
                    { key: "1", repeat: true, bubbles: true }))"""
            )
        page.keyboard.up("1")
        wait_settled(page, before)
        page.wait_for_timeout(300)
        expect(page.locator(".log li").filter(has_text="You played")).to_have_count(1)
        expect(page.locator(".hand button")).to_have_count(3)


def test_a_play_just_after_an_aids_change_waits_for_it(page: Page, live_server):
    """A card played while an aids change is still on its way: the aids'
    page lands first and the play's after it, so the table ends played,
    with the aid on, and not put back by the aids' late answer."""
    deal(page, live_server, "aids-then-play")
    settled_when_ready(page)

    # The aids' answer, made at once, is slow to come back to the page.
    page.evaluate(
        """() => {
          const real = window.fetch;
          window.fetch = async (address, options) => {
            const answer = await real(address, options);
            if (String(address).endsWith("/settings")) await new Promise((r) => setTimeout(r, 500));
            return answer;
          };
        }"""
    )
    page.locator("details.settings summary").click()
    before = settled(page)
    page.get_by_label("Played-cards counter").click()
    page.keyboard.press("Escape")
    page.keyboard.press("1")
    wait_settled(page, before)
    page.wait_for_timeout(700)  # the aids' answer, late or not, is in
    expect(page.locator(".hand button")).to_have_count(3)
    expect(page.locator(".counter")).to_be_visible()
    assert page.locator(".live").get_attribute("aria-busy") is None
    assert page.evaluate("document.documentElement.dataset.state") == "ready"


def test_an_aids_change_never_answered_is_sent_again(browser: Browser, live_server):
    """An aids change whose answer never comes is sent the ordinary way
    after 15 s, and applies."""
    context = browser.new_context()
    page = context.new_page()
    page.clock.install()
    held = never_answer_the_first(page, "**/settings")
    deal(page, live_server, "aids-unanswered")
    settled_when_ready(page)
    page.locator("details.settings summary").click()
    page.get_by_label("Played-cards counter").check()
    held.wait(page)
    page.clock.run_for(14_000)
    assert len(held.routes) == 1
    expect(page.locator(".counter")).to_have_count(0)
    with page.expect_navigation():
        page.clock.run_for(2_000)
    expect(page.locator(".counter li")).to_have_count(13)
    expect(page.locator(".hand button")).to_have_count(4)
    context.close()


def test_the_log_is_read_out_once_a_play(page: Page, live_server):
    """The log's live region changes at each step of the moves, but only
    while it is marked busy: a screen reader reads the round once, when the
    plays have landed, not each step and its later corrections."""
    deal(page, live_server, "read-once", "partners")
    settled_when_ready(page)
    page.evaluate(
        """() => {
          window.told = [];
          const live = document.querySelector(".live");
          new MutationObserver(() => window.told.push(live.getAttribute("aria-busy")))
            .observe(live, { childList: true });
        }"""
    )
    assert play_card(page, page.locator(".hand button").first)
    told = page.evaluate("window.told")
    assert len(told) > 1, "the moves showed no steps"
    assert [busy for busy in told if busy != "true"] == [None]
    assert page.locator(".live").get_attribute("aria-busy") is None


@pytest.mark.parametrize("rules", ["cardems", "classic"])
def test_the_end_of_a_hand_is_read_out_and_a_second_enter_keeps_it(
    browser: Browser, live_server, rules
):
    """The last card played from the keyboard: the result is put in the
    live region (so it is read out) and the focus goes to its heading, not
    to "Next hand" or "Play again", which a second Enter would press."""
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, f"end-read-{rules}", rules)
    settled_when_ready(page)
    for _ in range(23):  # all but your last card of the hand
        assert play_card(page, page.locator(".hand button").first)
    page.locator(".hand button").first.focus()
    before = settled(page)
    page.keyboard.press("Enter")
    wait_settled(page, before)
    expect(page.locator(".verdict")).to_be_focused()
    expect(page.locator(".live")).to_contain_text("points")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    expect(page.locator(".verdict")).to_be_visible()
    page.keyboard.press("Tab")
    if rules == "classic":
        # "Next hand: East deals" begins with the dealer tag, which says
        # what the dealer does when pressed.
        expect(page.locator(".next-deal .tag.dealer")).to_be_focused()
        page.keyboard.press("Tab")
    expect(
        page.get_by_role("button", name="Next hand" if rules == "classic" else "Play again")
    ).to_be_focused()
    # Sent from the keyboard, it leads to a table whose first card has the
    # focus, not back to the top of the page.
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator(".hand button").first).to_be_focused()
    page.reload()
    expect(page.locator(".hand button").first).not_to_be_focused()
    context.close()


#: Text at twice its size, as a browser's or a phone's large-text setting makes it.
LARGE_TEXT = "html { font-size: 200% !important; }"

#: Chips that cover their side's name in the scoreboard.
COVERED_NAMES = """() => [...document.querySelectorAll(".scoreboard .side")].flatMap((side) => {
  const who = side.querySelector(".who").getBoundingClientRect();
  return [...side.querySelectorAll(".chip")].filter((chip) => {
    const box = chip.getBoundingClientRect();
    return box.left < who.right - 1 && box.right > who.left + 1
      && box.top < who.bottom - 1 && box.bottom > who.top + 1;
  }).map((chip) => chip.textContent);
})"""


@pytest.mark.parametrize("rules", ["classic", "partners"])
def test_text_at_twice_its_size_on_a_phone(browser: Browser, live_server, rules):
    """With the text at 200 % on a phone no page scrolls sideways (a score
    table too wide scrolls in its own box), and on the table the sides'
    names are not covered by their chips."""
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce", bypass_csp=True)
    page = context.new_page()

    def fits(name: str) -> None:
        page.add_style_tag(content=LARGE_TEXT)
        width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
        assert width <= inner, f"{name} scrolls sideways: {width} > {inner}"

    page.goto(live_server + "/")
    fits("home")
    page.goto(live_server + "/house")
    # every fold open, with the longest words of its choices shown
    page.evaluate(
        "() => document.querySelectorAll('details').forEach((fold) => { fold.open = true; })"
    )
    page.locator("#teams").select_option("partners")
    fits("house rules")
    page.goto(f"{live_server}/deal/large-text-{rules}?rules={rules}")
    fits("deal link")
    take_deal(page)
    expect(page.locator(".hand button").first).to_be_visible()
    fits("table")
    assert page.evaluate(COVERED_NAMES) == []
    # The language switch in the corner below leaves the aids to be tapped.
    page.locator("details.settings summary").click()
    expect(page.locator("details.settings")).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    while cards_in_hand(page):
        assert play_card(page, page.locator(".hand button").first)
    expect(page.locator(".verdict")).to_be_visible()
    fits("end of the hand")
    context.close()


def test_number_keys_play_after_the_aids_are_closed(page: Page, live_server):
    deal(page, live_server, "keys-after-aids")
    settled_when_ready(page)
    summary = page.locator("details.settings summary")
    summary.click()
    summary.click()  # closed again, and the summary keeps the focus
    assert page.evaluate("document.activeElement.matches('details.settings summary')")
    before = settled(page)
    page.keyboard.press("1")
    wait_settled(page, before)
    expect(page.locator(".log li").first).to_contain_text("You played")


def test_the_aids_panel_closes_with_escape_or_a_tap_outside(browser: Browser, live_server):
    """On a phone the open panel covers the hand: Escape or a tap outside
    closes it, and with the script each toggle applies at once, so there
    is no Save button to press."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    deal(page, live_server, "aids-close")
    settled_when_ready(page)
    panel = page.locator("details.settings")
    page.locator("details.settings summary").click()
    expect(panel).to_have_attribute("open", "")
    expect(page.locator("form.aids").get_by_role("button", name="Save")).to_be_hidden()
    page.keyboard.press("Escape")
    expect(panel).not_to_have_attribute("open", "")
    assert page.evaluate("document.activeElement.matches('details.settings summary')")
    page.locator("details.settings summary").click()
    set_aid(page, "Four-colour deck", True)
    expect(panel).to_have_attribute("open", "")
    page.locator(".scoreboard").click()
    expect(panel).not_to_have_attribute("open", "")
    # Nothing was played by closing it; the aid stayed on.
    expect(page.locator(".hand button")).to_have_count(4)
    expect(page.locator("body")).to_have_class(r"table-page players-2 four-colour")
    context.close()


@pytest.mark.parametrize(
    ("locale", "scheme"), [("en-GB", "light"), ("tr-TR", "light"), ("en-GB", "dark")]
)
def test_no_serious_accessibility_violations(browser: Browser, live_server, locale, scheme):
    # Light, and dark where the system asks for it: contrast is among
    # axe-core's serious findings.
    context = browser.new_context(locale=locale, color_scheme=scheme)
    page = context.new_page()
    axe = Axe()
    pages = []
    page.goto(live_server + "/")
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert background == {"light": "rgb(238, 241, 236)", "dark": "rgb(17, 21, 19)"}[scheme]
    pages.append(("home", axe.run(page)))
    for path in ("/story", "/daily", "/house", "/leaderboard", "/nowhere"):
        page.goto(live_server + path)
        pages.append((path, axe.run(page)))
    deal(page, live_server, "axe-classic", "classic")
    pages.append(("table", axe.run(page)))
    play_out(page)
    pages.append(("between", axe.run(page)))
    deal(page, live_server, "axe-cardems")
    play_out(page)
    pages.append(("final", axe.run(page)))
    context.close()
    for name, result in pages:
        serious = [
            v["id"] for v in result.response["violations"] if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], f"{name}: {serious}"


ENGLISH = [
    "Your hand",
    "Stock",
    "Pile",
    "played",
    "New game",
    "Computer",
    "cards",
    "Playing aids",
    "Hand total",
    "dealer",
]


def test_turkish_table_has_no_english_left(browser: Browser, live_server, screenshots):
    context = browser.new_context(locale="tr-TR")
    page = context.new_page()
    deal(page, live_server, "turkce", "partners")
    play_card(page, page.locator(".hand button").first)
    text = page.locator("body").inner_text()
    assert [word for word in ENGLISH if word in text] == []
    assert "Eliniz" in text and "Deste" in text
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.emulate_media(reduced_motion="reduce")
        page.screenshot(path=screenshots / f"tr-table-{name}.png")
    play_out(page)
    text = page.locator("body").inner_text()
    assert [word for word in ENGLISH if word in text] == []
    assert "El toplamı" in text and "Sonraki el" in text
    page.emulate_media(reduced_motion="reduce")
    page.screenshot(path=screenshots / "tr-between-desktop.png", full_page=True)
    context.close()


def test_language_switch_is_remembered(page: Page, live_server):
    page.goto(live_server + "/")
    with page.expect_navigation():
        page.get_by_role("button", name="Türkçe").click()
    expect(page.get_by_role("heading", name="Yeni oyun")).to_be_visible()
    deal(page, live_server, "switch")
    expect(page.locator("#your-hand")).to_contain_text("Eliniz")
    assert page.evaluate("document.documentElement.lang") == "tr"


def a_stale_tab(
    context, page: Page, live_server: str, words: str = "the table as it stands"
) -> Page:
    """Another tab on ``page``'s game, left behind by a play in ``page``,
    whose own play is then refused: it shows the table with the 409's
    alert, which says ``words``."""
    other = context.new_page()
    other.goto(f"{live_server}/game")
    assert play_card(page, page.locator(".hand button").first)
    before = settled(other)
    other.locator(".hand button").first.click()
    wait_settled(other, before)
    expect(other.locator(".happened > .alert")).to_contain_text(words)
    return other


@pytest.mark.parametrize("size_name", ["360x740", "390x844"])
@pytest.mark.parametrize("rules", ["classic", "partners"])
def test_a_phone_table_with_rows_added_still_fits(
    browser, live_server, screenshots, size_name, rules
):
    """Games put aside, the counter and hints each add a row under the felt
    on a phone: the cards make room, and nothing scrolls, with the alert
    of a play from an out-of-date tab too (over what happened, it takes no
    row: see the next test)."""
    context = browser.new_context(viewport=SIZES[size_name], reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, f"rows-aside-{rules}", "classic")
    deal(page, live_server, f"rows-{rules}", rules)
    expect(page.locator(".kept")).to_be_visible()
    set_aid(page, "Hints on your turn", False)  # on in the first games
    page.locator("details.settings summary").click()
    plain = page.locator(".hand button").first.bounding_box()["height"]
    # A play from an out-of-date tab: the table with an alert.
    other = a_stale_tab(context, page, live_server)
    other.screenshot(path=screenshots / f"rows-409-{rules}-{size_name}.png")
    assert_fits(other)
    other.close()
    set_aid(page, "Played-cards counter", True)
    set_aid(page, "Hints on your turn", True)
    page.locator("details.settings summary").click()
    hinted = 0
    for _ in range(2):
        assert play_card(page, page.locator(".hand button").first)
        hinted += page.locator(".hints").count()
        expect(page.locator(".counter")).to_be_visible()
        assert_fits(page)
    assert hinted
    page.screenshot(path=screenshots / f"rows-{rules}-{size_name}.png")
    # The cards gave the rows their room (at 390 there is room to spare).
    smaller = page.locator(".hand button").first.bounding_box()["height"]
    assert smaller < plain if size_name == "360x740" else smaller <= plain
    context.close()


#: Where the hand's first card, the hand, the pile and the felt are, where
#: the alert is (None without one) and whether it is on top at its centre,
#: with the window's size.
WHERE = """() => {
  const box = (selector) => {
    const found = document.querySelector(selector);
    return found && found.getBoundingClientRect().toJSON();
  };
  const alert = box(".happened > .alert");
  const middle = alert && document.elementFromPoint(
    (alert.left + alert.right) / 2, (alert.top + alert.bottom) / 2);
  return {
    card: box(".you .hand button"), hand: box(".you .hand"), pile: box(".pile .fan"),
    felt: box(".board > .table"), alert, on_top: Boolean(middle && middle.closest(".alert")),
    width: innerWidth, height: innerHeight,
  };
}"""


def overlap(first: dict, second: dict) -> bool:
    """Whether two boxes share any area (sharing an edge is not overlapping)."""
    return (
        first["left"] < second["right"] - 0.5
        and second["left"] < first["right"] - 0.5
        and first["top"] < second["bottom"] - 0.5
        and second["top"] < first["bottom"] - 0.5
    )


@pytest.mark.parametrize("size_name", ["360x740", "390x844"])
@pytest.mark.parametrize(
    ("rules", "locale", "words"),
    [
        ("classic", "en-GB", "the table as it stands"),
        ("partners", "en-GB", "the table as it stands"),
        # Three sides, and the alert's longest words.
        ("classic&players=3", "tr-TR", "masanın"),
    ],
    ids=["classic", "partners", "three-tr"],
)
def test_an_alert_at_a_phone_table_leaves_the_cards_and_the_pile_as_they_were(
    browser, live_server, screenshots, size_name, rules, locale, words
):
    """On a phone held upright an alert (here a stale tab's 409) lies over
    what happened rather than taking a row of its own: the cards keep
    their size and the hand and the pile stay where they were without it
    (with a row of its own, the hand's cards went from 72.8 to 55.7 px
    wide at 360x740, and the pile and hand moved up by 7 and 29 px). The
    alert is in the window, on top, and over none of the felt."""
    context = browser.new_context(viewport=SIZES[size_name], reduced_motion="reduce", locale=locale)
    page = context.new_page()
    deal(page, live_server, f"alert-over-{size_name}", rules)
    other = a_stale_tab(context, page, live_server, words)
    shot = f"alert-over-{rules.replace('&', '-')}-{locale}-{size_name}.png"
    other.screenshot(path=screenshots / shot)
    told = other.evaluate(WHERE)
    assert_fits(other)
    # The same tab, the same table, without the alert.
    other.goto(f"{live_server}/game")
    expect(other.locator(".happened > .alert")).to_have_count(0)
    plain = other.evaluate(WHERE)
    assert abs(told["card"]["width"] - plain["card"]["width"]) <= 1, (told, plain)
    for name in ("hand", "pile"):
        assert abs(told[name]["top"] - plain[name]["top"]) <= 1, (name, told, plain)
    alert = told["alert"]
    assert alert["width"] > 0 and alert["height"] > 0 and told["on_top"]
    assert alert["left"] >= 0 and alert["right"] <= told["width"], alert
    assert alert["top"] >= 0 and alert["bottom"] <= told["height"], alert
    for name in ("hand", "pile", "felt"):
        assert not overlap(alert, told[name]), (name, alert, told[name])
    context.close()


#: Whether the log's last line is drawn on top at its middle (not under an
#: alert).
LAST_LINE_SHOWN = """() => {
  const line = document.querySelector(".log > li:last-child").getBoundingClientRect();
  const found = document.elementFromPoint(line.left + 8, (line.top + line.bottom) / 2);
  return Boolean(found && found.closest(".log"));
}"""


@pytest.mark.parametrize("close", ["button", "Escape"])
def test_a_phone_tables_alert_closes_and_shows_what_happened_under_it(browser, live_server, close):
    """On a phone the alert of a stale tab's play lies over the lines of
    what happened: its close button (named in words) or Escape takes it
    away and shows them, with no request to the server; the keyboard's
    focus on the button goes on to your hand."""
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, "alert-closes", "classic")
    other = a_stale_tab(context, page, live_server)
    assert not other.evaluate(LAST_LINE_SHOWN)
    asked = []
    other.on("request", lambda request: asked.append(request.url))
    button = other.get_by_role("button", name="Close this message")
    if close == "button":
        button.click()
    else:
        button.focus()
        other.keyboard.press("Escape")
        expect(other.locator(".you .hand button").first).to_be_focused()
    expect(other.locator(".happened > .alert")).to_have_count(0)
    assert other.evaluate(LAST_LINE_SHOWN)
    assert asked == []
    context.close()


def test_a_tables_alert_has_no_close_button_without_the_script(browser, live_server):
    """Without the script the close button would do nothing: it is not
    shown, and the alert is there as before."""
    context = browser.new_context(viewport=SIZES["390x844"], java_script_enabled=False)
    page = context.new_page()
    deal(page, live_server, "alert-no-script", "classic")
    other = context.new_page()
    other.goto(f"{live_server}/game")
    with page.expect_navigation():
        page.locator(".hand button").first.click()
    with other.expect_navigation():
        other.locator(".hand button").first.click()
    expect(other.locator(".happened > .alert")).to_contain_text("the table as it stands")
    expect(other.locator(".alert-close")).to_be_hidden()
    context.close()


def test_the_cards_keep_their_size_through_a_deal_with_hints_on(browser, live_server):
    """With hints on (Medium's default) the last card of a deal has no
    hint, yet its row is kept: the cards do not grow for that one turn."""
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/steady-cards?rules=cardems&level=medium")
    take_deal(page)
    heights, hinted = [], []
    for _ in range(4):
        heights.append(page.locator(".hand button").first.bounding_box()["height"])
        hinted.append(page.locator(".hints").count())
        assert play_card(page, page.locator(".hand button").first)
    assert hinted == [1, 1, 1, 0]
    assert len(set(heights)) == 1, heights
    context.close()


def test_the_felt_stays_put_when_a_side_takes_the_face_down_cards(browser, live_server):
    """On a phone the line "3 of them face down" under a side's chips is
    kept (empty) before anyone takes them: the felt does not move down."""
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/steady-felt?rules=classic&level=easy")
    take_deal(page)
    tops, taken = set(), False
    while not taken and page.locator(".hand button").count():
        tops.add(round(page.locator(".board > .table").bounding_box()["y"]))
        assert play_card(page, page.locator(".hand button").first)
        taken = page.locator(".chip.unseen:not(.to-come)").count() == 1
    assert taken
    tops.add(round(page.locator(".board > .table").bounding_box()["y"]))
    assert len(tops) == 1, tops
    expect(page.locator(".chip.to-come")).to_have_count(0)
    context.close()


#: Whether the lines under the felt show the latest play's line whole and,
#: with hints on, the first hint (the card to play) whole after it; when the
#: two cannot fit together, the first hint whole (the felt says the latest
#: play too).
LATEST_IN_VIEW = """() => {
  const box = document.querySelector('.said') || document.querySelector('.happened');
  const last = box.querySelector('.log > li:last-child');
  const hint = box.querySelector('.hints li');
  const shown = box.getBoundingClientRect();
  const whole = (element) => {
    const line = element.getBoundingClientRect();
    return line.top >= shown.top - 1 && line.bottom <= shown.bottom + 1;
  };
  if (!hint) return !last || whole(last);
  if (!last) return whole(hint);
  const together = hint.getBoundingClientRect().bottom - last.getBoundingClientRect().top;
  return whole(hint) && (whole(last) || together > box.clientHeight + 1);
}"""


@pytest.mark.parametrize(
    ("rules", "language"),
    [("cardems", "en"), ("partners", "tr"), ("classic&players=3&teams=solo", "en")],
    ids=["cardems-en", "partners-tr", "three-en"],
)
def test_the_hand_and_the_pile_stay_put_through_a_whole_hand_on_a_phone(
    browser, live_server, rules, language
):
    """On a phone what happened and the hints keep a fixed number of lines
    under the felt, scrolling when there are more: the felt, and your hand
    at its foot, stay put from turn to turn (the hand moved by up to 102 px
    at 360x740 as lines came and went), and the latest play is in view
    with the card the hint recommends after it (the recommendation alone
    when the two do not fit).
    The pile stays put too, whatever lines come and go around it: the
    seat across's, your last card's, the pile's count and your side's
    face-down cards under it (centred, it moved by up to 26 px)."""
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/steady-hand?rules={rules}&level=medium")
    take_deal(page)
    if language != "en":
        with page.expect_navigation():
            page.locator(f".languages button[value={language}]").click()
    box = page.locator("input[name=hints]")
    if not box.is_checked():
        page.locator("details.settings summary").click()
        before = settled(page)
        box.click()
        wait_settled(page, before)
        page.locator("details.settings summary").click()
    tops, piles, hinted = [], [], 0
    while cards_in_hand(page):
        tops.append(round(page.locator(".you .hand").bounding_box()["y"]))
        piles.append(round(page.locator(".pile .fan").bounding_box()["y"]))
        hinted += page.locator(".hints").count()
        assert page.evaluate(LATEST_IN_VIEW), f"turn {len(tops)}: the news is out of view"
        assert play_card(page, page.locator(".hand button").first)
    assert len(tops) == {"cardems": 24, "partners": 12}.get(rules, 16)
    assert hinted
    assert max(tops) - min(tops) <= 2, tops
    assert max(piles) - min(piles) <= 3, piles
    context.close()


@pytest.mark.parametrize("size", [{"width": 1024, "height": 768}, {"width": 1280, "height": 700}])
def test_a_laptop_from_900_px_has_the_score_beside_the_felt(browser, live_server, size):
    """From 900 px wide the board is two columns, the felt and beside it
    the score, fitting the screen (a rule for 1200 px and wider, inserted
    into the 900 px block, took the board's rules with it: at 1024x768 the
    felt spanned the page under the score and the page scrolled)."""
    context = browser.new_context(viewport=size, reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, "beside-the-felt", "cardems")
    felt = page.locator(".board > .table").bounding_box()
    score = page.locator(".scoreboard").bounding_box()
    assert score["x"] >= felt["x"] + felt["width"] and score["y"] == felt["y"], (felt, score)
    assert page.evaluate("document.documentElement.scrollHeight") == size["height"]
    context.close()


#: Each side's chips as a late hand of a long match shows them, by language.
LATE_FIGURES = {
    "en-GB": ["26 cards", "2 piştis", "23 points", "150 / 151 pts"],
    "tr-TR": ["26 kart", "2 pişti", "23 puan", "150 / 151 puan"],
}

#: Each side's box height, and its chips that stand alone on a line (the
#: face-down cards' chip may).
SIDE_LINES = """() => [...document.querySelectorAll(".scoreboard .side")].map((side) => {
  const parts = [side.querySelector(".who"), ...side.querySelectorAll(".chip")]
    .filter((part) => part.getBoundingClientRect().width > 0);
  const middles = parts.map((part) => {
    const box = part.getBoundingClientRect();
    return (box.top + box.bottom) / 2;
  });
  const alone = parts
    .filter((part, i) => middles.filter((middle) => Math.abs(middle - middles[i]) < 4).length === 1)
    .filter((part) => part.matches(".chip:not(.unseen)")).map((part) => part.textContent.trim());
  return [Math.round(side.getBoundingClientRect().height), alone];
})"""

#: Put ``figures`` into every side's first four chips (their words as shown).
LATE_CHIPS = """(figures) => document.querySelectorAll(".scoreboard .side").forEach((side) => {
  [...side.querySelectorAll(".chip")].slice(0, 4).forEach((chip, i) => {
    (chip.querySelector(".said-whole") || chip).textContent = figures[i];
  });
})"""


@pytest.mark.parametrize("size", ["1024x768", "1280x700"])
@pytest.mark.parametrize("locale", ["en-GB", "tr-TR"])
@pytest.mark.parametrize("rules", ["classic", "partners"])
def test_a_laptops_score_keeps_its_lines_as_the_match_goes_on(
    browser, live_server, size, locale, rules
):
    """On a laptop each side's score keeps its height as the figures grow
    and the match total never stands on a line of its own: with three
    digits (Partners at 1280x700, "11 cards · 0 piştis · 3 points") it
    dropped under the hand's chips, at 1024x768 from the first card, and
    the log under the score moved down a line."""
    width, height = map(int, size.split("x"))
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale=locale, reduced_motion="reduce"
    )
    page = context.new_page()
    deal(page, live_server, "late-figures", rules)
    first = page.evaluate(SIDE_LINES)
    page.evaluate(LATE_CHIPS, LATE_FIGURES[locale])
    late = page.evaluate(SIDE_LINES)
    assert [lines for _height, lines in first + late] == [[]] * (len(first) * 2), (first, late)
    assert [height for height, _lines in late] == [height for height, _lines in first]
    context.close()


def a_laptop_hand(browser, live_server: str, size: dict, seed: str, rules: str) -> list[tuple]:
    """Play the hand of ``seed`` under ``rules`` (a deal link's query, as
    :func:`deal` takes it) by the first card at ``size``; return, at each
    of your turns, the stock's card and the pile's fan as ``(x, y)``
    rounded, the fan's right edge and its cards, and the right edge it must
    stay left of: the felt's with two players, East's seat's with more."""
    context = browser.new_context(viewport=size, reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, seed, rules)
    if page.locator(".players-2").count():
        felt = page.locator(".board > .table").bounding_box()
        limit = felt["x"] + felt["width"]
    else:
        limit = page.locator(".place-1").bounding_box()["x"]
    turns = []
    while cards_in_hand(page):
        stock = page.locator(".stock > .card").bounding_box()
        pile = page.locator(".pile .fan").bounding_box()
        turns.append(
            (
                (round(stock["x"]), round(stock["y"])),
                (round(pile["x"]), round(pile["y"])),
                pile["x"] + pile["width"],
                page.locator(".pile .fan > .card").count(),
                limit,
            )
        )
        assert play_card(page, page.locator(".hand button").first)
    context.close()
    return turns


@pytest.mark.parametrize("size", ["1280x700", "1280x800", "1024x768"])
def test_the_stock_and_the_pile_stay_put_through_a_whole_hand_on_a_laptop(
    browser, live_server, size
):
    """Two players on a laptop: the stock and the pile's first card keep
    their place as the pile grows and is taken (centred together, the stock
    slid sideways by up to 108 px at 1280x700), and as the pile's words
    wrap or your first card's line appears (the centre moved up and down
    by 7 and 11 px). The widest fan (a face-down card, the face-up edges
    and four cards: this deal has it) stays on the felt."""
    width, height = (int(n) for n in size.split("x"))
    turns = a_laptop_hand(
        browser,
        live_server,
        {"width": width, "height": height},
        "-9sZmSCpzoW5-7B_xuhbow",
        "cardems&level=easy",
    )
    assert all(right <= limit for _, _, right, _, limit in turns), turns
    fans = {fan for *_, fan, _ in turns}
    assert max(fans) == 6 and len(fans) >= 4, fans
    assert len({stock for stock, *_ in turns}) == 1, turns
    assert len({pile for _, pile, *_ in turns}) == 1, turns


@pytest.mark.parametrize("size_name", ["1280x700", "1440x900"])
@pytest.mark.parametrize("rules", ["partners", "classic&players=3&teams=solo"])
def test_the_stock_and_the_pile_stay_put_at_a_laptop_table_of_three_or_four(
    browser, live_server, size_name, rules
):
    """Between the side seats too: the stock and the pile's first card keep
    their place through a hand (the stock slid by up to 90 px at 1280x700
    and the centre moved 15 px down when the stock ran out), the fan clear
    of East's seat."""
    turns = a_laptop_hand(browser, live_server, SIZES[size_name], "stock-3", f"{rules}&level=easy")
    assert all(right <= limit for _, _, right, _, limit in turns), turns
    assert len({fan for *_, fan, _ in turns}) >= 3, turns
    assert len({stock for stock, *_ in turns}) == 1, turns
    assert len({pile for _, pile, *_ in turns}) == 1, turns


@pytest.mark.parametrize("size_name", ["360x740", "390x844"])
def test_a_three_player_table_s_larger_cards_leave_room_for_every_row(
    browser, live_server, screenshots, size_name
):
    """Three players have nobody across the table, so their cards take that
    row (at least 90 px tall on a phone held upright, 64 px before): with
    the counter, hints and a stale tab's alert it still fits. (Games put
    aside go under the aids, below the fold at a table of three or four.)"""
    context = browser.new_context(viewport=SIZES[size_name], reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, f"three-rows-{size_name}", "classic&players=3")
    assert page.locator(".hand button").first.bounding_box()["height"] >= 90
    set_aid(page, "Played-cards counter", True)
    set_aid(page, "Hints on your turn", True)
    page.locator("details.settings summary").click()
    for _ in range(3):
        assert play_card(page, page.locator(".hand button").first)
        assert_fits(page)
    other = a_stale_tab(context, page, live_server)
    other.screenshot(path=screenshots / f"rows-409-three-{size_name}.png")
    assert_fits(other)
    context.close()


def the_heaviest_table(browser, live_server: str, size_name: str):
    """A new context at ``size_name`` with four each for themselves, two
    games put aside, the counter and hints on, and a stale tab's 409 on
    that table; returns ``(context, the stale tab)``."""
    context = browser.new_context(viewport=SIZES[size_name], reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, f"aside-one-{size_name}", "classic")
    deal(page, live_server, f"aside-two-{size_name}", "cardems")
    deal(page, live_server, f"heavy-{size_name}", "classic&players=4&teams=solo")
    set_aid(page, "Played-cards counter", True)
    set_aid(page, "Hints on your turn", True)
    page.locator("details.settings summary").click()
    return context, a_stale_tab(context, page, live_server)


def test_games_put_aside_go_under_everything_at_the_table_on_a_phone(browser, live_server):
    """The heaviest phone table (four each for themselves, counter and
    hints, two games aside, a 409's alert) may not fit 360×740 whole: what
    gives way is below the felt's story — the counter, the games put aside
    and, last, the aids, whose line the language links share — never the
    table, the hand, the score or what happened."""
    context, other = the_heaviest_table(browser, live_server, "360x740")
    height = other.evaluate("innerHeight")
    for selector in (".table", ".you .hand", ".scoreboard", ".happened"):
        box = other.locator(selector).first.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, selector
    boxes = [
        other.locator(f".board > .{name}").first.bounding_box() for name in ("settings", "kept")
    ]
    assert boxes[1]["y"] < boxes[0]["y"]
    context.close()


@pytest.mark.parametrize(
    "size", [{"width": 844, "height": 390}, {"width": 667, "height": 375}], ids=["844", "667"]
)
def test_the_aids_panel_fits_a_phone_held_sideways(browser, live_server, size):
    """The aids open upwards from the page's foot: on a phone held sideways
    the panel stays between the bar and the screen's bottom edge (it once
    began 81–141 px above the screen, its first aids out of reach) and
    scrolls within itself to the last aid."""
    context = browser.new_context(viewport=size, reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, f"sideways-aids-{size['width']}", "classic&players=3")
    page.locator("details.settings summary").click()
    top, bottom, bar = page.evaluate(
        """() => {
          const box = (selector) => document.querySelector(selector).getBoundingClientRect();
          const panel = box('.board > .settings form');
          return [panel.top, panel.bottom, box('.bar').bottom];
        }"""
    )
    assert bar <= top and bottom <= size["height"], (bar, top, bottom)
    first = page.get_by_label("Highlight the cards that would capture").bounding_box()
    assert first["y"] >= bar
    set_aid(page, "Play goes clockwise", True)  # the last aid, scrolled to
    expect(page.locator("body.clockwise")).to_have_count(1)
    context.close()


#: The touch boxes at the foot of the column beside the felt: the aids'
#: title and each language link, as boxes, and the page's overflow.
FOOT_CONTROLS = """() => ({
  boxes: [...document.querySelectorAll(".board > .settings > summary, .foot button")].map(
    (control) => ({...control.getBoundingClientRect().toJSON(), name: control.textContent.trim()})
  ),
  tall: document.scrollingElement.scrollHeight - innerHeight,
})"""


def assert_foot_controls_apart(page: Page) -> None:
    """The aids' title and the language links are each a finger's height
    (44 px) and none lies over another, all within the screen."""
    found = page.evaluate(FOOT_CONTROLS)
    assert [box["name"] for box in found["boxes"][1:]] == ["English", "Türkçe"]
    assert found["tall"] == 0
    height = page.evaluate("innerHeight")
    for box in found["boxes"]:
        assert box["height"] >= 44 and box["top"] >= 0 and box["bottom"] <= height, box
    for first, second in itertools.combinations(found["boxes"], 2):
        assert not overlap(first, second), (first, second)


@pytest.mark.parametrize("locale", ["en-GB", "tr-TR"])
@pytest.mark.parametrize("size", ["640x400", "667x375", "740x360", "800x360", "812x375", "844x390"])
def test_the_aids_and_languages_keep_apart_on_a_phone_held_sideways(
    browser, live_server, screenshots, size, locale
):
    """On a phone held sideways the aids' title lay 9 px over "English"
    below it (640-799 px across: 30-62 px of their widths), or ran into it
    on their shared line (800-843 px: by 3-11 px). A finger meant for one
    may not land on the other."""
    width, height = (int(part) for part in size.split("x"))
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale=locale, has_touch=True
    )
    page = context.new_page()
    deal(page, live_server, f"sideways-foot-{size}", "classic&players=3")
    page.screenshot(path=screenshots / f"sideways-foot-{size}-{locale}.png")
    assert_foot_controls_apart(page)
    context.close()


def test_the_heaviest_table_fits_a_laptop(browser, live_server, screenshots):
    """Beside the felt on a 1280×700 laptop: four sides, two games put
    aside, the counter, hints and a 409's alert all fit the column, the aids
    and the language links sharing its last line (the column once made the
    page 57–94 px taller than the screen, your cards cut off below)."""
    context, other = the_heaviest_table(browser, live_server, "1280x700")
    expect(other.locator(".counter")).to_be_visible()
    other.screenshot(path=screenshots / "heaviest-table-1280x700.png")
    assert_fits(other)
    # What happened gives way when the column is full, scrolling within
    # itself to the latest play and the hint after it.
    box, last, hint = (
        other.locator(selector).evaluate("(element) => element.getBoundingClientRect().toJSON()")
        for selector in (
            ".board > .happened",
            ".happened .log > li:last-child",
            ".happened .hints li:last-child",
        )
    )
    assert box["top"] <= last["top"] and hint["bottom"] <= box["bottom"] + 0.5, (box, last, hint)
    context.close()


@pytest.mark.parametrize("size_name", ["1280x700", "1280x800"])
def test_the_games_put_aside_open_over_the_column_on_a_laptop(
    browser, live_server, screenshots, size_name
):
    """Three games put aside at a table of four with the counter on: opened
    on a laptop, their list drops down over the column and the table still
    fits, your hand in sight (taking the column's height, it made the page
    94 px taller than a 1280×700 screen, the hand under its edge). Each
    game's "Back to it" is in reach; Escape or a click outside closes it."""
    context = browser.new_context(viewport=SIZES[size_name], reduced_motion="reduce")
    page = context.new_page()
    for number in range(3):
        deal(page, live_server, f"aside-{number}-{size_name}", "classic")
    deal(page, live_server, f"aside-last-{size_name}", "classic&players=4&teams=solo")
    set_aid(page, "Played-cards counter", True)
    page.locator("details.settings summary").click()
    page.locator("details.kept summary").click()
    backs = page.locator(".kept").get_by_role("button", name="Back to it")
    expect(backs).to_have_count(3)
    page.screenshot(path=screenshots / f"aside-open-{size_name}.png")
    assert_fits(page)
    height = page.evaluate("innerHeight")
    for number in range(3):
        found = backs.nth(number).bounding_box()
        assert found is not None and found["y"] + found["height"] <= height
    page.keyboard.press("Escape")
    expect(backs.first).to_be_hidden()
    page.locator("details.kept summary").click()
    page.locator(".pile").click()
    expect(backs.first).to_be_hidden()
    context.close()


@pytest.mark.parametrize("language", ["English", "Türkçe"])
@pytest.mark.parametrize("width", [900, 1024, 1199])
def test_the_aids_title_keeps_clear_of_the_language_links(browser, live_server, language, width):
    """Where the column beside the felt is at its narrowest (from 900 px),
    the aids' title and the language links share its last line without
    touching ("Oyun yardımcıları" ran into "English" at 1024 px)."""
    context = browser.new_context(viewport={"width": width, "height": 768})
    page = context.new_page()
    deal(page, live_server, f"aids-title-{width}", "partners")
    if language != "English":
        page.get_by_role("button", name=language).click()
        expect(page.locator("html")).to_have_attribute("lang", "tr")
    title_ends, links_start = page.evaluate(
        """() => [
          document.querySelector('details.settings > summary').getBoundingClientRect().right,
          Math.min(...[...document.querySelectorAll('.foot button')]
            .map((link) => link.getBoundingClientRect().left)),
        ]"""
    )
    assert title_ends + 8 <= links_start, (title_ends, links_start)
    context.close()


@pytest.mark.parametrize("rules", ["classic&players=3", "classic&players=4&teams=solo"])
def test_what_happened_is_read_whole_on_a_wide_phone_held_sideways(browser, live_server, rules):
    """On a phone held sideways (844×390) with three or four sides, the
    counter and hints, the sides' chips take a row each and the aids share
    their line with the language links, so what happened is shown whole, or
    six lines of it at a new deal (it was once a box 10–38 px tall scrolling
    110–230 px of text)."""
    context = browser.new_context(viewport={"width": 844, "height": 390}, reduced_motion="reduce")
    page = context.new_page()
    deal(page, live_server, f"sideways-log-{rules.count('=')}", rules)
    set_aid(page, "Played-cards counter", True)
    set_aid(page, "Hints on your turn", True)
    page.locator("details.settings summary").click()
    for _ in range(5):
        assert play_card(page, page.locator(".hand button").first)
        shown, whole = page.evaluate(
            "(() => { const log = document.querySelector('.happened');"
            " return [log.clientHeight, log.scrollHeight]; })()"
        )
        # Whole, or (a new deal's lines and a long hint) six lines of it.
        assert shown + 1 >= min(whole, 120), (shown, whole)
        assert_fits(page)
    context.close()


#: Records, in the page, every move's duration (``Element.animate``) and
#: every wait the page's script sets (``setTimeout``), to read what the
#: replies did without timing them.
RECORD_MOVES = """
window.moves = [];
window.waits = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  window.moves.push(options && options.duration);
  return animate.call(this, keyframes, options);
};
const wait = window.setTimeout;
window.setTimeout = function (callback, ms, ...rest) {
  window.waits.push(ms);
  return wait.call(window, callback, ms, ...rest);
};
"""


@pytest.mark.parametrize("rules", ["cardems", "partners"])
def test_the_slower_plays_aid_slows_each_reply_and_rests_it_on_the_pile(
    page: Page, live_server, rules
):
    """Off, a reply moves in a quarter second or less and the next follows
    before it has landed; on, each reply moves in 600 ms, whole, and rests
    450 ms on the pile (static/pisti.js, SLOW_REPLY_MS and SLOW_REST_MS),
    once per computer seat."""
    page.add_init_script(RECORD_MOVES)
    deal(page, live_server, QUIET_SEED, rules)
    replies = 1 if rules == "cardems" else 3
    cards = cards_in_hand(page)
    assert play_card(page, page.locator(".you .hand button").first)
    moves = page.evaluate("() => window.moves")
    assert moves and max(moves) <= 250
    assert 450 not in page.evaluate("() => window.waits")
    set_aid(page, "The others play slower: each card rests a moment on the pile", True)
    expect(page.locator("body")).to_have_class(re.compile(r"\bslow-plays\b"))
    page.evaluate("() => { window.moves = []; window.waits = []; }")
    assert play_card(page, page.locator(".you .hand button").first)
    moves = page.evaluate("() => window.moves")
    assert 600 in moves and max(moves) == 600
    assert page.evaluate("() => window.waits").count(450) == replies
    # The game goes on as before: two cards played, the hand takes a third.
    assert cards_in_hand(page) == cards - 2
    set_aid(page, "The others play slower: each card rests a moment on the pile", False)
    page.evaluate("() => { window.moves = []; window.waits = []; }")
    assert play_card(page, page.locator(".you .hand button").first)
    assert max(page.evaluate("() => window.moves")) <= 250


FAST = "Fast play: the cards move quickly, the hand's score comes sooner"


def test_fast_play_moves_each_card_quicker_and_brings_the_score_sooner(
    browser: Browser, live_server
):
    """Off, your card moves in 250 ms, a reply in 250 ms and the hand's last
    cards stay 900 ms before its score; with the "fast play" aid each move
    takes 40 % of that (100 ms at most) and the last cards stay 300 ms
    (static/pisti.js, FAST and FAST_HOLD_MS). The aid is kept: a reload,
    and a new page in the same browser, still play fast. The game goes on
    as before, to the hand's score and its "Next hand"."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.add_init_script(RECORD_MOVES)
    page.goto(f"{live_server}/")
    page.locator("form.stack").first.locator("input[value=classic]").check()
    page.locator("form.stack").first.get_by_role("button", name="New game").click()
    expect(page.locator(".hand button").first).to_be_visible()
    assert play_card(page, page.locator(".you .hand button").first)
    assert max(page.evaluate("() => window.moves")) == 250
    set_aid(page, FAST, True)
    expect(page.locator("body")).to_have_class(re.compile(r"\bfast-play\b"))
    page.reload()
    expect(page.get_by_label(FAST)).to_be_checked()
    page.evaluate("() => { window.moves = []; window.waits = []; }")
    assert play_card(page, page.locator(".you .hand button").first)
    moves = page.evaluate("() => window.moves")
    assert moves and max(moves) == 100
    play_out(page)
    expect(page.get_by_role("heading", name="Hand 1 is over")).to_be_visible()
    waits = page.evaluate("() => window.waits")
    assert 300 in waits and 900 not in waits
    assert max(page.evaluate("() => window.moves")) == 100
    # Another page of the same browser (the aids cookie) plays fast too.
    other = context.new_page()
    other.goto(f"{live_server}/")
    expect(other.get_by_label(FAST)).to_be_checked()
    expect(other.locator("body")).to_have_class(re.compile(r"\bfast-play\b"))
    context.close()


def test_the_click_benchmark_turns_fast_play_on(page: Page, live_server):
    """``benchmarks/click_to_settled.py --fast`` ticks the aid as a player
    would and waits for the page to play fast: a wait the page's Content
    Security Policy allows (no string evaluated as script)."""
    play_fast(page, live_server)
    expect(page.locator("body")).to_have_class(re.compile(r"\bfast-play\b"))
    expect(page.get_by_label(FAST)).to_be_checked()


DEAL_ON = "Deal the next hand at once: the last hand's points at the table"


def match_totals(page: Page) -> list[int]:
    """Each side's match total on the table's scoreboard ("16 / 51 pts")."""
    return [
        int(re.search(r"(\d+) / 51 pts", text).group(1))
        for text in page.locator(".scoreboard .side").all_inner_texts()
    ]


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_deal_on_brings_the_next_hand_with_the_hands_points(browser: Browser, live_server, motion):
    """Off, a classic match's hand ends on its score's page, "Next hand" to
    press. With the "deal the next hand at once" aid (kept after a reload)
    the hand's last play brings the next hand's table: its bar says the
    next hand, and over what happened the last hand's heading, its points
    (what the scoreboard's totals grew by) and the match's totals, read out
    with the table's lines; it closes with its button. The next hand plays
    on."""
    context = browser.new_context(viewport=PHONE, reduced_motion=motion)
    page = context.new_page()
    # A deal link, not New game's random deal: after some deals (seed
    # "deal-on-points" too) the first card's play gave the computer the
    # match's 51 points in two hands, and hand 2 had no next hand.
    deal(page, live_server, "deal-on-a", rules="classic")
    play_out(page)
    expect(page.get_by_role("heading", name="Hand 1 is over")).to_be_visible()
    submit(page, page.get_by_role("button", name="Next hand"))
    expect(page.locator(".meta")).to_contain_text("hand 2")
    before = match_totals(page)
    set_aid(page, DEAL_ON, True)
    page.reload()
    expect(page.get_by_label(DEAL_ON)).to_be_checked()
    page.keyboard.press("Escape")
    while not page.locator(".hand-over").count():
        # (The last play's page has the note, an alert: play_card says so.)
        play_card(page, page.locator(".you .hand button").first)
    expect(page.locator(".meta")).to_contain_text("hand 3")
    expect(page.locator(".hand button")).to_have_count(4)
    after = match_totals(page)
    note = page.locator(".happened > .hand-over")
    expect(note).to_be_visible()
    said = note.inner_text()
    assert said.startswith("Hand 2 is over. ")
    assert f"Match: You {after[0]}, Computer {after[1]}." in said
    points = sorted(after[side] - before[side] for side in (0, 1))
    winner = re.search(r"took the hand, (\d+) points? to (\d+)\.", said)
    drawn = re.search(r"(\d+) points? each", said)
    told = [int(drawn.group(1))] * 2 if drawn else [int(n) for n in winner.groups()]
    assert sorted(told) == points
    assert page.locator(".happened .live").inner_text().count("Hand 2 is over. ") == 1
    note.get_by_role("button", name="Close this message").click()
    expect(page.locator(".hand-over")).to_have_count(0)
    # Closed, it stays closed through an aids change.
    set_aid(page, "Played-cards counter", True)
    expect(page.locator(".counter")).to_be_visible()
    expect(page.locator(".hand-over")).to_have_count(0)
    # A reload (as one just after the next hand was asked for) says it again.
    page.reload()
    expect(note).to_have_text(said)
    assert play_card(page, page.locator(".you .hand button").first)
    expect(page.locator(".hand-over")).to_have_count(0)
    expect(page.locator(".hand button")).to_have_count(3)
    context.close()


def test_deal_on_a_reload_just_after_next_hand_still_says_the_hands_points(
    browser: Browser, live_server
):
    """With "deal the next hand at once", a reload in the instant between
    the script's "Next hand" being answered and the next table shown lands
    on the next table: it says the last hand's result too (the note came
    from the script alone, so that table said nothing of the hand's
    points, shown nowhere then)."""
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    context.add_cookies([{"name": "pisti_aids", "value": "deal_on", "url": live_server}])
    page = context.new_page()
    deal(page, live_server, "deal-on-a", rules="classic")
    hand = page.locator(".you .hand button")
    while not (
        page.locator(".meta").inner_text().endswith("deal 6 of 6") and cards_in_hand(page) == 1
    ):
        assert play_card(page, hand.first)
    # "Next hand", sent by the page once the last cards have been held,
    # reaches the server; its answer never reaches the page, reloaded then.
    held = never_answer_the_first(page, f"{live_server}/next", reaches_server=True)
    hand.click()
    held.wait(page, reaches_server=True)
    page.reload()
    expect(page.locator(".meta")).to_contain_text("hand 2")
    note = page.locator(".happened > .hand-over")
    expect(note).to_contain_text("Hand 1 is over. ")
    expect(note).to_contain_text(re.compile(r"Match: You \d+, Computer \d+\."))
    assert match_totals(page) == [
        int(n) for n in re.search(r"Match: You (\d+), Computer (\d+)\.", note.inner_text()).groups()
    ]
    assert play_card(page, hand.first)
    expect(page.locator(".hand-over")).to_have_count(0)
    context.close()


def test_deal_on_note_keeps_the_scores_unbroken_spaces(browser: Browser, live_server):
    """The hand's score in Turkish, "Elin kazananı: Siz (12 – 4).", holds its
    figures together with non-breaking spaces (messages.po); the "deal the
    next hand at once" note, made of the score page's words, keeps them, so
    a narrow note never ends a line on "(12 –" with "4)." on the next."""
    context = browser.new_context(viewport=DESKTOP, locale="tr-TR", reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/shots-tr-1280x800?rules=classic&level=easy")
    take_deal(page)
    page.locator("details.settings summary").click()
    before = settled(page)
    page.locator("input[name=deal_on]").check()
    wait_settled(page, before)
    page.keyboard.press("Escape")
    while not page.locator(".hand-over").count():
        play_card(page, page.locator(".you .hand button").first)
    said = page.locator(".happened > .hand-over").text_content()
    assert re.search(r"Elin kazananı: (Siz|Bilgisayar) \(\d+\u00a0–\u2060\u00a0\d+\)\.", said)
    context.close()


def test_deal_on_asks_for_the_next_hand_once_the_last_cards_are_held(browser: Browser, live_server):
    """With "deal the next hand at once", the next hand is asked for only
    when the hand's last cards have been held: a page reloaded (or left)
    while they are in view reads the hand's score, "Next hand" to press.
    Its "Next hand" was sent as the last play's answer came, so a reload
    then brought the next hand's table and the hand's points were never
    shown anywhere."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "pisti_aids", "value": "deal_on", "url": live_server}])
    page = context.new_page()
    # The page's timers wait for the test: the last cards' hold lasts until
    # the clock is run on.
    page.clock.install()
    deal(page, live_server, "deal-on-held", rules="classic")
    hand = page.locator(".you .hand button")
    meta = page.locator(".meta")
    while not (meta.inner_text().endswith("deal 6 of 6") and cards_in_hand(page) == 1):
        assert play_card(page, hand.first)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(f"{request.method} {request.url}"))
    with page.expect_response(f"{live_server}/play"):
        hand.click()
    # The hand's last cards have landed and are held.
    page.wait_for_function(
        """() => document.documentElement.dataset.state === "busy"
          && !document.querySelector(".you .hand button")
          && !document.getAnimations().some((move) => move.playState === "running")"""
    )
    page.wait_for_load_state("networkidle")
    assert f"POST {live_server}/next" not in asked
    page.reload()
    expect(page.get_by_role("heading", name="Hand 1 is over")).to_be_visible()
    submit(page, page.get_by_role("button", name="Next hand"))
    expect(page.locator(".meta")).to_contain_text("hand 2")
    context.close()


def test_deal_on_keeps_the_score_pages_remark_and_last_plays(browser: Browser, live_server):
    """A story match with "deal the next hand at once": the hand's note at
    the next table keeps what the score's page said besides the points, the
    opponent's remark on the hand (lost before: Aunt Hayriye's words after
    a hand were never shown), and a screen reader hears, with the note, the
    hand's last plays (they passed unread while
    the cards moved, and the score's page reads them out)."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "pisti_aids", "value": "deal_on.remarks", "url": live_server}])
    page = context.new_page()
    page.goto(f"{live_server}/story")
    submit(page, page.locator("form[action$='/lesson/skip'] button"))
    submit(page, page.locator("form[action$='/story/play'] button").first)
    while not page.locator(".hand-over").count():
        play_card(page, page.locator(".you .hand button").first)
    expect(page.locator(".meta")).to_contain_text("hand 2")
    note = page.locator(".happened > .hand-over")
    said = note.inner_text()
    aunt = CAST[0]
    if "points each" not in said:
        remark = aunt.won_hand if "Aunt Hayriye took the hand" in said else aunt.lost_hand
        expect(note.locator(".story-remark")).to_have_text(f"{aunt.name}: {remark}")
    heard = page.locator(".happened .live").inner_text()
    assert heard.startswith("Hand 1 is over. ")
    last_plays = heard.partition("The last plays")[2]
    assert re.search(r"(You|Aunt Hayriye) played ", last_plays)
    note.get_by_role("button", name="Close this message").click()
    expect(page.locator(".hand-over")).to_have_count(0)
    assert play_card(page, page.locator(".you .hand button").first)
    context.close()


def test_deal_on_tells_each_of_three_sides_points(browser: Browser, live_server):
    """With three sides the score's page says who took the hand with how
    many points, and its glance each side's points: the hand's note at the
    next table says each side's too (it said the winner's alone, so the
    others' points of the hand were shown nowhere)."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "pisti_aids", "value": "deal_on", "url": live_server}])
    page = context.new_page()
    page.goto(f"{live_server}/house")
    players = page.locator("#players")
    if not players.is_visible():
        page.locator("details.rule-group:has(#players) > summary").click()
    players.select_option("3")
    submit(page, page.get_by_role("button", name="Play with these rules"))
    while not page.locator(".hand-over").count():
        play_card(page, page.locator(".you .hand button").first)
    said = page.locator(".happened > .hand-over").inner_text()
    # The first hand's points are the match's totals.
    match = re.search(r"Match: You (\d+), East (\d+), West (\d+)\.", said)
    assert match, said
    you, east, west = match.groups()
    assert f"Hand: You {you}, East {east}, West {west}." in said
    assert (
        f"Hand: You {you}, East {east}, West {west}."
        in page.locator(".happened .live").inner_text()
    )
    context.close()


RECORD_SOUNDS = """
window.noises = 0;
window.notes = 0;
const startNoise = AudioBufferSourceNode.prototype.start;
AudioBufferSourceNode.prototype.start = function (...args) {
  window.noises += 1;
  return startNoise.apply(this, args);
};
const startNote = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.notes += 1;
  return startNote.apply(this, args);
};
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_sounds_aid_sounds_each_card_and_chimes_a_pisti(browser: Browser, live_server, motion):
    """Off, no sound is made (no AudioContext at all); on, each card makes
    a sound as it lands (a noise: a tap, or a capture's sweep) and a pişti
    adds two notes, a Jack pişti three, through a whole hand, whether the
    cards move or not (reduced motion: the sounds follow the page)."""
    context = browser.new_context(viewport=PHONE, reduced_motion=motion)
    page = context.new_page()
    page.add_init_script(RECORD_SOUNDS)
    deal(page, live_server, "sounds-7")
    assert play_card(page, page.locator(".you .hand button").first)
    assert page.evaluate("() => [window.noises, window.notes, typeof audio, audio]") == [
        0,
        0,
        "object",
        None,
    ]
    set_aid(page, "Sounds: a tap as each card lands, a chime for a pişti", True)
    page.keyboard.press("Escape")
    while page.locator(".you .hand button").count():
        assert play_card(page, page.locator(".you .hand button").first)
    assert page.evaluate("() => audio.state") == "running"
    record = json.loads(page.request.get(f"{live_server}/record").text())
    state = GameState(CARDEMS, record["deck"])
    results = [state.play(card) for card in record["plays"]]
    heard = results[2:]  # the first play and its reply, before the aid
    piştis = sum(result.pisti and not result.jack_pisti for result in heard)
    jack_piştis = sum(result.jack_pisti for result in heard)
    assert piştis and jack_piştis
    page.wait_for_function("n => window.noises >= n", arg=len(heard))
    page.wait_for_timeout(500)
    assert page.evaluate("() => [window.noises, window.notes]") == [
        len(heard),
        2 * piştis + 3 * jack_piştis,
    ]
    context.close()


def test_a_double_tap_shows_the_end_at_once_and_its_sounds_follow(page: Page, live_server):
    """A double tap's second tap (or a click while the cards move) shows the
    play's end at once: the plays whose cards had not landed yet still make
    their sounds, one after another, each once (before, such a play made
    none: not your card's tap, not a reply's chime)."""
    page.add_init_script(RECORD_SOUNDS)
    deal(page, live_server, "sounds-7")
    set_aid(page, "Sounds: a tap as each card lands, a chime for a pişti", True)
    page.keyboard.press("Escape")
    steps = 0
    for _ in range(3):
        before = settled_when_ready(page)
        with page.expect_response(re.compile(r"/play$")) as answer:
            page.locator(".you .hand button").first.dblclick()
        wait_settled(page, before)
        steps += answer.value.text().count('<template class="frame"')
        page.wait_for_function("n => window.noises >= n", arg=steps, timeout=5000)
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.noises") == steps == 6


#: Each sound's sources as made, on the audio clock: a noise begins a
#: sound (its notes follow), with when it starts and when it stops (the
#: last stop asked for: a sound cut by the next is stopped again, sooner).
RECORD_SOUND_TIMES = """
window.sources = [];
for (const [kind, made] of [["noise", AudioBufferSourceNode], ["note", OscillatorNode]]) {
  const start = made.prototype.start;
  const stop = made.prototype.stop;
  made.prototype.start = function (at = 0, ...rest) {
    this.heard = { kind, start: at, stop: Infinity };
    window.sources.push(this.heard);
    return start.call(this, at, ...rest);
  };
  made.prototype.stop = function (at = 0) {
    this.heard.stop = at;
    return stop.call(this, at);
  };
}
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_sounds_of_cards_played_quickly_never_overlap(browser: Browser, live_server, motion):
    """Cards played one after another as fast as the page takes them: each
    sound starts 200 ms at least after the one before (static/pisti.js,
    SOUND_GAP_MS) and what still rings of that one (a pişti's chime) stops
    within 20 ms of it (FADE_S). Before, a play's sounds shown at once
    (reduced motion) ran over the next play's, 200 ms apart each, and a
    chime rang on under the next card's tap."""
    context = browser.new_context(viewport=PHONE, reduced_motion=motion)
    page = context.new_page()
    page.add_init_script(RECORD_SOUND_TIMES)
    deal(page, live_server, "sounds-7")
    set_aid(page, "Sounds: a tap as each card lands, a chime for a pişti", True)
    page.keyboard.press("Escape")
    while page.locator(".you .hand button").count():
        assert play_card(page, page.locator(".you .hand button").first)
    made = page.evaluate("() => window.sources")
    sounds: list[list[dict]] = []
    for source in made:
        if source["kind"] == "noise":
            sounds.append([source])
        else:
            sounds[-1].append(source)
    assert len(sounds) >= 8 and any(len(parts) > 1 for parts in sounds)
    for before, after in itertools.pairwise(sounds):
        begins = after[0]["start"]
        assert begins - before[0]["start"] >= 0.2 - 1e-6
        assert max(part["stop"] for part in before) <= begins + 0.02 + 1e-6
    context.close()


@pytest.mark.parametrize(
    "refusal",
    [
        "window.AudioBufferSourceNode = function () { throw new Error('no'); };",
        # A context refused outright (a privacy setting or an extension's):
        # before, the play never settled.
        "window.AudioContext = function () { throw new DOMException('no', 'NotAllowedError'); };",
    ],
    ids=["node", "context"],
)
def test_a_browser_whose_web_audio_fails_plays_on_in_silence(page: Page, live_server, refusal):
    """A part of Web Audio missing or refusing (an older browser's) stops
    no play: the sounds are left out and the cards move as ever."""
    page.add_init_script(refusal)
    deal(page, live_server, QUIET_SEED)
    set_aid(page, "Sounds: a tap as each card lands, a chime for a pişti", True)
    page.keyboard.press("Escape")
    cards = cards_in_hand(page)
    for _ in range(2):
        assert play_card(page, page.locator(".you .hand button").first)
    assert cards_in_hand(page) == cards - 2
