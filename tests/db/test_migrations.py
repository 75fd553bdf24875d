"""The schema comes from the migrations, matches the models, and running
the migrations again (at every start, or by hand) keeps the data."""

from __future__ import annotations

import fcntl
import gc
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import threading
import uuid
from dataclasses import replace

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event, func, insert, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.sql.schema import DEFAULT_NAMING_CONVENTION

import app.db as app_db
from app import StartupError, create_app
from app.db import MIGRATIONS, SCHEMA, db, queries
from app.db.facts import GameFacts
from app.db.models import Player, Result
from tests.db.conftest import make_app

#: The newest migration.
HEAD = ScriptDirectory(str(MIGRATIONS)).get_current_head()
#: The one before it.
PREVIOUS = ScriptDirectory(str(MIGRATIONS)).get_revision(HEAD).down_revision
#: The migration that gave the constraints the naming convention's names.
NAMING = "0011_constraint_names"
#: The one before it.
BEFORE_NAMING = ScriptDirectory(str(MIGRATIONS)).get_revision(NAMING).down_revision


def test_the_migrated_schema_matches_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def constraint_names(connection) -> dict[str, set[str | None]]:
    """Each table's primary key, unique and foreign key constraints' names."""
    found = inspect(connection)
    return {
        table: {
            found.get_pk_constraint(table)["name"],
            *(unique["name"] for unique in found.get_unique_constraints(table)),
            *(key["name"] for key in found.get_foreign_keys(table)),
        }
        for table in db.metadata.tables
    }


def descending_indexes(connection) -> set[str]:
    """The indexes with a column in descending order, as the database has them."""
    if connection.dialect.name == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%DESC%'"
    else:
        sql = "SELECT indexname FROM pg_indexes WHERE indexdef LIKE '%DESC%'"
    return set(connection.scalars(text(sql)))


def test_a_schema_made_before_the_naming_convention_takes_its_names(
    database_url, tmp_path, monkeypatch
):
    # The constraints had PostgreSQL's own names (players_pkey,
    # results_player_id_fkey) and none on SQLite, so a migration could not
    # drop one by a name that holds on both; 0011 gives them the models'
    # convention's, keeping the rows and the descending indexes (SQLite's
    # copy of a table would have made them ascending), and its downgrade
    # gives PostgreSQL's back.
    monkeypatch.setattr(db.metadata, "naming_convention", DEFAULT_NAMING_CONVENTION)
    app = make_app(database_url, tmp_path)
    runner = app.test_cli_runner()
    for command in (["downgrade", "base"], ["upgrade", BEFORE_NAMING]):
        result = runner.invoke(args=["db", *command])
        assert result.exit_code == 0, result.output
    with app.app_context():
        record_one_game("Adsız")
        with db.engine.connect() as connection:
            before = constraint_names(connection)
        db.engine.dispose()
    sqlite = make_url(database_url).get_backend_name() == "sqlite"
    assert before["players"] == (
        {None} if sqlite else {"players_pkey", "players_name_key_key", "players_transfer_hash_key"}
    )
    monkeypatch.undo()
    wanted = {
        table.name: {constraint.name for constraint in table.constraints}
        for table in db.metadata.tables.values()
    }
    assert wanted["results"] == {
        "pk_results",
        "fk_results_player_id_players",
        "uq_results_player_game",
    }
    for command in (["upgrade"], ["downgrade", BEFORE_NAMING], ["upgrade"]):
        result = runner.invoke(args=["db", *command])
        assert result.exit_code == 0, result.output
        with app.app_context(), db.engine.connect() as connection:
            names = constraint_names(connection)
            if command == ["upgrade"]:
                assert names == wanted
                assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
            elif not sqlite:
                assert names == before
            assert descending_indexes(connection) == {
                "ix_players_rank",
                "ix_results_deal",
                "ix_daily_rank",
                "ix_weekly_rank",
            }
            assert connection.execute(text("SELECT name, points FROM players")).all() == [
                ("Adsız", 12)
            ]
            assert connection.scalar(text("SELECT points FROM results")) == 12
        with app.app_context():
            db.engine.dispose()


