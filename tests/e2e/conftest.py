"""Browser tests: Playwright driving Debian's Chromium against a live server."""

from __future__ import annotations

import itertools
import re
import shutil
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from app import create_app
from app.engine import GameState, seeded_deck
from tests.conftest import serve

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    return {
        **browser_type_launch_args,
        "executable_path": chromium,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def bfcache_browser(browser_type, browser_type_launch_args):
    """Chromium with its back/forward cache, as players' browsers have it:
    Back and Forward show the page kept as it was left, its scripts told
    by ``pageshow`` (``persisted``). Playwright turns that cache off in the
    browsers it launches (``--disable-back-forward-cache``)."""
    browser = browser_type.launch(
        **browser_type_launch_args, ignore_default_args=["--disable-back-forward-cache"]
    )
    yield browser
    browser.close()


#: Counts, in the tab's ``sessionStorage.restored``, the pages shown again
#: from the back/forward cache (a reload does not clear it).
COUNT_RESTORED = """window.addEventListener("pageshow", (event) => {
  if (event.persisted) sessionStorage.restored = Number(sessionStorage.restored || 0) + 1;
})"""


def restored(page) -> int:
    """How many pages of ``page``'s tab were shown from the back/forward
    cache since :data:`COUNT_RESTORED` was added to it."""
    return int(page.evaluate("Number(sessionStorage.restored || 0)"))


def e2e_app(tmp_path_factory):
    """The app the browser tests serve, with its own sessions and database."""
    return create_app(
        {
            "SECRET_KEY": "e2e-secret",
            "SESSION_FILE_DIR": str(tmp_path_factory.mktemp("sessions")),
            "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('db') / 'pisti.db'}",
            # Every browser test comes from 127.0.0.1: the new-game limit is for
            # the outside world (tests/ops checks it).
            "RATELIMIT_ENABLED": False,
        }
    )


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app served on a free loopback port; yields its base URL."""
    with serve(e2e_app(tmp_path_factory)) as url:
        yield url


def slowed(app, seconds: float, path: str | None = None) -> Counter[str]:
    """Make ``app`` answer every POST (to ``path`` only, when given)
    ``seconds`` late, as a slow network or a busy server would; return the
    count of the POSTs that reached it, by path."""
    posts: Counter[str] = Counter()
    lock = threading.Lock()
    inner = app.wsgi_app

    def slow_posts(environ, start_response):
        if environ["REQUEST_METHOD"] == "POST" and path in (None, environ["PATH_INFO"]):
            with lock:
                posts[environ["PATH_INFO"]] += 1
            time.sleep(seconds)
        return inner(environ, start_response)

    app.wsgi_app = slow_posts
    return posts


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


def first_seed(rules, wanted) -> str:
    """The first seed ``aid-N`` whose opening position satisfies ``wanted``."""
    for number in range(500):
        seed = f"aid-{number}"
        if wanted(GameState(rules, seeded_deck(seed, rules))):
            return seed
    raise AssertionError("no such seed")


def settled(page) -> int:
    """How many times the page's script has settled (``static/pisti.js``
    counts in ``<html data-settled>``), read at once (0 while a page loads)."""
    return int(
        page.evaluate(
            "Number(document.documentElement && document.documentElement.dataset.settled || 0)"
        )
    )


def settled_when_ready(page) -> int:
    """:func:`settled` once the page's script has run and is not busy: a
    page still loading (just after a click that navigates) is waited for,
    so its first settling is not taken for a later play's."""
    handle = page.wait_for_function(
        """() => {
            const root = document.documentElement;
            return root && root.dataset.state === "ready" && Number(root.dataset.settled);
        }"""
    )
    return int(handle.json_value())


def submit(page, button) -> None:
    """Press a form's ``button`` and wait until the page it leads to has
    loaded. The page's script sends a form once the server has answered
    that it is there (``static/pisti.js``, ``sendWhenReached``), so a click
    returns before the navigation begins: what a test reads, or a
    ``goto``, right after the click would meet the old page."""
    with page.expect_navigation():
        button.click()


