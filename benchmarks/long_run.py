"""A long run: what a server left running for weeks keeps growing.

Plays ``--games`` complete games against a server already running on this
machine (``scripts/serve``), ``--players`` at once, each player a browser
of its own that follows the pages' forms, in turn: single deals against
Easy, Medium and Hard, one against Expert every ``--expert-every`` games
(the search workers), a match to 51 of Classic and of Partners, a deal
link with house rules, the House rules form, the Daily deal; after each
game it downloads the record, and every few games it asks for the game's
review (a background job, polled until done), names its player, downloads
its data, opens the leaderboard and its statistics, or forgets itself
(then starts afresh with no cookies).

Every ``--every`` games it prints one line of the server's resources:
each process's RSS (server, search workers), the server's open file
descriptors and threads, the instance folder's size and file count, the
SQLite file, the log file (``--log``) and Redis's used memory
(``--redis-port``). Exits with status 1 when a request failed (a status
other than the expected one).

    FLASK_RATELIMIT_ENABLED=false PISTI_BIND=127.0.0.1:5000 scripts/serve > serve.log &
    .venv/bin/python -m benchmarks.long_run --url http://127.0.0.1:5000 --games 3000 \\
        --instance instance --log serve.log
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import socket
import threading
import time
from pathlib import Path

import requests

from .small_machine import listening_pid, processes

TIMEOUT = 120
FORM = re.compile(r'<form[^>]*action="([^"]+)"[^>]*>(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
CARD = re.compile(r'name="card" value="([2-9TJQKA][CDHS])"')
REVIEW = re.compile(r"/review/([0-9a-f]{64})")
#: The games played in turn: (how it starts, form or link fields).
KINDS: tuple[tuple[str, dict[str, str]], ...] = (
    ("new", {"rules": "cardems", "level": "medium"}),
    ("new", {"rules": "cardems", "level": "easy"}),
    ("new", {"rules": "classic", "target": "51", "level": "hard"}),
    ("deal", {"rules": "cardems", "level": "medium", "pisti": "20", "jack_pisti": "40"}),
    ("daily", {}),
    ("new", {"rules": "partners", "target": "51", "level": "medium"}),
    ("house", {"rules": "cardems", "level": "hard", "players": "3", "jack_pisti": "30"}),
    ("new", {"rules": "cardems", "level": "hard"}),
)


#: This run's mark in the players' names (names are unique).
RUN = int(time.time()) % 10**6


class Failed(Exception):
    """An answer with another status than expected."""


def forms(page: str) -> dict[str, dict[str, str]]:
    """The forms of ``page``: action (``&amp;`` as sent) to hidden fields."""
    return {
        action.replace("&amp;", "&"): dict(HIDDEN.findall(body))
        for action, body in FORM.findall(page)
    }


class Browser:
    """One person's browser at ``url``: its cookies and the last page."""

    def __init__(self, url: str, number: int) -> None:
        self.url = url
        self.number = number
        self.http = requests.Session()
        self.page = ""
        self.requests = 0

    def call(self, method: str, path: str, expect: int = 200, **kwargs) -> requests.Response:
        """Ask for ``path``; keep its page when HTML.

        Raises:
            Failed: another status than ``expect``.
        """
        response = self.http.request(method, self.url + path, timeout=TIMEOUT, **kwargs)
        self.requests += 1 + len(response.history)
        if response.status_code != expect:
            raise Failed(f"{method} {path}: {response.status_code}")
        if response.headers.get("Content-Type", "").startswith("text/html"):
            self.page = response.text
        return response

    def submit(self, action: str, fields: dict[str, str], expect: int = 200) -> requests.Response:
        """Post the current page's form ``action`` with ``fields`` added.

        Raises:
            Failed: the page has no such form, or another status.
        """
        found = forms(self.page)
        if action not in found:
            raise Failed(f"no form {action} on {self.page[:80]!r}")
        return self.call("POST", action, expect, data={**found[action], **fields})

    def start(self, kind: str, fields: dict[str, str], game: int) -> None:
        """Start a game of ``kind`` with ``fields``; the table's page kept."""
        if kind == "new":
            self.call("GET", "/")
            self.submit("/new", fields)
        elif kind == "house":
            self.call("GET", "/house")
            self.submit("/house", fields)
        elif kind == "daily":
            self.call("GET", "/daily")
            action = next(a for a in forms(self.page) if a.startswith("/daily/"))
            self.submit(action, {})
        else:
            query = "&".join(f"{name}={value}" for name, value in fields.items())
            self.call("GET", f"/deal/long-{game % 50}?{query}")
            action = next(a for a in forms(self.page) if a.startswith("/deal/"))
            self.submit(action, {})

    def play_out(self, game: int, record: bool) -> None:
        """Play the game on the page to its end (a card at a time, the
        next hand when one is over), then download its record if
        ``record`` (a Daily deal's waits for the day's end)."""
        for turn in itertools.count():
            if turn > 2000:
                raise Failed("a game that does not end")
            found = forms(self.page)
            cards = CARD.findall(self.page)
            if cards and "/play" in found:
                self.submit("/play", {"card": cards[(game + turn) % len(cards)]})
            elif "/next" in found:
                self.submit("/next", {})
            else:
                break
        if record:
            self.call("GET", "/record")

    def review(self) -> None:
        """Ask for the last hand's review and wait for its summary."""
        self.call("GET", "/game")
        key = REVIEW.search(self.submit("/review/game", {}).url)
        if key is None:
            raise Failed("no review address")
        self.call("GET", f"/review/{key.group(1)}")  # starts the summary
        for _ in range(600):
            status = self.call("GET", f"/review/{key.group(1)}/status").json()["status"]
            if status in ("done", "failed"):
                return
            time.sleep(0.2)
        raise Failed("a review not done in 2 minutes")

    def as_someone(self, game: int) -> None:
        """What a person does between games, by the game's number: name
        themselves, look at their data, the leaderboard and statistics,
        or forget themselves (a fresh browser after)."""
        step = game % 10
        if step == 1:
            self.call("GET", "/me")
            self.submit("/me/name", {"name": f"Soak {RUN} {game}"})
        elif step == 3:
            self.call("GET", "/me")
            if "/me/forget" in forms(self.page):
                self.call("GET", "/me/data")
            self.call("GET", "/leaderboard")
        elif step == 5:
            self.call("GET", "/me/stats")
        elif step == 9:
            self.call("GET", "/me")
            if "/me/forget" in forms(self.page):
                self.submit("/me/forget", {"confirm": "yes"})
            self.http = requests.Session()


