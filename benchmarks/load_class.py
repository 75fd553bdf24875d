"""A class behind one address: many players sharing one public address (a
school's Wi-Fi, a café, an office, a mobile network's NAT) playing at a
person's pace against the app as served (``python -m app.serve``, rate
limits and the sessions bound at their defaults, sessions on disk).

Each player is a thread with its own cookie jar, all from 127.0.0.1. It
comes in at a random moment of the first 10 s, then starts games in turn
from the Daily deal's page (``/daily``, then its play button), from a deal
link shared by the class (``/deal/class-<n>``, three links) and from the
home page's New game (a single deal against Medium). It plays a random card
of its hand every ``--pause`` seconds (1 to 3 by default), looks at the
Daily deal's page again after a Daily game, and waits 5 to 20 s before its
next game.

Reported: the pages asked for and the games started and finished, every
answer that refused a player (status and message), the games lost in
progress (a play answered "no game in progress": its session was dropped),
and the sessions the server dropped for ``FLASK_SESSIONS_PER_ADDRESS``
(its log's warnings). Exits with status 1 when any player was refused or
lost a game. ``--proxy`` serves with ``FLASK_TRUSTED_PROXIES=1`` and gives
each player its own ``X-Forwarded-For`` address: the same class behind a
trusted reverse proxy, each at their own address.

    .venv/bin/python -m benchmarks.load_class --players 30 --seconds 180
    .venv/bin/python -m benchmarks.load_class --players 60 --seconds 150
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import requests

from .load_servers import Server

TIMEOUT = 60
HAND = re.compile(r'name="card" value="([2-9TJQKA][CDHS])"')
FORM = re.compile(r'<form[^>]*action="([^"]+)"[^>]*>(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
ALERT = re.compile(r'<p class="alert"[^>]*>(.*?)</p>', re.S)
KINDS = ("daily", "deal", "new")


class Tally:
    """What every player saw, shared between their threads."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.refusals: Counter[tuple[str, int, str]] = Counter()
        self.lost = 0
        self.lock = threading.Lock()

    def note(self, what: str, response: requests.Response | None = None) -> None:
        """Count ``what``; when ``response`` refused it (4xx, 5xx), count
        its status and the message it showed."""
        with self.lock:
            self.counts[what] += 1
            if response is not None and response.status_code >= 400:
                found = ALERT.search(response.text)
                said = re.sub(r"<[^>]+>", "", found.group(1)) if found else ""
                self.refusals[(what, response.status_code, " ".join(said.split())[:100])] += 1


