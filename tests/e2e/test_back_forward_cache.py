"""Back and Forward in a browser with its back/forward cache (Chromium's,
as players have it): a page shown again as it was left must not act on
what has changed since. A game started, a name forgotten: the page shown
by Back says so, and its forms do what they say."""

from __future__ import annotations

import re
import threading

from playwright.sync_api import Browser, BrowserContext, Page, expect
from werkzeug.serving import make_server

from tests.e2e.conftest import COUNT_RESTORED, PHONE, e2e_app, play_card, restored, submit


def counted_page(context: BrowserContext) -> Page:
    """A new page of ``context`` that counts its restores from the
    back/forward cache (:func:`~tests.e2e.conftest.restored`)."""
    page = context.new_page()
    page.add_init_script(COUNT_RESTORED)
    return page


def back(page) -> None:
    """Press Back; a page shown from the cache fires no load event."""
    page.go_back(wait_until="commit")


def test_back_to_the_home_page_after_a_new_game(bfcache_browser: Browser, live_server):
    # The home page kept from before the game said nothing of it, and its
    # "New game" was refused as out of date, again after each Back (3 of 3
    # in Chromium): a player could not start another game that way.
    context = bfcache_browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = counted_page(context)
    page.goto(live_server)
    submit(page, page.locator("form[action='/new'] button[type=submit]"))
    for _ in range(2):
        back(page)
        expect(page.get_by_role("link", name="Continue your game")).to_be_visible()
        with page.expect_navigation(url=f"{live_server}/game") as arrived:
            page.locator("form[action='/new'] button[type=submit]").click()
        assert arrived.value.status == 200  # after the 303, not a 409 page
        expect(page.locator(".hand button")).to_have_count(4)
        expect(page.locator(".alert")).to_have_count(0)
    assert restored(page) == 2
    # The first game was kept to go back to, and two others started.
    expect(page.locator("details.kept li")).to_have_count(2)
    context.close()


def test_back_from_the_keyboard_finds_the_focus_where_it_was(bfcache_browser: Browser, live_server):
    # The home page shown again by Back is loaded again, as it stands: the
    # focus went back to the top of the page, not to the button pressed.
    context = bfcache_browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = counted_page(context)
    page.goto(live_server)
    button = page.locator("form[action='/new'] button[type=submit]")
    button.focus()
    with page.expect_navigation(url=f"{live_server}/game"):
        page.keyboard.press("Enter")
    expect(page.locator(".hand button").first).to_be_focused()
    back(page)
    expect(page.get_by_role("link", name="Continue your game")).to_be_visible()
    expect(button).to_be_focused()
    assert restored(page) == 1
    context.close()


def test_back_after_forget_me_shows_no_name(bfcache_browser: Browser, live_server):
    # The profile kept from before "Forget me" came back with the name and
    # totals of the player just deleted, on a shared phone to whoever pressed Back.
    context = bfcache_browser.new_context(viewport=PHONE)
    page = counted_page(context)
    page.goto(f"{live_server}/me")
    page.fill("#name", "Forgotten Soon")
    submit(page, page.locator("#name-form button[type=submit]"))
    expect(page.locator("h1")).to_have_text("Forgotten Soon")
    page.check("#forget input[name=confirm]")
    submit(page, page.locator("#forget button[type=submit]"))
    expect(page.locator("main")).to_contain_text("This device no longer knows you")
    back(page)
    expect(page.locator("h1")).to_have_text("Your profile")
    expect(page.locator("main")).not_to_contain_text("Forgotten Soon")
    assert restored(page) == 1
    context.close()


def test_back_to_the_house_rules_keeps_the_choices_and_starts_again(
    bfcache_browser: Browser, live_server
):
    # The choices are the player's, kept by the cache; the game the form
    # would replace is read again: the second start was refused as out of date.
    context = bfcache_browser.new_context(reduced_motion="reduce")
    page = counted_page(context)
    page.goto(f"{live_server}/house")
    page.select_option("#target", "151")
    start = page.locator("form[action='/house'] button[type=submit]").last
    submit(page, start)
    expect(page.locator(".hand button")).to_have_count(4)
    back(page)
    expect(page.locator("#target")).to_have_value("151")
    expect(page.locator("input[name=replaces]")).not_to_have_value("")
    with page.expect_navigation(url=f"{live_server}/game") as arrived:
        start.click()
    assert arrived.value.status == 200
    expect(page.locator(".alert")).to_have_count(0)
    expect(page.locator(".meta")).to_contain_text("hand 1")
    assert restored(page) == 1
    context.close()