def test_a_restart_and_the_upgrade_command_keep_the_data(app, database_url, tmp_path):
    with app.app_context():
        queries.create_player("Kalıcı")
    again = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "db-tests-secret",
            "SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "DATABASE_URL": database_url,
        }
    )
    result = again.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with again.app_context():
        assert db.session.scalar(select(Player.name)) == "Kalıcı"
        assert db.session.scalar(select(func.count()).select_from(Player)) == 1
        db.session.remove()
        db.engine.dispose()


def record_one_game(name: str) -> None:
    """Make a player called ``name`` with one game won (in an app context),
    writing only the columns that the players table had from its first
    migration on, so it works on an earlier migration's schema too."""
    made = {"name": name, "name_key": queries.name_key(name), "created_at": queries.utcnow()}
    player_id = db.session.execute(insert(Player).values(made).returning(Player.id)).scalar_one()
    queries._new_token(player_id)
    queries._count_scores({0: 1})
    db.session.commit()
    facts = GameFacts(
        game_id="g", rules="cardems", target=None, seed="s", levels=("hard",),
        outcome="win", points=12, opp_points=3, hands=1, pistis=1, jack_pistis=0,
        most_cards=1, ten_of_diamonds=1, two_of_clubs=0, used_jack=False,
    )  # fmt: skip
    queries.record_result(player_id, facts)
    db.session.remove()


def test_a_downgrade_to_an_older_versions_migration_keeps_players_and_results(
    app, database_url, tmp_path
):
    # The README's way back to an older version without a restore: the
    # newer version takes the schema down to the older one's migration
    # (0004_reviews, before the name keys), and the rows stay.
    with app.app_context():
        record_one_game("Geri")
        db.engine.dispose()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["db", "downgrade", "0004_reviews"])
    assert result.exit_code == 0, result.output
    with app.app_context(), db.engine.connect() as connection:
        assert connection.scalar(text("SELECT version_num FROM alembic_version")) == "0004_reviews"
        assert connection.execute(text("SELECT name, points FROM players")).all() == [("Geri", 12)]
        assert connection.scalar(text("SELECT points FROM results")) == 12
    with app.app_context():
        db.engine.dispose()
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.session.scalar(select(Player.name)) == "Geri"
        db.session.remove()
        db.engine.dispose()


def _readme_restore() -> list[list[str]]:
    """The README's commands that restore a PostgreSQL copy (Backups)."""
    readme = (MIGRATIONS.parent / "README.md").read_text()
    block = re.search(r"```sh\n  (psql -U pisti -d pisti .*?)\n  (pg_restore .*?)\n  ```", readme)
    assert block is not None, "the README's PostgreSQL restore commands"
    return [shlex.split(line) for line in block.groups()]


