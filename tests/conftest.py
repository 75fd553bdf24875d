"""Fixtures shared by the web and browser tests."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, time
from urllib.parse import parse_qsl, unquote, urlsplit

import limits.storage.memory
import pytest
from werkzeug.serving import make_server

from app import create_app
from app.engine import CARDEMS, GameState, seeded_deck
from app.engine.match import first_rotation
from app.web.links import link_check


def leading(seed: str, players: int) -> str:
    """``seed``, or the first ``seed-N`` after it, whose match the player
    leads: position 0 plays first in hand 0 (the first dealer is drawn from
    the seed, :func:`app.engine.match.first_rotation`). For tests that
    follow the player's seat from the first play."""
    candidates = [seed, *(f"{seed}-{number}" for number in range(1, 100))]
    return next(name for name in candidates if first_rotation(name, players) == 0)


def points_from_fields(team: dict) -> int:
    """A replay output's team object's points as its own fields add up
    (the record format's default values: a pişti 10, a Jack pişti 20; the
    last-sweep bonus of format 2 when the object has one)."""
    return (
        team["aces"]
        + team["jacks"]
        + 2 * team["two_of_clubs"]
        + 3 * team["ten_of_diamonds"]
        + team["most_cards"]
        + 10 * team["pisti"]
        + 20 * team["jack_pisti"]
        + team.get("last_sweep_bonus", 0)
    )


def visit_at_once(app, url: str, visitors: int = 4) -> list:
    """GET ``url`` from ``visitors`` new clients at the same time (threads);
    return their responses, in the order they were answered."""
    pages: list = []
    threads = [
        threading.Thread(target=lambda: pages.append(app.test_client().get(url)))
        for _ in range(visitors)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return pages


@contextmanager
def serve(app) -> Iterator[str]:
    """Serve ``app`` on a free loopback port in a thread; yield its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


@pytest.fixture(autouse=True)
def fast_players(monkeypatch):
    """Tests play far faster than a person: every app they make allows 1000
    plays a second, per game and per address, unless the test sets
    ``PLAY_LIMIT`` or ``PLAY_ADDRESS_LIMIT`` itself (the tests of the
    limits do)."""
    monkeypatch.setenv("FLASK_PLAY_LIMIT", "1000 per second")
    monkeypatch.setenv("FLASK_PLAY_ADDRESS_LIMIT", "1000 per second")


@pytest.fixture
def midday(monkeypatch) -> None:
    """Run the app's calendar clocks from noon UTC of today on: the Daily's
    day (:mod:`app.web.daily`), the time results, claims and tasks are
    written at (:func:`app.db.queries.utcnow`), the profile's tasks and the
    weekly boards (:mod:`app.web.players`) and a record's file name
    (:mod:`app.web.game`). Each request reads them anew, and so does a test
    that reads today's date (through :func:`app.web.daily.today` or
    :func:`app.db.queries.utcnow`, never :meth:`date.today`, the machine's
    local day): begun at 23:59:59 UTC (CI runs at any hour), a test's first
    request fell on one day and its last on the next, another Daily deal.
    The clocks go on from noon at the pace of the real one."""
    run_clocks_from(monkeypatch, datetime.combine(datetime.now(UTC).date(), time(12), UTC))


def run_clocks_from(monkeypatch, start: datetime) -> None:
    """Run the app's calendar clocks (those :func:`midday` names) from
    ``start`` (aware, UTC) on, at the pace of the real one."""
    from app.db import queries
    from app.web import daily, game, players

    began = datetime.now(UTC)

    class Running(datetime):
        @classmethod
        def now(cls, tz=None):
            moment = start + (datetime.now(UTC) - began)
            return moment.astimezone(tz) if tz else moment.replace(tzinfo=None)

    for module in (daily, queries, players, game):
        monkeypatch.setattr(module, "datetime", Running)


class Clock:
    """A stand-in for the ``time`` module of the limits' memory storage:
    ``time()`` says :attr:`now`, which a test moves by hand."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture
