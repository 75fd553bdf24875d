"""Slow clients: a player's requests while many connections trickle their
requests, and how long the server lets a trickling request live.

Serves the app as deployed (``python -m app.serve``, sessions on disk).
A player plays whole single deals against Easy (52 requests a game) for
``--seconds``, first alone, then while ``--slow`` connections each hold an
unfinished request open — half stuck in the body of a POST, half in the
headers — each sending one more byte every 2 s. Reported: the player's
request times (median, 95th percentile, slowest) in both phases, requests
that failed, and when the server closed the trickling connections (the
read deadline, ``app.serve.REQUEST_READ_SECONDS``).

    .venv/bin/python -m benchmarks.load_slow                  # 100 slow, 15 s each phase
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from .load_servers import Server
from .load_test import GameError, Player

SLOW_BODY = (
    b"POST /play HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nc"
)
SLOW_HEADERS = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a"


def _play_for(url: str, seconds: float) -> tuple[list[float], int]:
    """Play games for ``seconds``; return request times (ms) and failures."""
    player = Player(url)
    failures = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            player.new_game("easy")
            player.finish()
        except GameError:
            failures += 1
    return player.tally.latencies, failures


def _trickle(port: int, first: bytes, stop: threading.Event, closed: list[float]) -> None:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), 10) as connection:
        connection.sendall(first)
        while not stop.wait(2):
            try:
                connection.sendall(b"a")
            except OSError:
                closed.append(time.monotonic() - started)
                return


def _figures(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[max(0, round(len(ordered) * 0.95) - 1)]
    return (
        f"{len(times)} requests, median {statistics.median(times):.1f} ms, "
        f"p95 {p95:.1f} ms, slowest {ordered[-1]:.1f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    """Run from the command line and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, default=100, help="trickling connections")
    parser.add_argument("--seconds", type=float, default=15, help="seconds of play per phase")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        env = {
            "FLASK_SECRET_KEY": "load-slow-secret-key",
            "FLASK_SESSION_FILE_DIR": str(Path(folder) / "sessions"),
            "FLASK_RATELIMIT_ENABLED": "false",
        }
        with Server(Path(folder) / "server.log", env=env) as server:
            port = int(server.url.rsplit(":", 1)[1])
            alone, alone_failures = _play_for(server.url, args.seconds)
            stop, closed = threading.Event(), []
            trickles = [
                threading.Thread(
                    target=_trickle,
                    args=(port, SLOW_BODY if n % 2 else SLOW_HEADERS, stop, closed),
                )
                for n in range(args.slow)
            ]
            for thread in trickles:
                thread.start()
            time.sleep(1)
            loaded, loaded_failures = _play_for(server.url, args.seconds)
            time.sleep(max(0.0, 25 - args.seconds))
            stop.set()
            for thread in trickles:
                thread.join()
    print(f"alone:                {_figures(alone)}, {alone_failures} failed games")
    print(f"with {args.slow} trickling: {_figures(loaded)}, {loaded_failures} failed games")
    if closed:
        print(
            f"trickling connections closed by the server: {len(closed)}/{args.slow}, "
            f"after {min(closed):.0f}-{max(closed):.0f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