def test_an_older_copy_restored_as_the_readme_says_upgrades_at_the_next_start(postgres, tmp_path):
    # Going back after an upgrade: the copy, made by an older version, is
    # restored over the upgraded database; the next start upgrades it
    # again. pg_restore --clean alone left the tables the newer version
    # added, and that upgrade stopped: 'relation "daily_deals" already
    # exists'.
    url = make_url(postgres.create_database(f"t_{uuid.uuid4().hex[:12]}"))
    settings = {
        "TESTING": True,
        "SECRET_KEY": "db-tests-secret",
        "SESSION_FILE_DIR": str(tmp_path / "sessions"),
        "DATABASE_URL": url.render_as_string(hide_password=False),
    }
    app = create_app(settings)
    with app.app_context():
        queries.create_player("Yedek")
        db.session.remove()
        db.engine.dispose()
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "downgrade", "0004_reviews"]).exit_code == 0
    dump = tmp_path / "pisti.dump"
    connect = ["-h", str(url.host), "-p", str(url.port), "-U", str(url.username)]
    subprocess.run(
        [str(postgres.bin / "pg_dump"), "-Fc", *connect, "-f", str(dump), str(url.database)],
        check=True,
    )
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        queries.create_player("Sonra")  # recorded after the copy: lost
        db.session.remove()
        db.engine.dispose()

    for command in _readme_restore():
        program, *words = command
        # This cluster's host, port, user and database for the README's own.
        arguments = ["-d", str(url.database)]
        given = iter(words)
        for word in given:
            if word in ("-U", "-d"):
                next(given)
            else:
                arguments.append(str(dump) if word == "pisti.dump" else word)
        done = subprocess.run(
            [str(postgres.bin / program), *connect, *arguments], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
    again = create_app(settings)
    with again.app_context():
        assert db.session.scalars(select(Player.name)).all() == ["Yedek"]
        db.session.remove()
        db.engine.dispose()


def start_up_refusal(database_url: str, tmp_path) -> str:
    """The one line of the :class:`StartupError` with which an app on
    ``database_url`` refuses to start."""
    settings = {
        "TESTING": True,
        "SECRET_KEY": "db-tests-secret",
        "SESSION_FILE_DIR": str(tmp_path / "sessions"),
        "DATABASE_URL": database_url,
    }
    with pytest.raises(StartupError) as raised:
        create_app(settings)
    message = str(raised.value)
    # The app that did not start left no connection open (one collected
    # open is an error of this test, not of a later one).
    del raised
    gc.collect()
    return message


def test_a_database_a_newer_version_upgraded_stops_start_up_saying_so(app, database_url, tmp_path):
    with app.app_context():
        db.session.execute(text("UPDATE alembic_version SET version_num = '0099_future'"))
        db.session.commit()
        db.engine.dispose()
    assert start_up_refusal(database_url, tmp_path) == (
        "the app cannot start: the database (FLASK_DATABASE_URL) cannot be used: Can't locate "
        "revision identified by '0099_future'; a newer version of Pişti has upgraded this "
        "database: run that version, or restore the backup taken before the upgrade"
    )
    with app.app_context():  # the database is left as it was
        assert db.session.scalar(text("SELECT version_num FROM alembic_version")) == "0099_future"
        db.session.execute(text("UPDATE alembic_version SET version_num = :head"), {"head": HEAD})
        db.session.commit()


def test_a_postgresql_user_that_may_not_make_tables_is_told_to_own_the_database(postgres, tmp_path):
    """PostgreSQL 15 and later let only a database's owner make tables in
    its public schema: a database made by another role (without
    ``createdb --owner``) stops start-up with what to do about it."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    role = f"r_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(
        make_url(postgres.url()).set(drivername="postgresql").render_as_string(hide_password=False),
        autocommit=True,
    ) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN')
    postgres.create_database(name)  # owned by the cluster's own user, not the app's
    url = make_url(postgres.url(name)).set(username=role).render_as_string(hide_password=False)
    assert start_up_refusal(url, tmp_path) == (
        "the app cannot start: the database (FLASK_DATABASE_URL) cannot be used: permission "
        "denied for schema public; the user in FLASK_DATABASE_URL makes the tables, so it must "
        "own the database (createdb --owner pisti pisti, or ALTER DATABASE pisti OWNER TO pisti)"
    )


def test_the_db_commands_find_the_schema_as_it_is(app, database_url, tmp_path):
    # `flask db current` reports, it does not upgrade first (an admin
    # checks before a backup); `db upgrade` then does.
    with app.app_context():
        db.engine.dispose()
    env = {
        **os.environ,
        "FLASK_SECRET_KEY": "db-tests-secret-of-the-commands",
        "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
        "FLASK_DATABASE_URL": database_url,
    }

    said: list[str] = []

    def flask(*words: str) -> str:
        command = [sys.executable, "-m", "flask", "--app", "app", *words]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        said.append(done.stderr)
        return done.stdout

    flask("db", "downgrade", PREVIOUS)
    assert said[-1].splitlines()[-1].startswith(f"Running downgrade {HEAD} -> {PREVIOUS}")
    assert flask("db", "current").strip() == PREVIOUS
    assert flask("db", "history").startswith(f"{PREVIOUS} -> {HEAD} (head)")
    assert flask("db", "current").strip() == PREVIOUS
    # Which database, and what the upgrade did, on standard error; no
    # password.
    where = make_url(database_url).render_as_string(hide_password=True)
    assert said[-1] == f"Database {where}: at {PREVIOUS}; this version's newest is {HEAD}\n"
    flask("db", "upgrade")
    first, ran = said[-1].splitlines()
    assert first == f"Database {where}: at {PREVIOUS}; this version's newest is {HEAD}"
    assert ran.startswith(f"Running upgrade {PREVIOUS} -> {HEAD}, ")
    assert flask("db", "current").strip() == f"{HEAD} (head)"
    flask("db", "upgrade")
    assert said[-1] == f"Database {where}: at {HEAD}, the newest\n"
    # An error is said on standard error too, standard output kept clean.
    command = [sys.executable, "-m", "flask", "--app", "app", "db", "downgrade", "nonsense"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines()[-1] == "Error: Can't locate revision identified by 'nonsense'"


def test_the_db_commands_say_an_empty_schema_and_a_newer_versions(tmp_path):
    path = tmp_path / "pisti.db"
    env = {
        **os.environ,
        "FLASK_SECRET_KEY": "db-tests-secret-of-the-commands",
        "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
        "FLASK_DATABASE_URL": f"sqlite:///{path}",
    }

    def first_line_of(*words: str) -> str:
        command = [sys.executable, "-m", "flask", "--app", "app", "db", *words]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        return done.stderr.splitlines()[0]

    said = first_line_of("current")
    assert said == f"Database sqlite:///{path}: empty; this version's newest schema is {HEAD}"
    first_line_of("upgrade")
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099_future'")
    said = first_line_of("current")
    assert said == (
        f"Database sqlite:///{path}: at 0099_future, "
        "which this version does not know (a newer version's)"
    )


def test_of_two_servers_starting_at_once_one_says_it_upgraded(database_url, tmp_path):
    # On an empty database, two servers (processes, as replicas are) start
    # together: the migrations run once, and only the one that ran them
    # says "upgraded empty to ..."; the other found the schema made (read
    # under the lock, not before it).
    script = (
        "from app import create_app; from app.db import SCHEMA; "
        "print(create_app().extensions[SCHEMA])"
    )
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", script],
            env={
                **os.environ,
                "FLASK_SECRET_KEY": "db-tests-secret-of-the-commands",
                "FLASK_SESSION_FILE_DIR": str(tmp_path / name),
                "FLASK_DATABASE_URL": database_url,
            },
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    found = sorted(start.communicate(timeout=120)[0].strip() for start in starts)
    assert found == [f"('{HEAD}', '{HEAD}')", f"(None, '{HEAD}')"]


def test_the_db_commands_migrate_an_sqlite_file_in_turn_with_a_starting_server(tmp_path):
    """``flask --app app db upgrade`` (or ``downgrade``) migrates an SQLite
    file under the lock a starting server holds while it migrates, so a
    server started meanwhile does not run the same migrations at the same
    time (SQLite's DDL is not transactional under Alembic)."""
    path = tmp_path / "pisti.db"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "db-tests-secret",
            "SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "DATABASE_URL": f"sqlite:///{path}",
        }
    )
    done = threading.Event()

    def downgrade() -> None:
        with app.app_context():
            flask_migrate.downgrade(directory=str(MIGRATIONS), revision="base")
        done.set()

    # As a server starting on the same file holds it while it migrates.
    with open(f"{path}.migrate-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        worker = threading.Thread(target=downgrade)
        worker.start()
        assert not done.wait(1.5)  # waiting its turn
    worker.join(timeout=60)
    assert done.is_set()
    with app.app_context():
        with db.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() is None
        db.engine.dispose()


#: A later migration that changes a column of the players table, which
#: SQLite's batch mode does by rebuilding the table (copy, drop the old
#: table, rename).
REBUILDS_PLAYERS = f'''"""rebuild players

Revision ID: 9999_rebuild
Revises: {HEAD}
"""

import sqlalchemy as sa
from alembic import op

revision = "9999_rebuild"
down_revision = "{HEAD}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.alter_column("name", existing_type=sa.String(24), type_=sa.String(30))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.alter_column("name", existing_type=sa.String(30), type_=sa.String(24))
'''


def test_a_migration_that_rebuilds_the_players_table_keeps_their_rows(app, tmp_path):
    # On SQLite a batch migration drops the old table; with foreign keys
    # enforced, dropping "players" deleted every player's results, devices,
    # tasks and weekly totals (ON DELETE CASCADE), though the players
    # themselves were copied over.
    with app.app_context():
        record_one_game("Kalan")
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, migrations)
    (migrations / "versions" / "9999_rebuild.py").write_text(REBUILDS_PLAYERS)
    tables = ("players", "results", "player_tokens", "weekly_totals", "player_tasks")
    counted = "SELECT " + ", ".join(f"(SELECT count(*) FROM {table})" for table in tables)
    with app.app_context():
        before = db.session.execute(text(counted)).one()
        db.session.remove()
        assert before == (1, 1, 1, 1, 4)
        for revision in ("9999_rebuild", HEAD):
            if revision == HEAD:
                flask_migrate.downgrade(directory=str(migrations), revision=HEAD)
            else:
                flask_migrate.upgrade(directory=str(migrations))
            assert db.session.execute(text(counted)).one() == before, revision
            db.session.remove()
        # Foreign keys are enforced again on the app's connections.
        db.session.execute(text("DELETE FROM players"))
        assert db.session.scalar(select(func.count()).select_from(Result)) == 0
        db.session.rollback()


