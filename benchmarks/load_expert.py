"""A fair share of the CPU: a Medium player's move while other clients
hammer Expert games.

Serves the app as deployed (``python -m app.serve``, rate limits on at
their defaults, sessions on disk) with ``FLASK_TRUSTED_PROXIES=1``, so each
client can come from its own address (``X-Forwarded-For``), as real players
do. ``--hammers`` clients each play Expert single deals as fast as the server
answers them, a new deal when one ends; one Medium player plays a card every
``--pause`` seconds. A hammering client refused (429, 503) waits
``--backoff`` seconds, 1 by default (as ``Retry-After`` asks; 0 floods
the server with refused requests instead). Reported: the Medium player's ``POST /play`` time
(the card, the computer's answer, saving; not following the redirect)
median and 95th percentile, first alone and then under the hammering, and
what the hammering clients got (plays made, 429 and 503 answers, their
``POST /play`` median).

    .venv/bin/python -m benchmarks.load_expert                 # 20 hammers, 30 s
    .venv/bin/python -m benchmarks.load_expert --hammers 5 --seconds 10
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import requests

from .load_servers import Server
from .load_test import CSRF, HAND, HIDDEN, PLAY_FORM

TIMEOUT = 60


class Client:
    """A browser-like client of one address playing single deals."""

    def __init__(self, url: str, address: str, level: str) -> None:
        self.url = url
        self.level = level
        self.http = requests.Session()
        self.http.headers["X-Forwarded-For"] = address
        self.page = ""

    def new_game(self) -> None:
        """Start a single deal against :attr:`level`."""
        home = self.http.get(self.url + "/", timeout=TIMEOUT).text
        data = {"csrf_token": CSRF.search(home).group(1), "rules": "cardems", "level": self.level}
        self.http.post(self.url + "/new", data=data, timeout=TIMEOUT)
        self.page = self.http.get(self.url + "/game", timeout=TIMEOUT).text

    def play(self) -> tuple[int, float]:
        """Play the first card in hand; return the status and the POST's
        milliseconds. Starts a new game first when none is on."""
        form = PLAY_FORM.search(self.page)
        if form is None or not HAND.findall(self.page):
            self.new_game()
            form = PLAY_FORM.search(self.page)
            if form is None:
                return 0, 0.0
        fields = {**dict(HIDDEN.findall(form.group(1))), "card": HAND.findall(self.page)[0]}
        start = time.perf_counter()
        response = self.http.post(
            self.url + "/play", data=fields, allow_redirects=False, timeout=TIMEOUT
        )
        elapsed = (time.perf_counter() - start) * 1000
        self.page = self.http.get(self.url + "/game", timeout=TIMEOUT).text
        return response.status_code, elapsed


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(len(ordered) * share) - 1)]


def _medium_player(url: str, seconds: float, pause: float) -> list[float]:
    player = Client(url, "203.0.113.250", "medium")
    player.new_game()
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, elapsed = player.play()
        if status == 303:
            times.append(elapsed)
        time.sleep(pause)
    return times


def _hammer(
    url: str, number: int, stop: threading.Event, tally: Counter, times: list, backoff: float
) -> None:
    client = Client(url, f"198.51.100.{number + 1}", "expert")
    while not stop.is_set():
        try:
            status, elapsed = client.play()
        except requests.RequestException:
            status, elapsed = -1, 0.0
        tally[status] += 1
        if status == 303:
            times.append(elapsed)
        if status in (429, 503):
            stop.wait(backoff)


def _hammering(url: str, hammers: int, seconds: float, backoff: float, results) -> None:
    """Hammer for ``seconds`` from ``hammers`` threads of this process (a
    process of its own, so the measured player's process shares no GIL with
    them); put (tally, POST times) on the ``results`` queue."""
    stop, tally, times = threading.Event(), Counter(), []
    threads = [
        threading.Thread(target=_hammer, args=(url, n, stop, tally, times, backoff))
        for n in range(hammers)
    ]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    results.put((dict(tally), times))


def run(hammers: int, seconds: float, pause: float, backoff: float) -> dict[str, float]:
    """Serve the app, measure the Medium player alone then under
    ``hammers`` Expert clients (each waiting ``backoff`` seconds after a 429
    or 503), stop everything, and return the figures."""
    with tempfile.TemporaryDirectory() as folder:
        env = {
            "FLASK_SECRET_KEY": "load-expert-secret-key",
            "FLASK_SESSION_FILE_DIR": str(Path(folder) / "sessions"),
            "FLASK_TRUSTED_PROXIES": "1",
        }
        with Server(Path(folder) / "server.log", env=env) as server:
            alone = _medium_player(server.url, min(seconds, 10), pause)
            context = multiprocessing.get_context("spawn")
            results = context.Queue()
            hammering = context.Process(
                target=_hammering, args=(server.url, hammers, seconds + 4, backoff, results)
            )
            hammering.start()
            time.sleep(2)  # let the hammering get going
            loaded = _medium_player(server.url, seconds, pause)
            tally_dict, expert_times = results.get()
            hammering.join()
            tally = Counter(tally_dict)
    return {
        "alone_p50": statistics.median(alone),
        "alone_p95": _percentile(alone, 0.95),
        "loaded_moves": len(loaded),
        "loaded_p50": statistics.median(loaded),
        "loaded_p95": _percentile(loaded, 0.95),
        "expert_plays": tally[303],
        "expert_429": tally[429],
        "expert_503": tally[503],
        "expert_other": sum(
            count for status, count in tally.items() if status not in (303, 429, 503)
        ),
        "expert_p50": statistics.median(expert_times) if expert_times else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    """Run from the command line and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hammers", type=int, default=20, help="Expert clients (default 20)")
    parser.add_argument("--seconds", type=float, default=30, help="measuring time (default 30)")
    parser.add_argument("--pause", type=float, default=0.2, help="Medium player's pause, s")
    parser.add_argument(
        "--backoff",
        type=float,
        default=1.0,
        help="seconds a hammering client waits after a 429 or 503 (default 1, as Retry-After "
        "asks; 0 floods)",
    )
    args = parser.parse_args(argv)
    figures = run(args.hammers, args.seconds, args.pause, args.backoff)
    for name, value in figures.items():
        print(f"{name:14} {value:10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
