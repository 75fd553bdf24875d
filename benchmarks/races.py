"""Races of one player's requests against the served app: how often a
change answered as done is lost, per kind of race and session backend.

Each trial starts from a table whose hand holds at least two cards and sends
the requests of one race at the same instant, with the same cookies (two
tabs of one browser), then reads the table:

- ``play/play``: two different cards for the same move. Lost: both answered
  303 (only one card can be played), or the card of the 303 still in hand.
- ``play/aids``: a play and an aids change (the counter toggled). Lost: a
  303 whose change is not on the table afterwards.
- ``play/static``: a play and 12 requests for static files. Lost: the play
  answered 303 and its card still in hand.
- ``stalled``: a POST to ``/healthz`` whose body is stalled while the whole
  game is played, then finished. Lost: the game is no longer over.

Run (the app as ``scripts/serve`` serves it, rate limit off; about two
minutes per backend on 2 busy cores):

    .venv/bin/python -m benchmarks.races --trials 15
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlencode

import requests

from .load_servers import RedisServer, Server
from .load_test import CSRF, HAND, HIDDEN, PLAY_FORM

RACES = ("play/play", "play/aids", "play/static", "stalled")
STATICS = ("/static/pisti.css", "/static/pisti.js", "/static/cards.svg", "/static/favicon.svg")


class Browser:
    """One browser's cookies, shared by its tabs: requests one at a time,
    or several at the same instant (:meth:`at_once`)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, data: dict | None = None) -> requests.Response:
        """Make one request with the cookies; keep the cookies it sets."""
        response = requests.request(
            method,
            self.url + path,
            data=data,
            cookies=dict(self.cookies),
            allow_redirects=False,
            timeout=60,
        )
        self.cookies.update(response.cookies.get_dict())
        return response

    def page(self, path: str = "/game") -> str:
        """GET ``path``; return the page."""
        return self.send("GET", path).text

    def new_game(self) -> str:
        """Start a game with the home page's form; return the table page.

        Raises:
            RuntimeError: the game was not started.
        """
        token = CSRF.search(self.page("/")).group(1)
        answer = self.send("POST", "/new", {"csrf_token": token})
        if answer.status_code != 303:
            raise RuntimeError(f"New game answered {answer.status_code}")
        return self.page()

    def fresh_table(self) -> str:
        """A table page whose hand holds at least two cards (a new game when
        the current one is too far on)."""
        page = self.page()
        return page if len(HAND.findall(page)) >= 2 else self.new_game()

    def at_once(self, *calls: tuple[str, str, dict | None]) -> list[requests.Response]:
        """Make ``calls`` (method, path, form) in parallel, released at the
        same instant, with the cookies as they are now; return the answers."""
        cookies, barrier = dict(self.cookies), threading.Barrier(len(calls))
        answers: list = [None] * len(calls)

        def run(index: int, method: str, path: str, data: dict | None) -> None:
            barrier.wait()
            answers[index] = requests.request(
                method,
                self.url + path,
                data=data,
                cookies=cookies,
                allow_redirects=False,
                timeout=60,
            )

        threads = [threading.Thread(target=run, args=(i, *call)) for i, call in enumerate(calls)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for answer in answers:
            self.cookies.update(answer.cookies.get_dict())
        return answers


def play_fields(page: str, card: str) -> dict[str, str]:
    """The play form's fields of ``page`` for ``card``."""
    return {**dict(HIDDEN.findall(PLAY_FORM.search(page).group(1))), "card": card}


def stall(url: str, path: str, cookies: dict[str, str], body: bytes) -> socket.socket:
    """POST ``body`` to ``path`` with ``cookies``, all but its last byte;
    return the connection for :func:`finish`."""
    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=60)
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    connection.sendall(
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: {cookie}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body[:-1]
    )
    time.sleep(0.3)  # let the server start on the request
    return connection


def finish(connection: socket.socket, body: bytes) -> int:
    """Send a stalled request's last byte; return its status."""
    connection.sendall(body[-1:])
    answer = b""
    while chunk := connection.recv(65536):
        answer += chunk
    connection.close()
    return int(answer.split(b" ", 2)[1])


def lost(tab: Browser, race: str, trial: int) -> bool:
    """Run one trial of ``race``; return whether a change answered as done
    was lost."""
    page = tab.fresh_table()
    first, second = HAND.findall(page)[:2]
    if race == "play/play":
        answers = tab.at_once(
            ("POST", "/play", play_fields(page, first)),
            ("POST", "/play", play_fields(page, second)),
        )
        done = [
            card for card, a in zip((first, second), answers, strict=True) if a.status_code == 303
        ]
        hand = HAND.findall(tab.page())
        return len(done) != 1 or done[0] in hand
    if race == "play/aids":
        counter = {"counter": "on"} if trial % 2 == 0 else {}
        aids = {"csrf_token": CSRF.search(page).group(1), "next": "/game", **counter}
        played, saved = tab.at_once(
            ("POST", "/play", play_fields(page, first)), ("POST", "/settings", aids)
        )
        after = tab.page()
        return (played.status_code == 303 and first in HAND.findall(after)) or (
            saved.status_code == 303 and ("Cards seen face up" in after) != bool(counter)
        )
    if race == "play/static":
        played, *_ = tab.at_once(
            ("POST", "/play", play_fields(page, first)),
            *[("GET", STATICS[n % len(STATICS)], None) for n in range(12)],
        )
        return played.status_code == 303 and first in HAND.findall(tab.page())
    # stalled: a POST whose body is held back while the whole game is played.
    body = urlencode(play_fields(page, first)).encode()
    connection = stall(tab.url, "/healthz", tab.cookies, body)
    while cards := HAND.findall(page):
        tab.send("POST", "/play", play_fields(page, cards[0]))
        page = tab.page()
    finish(connection, body)
    over = "Share this deal" in tab.page()
    tab.new_game()
    return not over


def run(backend: str, trials: int) -> dict[str, int]:
    """Serve the app with ``backend`` sessions; return the lost trials per race."""
    with tempfile.TemporaryDirectory() as folder, ExitStack() as servers:
        env = {"FLASK_SECRET_KEY": "races-secret-key-0123", "FLASK_RATELIMIT_ENABLED": "false"}
        if backend == "redis":
            redis = servers.enter_context(RedisServer(Path(folder) / "redis"))
            env.update(FLASK_SESSION_BACKEND="redis", FLASK_REDIS_URL=redis.url)
        else:
            env.update(FLASK_SESSION_FILE_DIR=str(Path(folder) / "sessions"))
        server = servers.enter_context(Server(Path(folder) / "server.log", env=env))
        tab = Browser(server.url)
        tab.new_game()
        return {race: sum(lost(tab, race, n) for n in range(trials)) for race in RACES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=15)
    parser.add_argument("--backend", choices=("filesystem", "redis"), action="append")
    args = parser.parse_args(argv)
    print(f"| backend | {' | '.join(RACES)} |  (changes lost, of {args.trials} trials)")
    print("|---|" + "---|" * len(RACES))
    worst = 0
    for backend in args.backend or ("filesystem", "redis"):
        counts = run(backend, args.trials)
        worst = max(worst, *counts.values())
        print(f"| {backend} | " + " | ".join(str(counts[race]) for race in RACES) + " |")
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
