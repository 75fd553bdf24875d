"""Every page and state of the site through axe-core, in English and
Turkish, light and dark, on a phone and a laptop: no finding of any
impact (minor, moderate, serious or critical) under axe's WCAG 2.0-2.2 A
and AA rules and its best practices, with the 24 px target size of WCAG
2.2 (off in axe by default) on too."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from flask_babel import force_locale
from playwright.sync_api import Browser, Page, Route, expect

from app.serve import PATH_MARK, error_pages
from app.web.errors import MESSAGES, error_page
from tests.e2e.conftest import e2e_app, play_out, resize, settled_when_ready, submit, take_deal

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
#: axe's default rules (WCAG A and AA, best practices) and the target size.
OPTIONS = {"rules": {"target-size": {"enabled": True}}, "resultTypes": ["violations"]}


class Sweep:
    """Runs axe on a page in each colour scheme and size; keeps what it
    finds as lines "state, scheme, size: rule (impact) at target"."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.axe = Axe()
        self.found: list[str] = []
        self.states: list[str] = []

    def check(self, state: str, page: Page | None = None) -> None:
        """Run axe on the page as it stands (or on ``page``), four times."""
        page = page or self.page
        page.wait_for_load_state()
        self.states.append(state)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for size_name, size in SIZES.items():
                resize(page, size)
                result = self.axe.run(page, options=OPTIONS)
                self.found += [
                    f"{state}, {scheme}, {size_name}: {finding['id']} ({finding['impact']})"
                    f" at {node['target']}"
                    for finding in result.response["violations"]
                    for node in finding["nodes"]
                ]
        resize(page, SIZES["phone"])

    def visit(self, url: str, state: str | None = None) -> None:
        """Go to ``url`` and check it."""
        self.page.goto(url)
        self.check(state or url.split("/", 3)[-1])


def drawn_pages(tmp_path_factory, language: str) -> dict[str, str]:
    """The error pages no browser test can bring about on the live server
    (its rate limits are off; a store down, a body too large for the
    server itself), drawn by the app and the server as they send them, in
    ``language``, by a name for each."""
    app = e2e_app(tmp_path_factory)
    pages = {}
    with app.test_request_context("/"), force_locale(language):
        for status in (413, 429, 503):
            pages[f"error {status}"] = error_page(status, MESSAGES[status], game=False)
    for status, page in error_pages(app).items():
        html = page.by_language[language].decode().replace(PATH_MARK, "")
        pages[f"server's error {status}"] = html
    return pages


def answering(html: str) -> Callable[[Route], None]:
    """A route's handler answering ``html``."""
    return lambda route: route.fulfill(body=html, content_type="text/html")


def sweep_the_site(sweep: Sweep, url: str, drawn: dict[str, str]) -> Sweep:
    """Visit every page and state with ``sweep``'s page, checking each
    (see the module; ``sweep.check`` says what a check is)."""
    page = sweep.page
    paths = ("/", "/house", "/game/rules", "/daily", "/leaderboard", "/me", "/review/")
    for path in (*paths, "/docs/record-format"):
        sweep.visit(url + path)
    sweep.visit(url + "/nowhere", "error 404")
    for name, html in drawn.items():
        address = f"{url}/drawn-{name.replace(' ', '-').replace(chr(39), '')}"
        page.route(address, answering(html))
        sweep.visit(address, name)

    # The story: its path, the lesson, a wrong card, a match at its table.
    sweep.visit(url + "/story")
    sweep.visit(url + "/story/lesson")
    with page.expect_navigation():
        page.locator(".hand button").nth(1).click()
    sweep.check("lesson, a card played")
    page.goto(url + "/story")
    submit(page, page.locator("form[action$='/lesson/skip'] button"))
    submit(page, page.locator("form[action$='/story/play'] button").first)
    settled_when_ready(page)
    sweep.check("story table")

    # A match with a house rule: the deal link, the table and what opens
    # on it, a play from an out-of-date tab, between hands.
    sweep.visit(url + "/deal/axe-sweep?rules=classic&last_sweep_bonus=3", "deal link")
    take_deal(page)
    settled_when_ready(page)
    sweep.check("table")
    page.locator(".settings summary").click()
    sweep.check("table, playing aids open")
    page.locator(".settings summary").click()
    page.locator("button.chip.points").first.click()
    expect(page.locator("#key-points")).to_be_visible()
    sweep.check("table, points popover")
    page.keyboard.press("Escape")
    page.locator(".rules-line summary").click()
    sweep.check("table, house rules open")
    page.locator(".rules-line summary").click()
    stale = page.context.new_page()
    stale.goto(url + "/game")
    settled_when_ready(stale)
    play_out_one(page)
    with stale.expect_response(re.compile(r"/play$")):
        stale.locator(".hand button").first.click()
    expect(stale.locator(".alert")).to_be_visible()
    sweep.check("table, out of date", stale)
    stale.close()
    play_out(page)
    sweep.check("between hands")
    page.locator("button.tag.dealer").first.click()
    sweep.check("between hands, dealer popover")
    page.keyboard.press("Escape")

    # Partners: four seats, two sides' points chips, the bottom card.
    page.goto(url + "/deal/axe-partners?rules=partners")
    take_deal(page)
    settled_when_ready(page)
    sweep.check("partners table")

    # A single hand to its end, and its review.
    page.goto(url + "/deal/axe-final")
    take_deal(page)
    play_out(page)
    sweep.check("final")
    page.locator("form.review-hand button").click()
    expect(page.locator(".review-verdict")).to_be_visible()
    sweep.check("review step")
    page.locator("a[href*='reveal=1']").first.click()
    sweep.check("review step, hidden cards shown")
    page.get_by_role("link", name=re.compile("Summary|Özet")).first.click()
    expect(page.locator(".review-figures")).to_be_visible(timeout=60_000)
    sweep.check("review summary")

    # A player: a name, a transfer code, statistics, ranks, forgetting.
    page.goto(url + "/me")
    page.locator("#name").fill(f"Axe {page.evaluate('Date.now() % 1e6')}")
    submit(page, page.locator("#name-form button[type=submit]"))
    sweep.check("profile")
    submit(page, page.locator("form[action*='/me/transfer'] button"))
    sweep.check("profile, transfer code")
    for path in ("/me/stats", "/leaderboard", "/daily"):
        sweep.visit(url + path, f"{path}, named")
    page.goto(url + "/me")
    submit(page, page.locator("form[action*='/me/forget'] button"))
    sweep.check("forget, not ticked")
    page.locator("form[action*='/me/forget'] input[type=checkbox]").check()
    submit(page, page.locator("form[action*='/me/forget'] button"))
    sweep.check("forgotten")
    return sweep


def play_out_one(page: Page) -> None:
    """Play the hand's first card and wait until the table has settled."""
    before = settled_when_ready(page)
    page.locator(".hand button").first.click()
    page.wait_for_function(
        "n => Number(document.documentElement.dataset.settled || 0) > n", arg=before
    )


@pytest.mark.parametrize(("locale", "language"), [("en-GB", "en"), ("tr-TR", "tr")])
def test_every_page_passes_axe(browser: Browser, live_server, tmp_path_factory, locale, language):
    context = browser.new_context(locale=locale, reduced_motion="reduce", viewport=SIZES["phone"])
    page = context.new_page()
    sweep = sweep_the_site(Sweep(page), live_server, drawn_pages(tmp_path_factory, language))
    context.close()
    assert len(sweep.states) >= 35
    assert sweep.found == [], "\n".join(sweep.found)
