"""House rules in Chromium (record format 2): the three-player and four-solo tables
fit every screen without scrolling, with every seat, its cards, its last
card and every side's score in view; a three-player and a four-solo match
are played to the end through the pages; the House rules page starts them
and refuses a combination that cannot be played."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import cards_in_hand, play_card, settled, take_deal
from tests.e2e.test_table_motion import COUNT_STEPS, SIZES, a_card, assert_fits

#: The two new tables, as deal-link queries with Easy computers.
TABLES = {
    "three": "rules=classic&players=3&jack_pisti=10&last_sweep_bonus=3&target=51&level=easy",
    "four-solo": "rules=partners&teams=solo&target=51&level=easy",
}
SEATS = {"three": ("East", "West"), "four-solo": ("East", "North", "West")}
SIDES = {"three": ("You", "East", "West"), "four-solo": ("You", "East", "North", "West")}


def start(page: Page, live_server: str, seed: str, query: str) -> None:
    """Open a deal link and start the deal, up to the table's page load."""
    page.goto(f"{live_server}/deal/{seed}?{query}")
    take_deal(page)
    expect(page.locator(".hand button").first).to_be_visible()


def assert_seats_in_view(page: Page, table: str) -> None:
    """Every computer seat, its count of cards and every side's score row
    inside the window."""
    inner_height = page.evaluate("innerHeight")
    for position, name in enumerate(SEATS[table], start=1):
        seat = page.locator(f".seat[data-seat='{position}']")
        expect(seat.locator(".place-name")).to_contain_text(name)
        for part in (seat, seat.locator(".backs-count")):
            box = part.bounding_box()
            assert box is not None and 0 <= box["y"] <= box["y"] + box["height"] <= inner_height
    names = page.locator(".scoreboard .side .who").all_inner_texts()
    assert names == list(SIDES[table])


@pytest.mark.parametrize("size_name", ["390x844", "360x740", "1280x700", "1280x800"])
@pytest.mark.parametrize("table", list(TABLES))
def test_the_table_fits_the_screen(
    browser: Browser, live_server, screenshots, table: str, size_name: str
):
    context = browser.new_context(viewport=SIZES[size_name], reduced_motion="reduce")
    page = context.new_page()
    start(page, live_server, f"fit-{table}", TABLES[table])
    # The bar: the rules line shows whole lines only (no third line through
    # its padding), and the hand and deal are never drawn over it.
    bar = page.evaluate(
        """() => {
          const line = document.querySelector('.bar .rules-line summary');
          const where = document.querySelector('.bar .deal-where');
          const lineHeight = parseFloat(getComputedStyle(line).lineHeight);
          const box = line.getBoundingClientRect();
          const border = parseFloat(getComputedStyle(line).borderBottomWidth);
          return {lines: line.clientHeight / lineHeight,
                  clipped: line.scrollHeight > line.clientHeight,
                  tap: box.height,
                  below: where.getClientRects()[0].top - (box.bottom - border)};
        }"""
    )
    if bar["clipped"]:
        assert bar["lines"] == pytest.approx(2, abs=0.05)
    assert bar["below"] >= -0.5 or SIZES[size_name]["width"] >= 700
    assert bar["tap"] >= 24  # a finger's room to open the list
    for play in range(6):
        assert_fits(page)
        assert_seats_in_view(page, table)
        if play == 3:
            page.screenshot(path=screenshots / f"house-{table}-{size_name}.png")
            # The rules line opens the list of house rules.
            page.locator(".rules-line summary").click()
            expect(page.locator(".rules-line ul")).to_be_visible()
            # Opaque: the scoreboard does not show through the list.
            opacity = page.locator(".rules-line ul").evaluate(
                "e => { let o = 1;"
                " for (; e; e = e.parentElement) o *= +getComputedStyle(e).opacity; return o; }"
            )
            assert opacity == 1
            page.screenshot(path=screenshots / f"house-{table}-rules-{size_name}.png")
            page.locator(".rules-line summary").click()
        assert play_card(page, a_card(page))
    context.close()


