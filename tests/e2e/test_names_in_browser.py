"""The name box counts a name as the server does (``check_name``: letters
composed, runs of spaces one, in characters), with the page's script and
without: a ``maxlength`` counted UTF-16 units, so a name of 24 Gothic or
Adlam letters (two units each) stopped at 12 letters as it was typed, and
an accent typed apart from its letter counted twice."""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote

import pytest
from playwright.sync_api import Browser
from sqlalchemy import update

from app.db import db, queries
from app.db.models import Player
from tests.conftest import serve
from tests.e2e.conftest import PHONE, e2e_app, submit

GOTHIC = "".join(
    letter for letter in map(chr, range(0x10330, 0x1034B)) if unicodedata.category(letter) == "Lo"
)[:25]  # its letters, not the two that are numbers
ADLAM = "".join(chr(0x1E922 + i) for i in range(25))
#: The longest names the server keeps in a few scripts (24 characters),
#: as typed; each with one letter more is refused.
LONGEST = {
    "gothic": GOTHIC[:24],
    "adlam": ADLAM[:24],
    "devanagari": "\u0928\u092e\u0938\u094d\u0924\u0947" * 4,  # नमस्ते, vowel signs and viramas
    # نیک‌نام with its half-space, three times, the last نیک‌نامی.
    "persian": ("\u0646\u06cc\u06a9\u200c\u0646\u0627\u0645 " * 3)[:-1] + "\u06cc",
    # Vietnamese accents typed after their letters (as some keyboards do).
    "decomposed": "Nguye\u0302\u0303n Va\u0306n Tha\u0300nh Vie\u0302\u0323t An",
}
LONGER = {
    script: name + ("h" if script == "decomposed" else name[0]) for script, name in LONGEST.items()
}
#: Other names as long, for the page without its script (the server has
#: the first ones by then).
OTHERS = {
    "gothic": GOTHIC[1:],
    "adlam": ADLAM[1:],
    "devanagari": "\u0938\u0941\u0928\u0940\u0924\u093e" * 4,  # सुनीता
    "persian": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 "  # می‌خواهم
    + LONGEST["persian"][9:],
    "decomposed": "Tra\u0302\u0300n Thi\u0323 Ngo\u0323c Lan Anh Vy",  # Trần Thị Ngọc Lan Anh Vy
}


def kept(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split())


def test_the_longest_names_are_24_characters_as_the_server_keeps_them():
    for script, name in LONGEST.items():
        assert len(kept(name)) == len(kept(OTHERS.get(script, name))) == 24, script
        assert len(kept(LONGER[script])) == 25, script


@pytest.mark.parametrize("script", list(LONGEST))
@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no script"])
def test_the_longest_name_in_any_script_is_typed_and_kept(
    browser: Browser, live_server, script, javascript
):
    context = browser.new_context(java_script_enabled=javascript)
    page = context.new_page()
    page.goto(f"{live_server}/me")
    box = page.locator("#name")
    box.press_sequentially(LONGER[script])
    assert box.evaluate("(box) => box.checkValidity()") is False
    # Without the script the pattern counts a letter and the accents typed
    # after it as one: 24 Vietnamese letters, accents typed apart (28 characters), were
    # refused by the box itself, though the server keeps them.
    name = LONGEST[script] if javascript else OTHERS[script]
    box.fill("")
    box.press_sequentially(name)
    assert box.input_value() == name
    assert box.evaluate("(box) => box.checkValidity()") is True
    submit(page, page.get_by_role("button", name="Keep my results"))
    assert page.locator("h1").inner_text() == kept(name)
    context.close()


def test_a_name_too_long_is_not_sent_and_the_box_says_why(browser: Browser, live_server):
    page = browser.new_page(locale="tr-TR")
    page.goto(f"{live_server}/me")
    page.locator("#name").press_sequentially(GOTHIC)
    page.locator("#name-form button[type=submit]").click()
    assert page.url.endswith("/me")
    message = page.locator("#name").evaluate("(box) => box.validationMessage")
    assert "en çok 24 karakter" in message
    page.close()


def test_a_seed_of_64_letters_beyond_the_first_plane_is_typed_whole(browser: Browser, live_server):
    """The seed box's maxlength (64 UTF-16 units) stopped a seed of Gothic
    letters at 32, where its pattern and the server count 64."""
    seed = GOTHIC[:16] * 4
    page = browser.new_page()
    page.goto(f"{live_server}/")
    box = page.locator("#seed")
    box.press_sequentially(seed + GOTHIC[0])
    assert box.evaluate("(box) => box.checkValidity()") is False
    box.fill("")
    box.press_sequentially(seed)
    assert box.input_value() == seed
    submit(page, page.get_by_role("button", name="Deal from a seed"))
    assert seed in unquote(page.url)
    page.close()


#: Where the drawn text of ``node``'s characters ``first`` and ``second``
#: starts on the screen (their rectangles' left sides).
LEFTS = """([node, first, second]) => [first, second].map((index) => {
  const range = document.createRange();
  range.setStart(node, index);
  range.setEnd(node, index + 1);
  return range.getBoundingClientRect().left;
})"""


def test_a_name_written_right_to_left_reads_so_on_the_board_and_the_profile(
    browser: Browser, tmp_path_factory
):
    """A Persian or Arabic name ending in a full stop, ``س.ع.``, was drawn
    ``ع.س.`` (that stop to the right, as in the page's left-to-right
    lines): read from the right, it began with the stop. The name is its
    own right-to-left run now, with "(you)" after it on the board."""
    name = "\u0633.\u0639."  # س.ع.
    app = e2e_app(tmp_path_factory)
    with serve(app) as url:
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{url}/me")
        page.locator("#name").fill(name)
        submit(page, page.get_by_role("button", name="Keep my results"))
        with app.app_context():
            db.session.execute(update(Player).values(score=150, games=3, points=150))
            db.session.commit()
            queries.recount_scores()
        for path, where in (("/me", "h1"), ("/leaderboard", "tr.mine th")):
            page.goto(f"{url}{path}")
            text = page.locator(where).first
            node = text.evaluate_handle(
                "(element) => [...element.querySelectorAll('*'), element].flatMap((e) => "
                "[...e.childNodes]).find((n) => n.nodeType === 3 && n.data.includes('\u0639'))"
            )
            letter, stop = page.evaluate(LEFTS, [node, name.index("\u0639"), len(name) - 1])
            assert stop < letter, path
        you = page.locator("tr.mine th").inner_text()
        assert you.startswith(name) and you.endswith("(you)")
        page.close()


def test_a_persian_seed_with_its_half_space_is_dealt(browser: Browser, live_server):
    """The seed box's pattern and the server refused the zero-width
    non-joiner of a Persian word: ``نیک‌نام`` could not be a seed."""
    seed = "\u0646\u06cc\u06a9\u200c\u0646\u0627\u0645"
    page = browser.new_page()
    page.goto(f"{live_server}/")
    page.locator("#seed").fill(seed)
    assert page.locator("#seed").evaluate("(box) => box.checkValidity()") is True
    submit(page, page.get_by_role("button", name="Deal from a seed"))
    assert page.locator("code.seed").first.inner_text() == seed
    page.close()