def test_back_to_a_transfer_code_does_not_show_it_again(bfcache_browser: Browser, live_server):
    # The one-time code is sent never to be kept (no-store), but Chromium
    # keeps such a page in its back/forward cache: Back from the statistics
    # showed the code again, still usable.
    context = bfcache_browser.new_context()
    page = counted_page(context)
    page.goto(f"{live_server}/me")
    page.fill("#name", "Two Devices")
    submit(page, page.locator("#name-form button[type=submit]"))
    submit(page, page.get_by_role("button", name="Make a transfer code"))
    expect(page.locator(".transfer-code")).to_have_count(1)
    submit(page, page.get_by_role("link", name="Your statistics").first)
    back(page)
    expect(page.get_by_role("button", name="Make a transfer code")).to_be_visible()
    expect(page.locator(".transfer-code")).to_have_count(0)
    assert restored(page) == 1
    context.close()


def test_a_table_left_in_the_middle_of_a_play_is_read_again_once_it_settles(
    bfcache_browser: Browser, live_server
):
    # Back pressed while the computer's reply rests on the pile, a card
    # played in another tab, Forward: the table was shown from the cache
    # while its play was being shown, which skipped reading it again (a
    # card tapped then was refused as already played).
    context = bfcache_browser.new_context(viewport=PHONE)
    context.add_cookies([{"name": "pisti_aids", "value": "slow", "url": live_server}])
    page = counted_page(context)
    # The page's timers wait for the test: the reply's rest on the pile
    # (SLOW_REST_MS) lasts until the clock is run on.
    page.clock.install()
    page.goto(f"{live_server}/deal/back-mid-play")
    submit(page, page.get_by_role("button", name="Start this deal"))
    expect(page.locator("body")).to_have_class(re.compile(r"\bslow-plays\b"))
    hand = page.locator(".you .hand button")
    lines = page.locator(".log li").count()
    with page.expect_response(f"{live_server}/play"):
        hand.first.click()
    # Your card and the reply have landed; the reply rests on the pile.
    page.wait_for_function(
        """(lines) => document.documentElement.dataset.state === "busy"
          && document.querySelectorAll(".log li").length >= lines + 2
          && !document.getAnimations().some((move) => move.playState === "running")""",
        arg=lines,
    )
    back(page)
    expect(page).to_have_url(re.compile(r"/deal/back-mid-play$"))
    other = context.new_page()
    other.goto(f"{live_server}/game")
    assert play_card(other, other.locator(".you .hand button").first)
    current = other.locator(".you .hand button").evaluate_all("cards => cards.map(c => c.value)")
    other.close()
    page.go_forward(wait_until="commit")
    expect(page).to_have_url(f"{live_server}/game")
    # (The deal page by Back, then the table, still in its play, by Forward.)
    assert restored(page) == 2
    page.clock.run_for(1000)
    expect(hand).to_have_count(len(current))
    assert hand.evaluate_all("cards => cards.map(c => c.value)") == current
    context.close()


def test_a_page_shown_again_while_the_server_is_down_stays(
    bfcache_browser: Browser, tmp_path_factory
):
    # Loading it again put the browser's own error page in its place, which
    # stayed there once the server was back.
    server = make_server("127.0.0.1", 0, e2e_app(tmp_path_factory), threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    context = bfcache_browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = counted_page(context)
    page.goto(url)
    submit(page, page.locator("form[action='/new'] button[type=submit]"))
    server.shutdown()
    server.server_close()
    thread.join()
    with page.expect_event(
        "requestfailed", lambda request: "/healthz" in request.url, timeout=10_000
    ):
        back(page)
    expect(page).to_have_url(f"{url}/")
    expect(page.locator("form[action='/new'] button[type=submit]")).to_be_visible()
    assert restored(page) == 1
    context.close()


def test_back_to_a_page_with_words_typed_keeps_them(bfcache_browser: Browser, live_server):
    # A page other than the table was loaded again when Back showed it:
    # a seed typed on the home page, a level chosen, a record's file picked
    # for review were lost (the page as the server draws it), where Back
    # without the cache keeps them. Such a page stays; its forms' games to
    # replace are read again (a game started meanwhile in another tab).
    context = bfcache_browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = counted_page(context)
    page.goto(live_server)
    page.fill("#seed", "kept-words")
    page.select_option("#level", "expert")
    other = context.new_page()
    other.goto(live_server)
    submit(other, other.locator("form[action='/new'] button[type=submit]"))
    page.goto(f"{live_server}/game/rules")
    back(page)
    expect(page.locator("#seed")).to_have_value("kept-words")
    expect(page.locator("#level")).to_have_value("expert")
    expect(page.locator("form[action='/new'] input[name=replaces]")).not_to_have_value("")
    with page.expect_navigation(url=f"{live_server}/game") as arrived:
        page.locator("form[action='/new'] button[type=submit]").click()
    assert arrived.value.status == 200  # after the 303, not a 409 page
    expect(page.locator(".alert")).to_have_count(0)
    assert restored(page) == 1
    context.close()