def limits_clock(monkeypatch) -> Clock:
    """Stop the clock of the rate limits counted in memory at the start of
    a whole hour, where every window of theirs (a second, two, a minute)
    begins; a test moves it by hand (``limits_clock.now``). Their sliding
    window counter's windows are whole minutes (seconds) of the clock, and
    a hit just past a window's edge counts the last window's hits by the
    part of that window still within a window's length, rounded down: on
    the real clock, a test's hits astride an edge (CI runs at any time, and
    slowly) let one more through than the limit."""
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(limits.storage.memory, "time", clock)
    return clock


def app_config(tmp_path, **config) -> dict:
    """The settings of a test app with its own session folder and database
    under ``tmp_path``, and CSRF on, as in production; ``config`` adds to
    them."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SESSION_FILE_DIR": str(tmp_path / "sessions"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
        **config,
    }


@pytest.fixture
def app(tmp_path):
    """An app with its own session folder and CSRF on, as in production."""
    return create_app(app_config(tmp_path))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def without_tokens(page: str) -> str:
    """``page`` with its CSRF tokens' values left out: a token carries the
    second it was made, so two renderings of one page differ in them."""
    return CSRF.sub('name="csrf_token" value=""', page)


START = re.compile(r'<form method="post" action="(/deal/[^"]*)"')
REPLACES = re.compile(r'name="replaces" value="(\w*)"')
#: The id of each game put aside, in the list of games to go back to.
KEPT_GAME = re.compile(r'name="game" value="(\w+)">\s*<span class="kept-what"')


def checked(link: str) -> str:
    """The deal link ``link`` (``/deal/<seed>?…``, with or without its
    scheme and host, its seed percent-encoded or not, its ``&`` maybe
    written ``&amp;`` as in a page) as the site writes it: with its check
    before the seed (``/deal/~<check>/<seed>?…``)."""
    parts = urlsplit(link.replace("&amp;", "&"))
    before, _, seed = link.partition("?")[0].rpartition("/deal/")
    check = link_check(unquote(seed), dict(parse_qsl(parts.query)))
    return f"{before}/deal/~{check}/{seed}" + link[len(before) + len("/deal/") + len(seed) :]


def start_deal(client, link: str, **options):
    """Open the deal link ``link`` (``/deal/<seed>?...``) and press its
    "Start this deal" button; return the POST's response. ``options`` go to
    both requests (``headers=``, ``environ_base=``)."""
    page = client.get(link, **options)
    if page.status_code != 200:
        return page
    html = page.get_data(as_text=True)
    action = START.search(html).group(1).replace("&amp;", "&")
    fields = {"csrf_token": CSRF.search(html).group(1), "replaces": REPLACES.search(html).group(1)}
    return client.post(action, data=fields, **options)


def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields of ``page``'s form posting to ``action``."""
    start = page.index(f'action="{action}')
    form = page[start : page.index("</form>", start)]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))


MOVE = re.compile(r'name="move" value="(\d+)"')
HAND = re.compile(r'name="card" value="([2-9TJQKA][CDHS])"')


class Player:
    """Plays through the web pages as a browser would, form by form."""

    def __init__(self, client):
        self.client = client
        self.page = ""

    def deal(self, seed: str):
        response = start_deal(self.client, f"/deal/{seed}")
        if response.status_code == 303:
            response = self.client.get(response.headers["Location"])
        self.page = response.get_data(as_text=True)
        return response

    def get(self):
        response = self.client.get("/game")
        self.page = response.get_data(as_text=True)
        return response

    @property
    def hand(self) -> list[str]:
        return HAND.findall(self.page)

    @property
    def move(self) -> str:
        return MOVE.search(self.page).group(1)

    @property
    def token(self) -> str:
        return CSRF.search(self.page).group(1)

    def post(self, **fields):
        """POST /play with these fields (the page's token unless given)."""
        data = {"csrf_token": self.token, **fields}
        return self.client.post("/play", data={k: v for k, v in data.items() if v is not None})

    def play(self, card: str):
        """Play ``card`` with the page's move number and follow the redirect."""
        response = self.post(card=card, move=self.move)
        assert response.status_code == 303, response.get_data(as_text=True)
        return self.get()


@pytest.fixture
def player(client):
    return Player(client)


def expected_state(seed: str, plays: list[str]) -> GameState:
    """The engine's state for a cardems deal from ``seed`` after ``plays``."""
    return GameState.replay(CARDEMS, seeded_deck(seed, CARDEMS), plays)