def sizes(folder: Path) -> tuple[int, int]:
    """Bytes (allocated blocks) and files under ``folder``."""
    total = count = 0
    for root, _, names in os.walk(folder):
        for name in names:
            try:
                total += os.stat(os.path.join(root, name)).st_blocks * 512
            except FileNotFoundError:
                continue
            count += 1
    return total, count


def redis_memory(port: int) -> int:
    """``used_memory`` of the Redis on 127.0.0.1:``port``, in bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(b"INFO memory\r\n")
        text = b""
        while b"used_memory:" not in text or not text.endswith(b"\r\n"):
            text += connection.recv(65536)
    return int(re.search(rb"used_memory:(\d+)", text).group(1))


def resources(pid: int, args: argparse.Namespace) -> str:
    """One line of the server's figures (MB, counts)."""
    shown = []
    for each, role in processes(pid).items():
        try:
            status = Path(f"/proc/{each}/status").read_text()
        except OSError:
            continue
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024
        shown.append(f"{role.split()[-1]} {rss:.0f}")
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    threads = int(re.search(r"Threads:\s+(\d+)", Path(f"/proc/{pid}/status").read_text()).group(1))
    line = f"rss MB: {', '.join(shown)} | fds {fds} | threads {threads}"
    if args.instance:
        size, count = sizes(Path(args.instance))
        line += f" | instance {size / 2**20:.1f} MB, {count} files"
        database = Path(args.instance) / "pisti.db"
        if database.exists():
            line += f" | sqlite {database.stat().st_size / 2**20:.2f} MB"
    if args.log:
        line += f" | log {Path(args.log).stat().st_size / 2**20:.1f} MB"
    if args.redis_port:
        line += f" | redis {redis_memory(args.redis_port) / 2**20:.1f} MB"
    return line


def main(argv: list[str] | None = None) -> int:
    """Play; print a line of figures every ``--every`` games."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:5000", help="the running server")
    parser.add_argument("--games", type=int, default=1000, help="games in all (1000)")
    parser.add_argument("--players", type=int, default=4, help="players at once (4)")
    parser.add_argument("--every", type=int, default=250, help="games between lines (250)")
    parser.add_argument("--expert-every", type=int, default=25, help="an Expert game each (25)")
    parser.add_argument("--review-every", type=int, default=10, help="a review each (10)")
    parser.add_argument("--instance", help="the server's instance folder")
    parser.add_argument("--log", help="the server's log file")
    parser.add_argument("--redis-port", type=int, help="the sessions' Redis, on 127.0.0.1")
    args = parser.parse_args(argv)
    url = args.url.rstrip("/")
    pid = listening_pid(int(url.rsplit(":", 1)[1]))
    numbers = itertools.count()
    lock = threading.Lock()
    done: list[int] = []
    errors: list[str] = []
    began = time.monotonic()
    print(f"games 0 | {resources(pid, args)}", flush=True)

    def player(number: int) -> None:
        browser = Browser(url, number)
        while True:
            with lock:
                game = next(numbers)
            if game >= args.games:
                return
            kind, fields = KINDS[game % len(KINDS)]
            if game % args.expert_every == args.expert_every - 1:
                kind, fields = "new", {"rules": "cardems", "level": "expert"}
            try:
                browser.start(kind, fields, game)
                browser.play_out(game, record=kind != "daily")
                if game % args.review_every == 0 and kind != "daily":
                    browser.review()
                browser.as_someone(game)
            except (Failed, requests.RequestException, StopIteration) as error:
                with lock:
                    errors.append(f"game {game} ({kind}): {error!r}")
                browser.http = requests.Session()
            with lock:
                done.append(game)
                if len(done) % args.every == 0:
                    minutes = (time.monotonic() - began) / 60
                    print(f"games {len(done)} ({minutes:.1f} min) | {resources(pid, args)}")
                    print(f"  errors so far: {len(errors)} {errors[-2:]}", flush=True)

    threads = [threading.Thread(target=player, args=(n,)) for n in range(args.players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"errors: {len(errors)}", *errors[:10], sep="\n")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
