"""A partners hand and a classic match played to the end by clicking."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.conftest import checked, leading
from tests.e2e.conftest import DESKTOP, PHONE, cards_in_hand, play_card, submit

LAPTOP = {"width": 1280, "height": 700}


def shoot(page: Page, screenshots, name: str) -> None:
    """Screenshot the page at phone and desktop sizes."""
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.emulate_media(reduced_motion="reduce")
        page.screenshot(path=screenshots / f"{name}-{size_name}.png", full_page=True)


def play_hand(page: Page, screenshots, name: str) -> int:
    """Click cards until the hand is over; return the number of plays taken."""
    plays = 0
    while cards_in_hand(page):
        capturing = page.locator(".hand button.captures")
        plays += play_card(
            page, capturing.first if capturing.count() else page.locator(".hand button").first
        )
        if plays == 3:
            shoot(page, screenshots, name)
    return plays


def in_first_screen(page: Page, locator, size: dict) -> bool:
    """Whether ``locator`` lies wholly in the first screen of ``size``."""
    page.set_viewport_size(size)
    page.evaluate("window.scrollTo(0, 0)")
    box = locator.bounding_box()
    return box is not None and box["y"] + box["height"] <= size["height"]


def start(page: Page, live_server: str, seed: str, rules: str, target: str | None = None) -> None:
    page.goto(live_server + "/")
    page.get_by_label("Seed").fill(seed)
    page.locator("form.stack").nth(1).locator(f"input[value='{rules}']").check()
    if target:
        page.locator("#seed-target").select_option(target)
    submit(page, page.get_by_role("button", name="Deal from a seed"))
    submit(page, page.get_by_role("button", name="Start this deal"))


def test_partners_hand(page: Page, live_server, screenshots):
    page.set_viewport_size(PHONE)
    start(page, live_server, leading("e2e-partners", 4), "partners")
    expect(page).to_have_url(f"{live_server}/game")
    for name in ("East", "North", "West"):
        expect(page.get_by_role("heading", name=name)).to_be_visible()
    # The seat's tags are read as words of their own.
    expect(
        page.get_by_role("heading", name=re.compile(r"^North, partner(, dealer)?$"))
    ).to_be_visible()
    expect(
        page.get_by_role("heading", name=re.compile(r"^Your hand(, dealer)?, your turn$"))
    ).to_be_visible()
    expect(page.locator(".bottom-card")).to_contain_text("bottom card")
    assert play_hand(page, screenshots, "partners-table") == 12
    expect(page.locator(".verdict")).to_have_text("Hand 1 is over")
    shoot(page, screenshots, "partners-between")
    # On a laptop the hand's score stands beside its end, in the first
    # screen with the Next hand button; a phone keeps them one under the other.
    total = page.locator(".score tfoot").first
    next_hand = page.get_by_role("button", name="Next hand")
    for size in (LAPTOP, DESKTOP):
        assert in_first_screen(page, total, size) and in_first_screen(page, next_hand, size)
    page.set_viewport_size(PHONE)
    assert page.locator(".hand-score").first.bounding_box()["y"] > next_hand.bounding_box()["y"]
    rows = page.locator(".hand-score").first.locator("tbody tr").first.locator("td.score-count")
    rows = rows.all_inner_texts()
    assert sum(int(cards) for cards in rows) == 52
    submit(page, page.get_by_role("button", name="Next hand"))
    expect(page.locator(".hand button")).to_have_count(4)
    # The deal passed on: you now deal, so all three computers played first.
    expect(page.locator(".log li")).to_have_count(3)
    expect(page.locator(".place-0 .tag.dealer")).to_be_visible()


def test_classic_match_to_the_end(page: Page, live_server, screenshots):
    page.set_viewport_size(DESKTOP)
    start(page, live_server, "e2e-classic", "classic", "51")
    hands = 0
    while True:
        assert play_hand(page, screenshots, "classic-table") == 24
        hands += 1
        if page.get_by_role("button", name="Next hand").count() == 0:
            break
        submit(page, page.get_by_role("button", name="Next hand"))
        expect(page.locator(".hand button")).to_have_count(4)
    shoot(page, screenshots, "classic-final")
    totals = [int(t) for t in page.locator(".totals tfoot td").all_inner_texts()]
    assert max(totals) >= 51 and totals[0] != totals[1]
    verdict = "You won!" if totals[0] > totals[1] else "The computer won"
    expect(page.locator(".verdict")).to_have_text(verdict)
    assert page.locator(".totals tbody tr").count() == hands
    # What to do next is on the first screen, above the score tables; on a
    # laptop the last hand's score is beside it, in the first screen too.
    for size in (PHONE, LAPTOP, DESKTOP):
        assert in_first_screen(page, page.get_by_role("button", name="Play again"), size)
    for size in (LAPTOP, DESKTOP):
        assert in_first_screen(page, page.locator(".score tfoot").first, size)
    # A phone: the verdict and the hand at a glance, what to do next, the
    # hand's whole score, then keeping the result.
    page.set_viewport_size(PHONE)
    order = [
        page.locator(selector).first.bounding_box()["y"]
        for selector in (".verdict", ".glance", ".actions", ".hand-score", ".your-result")
    ]
    assert order == sorted(order)
    expect(page.locator("#share")).to_have_value(
        checked(f"{live_server}/deal/e2e-classic?rules=classic&target=51&level=medium")
    )
