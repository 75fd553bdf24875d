"""Two friends sharing a deal from their phones: the final page's link,
copied and sent."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playwright.sync_api import expect
from werkzeug.urls import iri_to_uri

from tests.conftest import checked, form_fields
from tests.e2e.conftest import submit, take_deal

CARD = re.compile(r'name="card" value="([2-9TJQKA][CDHS])"')
#: Phones and laptops the pages are looked at in.
SIZES = {
    "phone-360": {"width": 360, "height": 740},
    "phone-390": {"width": 390, "height": 844},
    "laptop-700": {"width": 1280, "height": 700},
    "laptop-800": {"width": 1280, "height": 800},
}


def finish_by_forms(page, base: str, link: str) -> None:
    """Start the deal ``link`` and play its first card each turn (and the
    next hand) to the end, sending the forms' fields from the page (its
    cookies, its host)."""
    # A page of the site (its CSRF cookie, its own icon): on /healthz the
    # browser asked for /favicon.ico, whose 404 page could set another
    # cookie after the deal page's, and the start was refused.
    page.goto(base + "/")
    send = (
        "async ([url, form]) => (await fetch(url, form ? "
        "{method: 'POST', body: new URLSearchParams(form)} : {})).text()"
    )
    deal = page.evaluate(send, [base + link, None])
    action = re.search(r'<form method="post" action="(/deal/[^"]*)"', deal).group(1)
    page.evaluate(send, [base + action.replace("&amp;", "&"), form_fields(deal, action)])
    for _ in range(1000):
        table = page.evaluate(send, [base + "/game", None])
        card = CARD.search(table)
        if card is None and 'action="/next"' in table:
            page.evaluate(send, [base + "/next", form_fields(table, "/next")])
            continue
        if card is None:
            return
        start = table.rindex("<form", 0, card.start())
        fields = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', table[start:]))
        page.evaluate(send, [base + "/play", {**fields, "card": card.group(1)}])
    raise AssertionError("the game did not end")


def test_copy_link_copies_on_a_page_served_over_plain_http(
    browser_type, browser_type_launch_args, live_server
):
    # A server on a home network (http://pisti.test, no HTTPS) is not a
    # secure page: it has no navigator.clipboard, and "Copy link" only
    # selected the link, saying nothing, which a phone shows no menu for.
    port = urlsplit(live_server).port
    args = [*browser_type_launch_args["args"], "--host-resolver-rules=MAP pisti.test 127.0.0.1"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    try:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        home = f"http://pisti.test:{port}"
        finish_by_forms(page, home, "/deal/kopya-düz?rules=cardems")
        page.goto(home + "/game")
        assert page.evaluate("() => window.isSecureContext") is False
        link = checked(f"{home}/deal/kopya-düz?rules=cardems&level=medium")
        expect(page.locator("#share")).to_have_value(link)
        page.get_by_role("button", name="Copy link").click()
        expect(page.get_by_role("button", name="Copied")).to_be_focused()
        expect(page.get_by_role("status")).to_have_text("Copied")
        # The clipboard, read from a secure page of the same browser.
        context.grant_permissions(["clipboard-read"], origin=live_server)
        other = context.new_page()
        other.goto(live_server + "/healthz")
        assert other.evaluate("() => navigator.clipboard.readText()") == link
    finally:
        browser.close()


def test_share_opens_the_phones_share_sheet_where_it_has_one(browser, live_server):
    # On a phone the link goes to a friend through the share sheet (a chat,
    # a message); the final page offered only a field and "Copy link".
    phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True}
    context = browser.new_context(**phone)
    context.add_init_script(
        "navigator.share = async (data) => { window.shared = data; };"
        "navigator.canShare = () => true;"
    )
    page = context.new_page()
    finish_by_forms(page, live_server, "/deal/paylaş?rules=classic&level=hard")
    page.goto(live_server + "/game")
    link = checked(f"{live_server}/deal/paylaş?rules=classic&target=51&level=hard")
    page.get_by_role("button", name="Share", exact=True).click()
    page.wait_for_function("() => window.shared !== undefined")
    shared = page.evaluate("() => window.shared")
    assert shared["url"] == link
    assert re.fullmatch(
        r"I scored \d+ points? with these cards\. Play this Pişti deal: the same cards as mine\.",
        shared["text"],
    )
    # It is beside "Copy link", on the phone's screen width.
    copy = page.get_by_role("button", name="Copy link").bounding_box()
    share = page.get_by_role("button", name="Share", exact=True).bounding_box()
    assert share["x"] + share["width"] <= 360 and abs(share["y"] - copy["y"]) < 2
    context.close()
    # A browser without one (a laptop's Chromium) shows no such button.
    page = browser.new_page()
    finish_by_forms(page, live_server, "/deal/paylaş?rules=classic&level=hard")
    page.goto(live_server + "/game")
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    expect(page.get_by_role("button", name="Share", exact=True)).to_have_count(0)
    page.close()


def test_a_friends_surname_stays_whole_in_the_deals_results_on_a_phone(browser, live_server):
    # The results of a deal, on its link's page (and the final page), in
    # Turkish on a 360 px phone: the name's column was squeezed by the
    # other four, and "Karaosmanoğlu" broke as "Karaosmano-ğlu".
    link = "/deal/soyadı?rules=cardems&level=hard"
    for name in ("Ayşe Gül Karaosmanoğlu", "Barış"):
        page = browser.new_page()
        page.goto(live_server + "/me")
        page.get_by_label("Your display name").fill(name)
        page.get_by_role("button", name="Keep my results").click()
        expect(page.get_by_role("heading", name=name)).to_be_visible()
        finish_by_forms(page, live_server, link)
        page.close()
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="tr-TR")
    page = context.new_page()
    page.goto(live_server + link)
    row = page.locator(".deal-results tbody th", has_text="Karaosmanoğlu")
    expect(row).to_be_visible()
    lines = row.evaluate(
        """(cell) => {
          const text = cell.querySelector('bdi').firstChild;
          const range = document.createRange();
          const start = text.data.indexOf('Karaosmanoğlu');
          range.setStart(text, start);
          range.setEnd(text, start + 'Karaosmanoğlu'.length);
          return range.getClientRects().length;
        }"""
    )
    assert lines == 1
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    context.close()


def test_a_link_cut_short_on_its_way_to_a_friend_says_so_and_the_whole_one_deals(
    browser, live_server, screenshots
):
    """Ayşe copies her final page's link; a chat app cuts it short, inside
    the seed or before its last setting, on the way to Can's phone. It
    dealt Can another game without a word; now his page says the link is
    not whole and offers no start, and the whole link deals her game."""
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    page = phone.new_page()
    finish_by_forms(page, live_server, "/deal/arkadaş-linki?rules=cardems&level=hard")
    page.goto(live_server + "/game")
    link = page.locator("#share").input_value()
    assert re.fullmatch(
        re.escape(live_server) + r"/deal/~[0-9a-z]{6}/arkadaş-linki\?rules=cardems&level=hard",
        link,
    )
    phone.close()

    friend = browser.new_context(viewport={"width": 360, "height": 740})
    page = friend.new_page()
    for cut in (link[: link.index("-linki")], link.removesuffix("&level=hard")):
        page.goto(cut)
        expect(page.get_by_role("heading", level=1)).to_have_text("This deal link is not whole")
        expect(page.get_by_role("alert")).to_contain_text("Ask for it again, copied whole")
        expect(page.get_by_role("button", name="Start this deal")).to_have_count(0)
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        page.screenshot(path=screenshots / f"link-not-whole-{size_name}.png", full_page=True)
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(link)
    expect(page.locator("code.seed")).to_have_text("arkadaş-linki")
    submit(page, page.get_by_role("button", name="Start this deal"))
    expect(page.locator(".place-level")).to_have_text(["Hard"])
    friend.close()


def test_a_friend_in_a_chat_apps_browser_that_keeps_no_cookies_keeps_the_link(browser, live_server):
    """Can taps Ayşe's link in a chat, where it ended her sentence in
    brackets ('(<link>).'), and the chat app opens it in its own browser,
    which keeps no cookies. The link's ')' and '.' no longer make it 'not
    whole'; Start is refused, saying to allow cookies or open the page in
    the phone's browser, and the page keeps the deal link's address (it
    took the table's, /game, which showed 'no game'), so reloading once
    cookies are kept shows the deal again and deals it."""
    link = checked(f"{live_server}/deal/sohbetten?rules=classic&target=51&level=hard")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()

    def without_cookies(route):
        response = route.fetch(max_redirects=0)
        headers = {k: v for k, v in response.headers.items() if k.lower() != "set-cookie"}
        route.fulfill(response=response, headers=headers)

    page.route("**/*", without_cookies)
    page.goto(link + ").")
    assert page.url == iri_to_uri(link)
    expect(page.locator("code.seed")).to_have_text("sohbetten")
    # The route's fetch keeps what the server sets in the context's jar.
    context.clear_cookies()
    submit(page, page.get_by_role("button", name="Start this deal"))
    expect(page.get_by_role("alert")).to_contain_text("open the page in your phone's browser")
    page.wait_for_function(f"() => location.href === {iri_to_uri(link)!r}")
    page.unroute("**/*")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("A shared deal")
    take_deal(page)
    expect(page.locator(".place-level")).to_have_text(["Hard"])
    context.close()
