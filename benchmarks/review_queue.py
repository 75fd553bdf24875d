"""A whole game's review summary through the RQ queue.

Starts a throw-away ``redis-server`` and one review worker as deployed
(``flask --app app review-worker``: RQ's forking worker, niced), keeps
``GAMES`` classic hands played by Hard in every seat (the hands of
``benchmarks/review_speed.py``) for review in a SQLite database, and for
each, one after the other, opens its summary page (which queues the job)
and polls its status address every 10 ms until it is done. Prints the
median and largest time from the page's visit to the summary being done,
beside the same hands' evaluations one after the other in this process
(the work itself, on the machine as loaded at the time).

Run: nice -n 10 .venv/bin/python -m benchmarks.review_queue [GAMES]
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from app import create_app
from app.ai.review import evaluate
from app.db.reviews import keep_review
from app.engine import RULE_SETS, make_record
from app.engine.decisions import decisions
from benchmarks.load_servers import RedisServer
from benchmarks.review_speed import hand

SECRET = "review-queue-benchmark-secret"


def main(games: int) -> None:
    with tempfile.TemporaryDirectory() as folder, RedisServer(Path(folder) / "redis") as server:
        database = f"sqlite:///{Path(folder) / 'pisti.db'}"
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": SECRET,
                "SESSION_BACKEND": "redis",
                "REDIS_URL": server.url,
                "DATABASE_URL": database,
            }
        )
        keys = []
        steps = 0
        alone = []
        with app.app_context():
            for number in range(games):
                state = hand(RULE_SETS["classic"], f"review-bench-{number}")
                found = decisions(state, 0)
                keys.append(keep_review(make_record(state), 0, len(found)))
                steps += len(found)
                start = time.perf_counter()
                for index, decision in enumerate(found, start=1):
                    evaluate(decision.observation, decision.played, index)
                alone.append(time.perf_counter() - start)
        env = {
            **os.environ,
            "FLASK_SECRET_KEY": SECRET,
            "FLASK_SESSION_BACKEND": "redis",
            "FLASK_REDIS_URL": server.url,
            "FLASK_DATABASE_URL": database,
            "FLASK_LOG_LEVEL": "WARNING",
        }
        worker = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "app", "review-worker"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            client = app.test_client()
            times = []
            for key in keys:
                start = time.perf_counter()
                client.get(f"/review/{key}")
                while True:
                    answer = client.get(f"/review/{key}/status")
                    if answer.status_code != 200:
                        raise SystemExit(
                            f"{answer.status_code}: {answer.get_data(as_text=True)[:3000]}"
                        )
                    if answer.get_json()["status"] == "done":
                        break
                    time.sleep(0.01)
                times.append(time.perf_counter() - start)
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait()
    # The first includes the worker's start (importing the app); the rest
    # are a running worker's.
    warm = times[1:] or times
    print(json.dumps({"games": games, "decisions": steps, "first_s": round(times[0], 2)}))
    print(
        f"whole classic hand through the queue: median {statistics.median(warm):.2f} s, "
        f"max {max(warm):.2f} s ({steps / games:.0f} decisions a hand; "
        f"first, with the worker starting: {times[0]:.2f} s); "
        f"the same in this process: median {statistics.median(alone):.2f} s, "
        f"max {max(alone):.2f} s"
    )


if __name__ == "__main__":
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        sys.exit(0)
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
