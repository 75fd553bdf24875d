"""The phone online but the server not answering, in Chromium: a server
stopped or restarting (the connection refused) or a proxy answering for it
(502, 503, 504 pages of its own). A card tapped keeps the table and says
the server does not answer; a form pressed (Next hand, New game) is not
left for the browser's error page or the proxy's: the page stays, says the
server could not be reached and to try again, and the note goes once the
server answers again."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.e2e.conftest import PHONE, play_card, submit, take_deal
from tests.e2e.test_slow_network_in_browser import UNREACHABLE, phone_table

NOT_REACHED = "The server could not be reached: this was not sent. Try again in a moment."
NOT_REACHED_TR = "Sunucuya ulaşılamadı: bu gönderilmedi. Birazdan yeniden deneyin."

#: A proxy's own page in place of the server's (nginx's words).
PROXY_PAGE = (
    "<html><head><title>{status}</title></head><body><h1>{status}</h1><hr>nginx</body></html>"
)
PROXY_REASONS = {
    502: "Bad Gateway",
    503: "Service Temporarily Unavailable",
    504: "Gateway Time-out",
}


def cut_off(page: Page, how: str, played: bool = False) -> None:
    """From now on nothing answers ``page`` but a proxy's error page
    (``how`` a status, "502") or a refused connection ("refused"); a
    play is ``played`` by the server all the same (its answer lost)."""

    def answer(route: Route) -> None:
        if played and route.request.method == "POST":
            route.fetch()
        if how == "refused":
            route.abort("connectionrefused")
        else:
            status = int(how)
            body = PROXY_PAGE.format(status=f"{status} {PROXY_REASONS[status]}")
            route.fulfill(status=status, body=body, content_type="text/html")

    page.route("**/*", answer)


@pytest.mark.parametrize(
    ("status", "played", "in_hand"),
    [("502", False, 4), ("503", False, 4), ("504", True, 3)],
    ids=["502", "503", "504 after the play was made"],
)
def test_a_card_tapped_while_a_proxy_answers_keeps_the_table(
    browser: Browser, live_server, status, played, in_hand
):
    # The proxy's page took the table's place.
    context, page = phone_table(browser, live_server, f"proxy-play-{status}")
    hand = page.locator(".you .hand button")
    cut_off(page, status, played)
    hand.first.click()
    expect(page.locator(".happened .alert")).to_have_text(UNREACHABLE)
    expect(page.locator(".you .turn-tag")).to_have_text("offline")
    expect(page.locator(".you .hand")).to_have_class("hand offline")
    assert page.url == f"{live_server}/game"
    expect(page.get_by_text("nginx")).to_have_count(0)
    expect(hand).to_have_count(4)

    # Read again, as it stands, once the server answers.
    with page.expect_navigation(url=f"{live_server}/game", timeout=10_000):
        page.unroute("**/*")
    expect(hand).to_have_count(in_hand)
    expect(page.locator(".happened .alert")).to_have_count(0)
    context.close()


def hand_over(browser: Browser, url: str, seed: str) -> tuple[Page, object]:
    """A phone's page at the score of a classic match's first hand."""
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{url}/deal/{seed}?rules=classic")
    take_deal(page)
    hand = page.locator(".you .hand button")
    while hand.count():
        play_card(page, hand.first)
    expect(page.get_by_role("button", name="Next hand")).to_be_visible()
    return page, context


@pytest.mark.parametrize("how", ["refused", "502", "503", "504"])
def test_next_hand_pressed_with_the_server_unreachable_keeps_the_page(
    browser: Browser, live_server, how
):
    # Chromium put its "This site can't be reached" page (or the proxy's)
    # in place of the hand's score, and stayed there once the server was back.
    page, context = hand_over(browser, live_server, f"unreachable-next-{how}")
    next_hand = page.get_by_role("button", name="Next hand")
    cut_off(page, how)
    next_hand.click()
    note = page.locator("p.alert[role=alert]")
    expect(note).to_have_text(NOT_REACHED)
    assert page.url == f"{live_server}/game"
    expect(page.get_by_role("heading", name="Hand 1 is over")).to_be_visible()
    # Pressed again, still nothing answering: one note, the page kept.
    next_hand.click()
    expect(note).to_have_text(NOT_REACHED)
    expect(note).to_have_count(1)
    expect(next_hand).not_to_have_attribute("data-sending", "")

    # The server answers again: the note goes, and the form is sent.
    page.unroute("**/*")
    expect(note).to_have_count(0, timeout=10_000)
    with page.expect_navigation(url=f"{live_server}/game"):
        next_hand.click()
    expect(page.locator(".you .hand button")).to_have_count(4)
    context.close()


def test_new_game_pressed_with_the_server_unreachable_says_so_in_turkish(
    browser: Browser, live_server
):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(f"{live_server}/")
    submit(page, page.get_by_role("button", name="Türkçe"))
    cut_off(page, "503")
    page.locator("form[action='/new'] button[type=submit]").first.click()
    expect(page.locator("p.alert[role=alert]")).to_have_text(NOT_REACHED_TR)
    assert page.url == f"{live_server}/"
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    context.close()


def test_a_form_whose_server_never_answers_keeps_the_page(browser: Browser, live_server):
    """A server that takes the connection and then says nothing (hung, or a
    proxy waiting for it): after 15 s without an answer the page says the
    server could not be reached, as the browser's own error page would
    have, much later, in its place."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server}/")
    held: list[Route] = []
    page.route("**/healthz", lambda route: held.append(route))
    page.locator("form[action='/new'] button[type=submit]").first.click()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    note = page.locator("p.alert[role=alert]")
    page.clock.run_for(14_000)
    expect(note).to_have_count(0)
    page.clock.run_for(1_500)
    expect(note).to_have_text(NOT_REACHED)
    assert page.url == f"{live_server}/"
    context.close()


@pytest.mark.parametrize("by", ["pointer", "keyboard"])
def test_a_form_to_a_server_that_answers_waits_for_no_health_check(
    browser: Browser, live_server, by
):
    """Whether the server answers is asked as the finger comes down on the
    button (or the focus comes to it): the form goes on the click, not a
    health check's round trip after it (each form waited one before)."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/")
    button = page.locator("form[action='/new'] button[type=submit]").first
    asked: list[str] = []
    page.on(
        "request", lambda request: asked.append(request.url) if "/healthz" in request.url else None
    )
    with page.expect_response("**/healthz", timeout=5_000):
        if by == "pointer":
            button.hover()
            page.mouse.down()
        else:
            button.focus()
    with page.expect_navigation():
        if by == "pointer":
            page.mouse.up()
        else:
            page.keyboard.press("Enter")
    expect(page.locator(".hand button")).to_have_count(4)
    assert len(asked) == 1
    context.close()
