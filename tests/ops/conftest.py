"""Fixtures for the operations tests: throwaway Redis and app servers
(stopped after each test), and the browser set-up of the browser tests."""

from __future__ import annotations

import pytest

from app import create_app
from benchmarks.load_servers import RedisServer, Server
from tests.e2e.conftest import browser_type_launch_args  # noqa: F401 (the Chromium set-up)

SECRET = "ops-tests-secret-key"


@pytest.fixture
def redis_server(tmp_path):
    """Debian's redis-server on a free loopback port, writing every change
    to an append-only file so a restart after a kill keeps the sessions."""
    server = RedisServer(tmp_path / "redis", persistent=True).start()
    yield server
    server.stop()


@pytest.fixture
def queue_app(tmp_path, redis_server):
    """An app as a replica runs it: sessions in Redis, so reviews go to RQ."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": SECRET,
            "SESSION_BACKEND": "redis",
            "REDIS_URL": redis_server.url,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
        }
    )


@pytest.fixture
def serve(tmp_path):
    """Start the app as served: ``serve(env)`` with ``FLASK_*`` variables
    (a fixed secret key and the rate limit off unless given); keyword
    arguments go to :class:`Server`. Every server started is stopped after
    the test."""
    servers = []

    def start(env: dict[str, str] | None = None, **options) -> Server:
        server = Server(
            tmp_path / f"server-{len(servers)}.log",
            env={"FLASK_SECRET_KEY": SECRET, "FLASK_RATELIMIT_ENABLED": "false", **(env or {})},
            **options,
        )
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()
