"""Fixtures for the operations tests: throwaway Redis and app servers
(stopped after each test), and the browser set-up of the browser tests."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app import create_app
from benchmarks.load_servers import RedisServer, Server
from tests.e2e.conftest import browser_type_launch_args  # noqa: F401 (the Chromium set-up)

SECRET = "ops-tests-secret-key"


def clear_of_a_minutes_edge(margin: float = 15.0) -> None:
    """Wait, when the next whole minute of the clock is less than ``margin``
    seconds away, until it has begun. A served server counts its rate
    limits per minute in windows of whole minutes (the sliding window
    counter; a test's stand-in clock cannot reach that process): a test's
    hits astride a minute's edge let one more through than the limit."""
    left = 60 - time.time() % 60
    if left < margin:
        time.sleep(left)


def a_server(
    tmp_path: Path, database: Path, port: int, env: dict[str, str] | None = None, **options
) -> subprocess.Popen:
    """``python -m app.serve`` on ``port`` (0: any free one) with SQLite
    ``database`` and sessions under ``tmp_path``, ``env`` over the
    environment, its output (text) on one pipe; ``options`` go to
    :class:`subprocess.Popen`."""
    return subprocess.Popen(
        [sys.executable, "-m", "app.serve", "--listen", f"127.0.0.1:{port}"],
        cwd=Path(__file__).resolve().parents[2],
        env={
            **os.environ,
            "FLASK_SECRET_KEY": "0123456789abcdef",
            "FLASK_DATABASE_URL": f"sqlite:///{database}",
            "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
            **(env or {}),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        **options,
    )


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


def stop_while_migrating(
    start: Callable[[], subprocess.Popen], database: Path, stop: signal.Signals
) -> tuple[int, str]:
    """Start a process (``start()``, its output as text on one pipe) whose
    start-up migrates the SQLite ``database``, while another process holds
    the migration's lock; once it waits on that lock, send it ``stop``.
    Return its exit status and output (it must end within 20 s)."""
    lock_path = Path(f"{database}.migrate-lock")
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        process = start()
        try:
            # Waiting on the lock: the start-up's work has begun.
            deadline = time.monotonic() + 90
            while not _holds_open(process.pid, lock_path):
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
            time.sleep(0.2)
            process.send_signal(stop)
            output, _ = process.communicate(timeout=20)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
    return process.returncode, output


def _holds_open(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has the file ``path`` open (Linux's /proc)."""
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        try:
            if fd.readlink() == path:
                return True
        except OSError:
            continue
    return False
