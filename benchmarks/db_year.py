"""A server one year on: fill a database with a year of a popular club's
rows, then time every page that reads it, server side.

``fill`` upgrades the database at ``--url`` (SQLite file or PostgreSQL)
with the app's migrations (``flask db upgrade``), then writes, through the
app's own tables with SQLAlchemy Core bulk inserts: ``--players`` players
(each with a device, story progress and a kept score), ``--results``
results over the past 365 days (player 1 has ``--heavy`` of them, players
2–11 a tenth of that each, the rest spread evenly), the weekly totals,
the daily tasks and weekly challenges those games made (of the last
``--task-days`` days: a year's are some 7 million rows), every day's Daily
deals and ``--daily`` finished entries per day and rule set (5,000 today
for Cardems) and ``--reviews`` kept reviews. The players' totals match
their results. Player *n*'s device token is ``bench-token-n``.

``time`` asks each page ``--requests`` times on Flask's test client (the
request's wall time in the app: Flask, the queries and the template) as
player 1 (the long history) and as random players; the writes (a recorded game, a name
change and, with ``--forget``, Forget me of player 1) run last.

    .venv/bin/python -m benchmarks.db_year fill --url sqlite:////tmp/year.db --task-days 28
    .venv/bin/python -m benchmarks.db_year time --url sqlite:////tmp/year.db [--forget]
    .venv/bin/python -m benchmarks.db_year fill --url postgresql+psycopg://pisti@127.0.0.1:5485/year
"""

from __future__ import annotations

import argparse
import random
import re
import secrets
import statistics
import tempfile
import time
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import insert, text

from app import create_app
from app.db import db, queries
from app.db.facts import GameFacts
from app.db.models import (
    DailyDeal,
    DailyEntry,
    Player,
    PlayerTask,
    PlayerToken,
    Result,
    Review,
    StoryProgress,
    WeeklyTotal,
)
from app.db.tasks import daily_tasks, week_start, weekly_challenge
from app.web import daily

RULES = ("cardems", "classic", "partners")
LEVELS = ("easy", "medium", "hard", "expert", "hayriye", "nuri")
BATCH = 20_000
#: Games recorded while timed (half of them player 1's).
GAMES = 50


def token(player_id: int) -> str:
    """The benchmark's device token of player ``player_id``."""
    return f"bench-token-{player_id}"


def make_app(url: str, folder: str) -> Flask:
    """The app on the database at ``url`` (sessions kept under ``folder``)."""
    return create_app(
        {
            "SECRET_KEY": "benchmark-secret-key",
            "DATABASE_URL": url,
            "SESSION_FILE_DIR": str(Path(folder) / "sessions"),
            "RATELIMIT_ENABLED": False,
            "LOG_LEVEL": "WARNING",
        }
    )


def _write(model: Any, rows: Iterator[dict[str, Any]]) -> int:
    """Insert ``rows`` into ``model``'s table, :data:`BATCH` at a time, in
    one transaction; return how many."""
    count, batch = 0, []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            db.session.execute(insert(model.__table__), batch)
            count, batch = count + len(batch), []
    if batch:
        db.session.execute(insert(model.__table__), batch)
        count += len(batch)
    db.session.commit()
    return count


def fill(args: argparse.Namespace) -> None:
    """Upgrade the database at ``args.url`` and write a year of rows."""
    rng = random.Random(65)
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(args.url, folder)
        with app.app_context():
            start = time.perf_counter()
            upgrade(directory=str(Path(__file__).parent.parent / "migrations"))
            print(f"upgraded an empty database in {time.perf_counter() - start:.1f} s")
            with app.test_request_context():
                today = daily.today()
            _fill(args, today, rng)


