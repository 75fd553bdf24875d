"""Queries of the reviews table (:class:`~app.db.models.Review`): keep a
hand's record for review once, claim its summary job once, store its
progress and result where every replica reads them."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, delete, func, or_, select, update
from sqlalchemy.orm import aliased

from app.ai.review import ESTIMATES

from . import db, dialect_insert
from .models import Review
from .queries import utcnow

#: A running job whose progress has not moved for this long is taken to be
#: dead (its server stopped) and may be claimed again. A live job in a
#: server without the queue may store nothing for as long: each step waits
#: up to 120 s for a turn in the search pool (``BUSY_ATTEMPTS`` times
#: ``BUSY_PAUSE`` in :mod:`app.web.review`). On the queue the worker's beats
#: decide sooner (:data:`app.jobs.BEATS_MISSED_AFTER`); this is for a job
#: whose worker never beat.
STALE_AFTER = timedelta(minutes=2)


def review_key(record: dict[str, Any], seat: int) -> str:
    """Return the review's key: the SHA-256 (hex) of the record's rules,
    deck and plays, its ``players`` when it has them (they say whether the
    seat is "you", which the pages' words follow), in canonical JSON, and
    the seat; other fields (seed, hand, link, dates) do not change it."""
    fields = ("rules", "deck", "plays", "players")
    content = {field: record[field] for field in fields if field in record}
    text = json.dumps([content, seat], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def keep_review(record: dict[str, Any], seat: int, total: int, kept: int | None = None) -> str:
    """Keep ``record`` (a record as :func:`app.engine.make_record` writes it)
    for a review of ``seat``'s ``total`` decisions, unless it is kept
    already; return its key. A review of no decision (the seat has not
    played yet) is kept done: its summary has nothing to compute. With
    ``kept``, a new review past that many kept drops the oldest
    (:func:`prune_reviews`)."""
    key = review_key(record, seat)
    now = utcnow()
    insert = dialect_insert(db.engine)(Review).values(
        key=key,
        record=json.dumps(record, sort_keys=True),
        seat=seat,
        status="done" if total == 0 else "new",
        done=0,
        total=total,
        steps="[]",
        estimates=ESTIMATES,
        created_at=now,
        updated_at=now,
    )
    inserted = db.session.execute(insert.on_conflict_do_nothing(index_elements=["key"]))
    db.session.commit()
    if kept is not None and cast("CursorResult[Any]", inserted).rowcount:
        prune_reviews(kept)
    return key


def prune_reviews(kept: int) -> int:
    """Delete the oldest reviews (by when they were first kept) past the
    newest ``kept``, but none whose summary is being computed; return how
    many were deleted. A finished game's review is kept again when its
    player asks for it; an upload's must be uploaded again."""
    newest = select(Review.key).order_by(Review.created_at.desc(), Review.key).limit(kept)
    deleted = db.session.execute(
        delete(Review).where(Review.status != "running", Review.key.not_in(newest))
    )
    db.session.commit()
    return int(cast("CursorResult[Any]", deleted).rowcount)


def find_review(key: str) -> Review | None:
    """Return the review kept under ``key``, or ``None``. A review whose
    steps were made by an older version of the estimates than this
    server's (:data:`app.ai.review.ESTIMATES`: it was kept before an
    upgrade) is first emptied, to be evaluated again: no page shows old
    figures beside new ones, and a job still storing old steps is stopped
    (it stores only into a running review). A newer version's (a replica
    upgraded first) is left as it is, so two versions never undo each
    other's work."""
    review = db.session.get(Review, key, populate_existing=True)
    if review is None or review.estimates >= ESTIMATES:
        return review
    db.session.execute(
        update(Review)
        .where(Review.key == key, Review.estimates < ESTIMATES)
        .values(
            status="done" if review.total == 0 else "new",
            steps="[]",
            done=0,
            estimates=ESTIMATES,
            updated_at=utcnow(),
        )
    )
    db.session.commit()
    return db.session.get(Review, key, populate_existing=True)


#: The PostgreSQL advisory lock that makes counting the running summaries
#: and claiming one a single step (see :func:`claim_review`).
CLAIM_LOCK = 0x50697374  # "Pist"


def claim_review(key: str, now: datetime | None = None, limit: int | None = None) -> bool:
    """Claim the summary job of review ``key`` for this server: true for
    exactly one caller while it is new or failed (to try again), or when
    its job went silent for :data:`STALE_AFTER` (its server died); false
    otherwise (running elsewhere, or done). With ``limit``, also false
    when that many summaries are claimed already (:func:`running_summaries`):
    the count is part of the claim's one statement, and on PostgreSQL the
    claims of every server take turns under an advisory lock, so the limit
    holds however many claim at once."""
    now = now or utcnow()
    conditions = [
        Review.key == key,
        or_(
            Review.status.in_(("new", "failed")),
            (Review.status == "running") & (Review.updated_at < now - STALE_AFTER),
        ),
    ]
    if limit is not None:
        if db.engine.dialect.name == "postgresql":
            db.session.execute(select(func.pg_advisory_xact_lock(CLAIM_LOCK)))
        others = aliased(Review)
        running = (
            select(func.count())
            .select_from(others)
            .where(others.status == "running", others.updated_at >= now - STALE_AFTER)
            .scalar_subquery()
        )
        conditions.append(running < limit)
    claimed = db.session.execute(
        update(Review).where(*conditions).values(status="running", updated_at=now)
    )
    db.session.commit()
    return bool(cast("CursorResult[Any]", claimed).rowcount)


def running_summaries(now: datetime | None = None) -> int:
    """How many summary jobs are claimed and not gone silent (waiting in a
    queue or running), over every server."""
    now = now or utcnow()
    return int(
        db.session.scalar(
            select(func.count())
            .select_from(Review)
            .where(Review.status == "running", Review.updated_at >= now - STALE_AFTER)
        )
        or 0
    )


def save_steps(key: str, steps: list[dict[str, Any]], finished: bool) -> bool:
    """Store the reviewed ``steps`` so far (the job's progress), and mark
    the review done when ``finished``; return whether they were stored.
    Only a running review's steps are stored, and only more of them than
    are stored already (as many, to finish it): a job that was given up
    for dead (its claim taken again) and wakes up later can neither shrink
    a summary nor reopen a finished one."""
    values: dict[str, Any] = {"steps": json.dumps(steps), "done": len(steps)}
    values["updated_at"] = utcnow()
    more = Review.done < len(steps)
    if finished:
        values["status"] = "done"
        more = Review.done <= len(steps)
    stored = db.session.execute(
        update(Review).where(Review.key == key, Review.status == "running", more).values(**values)
    )
    db.session.commit()
    return bool(cast("CursorResult[Any]", stored).rowcount)


def keep_step(key: str, number: int, step: dict[str, Any]) -> bool:
    """Store ``step``, decision ``number`` (from 1) evaluated for its own
    page, when it is the next one the summary would evaluate (``number``
    decisions less one are stored), not the last (the job marks the review
    done with it), and no summary job runs (one that does stores its own):
    the summary then starts from it and its progress counts it. Return
    whether it was stored; a concurrent store or claim makes it ``False``."""
    review = find_review(key)
    if review is None or number >= review.total or review.done != number - 1:
        return False
    steps = [*review_steps(review)[: number - 1], step]
    stored = db.session.execute(
        update(Review)
        .where(
            Review.key == key,
            Review.status.in_(("new", "failed")),
            Review.done == number - 1,
        )
        .values(steps=json.dumps(steps), done=number, updated_at=utcnow())
    )
    db.session.commit()
    return bool(cast("CursorResult[Any]", stored).rowcount)


def fail_review(key: str) -> None:
    """Mark the summary job of review ``key`` as failed."""
    db.session.execute(
        update(Review).where(Review.key == key).values(status="failed", updated_at=utcnow())
    )
    db.session.commit()


def release_review(key: str, claimed_at: datetime | None = None) -> None:
    """Give up the claim on review ``key``'s summary job (its job could not
    be started, or its worker died): it is ``"new"`` again, its stored
    steps kept, so the next visit claims it. With ``claimed_at``, only
    the claim last renewed then (another visit may have claimed it since)."""
    conditions = [Review.key == key, Review.status == "running"]
    if claimed_at is not None:
        conditions.append(Review.updated_at == claimed_at)
    db.session.execute(update(Review).where(*conditions).values(status="new", updated_at=utcnow()))
    db.session.commit()


def review_steps(review: Review) -> list[dict[str, Any]]:
    """Return the steps stored with ``review`` (as saved by :func:`save_steps`)."""
    steps: list[dict[str, Any]] = json.loads(review.steps)
    return steps