def test_a_replica_waits_for_anothers_migrations_longer_than_a_page_waits(
    postgres, tmp_path, monkeypatch
):
    # Pages give up on a lock after LOCK_WAIT_MS (a 503); a replica that
    # starts while another migrates waits for it however long that takes.
    import psycopg

    monkeypatch.setattr(app_db, "LOCK_WAIT_MS", 100)
    url = postgres.create_database(f"t_{uuid.uuid4().hex[:12]}")
    migrating = psycopg.connect(make_url(url).set(drivername="postgresql").render_as_string(False))
    # migrations/env.py's advisory lock, held by "another replica" for 1 s.
    migrating.execute("SELECT pg_advisory_xact_lock(x'7069737469'::bigint)")
    releasing = threading.Timer(1.0, migrating.rollback)
    releasing.start()
    try:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "db-tests-secret",
                "SESSION_FILE_DIR": str(tmp_path / "sessions"),
                "DATABASE_URL": url,
            }
        )
    finally:
        releasing.join()
        migrating.close()
    assert app.extensions[SCHEMA] == (None, HEAD)
    with app.app_context():
        db.engine.dispose()


def _plans_of(run) -> list[str]:
    """The query plans of the SELECTs ``run()`` sends to the database, as
    one text each (SQLite's ``EXPLAIN QUERY PLAN``; PostgreSQL's
    ``EXPLAIN`` with sequential scans priced out, as they would be with a
    year of results rather than a test's few)."""
    sent: list[tuple[str, object]] = []

    def keep(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("SELECT"):
            sent.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", keep)
    try:
        run()
    finally:
        event.remove(db.engine, "before_cursor_execute", keep)
    plans = []
    with db.engine.connect() as connection:
        cursor = connection.connection.driver_connection.cursor()
        if connection.dialect.name == "postgresql":
            cursor.execute("SET enable_seqscan = off")
            cursor.execute("SET enable_bitmapscan = off")
        explain = "EXPLAIN QUERY PLAN" if connection.dialect.name == "sqlite" else "EXPLAIN"
        for statement, parameters in sent:
            cursor.execute(f"{explain} {statement}", parameters)
            plans.append(" | ".join(str(row[-1]) for row in cursor.fetchall()))
    return plans


def test_a_players_statistics_and_story_read_their_games_from_one_index(app, database_url):
    # The statistics page's sums and the story path's tallies read every
    # result of the player; 0018_results_player_games holds all they read,
    # so the database never fetches the player's rows from the table. A
    # downgrade drops the index, the upgrade makes it again, rows kept.
    with app.app_context():
        record_one_game("Çok Oynayan")
        player_id = db.session.scalar(select(Player.id))
        reads = [
            lambda: queries.games_by_rules_and_level(player_id),
            lambda: queries.hand_totals(player_id),
            lambda: queries.games_against(player_id, ["hayriye", "nuri"], "classic", 51),
        ]
        for read in reads:
            plans = _plans_of(read)
            assert len(plans) == 1
            if db.engine.dialect.name == "sqlite":
                assert "USING COVERING INDEX ix_results_player_games" in plans[0]
            else:
                assert "Index Only Scan using ix_results_player_games" in plans[0]
        assert queries.hand_totals(player_id)["pistis"] == 1
        db.session.remove()
        db.engine.dispose()
    runner = app.test_cli_runner()
    before = "0017_capital_saltillo_look_keys"
    assert runner.invoke(args=["db", "downgrade", before]).exit_code == 0
    with app.app_context(), db.engine.connect() as connection:
        assert "ix_results_player_games" not in {
            index["name"] for index in inspect(connection).get_indexes("results")
        }
    with app.app_context():
        db.engine.dispose()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context(), db.engine.connect() as connection:
        assert "ix_results_player_games" in {
            index["name"] for index in inspect(connection).get_indexes("results")
        }
        assert connection.scalar(text("SELECT count(*) FROM results")) == 1


def test_recording_a_daily_game_finds_the_players_games_of_that_deal_by_index(app, database_url):
    # Whether the player finished that day's deal before (a known deal,
    # unranked, its tasks held back) was answered by reading every result
    # of the player; 0019_results_player_daily goes straight to their games
    # of that day and rule set. A downgrade drops it, rows kept.
    with app.app_context():
        record_one_game("Her Gün")
        player_id = db.session.scalar(select(Player.id))
        facts = GameFacts(
            game_id="d2", rules="cardems", target=None, seed="s", levels=("hard",),
            outcome="win", points=12, opp_points=3, hands=1, pistis=1, jack_pistis=0,
            most_cards=1, ten_of_diamonds=1, two_of_clubs=0, used_jack=False,
            daily_day=queries.utcnow().date(),
        )  # fmt: skip
        plans = _plans_of(lambda: queries._finished_daily_before(player_id, facts))
        assert len(plans) == 1
        if db.engine.dialect.name == "sqlite":
            assert "USING COVERING INDEX ix_results_player_daily" in plans[0]
        else:
            assert re.search(r"Index (Only )?Scan using ix_results_player_daily", plans[0])
        assert queries._finished_daily_before(player_id, facts) is False
        queries.record_result(player_id, replace(facts, game_id="d1"))
        assert queries._finished_daily_before(player_id, facts) is True
        db.session.remove()
        db.engine.dispose()
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "downgrade", PREVIOUS]).exit_code == 0
    with app.app_context(), db.engine.connect() as connection:
        assert "ix_results_player_daily" not in {
            index["name"] for index in inspect(connection).get_indexes("results")
        }
        assert connection.scalar(text("SELECT count(*) FROM results")) == 2