def _fill(args: argparse.Namespace, today: date, rng: random.Random) -> None:
    now = datetime.combine(today, datetime.min.time()) + timedelta(hours=12)
    players = args.players
    totals = [[0, 0, 0] for _ in range(players + 1)]  # points, games, wins
    weekly: dict[tuple[date, int], int] = {}
    played: set[tuple[int, int]] = set()  # (player, days ago)
    heavy = {1: args.heavy, **{pid: args.heavy // 10 for pid in range(2, 12)}}

    def results() -> Iterator[dict[str, Any]]:
        owners = (pid for pid, count in heavy.items() for _ in range(count))
        for number in range(args.results):
            pid = next(owners, None) or rng.randint(12, players)
            ago = rng.randint(0, 364 * 24 * 3600)
            finished = now - timedelta(seconds=ago)
            points, outcome = rng.randint(0, 40), rng.choice(("win", "loss", "win", "draw"))
            totals[pid][0] += points
            totals[pid][1] += 1
            totals[pid][2] += outcome == "win"
            key = (week_start(finished.date()), pid)
            weekly[key] = weekly.get(key, 0) + points
            if ago // 86400 < args.task_days:
                played.add((pid, ago // 86400))
            rules = RULES[number % 3]
            yield {
                "player_id": pid, "game_id": f"g{number}", "finished_at": finished,
                "rules": rules, "house": "", "target": None if rules == "cardems" else 51,
                "levels": rng.choice(LEVELS), "deal_key": f"{rng.getrandbits(128):032x}",
                "daily_day": None, "ranked": False, "outcome": outcome, "points": points,
                "opp_points": rng.randint(0, 40), "hands": 1, "pistis": rng.randint(0, 2),
                "jack_pistis": rng.randint(0, 1), "most_cards": rng.randint(0, 1),
            }  # fmt: skip

    start = time.perf_counter()
    created = now - timedelta(days=400)
    # Players first (results point at them), totals written after the results.
    count = _write(
        Player,
        (
            {"id": pid, "name": f"Player {pid}", "name_key": f"player {pid}",
             "look_key": f"Player {pid}", "created_at": created + timedelta(seconds=pid)}
            for pid in range(1, players + 1)
        ),
    )  # fmt: skip
    print(f"players: {count}")
    count = _write(
        PlayerToken,
        (
            {"token_hash": queries.secret_hash(token(pid)), "player_id": pid, "created_at": created}
            for pid in range(1, players + 1)
        ),
    )
    print(f"player_tokens: {count}")
    print(f"results: {_write(Result, results())}")
    db.session.execute(
        text("UPDATE players SET points = :p, score = :p, games = :g, wins = :w WHERE id = :id"),
        [
            {"p": totals[pid][0], "g": totals[pid][1], "w": totals[pid][2], "id": pid}
            for pid in range(1, players + 1)
        ],
    )
    db.session.commit()
    queries.recount_scores()
    print(f"weekly_totals: {_write(WeeklyTotal, _weekly_rows(weekly))}")
    weekly.clear()
    print(f"player_tasks: {_write(PlayerTask, _task_rows(played, today))}")
    played.clear()
    print(f"daily_deals: {_write(DailyDeal, _deal_rows(today))}")
    print(f"daily_entries: {_write(DailyEntry, _entry_rows(args, today, rng))}")
    count = _write(
        StoryProgress,
        (
            {"player_id": pid, "lesson": "done", "lesson_step": 9,
             "beaten": ",".join(LEVELS[4:4 + pid % 3]), "updated_at": created}
            for pid in range(1, players + 1)
        ),
    )  # fmt: skip
    print(f"story_progress: {count}")
    print(f"reviews: {_write(Review, _review_rows(args.reviews, now))}")
    print(f"written in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    connection = db.engine.raw_connection()
    try:
        if db.engine.dialect.name == "postgresql":
            driver = connection.driver_connection
            driver.autocommit = True
            driver.execute("VACUUM ANALYZE")
        else:
            connection.cursor().execute("ANALYZE")
    finally:
        connection.close()
    print(f"analyzed in {time.perf_counter() - start:.1f} s")


def _weekly_rows(weekly: dict[tuple[date, int], int]) -> Iterator[dict[str, Any]]:
    for (week, pid), score in weekly.items():
        yield {"week": week, "player_id": pid, "score": score}


def _task_rows(played: set[tuple[int, int]], today: date) -> Iterator[dict[str, Any]]:
    """Three tasks for each day a player played, a challenge for each week."""
    weeks: set[tuple[int, date]] = set()
    for pid, ago in played:
        day = today - timedelta(days=ago)
        for task in daily_tasks(pid, day):
            yield {"player_id": pid, "period": "day", "start": day, "task": task.id,
                   "progress": task.goal, "goal": task.goal, "reward": task.reward}  # fmt: skip
        if (pid, week_start(day)) not in weeks:
            weeks.add((pid, week_start(day)))
            task = weekly_challenge(day)
            yield {"player_id": pid, "period": "week", "start": week_start(day), "task": task.id,
                   "progress": 0, "goal": task.goal, "reward": task.reward}  # fmt: skip


def _deal_rows(today: date) -> Iterator[dict[str, Any]]:
    for ago in range(365):
        for rules in RULES:
            yield {"day": today - timedelta(days=ago), "rules": rules, "seed": f"d{ago}{rules}"}


def _entry_rows(
    args: argparse.Namespace, today: date, rng: random.Random
) -> Iterator[dict[str, Any]]:
    for ago in range(365):
        day = today - timedelta(days=ago)
        start = datetime.combine(day, datetime.min.time())
        for rules in RULES:
            count = min(args.players, 5_000 if ago == 0 and rules == "cardems" else args.daily)
            for pid in rng.sample(range(1, args.players + 1), count):
                yield {
                    "day": day, "rules": rules, "player_id": pid, "game_id": f"d{ago}{rules}{pid}",
                    "started_at": start, "finished_at": start + timedelta(seconds=pid % 40_000),
                    "points": rng.randint(0, 40), "pistis": rng.randint(0, 3),
                }  # fmt: skip


def _review_rows(count: int, now: datetime) -> Iterator[dict[str, Any]]:
    record = "x" * 6_000  # a kept record's size
    steps = "[" + ",".join(['{"step": 1, "loss": 0.1}'] * 200) + "]"
    for number in range(count):
        made = now - timedelta(minutes=number * 100)
        yield {"key": f"{number:064x}", "record": record, "seat": 0, "status": "done",
               "done": 48, "total": 48, "steps": steps, "estimates": 1,
               "created_at": made, "updated_at": made}  # fmt: skip


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered):7.2f} ms  p95 {p95:7.2f} ms  (n={len(ordered)})"


def _timed(client: Any, method: str, path: str, **kwargs: Any) -> tuple[float, int]:
    start = time.perf_counter()
    response = getattr(client, method)(path, **kwargs)
    return (time.perf_counter() - start) * 1000, response.status_code


def time_pages(args: argparse.Namespace) -> None:
    """Time the pages that read the database, then the writes."""
    rng = random.Random(66)
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(args.url, folder)
        with app.test_request_context():
            today = daily.today()
        past = (today - timedelta(days=100)).isoformat()
        with app.app_context():
            total = db.session.scalar(text("SELECT max(id) FROM players")) or 0
            forgotten = db.session.get(Player, 1) is None  # by an earlier --forget
            pages = -(-total // queries.PAGE_SIZE)
        paths = {
            "home /": "/",
            "profile /me (tasks)": "/me",
            "statistics /me/stats": "/me/stats",
            "story /story": "/story",
            "leaderboard all-time": "/leaderboard",
            "leaderboard all-time, middle page": f"/leaderboard?page={pages // 2}",
            "leaderboard this week": "/leaderboard?period=week",
            "leaderboard last week": "/leaderboard?period=last",
            "leaderboard last week, last page": "/leaderboard?period=last&page=100000",
            "Daily today": "/daily",
            "Daily today, last page": "/daily?page=1000",
            "Daily, a past day": f"/daily/{past}",
            "Daily, a past day (partners)": f"/daily/{past}?rules=partners",
            "my data /me/data": "/me/data",
        }
        client = app.test_client()
        for who in ("random",) if forgotten else ("player 1", "random"):
            timings: dict[str, list[float]] = {}
            for _ in range(args.requests):
                pid = 1 if who == "player 1" else rng.randint(12, total)
                client.set_cookie("pisti_player", token(pid))
                for name, path in paths.items():
                    wall, status = _timed(client, "get", path)
                    assert status == 200, (path, status)
                    timings.setdefault(name, []).append(wall)
            for name, samples in timings.items():
                print(f"{who:9} {name:36} {percentiles(samples)}")
        _time_writes(app, client, rng, total, args.forget)


def _csrf(client: Any) -> str:
    """The CSRF token of the profile page's forms."""
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/me").get_data(True))
    assert match is not None
    return match.group(1)


def _time_writes(app: Flask, client: Any, rng: random.Random, total: int, forget: bool) -> None:
    run = secrets.token_hex(4)
    samples = []
    with app.app_context():
        for number in range(GAMES):
            facts = GameFacts(
                game_id=f"new-{run}-{number}", rules="cardems", target=None, seed=f"s{number}",
                levels=("hard",), outcome="win", points=rng.randint(0, 40), opp_points=10,
                hands=1, pistis=1, jack_pistis=0, most_cards=1, ten_of_diamonds=1,
                two_of_clubs=0, used_jack=False,
            )  # fmt: skip
            start = time.perf_counter()
            queries.record_result(1 if number % 2 else rng.randint(12, total), facts)
            samples.append((time.perf_counter() - start) * 1000)
    print(f"{'write':9} {'record a result':36} {percentiles(samples)} ({GAMES} games)")
    renames = []
    client.set_cookie("pisti_player", token(2))
    for number in range(20):
        form = {"name": f"Renamed {run} {number}", "csrf_token": _csrf(client)}
        wall, status = _timed(client, "post", "/me/name", data=form)
        assert status in (200, 303), status
        renames.append(wall)
    print(f"{'write':9} {'name change POST /me/name':36} {percentiles(renames)}")
    if not forget:
        return
    client.set_cookie("pisti_player", token(1))
    form = {"confirm": "yes", "player": "1", "csrf_token": _csrf(client)}
    wall, status = _timed(client, "post", "/me/forget", data=form)
    print(f"{'write':9} {'Forget me, player 1':36} {wall:7.2f} ms (status {status})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("fill", "time"))
    parser.add_argument("--url", required=True, help="SQLAlchemy URL of the database")
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument("--results", type=int, default=2_000_000)
    parser.add_argument("--heavy", type=int, default=20_000, help="player 1's results")
    parser.add_argument("--daily", type=int, default=300, help="entries per day and rule set")
    parser.add_argument("--reviews", type=int, default=5_000)
    parser.add_argument(
        "--task-days", type=int, default=365, help="tasks for the games of the last N days"
    )
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--forget", action="store_true", help="time: last, Forget me player 1")
    args = parser.parse_args()
    if args.action == "fill":
        fill(args)
    else:
        time_pages(args)


if __name__ == "__main__":
    main()
