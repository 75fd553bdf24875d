"""The cost of a page: server CPU per request for ``GET /game`` and
``POST /play``, against a Flask "hello world", in one run.

Both servers run side by side under the same server and settings (waitress,
one process, the app's thread count, from :mod:`benchmarks.load_servers`):
the app as served (``python -m app.serve``, sessions on disk in a temporary
folder in the instance folder, or in Redis) and :mod:`benchmarks.load_hello`.
Players (one cookie jar and one connection each) play single deals against
the computer through the pages, round by round: every player reads its
table (``GET /game``), then reads it again as the page's script does after
a play (``GET /game, frames``: with the ``Pisti-Frames`` header, the page
carries the steps of the plays since the player's move), then every player
posts a random card of its hand with the page's hidden fields (``POST
/play``), then every player asks for two pages that show the floor under
any page of the app: ``GET /healthz`` (the app's middleware and Flask, no
session, no template) and a page that does not exist (404: the player's
session read, and the error text in the pages' frame, ``base.html``,
with its CSRF token and language form); then the hello world answers as
many ``GET /`` as that round's requests, from as many clients as there are
players (a connection each, kept open like theirs, taking turns), and as
many again from a single client (the figure earlier runs compared with).
The connections matter: waitress's loop visits every open connection each
time it wakes, so the hello world from one connection costs less than from
twenty, the app's case (7–14 % in BENCHMARKS.md's runs). Each batch is
timed by the server process's CPU time (user and system, all its threads,
from ``/proc/<pid>/task/*/schedstat`` in nanoseconds), so waiting for a
core is not counted; other work on the machine still moves the figures
(caches and cores shared: the app's pages by up to half on this 2-core
machine, the hello world less), so compare runs made in the same
conditions, and ratios within one run. The
computers' replies are part of ``POST /play``; the searches' worker pool
(Expert only) is not counted.

Every game must end with its record downloaded and replayed by the engine
(48 plays, 52 cards), or the run fails (exit status 1). Linux only.

Run (about a minute for 20 games on a busy 2-core machine):

    .venv/bin/python -m benchmarks.page_cost
    .venv/bin/python -m benchmarks.page_cost --games 40 --backend redis
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from .load_servers import RedisServer, Server
from .load_test import GameError, Player, Tally

#: Where the app keeps its sessions when served (``scripts/serve``), and
#: where the runs keep theirs by default. (On the machine of BENCHMARKS.md,
#: creating a file under ``/tmp`` costs some 0.45 ms of kernel CPU against
#: 0.02 ms here, and every stored session is a new file.)
INSTANCE = Path(__file__).resolve().parent.parent / "instance"
#: Unmeasured requests each server answers first (templates compiled,
#: translations loaded, threads started).
WARM_UP_HELLO = 50


def server_cpu_ns(pid: int) -> int:
    """Return the CPU time (nanoseconds) the threads of process ``pid``
    have run so far: the sum of each thread's ``schedstat`` run time.

    Raises:
        FileNotFoundError: no such process (or not Linux).
    """
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended between the listing and the read
    return total


class Meter:
    """Server CPU time and request counts per kind of request."""

    def __init__(self) -> None:
        self.ns: dict[str, int] = {}
        self.requests: dict[str, int] = {}

    def batch(self, kind: str, pid: int, calls: list[Callable[[], object]]) -> None:
        """Make ``calls`` one after another and charge the CPU time process
        ``pid`` spent meanwhile to ``kind``."""
        before = server_cpu_ns(pid)
        for call in calls:
            call()
        spent = server_cpu_ns(pid) - before
        self.ns[kind] = self.ns.get(kind, 0) + spent
        self.requests[kind] = self.requests.get(kind, 0) + len(calls)

    def ms(self, kind: str) -> float:
        """Milliseconds of server CPU per request of ``kind``."""
        return self.ns[kind] / self.requests[kind] / 1e6


def run(games: int, backend: str, seed: int, within: Path = INSTANCE) -> tuple[Meter, list[str]]:
    """Serve the app (``backend``: ``"filesystem"`` or ``"redis"``) and the
    hello world, play ``games`` single deals against Medium round by round,
    and return the meter and the errors (bad answers, bad records). The
    servers' files (sessions, logs) go in a temporary folder made in
    ``within``."""
    meter = Meter()
    errors: list[str] = []
    within.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=within) as folder, ExitStack() as servers:
        root = Path(folder)
        env = {"FLASK_SECRET_KEY": "page-cost-secret-key", "FLASK_RATELIMIT_ENABLED": "false"}
        if backend == "redis":
            redis = servers.enter_context(RedisServer(root / "redis"))
            env.update(FLASK_SESSION_BACKEND="redis", FLASK_REDIS_URL=redis.url)
        else:
            env.update(FLASK_SESSION_FILE_DIR=str(root / "sessions"))
        hello = servers.enter_context(Server(root / "hello.log", app="hello", ready_path="/"))
        app = servers.enter_context(Server(root / "app.log", env=env))
        assert hello.process is not None and app.process is not None
        hello_pid, app_pid = hello.process.pid, app.process.pid

        tally = Tally()
        greeter = Player(hello.url, tally)
        for _ in range(WARM_UP_HELLO):
            greeter.get("/")
        # One client (one connection) per player, as the app has.
        greeters = [Player(hello.url, tally) for _ in range(games)]
        for client in greeters:
            client.get("/")
        rng = random.Random(seed)
        try:
            warm_up = Player(app.url, tally, random.Random(rng.random()))
            warm_up.new_game()
            warm_up.finish()
            players = [Player(app.url, tally, random.Random(rng.random())) for _ in range(games)]
            for player in players:
                player.new_game()
            while True:
                meter.batch("GET /game", app_pid, [_reader(p) for p in players])
                if not players[0].hand:
                    break
                meter.batch("GET /game, frames", app_pid, [_animator(p) for p in players])
                meter.batch("POST /play", app_pid, [_poster(p) for p in players])
                meter.batch("GET /healthz", app_pid, [_checker(p) for p in players])
                meter.batch("404 page", app_pid, [_stray(p) for p in players])
                greetings = [_greeting(client) for _ in range(3) for client in greeters]
                meter.batch("hello", hello_pid, greetings)
                meter.batch("hello, one client", hello_pid, [_greeting(greeter)] * len(greetings))
            for player in players:
                player.finish()
        except GameError as exc:
            errors.append(str(exc))
    return meter, errors


def _reader(player: Player) -> Callable[[], object]:
    return lambda: player.get("/game")


def _animator(player: Player) -> Callable[[], object]:
    """Read the table as the page's script does after a play (its steps too)."""
    return lambda: player.http.get(player.base_url + "/game", headers={"Pisti-Frames": "1"})