def hidden_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields of ``page``'s form posting to ``action`` (its
    ``&amp;`` as sent), or none."""
    for sent, body in FORM.findall(page):
        if sent == action:
            return dict(HIDDEN.findall(body))
    return {}


class Pupil:
    """One player of the class (``number``, from 0) at ``url``: a browser
    of its own (its cookies), playing a card every ``pause`` (low, high)
    seconds and counting what it saw in ``tally``."""

    def __init__(self, url: str, number: int, tally: Tally, pause: tuple[float, float]) -> None:
        self.url = url
        self.number = number
        self.tally = tally
        self.pause = pause
        self.rng = random.Random(number)
        self.http = requests.Session()

    def start(self, kind: str) -> str | None:
        """Open the page that starts a game of ``kind`` and press its start
        button; return the table's page, or ``None`` when refused."""
        if kind == "daily":
            page = self.http.get(self.url + "/daily", timeout=TIMEOUT)
            self.tally.note("GET /daily", page)
            action, extra = "/daily/play", {}
        elif kind == "deal":
            page = self.http.get(self.url + f"/deal/class-{self.number % 3}", timeout=TIMEOUT)
            self.tally.note("GET /deal/<seed>", page)
            action = next((a for a, _ in FORM.findall(page.text) if a.startswith("/deal/")), "")
            extra = {}
        else:
            page = self.http.get(self.url + "/", timeout=TIMEOUT)
            self.tally.note("GET /", page)
            action, extra = "/new", {"rules": "cardems", "level": "medium"}
        if page.status_code != 200 or not action:
            return None
        data = {**hidden_fields(page.text, action), **extra}
        started = self.http.post(
            self.url + action.replace("&amp;", "&"), data=data, timeout=TIMEOUT
        )
        self.tally.note(f"start ({kind})", started)
        return started.text if started.status_code == 200 and "/game" in started.url else None

    def play_out(self, page: str, until: float) -> bool:
        """Play the game of ``page`` to its end at a person's pace; false
        when time ran out or the game was lost."""
        while hand := HAND.findall(page):
            time.sleep(self.rng.uniform(*self.pause))
            if time.time() > until:
                return False
            data = {**hidden_fields(page, "/play"), "card": self.rng.choice(hand)}
            answer = self.http.post(self.url + "/play", data=data, timeout=TIMEOUT)
            self.tally.note("POST /play", answer)
            if answer.status_code == 404:
                with self.tally.lock:
                    self.tally.lost += 1
                return False
            if answer.status_code == 200 or answer.status_code in (409, 429):
                page = answer.text
        self.tally.note("games finished")
        return True

    def run(self, seconds: float) -> None:
        """Come in within 10 s, then play games until ``seconds`` are over."""
        until = time.time() + seconds
        time.sleep(self.rng.uniform(0, 10))
        turn = self.number
        while time.time() < until:
            kind = KINDS[turn % len(KINDS)]
            turn += 1
            page = self.start(kind)
            if page is None:
                time.sleep(self.rng.uniform(2, 5))
                continue
            if not self.play_out(page, until):
                continue
            if kind == "daily":
                self.tally.note("GET /daily", self.http.get(self.url + "/daily", timeout=TIMEOUT))
            time.sleep(self.rng.uniform(5, 20))


def main(argv: list[str] | None = None) -> int:
    """Serve the app, run the class, print what it saw; 1 when anyone was
    refused or lost a game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--pause", default="1,3", help="seconds between a player's plays: lo,hi")
    parser.add_argument("--proxy", action="store_true", help="each player its own address")
    args = parser.parse_args(argv)
    low, high = (float(part) for part in args.pause.split(","))
    tally = Tally()
    env = {"FLASK_TRUSTED_PROXIES": "1"} if args.proxy else {}
    with tempfile.TemporaryDirectory() as folder:
        env["FLASK_SESSION_FILE_DIR"] = str(Path(folder) / "sessions")
        env["FLASK_DATABASE_URL"] = f"sqlite:///{Path(folder) / 'pisti.db'}"
        log = Path(folder) / "server.log"
        with Server(log, env=env) as server:
            pupils = [Pupil(server.url, n, tally, (low, high)) for n in range(args.players)]
            if args.proxy:
                for pupil in pupils:
                    number = pupil.number
                    pupil.http.headers["X-Forwarded-For"] = (
                        f"10.1.{number // 250}.{number % 250 + 1}"
                    )
            threads = [threading.Thread(target=p.run, args=(args.seconds,)) for p in pupils]
            begun = time.time()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            took = time.time() - begun
        dropped = log.read_text().count("dropped: it had more than FLASK_SESSIONS_PER_ADDRESS")
    where = "each their own address" if args.proxy else "one address"
    print(f"{args.players} players, {where}, a play every {low:g}-{high:g} s, {took:.0f} s")
    for what, count in sorted(tally.counts.items()):
        print(f"  {what}: {count}")
    for (what, status, said), count in sorted(tally.refusals.items()):
        print(f"  refused: {what} {status} x{count}: {said}")
    print(f"  games lost in progress: {tally.lost}; sessions dropped by the bound: {dropped}")
    return 1 if tally.refusals or tally.lost else 0


if __name__ == "__main__":
    sys.exit(main())
