"""The review summaries' background jobs: in this process, or on RQ.

A review's summary (:mod:`app.web.review`) evaluates every decision of a
hand and stores each step as it is done (:mod:`app.db.reviews`), so the
summary page's progress bar moves and every replica reads the result. Who
runs the job depends on the deployment (:func:`uses_queue`):

- Alone (filesystem sessions, ``scripts/serve``, the one container): a
  background thread of the web process (``app.web.review.JOBS``), its
  evaluations through the process's search pool (:data:`app.searches.POOL`,
  the server's cap on searches at once).
- Several replicas (the Redis session backend, as in
  ``docker-compose.yml``): the job is enqueued on the RQ queue
  :data:`QUEUE` in that Redis and run by a review worker
  (``flask --app app review-worker``, :func:`work`), one job at a time in
  one process, niced like the search pool's workers: each worker takes at
  most one core.

Either way the claim in the database (:func:`app.db.reviews.claim_review`)
is what makes a summary computed once; the RQ job's id is the review's key,
so a claim taken again (a job gone silent) never queues a second job while
one is waiting or running.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from types import FrameType
from typing import Any, cast

import redis
from flask import Flask, current_app
from rq import Queue, Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from app.ai.review import Step, evaluate
from app.db import db
from app.db.reviews import fail_review, find_review, release_review, review_steps, save_steps
from app.engine import load_record
from app.engine.decisions import Decision, decisions
from app.logs import json_handler, short_key
from app.searches import NICENESS
from app.sessions import redis_client

#: The RQ queue's name.
QUEUE = "pisti-reviews"
#: The ``flask`` command that runs a review worker (:func:`work`).
WORKER_COMMAND = "review-worker"
#: The review worker's own log lines (what it works on, a stop while it
#: starts): always at ``INFO``, whatever ``FLASK_LOG_LEVEL`` says, as the
#: server's first line is.
WORKER_LOG = logging.getLogger("app.worker")
#: The most a summary job may run in a worker, seconds (a hand's summary
#: takes well under a second of CPU: BENCHMARKS.md "Review").
JOB_TIMEOUT = 600
#: How long a failed job's record is kept in Redis, seconds.
FAILURE_TTL = 24 * 3600
#: A claimed review whose RQ job cannot be found after this long was lost
#: (Redis lost it, or its record expired): the page says the review failed.
LOST_AFTER = timedelta(seconds=30)
#: Seconds between a review worker's beats while it runs a job: RQ's worker
#: process, which only waits for the job's own forked process, writes the
#: job's ``last_heartbeat`` this often, however long a step takes.
BEAT_SECONDS = 5
#: A started job whose worker has missed four beats is taken over (its
#: worker died, or its container) after 20 s; one whose worker beats is
#: not, however long it stores nothing (a slow step).
BEATS_MISSED_AFTER = timedelta(seconds=4 * BEAT_SECONDS)
#: Seconds a review worker waits before it starts again after Redis stopped
#: answering.
RECONNECT_PAUSE = 5.0
#: RQ states of a job still waiting to run.
WAITING = frozenset({JobStatus.CREATED, JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED})

#: Evaluates one decision (its number from 1) into its reviewed step.
StepEvaluator = Callable[[Decision, int], Step]


class SummaryStopped(Exception):
    """The server whose process works out a summary is stopping: the job
    gives its claim back (:func:`compute_summary`)."""


def uses_queue(app: Flask) -> bool:
    """Whether ``app``'s summaries run on the RQ queue: ``REVIEW_QUEUE``
    when set, else whenever sessions are kept in Redis (several replicas)."""
    chosen = app.config["REVIEW_QUEUE"]
    if chosen is None:
        return bool(app.config["SESSION_BACKEND"] == "redis")
    return bool(chosen)


def review_queue(app: Flask) -> Queue:
    """The queue of summary jobs in ``app``'s Redis (``REDIS_URL``), for
    the web process (:func:`app.sessions.redis_client`: a Redis outage is a
    clear message rather than a hung page). Made once per app."""
    queue = app.extensions.get("review_queue")
    if queue is None:
        connection = redis_client(app.config["REDIS_URL"])
        queue = app.extensions["review_queue"] = Queue(QUEUE, connection=connection)
    return cast(Queue, queue)


def enqueue_summary(app: Flask, key: str, limit: int) -> bool:
    """Queue the summary job of review ``key`` (its RQ job id), unless a job
    of that id is waiting in the queue already; return false, queueing
    nothing, when ``limit`` jobs wait in the queue already (so a flood of
    reviews cannot make a queue without end). Call after claiming it: a
    job of that id that failed, finished, or started but went silent (the
    claim was free to take again: its worker is gone) is replaced.

    Raises:
        redis.RedisError: Redis could not be reached; the job may or may
            not be queued (the caller releases its claim, so the next visit
            tries again and finds it if it is).
    """
    queue = review_queue(app)
    try:
        job = Job.fetch(key, connection=queue.connection)
    except NoSuchJobError:
        job = None
    # Waiting, and truly in the queue: a worker killed with its job in hand
    # can leave it marked queued yet in no queue.
    if job is not None and job.get_status() in WAITING and key in queue.get_job_ids():
        return True
    if queue.count >= limit:
        return False
    if job is not None:
        # A dead worker's job whose execution record expired first cannot
        # be deleted (ValueError): the new job below takes its id all the same.
        with contextlib.suppress(ValueError):
            job.delete()
    queue.enqueue(
        run_summary,
        key,
        job_id=key,
        job_timeout=JOB_TIMEOUT,
        result_ttl=0,
        failure_ttl=FAILURE_TTL,
        description=f"review summary {short_key(key)}",
    )
    return True


def queued(app: Flask) -> int:
    """How many summary jobs wait in the queue (0 when Redis cannot tell:
    the start of a job then says the queue is down)."""
    try:
        return int(review_queue(app).count)
    except redis.RedisError:
        return 0


def job_lost(app: Flask, key: str, claimed_at: Any, now: Any) -> bool:
    """Whether the RQ job of review ``key``, claimed at ``claimed_at``
    (the review's ``updated_at``) and still running in the database, will
    never finish: RQ marked it failed, stopped or cancelled (it raised, its
    worker process died, or it ran past :data:`JOB_TIMEOUT`), or it is gone
    :data:`LOST_AFTER` after the claim. False when Redis cannot tell
    (unreachable): the page then shows the stored progress."""
    try:
        status = Job.fetch(key, connection=review_queue(app).connection).get_status()
    except NoSuchJobError:
        return bool(now - claimed_at > LOST_AFTER)
    except redis.RedisError:
        return False
    return status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)


def worker_beats(app: Flask, key: str, now: datetime) -> bool | None:
    """Whether the worker that started the RQ job of review ``key`` still
    beats: its last beat no more than :data:`BEATS_MISSED_AFTER` before
    ``now`` (naive UTC). ``True``: it is alive, however long since the job
    stored a step; ``False``: it died with the job (its container gone),
    which RQ marks failed only much later; ``None``: unknown (the job did
    not start, is not there, never beat, or Redis cannot tell)."""
    try:
        job = Job.fetch(key, connection=review_queue(app).connection)
        if job.get_status() != JobStatus.STARTED:
            return None
    except (NoSuchJobError, redis.RedisError):
        return None
    age = _beat_age(job, now)
    return None if age is None else age <= BEATS_MISSED_AFTER


def _beat_age(job: Job, now: datetime) -> timedelta | None:
    """How long before ``now`` (naive UTC) ``job``'s worker last beat,
    or ``None`` when it never did."""
    beat = job.last_heartbeat
    return None if beat is None else now - beat.astimezone(UTC).replace(tzinfo=None)


def waiting_ahead(app: Flask, key: str) -> int | None:
    """How many jobs are ahead of review ``key``'s in the queue, or ``None``
    when it is not waiting there (running, done, or Redis unreachable)."""
    try:
        job = Job.fetch(key, connection=review_queue(app).connection)
        position = job.get_position()
    except (NoSuchJobError, redis.RedisError):
        return None
    return position


def warn_if_no_worker(app: Flask) -> None:
    """Log a warning, at most once a :data:`NO_WORKER_WARNING_SECONDS` in
    this process, when a summary waits on the queue and no review worker
    is registered for it (none was started, or all stopped): the page
    would say "waiting" for ever. Redis not answering says nothing here
    (the page has its own message)."""
    now = time.monotonic()
    last = app.extensions.get(_NO_WORKER_WARNED)
    if last is not None and now - last < NO_WORKER_WARNING_SECONDS:
        return
    try:
        running = Worker.count(queue=review_queue(app))
    except redis.RedisError:
        return
    if running == 0:
        app.extensions[_NO_WORKER_WARNED] = now
        app.logger.warning(
            "reviews wait on the queue %r and no review worker is running: start one with "
            "`flask --app app review-worker` (same FLASK_DATABASE_URL and FLASK_REDIS_URL)",
            QUEUE,
        )


#: How often at most :func:`warn_if_no_worker` warns, in seconds.
NO_WORKER_WARNING_SECONDS = 60
_NO_WORKER_WARNED = "review_no_worker_warned"


def compute_summary(app: Flask, key: str, evaluate_step: StepEvaluator) -> None:
    """The summary's job: evaluate with ``evaluate_step`` every decision of
    review ``key`` not stored yet, storing each as it is done (its
    progress) and the review as done after the last; stops as soon as a
    step is not stored (another job, which took the claim when this one
    seemed dead, has stored as many or finished). ``evaluate_step``
    raising :class:`SummaryStopped` gives the claim back (the review is
    ``"new"`` again, its stored steps kept: its open page loads itself
    again, and that visit starts it on a server that runs). Any other
    error is logged and the review marked failed (its page says so, and a
    visit starts it again); nothing is raised."""
    with app.app_context():
        try:
            review = find_review(key)
            if review is None:
                # Kept before its job was queued, so in another database.
                app.logger.error(
                    "the review %s is not in this worker's database: is its "
                    "FLASK_DATABASE_URL the servers'?",
                    short_key(key),
                )
                return
            found = decisions(load_record(review.record), review.seat)
            steps = review_steps(review)
            for number in range(len(steps) + 1, len(found) + 1):
                steps.append(evaluate_step(found[number - 1], number).to_dict())
                if not save_steps(key, steps, finished=number == len(found)):
                    # Another job has it, further on or done: leave it be.
                    app.logger.warning("the review %s is being computed elsewhere", short_key(key))
                    return
        except SummaryStopped:
            db.session.rollback()
            release_review(key)
            app.logger.info("the review %s is given back: this server stops", short_key(key))
        except Exception:
            app.logger.exception("the review %s failed", short_key(key))
            db.session.rollback()
            fail_review(key)
        finally:
            db.session.remove()


def run_summary(key: str) -> None:
    """The RQ job (run in a review worker, with the app's context the
    worker command pushed): :func:`compute_summary`, each decision
    evaluated right here, in the worker's one process."""
    app = cast(Any, current_app)._get_current_object()
    try:
        compute_summary(app, key, evaluate_here)
    finally:
        # A forked work horse must not leave pooled connections behind.
        db.engine.dispose()


def evaluate_here(decision: Decision, number: int) -> Step:
    """Evaluate ``decision`` in this process (:func:`app.ai.review.evaluate`)."""
    return evaluate(decision.observation, decision.played, number)


def worker_queue(app: Flask) -> Queue:
    """The queue of summary jobs as a worker reads it: a connection without
    the web's short timeout (RQ sets the one its blocking reads need)."""
    return Queue(QUEUE, connection=redis.Redis.from_url(app.config["REDIS_URL"]))


def stop_while_starting() -> None:
    """Until RQ's worker puts its own handlers in place (:func:`work`: a
    warm stop, the job in hand finished first), end this process at once on
    SIGTERM or SIGINT, with status 0 and one JSON line on standard output
    ("review worker stopped on SIGTERM while starting").

    :func:`app.create_app` calls it for the ``review-worker`` command (see
    :data:`WORKER_COMMAND`) before the start-up's work: the schema's
    migration, or waiting a turn on its lock while another replica
    migrates. In a container the worker is process 1, which a SIGTERM
    without a handler leaves running until the runtime kills it after its
    grace period (30 s in ``docker-compose.yml``).
    """
    WORKER_LOG.handlers[:] = [json_handler()]
    WORKER_LOG.setLevel(logging.INFO)
    WORKER_LOG.propagate = False

    def stop(signum: int, frame: FrameType | None) -> None:
        WORKER_LOG.info("review worker stopped on %s while starting", signal.Signals(signum).name)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def work(app: Flask, burst: bool = False) -> bool:
    """Run a review worker for ``app`` in this process, niced
    (:data:`app.searches.NICENESS`): RQ's forking worker, one job at a
    time, each in a fresh child process (a job that crashes it is marked
    failed, and the worker goes on). Call inside ``app``'s context; with
    ``burst``, return once the queue is empty. Returns whether any job ran.
    While a job runs the worker beats every :data:`BEAT_SECONDS`
    (:func:`worker_beats`).

    When Redis stops answering later, RQ's worker quits; this one waits
    :data:`RECONNECT_PAUSE` seconds and starts again until it answers (a
    worker started by hand, without a process manager, must not stay
    dead after an outage). It returns when stopped (SIGTERM, Ctrl-C) with
    Redis answering.

    Raises:
        redis.RedisError: Redis does not answer at the start (or, with
            ``burst``, at any time).
    """
    os.nice(NICENESS)
    db.engine.dispose()  # the children open their own connections
    queue = worker_queue(app)
    queue.connection.ping()
    worked = False
    while True:
        try:
            worker = Worker(
                [queue], connection=queue.connection, job_monitoring_interval=BEAT_SECONDS
            )
            worked |= bool(worker.work(burst=burst))
            queue.connection.ping()
            return worked
        except redis.RedisError as error:
            if burst:
                raise
            app.logger.warning(
                "the review queue's Redis is not answering (%s); trying again in %s s",
                error,
                RECONNECT_PAUSE,
            )
            time.sleep(RECONNECT_PAUSE)
