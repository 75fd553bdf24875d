"""Time a POST of a play on Flask's test client: the play, the computer's
answer, saving the session (the redirect is not followed).

Each game is a deal link's (``/deal/bench-N``) with the rules and the
computers' level in its query, started with its button; the app's request
log is left out (``LOG_LEVEL`` ``WARNING``), so only the figures are printed.

Run: .venv/bin/python benchmarks/web_post.py [GAMES] [LEVEL] [RULES]
(default 20 games against ``medium``, ``cardems``).
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time

from flask.testing import FlaskClient

from app import create_app

FIELD = re.compile(r'name="(csrf_token|move|hand|game)" value="([^"]+)"')
HAND = re.compile(r'name="card" value="([2-9TJQKA][CDHS])"')


def deal(client: FlaskClient, token: str, game: int, level: str, rules: str) -> str:
    """Start game number ``game`` as a deal link's "Start this deal" button
    does (posted, like a browser), under ``rules`` (a base name) against
    computers at ``level`` (the link names both: a link without ``level``
    is played against Medium), and return its table page's HTML."""
    client.post(f"/deal/bench-{game}?rules={rules}&level={level}", data={"csrf_token": token})
    return client.get("/game").get_data(as_text=True)


def main(games: int, level: str, rules: str) -> None:
    with tempfile.TemporaryDirectory() as sessions:
        app = create_app(
            {
                "SECRET_KEY": "bench-secret-key-0123456789",
                "SESSION_FILE_DIR": sessions,
                "RATELIMIT_ENABLED": False,
                "LOG_LEVEL": "WARNING",
            }
        )
        client = app.test_client()
        home = client.get("/").get_data(as_text=True)
        token = dict(FIELD.findall(home))["csrf_token"]
        timings = []
        for game in range(games):
            page = deal(client, token, game, level, rules)
            while hand := HAND.findall(page):
                fields = dict(FIELD.findall(page))
                start = time.perf_counter()
                response = client.post("/play", data={**fields, "card": hand[0]})
                timings.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 303
                page = client.get("/game").get_data(as_text=True)
    timings.sort()
    p99 = timings[max(0, int(len(timings) * 0.99) - 1)]
    print(
        f"{len(timings)} POSTs of a play against {level} ({rules}): "
        f"median {statistics.median(timings):.2f} ms, "
        f"p99 {p99:.2f} ms, max {timings[-1]:.2f} ms"
    )


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        sys.exit(0)
    args = sys.argv[1:]
    main(
        int(args[0]) if args else 20,
        args[1] if len(args) > 1 else "medium",
        args[2] if len(args) > 2 else "cardems",
    )
