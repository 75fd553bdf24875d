"""``/readyz``: 200 while the database and the session store answer, 503
naming what does not; ``/healthz`` stays 200 meanwhile (the process is up)."""

from __future__ import annotations

import json
import os
import shutil
import signal

from app import create_app
from app.web import game
from benchmarks.postgres_server import PostgresServer
from tests.conftest import start_deal
from tests.ops.test_redis import redis_app


def readiness(app) -> tuple[int, dict]:
    answer = app.test_client().get("/readyz")
    assert answer.headers.get("Set-Cookie") is None
    return answer.status_code, json.loads(answer.get_data(as_text=True))


def test_ready_while_everything_answers_and_nothing_is_stored(tmp_path):
    app = create_app({"SECRET_KEY": "ready", "SESSION_FILE_DIR": str(tmp_path / "sessions")})
    before = sorted((tmp_path / "sessions").iterdir())
    assert readiness(app) == (200, {"status": "ready"})
    assert sorted((tmp_path / "sessions").iterdir()) == before


def test_a_sessions_folder_gone_is_unready(tmp_path, capsys):
    app = create_app({"SECRET_KEY": "ready", "SESSION_FILE_DIR": str(tmp_path / "sessions")})
    player = app.test_client()
    start_deal(player, "/deal/folder-gone")
    shutil.rmtree(tmp_path / "sessions")
    assert readiness(app) == (503, {"status": "unready", "failing": ["sessions"]})
    assert app.test_client().get("/healthz").status_code == 200
    assert '"event": "not ready: the sessions: ' in capsys.readouterr().out
    # A player's game cannot be read: the store is out, not the game.
    table = player.get("/game")
    assert table.status_code == 503
    assert "The game store is not answering right now" in table.get_data(as_text=True)
    assert app.test_client().get("/").status_code == 200  # a passer-by needs no store


def test_redis_down_is_unready_for_the_sessions_and_the_review_queue(redis_server):
    app = redis_app(redis_server)
    assert readiness(app)[0] == 200
    redis_server.kill()
    assert readiness(app) == (503, {"status": "unready", "failing": ["sessions", "review queue"]})
    assert app.test_client().get("/readyz").headers["Retry-After"] == "5"
    assert app.test_client().get("/healthz").status_code == 200


def test_a_redis_that_hangs_is_unready_once_the_checks_time_runs_out(
    redis_server, monkeypatch, caplog
):
    # A probe must get its 503 before its own timeout, not wait on Redis's.
    app = redis_app(redis_server)
    monkeypatch.setattr(game, "READY_SECONDS", 0.3)
    os.kill(redis_server.process.pid, signal.SIGSTOP)
    try:
        assert readiness(app) == (
            503,
            {"status": "unready", "failing": ["sessions", "review queue"]},
        )
    finally:
        os.kill(redis_server.process.pid, signal.SIGCONT)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("not ready")]
    assert "not ready: the sessions: no answer within 0.3 s" in said


def test_postgresql_down_is_unready_for_the_database(tmp_path):
    server = PostgresServer().start()
    try:
        app = create_app(
            {
                "SECRET_KEY": "ready",
                "SESSION_FILE_DIR": str(tmp_path / "sessions"),
                "DATABASE_URL": server.create_database("ready"),
            }
        )
        assert readiness(app)[0] == 200
    finally:
        server.stop()
    assert readiness(app) == (503, {"status": "unready", "failing": ["database"]})