@pytest.mark.parametrize("table", list(TABLES))
def test_a_match_is_played_to_the_end(browser: Browser, live_server, screenshots, table: str):
    context = browser.new_context(viewport=SIZES["390x844"], reduced_motion="reduce")
    page = context.new_page()
    start(page, live_server, f"end-{table}", TABLES[table])
    hands = 0
    while True:
        plays = 0
        while cards_in_hand(page):
            assert play_card(page, a_card(page))
            plays += 1
        assert plays == (16 if table == "three" else 12)
        hands += 1
        next_hand = page.get_by_role("button", name="Next hand")
        if not next_hand.count():
            break
        if hands == 1:
            page.screenshot(path=screenshots / f"house-{table}-between.png", full_page=True)
        with page.expect_navigation():
            next_hand.click()
    verdict = page.locator(".verdict").inner_text()
    totals = [int(cell) for cell in page.locator(".totals tfoot td").all_inner_texts()]
    assert len(totals) == len(SIDES[table])
    best = max(totals)
    assert best >= 51 and totals.count(best) == 1
    winner = SIDES[table][totals.index(best)]
    assert verdict == ("You won!" if winner == "You" else f"{winner} won")
    expect(page.locator(".why")).to_contain_text(f"{best} points")
    line = page.locator(".bar .rules-line summary").inner_text()
    assert "to 51" in line
    page.screenshot(path=screenshots / f"house-{table}-final.png", full_page=True)
    # On the narrowest phone every side's column of the match's table and
    # of its summary is in view, nothing scrolled sideways.
    page.set_viewport_size(SIZES["360x740"])
    for scores in (".totals", ".match-summary"):
        box = page.locator(f".table-scroll:has({scores})")
        assert box.evaluate("box => box.scrollWidth <= box.clientWidth")
    page.screenshot(path=screenshots / f"house-{table}-final-360.png", full_page=True)
    # Play again keeps the house rules and the computers.
    with page.expect_navigation():
        page.get_by_role("button", name="Play again").click()
    expect(page.locator(".seat")).to_have_count(len(SEATS[table]))
    expect(page.locator(".bar .rules-line summary")).to_have_text(line)
    assert page.locator(".seat .place-level").all_inner_texts() == ["Easy"] * len(SEATS[table])
    context.close()


def test_the_house_rules_page_starts_a_three_player_game(
    browser: Browser, live_server, screenshots
):
    for size_name in ("390x844", "1280x800"):
        context = browser.new_context(viewport=SIZES[size_name])
        page = context.new_page()
        page.goto(f"{live_server}/house")
        page.screenshot(path=screenshots / f"house-page-{size_name}.png", full_page=True)
        context.close()
    page = browser.new_page(viewport=SIZES["390x844"])
    page.goto(f"{live_server}/house")
    page.get_by_label("Classic match (2 players)").check()
    # The options are folded; the fold's note counts what is changed in it.
    expect(page.locator("#players")).to_be_hidden()
    page.locator("summary", has_text="Players and sides").click()
    page.locator("#players").select_option("3")
    page.locator("#teams").select_option("partners")
    expect(page.locator(".rule-group").first.locator(".group-note")).to_have_text(
        "2 rules · 2 changed"
    )
    with page.expect_navigation():
        page.locator("button[type=submit]", has_text="Play with these rules").click()
    expect(page.locator(".alert")).to_contain_text("Sides: partners need four players")
    # The refusal has the focus: a keyboard or screen reader starts there;
    # its link goes to the field, whose fold is open and which says why.
    expect(page.locator(".alert")).to_be_focused()
    page.screenshot(path=screenshots / "house-page-refused.png", full_page=True)
    page.locator(".alert a", has_text="Go to the rule").click()
    expect(page.locator("#teams")).to_be_focused()
    expect(page.locator("#teams-problem")).to_be_in_viewport()
    page.locator("#teams").select_option("")
    page.locator("summary", has_text="Points").click()
    page.locator("#jack_pisti").fill("10")
    page.locator("#level").select_option("easy")
    with page.expect_navigation():
        page.locator("button[type=submit]", has_text="Play with these rules").click()
    expect(page.locator(".seat")).to_have_count(2)
    expect(page.locator(".bar .rules-line summary")).to_contain_text("3 players")
    expect(page.locator(".bar .rules-line summary")).to_contain_text("Jack pişti 10")
    page.close()


