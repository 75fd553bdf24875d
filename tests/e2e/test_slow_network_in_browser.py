"""A slow or lost network, in Chromium: a play slow to be answered says it
is on its way; a card tapped, or an aid toggled, with the phone offline or
with nothing answering while the browser thinks it is online, leaves the
table in place (not the browser's "no internet" page), says so, and the
table is read again as it stands once the network or the server is back."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests.conftest import serve
from tests.e2e.conftest import (
    COUNT_TIMERS,
    PHONE,
    e2e_app,
    play_card,
    set_hidden,
    settled_when_ready,
    slowed,
    submit,
    take_deal,
)

#: How long the slowed server waits before it answers a play, in seconds.
SLOW_PLAY_S = 2.5

OFFLINE = "You are offline. The table comes back as it stands when the connection does."
UNREACHABLE = "The server does not answer. The table comes back as it stands when it does."


def phone_table(browser: Browser, url: str, seed: str) -> tuple[BrowserContext, Page]:
    """A phone's new context and page at the table of the deal ``seed``,
    its four cards in hand."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{url}/deal/{seed}")
    submit(page, page.get_by_role("button", name="Start this deal"))
    expect(page.locator(".you .hand button")).to_have_count(4)
    return context, page


def test_a_card_tapped_offline_leaves_the_table_and_it_comes_back_online(
    browser: Browser, live_server
):
    context, page = phone_table(browser, live_server, "offline-card")
    hand = page.locator(".you .hand button")

    context.set_offline(True)
    # The table says so at once, before any tap: a note, "offline" where it
    # said "your turn", and a dimmed hand that takes no taps.
    expect(page.locator(".happened .alert")).to_have_text(OFFLINE)
    expect(page.locator(".you .turn-tag")).to_have_text("offline")
    expect(page.locator(".you .hand")).to_have_class("hand offline")
    hand.first.click(force=True)
    page.wait_for_timeout(300)
    assert page.url == f"{live_server}/game"
    expect(hand).to_have_count(4)
    expect(page.locator(".happened .alert")).to_have_count(1)

    with page.expect_navigation(url=f"{live_server}/game"):
        context.set_offline(False)
    # The card never reached the server: it is still in hand, and can be played.
    expect(hand).to_have_count(4)
    expect(page.locator(".happened .alert")).to_have_count(0)
    context.close()


def test_an_aid_toggled_offline_leaves_the_table(browser: Browser, live_server):
    context, page = phone_table(browser, live_server, "offline-aid")

    page.locator("details.settings summary").click()
    context.set_offline(True)
    page.locator("form.aids input[type=checkbox]").first.click()
    expect(page.locator(".happened .alert")).to_have_text(OFFLINE)
    assert page.url == f"{live_server}/game"
    context.close()


@pytest.mark.parametrize(
    ("reaches_server", "in_hand"),
    [(False, 4), (True, 3)],
    ids=["lost on the way", "answer lost"],
)
def test_a_card_tapped_with_nothing_answering_leaves_the_table(
    browser: Browser, live_server, reaches_server, in_hand
):
    # A lost signal often leaves the browser online: every request fails
    # at once. The table stays, says the server does not answer, takes no
    # taps, and is read again as it stands once the server answers.
    context, page = phone_table(browser, live_server, f"unreachable-{reaches_server}")
    hand = page.locator(".you .hand button")

    def cut(route: Route) -> None:
        if reaches_server and route.request.method == "POST":
            route.fetch()  # played; only its answer is lost
        route.abort("internetdisconnected")

    page.route("**/*", cut)
    hand.first.click()
    expect(page.locator(".happened .alert")).to_have_text(UNREACHABLE)
    expect(page.locator(".you .turn-tag")).to_have_text("offline")
    expect(page.locator(".you .hand")).to_have_class("hand offline")
    assert page.evaluate("navigator.onLine")
    page.wait_for_timeout(3500)  # asked again at least once, in vain
    assert page.url == f"{live_server}/game"
    expect(hand).to_have_count(4)

    with page.expect_navigation(url=f"{live_server}/game", timeout=10_000):
        page.unroute("**/*")
    expect(hand).to_have_count(in_hand)
    expect(page.locator(".happened .alert")).to_have_count(0)
    if reaches_server:
        expect(page.locator(".log li").first).to_contain_text("You played")
    context.close()


