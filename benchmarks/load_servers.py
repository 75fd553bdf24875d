"""Throwaway servers on free loopback ports for the load test and the
reliability tests: Debian's ``redis-server`` and the app as served.

Both run in the foreground as child processes, so stopping them (or leaving
the ``with`` block) leaves nothing running.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

from app.serve import THREADS

ROOT = Path(__file__).resolve().parent.parent
#: Seconds a server gets to start answering before it counts as broken:
#: generous, as a machine running other work starts one in 5 to 30 s.
START_TIMEOUT = 90


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """``redis-server`` on 127.0.0.1 with its files in ``folder``.

    With ``persistent`` it writes every change to an append-only file
    before answering, so a restart after :meth:`kill` finds every session;
    else it keeps nothing on disk.
    """

    def __init__(self, folder: Path, persistent: bool = False) -> None:
        self.folder = folder
        self.persistent = persistent
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The server's ``redis://`` URL."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        """Start the server (again, on the same port) and wait until it
        answers PING.

        Raises:
            FileNotFoundError: ``redis-server`` is not installed.
            RuntimeError: it exited or did not answer in time.
        """
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        persistence = (
            ["--appendonly", "yes", "--appendfsync", "always"]
            if self.persistent
            else ["--appendonly", "no"]
        )
        self.folder.mkdir(parents=True, exist_ok=True)
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 (held by the server process)
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--dir",
                str(self.folder),
                *persistence,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        _wait_until(self._answers, self.process, "redis-server")
        return self

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), as a crash would."""
        _end(self.process, signal.SIGKILL)

    def stop(self) -> None:
        """Stop the server (SIGTERM) and wait for it."""
        _end(self.process, signal.SIGTERM)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Server:
    """The app as served (``python -m app.serve``: waitress, one process)
    from the repository root on 127.0.0.1, with ``env`` added to this
    process's environment; output goes to ``log``. It counts as started
    when ``ready_path`` answers 200, asked with the Host ``ready_host``
    when given (a server with trusted hosts answers others 400).

    ``read_timeout`` sets the seconds a request may take to arrive
    (``--read-timeout``). ``app="hello"`` serves :mod:`benchmarks.load_hello` instead, with
    waitress's own command on the same thread count, for the load test's
    ceiling. A configuration error stops the app's server at start-up.
    """

    def __init__(
        self,
        log: Path,
        env: dict[str, str] | None = None,
        app: str = "app",
        threads: int | None = None,
        port: int | None = None,
        ready_path: str = "/healthz",
        ready_host: str | None = None,
        read_timeout: float | None = None,
    ) -> None:
        self.log = log
        self.env = env or {}
        self.app = app
        self.threads = threads or THREADS
        self.port = port or free_port()
        self.ready_path = ready_path
        self.ready_host = ready_host
        self.read_timeout = read_timeout
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The server's base URL, without a trailing slash."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        """Start the server (again, on the same port) and wait until it
        answers.

        Raises:
            RuntimeError: the server exited or did not answer in time (the
                log says why).
        """
        listen = f"127.0.0.1:{self.port}"
        if self.app == "hello":
            command = ["waitress", f"--listen={listen}", f"--threads={self.threads}"]
            command.append("benchmarks.load_hello:app")
        else:
            command = ["app.serve", "--listen", listen, "--threads", str(self.threads)]
            if self.read_timeout is not None:
                command += ["--read-timeout", str(self.read_timeout)]
        log = open(self.log, "ab")  # noqa: SIM115 (held by the server process)
        self.process = subprocess.Popen(
            [sys.executable, "-m", *command],
            cwd=ROOT,
            env={**os.environ, **self.env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        _wait_until(self._answers, self.process, f"the server (see {self.log})")
        return self

    def _answers(self) -> bool:
        try:
            headers = {"Host": self.ready_host} if self.ready_host else {}
            answer = requests.get(self.url + self.ready_path, headers=headers, timeout=2)
            return answer.status_code == 200
        except requests.RequestException:
            return False

    def stop(self) -> None:
        """Stop the server gracefully (SIGTERM) and wait for it."""
        _end(self.process, signal.SIGTERM)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _wait_until(ready, process: subprocess.Popen, name: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while not ready():
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with status {process.returncode}")
        if time.monotonic() > deadline:
            _end(process, signal.SIGKILL)
            raise RuntimeError(f"{name} did not answer within {START_TIMEOUT} s")
        time.sleep(0.05)


def _end(process: subprocess.Popen | None, sig: signal.Signals) -> None:
    if process is not None and process.poll() is None:
        process.send_signal(sig)
        process.wait()
