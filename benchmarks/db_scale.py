"""Database speed with a large history: the Daily page, the all-time
leaderboard and recording a result, on SQLite and on PostgreSQL.

Fills a fresh database (PostgreSQL: a throw-away cluster on a free loopback
port) with ``--players`` players and ``--results`` results spread over a
year, with the per-player totals, players per score, weekly totals and
today's Daily entries that recording would have kept; then times, on Flask's test client, the
Daily page and the leaderboard for random known players (so "your place"
is computed each time) and the recording of new games, and prints the
query plans of the queries those pages run and, on PostgreSQL, the
cluster's own CPU time per page and per recorded game.

    .venv/bin/python -m benchmarks.db_scale --backend sqlite
    .venv/bin/python -m benchmarks.db_scale --backend postgresql --players 100000 --results 1000000
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path

from sqlalchemy import text

from app import create_app
from app.db import db, queries
from app.db.facts import GameFacts
from app.db.tasks import week_start
from app.web import daily
from benchmarks.postgres_server import PostgresServer

RULES = ("cardems", "classic", "partners")
PLAYER_COLUMNS = (
    "id", "name", "name_key", "created_at", "points", "rewards", "score", "games", "wins",
    "streak", "best_streak",
)  # fmt: skip
RESULT_COLUMNS = (
    "player_id", "game_id", "finished_at", "rules", "target", "levels", "deal_key", "daily_day",
    "ranked", "outcome", "points", "opp_points", "hands", "pistis", "jack_pistis", "most_cards",
)  # fmt: skip


def token(player_id: int) -> str:
    """The benchmark's device token of a player."""
    return f"bench-token-{player_id}"