def test_a_table_nobody_sees_does_not_ask_whether_the_server_answers(browser: Browser, live_server):
    """With nothing answering, the table asks every 3 s whether the server
    answers again, but not while nobody sees it (a background tab, a
    phone's screen off: it woke the phone and its radio every 3 s, all
    night); seen again, it asks at once, and comes back when it does."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server}/deal/unreachable-hidden")
    submit(page, page.get_by_role("button", name="Start this deal"))
    hand = page.locator(".you .hand button")
    expect(hand).to_have_count(4)
    asked: list[str] = []

    def cut(route: Route) -> None:
        if route.request.url.endswith("/healthz"):
            asked.append(route.request.url)
        route.abort("internetdisconnected")

    page.route("**/*", cut)
    hand.first.click()
    expect(page.locator(".happened .alert")).to_have_text(UNREACHABLE)
    page.clock.run_for(3000)
    for _ in range(100):
        if asked:
            break
        page.wait_for_timeout(50)
    assert len(asked) == 1
    set_hidden(page, True)
    page.evaluate(COUNT_TIMERS)
    # A minute of the page's clock, each step given real time for an ask
    # to be sent.
    for _ in range(20):
        page.clock.run_for(3000)
        page.wait_for_timeout(50)
    assert len(asked) == 1
    assert page.evaluate("window.timersSet") == 0
    with page.expect_navigation(url=f"{live_server}/game"):
        page.unroute("**/*")
        set_hidden(page, False)
    assert len(asked) == 1
    expect(hand).to_have_count(4)
    context.close()


def test_a_play_slow_and_then_lost_stops_saying_it_is_on_its_way(browser: Browser, live_server):
    """A play that says it is on its way ("sending…", pulsing) and is then
    lost leaves the tag saying "offline", still: the pulse went on, for as
    long as the table was left so (a play that looked sent, and a page
    that drew frames for nothing)."""
    context, page = phone_table(browser, live_server, "slow-then-lost")
    page.emulate_media(reduced_motion="no-preference")
    held: list[Route] = []

    def cut(route: Route) -> None:
        if route.request.method == "POST":
            held.append(route)  # answered late: lost after a while
        else:
            route.abort("internetdisconnected")

    page.route("**/*", cut)
    tag = page.locator(".you .turn-tag")
    page.locator(".you .hand button").first.click()
    expect(tag).to_have_text("sending…", timeout=2000)
    expect(page.locator(".you .turn-tag.sending")).to_have_count(1)
    held[0].abort("internetdisconnected")
    expect(page.locator(".happened .alert")).to_have_text(UNREACHABLE)
    expect(tag).to_have_text("offline")
    expect(page.locator(".you .turn-tag.sending")).to_have_count(0)
    moving = "() => document.getAnimations().filter((a) => a.playState === 'running').length"
    assert page.evaluate(moving) == 0
    assert page.url == f"{live_server}/game"
    context.close()


@pytest.fixture(scope="module")
def slow_play_server(tmp_path_factory):
    """The app served with every play answered 2.5 s late; yields its URL."""
    app = e2e_app(tmp_path_factory)
    slowed(app, SLOW_PLAY_S, "/play")
    with serve(app) as url:
        yield url


def test_a_play_slow_to_be_answered_says_it_is_on_its_way(browser: Browser, slow_play_server):
    context, page = phone_table(browser, slow_play_server, "slow-play")
    hand = page.locator(".you .hand button")
    tag = page.locator(".you .turn-tag")
    expect(tag).to_have_text("your turn")

    hand.first.click()
    # After a second (an answer within it needs no word), until the answer.
    expect(tag).to_have_text("sending…", timeout=2000)
    expect(hand).to_have_count(3, timeout=10_000)
    expect(page.locator(".you .turn-tag.sending")).to_have_count(0)
    context.close()


NOT_SENT = "You are offline: this was not sent. Send it again once the connection is back."


def test_next_hand_pressed_offline_keeps_the_page_and_says_it_was_not_sent(
    browser: Browser, live_server
):
    # The hand's score, its "Next hand" an ordinary form: offline, the
    # browser would show its own "no internet" page instead, and stay
    # there once the network is back.
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/deal/offline-next?rules=classic")
    submit(page, page.get_by_role("button", name="Start this deal"))
    hand = page.locator(".you .hand button")
    while hand.count():
        play_card(page, hand.first)
    next_hand = page.get_by_role("button", name="Next hand")
    expect(next_hand).to_be_visible()

    context.set_offline(True)
    next_hand.click()
    note = page.locator("p.alert[role=alert]")
    expect(note).to_have_text(NOT_SENT)
    next_hand.click()
    expect(note).to_have_count(1)
    assert page.url == f"{live_server}/game"
    expect(page.get_by_role("heading", name="Hand 1 is over")).to_be_visible()

    context.set_offline(False)
    expect(note).to_have_count(0)
    with page.expect_navigation(url=f"{live_server}/game"):
        next_hand.click()
    expect(hand).to_have_count(4)
    context.close()


def test_new_game_pressed_offline_says_so_in_turkish(browser: Browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(f"{live_server}/")
    submit(page, page.get_by_role("button", name="Türkçe"))
    context.set_offline(True)
    page.locator("form[action='/new'] button[type=submit]").first.click()
    expect(page.locator("p.alert[role=alert]")).to_have_text(
        "Bağlantınız yok: bu gönderilmedi. Bağlantı gelince yeniden gönderin."
    )
    assert page.url == f"{live_server}/"
    context.close()


#: How long the table's page stalls half-way, in seconds.
STALL_S = 1.0


@pytest.fixture(scope="module")
def stalling_table_server(tmp_path_factory):
    """The app served with the table's page (GET /game) sent in two parts,
    STALL_S apart, the break just before what happened under the felt, as
    a slow mobile network delivers a page; yields its URL."""
    app = e2e_app(tmp_path_factory)
    inner = app.wsgi_app

    def stalled(environ, start_response):
        if environ["REQUEST_METHOD"] != "GET" or environ["PATH_INFO"] != "/game":
            return inner(environ, start_response)
        answer: list = []
        body = b"".join(
            inner(environ, lambda status, headers, *rest: answer.extend((status, headers)))
        )
        status, headers = answer
        start_response(status, [(k, v) for k, v in headers if k.lower() != "content-length"])
        cut = body.find(b'<section class="happened')
        return halves(body, cut if cut > 0 else len(body) // 2)

    def halves(body: bytes, cut: int):
        yield body[:cut]
        time.sleep(STALL_S)
        yield body[cut:]

    app.wsgi_app = stalled
    with serve(app) as url:
        yield url


#: Every layout shift of the page so far (the buffered entries, which only
#: an observer reads): its score and what moved.
SHIFTS = """() => new Promise((found) => {
  new PerformanceObserver((list, observer) => {
    observer.disconnect();
    found(list.getEntries().map((shift) => [
      shift.value,
      shift.sources.map((source) => source.node?.className?.baseVal ?? source.node?.className),
    ]));
  }).observe({ type: "layout-shift", buffered: true });
  // (No entry at all: the observer is never called.)
  requestAnimationFrame(() => requestAnimationFrame(() => found([])));
})"""


def test_a_table_sent_slowly_is_drawn_once_whole(browser: Browser, stalling_table_server):
    """A phone on a slow network got the table's page in parts: the browser
    drew the felt as soon as it had it, filling the screen, and when what
    happened came under it, the felt shrank and the seats, the pile and
    your hand jumped up (168 px at 390x844, a layout shift of 0.10; seen
    on a slow phone too, which parses a page in parts). The table is now
    drawn once its board is all there."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{stalling_table_server}/deal/stalled?rules=classic&players=3")
    take_deal(page)
    page.wait_for_load_state()
    settled_when_ready(page)
    assert page.evaluate(SHIFTS) == []
    page.goto(f"{stalling_table_server}/game")
    settled_when_ready(page)
    assert page.evaluate(SHIFTS) == []
    context.close()