def _poster(player: Player) -> Callable[[], object]:
    def post() -> None:
        player.post("/play", {**player.play_fields(), "card": player.rng.choice(player.hand)})

    return post


def _checker(player: Player) -> Callable[[], object]:
    return lambda: player.tally.timed(player.http.get, player.base_url + "/healthz", expect=200)


def _stray(player: Player) -> Callable[[], object]:
    return lambda: player.tally.timed(player.http.get, player.base_url + "/rules", expect=404)


def _greeting(player: Player) -> Callable[[], object]:
    return lambda: player.get("/")


def main(argv: list[str] | None = None) -> int:
    """Run from the command line, print the table; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--backend", choices=("filesystem", "redis"), default="filesystem")
    parser.add_argument("--seed", type=int, default=0, help="the players' random seed")
    parser.add_argument(
        "--within",
        type=Path,
        default=INSTANCE,
        help="folder for the run's temporary files, sessions included (default: instance/)",
    )
    args = parser.parse_args(argv)
    meter, errors = run(args.games, args.backend, args.seed, args.within)
    if errors:
        print(f"failed: {errors[0]}", file=sys.stderr)
        return 1
    hello = meter.ms("hello")
    print(f"{args.games} games, sessions: {args.backend}; server CPU per request\n")
    print("| request | requests | server CPU ms | × hello world |")
    print("|---|---|---|---|")
    names = {
        "hello": "GET / (hello world, a client per player)",
        "hello, one client": "GET / (hello world, one client)",
        "404 page": "GET /rules (404: session read, the pages' frame)",
    }
    kinds = ("hello", "hello, one client", "GET /healthz", "404 page")
    for kind in (*kinds, "GET /game", "GET /game, frames", "POST /play"):
        print(
            f"| {names.get(kind, kind)} | {meter.requests[kind]} "
            f"| {meter.ms(kind):.3f} | {meter.ms(kind) / hello:.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
