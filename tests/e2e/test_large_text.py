"""A laptop with the browser's text size made larger (Chrome's "Very
large", 24 px, and 32 px: twice the usual 16), as a low-vision player sets
it: the table's seats, the stock and pile, the score and what happened
never lie over one another, and nothing leaves the felt or the screen's
width. The browser's own text size is set as its settings do
(``Page.setFontSizes``), which the layouts' breakpoints (in em) follow;
a style sheet's larger root size would not reach them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import DESKTOP, play_card, settled_when_ready, take_deal
from tests.e2e.test_table_aids import assert_foot_controls_apart, set_aid

#: Pairs of the table's parts, each in a different region (a seat, the
#: centre, the score, what happened), whose boxes overlap by more than 2 px;
#: and the seats and the centre that go past the felt's edges.
CLASHES = """() => {
  const parts = [...document.querySelectorAll(
    ".table .place-name, .table .place-level, .table .backs, .table .last-play, "
    + ".table .stock, .table .pile, .table .hand, .board > .scoreboard, .board > .happened")];
  const region = (part) => part.closest(".place, .centre, .board > *");
  const boxes = parts.map((part) => [part, part.getBoundingClientRect()]);
  const clashes = [];
  for (const [i, [a, boxA]] of boxes.entries()) {
    for (const [b, boxB] of boxes.slice(i + 1)) {
      if (region(a) === region(b) || !boxA.width || !boxB.width) continue;
      if (boxA.left < boxB.right - 2 && boxB.left < boxA.right - 2
          && boxA.top < boxB.bottom - 2 && boxB.top < boxA.bottom - 2) {
        clashes.push(`${a.className} / ${b.className}`);
      }
    }
  }
  const felt = document.querySelector(".table").getBoundingClientRect();
  const seats = document.querySelectorAll(".table > .place, .table > .centre");
  const outside = [...seats].filter((part) => {
    const box = part.getBoundingClientRect();
    return box.left < felt.left - 1 || box.right > felt.right + 1 || box.bottom > felt.bottom + 1;
  }).map((part) => part.className);
  return {clashes, outside, wide: document.scrollingElement.scrollWidth - innerWidth};
}"""


def table_with_text_of(
    browser: Browser, size: int, deal: str, **options: Any
) -> tuple[BrowserContext, Page]:
    """A new context (reduced motion, ``options`` for ``new_context``) whose
    browser text is ``size`` px, at the table of deal link ``deal``, taken
    and settled; return the context (to close) and its page."""
    context = browser.new_context(reduced_motion="reduce", **options)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": size, "fixed": size * 13 // 16}})
    page.goto(deal)
    take_deal(page)
    settled_when_ready(page)
    return context, page


def sideways_with_text_of_24(
    browser: Browser,
    live_server: str,
    size: str,
    query: str,
    seed: str = "large-sideways",
    **options: Any,
) -> tuple[BrowserContext, Page]:
    """:func:`table_with_text_of` 24 px on a phone (touch) of ``size``
    (``"740x360"``), at the deal ``seed`` with ``query``
    (``"rules=partners"``) and ``options`` for ``new_context``."""
    width, height = (int(part) for part in size.split("x"))
    return table_with_text_of(
        browser,
        24,
        f"{live_server}/deal/{seed}?{query}",
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        **options,
    )


@pytest.mark.parametrize("size", [24, 32])
@pytest.mark.parametrize("query", ["rules=classic", "rules=classic&players=3", "rules=partners"])
def test_a_laptop_table_with_larger_text(browser: Browser, live_server, size, query):
    """At 1280x800 with 24 px text a three-player or partners table had the
    side seats' cards and words under the stock and the pile (their columns
    left some 40 px by the centre's fixed room); at 32 px they ran into the
    score too and the hand went past the felt."""
    context, page = table_with_text_of(
        browser, size, f"{live_server}/deal/large-text-laptop?{query}", viewport=DESKTOP
    )
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == f"{size}px"
    assert page.evaluate(CLASHES) == {"clashes": [], "outside": [], "wide": 0}
    context.close()


#: Each of the felt's tags whose box runs past the felt's or the screen's
#: edges, or that takes two lines (a word broken inside); and where the
#: dealer tag is (its seat's heading).
TAGS = """() => {
  const felt = document.querySelector(".table").getBoundingClientRect();
  const wrong = [...document.querySelectorAll(".table .tag")].filter((tag) => {
    const box = tag.getBoundingClientRect();
    const line = parseFloat(getComputedStyle(tag).fontSize) * 1.6;
    return box.left < Math.max(felt.left, 0) - 1 || box.right > Math.min(felt.right, innerWidth) + 1
      || box.height > line;
  }).map((tag) => `${tag.closest("h2").id}: ${tag.textContent}`);
  return {wrong, dealer: document.querySelector(".table .tag.dealer")?.closest("h2").id};
}"""


@pytest.mark.parametrize("size", [24, 32])
@pytest.mark.parametrize("language", ["en", "tr"])
def test_a_phones_partners_tags_stay_on_the_felt_with_larger_text(
    browser: Browser, live_server, screenshots, size, language
):
    """At 360x740 with text twice the usual size North's "PARTNER" began
    7 px off the screen when North dealt ("PARTNER DEALER" in a row wider
    than the name's column), and a side seat's "DEALER" ("DAĞITAN") ran
    over the felt's edge, or off the screen."""
    dealers = set()
    for seed in ("a1", "a2", "a4"):
        context, page = table_with_text_of(
            browser,
            size,
            f"{live_server}/deal/{seed}?rules=partners",
            viewport={"width": 360, "height": 740},
            extra_http_headers={"Accept-Language": language},
        )
        found = page.evaluate(TAGS)
        dealers.add(found["dealer"])
        if found["wrong"]:
            page.screenshot(path=screenshots / f"large-text-tags-{seed}-{language}-{size}.png")
        assert found["wrong"] == [], (seed, found)
        context.close()
    # North's two tags, and a side seat's dealer tag, were all seen.
    assert {"place-2", "place-1"} <= dealers or {"place-2", "place-3"} <= dealers, dealers


#: The centre's words (the stock's count, the bottom card's, the pile's)
#: taking more than two lines; the centre's cards and words that lie over
#: a seat's (its name, level, cards, last card) or over each other's (the
#: stock's and the pile's), or past the felt's or the screen's edges.
CENTRE = """() => {
  const lines = (element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const tops = [...range.getClientRects()].filter((box) => box.width > 1).map((box) => box.top);
    const step = parseFloat(getComputedStyle(element).fontSize) / 2;
    tops.sort((a, b) => a - b);
    return tops.filter((top, i) => i === 0 || top - tops[i - 1] > step).length;
  };
  const overlap = (a, b) => a.left < b.right - 2 && b.left < a.right - 2
    && a.top < b.bottom - 2 && b.top < a.bottom - 2;
  const words = [...document.querySelectorAll(".centre .count")];
  const squeezed = words.filter((count) => lines(count) > 2)
    .map((count) => `${count.textContent.trim().replace(/\\s+/g, " ")}: ${lines(count)} lines`);
  const parts = (selector) => [...document.querySelectorAll(selector)]
    .map((part) => [part, part.getBoundingClientRect()]).filter(([, box]) => box.width > 1);
  const seats = parts(".table .seat :is(.place-name, .place-level, .backs, .last-play)");
  const stock = parts(".centre .stock :is(.card, .count)");
  const pile = parts(".centre .pile :is(.card, .count)");
  const name = (part) => (part.textContent.trim() || part.className).replace(/\\s+/g, " ");
  const clashes = [];
  for (const [a, boxA] of [...stock, ...pile]) {
    for (const [b, boxB] of seats) {
      if (overlap(boxA, boxB)) clashes.push(`${name(a)} / ${name(b)}`);
    }
  }
  for (const [a, boxA] of stock) {
    for (const [b, boxB] of pile) {
      if (overlap(boxA, boxB)) clashes.push(`${name(a)} / ${name(b)}`);
    }
  }
  const felt = document.querySelector(".table").getBoundingClientRect();
  const outside = [...stock, ...pile].filter(([, box]) => box.left < Math.max(felt.left, 0) - 1
    || box.right > Math.min(felt.right, innerWidth) + 1).map(([part]) => name(part));
  return {squeezed, clashes, outside};
}"""


@pytest.mark.parametrize("language", ["en", "tr"])
@pytest.mark.parametrize("query", ["rules=classic&players=3", "rules=partners"])
def test_a_phones_centre_keeps_its_words_readable_with_larger_text(
    browser: Browser, live_server, screenshots, query, language
):
    """At 360x740 with text twice the usual size, three or four sides, the
    centre had 158 px between the side seats' columns: "The table is
    empty" stood in four lines, "Pile: 4 cards, 3 face down" in more, the
    stock's count ran into the pile and the pile's cards over East's name.
    Checked through the first deal, at each of your turns (the pile grows,
    is taken, the table empty)."""
    context, page = table_with_text_of(
        browser,
        32,
        f"{live_server}/deal/look1?{query}",
        viewport={"width": 360, "height": 740},
        extra_http_headers={"Accept-Language": language},
    )
    seen = set()
    for turn in range(4):
        found = page.evaluate(CENTRE)
        seen.add(page.locator("#pile-count").inner_text().strip())
        if found != {"squeezed": [], "clashes": [], "outside": []}:
            page.screenshot(path=screenshots / f"large-text-centre-{language}-{turn}.png")
        assert found == {"squeezed": [], "clashes": [], "outside": []}, (turn, seen)
        if turn < 3:
            assert play_card(page, page.locator(".hand button").first)
    # The pile's words were seen long ("… 3 face down") and short.
    assert len(seen) > 2, seen
    context.close()


@pytest.mark.parametrize("size", [24, 32])
@pytest.mark.parametrize("query", ["rules=classic&players=3", "rules=partners"])
def test_a_tablets_side_seats_grow_with_larger_text(
    browser: Browser, live_server, screenshots, query, size
):
    """An iPad held upright (768x1024) with text at 32 px takes the phone's
    layout, whose side seats' columns were 74 px whatever the text: East's
    "DEALER" ran off the screen (which scrolled sideways by 5 px), West's
    last card's words began off its left edge, and East's stood a word a
    line. The columns grow with the text now. Checked through the first
    deal, at each of your turns."""
    context, page = table_with_text_of(
        browser, size, f"{live_server}/deal/look1?{query}", viewport={"width": 768, "height": 1024}
    )
    for turn in range(4):
        found = {**page.evaluate(CLASHES), "tags": page.evaluate(TAGS)["wrong"]}
        if found != {"clashes": [], "outside": [], "wide": 0, "tags": []}:
            page.screenshot(path=screenshots / f"large-text-tablet-{size}-{turn}.png")
        assert found == {"clashes": [], "outside": [], "wide": 0, "tags": []}, turn
        if turn < 3:
            assert play_card(page, page.locator(".hand button").first)
    context.close()


#: How far the page runs past the screen (down, across), the side
#: column's parts that lie over one another, and the narrowest of your
#: cards.
SIDEWAYS = """() => {
  const column = [...document.querySelectorAll(".board > :not(.table)")]
    .map((part) => [part.className.split(" ")[0], part.getBoundingClientRect()])
    .filter(([, box]) => box.height);
  const over = [];
  for (const [i, [a, boxA]] of column.entries()) {
    for (const [b, boxB] of column.slice(i + 1)) {
      if (boxA.top < boxB.bottom - 1 && boxB.top < boxA.bottom - 1) over.push(`${a} / ${b}`);
    }
  }
  const cards = [...document.querySelectorAll(".hand .card-button")]
    .map((card) => card.offsetWidth);
  return {
    down: document.scrollingElement.scrollHeight - innerHeight,
    across: document.scrollingElement.scrollWidth - innerWidth,
    over,
    card: Math.min(...cards) >= 44,
  };
}"""


@pytest.mark.parametrize(
    ("size", "query"),
    [
        (size, query)
        for size in ("844x390", "740x360", "667x375")
        for query in ("rules=classic", "rules=classic&players=3", "rules=partners")
    ]
    + [
        (size, "rules=partners&teams=solo") for size in ("640x360", "667x375", "740x360", "812x375")
    ],
)
def test_a_phone_held_sideways_fits_its_screen_with_larger_text(
    browser: Browser, live_server, screenshots, size, query
):
    """With text at 24 px a phone held sideways took the upright layout
    (the sideways one asked for 37.5 of its ems across, 900 px): the felt
    over the score and what happened, the page scrolling by 325-467 px,
    your cards below the screen's foot. It keeps the sideways layout now,
    the felt beside the score, both within the screen; the cards 44 px
    wide at least; the aids' title clear of the language links. Four
    sides each for themselves (house rules) scrolled by 18-33 px more:
    the rules' line took two lines of the bar, and each side's two lines
    of chips with their gaps ran the column, and the felt beside it, past
    the screen's foot."""
    context, page = sideways_with_text_of_24(browser, live_server, size, query)
    found = page.evaluate(SIDEWAYS)
    if found != {"down": 0, "across": 0, "over": [], "card": True}:
        page.screenshot(path=screenshots / f"large-text-sideways-{size}-{query}.png")
    assert found == {"down": 0, "across": 0, "over": [], "card": True}
    assert_foot_controls_apart(page)
    context.close()


#: The centre's words as shown (their short form) and as read (whole).
CENTRE_WORDS = """() => [...document.querySelectorAll('.centre .said-short')].map((short) => ({
  shown: short.checkVisibility() ? short.textContent : '',
  read: short.previousElementSibling.textContent.trim(),
  hidden: short.getAttribute('aria-hidden'),
}))"""


def fits_at_every_turn(page, shots) -> int:
    """Play the hand's first card at each of your turns to the hand's end,
    asserting at each that the page fits (no scroll, no clash, nothing
    outside the screen; a screenshot ``<shots>-<turn>.png`` when not);
    return the number of turns."""
    fits = {
        "down": 0,
        "across": 0,
        "over": [],
        "card": True,
        "clashes": [],
        "outside": [],
        "wide": 0,
    }
    turns = 0
    while page.locator(".table-page .hand button").count():
        found = {**page.evaluate(SIDEWAYS), **page.evaluate(CLASHES)}
        if found != fits:
            page.screenshot(path=f"{shots}-{turns}.png")
        assert found == fits, (turns, found)
        assert play_card(page, page.locator(".hand button").first)
        turns += 1
    return turns


@pytest.mark.parametrize("size", ["740x360", "667x375", "844x390"])
@pytest.mark.parametrize("query", ["rules=partners", "rules=classic&players=3"])
@pytest.mark.parametrize(("locale", "empty"), [("en-GB", "Empty"), ("tr-TR", "Boş")])
def test_a_phone_held_sideways_keeps_three_or_four_sides_apart_with_larger_text(
    browser: Browser, live_server, screenshots, size, query, locale, empty
):
    """With text at 24 px, partners and three players on a phone held
    sideways: the centre between West and East was 58-78 px wide, "The
    table is empty" stood in four lines and the pile's count in two to
    four, the page scrolled 16-21 px and the pile and stock lay over West's
    and East's seats. The centre's words take a short form there now (the
    stock's count alone, "Pile: 6", "Empty", the bottom card by its face),
    a screen reader still reads them whole; checked through the first
    deal, a capture that empties the table included."""
    context, page = sideways_with_text_of_24(browser, live_server, size, query, locale=locale)
    shown = set()
    for turn in range(7):
        found = {**page.evaluate(SIDEWAYS), **page.evaluate(CLASHES)}
        if found["down"] or found["across"] or found["clashes"] or found["outside"]:
            page.screenshot(path=screenshots / f"large-text-sideways-{size}-{query}-{turn}.png")
        assert found["down"] == found["across"] == 0, turn
        assert found["clashes"] == found["outside"] == [], turn
        words = page.evaluate(CENTRE_WORDS)
        assert all(word["shown"] and word["hidden"] == "true" for word in words), words
        shown |= {(word["shown"], word["read"]) for word in words}
        if turn < 6:
            assert play_card(page, page.locator(".hand button").first)
    read_for = {short: read for short, read in shown}
    assert read_for[empty] == ("The table is empty" if locale == "en-GB" else "Yer boş")
    context.close()


@pytest.mark.parametrize("size", ["740x360", "667x375", "844x390"])
@pytest.mark.parametrize(("seed", "locale"), [("large-sideways", "en-GB"), ("a2", "tr-TR")])
def test_a_two_player_table_held_sideways_fits_through_a_whole_hand_with_larger_text(
    browser: Browser, live_server, screenshots, size, seed, locale
):
    """With text at 24 px a two-player table on a phone held sideways fit
    at the first turn, then scrolled by 4-30 px as the hand went on: the
    seat across took a line more for its name once its last card stood
    beside its cards ("The computer" over "DEALER"), and your last card's
    words took one or two lines over your hand. Checked at each of your
    turns of a whole hand (24 plays), the computer dealing and you."""
    context, page = sideways_with_text_of_24(
        browser, live_server, size, "rules=classic", seed, locale=locale
    )
    assert fits_at_every_turn(page, screenshots / f"large-text-sideways-hand-{size}-{seed}") == 24
    context.close()


@pytest.mark.parametrize("size", ["640x360", "740x360"])
@pytest.mark.parametrize(("seed", "locale"), [("large-sideways", "en-GB"), ("a2", "tr-TR")])
def test_four_sides_each_for_themselves_held_sideways_fit_through_a_hand_with_larger_text(
    browser: Browser, live_server, screenshots, size, seed, locale
):
    """With text at 24 px, four sides each for themselves (house rules) on
    a phone held sideways: with the first turn's page fitting, the felt
    still ran 4-11 px below the screen's foot when North dealt (a2: its
    "DEALER" on a line of its own) or East did (large-sideways: a line
    more in its narrow column). Checked at each of your turns of a whole
    hand (12 plays)."""
    context, page = sideways_with_text_of_24(
        browser, live_server, size, "rules=partners&teams=solo", seed, locale=locale
    )
    assert fits_at_every_turn(page, screenshots / f"large-text-sideways-solo-{size}-{seed}") == 12
    context.close()


#: The boxes of what happened and of the counter beside the felt: their
#: tops and bottoms, and the height of one line of what happened and its
#: room for lines (its height but for its padding).
COUNTER_BESIDE = """() => {
  const box = (part) => part.getBoundingClientRect();
  const happened = document.querySelector(".board > .happened");
  const counter = document.querySelector(".board > .counter");
  const style = getComputedStyle(happened);
  const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  return {
    happened: [box(happened).top, box(happened).bottom],
    counter: counter && [box(counter).top, box(counter).bottom],
    line: parseFloat(style.fontSize) * 1.3,
    room: happened.clientHeight - padding,
    covered: [...(counter ? counter.querySelectorAll("li") : [])].filter((cell) => {
      const {left, right, top, bottom} = box(cell);
      return !cell.contains(document.elementFromPoint((left + right) / 2, (top + bottom) / 2));
    }).length,
    wide: document.scrollingElement.scrollWidth - innerWidth,
  };
}"""


@pytest.mark.parametrize("size", ["844x390", "740x360"])
@pytest.mark.parametrize("query", ["rules=cardems", "rules=partners", "rules=classic&players=3"])
def test_the_counter_beside_the_felt_leaves_what_happened_its_room_with_larger_text(
    browser: Browser, live_server, screenshots, size, query
):
    """With text at 24 px on a phone held sideways, the played-cards
    counter took 71 px of the column beside the felt: what happened kept
    no room (740x360: its 14 px box lay over the counter's title) or half
    a line (844x390). The counter is smaller there now, its title said to
    a screen reader alone: nothing lies over its cells, and with two
    sides what happened shows a whole line at least."""
    context, page = sideways_with_text_of_24(browser, live_server, size, query)
    set_aid(page, "Played-cards counter", True)
    page.locator("details.settings summary").click()
    expect(page.locator("details.settings")).not_to_have_attribute("open", "")
    found = page.evaluate(COUNTER_BESIDE)
    if found["covered"]:
        page.screenshot(path=screenshots / f"large-text-counter-{size}-{query}.png")
    assert found["covered"] == 0 and found["wide"] <= 0, found
    if query == "rules=cardems":
        # (Three or four sides' score, with a line saying how many cards
        # lie face down, may leave what happened less than a line.)
        assert found["happened"][1] <= found["counter"][0] + 1, found
        assert found["room"] >= found["line"], found
    expect(page.get_by_role("heading", name="Cards seen face up")).to_have_count(1)
    context.close()


@pytest.mark.parametrize("size", ["844x390", "740x360"])
@pytest.mark.parametrize(
    ("seed", "query"),
    [
        ("large-sideways", "rules=classic"),
        ("large-sideways", "rules=classic&players=3"),
        ("counter-look", "rules=partners"),
        ("large-sideways", "rules=partners&teams=solo"),
    ],
)
@pytest.mark.parametrize("counter", [False, True])
def test_what_happened_keeps_a_line_beside_the_score_with_larger_text(
    browser: Browser, live_server, screenshots, size, seed, query, counter
):
    """With text at 24 px on a phone held sideways the score took two or
    three lines a side, 130-189 px of the column: with three or four
    sides and the counter on, what happened kept 0-7 px, a line cut or
    none; partners (counter-look) scrolled by 5 px, three sides with the
    counter by 2. The score is a table now, the counts' headings over a
    line a side of numbers (a screen reader still hears each count's
    words): what happened shows a whole line at least and the page does
    not scroll, for two, three and four sides, the counter on and off."""
    context, page = sideways_with_text_of_24(browser, live_server, size, query, seed)
    if counter:
        set_aid(page, "Played-cards counter", True)
        page.locator("details.settings summary").click()
        expect(page.locator("details.settings")).not_to_have_attribute("open", "")
    found = {**page.evaluate(COUNTER_BESIDE), **page.evaluate(SIDEWAYS)}
    shown = found["room"] >= found["line"] and found["down"] == found["across"] == 0
    if counter:
        shown = shown and found["happened"][1] <= found["counter"][0] + 1
    if not shown:
        page.screenshot(path=screenshots / f"large-text-log-{size}-{seed}-{query}-{counter}.png")
    assert found["room"] >= found["line"], found
    assert found["down"] == found["across"] == 0, found
    if counter:
        assert found["happened"][1] <= found["counter"][0] + 1, found
    expect(page.locator(".scoreboard .side-0 .chip.points")).to_contain_text("0 points")
    context.close()


#: Each side's name on the score: the words shown (its short form when
#: there is one), the lines it takes, the whole name a screen reader reads
#: and the short form's title (which says the whole to a pointer).
SIDE_NAMES = """() => [...document.querySelectorAll('.board > .scoreboard .who')].map((who) => {
  const short = who.querySelector('.said-short');
  const seen = short?.checkVisibility() ? short : who.querySelector('.said-whole') ?? who;
  const whole = who.querySelector('.said-whole')?.textContent ?? who.textContent;
  const range = document.createRange();
  range.selectNodeContents(seen);
  const tops = [...range.getClientRects()].filter((box) => box.width > 1).map((box) => box.top);
  const step = parseFloat(getComputedStyle(who).fontSize) / 2;
  tops.sort((a, b) => a - b);
  return {
    shown: seen.textContent,
    lines: tops.filter((top, i) => i === 0 || top - tops[i - 1] > step).length,
    read: whole,
    hidden: short?.getAttribute('aria-hidden'),
    title: short?.title,
  };
})"""


@pytest.mark.parametrize("size", ["740x360", "844x390"])
@pytest.mark.parametrize(
    ("locale", "shown", "read"),
    [
        ("en-GB", ["We", "They"], ["You & North", "East & West"]),
        ("tr-TR", ["Biz", "Onlar"], ["Siz ve Kuzey", "Doğu ve Batı"]),
    ],
)
def test_partners_team_names_take_one_line_held_sideways_with_larger_text(
    browser: Browser, live_server, screenshots, size, locale, shown, read
):
    """With text at 24 px on a phone held sideways a partners table's team
    names ("You & North", "Doğu ve Batı") took two lines each in the
    score's name column (78-88 px wide, the names 100-108 px), 39 px a
    side, what happened losing two of its lines. There they are a
    scorepad's "We" and "They" now, a line each; a screen reader still
    reads the whole names (the short ones hidden from it, their title the
    whole), and the seats on the felt say who sits where."""
    context, page = sideways_with_text_of_24(
        browser, live_server, size, "rules=partners", locale=locale
    )
    names = page.evaluate(SIDE_NAMES)
    if any(name["lines"] != 1 for name in names):
        page.screenshot(path=screenshots / f"large-text-team-names-{size}-{locale}.png")
    assert [name["lines"] for name in names] == [1, 1], names
    assert [name["shown"] for name in names] == shown
    assert [name["read"] for name in names] == [name["title"] for name in names] == read
    assert all(name["hidden"] == "true" for name in names), names
    expect(page.locator(".seat .place-name").filter(has_text=read[0].split()[-1])).to_have_count(1)
    context.close()


def test_partners_team_names_stay_whole_with_the_usual_text_size(browser: Browser, live_server):
    """The short names are for a phone held sideways with large text: at
    the usual 16 px (the same phone, and a laptop) the score shows the
    teams' whole names, on a line each."""
    for size in ({"width": 740, "height": 360}, DESKTOP):
        context, page = table_with_text_of(
            browser, 16, f"{live_server}/deal/large-sideways?rules=partners", viewport=size
        )
        names = page.evaluate(SIDE_NAMES)
        assert [name["shown"] for name in names] == ["You & North", "East & West"], size
        assert [name["lines"] for name in names] == [1, 1], (size, names)
        context.close()
