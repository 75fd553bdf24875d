"""Load test: many players at once playing whole games through HTTP against
the app as served (waitress, ``python -m app.serve``) on 127.0.0.1, and a
Flask "hello world" on waitress with the same threads for the framework's
own ceiling.

Each player is a thread with its own cookie jar, playing like a browser:
it opens the home page, posts the New game form (single deal, the given
computer level), then reads the table page and posts a card of its hand with
the page's CSRF token and move number, until the final page; then it
downloads the game's record and replays it with the engine, which must show
the hand finished with all 48 plays and the 52 cards captured. A hello-world
player makes as many requests as a game takes (52), all ``GET /``.

The script starts and stops everything itself (the server, and Redis for the
redis backend) and prints requests per second, median and 99th-percentile
latency, errors, and the CPU seconds the players and the servers used, per
run. The rate limit on new games is switched off (all
players share one address). Exits with status 1 when any request failed or
any game was not finished with its 52 cards.

Run (about a minute per backend with 100 players on 2 cores):

    .venv/bin/python -m benchmarks.load_test     # all three, 100 players, 1 hand each
    .venv/bin/python -m benchmarks.load_test --players 10 --backend filesystem
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import statistics
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import requests

from app.engine import InvalidRecord, load_record, replay_summary
from app.serve import THREADS

from .load_servers import RedisServer, Server

BACKENDS = ("hello", "filesystem", "redis")
#: Requests a hello-world player makes per "hand": as many as a game takes
#: (home, new game, table, 24 plays each followed by the table, record).
HELLO_REQUESTS = 52
TIMEOUT = 60

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
MOVE = re.compile(r'name="move" value="(\d+)"')
HAND = re.compile(r'name="card" value="([2-9TJQKA][CDHS])"')
PLAY_FORM = re.compile(r'<form method="post" action="/play">(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')


class GameError(Exception):
    """A game could not go on: an unexpected answer, or a bad record."""


@dataclass
class Tally:
    """What all players measured, shared between their threads."""

    latencies: list[float] = field(default_factory=list)  # milliseconds
    errors: list[str] = field(default_factory=list)
    games: int = 0  # games finished and verified
    lock: threading.Lock = field(default_factory=threading.Lock)

    def timed(self, call, *args, expect: int, **kwargs) -> requests.Response:
        """Make one request, record its latency, and check its status.

        Raises:
            GameError: a connection error or another status than ``expect``.
        """
        start = time.perf_counter()
        try:
            response = call(*args, timeout=TIMEOUT, allow_redirects=False, **kwargs)
        except requests.RequestException as exc:
            raise GameError(f"{args[0]}: {type(exc).__name__}") from None
        finally:
            elapsed = (time.perf_counter() - start) * 1000
            with self.lock:
                self.latencies.append(elapsed)
        if response.status_code != expect:
            raise GameError(f"{args[0]}: {response.status_code}, expected {expect}")
        return response


class Player:
    """Plays games at ``base_url`` through its pages, like a browser.

    ``base_url`` may be changed between requests (to move to another
    instance); the cookie jar goes with the player.
    """

    def __init__(
        self, base_url: str, tally: Tally | None = None, rng: random.Random | None = None
    ) -> None:
        self.base_url = base_url
        self.http = requests.Session()
        self.tally = tally or Tally()
        self.rng = rng or random.Random(0)
        self.page = ""

    def get(self, path: str, expect: int = 200) -> requests.Response:
        """GET ``path``; keep the page.

        Raises:
            GameError: another status than ``expect``.
        """
        response = self.tally.timed(self.http.get, self.base_url + path, expect=expect)
        self.page = response.text
        return response

    def post(self, path: str, fields: dict, expect: int = 303) -> requests.Response:
        """POST form ``fields`` to ``path``, with the page's CSRF token
        unless ``fields`` has one.

        Raises:
            GameError: another status than ``expect``.
        """
        data = {"csrf_token": self.token, **fields}
        return self.tally.timed(self.http.post, self.base_url + path, data=data, expect=expect)

    @property
    def token(self) -> str:
        """The CSRF token of the current page."""
        return CSRF.search(self.page).group(1)

    @property
    def hand(self) -> list[str]:
        """The cards the current page offers to play."""
        return HAND.findall(self.page)

    @property
    def move(self) -> str:
        """The move number of the current page's play forms."""
        return MOVE.search(self.page).group(1)

    def new_game(self, level: str = "medium") -> None:
        """Open the home page and start a single deal against ``level``."""
        self.get("/")
        self.post("/new", {"rules": "cardems", "level": level})
        self.get("/game")

    def play(self, card: str | None = None) -> None:
        """Play ``card`` (default: a random card of the hand; every card in
        hand is a legal play) with the play form's hidden fields (token,
        move, hand, game), and read the table again."""
        self.post("/play", {**self.play_fields(), "card": card or self.rng.choice(self.hand)})
        self.get("/game")

    def play_fields(self) -> dict[str, str]:
        """The hidden fields of the current page's play form (token, move,
        hand, game)."""
        return dict(HIDDEN.findall(PLAY_FORM.search(self.page).group(1)))

    def finish(self) -> dict:
        """Play the hand out, download its record, and return the engine's
        replay of it (``replay_summary``).

        Raises:
            GameError: a request failed, or the record is invalid, not
                finished, or does not account for 52 cards.
        """
        while self.hand:
            self.play()
        record = self.tally.timed(self.http.get, self.base_url + "/record", expect=200).content
        try:
            summary = replay_summary(load_record(record))
        except InvalidRecord as exc:
            raise GameError(f"bad record: {exc}") from None
        cards = sum(team["cards"] for team in summary["teams"])
        if not summary["finished"] or summary["plays"] != 48 or cards != 52:
            raise GameError(f"unfinished game: {summary['plays']} plays, {cards} cards captured")
        return summary


