"""The cap on review summaries claimed at once holds when many servers'
threads claim at the same instant, and a job given up for dead cannot undo
another's work, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

from sqlalchemy import select, update

from app.db import db, reviews
from app.db.models import Review
from app.engine import CLASSIC, GameState, load_record, make_record, seeded_deck
from app.engine.decisions import decisions
from app.jobs import compute_summary, evaluate_here


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


def test_a_job_given_up_for_dead_neither_shrinks_nor_reopens_a_summary(app):
    # Job A stored 4 steps and stalled; the claim was taken again and job B
    # stored more, then finished. A, waking up, stores nothing.
    step = {"number": 1}
    with app.app_context():
        key = reviews.keep_review(_record("woken"), 0, 6)
        assert reviews.claim_review(key)
        assert reviews.save_steps(key, [step] * 4, finished=False)
        assert reviews.save_steps(key, [step] * 5, finished=False)  # job B
        assert not reviews.save_steps(key, [step] * 5, finished=False)  # A: not more
        assert reviews.save_steps(key, [step] * 6, finished=True)  # B is done
        assert not reviews.save_steps(key, [step] * 6, finished=True)  # A: done already
        review = reviews.find_review(key)
        assert (review.status, review.done, len(reviews.review_steps(review))) == ("done", 6, 6)


def test_a_job_stops_when_another_has_finished_the_summary(app):
    # Job A evaluates its first step while job B (which took the claim when
    # A seemed dead) finishes the whole summary: A stores nothing and stops.
    record = _record("overtaken")
    total = len(decisions(load_record(json.dumps(record)), 0))
    with app.app_context():
        key = reviews.keep_review(record, 0, total)
        assert reviews.claim_review(key)
    evaluated = []

    def evaluate_step(decision, number):
        evaluated.append(number)
        with app.app_context():
            full = [evaluate_here(found, n).to_dict() for n, found in enumerate(every, 1)]
            assert reviews.save_steps(key, full, finished=True)  # job B
        return evaluate_here(decision, number)

    every = decisions(load_record(json.dumps(record)), 0)
    compute_summary(app, key, evaluate_step)
    assert evaluated == [1]
    with app.app_context():
        review = reviews.find_review(key)
        assert (review.status, review.done) == ("done", total)


def test_a_review_not_in_the_workers_database_is_said_in_one_line(app, caplog):
    # A worker started without the servers' FLASK_DATABASE_URL: the job's
    # review is not there. One line says where to look, not a traceback.
    compute_summary(app, "f" * 64, evaluate_here)
    errors = [record for record in caplog.records if record.levelname == "ERROR"]
    assert [record.getMessage() for record in errors] == [
        f"the review {'f' * 8}… is not in this worker's database: is its "
        "FLASK_DATABASE_URL the servers'?"
    ]
    assert all(record.exc_info is None for record in errors)


def test_past_the_reviews_kept_the_oldest_go_but_not_one_being_computed(app):
    # Every distinct upload kept a row for ever: 8 KiB and its steps, 120 a
    # minute from one address.
    with app.app_context():
        keys = [reviews.keep_review(_record(f"kept-{n}"), 0, 24) for n in range(4)]
        for age, key in enumerate(keys):  # the first kept first
            db.session.execute(
                update(Review)
                .where(Review.key == key)
                .values(created_at=reviews.utcnow() - timedelta(days=10 - age))
            )
        db.session.commit()
        assert reviews.claim_review(keys[0])  # its summary is being computed
        newest = reviews.keep_review(_record("kept-new"), 0, 24, kept=3)
        left = set(db.session.scalars(select(Review.key)))
        assert left == {keys[0], keys[2], keys[3], newest}
        # Kept again (its game's "Review this game"): nothing more goes.
        assert reviews.keep_review(_record("kept-new"), 0, 24, kept=3) == newest
        assert set(db.session.scalars(select(Review.key))) == left
