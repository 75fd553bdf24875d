"""Command line: ``flask --app app replay FILE``, ``flask --app app arena``,
``flask --app app review-worker``, and for a player who asks the host,
``flask --app app player-data NAME`` and ``flask --app app forget-player NAME``, and
for a host moving to another database, ``flask --app app copy-database FROM``."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, NoReturn, cast

import click
import redis
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy.exc import SQLAlchemyError

from . import jobs
from .ai import BOTS
from .arena import report, run_arena
from .config import hide_password
from .db import copy, queries, shown_url
from .engine import (
    InvalidRecord,
    InvalidRules,
    InvalidSeed,
    check_seed,
    parse_rules_text,
    read_record,
    replay_summary,
)
from .sessions import redis_refusal


@click.command("replay")
@click.argument("file")
def replay_command(file: str) -> None:
    """Replay the game record FILE (``-`` for standard input, format 1 or 2)
    and print its score as one JSON object (docs/record-format.md).

    An unreadable or invalid record prints one line naming the problem on
    standard error, nothing on standard output, and exits with status 2.
    """
    try:
        if file == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(file, "rb") as handle:
                text = handle.read()
        record = read_record(text)
    except OSError as exc:
        _fail(f"cannot read {file}: {exc.strerror or exc}")
    except InvalidRecord as exc:
        _fail(str(exc))
    click.echo(json.dumps(replay_summary(record.state, record.version, record.rules)))


def _fail(message: str) -> NoReturn:
    click.echo(" ".join(message.split()), err=True)
    sys.exit(2)


#: The longest seed (``app.engine.shuffle.SEED_PATTERN``).
SEED_LENGTH = 64
#: With ``--worlds`` alone, a move's search stops at this time even short of
#: its worlds, in milliseconds.
WORLDS_TIME_LIMIT_MS = 10_000.0
#: The longest thinking time ``arena --budget-ms`` takes, in milliseconds.
MAX_BUDGET_MS = 60_000.0


@click.command("arena")
@click.option("--a", "level_a", required=True, type=click.Choice(list(BOTS)), help="First level.")
@click.option("--b", "level_b", required=True, type=click.Choice(list(BOTS)), help="Second level.")
@click.option(
    "--deals", default=200, show_default=True, type=click.IntRange(1), help="Duplicate deals."
)
@click.option("--seed", default="arena", show_default=True, help="Seed the deals come from.")
@click.option(
    "--rules",
    "rules_text",
    default="cardems",
    show_default=True,
    help="Rule set: cardems, classic or partners, with any house rules as in a "
    "deal link, e.g. 'classic&players=3&jack_pisti=10'.",
)
@click.option(
    "--jobs",
    default=os.cpu_count() or 1,
    show_default="all cores",
    type=click.IntRange(1),
    help="Worker processes.",
)
@click.option(
    "--budget-ms",
    type=float,
    default=None,
    help="Thinking time per move of searching levels, in milliseconds (1 to 60000).",
)
@click.option(
    "--worlds",
    type=click.IntRange(min=1),
    default=None,
    help="Worlds each move of searching levels samples, whatever the time it takes "
    "(with --budget-ms: whichever comes first).",
)
def arena_command(
    level_a: str,
    level_b: str,
    deals: int,
    seed: str,
    rules_text: str,
    jobs: int,
    budget_ms: float | None,
    worlds: int | None,
) -> None:
    """Play LEVEL A against LEVEL B over duplicate deals (each seeded deal
    played once per team, A at that team's seats and B at the others: with
    three or four solo players A's seat goes round the table) and print the
    mean point difference (A minus the others' mean) with its 95%
    confidence interval, the win/draw/loss rate and each level's decision
    time."""
    try:
        check_seed(seed)
    except InvalidSeed as exc:
        _fail(f"--seed: {exc}")
    last = f"-{deals - 1}"
    if len(seed) + len(last) > SEED_LENGTH:
        # The deals are seeded SEED-0 .. SEED-<deals - 1>: each must be a seed.
        _fail(
            f"--seed: at most {SEED_LENGTH - len(last)} characters with --deals {deals} (the "
            f"deals are seeded SEED-0 to SEED{last}, each at most {SEED_LENGTH}), not {len(seed)}"
        )
    try:
        parse_rules_text(rules_text)
    except InvalidRules as exc:
        _fail(str(exc))
    if budget_ms is not None and not 1 <= budget_ms <= MAX_BUDGET_MS:
        # FloatRange lets "nan" through (every comparison with it is false).
        _fail(f"--budget-ms must be a number of milliseconds from 1 to {MAX_BUDGET_MS:.0f}")
    if worlds is not None and budget_ms is None:
        budget_ms = WORLDS_TIME_LIMIT_MS
    result = run_arena(level_a, level_b, deals, seed, rules_text, jobs, budget_ms, worlds)
    click.echo(report(result, level_a, level_b))


@click.command(jobs.WORKER_COMMAND)
@click.option("--burst", is_flag=True, help="Stop once the queue is empty.")
@with_appcontext
def review_worker_command(burst: bool) -> None:
    """Run review summaries from the RQ queue in Redis (FLASK_REDIS_URL),
    one at a time on one core, niced (app.jobs.work), until stopped
    (Ctrl-C or SIGTERM: the job in hand is finished first).

    Run as many workers as the cores the reviews may take. Without a
    review queue (FLASK_SESSION_BACKEND=redis or FLASK_REVIEW_QUEUE=true,
    and FLASK_REDIS_URL), or when its Redis does not answer or refuses it
    (a wrong password, say), prints one line and exits with status 2 (a
    process manager may start it again).
    """
    app: Flask = cast(Any, current_app)._get_current_object()
    if not jobs.uses_queue(app):
        _fail(
            "no review queue to work on: set FLASK_REDIS_URL and FLASK_SESSION_BACKEND=redis "
            "(or FLASK_REVIEW_QUEUE=true); without them the server runs its reviews itself"
        )
    # Like the server's first line: what this worker works on.
    redis_url = hide_password(app.config["REDIS_URL"])
    database = shown_url()
    jobs.WORKER_LOG.info(
        "review worker: queue %r in Redis at %s; database: %s",
        jobs.QUEUE,
        redis_url,
        database,
        extra={"fields": {"queue": jobs.QUEUE, "redis": redis_url, "database": database}},
    )
    try:
        jobs.work(app, burst=burst)
    except redis.RedisError as error:
        refused = redis_refusal(error, app.config["REDIS_URL"])
        if refused is not None:
            _fail(f"the review queue's {refused}")
        if not isinstance(error, (redis.ConnectionError, redis.TimeoutError)):
            raise
        _fail(f"the review queue's Redis (FLASK_REDIS_URL) does not answer: {error}")


@click.command("player-data")
@click.argument("name")
@with_appcontext
def player_data_command(name: str) -> None:
    """Print, as JSON, everything the database keeps about the player
    called NAME (whatever its case): what their profile's "Download your
    data" gives. An unknown name prints one line and exits with status 2."""
    player = queries.player_named(name)
    data = queries.player_data(player.id) if player is not None else None
    if data is None:
        _fail(f"no player is called {name!r}")
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.command("forget-player")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask before deleting.")
@with_appcontext
def forget_player_command(name: str, yes: bool) -> None:
    """Delete the player called NAME (whatever its case) with everything
    kept under the name, as their profile's "Forget me" does: for a player
    who has lost their devices. Asks first unless --yes; an unknown name
    prints one line and exits with status 2."""
    player = queries.player_named(name)
    if player is None:
        _fail(f"no player is called {name!r}")
    shown, games = player.name, player.games
    if not yes:
        click.confirm(f"Delete {shown!r} and their {games} game(s) for good?", abort=True)
    queries.forget_player(player.id)
    click.echo(f"deleted {shown!r} and their {games} game(s); the name is free again")


@click.command("copy-database")
@click.argument("source")
@with_appcontext
def copy_database_command(source: str) -> None:
    """Copy every row (players, results, Daily entries and deals, tasks,
    leaderboards, story progress, reviews) of the database SOURCE, a SQLite
    file's path or a postgresql:// URL, into this app's database
    (FLASK_DATABASE_URL), which must be empty (as a new database is once
    the app has made its tables); both at this version's migration. One
    line per table with the rows copied; a copy refused, or a database
    that cannot be reached, prints one line and exits with status 2,
    having written nothing."""
    app: Flask = cast(Any, current_app)._get_current_object()
    try:
        copied = copy.copy_database(copy.source_url(source, app.instance_path))
    except copy.CopyRefused as error:
        _fail(f"nothing copied: {error}")
    except SQLAlchemyError as error:
        # The driver's first line only: the rest may hold a row's values.
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        _fail(f"nothing copied: a database could not be read or written: {reason}")
    for table, rows in copied.items():
        click.echo(f"{table}: {rows} rows")
    click.echo(f"copied into {shown_url()}")


def register_cli(app: Flask) -> None:
    """Add the project's commands to ``app.cli``."""
    app.cli.add_command(replay_command)
    app.cli.add_command(arena_command)
    app.cli.add_command(review_worker_command)
    app.cli.add_command(player_data_command)
    app.cli.add_command(forget_player_command)
    app.cli.add_command(copy_database_command)
