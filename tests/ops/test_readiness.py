"""``/readyz``: 200 while the database and the session store answer, 503
naming what does not; ``/healthz`` stays 200 meanwhile (the process is up)."""

from __future__ import annotations

import json
import shutil

from app import create_app
from benchmarks.postgres_server import PostgresServer
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
    shutil.rmtree(tmp_path / "sessions")
    assert readiness(app) == (503, {"status": "unready", "failing": ["sessions"]})
    assert app.test_client().get("/healthz").status_code == 200
    assert '"event": "not ready: the sessions: ' in capsys.readouterr().out


def test_redis_down_is_unready_for_the_sessions_and_the_review_queue(redis_server):
    app = redis_app(redis_server)
    assert readiness(app)[0] == 200
    redis_server.kill()
    assert readiness(app) == (503, {"status": "unready", "failing": ["sessions", "review queue"]})
    assert app.test_client().get("/healthz").status_code == 200


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
