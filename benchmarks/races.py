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

Run (gunicorn as ``scripts/serve`` runs it, rate limit off; about two
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

from .load_servers import Gunicorn, RedisServer
from .load_test import CSRF, HAND, HIDDEN, PLAY_FORM

RACES = ("play/play", "play/aids", "play/static", "stalled")
STATICS = ("/static/pisti.css", "/static/pisti.js", "/static/cards.svg", "/static/favicon.svg")


class Tab:
    """Requests with one browser's cookies."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, data: dict | None = None) -> requests.Response:
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

    def table(self) -> str:
        return self.send("GET", "/game").text

    def new_game(self) -> str:
        token = CSRF.search(self.send("GET", "/").text).group(1)
        self.send("POST", "/new", {"csrf_token": token})
        return self.table()

    def fresh_table(self) -> str:
        page = self.table()
        return page if len(HAND.findall(page)) >= 2 else self.new_game()

    def at_once(self, *calls: tuple[str, str, dict | None]) -> list[requests.Response]:
        cookies, barrier = dict(self.cookies), threading.Barrier(len(calls))
        answers: list = [None] * len(calls)

        def run(index: int, method: str, path: str, data: dict | None) -> None:
            barrier.wait()
            answers[index] = requests.request(
                method, self.url + path, data=data, cookies=cookies, allow_redirects=False
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
    return {**dict(HIDDEN.findall(PLAY_FORM.search(page).group(1))), "card": card}


def lost(tab: Tab, race: str, trial: int) -> bool:
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
        hand = HAND.findall(tab.table())
        return len(done) != 1 or done[0] in hand
    if race == "play/aids":
        counter = {"counter": "on"} if trial % 2 == 0 else {}
        aids = {"csrf_token": CSRF.search(page).group(1), "next": "/game", **counter}
        played, saved = tab.at_once(
            ("POST", "/play", play_fields(page, first)), ("POST", "/settings", aids)
        )
        after = tab.table()
        return (played.status_code == 303 and first in HAND.findall(after)) or (
            saved.status_code == 303 and ("Cards seen face up" in after) != bool(counter)
        )
    if race == "play/static":
        played, *_ = tab.at_once(
            ("POST", "/play", play_fields(page, first)),
            *[("GET", STATICS[n % len(STATICS)], None) for n in range(12)],
        )
        return played.status_code == 303 and first in HAND.findall(tab.table())
    # stalled: a POST whose body is held back while the whole game is played.
    host, port = tab.url.removeprefix("http://").split(":")
    body = urlencode(play_fields(page, first)).encode()
    cookie = "; ".join(f"{k}={v}" for k, v in tab.cookies.items())
    connection = socket.create_connection((host, int(port)), timeout=60)
    connection.sendall(
        f"POST /healthz HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body[:-1]
    )
    time.sleep(0.3)
    while cards := HAND.findall(page):
        tab.send("POST", "/play", play_fields(page, cards[0]))
        page = tab.table()
    connection.sendall(body[-1:])
    while connection.recv(65536):
        pass
    connection.close()
    over = "Share this deal" in tab.table()
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
        server = servers.enter_context(Gunicorn(Path(folder) / "gunicorn.log", env=env))
        tab = Tab(server.url)
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