def generate(players: int, results: int, today: date, rng: random.Random):
    """Return rows for players, tokens, results, weekly totals and today's
    Daily entries, the totals consistent with the results."""
    now = datetime.combine(today, datetime.min.time())
    totals = [[0, 0, 0] for _ in range(players + 1)]  # points, games, wins
    result_rows = []
    this_week = week_start(today)
    weekly: dict[int, int] = {}
    for number in range(results):
        player_id = rng.randint(1, players)
        points = rng.randint(0, 40)
        outcome = rng.choice(("win", "loss", "win", "loss", "draw"))
        finished = now - timedelta(seconds=rng.randint(0, 365 * 24 * 3600))
        totals[player_id][0] += points
        totals[player_id][1] += 1
        totals[player_id][2] += outcome == "win"
        if finished.date() >= this_week:
            weekly[player_id] = weekly.get(player_id, 0) + points
        rules = RULES[number % 3]
        result_rows.append(
            (
                player_id, f"g{number}", finished, rules, None if rules == "cardems" else 51,
                "hard", f"{rng.getrandbits(128):032x}", None, False, outcome, points,
                rng.randint(0, 40), 1, rng.randint(0, 2), rng.randint(0, 1), rng.randint(0, 1),
            )
        )  # fmt: skip
    created = now - timedelta(days=400)
    player_rows = [
        (
            pid, f"Player {pid}", f"player {pid}", created, totals[pid][0], 0, totals[pid][0],
            totals[pid][1], totals[pid][2], 0, 0,
        )
        for pid in range(1, players + 1)
    ]  # fmt: skip
    token_rows = [(queries.secret_hash(token(pid)), pid, created) for pid in range(1, players + 1)]
    weekly_rows = [(this_week, pid, score) for pid, score in weekly.items()]
    entries = [
        (today, "cardems", pid, f"d{pid}", now, now + timedelta(seconds=pid % 80000),
         rng.randint(0, 40), rng.randint(0, 3))
        for pid in rng.sample(range(1, players + 1), min(players, players // 20 or 1))
    ]  # fmt: skip
    return player_rows, token_rows, result_rows, weekly_rows, entries


TABLES = (
    ("players", PLAYER_COLUMNS),
    ("player_tokens", ("token_hash", "player_id", "created_at")),
    ("results", RESULT_COLUMNS),
    ("weekly_totals", ("week", "player_id", "score")),
    (
        "daily_entries",
        ("day", "rules", "player_id", "game_id", "started_at", "finished_at", "points", "pistis"),
    ),
)


def load(rows_per_table) -> float:
    """Bulk-load the rows (COPY on PostgreSQL, executemany on SQLite);
    return the seconds it took."""
    start = time.perf_counter()
    connection = db.engine.raw_connection()
    try:
        cursor = connection.cursor()
        for (table, columns), rows in zip(TABLES, rows_per_table, strict=True):
            names = ", ".join(columns)
            if db.engine.dialect.name == "postgresql":
                with cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            else:
                marks = ", ".join("?" for _ in columns)
                cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)
        connection.commit()
    finally:
        connection.close()
    queries.recount_scores()
    connection = db.engine.raw_connection()
    try:
        if db.engine.dialect.name == "postgresql":
            driver = connection.driver_connection
            driver.autocommit = True
            driver.execute("VACUUM ANALYZE")
            driver.autocommit = False
        else:
            connection.cursor().execute("ANALYZE")
    finally:
        connection.close()
    return time.perf_counter() - start


def cpu_ms() -> float:
    """This thread's CPU time in milliseconds (Flask, SQLAlchemy and, for
    SQLite, the database itself all run in it)."""
    return time.thread_time() * 1000


def cluster_cpu_ms(server: PostgresServer | None) -> float:
    """CPU time in milliseconds used so far by the PostgreSQL cluster (the
    postmaster and its children: the app's connections and the background
    workers), read from ``/proc``; 0 without a cluster. Clock ticks are
    10 ms, so only an average over many requests means anything."""
    if server is None:
        return 0.0
    postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if postmaster in (int(stat.parent.name), int(fields[1])):
            ticks += int(fields[11]) + int(fields[12])  # utime + stime
    return ticks * 1000 / os.sysconf("SC_CLK_TCK")


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms, n={len(ordered)}"


def time_pages(app, players: int, requests: int, rng: random.Random) -> dict[str, list[float]]:
    """Time GET /daily, /leaderboard and a deep leaderboard page, each as a
    random known player, on the test client (Flask, queries, template)."""
    client = app.test_client()
    timings: dict[str, list[float]] = {}
    paths = {
        "daily": "/daily",
        "leaderboard": "/leaderboard",
        "leaderboard page 50": "/leaderboard?page=50",
    }
    for _ in range(requests):
        client.set_cookie("pisti_player", token(rng.randint(1, players)))
        for name, path in paths.items():
            start, cpu = time.perf_counter(), cpu_ms()
            response = client.get(path)
            timings.setdefault(f"GET {name} (wall)", []).append(
                (time.perf_counter() - start) * 1000
            )
            timings.setdefault(f"GET {name} (CPU)", []).append(cpu_ms() - cpu)
            assert response.status_code == 200, response.status_code
    return timings


def time_recording(app, players: int, games: int, rng: random.Random) -> dict[str, list[float]]:
    """Time :func:`app.db.queries.record_result` for new games of random players."""
    samples: dict[str, list[float]] = {"record a result (wall)": [], "record a result (CPU)": []}
    run = secrets.token_hex(4)  # new game ids on every run
    with app.app_context():
        for number in range(games):
            facts = GameFacts(
                game_id=f"new-{run}-{number}", rules="cardems", target=None, seed=f"s{number}",
                levels=("hard",), outcome="win", points=rng.randint(0, 40), opp_points=10,
                hands=1, pistis=1, jack_pistis=0, most_cards=1, ten_of_diamonds=1,
                two_of_clubs=0, used_jack=False,
            )  # fmt: skip
            start, cpu = time.perf_counter(), cpu_ms()
            queries.record_result(rng.randint(1, players), facts)
            samples["record a result (wall)"].append((time.perf_counter() - start) * 1000)
            samples["record a result (CPU)"].append(cpu_ms() - cpu)
    return samples


PLANS = {
    "your player cookie": (
        "SELECT players.id FROM players JOIN player_tokens ON player_tokens.player_id = players.id "
        "WHERE player_tokens.token_hash = 'abc'"
    ),
    "daily page": (
        "SELECT daily_entries.player_id, players.name, daily_entries.points FROM daily_entries "
        "JOIN players ON players.id = daily_entries.player_id WHERE daily_entries.day = :day "
        "AND daily_entries.rules = 'cardems' AND daily_entries.finished_at IS NOT NULL "
        "ORDER BY daily_entries.points DESC, daily_entries.pistis DESC, "
        "daily_entries.finished_at LIMIT 20"
    ),
    "daily: your place": (
        "SELECT (SELECT count(*) FROM daily_entries WHERE day = :day AND rules = 'cardems' "
        "AND finished_at IS NOT NULL AND points > 20) + (SELECT count(*) FROM daily_entries "
        "WHERE day = :day AND rules = 'cardems' AND finished_at IS NOT NULL AND points = 20 "
        "AND pistis > 1) + (SELECT count(*) FROM daily_entries WHERE day = :day "
        "AND rules = 'cardems' AND finished_at IS NOT NULL AND points = 20 AND pistis = 1 "
        "AND finished_at < :now)"
    ),
    "all-time page": "SELECT id, name, score FROM players ORDER BY score DESC, id LIMIT 20",
    "all-time: players": "SELECT coalesce(sum(players), 0) FROM score_counts",
    "all-time: your place": (
        "SELECT players.score, (SELECT coalesce(sum(score_counts.players), 0) FROM score_counts "
        "WHERE score_counts.score > players.score) + (SELECT count(*) FROM players AS other "
        "WHERE other.score = players.score AND other.id < players.id) + 1 AS rank "
        "FROM players WHERE players.id = 42"
    ),
    "stats: your results": (
        "SELECT * FROM results WHERE player_id = 42 ORDER BY finished_at DESC, id DESC LIMIT 200"
    ),
    "shared deal": (
        "SELECT points FROM results WHERE deal_key = 'abc' ORDER BY points DESC, finished_at "
        "LIMIT 20"
    ),
}


def print_plans(app, today: date) -> None:
    with app.app_context():
        postgres = db.engine.dialect.name == "postgresql"
        explain = "EXPLAIN (ANALYZE, COSTS OFF)" if postgres else "EXPLAIN QUERY PLAN"
        params = {"day": today, "now": datetime.combine(today, datetime.min.time())}
        for name, sql in PLANS.items():
            rows = db.session.execute(text(f"{explain} {sql}"), params).all()
            print(f"-- {name}")
            for row in rows:
                print("   ", row[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--games", type=int, default=500, help="results recorded while timed")
    parser.add_argument(
        "--sqlite-file", help="SQLite: keep the database in this file, and reuse it when it exists"
    )
    args = parser.parse_args()
    rng = random.Random(11)
    server = None
    reuse = False
    with tempfile.TemporaryDirectory() as folder:
        if args.backend == "postgresql":
            server = PostgresServer().start()
            url = server.create_database("bench")
        else:
            path = Path(args.sqlite_file or Path(folder) / "bench.db").resolve()
            reuse = path.exists()
            url = f"sqlite:///{path}"
        try:
            app = create_app(
                {
                    "SECRET_KEY": "benchmark-secret-key",
                    "DATABASE_URL": url,
                    "SESSION_FILE_DIR": str(Path(folder) / "sessions"),
                    "RATELIMIT_ENABLED": False,
                    "LOG_LEVEL": "WARNING",
                }
            )
            with app.test_request_context():
                today = daily.today()
            if server is not None or not reuse:
                start = time.perf_counter()
                rows = generate(args.players, args.results, today, rng)
                print(f"generated in {time.perf_counter() - start:.1f} s")
                with app.app_context():
                    print(f"loaded in {load(rows):.1f} s")
                del rows
            print_plans(app, today)
            time_pages(app, args.players, 10, rng)  # warm up
            cluster = cluster_cpu_ms(server)
            timings = time_pages(app, args.players, args.requests, rng)
            pages_cluster = cluster_cpu_ms(server) - cluster
            timings.update(time_recording(app, args.players, args.games, rng))
            games_cluster = cluster_cpu_ms(server) - cluster - pages_cluster
            for name, samples in timings.items():
                print(f"{args.backend} {name}: {percentiles(samples)}")
            if server is not None:
                pages = 3 * args.requests
                print(
                    f"postgresql server CPU: {pages_cluster / pages:.2f} ms per page "
                    f"(average of {pages}), {games_cluster / args.games:.2f} ms per recorded "
                    f"game (average of {args.games})"
                )
            with app.app_context():
                db.engine.dispose()
        finally:
            if server is not None:
                server.stop()


if __name__ == "__main__":
    main()
