"""Small layout promises in Chromium, from a look at every page at phone and
laptop sizes: boxes to tick keep their size beside long labels, each
computer's level sits beside its name, a review's Previous, Summary and Next
share one line on a 360 px phone, "face-down" is not split on a phone, the
home page's New game button is on a small phone's first screen and its
ways on to the Daily deal and the rest on a laptop's, links that
stand alone are a finger's height, the centre of a table of three or
four keeps clear of the side seats on a phone, and a long house-rules line
keeps a phone's bar low on every page of the game, the bar keeps each
number with its words ("deal 1 of 6", "to 51") on a phone, a score's
piştis chip keeps its "·" with a count, a late match's score fits a 360 px
phone and a phone held sideways in letters of 11 px or more, an error page
held sideways fits its screen, and a 10's corner reads whole under the card
fanned over it."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app.db import db, queries
from app.engine import CLASSIC, GameState, seeded_deck
from app.engine.match import first_rotation
from app.web.regions import scoreboard
from tests.conftest import serve
from tests.e2e.conftest import (
    cards_in_hand,
    contrast,
    e2e_app,
    one_line_apart,
    play_card,
    play_out,
    submit,
    take_deal,
)
from tests.e2e.test_table_motion import SIZES


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None
    return found


def test_ticks_keep_their_size_beside_long_labels(browser: Browser, live_server):
    for size in ("360x740", "1280x800"):
        context = browser.new_context(viewport=SIZES[size])
        page = context.new_page()
        page.goto(f"{live_server}/deal/ticks")
        take_deal(page)
        page.locator("details.settings summary").click()
        ticks = page.locator("details.settings input[type=checkbox]")
        widths = {round(box(tick)["width"], 1) for tick in ticks.all()}
        assert len(widths) == 1, f"{size}: {widths}"
        # The home page's aids: one below the other, not in a ragged row.
        page.goto(f"{live_server}/")
        page.locator(".panel details:has(form.aids) summary, .panel .aids").first.evaluate(
            "e => e.closest('details') && (e.closest('details').open = true)"
        )
        lefts = {
            round(box(tick)["x"]) for tick in page.locator("form.aids input[type=checkbox]").all()
        }
        assert len(lefts) == 1, f"{size}: {lefts}"
        context.close()


def test_each_computers_level_sits_beside_its_name_on_a_laptop(page: Page, live_server):
    page.set_viewport_size(SIZES["1280x800"])
    page.goto(f"{live_server}/")
    form = page.locator("form[action='/new']")
    form.locator("input[name=rules][value=partners]").check()
    form.locator("details.partners-levels summary").click()
    for position in (1, 2, 3):
        label = box(form.locator(f"label[for='level_{position}']"))
        select = box(form.locator(f"#level_{position}"))
        assert label["x"] + label["width"] <= select["x"]
        assert abs((label["y"] + label["height"] / 2) - (select["y"] + select["height"] / 2)) < 4


@pytest.mark.parametrize("rules", ["cardems", "classic", "partners"])
def test_the_new_game_button_is_on_a_small_phones_first_screen(
    browser: Browser, live_server, rules
):
    """On a 360x740 phone the home page's New game button is in the first
    screen whichever game is chosen (Classic and Partners add the match's
    target, Partners a level for each computer)."""
    context = browser.new_context(viewport=SIZES["360x740"])
    page = context.new_page()
    page.goto(f"{live_server}/")
    form = page.locator("form[action='/new']")
    form.locator(f"input[name=rules][value={rules}]").check()
    button = box(form.get_by_role("button", name="New game"))
    assert button["y"] + button["height"] <= SIZES["360x740"]["height"]
    context.close()


@pytest.mark.parametrize("language", ["English", "Türkçe"])
def test_the_home_pages_first_screen_on_a_laptop_shows_where_to_go(
    browser: Browser, live_server, language
):
    """On a 1280×700 laptop the home page's first screen holds the New game
    form, its two links and the Daily deal, leaderboards, profile and story
    (they began below it: the games one under the other, the links too)."""
    context = browser.new_context(viewport=SIZES["1280x700"])
    page = context.new_page()
    page.goto(f"{live_server}/")
    if language != "English":
        with page.expect_navigation():
            page.get_by_role("button", name=language).click()
    links = page.locator(".home-links a")
    expect(links).to_have_count(4)
    for number in range(4):
        found = box(links.nth(number))
        assert found["y"] + found["height"] <= SIZES["1280x700"]["height"], number
    context.close()


#: How many lines the text from "face" to "down" of an element is drawn on.
FACE_DOWN_LINES = """(element) => {
  const text = element.firstChild;
  const range = document.createRange();
  range.setStart(text, text.data.indexOf("face"));
  range.setEnd(text, text.data.indexOf("down") + 4);
  return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
}"""


def test_the_face_down_cards_label_keeps_face_down_whole_on_a_phone(browser: Browser, live_server):
    """Partners at 360 px: "Your side's face-down cards:" wraps between
    words, never as "face-" / "down"."""
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/fd-0?rules=partners&level=medium")
    take_deal(page)
    label = page.locator(".seen-face-down > span[aria-hidden]")
    for _ in range(4):
        if label.count():
            break
        assert play_card(page, page.locator(".hand button").first)
    expect(label).to_have_count(1)
    assert label.evaluate(FACE_DOWN_LINES) == 1
    context.close()


def test_a_reviews_links_fit_a_small_phone(browser: Browser, live_server):
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/layout-review")
    take_deal(page)
    play_out(page)
    page.get_by_role("button", name="Review this game").click()
    page.get_by_role("link", name="Next").first.click()
    nav = page.locator(".review-nav").first
    # On one line, 8 px apart at least (a finger's slip: they were 4.8).
    assert nav.locator("a").count() == 3 and one_line_apart(nav) >= 8
    assert box(page.get_by_role("link", name="Show the hidden cards"))["height"] >= 44
    # the table's cards a phone's size, the rings round yours and the best told
    assert box(page.locator(".review-seat.you .review-card").first)["width"] >= 40
    expect(page.locator(".review-legend")).to_have_text("your card best")
    page.get_by_role("link", name="Summary").first.click()
    expect(page.locator(".review-figures")).to_be_visible(timeout=60_000)
    for link in page.locator("a.decision-link").all():
        found = box(link)
        assert found["height"] >= 44 and found["width"] >= 44
    # the three costliest moves' links too, whenever there are any
    for link in page.locator(".costliest a").all():
        assert box(link)["height"] >= 44
    context.close()


def test_the_daily_pages_links_to_yesterday_are_a_fingers_height(browser: Browser, live_server):
    context = browser.new_context(viewport=SIZES["360x740"])
    page = context.new_page()
    page.goto(f"{live_server}/daily")
    links = page.locator("section", has_text="Yesterday's deals").locator("li a")
    assert links.count() == 3
    for link in links.all():
        assert box(link)["height"] >= 44
    context.close()


RING = """e => {
  const behind = (node) => {
    for (let at = node.parentElement; at; at = at.parentElement) {
      const colour = getComputedStyle(at).backgroundColor;
      if (!/rgba\\(.*, 0\\)$|transparent/.test(colour)) return colour;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  return [e.matches(':focus-visible'), getComputedStyle(e).outlineColor, behind(e)];
}"""


def test_the_focus_ring_stands_out_from_what_is_behind_it(browser: Browser, live_server):
    """Keyboard focus is drawn at 3:1 or more against the ground around the
    control, in both colour schemes: a dark ring on the page and its light
    panels (a gold one measured 1.4:1 on the page and 1.6:1 in the aids),
    gold on the dark bar."""
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=SIZES["390x844"], color_scheme=scheme)
        page = context.new_page()
        page.goto(f"{live_server}/deal/focus-ring")
        take_deal(page)
        page.locator("details.settings summary").press("Enter")
        _assert_rings_stand_out(
            page,
            scheme,
            {
                "the aids' summary": page.locator("details.settings summary"),
                "an aid": page.locator("details.settings input[type=checkbox]").first,
                "the bar's New game": page.locator(".bar .button").first,
            },
        )
        page.goto(f"{live_server}/")
        _assert_rings_stand_out(
            page,
            scheme,
            {
                "the home page's Daily deal": page.get_by_role("link", name="Daily deal"),
                "Continue your game": page.get_by_role("link", name="Continue your game"),
            },
        )
        context.close()


@pytest.mark.parametrize("address", ["/daily", "/me", "/leaderboard"])
def test_every_link_has_the_sites_focus_ring(browser: Browser, live_server, address):
    """A link reached by the keyboard gets the site's 3 px ring, in the bar
    (the brand) and on the page (the links at a page's foot drew the
    browser's own thin ring)."""
    context = browser.new_context(viewport=SIZES["390x844"])
    page = context.new_page()
    page.goto(live_server + address)
    links = page.locator(".bar a:visible, main a:visible")
    assert links.count() >= 2
    for link in links.all():
        link.focus()
        width, style = link.evaluate(
            "e => [getComputedStyle(e).outlineWidth, getComputedStyle(e).outlineStyle]"
        )
        assert (width, style) == ("3px", "solid"), link.inner_text()
    context.close()


def _assert_rings_stand_out(page: Page, scheme: str, targets: dict) -> None:
    for name, target in targets.items():
        target.focus()
        visible, ring, ground = target.evaluate(RING)
        assert visible, name
        assert contrast(ring, ground) >= 3, f"{scheme}, {name}: {ring} on {ground}"


#: How much of three sides of the focused card's focus ring (on whichever
#: element draws it) is left in view: the share of 20 points along the side
#: that are neither under a card (its border box, or its 3 px gold mark for
#: the card itself, which a click cannot find) nor under a "takes" label.
RING_IN_VIEW = """() => {
  const button = document.activeElement;
  const card = button.querySelector('.card');
  const ringed = [button, card].find((e) => getComputedStyle(e).outlineStyle !== 'none');
  const style = getComputedStyle(ringed);
  const out = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth) / 2;
  const r = ringed.getBoundingClientRect();
  const own = card.getBoundingClientRect();
  const covered = (x, y) => {
    if (x > own.left - 3 && x < own.right + 3 && y > own.top - 3 && y < own.bottom + 3) return true;
    return Boolean(document.elementFromPoint(x, y)?.closest('.card, .take-mark'));
  };
  const side = (point) => {
    let clear = 0;
    for (let i = 1; i <= 20; i++) clear += !covered(...point(i / 21));
    return clear / 20;
  };
  return {
    top: side((f) => [r.left + f * r.width, r.top - out]),
    left: side((f) => [r.left - out, r.top + f * r.height]),
    right: side((f) => [r.right + out, r.top + f * r.height]),
  };
}"""


@pytest.mark.parametrize("size", ["390x844", "360x740"])
def test_a_focused_card_s_ring_is_drawn_clear_of_the_cards(browser: Browser, live_server, size):
    """The keyboard's ring on a card marked "takes", in a phone's tight
    hand, shows on its top and both sides: not under the lifted card's gold
    mark (at 390 px its top was), nor under the next card. Its "takes"
    label is drawn over the bottom side (at 360 px all of it)."""
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/focus-2?rules=cardems&level=easy")
    take_deal(page)
    takes = page.locator(".hand .card-button.captures")
    expect(takes).to_have_count(1)
    page.locator(".hand .card-button").nth(2).focus()
    page.keyboard.press("Tab")
    expect(takes).to_be_focused()
    assert takes.evaluate("e => e.matches(':focus-visible')")
    in_view = page.evaluate(RING_IN_VIEW)
    assert min(in_view["top"], in_view["left"], in_view["right"]) >= 0.9, in_view
    context.close()


def test_a_profile_forms_answer_opens_at_that_form_on_a_phone(browser: Browser, live_server):
    """On a 360×740 phone the profile's lower forms are a screen or more
    down: a new transfer code, and the refusal of "Forget me" without its
    box ticked, are in view when their answer loads (they were 900 px below
    it), and a reload keeps the profile's address."""
    context = browser.new_context(viewport=SIZES["360x740"])
    page = context.new_page()
    page.goto(f"{live_server}/me")
    page.get_by_label("Your display name").fill("Far Down")
    page.get_by_role("button", name="Keep my results").click()
    expect(page.locator("h1")).to_have_text("Far Down")
    page.get_by_role("button", name="Make a transfer code").click()
    expect(page.locator(".transfer-code")).to_be_in_viewport()
    expect(page).to_have_url(f"{live_server}/me#transfer")
    page.get_by_role("button", name="Forget me").click()
    expect(page.get_by_role("alert")).to_have_text("Tick the box to confirm; nothing was deleted.")
    expect(page.get_by_role("alert")).to_be_in_viewport()
    # The name sits in a <bdi>, which Chromium's accessible name sets apart
    # with spaces inside the quote marks; the words are the same.
    tick = page.get_by_role(
        "checkbox",
        name=re.compile(r"^Delete the name “ ?Far Down ?” and everything kept under it for good$"),
    )
    expect(tick).to_be_focused()
    page.reload()
    expect(page.locator("h1")).to_have_text("Far Down")
    context.close()


CENTRE_OVERLAPS = """() => {
  const centre = document.querySelector('.table .centre').getBoundingClientRect();
  const parts = [...document.querySelectorAll('.table .centre > *')]
    .map(e => e.getBoundingClientRect()).filter(r => r.width);
  const seats = [...document.querySelectorAll('.table .seat:not(.place-top) > *')]
    .map(e => e.getBoundingClientRect()).filter(r => r.width);
  const out = [];
  for (const part of parts) {
    if (part.left < centre.left - 1 || part.right > centre.right + 1)
      out.push(`past the centre's column: ${part.left}-${part.right}`);
    for (const seat of seats) {
      const w = Math.min(part.right, seat.right) - Math.max(part.left, seat.left);
      const h = Math.min(part.bottom, seat.bottom) - Math.max(part.top, seat.top);
      if (w > 1 && h > 1) out.push(`over a side seat by ${w} px`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", ["360x740", "390x844"])
@pytest.mark.parametrize("rules", ["partners", "classic&players=3"])
def test_the_centre_keeps_clear_of_the_side_seats_on_a_phone(
    browser: Browser, live_server, screenshots, size, rules
):
    """With three or four players on a phone, the stock and the pile stay
    in their column between the side seats, the pile fanned at its widest
    (a face-down card, face-up ones under the fan, four on top): they once
    ran 31-35 px under the seats at 360 px, the stock's words printed over
    West's last card."""
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/first-look?rules={rules}")
    take_deal(page)
    widest = 0
    for _ in range(4):
        assert page.evaluate(CENTRE_OVERLAPS) == []
        widest = max(widest, page.locator(".pile .fan > *").count())
        assert play_card(page, page.locator(".hand button").first)
    assert widest == 6
    page.screenshot(path=screenshots / f"centre-{rules.count('=')}-{size}.png")
    context.close()


#: A deal whose face-up centre card is a 10 and whose first play is the
#: computer's (the first dealer is you), with neither a 10 nor a Jack: it
#: lays its card over the 10.
TEN_UNDER = next(
    seed
    for seed in (f"ten-under-{number}" for number in range(500))
    if first_rotation(seed, 2) == 1
    and (state := GameState(CLASSIC, seeded_deck(seed, CLASSIC))).pile_top[0] == "T"
    and not any(card[0] in "TJ" for card in state.hands[0])
)

#: Each 10 in the pile's fan: whether it is the top card, and the points of
#: its corner's "10" (across its width, down its digits) where something
#: else lies over it.
TEN_CORNERS = """() => [...document.querySelectorAll(".pile .fan svg:has(.ten)")].map((card) => {
  const box = card.querySelector(".index").getBoundingClientRect();
  const covered = [];
  for (const across of [0.05, 0.25, 0.5, 0.75, 0.9, 0.98]) {
    for (const down of [0.35, 0.55, 0.7]) {
      const x = box.left + across * box.width, y = box.top + down * box.height;
      const found = document.elementFromPoint(x, y);
      if (found?.closest("svg.card") !== card) covered.push([across, down]);
    }
  }
  return {top: card === card.parentElement.lastElementChild, covered};
})"""


@pytest.mark.parametrize("size", ["360x740", "390x844", "1280x800"])
def test_a_tens_corner_reads_whole_under_the_next_card(
    browser: Browser, live_server, screenshots, size
):
    """A 10 in the pile's fan, a card laid over it: its corner read "1(0",
    the next card's edge over the "0" (the fan shows 45 of a card's 100
    units; the "10" took 39 from 7). Its two digits now take the width of
    another rank's one, and nothing lies over them."""
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/{TEN_UNDER}?rules=classic")
    take_deal(page)
    expect(page.locator(".hand button").first).to_be_visible()
    page.locator(".pile .fan").screenshot(path=screenshots / f"ten-under-{size}.png")
    corners = page.evaluate(TEN_CORNERS)
    assert [corner["top"] for corner in corners] == [False]
    assert corners[0]["covered"] == []
    context.close()


#: The side seats' last cards and their words: the words' top, the card's
#: bottom, and how many lines the words take.
SIDE_LAST_PLAYS = """() => [".place-1", ".place-3"].map((place) => {
  const words = document.querySelector(`${place} .last-play > span`);
  const card = document.querySelector(`${place} .last-play > .card`).getBoundingClientRect();
  const box = words.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(words).lineHeight);
  return [box.top, card.bottom, Math.round(box.height / line)];
})"""


@pytest.mark.parametrize("size", [{"width": 900, "height": 700}, SIZES["1280x700"]])
def test_a_side_seats_last_card_has_its_words_under_it(browser: Browser, live_server, size):
    """Partners at 900x700: East's and West's "It stays on the pile" stood
    beside their card a word a line (four lines), against the pile. The
    words are under the card, in at most two lines."""
    context = browser.new_context(viewport=size, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/p900?rules=partners")
    take_deal(page)
    for _ in range(4):  # a round: every seat has a last card
        assert play_card(page, page.locator(".hand button").first)
    for words_top, card_bottom, lines in page.evaluate(SIDE_LAST_PLAYS):
        assert words_top >= card_bottom - 1 and lines <= 2, (words_top, card_bottom, lines)
    context.close()


HOUSE = "rules=cardems&players=3&opening_jack=stay&pisti=15&jack_pisti=30&last_sweep_bonus=5"


def test_a_long_house_rules_line_keeps_a_phones_bar_low(browser: Browser, live_server):
    # On the table, and after the game, the line takes two lines at most (a
    # tap opens the list, as wide as the bar); after the game it took six,
    # a bar 128 px high.
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/long-line?{HOUSE}&level=easy")
    take_deal(page)
    assert box(page.locator(".bar"))["height"] <= 80
    page.locator(".rules-line summary").click()
    listed = box(page.locator(".rules-line ul"))
    assert (listed["x"], listed["width"]) == (0, 360)
    page.keyboard.press("Escape")
    while cards_in_hand(page):
        assert play_card(page, page.locator(".hand button").first)
    expect(page.locator("h1.verdict")).to_be_visible()
    assert box(page.locator(".bar"))["height"] <= 64
    context.close()


LINES = """e => {
  const range = document.createRange();
  range.selectNodeContents(e);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


def stats_after_games(page: Page, live_server: str, name: str, seeds: list[str]) -> None:
    """Choose ``name``, play each seed's single deal to its end (the first
    card each turn), and open the statistics."""
    page.goto(f"{live_server}/me")
    page.get_by_label("Your display name").fill(name)
    submit(page, page.get_by_role("button", name="Keep my results"))
    for seed in seeds:
        page.goto(f"{live_server}/deal/{seed}")
        take_deal(page)
        play_out(page)
    page.goto(f"{live_server}/me/stats")


def test_a_games_name_in_the_statistics_keeps_one_line_on_a_laptop(browser: Browser, live_server):
    """The statistics' table of games and win rates as wide as its words
    need on a laptop: capped at 28rem like a score table, it folded
    'Tek el (2 oyuncu) · Orta' into three lines beside an empty half panel."""
    context = browser.new_context(viewport=SIZES["1280x800"], reduced_motion="reduce")
    page = context.new_page()
    stats_after_games(page, live_server, "Stats width", ["stats-width"])
    page.get_by_role("button", name="Türkçe").click()
    names = page.locator(".by-rules tbody th")
    expect(names.first).to_have_text("Tek el (2 oyuncu) · Orta")
    for name in names.all():
        assert name.evaluate(LINES) == 1, name.inner_text()
    context.close()


DRAWN = """e => {
  const style = getComputedStyle(e);
  return [style.stroke, style.strokeDasharray, style.borderTopStyle];
}"""


def test_the_jack_pisti_line_is_told_apart_without_its_colour(browser: Browser, live_server):
    """The piştis chart's two lines differ by more than colour: the Jack
    piştis' line and its key are dashed, so where the lines meet (both at
    0 most games) the piştis' shows between the dashes, and a player who
    cannot tell green from gold tells them apart."""
    context = browser.new_context(viewport=SIZES["390x844"], reduced_motion="reduce")
    page = context.new_page()
    stats_after_games(page, live_server, "Two lines", ["two-lines-1", "two-lines-2"])
    pisti = page.locator(".chart .line-pisti").evaluate(DRAWN)
    jack = page.locator(".chart .line-jack").evaluate(DRAWN)
    assert pisti[1] == "none" and jack[1] not in ("none", "")
    assert pisti[0] != jack[0]
    assert page.locator(".legend .key-jack").evaluate(DRAWN)[2] == "dashed"
    assert page.locator(".legend .key-pisti").evaluate(DRAWN)[2] == "solid"
    title = page.locator("#pisti-title")
    expect(title).to_have_text(
        "Piştis (green line) and Jack piştis (gold, dashed) per hand, game by game"
    )
    context.close()


RING_ROOM = """() => {
  const focused = document.activeElement;
  if (focused.tagName === 'BODY') return [null, 0];
  const drawn = focused.matches('.card-button') ? focused.querySelector('.card') : focused;
  const style = getComputedStyle(drawn);
  const out = style.outlineStyle === 'none'
    ? 0 : parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
  const box = drawn.getBoundingClientRect();
  const room = Math.min(
    box.left - out, box.top - out, innerWidth - box.right - out, innerHeight - box.bottom - out);
  return [(focused.innerText || focused.tagName).trim().split('\\n')[0], room];
}"""


@pytest.mark.parametrize("size", ["390x844", "360x740", "1280x700", "1280x800"])
def test_every_focus_ring_at_the_table_is_drawn_whole(browser: Browser, live_server, size):
    """Tabbing round the table, each control's ring is inside the screen:
    the aids' summary at a phone's bottom edge had its ring's lower side
    cut off (and its left by a pixel), the bar's New game the top of its
    own, the language buttons (the browser's own thin ring) their bottom."""
    context = browser.new_context(viewport=SIZES[size], reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/focus-room")
    take_deal(page)
    expect(page.locator(".hand button")).to_have_count(4)
    seen = []
    for _ in range(20):
        page.keyboard.press("Tab")
        name, room = page.evaluate(RING_ROOM)
        if name is None:
            break
        seen.append(name)
        assert room >= 0, f"{size}: the ring of {name!r} runs {-room} px off the screen"
    assert "Playing aids" in seen and "Türkçe" in seen and "New game" in seen, seen
    context.close()


@pytest.mark.parametrize("language", ["English", "Türkçe"])
def test_a_long_name_keeps_one_line_on_a_laptops_leaderboard(
    browser: Browser, tmp_path_factory, language
):
    """On a laptop the all-time board leaves a name of the longest kind
    whole on its line: at 40rem, with any name free to break anywhere, it
    cut 'Zeynep Öztürk-Yılmazoğlu' after the hyphen and a one-word name of
    24 letters before its last, with half the panel empty beside it."""
    names = [f"Zeynep Öztürk-Yılmazoğ {language[0]}", f"Abdurrahmangazioğlu{language[0]}ıııı"]
    app = e2e_app(tmp_path_factory)
    context = browser.new_context(viewport=SIZES["1280x800"])
    with serve(app) as live_server:
        for name in names:
            context.clear_cookies()
            page = context.new_page()
            page.goto(f"{live_server}/me")
            page.get_by_label("Your display name").fill(name)
            page.get_by_role("button", name="Keep my results").click()
            expect(page.locator("h1")).to_have_text(name)
            page.close()
        with app.app_context():  # on the board from their first points
            for name in names:
                queries.player_named(name).score = 10
            db.session.commit()
            queries.recount_scores()
        page = context.new_page()
        page.goto(f"{live_server}/leaderboard")
        if language != "English":
            submit(page, page.get_by_role("button", name=language))
        for name in names:
            cell = page.locator(".leaderboard th[scope=row]", has_text=name)
            assert cell.evaluate(LINES) == 1, name
        assert page.evaluate(
            "[...document.querySelectorAll('.board-wrap')]"
            ".every((b) => b.scrollWidth <= b.clientWidth)"
        )
    context.close()


#: How many lines ``phrase``, a part of the bar's line, is drawn on.
PHRASE_LINES = """([selector, phrase]) => {
  const meta = document.querySelector(selector);
  const texts = [];
  const walker = document.createTreeWalker(meta, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode);
  const whole = texts.map((text) => text.data).join("");
  const start = whole.indexOf(phrase);
  if (start < 0) return -1;
  const place = (offset) => {
    for (const text of texts) {
      if (offset <= text.data.length) return [text, offset];
      offset -= text.data.length;
    }
  };
  const range = document.createRange();
  range.setStart(...place(start));
  range.setEnd(...place(start + phrase.length));
  return new Set([...range.getClientRects()].filter((box) => box.width > 0)
    .map((box) => Math.round(box.top))).size;
}"""

#: The bar's phrases with a number, by language: each kept on one line.
BAR_PHRASES = {
    "en-GB": {"cardems": "deal 1 of 6", "classic": "deal 1 of 6", "partners": "deal 1 of 3"},
    "tr-TR": {"cardems": "dağıtım 1/6", "classic": "dağıtım 1/6", "partners": "dağıtım 1/3"},
}


@pytest.mark.parametrize("size", ["360x740", "390x844"])
@pytest.mark.parametrize("locale", ["en-GB", "tr-TR"])
def test_the_phone_bar_keeps_each_number_with_its_words(
    browser: Browser, live_server, size, locale
):
    """On a phone the bar breaks its line between its parts, never inside
    one: at 390 px "deal" ended the first line and "1 of 6" began the
    second; at 360 px in Turkish "1/6" stood alone under "dağıtım", and
    after a hand "51" under "Partners (2 v 2) · to"."""
    context = browser.new_context(viewport=SIZES[size], locale=locale, reduced_motion="reduce")
    page = context.new_page()
    for rules, phrase in BAR_PHRASES[locale].items():
        page.goto(f"{live_server}/deal/bar-1?rules={rules}")
        take_deal(page)
        expect(page.locator(".hand button").first).to_be_visible()
        hand = "hand 1" if locale == "en-GB" else "1.\u00a0el"
        for part in [phrase] + ([hand] if rules != "cardems" else []):
            assert page.evaluate(PHRASE_LINES, [".bar .meta", part]) == 1, (rules, part)
    if size == "360x740" and locale == "en-GB":
        page.goto(f"{live_server}/deal/bar-2?rules=partners&target=51&level=easy")
        take_deal(page)
        while cards_in_hand(page):
            assert play_card(page, page.locator(".hand button").first)
        expect(page.locator("h1.verdict")).to_have_text("Hand 1 is over")
        assert page.evaluate(PHRASE_LINES, [".bar .meta", "to 51"]) == 1
    context.close()


@pytest.mark.parametrize("size", ["360x740", "390x844"])
@pytest.mark.parametrize("language", ["tr", "en"])
def test_a_pistis_chip_keeps_its_separator_with_a_count(
    browser: Browser, live_server, app, size, language
):
    """The chip "2 pişti · 1 Vale piştisi" of a partners table wrapped in
    Turkish at 360 px as "2 pişti", "·", "1 Vale", "piştisi": a line for
    the separator alone, a fourth line in the score. The "·" stays on the
    line of the count before it, and the chip takes three lines at most."""
    names = {"tr": ("Siz ve Kuzey", "Doğu ve Batı"), "en": ("You & North", "East & West")}[language]
    view = {
        "match": SimpleNamespace(target=151),
        "running": [43, 43],
        "unseen_taken": [0, 0],
        "sides": [
            {"name": name, "captured": 26, "pisti": 2, "jack_pisti": 1, "total": 100}
            for name in names
        ],
    }
    with app.test_request_context(headers={"Accept-Language": language}):
        markup = str(scoreboard(view))
    context = browser.new_context(viewport=SIZES[size], locale=language)
    page = context.new_page()
    page.goto(f"{live_server}/deal/chips?rules=partners")
    take_deal(page)
    page.wait_for_load_state()
    # The server's own markup of such a score, on a partners table's page.
    page.locator(".scoreboard").evaluate("(list, markup) => { list.outerHTML = markup; }", markup)
    lines = (
        page.locator(".scoreboard .side")
        .first.locator(".chip")
        .nth(1)
        .evaluate(
            """chip => {
          const walker = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT);
          const tops = [];
          let node;
          while ((node = walker.nextNode())) {
            if (node.parentElement.closest('.visually-hidden')) continue;
            for (let i = 0; i < node.length; i++) {
              if (!node.data[i].trim()) continue;
              const range = document.createRange();
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              tops.push([node.data[i], Math.round(range.getBoundingClientRect().top)]);
            }
          }
          return tops;
        }"""
        )
    )
    rows: dict[int, str] = {}
    for char, top in lines:
        rows[top] = rows.get(top, "") + char
    assert "·" not in rows.values(), rows
    assert len(rows) <= 3, rows
    context.close()


#: Every text of the score, drawn: its element's class and font size (px).
SCORE_FONTS = """list => [...list.querySelectorAll(".who, .chip, .bonus")]
  .filter(e => !e.closest(".visually-hidden") && getComputedStyle(e).visibility !== "hidden")
  .map(e => [e.className, parseFloat(getComputedStyle(e).fontSize)])"""


def late_score_fonts(
    browser: Browser, live_server: str, app, rules: str, language: str, viewport: dict[str, int]
) -> tuple[BrowserContext, Page, list[float]]:
    """At a table of ``rules`` in ``language`` on a screen of ``viewport``,
    the score replaced by the server's own markup of a late match's (to
    151: totals of 148, 43 points in the hand, two piştis and a Jack pişti
    each, one side "+3"); return the context (to close), its page and the
    font size (px) of every text of the score, drawn."""
    context = browser.new_context(viewport=viewport, locale=language)
    page = context.new_page()
    page.goto(f"{live_server}/deal/late-score?rules={rules}&target=151")
    take_deal(page)
    page.wait_for_load_state()
    names = page.locator(".scoreboard .who").all_inner_texts()
    view = {
        "match": SimpleNamespace(target=151),
        "running": [43] * len(names),
        "unseen_taken": [0] * len(names),
        "sides": [
            {"name": name, "captured": 27 if side == 0 else 8, "pisti": 2, "jack_pisti": 1}
            | {"total": 148, "most_cards": 3 if side == 0 else 0}
            for side, name in enumerate(names)
        ],
    }
    with app.test_request_context(headers={"Accept-Language": language}):
        markup = str(scoreboard(view))
    # The server's own markup of such a score, on that table's page.
    page.locator(".scoreboard").evaluate("(list, markup) => { list.outerHTML = markup; }", markup)
    expect(page.locator(".scoreboard .bonus")).to_have_text("+3")
    fonts = page.locator(".scoreboard").evaluate(SCORE_FONTS)
    assert [kind for kind, _ in fonts].count("bonus") == 1
    return context, page, [size for _, size in fonts]


@pytest.mark.parametrize("language", ["tr", "en"])
@pytest.mark.parametrize(
    "rules", ["classic", "partners", "classic&players=3", "classic&players=4&teams=solo"]
)
def test_a_late_matchs_score_fits_a_small_phone(
    browser: Browser, live_server, app, screenshots, rules, language
):
    """Late in a match to 151 (totals of 148, 43 points in the hand, two
    piştis and a Jack pişti each, one side "+3"), the score ran past a
    360 px phone's edge, the page scrolling sideways: with partners 371 px
    wide (367 px in Turkish), with two players 373 px; the "+3" was drawn
    at 8 px and the chips at 10.9 px. Every side's chips fit, and every
    text of the score is 11 px or more."""
    context, page, fonts = late_score_fonts(
        browser, live_server, app, rules, language, SIZES["360x740"]
    )
    assert page.evaluate("document.scrollingElement.scrollWidth") == 360
    assert min(fonts) >= 11, fonts
    sides = page.locator(".scoreboard .who").count()
    page.screenshot(path=screenshots / f"late-score-{rules.split('&')[0]}-{sides}-{language}.png")
    context.close()


@pytest.mark.parametrize("size", ["640x360", "740x360", "812x375", "844x390"])
@pytest.mark.parametrize("rules", ["classic&players=3", "classic&players=4&teams=solo"])
def test_a_late_matchs_score_of_three_or_four_sides_held_sideways(
    browser: Browser, live_server, app, screenshots, rules, size
):
    """A phone held sideways gives three or four sides' names and chips
    their own small sizes (two short lines each below 800 px, one row from
    800 px): the chips were drawn at 10.9 px (.68rem) and 10.6 px (.66rem).
    Late in a match to 151, every text of the score is 11 px or more."""
    width, height = (int(part) for part in size.split("x"))
    context, page, fonts = late_score_fonts(
        browser, live_server, app, rules, "tr", {"width": width, "height": height}
    )
    if min(fonts) < 11:
        page.screenshot(path=screenshots / f"late-score-sideways-{size}-{rules}.png")
    assert min(fonts) >= 11, fonts
    context.close()


@pytest.mark.parametrize(
    ("language", "size"),
    [("tr", size) for size in ["800x360", "812x375", "844x390", "896x414", "915x412"]]
    + [("en", "844x390")],
)
@pytest.mark.parametrize(
    "rules", ["classic", "partners", "classic&players=3", "classic&players=4&teams=solo"]
)
def test_a_late_matchs_score_fits_a_wide_phone_held_sideways(
    browser: Browser, live_server, app, screenshots, rules, language, size
):
    """From 800 px wide, held sideways, three or four sides have each
    side's name and chips on one row of the column beside the felt. Late
    in a match to 151 (two piştis and a Jack pişti each, one side "+3")
    the chips did not wrap: the row ran 63 px past the screen in Turkish
    (64 in English), the page scrolling sideways, and the names were
    squeezed to nothing under the chips. The row fits now, its chips
    wrapping, every text 11 px or more, and the hand still on the screen."""
    width, height = (int(part) for part in size.split("x"))
    context, page, fonts = late_score_fonts(
        browser, live_server, app, rules, language, {"width": width, "height": height}
    )
    page.screenshot(path=screenshots / f"late-score-wide-sideways-{size}-{rules}-{language}.png")
    assert page.evaluate("document.scrollingElement.scrollWidth") == width
    assert min(fonts) >= 11, fonts
    for name in page.locator(".scoreboard .who").all():
        assert box(name)["width"] >= 20, name.inner_text()
    hand = box(page.locator(".hand"))
    assert hand["y"] + hand["height"] <= height
    context.close()


@pytest.mark.parametrize(
    "viewport",
    [{"width": 740, "height": 360}, {"width": 667, "height": 375}, {"width": 844, "height": 390}],
    ids=["740x360", "667x375", "844x390"],
)
@pytest.mark.parametrize(
    ("address", "locale", "game", "heading"),
    [
        ("/review/" + "ab" * 32, "en-GB", False, "Sorry — error 404"),
        ("/review/" + "ab" * 32, "en-GB", True, "Sorry — error 404"),
        ("/deal/" + "x" * 70, "tr-TR", False, "Bu geçerli bir dağıtım kodu değil"),
        ("/deal/a?rules=nonsense", "tr-TR", False, "Bu dağıtım bağlantısı kullanılamıyor"),
    ],
    ids=["review-404", "review-404-game", "bad-seed-tr", "bad-link-tr"],
)
def test_an_error_page_held_sideways_fits_its_screen(
    browser: Browser, live_server, screenshots, viewport, address, locale, game, heading
):
    """A phone held sideways: the language line under a message of two or
    three lines ran 15-53 px past the screen's foot, so a page with
    nothing more to say scrolled. Its heading, message, buttons (two with
    a game in progress) and language line now fit the first screen."""
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True, locale=locale)
    page = context.new_page()
    if game:
        page.goto(f"{live_server}/deal/error-sideways")
        submit(page, page.get_by_role("button", name="Start this deal"))
    page.goto(live_server + address)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.locator("main .button")).to_have_count(2 if game else 1)
    page.screenshot(
        path=screenshots / f"error-sideways-{address[1:7]}-{game}-{locale}-{viewport['width']}.png"
    )
    assert page.evaluate("() => document.documentElement.scrollHeight") <= viewport["height"]
    for language in page.locator(".foot button").all():
        assert box(language)["y"] + box(language)["height"] <= viewport["height"]
    context.close()


#: The width (px) of each tiny face's suit, drawn: its largest pip.
TINY_SUITS = """() => [...document.querySelectorAll("svg.card.face.tiny")]
  .filter((card) => card.getBoundingClientRect().width)
  .map((card) => Math.max(...[...card.querySelectorAll("use")]
    .filter((use) => use.getAttribute("href").includes("#pip-"))
    .map((use) => use.getBoundingClientRect().width)))"""


@pytest.mark.parametrize("size", ["360x740", "740x360"])
def test_the_tiny_cards_show_their_suit_at_a_readable_size(
    browser: Browser, live_server, screenshots, size
):
    """The smallest faces (24 px wide on a phone, 20 px held sideways: the
    seats' last cards, the stock's bottom card) told their suit by the
    corner's pip alone, drawn 5.1 px wide (4.2 px sideways), a Jack, Queen
    or King having no other. Their suit is drawn under the index now, 8 px
    wide at least, at both sizes, after two plays (every seat's last
    card on the felt)."""
    width, height = (int(part) for part in size.split("x"))
    context = browser.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/deal/look1?rules=partners")
    take_deal(page)
    for _ in range(2):
        assert play_card(page, page.locator(".hand button").first)
    suits = page.evaluate(TINY_SUITS)
    page.screenshot(path=screenshots / f"tiny-suits-{size}.png")
    assert len(suits) >= 4, suits  # three seats' last cards and the bottom card
    assert min(suits) >= 8, suits
    context.close()
