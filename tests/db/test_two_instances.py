"""Two app instances on one database record the same games at once (each
game sent to both, as a double POST reaching two replicas): every game is
kept exactly once and the totals add up."""

from __future__ import annotations

import threading

from app.db import db, queries
from benchmarks.db_two_instances import PLAYERS, check, make_app, record_all

GAMES = 120


def test_two_instances_keep_each_game_once(app, database_url, tmp_path):
    with app.app_context():
        for number in range(PLAYERS):
            queries.create_player(f"Player {number + 1}")
    other = make_app(database_url, str(tmp_path / "other-sessions"))
    written = []

    def run(instance, seed):
        written.append(record_all(instance, GAMES, seed, threads=4))

    threads = [threading.Thread(target=run, args=pair) for pair in ((app, 1), (other, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    figures = check(app, GAMES)
    assert sum(written) == figures["results"] == figures["distinct games"] == GAMES
    assert figures["players' games"] == GAMES
    assert figures["players' points"] == figures["expected points"]
    assert figures["scores miscounted"] == 0
    with other.app_context():
        db.engine.dispose()