def test_the_house_rules_page_says_what_the_chosen_game_plays(browser: Browser, live_server):
    """Choosing another game changes what "as the game plays it" says, in
    the folds and for the match, and the whole words under a field."""
    page = browser.new_page(viewport=SIZES["390x844"])
    page.goto(f"{live_server}/house")
    page.locator("summary", has_text="The deal").click()
    blank = page.locator("#opening_jack option").first
    words = page.locator("#opening_jack-chosen")
    expect(blank).to_have_text("stays on top (as played)")
    expect(words).to_be_hidden()
    expect(page.locator("#target option").first).to_have_text("51 points (as played)")
    page.get_by_label("Partners (2 v 2)").check()
    expect(blank).to_have_text("passed over (as played)")
    expect(words).to_have_text("passed over: the next card is turned up — as the game plays it")
    expect(words).to_be_visible()
    expect(page.locator("#target option").first).to_have_text("151 points (as played)")
    page.get_by_label("Single hand (2 players)").check()
    expect(blank).to_have_text("swapped (as played)")
    expect(words).to_have_text("swapped with a card under it — as the game plays it")
    expect(page.locator("#target option").first).to_have_text("one hand (as played)")
    # a choice made: its own whole words, and none for one that says them all
    page.locator("#opening_jack").select_option("under")
    expect(words).to_have_text("put under the stock: the dealer gets it last")
    page.locator("#opening_jack").select_option("stay")
    expect(words).to_be_hidden()
    page.locator("summary", has_text="Points").click()
    expect(page.locator("#jack_pisti")).to_have_attribute("placeholder", "20 (as played)")
    # the sides left alone follow the number of players chosen
    page.get_by_label("Classic match (2 players)").check()
    page.locator("summary", has_text="Players and sides").click()
    sides = page.locator("#teams option").first
    sides_words = page.locator("#teams-chosen")
    expect(sides).to_have_text("each plays alone (as played)")
    expect(sides_words).to_have_text("each for themselves — as the game plays it")
    page.locator("#players").select_option("4")
    expect(sides).to_have_text("partners (as played)")
    expect(sides_words).to_contain_text("partners: you and North against East and West")
    expect(page.locator("#players-chosen")).to_have_text("four: you, East, North and West")
    page.get_by_label("Partners (2 v 2)").check()
    page.locator("#players").select_option("3")
    expect(sides).to_have_text("each plays alone (as played)")
    expect(sides_words).to_have_text("each for themselves — as the game plays it")
    page.locator("#players").select_option("")
    expect(sides_words).to_contain_text("partners: you and North")
    expect(page.locator("#players-chosen")).to_have_text(
        "four: you, East, North and West — as the game plays it"
    )
    page.close()


@pytest.mark.parametrize("table", list(TABLES))
def test_each_reply_moves_from_its_seat(browser: Browser, live_server, screenshots, table: str):
    """One step of the table per play, in playing order (your card, then
    each computer's from its seat), then the page as it stands."""
    context = browser.new_context(viewport=SIZES["1280x800"])
    page = context.new_page()
    start(page, live_server, f"motion-{table}", TABLES[table])
    page.evaluate(COUNT_STEPS)
    players = len(SIDES[table])
    before = settled(page)
    # The reply cards start at their seats: sampled while they move.
    page.locator(".hand button").first.click()
    shot = False
    while settled(page) == before:
        if not shot and page.evaluate("document.getAnimations().length > 1"):
            page.screenshot(path=screenshots / f"house-{table}-motion.png")
            shot = True
    assert page.evaluate("window.steps") == players + 1
    frames = page.evaluate(
        "() => [...document.querySelectorAll('template.frame')].map((f) => f.dataset.position)"
    )
    assert frames == [str(position) for position in range(players)]
    expect(page.locator(".log li")).to_have_count(players, timeout=5000)
    context.close()


def test_the_house_rules_list_in_the_bar_closes_with_escape(browser: Browser, live_server):
    """Opened from the keyboard, the list covers the score on a phone:
    Escape closes it wherever the focus has gone since (a card), and leaves
    the focus there; a tap outside closes it too."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    start(page, live_server, "rules-escape", "rules=classic&players=3&level=easy")
    summary = page.locator(".bar .rules-line summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".bar .rules-line ul")).to_be_visible()
    page.locator(".hand button").first.focus()
    page.keyboard.press("Escape")
    expect(page.locator(".bar .rules-line ul")).to_be_hidden()
    expect(page.locator(".hand button").first).to_be_focused()
    summary.click()
    expect(page.locator(".bar .rules-line ul")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(".bar .rules-line ul")).to_be_hidden()
    expect(summary).to_be_focused()
    summary.click()
    page.mouse.click(2, 400)  # the page's margin, beside the table
    expect(page.locator(".bar .rules-line ul")).to_be_hidden()
    expect(page.locator(".hand button")).to_have_count(4)  # nothing played
    context.close()


@pytest.mark.parametrize("locale", ["tr-TR", "en-GB"])
def test_the_house_rules_line_keeps_its_last_words_together_on_a_phone(
    browser: Browser, live_server, locale
):
    """At 360 px the bar's house-rules line takes two lines of like length:
    the target's word and its number on one ("hedef" ended the first line
    and "51" stood alone on the second, in Turkish)."""
    context = browser.new_context(viewport=SIZES["360x740"], locale=locale)
    page = context.new_page()
    start(page, live_server, "bar-words", "rules=classic&players=3")
    target = page.locator(".rules-line summary")
    expect(target).to_contain_text(" 51")
    tops = target.evaluate(
        """(summary) => {
            const text = [...summary.childNodes].find(
                (n) => n.nodeType === 3 && /\\d+$/.test(n.data.trim())
            );
            const data = text.data.trimEnd();
            const top = (from, to) => {
                const range = document.createRange();
                range.setStart(text, from);
                range.setEnd(text, to);
                return Math.round(range.getClientRects()[0].top);
            };
            const space = data.lastIndexOf(" ");
            const word = data.lastIndexOf(" ", space - 1) + 1;
            return [top(word, space), top(space + 1, data.length)];
        }"""
    )
    assert tops[0] == tops[1], tops
    context.close()