def take_deal(page) -> None:
    """On a deal link's page, take the deal, and wait until the table it
    leads to has loaded (a click that navigates returns before the new
    page is there: what a test reads next would be the old page's)."""
    with page.expect_navigation():
        page.locator(".deal-link button[type=submit]").click()


def cards_in_hand(page) -> int:
    """How many cards the player's hand shows, once the page has loaded
    (just after a click that navigates, the new page may not be parsed)."""
    page.wait_for_load_state()
    return page.locator(".hand button").count()


def wait_settled(page, before: int) -> None:
    """Wait until the page has settled again since the count ``before``."""
    page.wait_for_function(
        "n => Number(document.documentElement.dataset.settled || 0) > n", arg=before
    )


def play_card(page, button) -> bool:
    """Click a card of the hand and wait until the replies have landed;
    return whether the play was taken (a page refusing it shows an alert)."""
    button.wait_for()
    before = settled_when_ready(page)
    button.click()
    wait_settled(page, before)
    return page.locator(".alert").count() == 0


def play_out(page) -> None:
    """Play the hand's first card, play after play, until no card is left in
    the player's hand (the hand, or the game, is over)."""
    while cards_in_hand(page):
        play_card(page, page.locator(".hand button").first)


class Held:
    """The requests a route holds: ``routes`` keeps the first request,
    never answered; ``reached`` says whether the server has answered it
    (when it was sent on), its answer then kept from the page."""

    def __init__(self) -> None:
        self.routes: list = []
        self.reached = False

    def wait(self, page, reaches_server: bool = False) -> None:
        """Wait (real time, up to 20 s) until the first request is held and,
        with ``reaches_server``, until the server has answered it, so a test
        that runs the page's clock on never races the server."""
        for _ in range(400):
            if self.routes and (self.reached or not reaches_server):
                return
            page.wait_for_timeout(50)
        raise AssertionError("the first request was never held")


def never_answer_the_first(page, pattern: str, reaches_server: bool = False) -> Held:
    """Route the page's requests to ``pattern``: the first is never
    answered (sent to the server first when ``reaches_server``, its answer
    then lost), the later ones go through."""
    held = Held()

    def route(request_route) -> None:
        if held.routes:
            request_route.continue_()
            return
        held.routes.append(request_route)
        if reaches_server:
            request_route.fetch()
            held.reached = True

    page.route(pattern, route)
    return held


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two CSS colours given as ``rgb(r, g, b)``."""

    def luminance(colour: str) -> float:
        channels = [int(part) / 255 for part in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def resize(page, size: dict[str, int]) -> None:
    """Set ``page``'s viewport to ``size`` (``{"width", "height"}`` in CSS
    px) and wait two frames, so that the page's scripts have answered the
    ``resize`` (Playwright returns before they do: a box that scrolled at
    the old size could still be a Tab stop)."""
    page.set_viewport_size(size)
    page.evaluate(
        "() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))"
    )


def set_hidden(page, hidden: bool) -> None:
    """Make the page's document say it is ``hidden`` (a tab in the
    background, a phone's screen turned off) or seen again, and tell its
    scripts (``visibilitychange``): a headless browser's pages are always
    seen."""
    page.evaluate(
        """(hidden) => {
          const state = hidden ? "hidden" : "visible";
          for (const [name, value] of [["hidden", hidden], ["visibilityState", state]]) {
            Object.defineProperty(document, name, { configurable: true, get: () => value });
          }
          document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


#: Counts, in ``window.timersSet``, the timers the page's scripts set from now on.
COUNT_TIMERS = """() => {
  window.timersSet = 0;
  const set = window.setTimeout;
  window.setTimeout = (...args) => {
    window.timersSet += 1;
    return set(...args);
  };
}"""


def one_line_apart(links, selector: str = "a") -> float:
    """The least gap, in px, between neighbours of the links (or what
    ``selector`` finds) in ``links`` (a Locator of an element), which must
    stand on one line."""
    boxes = [link.bounding_box() for link in links.locator(selector).all()]
    assert len({round(box["y"]) for box in boxes}) == 1, boxes
    return min(b["x"] - (a["x"] + a["width"]) for a, b in itertools.pairwise(boxes))