@dataclass
class Report:
    """One run's figures."""

    backend: str
    players: int
    games: int  # finished and verified (hello: players x hands)
    requests: int
    seconds: float
    median_ms: float
    p99_ms: float
    errors: list[str]
    client_cpu: float  # seconds of CPU used by the players (this process)
    server_cpu: float  # seconds of CPU used by the server (and Redis)

    @property
    def rps(self) -> float:
        """Requests per second over the run."""
        return self.requests / self.seconds

    def line(self) -> str:
        """The report as one table row."""
        return (
            f"| {self.backend:10} | {self.players:7} | {self.games:5} | {self.requests:8} | "
            f"{self.seconds:7.1f} | {self.rps:7.0f} | {self.median_ms:9.1f} | {self.p99_ms:8.1f} | "
            f"{len(self.errors):6} | {self.client_cpu:12.1f} | {self.server_cpu:12.1f} |"
        )


HEADER = (
    "| backend    | players | games | requests | seconds |   req/s | median ms |   p99 ms | errors "
    "| client CPU s | server CPU s |\n"
    "|------------|---------|-------|----------|---------|---------|-----------|----------|--------"
    "|--------------|--------------|"
)


def run(
    backend: str,
    players: int,
    hands: int,
    level: str = "medium",
    threads: int = THREADS,
) -> Report:
    """Serve ``backend`` (``"filesystem"``, ``"redis"`` or ``"hello"``) with
    ``threads`` server threads, let ``players`` threads each play ``hands`` games at once
    (hello: make 52 requests per hand), stop everything, and report.

    Raises:
        RuntimeError: a server did not start.
    """
    client_before = _cpu(resource.RUSAGE_SELF)
    server_before = _cpu(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as folder, ExitStack() as servers:
        folder = Path(folder)
        env = {"FLASK_SECRET_KEY": "load-test-secret-key", "FLASK_RATELIMIT_ENABLED": "false"}
        app, ready = "app", "/healthz"
        if backend == "hello":
            app, ready = "hello", "/"
        elif backend == "redis":
            redis = servers.enter_context(RedisServer(folder / "redis"))
            env.update(FLASK_SESSION_BACKEND="redis", FLASK_REDIS_URL=redis.url)
        else:
            env.update(FLASK_SESSION_FILE_DIR=str(folder / "sessions"))
        server = servers.enter_context(
            Server(
                folder / "server.log",
                env=env,
                app=app,
                threads=threads,
                ready_path=ready,
            )
        )
        tally = Tally()
        start = threading.Barrier(players + 1)
        bodies = [
            threading.Thread(
                target=_hello if backend == "hello" else _games,
                args=(Player(server.url, tally, random.Random(n)), hands, level, start),
            )
            for n in range(players)
        ]
        for thread in bodies:
            thread.start()
        start.wait()
        began = time.perf_counter()
        for thread in bodies:
            thread.join()
        seconds = time.perf_counter() - began
        client_cpu = _cpu(resource.RUSAGE_SELF) - client_before
    latencies = sorted(tally.latencies)
    games = players * hands if backend == "hello" and not tally.errors else tally.games
    return Report(
        backend=backend,
        players=players,
        games=games,
        requests=len(latencies),
        seconds=seconds,
        median_ms=statistics.median(latencies),
        p99_ms=latencies[max(0, int(len(latencies) * 0.99) - 1)],
        errors=tally.errors,
        client_cpu=client_cpu,
        # Counted once the servers have stopped (and been waited for).
        server_cpu=_cpu(resource.RUSAGE_CHILDREN) - server_before,
    )


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _games(player: Player, hands: int, level: str, start: threading.Barrier) -> None:
    start.wait()
    for _ in range(hands):
        try:
            player.new_game(level)
            player.finish()
        except GameError as exc:
            with player.tally.lock:
                player.tally.errors.append(str(exc))
        else:
            with player.tally.lock:
                player.tally.games += 1


def _hello(player: Player, hands: int, level: str, start: threading.Barrier) -> None:
    start.wait()
    for _ in range(hands * HELLO_REQUESTS):
        try:
            player.get("/")
        except GameError as exc:
            with player.tally.lock:
                player.tally.errors.append(str(exc))


def main(argv: list[str] | None = None) -> int:
    """Run the load test from the command line; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100, help="concurrent players (default 100)")
    parser.add_argument("--hands", type=int, default=1, help="games each player plays (default 1)")
    parser.add_argument("--backend", choices=(*BACKENDS, "all"), default="all")
    parser.add_argument("--level", default="medium", help="computer level (default medium)")
    parser.add_argument(
        "--threads", type=int, default=THREADS, help=f"server threads (default {THREADS})"
    )
    args = parser.parse_args(argv)
    backends = BACKENDS if args.backend == "all" else (args.backend,)
    print(
        f"{args.players} players x {args.hands} hand(s), level {args.level}, "
        f"waitress, one process, {args.threads} threads\n"
    )
    print(HEADER, flush=True)
    failed = False
    for backend in backends:
        report = run(backend, args.players, args.hands, args.level, args.threads)
        print(report.line(), flush=True)
        expected = args.players * args.hands
        if report.errors or report.games != expected:
            failed = True
            print(
                f"  {backend}: {report.games}/{expected} games verified; "
                f"first errors: {report.errors[:5]}",
                file=sys.stderr,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
