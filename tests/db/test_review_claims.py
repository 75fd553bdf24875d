"""The cap on review summaries claimed at once holds when many servers'
threads claim at the same instant, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading

from app.db import reviews
from app.engine import CLASSIC, GameState, make_record, seeded_deck


def _record(seed: str) -> dict:
    state = GameState.deal(CLASSIC, seeded_deck(seed, CLASSIC))
    while not state.finished:
        state.play(state.hands[state.turn][0])
    return make_record(state, seed)


def test_claims_past_the_limit_are_refused_however_many_come_at_once(app):
    with app.app_context():
        keys = [reviews.keep_review(_record(f"claims-{n}"), 0, 24) for n in range(12)]
    barrier = threading.Barrier(len(keys))
    claimed = []

    def claim(key: str) -> None:
        with app.app_context():
            barrier.wait()
            if reviews.claim_review(key, limit=3):
                claimed.append(key)

    threads = [threading.Thread(target=claim, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(claimed) == 3
    with app.app_context():
        assert reviews.running_summaries() == 3
        reviews.save_steps(claimed[0], [], finished=True)
        waiting = next(key for key in keys if key not in claimed)
        assert reviews.claim_review(waiting, limit=3)
        assert not reviews.claim_review(
            next(k for k in keys if k not in {*claimed, waiting}), limit=3
        )
