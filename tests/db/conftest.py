"""The database suite runs every test twice: on SQLite (a file per test) and
on PostgreSQL (a database per test in one throw-away cluster started for
the session on a free loopback port, and stopped after)."""

from __future__ import annotations

import re
import uuid

import pytest

from app import create_app
from app.db import db
from benchmarks.postgres_server import PostgresServer
from tests.conftest import CSRF, start_deal

CARD = re.compile(r'name="card" value="([2-9TJQKA][CDHS])"')
MOVE = re.compile(r'name="move" value="(\d+)"')
HAND = re.compile(r'name="hand" value="(\d+)"')
GAME = re.compile(r'name="game" value="([^"]+)"')


@pytest.fixture(scope="session")
def postgres():
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pisti.db'}"
    return request.getfixturevalue("postgres").create_database(f"t_{uuid.uuid4().hex[:12]}")


def make_app(database_url: str, tmp_path, **config):
    """The app of the database tests on ``database_url``, with ``config``
    added."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "db-tests-secret",
            "SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "DATABASE_URL": database_url,
            "RATELIMIT_ENABLED": False,
            **config,
        }
    )


@pytest.fixture
def app(database_url, tmp_path):
    app = make_app(database_url, tmp_path)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


class Browser:
    """A test client that plays whole games through the pages."""

    def __init__(self, client):
        self.client = client
        self.page = ""

    def get(self, path: str):
        response = self.client.get(path)
        self.page = response.get_data(as_text=True)
        return response

    @property
    def token(self) -> str:
        match = CSRF.search(self.page) or CSRF.search(self.client.get("/").get_data(as_text=True))
        return match.group(1)

    def post(self, path: str, **fields):
        response = self.client.post(path, data={"csrf_token": self.token, **fields})
        self.page = response.get_data(as_text=True)
        return response

    def deal(self, seed: str):
        """Open the deal link of ``seed`` and start it."""
        return start_deal(self.client, f"/deal/{seed}")

    def choose_name(self, name: str, **fields):
        self.get("/me")
        return self.post("/me/name", name=name, **fields)

    def start_daily(self, rules: str = "cardems"):
        self.get("/daily")
        return self.post("/daily/play", rules=rules)

    def play_to_the_end(self, last_post: list | None = None) -> str:
        """Play the first card of the hand until the final page; return it.
        ``last_post`` receives the fields of the move that ended the game."""
        for _ in range(2000):
            self.get("/game")
            card = CARD.search(self.page)
            if card:
                # The fields of the first card's own form (a kept game's
                # form carries that game's id).
                start = self.page.rindex("<form", 0, card.start())
                form = self.page[start : self.page.index("</form>", card.end())]
                fields = {
                    "card": card.group(1),
                    "move": MOVE.search(form).group(1),
                    "hand": HAND.search(form).group(1),
                    "game": GAME.search(form).group(1),
                }
                self.post("/play", **fields)
                if last_post is not None:
                    last_post[:] = [fields]
            elif "/next" in self.page:
                self.post("/next", hand=HAND.search(self.page).group(1))
            else:
                return self.page
        raise AssertionError("the game did not end")


@pytest.fixture
def visitor(client):
    return Browser(client)
