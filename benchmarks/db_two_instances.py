"""Two app instances on one PostgreSQL record the same 1,000 finished games
at once: every game is sent to both, in a different order, from several
threads each (as when a player's double POST reaches two replicas). Checks
that every game is kept exactly once and the players' totals add up.

    .venv/bin/python -m benchmarks.db_two_instances --games 1000

Each instance is its own process with its own ``create_app()`` and
connection pool; the recording is :func:`app.db.queries.record_result`, the
one call the game pages make when a game ends.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import func, select

from app import create_app
from app.db import db, queries
from app.db.facts import GameFacts
from app.db.models import Player, Result, ScoreCount
from benchmarks.postgres_server import PostgresServer

PLAYERS = 50


def facts(number: int) -> GameFacts:
    """Game ``number``'s result: ``number % 41`` points."""
    return GameFacts(
        game_id=f"game-{number}", rules="cardems", target=None, seed=f"seed-{number}",
        levels=("medium",), outcome="win" if number % 2 else "loss", points=number % 41,
        opp_points=10, hands=1, pistis=number % 3, jack_pistis=0, most_cards=1,
        ten_of_diamonds=1, two_of_clubs=0, used_jack=bool(number % 5),
    )  # fmt: skip


def make_app(url: str, folder: str):
    """An app instance on database ``url``."""
    return create_app(
        {
            "SECRET_KEY": "two-instances-secret",
            "DATABASE_URL": url,
            "SESSION_FILE_DIR": folder,
            "RATELIMIT_ENABLED": False,
            "LOG_LEVEL": "WARNING",
        }
    )


def record_all(app, games: int, order_seed: int, threads: int) -> int:
    """Record games ``0 .. games-1`` (game ``n`` for player ``n % PLAYERS +
    1``) on ``app`` from ``threads`` threads, in a shuffled order; return
    how many this instance wrote (the others were already there)."""
    numbers = list(range(games))
    random.Random(order_seed).shuffle(numbers)

    def record(number: int) -> bool:
        with app.app_context():
            return queries.record_result(number % PLAYERS + 1, facts(number)) is not None

    with ThreadPoolExecutor(threads) as pool:
        return sum(pool.map(record, numbers))


def check(app, games: int) -> dict[str, int]:
    """Return the stored results, their distinct games, and the players'
    game and point totals, for comparing with what was sent."""
    with app.app_context():
        return {
            "results": db.session.scalar(select(func.count()).select_from(Result)),
            "distinct games": db.session.scalar(select(func.count(func.distinct(Result.game_id)))),
            "players' games": db.session.scalar(select(func.sum(Player.games))),
            "players' points": db.session.scalar(select(func.sum(Player.points))),
            "expected points": sum(facts(n).points for n in range(games)),
            "scores miscounted": _miscounted_scores(),
        }


def _miscounted_scores() -> int:
    """The number of scores whose kept players (score_counts) differ from
    the players who have that score."""
    kept = dict(db.session.execute(select(ScoreCount.score, ScoreCount.players)).all())
    actual = dict(
        db.session.execute(select(Player.score, func.count()).group_by(Player.score)).all()
    )
    return sum(kept.get(score, 0) != actual.get(score, 0) for score in kept.keys() | actual.keys())


def _instance(url: str, folder: str, games: int, seed: int, threads: int, out) -> None:
    app = make_app(url, folder)
    out.put(record_all(app, games, seed, threads))
    with app.app_context():
        db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=8, help="threads per instance")
    args = parser.parse_args()
    import tempfile

    with PostgresServer() as server, tempfile.TemporaryDirectory() as folder:
        url = server.create_database("two")
        app = make_app(url, folder)
        with app.app_context():
            for number in range(PLAYERS):
                queries.create_player(f"Player {number + 1}")
        context = multiprocessing.get_context("spawn")
        out = context.Queue()
        start = time.perf_counter()
        processes = [
            context.Process(
                target=_instance, args=(url, folder, args.games, seed, args.threads, out)
            )
            for seed in (1, 2)
        ]
        for process in processes:
            process.start()
        written = [out.get() for _ in processes]
        for process in processes:
            process.join()
        seconds = time.perf_counter() - start
        figures = check(app, args.games)
        with app.app_context():
            db.engine.dispose()
    print(f"{args.games} games sent to each of 2 instances ({args.threads} threads each)")
    print(f"written by each instance: {written}, together {sum(written)}, in {seconds:.1f} s")
    for name, value in figures.items():
        print(f"{name}: {value}")
    ok = (
        sum(written) == figures["results"] == figures["distinct games"] == args.games
        and figures["players' games"] == args.games
        and figures["players' points"] == figures["expected points"]
        and figures["scores miscounted"] == 0
    )
    print("OK: every game kept exactly once" if ok else "FAILED")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
