"""Review summaries on the RQ queue (several replicas sharing Redis): a
real redis-server, jobs run by an RQ worker in burst mode; each summary is
computed once, a failed job or a dead worker shows as failed and starts
again, and a queue that cannot be reached is a clear 503 that loses
nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
import yaml
from rq import Queue, SimpleWorker, Worker
from rq.job import Job, JobStatus
from sqlalchemy import update

from app import create_app, jobs
from app.ai.review import evaluate
from app.config import ConfigError
from app.db import db, reviews
from app.db.models import Review
from app.db.reviews import find_review, keep_review, review_steps
from app.engine import CLASSIC, GameState, load_record, make_record, seeded_deck
from app.engine.decisions import decisions
from app.web import review as review_pages
from tests.conftest import visit_at_once
from tests.ops.conftest import SECRET, stop_while_migrating
from tests.web.test_review_pages import silence

ROOT = Path(__file__).resolve().parents[2]


def finished_record(seed: str) -> dict:
    """A finished classic hand's record: every seat plays its first card."""
    state = GameState.deal(CLASSIC, seeded_deck(seed, CLASSIC))
    while not state.finished:
        state.play(state.hands[state.turn][0])
    return make_record(state, seed)


@pytest.fixture
def queue(redis_server):
    """The review queue as a worker reads it."""
    return Queue(jobs.QUEUE, connection=redis.Redis.from_url(redis_server.url))


def kept(app, seed: str) -> tuple[str, int]:
    """Keep a finished hand for review of seat 0; return its key and its
    number of decisions."""
    record = finished_record(seed)
    total = len(decisions(load_record(json.dumps(record)), 0))
    with app.app_context():
        return keep_review(record, 0, total), total


def run_burst(app, queue, worker_class=SimpleWorker) -> None:
    """Run every queued job in this process (``SimpleWorker``) or in forked
    children (``Worker``), then return."""
    with app.app_context():
        db.engine.dispose()  # a forked child must not share this process's connections
        worker_class([queue], connection=queue.connection).work(burst=True)


def status(client, key: str) -> dict:
    return client.get(f"/review/{key}/status").get_json()


def summary_status(state: str, done: int, total: int, ahead: int | None = None) -> dict:
    """The status JSON of a summary that is not waiting for room."""
    return {
        "status": state,
        "done": done,
        "total": total,
        "ahead": ahead,
        "busy": False,
        "stalled": False,
    }


@pytest.fixture
def evaluated(monkeypatch):
    """The decisions the worker evaluates in this process, by number."""
    numbers: list[int] = []
    real = jobs.evaluate_here

    def counted(decision, number):
        numbers.append(number)
        return real(decision, number)

    monkeypatch.setattr(jobs, "evaluate_here", counted)
    return numbers


def test_a_summary_is_queued_once_and_a_worker_computes_it(queue_app, queue, evaluated):
    key, total = kept(queue_app, "queue-once")
    # Several visitors (on any replica) at once queue one job.
    pages = visit_at_once(queue_app, f"/review/{key}")
    assert [page.status_code for page in pages] == [200] * 4
    html = [page.get_data(as_text=True) for page in pages]
    assert all(f"0 of {total} decisions evaluated" in text for text in html)
    # The page that queued the job says it waits (the others may have been
    # drawn before it was queued).
    waiting = "Waiting for a review worker: this review is number 1 in line."
    assert any(waiting in text for text in html)
    assert queue.job_ids == [key]
    client = queue_app.test_client()
    assert status(client, key) == summary_status("running", 0, total, ahead=0)

    run_burst(queue_app, queue)

    assert sorted(evaluated) == list(range(1, total + 1))
    assert status(client, key) == summary_status("done", total, total)
    page = client.get(f"/review/{key}").get_data(as_text=True)
    assert "Points lost per decision" in page and "The three costliest moves" in page
    assert "<progress" not in page
    # Stored as the web would have computed it.
    with queue_app.app_context():
        first = review_steps(find_review(key))[0]
    decision = decisions(load_record(json.dumps(finished_record("queue-once"))), 0)[0]
    expected = evaluate(decision.observation, decision.played, 1).to_dict()
    assert first == json.loads(json.dumps(expected))
    # Later visits queue nothing and compute nothing.
    client.get(f"/review/{key}")
    assert queue.count == 0
    run_burst(queue_app, queue)
    assert len(evaluated) == total


def test_a_failed_job_shows_as_failed_and_the_next_visit_finishes_it(
    queue_app, queue, evaluated, monkeypatch
):
    key, total = kept(queue_app, "queue-failed")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    real = jobs.evaluate_here

    def third_fails(decision, number):
        if number == 3:
            raise RuntimeError("a broken evaluation")
        return real(decision, number)

    monkeypatch.setattr(jobs, "evaluate_here", third_fails)
    run_burst(queue_app, queue)
    assert status(client, key) == summary_status("failed", 2, total)

    monkeypatch.setattr(jobs, "evaluate_here", real)
    page = client.get(f"/review/{key}").get_data(as_text=True)
    assert f"2 of {total} decisions evaluated" in page
    assert queue.job_ids == [key]
    run_burst(queue_app, queue)
    assert status(client, key)["status"] == "done"
    # Each decision evaluated once: the two stored before the failure were
    # not evaluated again.
    assert sorted(evaluated) == list(range(1, total + 1))


def test_a_worker_that_dies_mid_job_shows_as_failed_and_nothing_is_lost(
    queue_app, queue, monkeypatch
):
    key, total = kept(queue_app, "queue-dies")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    real = jobs.evaluate_here

    def dies_at_the_third(decision, number):
        if number == 3:
            os._exit(9)  # the work horse dies as if killed (out of memory)
        return real(decision, number)

    monkeypatch.setattr(jobs, "evaluate_here", dies_at_the_third)
    run_burst(queue_app, queue, Worker)  # each job in a forked work horse, as in production
    assert status(client, key) == summary_status("failed", 2, total)
    page = client.get(f"/review/{key}/status")
    assert page.status_code == 200

    monkeypatch.setattr(jobs, "evaluate_here", real)
    page = client.get(f"/review/{key}").get_data(as_text=True)
    assert f"2 of {total} decisions evaluated" in page
    run_burst(queue_app, queue)
    assert status(client, key) == summary_status("done", total, total)


def test_a_queue_that_cannot_be_reached_is_a_clear_503_and_nothing_is_lost(
    queue_app, queue, redis_server
):
    key, total = kept(queue_app, "queue-down")
    client = queue_app.test_client()
    redis_server.kill()
    page = client.get(f"/review/{key}")
    html = page.get_data(as_text=True)
    assert page.status_code == 503
    assert page.headers["Retry-After"] == "5"
    assert "The review queue is not answering right now" in html
    assert "Nothing is lost" in html
    # Nothing is said to be under way, and the page's script waits the
    # seconds asked for before it visits again (it reloaded every second).
    assert "going through every decision" not in html
    assert 'data-retry="5"' in html
    assert status(client, key) == summary_status("new", 0, total)
    # A step is evaluated in the web process's own search pool meanwhile.
    assert client.get(f"/review/{key}/1").status_code == 200

    redis_server.start()
    page = client.get(f"/review/{key}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "going through every decision" in html and "data-retry" not in html
    assert queue.job_ids == [key]
    run_burst(queue_app, queue)
    assert status(client, key)["status"] == "done"


def test_the_review_worker_command_runs_the_queue(queue_app, queue, redis_server, tmp_path):
    key, total = kept(queue_app, "queue-command")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    env = {
        **os.environ,
        "FLASK_SECRET_KEY": SECRET,
        "FLASK_SESSION_BACKEND": "redis",
        "FLASK_REDIS_URL": redis_server.url,
        "FLASK_DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
    }
    flask = [sys.executable, "-m", "flask", "--app", "app", "review-worker", "--burst"]
    done = subprocess.run(flask, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert status(client, key) == summary_status("done", total, total)
    assert queue.count == 0
    # Its first line says what it works on, as the server's does.
    first = json.loads(done.stdout.splitlines()[0])
    assert first["event"] == (
        f"review worker: queue 'pisti-reviews' in Redis at {redis_server.url}; "
        f"database: {env['FLASK_DATABASE_URL']}"
    )
    assert first["database"] == env["FLASK_DATABASE_URL"]


def test_a_review_waiting_with_no_worker_running_is_warned_of(
    queue_app, queue, caplog, monkeypatch
):
    key, _ = kept(queue_app, "queue-no-worker")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    status(client, key)
    status(client, key)
    warned = [r for r in caplog.records if "no review worker is running" in r.getMessage()]
    assert len(warned) == 1  # not one a poll
    assert warned[0].levelname == "WARNING"
    # Past the quiet time it says so again; with a worker registered, not.
    monkeypatch.setattr(jobs, "NO_WORKER_WARNING_SECONDS", 0)
    caplog.clear()
    status(client, key)
    assert any("no review worker is running" in r.getMessage() for r in caplog.records)
    Worker([queue], connection=queue.connection).register_birth()
    caplog.clear()
    status(client, key)
    assert not any("no review worker is running" in r.getMessage() for r in caplog.records)


def test_the_review_worker_command_needs_a_queue(tmp_path):
    env = {
        **os.environ,
        "FLASK_SECRET_KEY": SECRET,
        "FLASK_DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
    }
    flask = [sys.executable, "-m", "flask", "--app", "app", "review-worker", "--burst"]
    done = subprocess.run(flask, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().startswith("no review queue to work on: set FLASK_REDIS_URL")


def test_the_review_worker_command_says_in_one_line_that_redis_does_not_answer(tmp_path):
    env = {
        **os.environ,
        "FLASK_SECRET_KEY": SECRET,
        "FLASK_SESSION_BACKEND": "redis",
        "FLASK_REDIS_URL": "redis://127.0.0.1:1/0",
        "FLASK_DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
    }
    flask = [sys.executable, "-m", "flask", "--app", "app", "review-worker", "--burst"]
    done = subprocess.run(flask, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(
        "the review queue's Redis (FLASK_REDIS_URL) does not answer: Error 111 connecting to "
        "127.0.0.1:1. Connection refused."
    )
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=lambda stop: stop.name)
def test_a_stop_while_the_review_worker_starts_ends_it_cleanly(tmp_path, stop):
    """A worker waiting its turn to migrate the schema (another process
    holds the migration's lock) stops at once on SIGTERM or Ctrl-C, with
    status 0 and one JSON line saying so: as process 1 of a container, a
    SIGTERM without a handler would wait out the 30 s grace period."""
    database = tmp_path / "pisti.db"
    env = {
        **os.environ,
        "FLASK_SECRET_KEY": SECRET,
        "FLASK_REVIEW_QUEUE": "true",
        "FLASK_REDIS_URL": "redis://127.0.0.1:1/0",  # never reached
        "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
        "FLASK_DATABASE_URL": f"sqlite:///{database}",
    }
    flask = [sys.executable, "-m", "flask", "--app", "app", "review-worker"]
    returncode, output = stop_while_migrating(
        lambda: subprocess.Popen(
            flask, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        ),
        database,
        stop,
    )
    assert returncode == 0, output
    assert [json.loads(line)["event"] for line in output.splitlines()] == [
        f"review worker stopped on {stop.name} while starting"
    ]


def test_the_queue_is_chosen_by_the_session_backend_or_the_setting(tmp_path, redis_server):
    def app(**settings):
        return create_app(
            {
                "TESTING": True,
                "SECRET_KEY": SECRET,
                "SESSION_FILE_DIR": str(tmp_path / "sessions"),
                "DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
                **settings,
            }
        )

    assert not jobs.uses_queue(app())
    assert jobs.uses_queue(app(REVIEW_QUEUE=True, REDIS_URL=redis_server.url))
    redis_sessions = {"SESSION_BACKEND": "redis", "REDIS_URL": redis_server.url}
    assert jobs.uses_queue(app(**redis_sessions))
    assert not jobs.uses_queue(app(**redis_sessions, REVIEW_QUEUE=False))
    with pytest.raises(ConfigError, match="FLASK_REVIEW_QUEUE: the review queue needs"):
        app(REVIEW_QUEUE=True)
    with pytest.raises(ConfigError, match="FLASK_REVIEW_QUEUE: must be true or false"):
        app(REVIEW_QUEUE="yes")


def test_compose_runs_a_review_worker_with_the_apps_image_and_settings():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    app, worker = compose["services"]["app"], compose["services"]["worker"]
    assert worker["build"] == app["build"]
    assert app["build"]["context"] == "."
    assert worker["command"] == ["flask", "--app", "app", "review-worker"]
    assert worker["environment"] == app["environment"]
    assert worker["environment"]["FLASK_SESSION_BACKEND"] == "redis"  # so the replicas queue
    assert worker["deploy"]["replicas"] == 1
    assert worker["healthcheck"] == {"disable": True}  # no web port to check
    assert worker["depends_on"] == app["depends_on"]


def test_a_job_waiting_past_the_stale_time_is_not_queued_twice(queue_app, queue):
    key, total = kept(queue_app, "queue-stale")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    # No worker took it for longer than a running job may stay silent: the
    # next visit claims it again, and finds its job still waiting.
    long_ago = reviews.utcnow() - reviews.STALE_AFTER * 2
    with queue_app.app_context():
        db.session.execute(update(Review).where(Review.key == key).values(updated_at=long_ago))
        db.session.commit()
    page = client.get(f"/review/{key}").get_data(as_text=True)
    with queue_app.app_context():
        assert find_review(key).updated_at > long_ago + reviews.STALE_AFTER  # claimed again
    assert "this review is number 1 in line" in page
    assert queue.job_ids == [key]
    run_burst(queue_app, queue)
    assert status(client, key) == summary_status("done", total, total)


def test_a_job_whose_whole_worker_vanished_is_queued_again_once_silent(queue_app, queue, caplog):
    key, total = kept(queue_app, "queue-vanished")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    # A worker took the job and then vanished with it (its container was
    # killed): RQ still has it as started, and nothing moves.
    queue.remove(key)
    Job.fetch(key, connection=queue.connection).set_status(JobStatus.STARTED)
    assert queue.count == 0
    assert status(client, key)["status"] == "running"  # not given up on yet
    silence(queue_app, key)
    client.get(f"/review/{key}")
    assert queue.job_ids == [key]
    # The log says it was taken over, once.
    taken = [r.getMessage() for r in caplog.records if "started again" in r.getMessage()]
    assert len(taken) == 1
    assert taken[0].startswith(f"the review {key[:8]}…'s summary had stored nothing since ")
    assert taken[0].endswith(f"started again from decision 1 of {total}")
    run_burst(queue_app, queue)
    assert status(client, key) == summary_status("done", total, total)


def started_by_a_worker(queue, key: str, beat_before: timedelta) -> None:
    """Make review ``key``'s queued job look taken by a worker whose last
    beat was ``beat_before`` ago."""
    queue.remove(key)
    job = Job.fetch(key, connection=queue.connection)
    job.set_status(JobStatus.STARTED)
    job.heartbeat(datetime.now(UTC) - beat_before, 60)


def test_a_job_whose_worker_stopped_beating_is_taken_over_long_before_the_stale_time(
    queue_app, queue, caplog
):
    key, total = kept(queue_app, "queue-beats-stopped")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    # Its worker beat, then died with its container, four beats ago: the
    # claim is far younger than STALE_AFTER, yet the page's next look at
    # the progress queues it again, and says it waits there.
    started_by_a_worker(queue, key, jobs.BEATS_MISSED_AFTER + timedelta(seconds=1))
    assert jobs.BEATS_MISSED_AFTER * 4 < reviews.STALE_AFTER
    last_store = reviews.utcnow() - jobs.BEATS_MISSED_AFTER
    with queue_app.app_context():
        db.session.execute(update(Review).where(Review.key == key).values(updated_at=last_store))
        db.session.commit()
    assert status(client, key) == summary_status("running", 0, total, ahead=0)
    assert queue.job_ids == [key]
    # The log says when it last stored a step, and that it was taken over once.
    taken = [r.getMessage() for r in caplog.records if "started again" in r.getMessage()]
    assert taken == [
        f"the review {key[:8]}…'s summary had stored nothing since "
        f"{last_store:%H:%M:%S} UTC (its server or worker stopped): "
        f"started again from decision 1 of {total}"
    ]
    run_burst(queue_app, queue)
    assert status(client, key) == summary_status("done", total, total)


def test_a_slow_job_whose_worker_still_beats_is_not_taken_over(queue_app, queue, caplog):
    key, total = kept(queue_app, "queue-beats-on")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    # A step that takes longer than STALE_AFTER (a crowded machine, a
    # niced worker): nothing stored for that long, but its worker beats.
    started_by_a_worker(queue, key, timedelta(seconds=1))
    silence(queue_app, key)
    # Its page says it is slow (stalled), and it is left to its worker.
    assert status(client, key) == {**summary_status("running", 0, total), "stalled": True}
    client.get(f"/review/{key}")
    assert queue.count == 0  # not queued a second time
    assert Job.fetch(key, connection=queue.connection).get_status() == JobStatus.STARTED
    assert not [r for r in caplog.records if "started again" in r.getMessage()]


def test_a_review_worker_beats_while_a_step_runs(queue_app, queue, monkeypatch, tmp_path):
    # The worker as deployed (jobs.work, each job in a forked work horse),
    # not niced here. Its first step waits for a beat after the job's start
    # (RQ's default is one each 30 s: none would come in 15 s).
    key, total = kept(queue_app, "queue-beating")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    seen = tmp_path / "beat"
    real = jobs.evaluate_here

    def waits_for_a_beat(decision, number):
        if number == 1:
            job = Job.fetch(key, connection=queue.connection)
            first = job.last_heartbeat
            for _ in range(150):
                job.refresh()
                if job.last_heartbeat != first:
                    seen.write_text(f"{(job.last_heartbeat - first).total_seconds():.1f}")
                    break
                time.sleep(0.1)
        return real(decision, number)

    monkeypatch.setattr(jobs, "evaluate_here", waits_for_a_beat)
    monkeypatch.setattr(jobs.os, "nice", lambda increment: 0)
    with queue_app.app_context():
        assert jobs.work(queue_app, burst=True)
    assert seen.exists(), "no beat while the step ran"
    assert status(client, key) == summary_status("done", total, total)


def test_jobs_waiting_past_the_stale_time_still_fill_the_queue(queue_app, queue, monkeypatch):
    # No worker runs. Jobs queued longer than the stale time no longer count
    # in the database, but the queue itself is full: a flood of uploads
    # cannot make it longer than MAX_SUMMARIES (it grew 16, 20, 32).
    monkeypatch.setattr(review_pages, "MAX_SUMMARIES", 2)
    client = queue_app.test_client()
    keys = [kept(queue_app, f"queue-flood-{n}")[0] for n in range(3)]
    for key in keys[:2]:
        client.get(f"/review/{key}")
        silence(queue_app, key)
    assert queue.count == 2
    page = client.get(f"/review/{keys[2]}").get_data(as_text=True)
    assert "this one starts as soon as there is room" in page
    assert queue.count == 2 and status(client, keys[2])["busy"] is True
    # The silent ones, visited again, are still waiting: claimed again,
    # not queued twice.
    client.get(f"/review/{keys[0]}")
    assert queue.job_ids == keys[:2]


def test_a_worker_that_rq_let_quit_on_a_redis_outage_starts_again(queue_app, monkeypatch):
    # RQ's worker quits on an error it does not handle ("found an unhandled
    # exception, quitting..."), as an idle one did when its Redis went
    # away; one started by hand then stayed dead, and queued summaries
    # waited for ever. Here RQ's worker quits once while Redis does not
    # answer, then runs a job once it does.
    monkeypatch.setattr(jobs, "RECONNECT_PAUSE", 0)
    monkeypatch.setattr(jobs.os, "nice", lambda increment: 0)
    pings = []

    class Connection:
        def ping(self) -> bool:
            pings.append(True)
            if len(pings) == 2:  # after RQ's worker quit; it answered at the start
                raise redis.ConnectionError("Connection closed by server.")
            return True

    runs = []

    class QuittingWorker:
        def __init__(self, queues, connection, job_monitoring_interval) -> None:
            assert job_monitoring_interval == jobs.BEAT_SECONDS

        def work(self, burst: bool) -> bool:
            runs.append(burst)
            return len(runs) > 1  # quits at once the first time; then runs a job

    monkeypatch.setattr(jobs, "Worker", QuittingWorker)
    monkeypatch.setattr(
        jobs, "worker_queue", lambda app: Queue(jobs.QUEUE, connection=Connection())
    )
    with queue_app.app_context():
        assert jobs.work(queue_app) is True
    assert runs == [False, False] and len(pings) == 3


def test_a_job_marked_queued_but_in_no_queue_is_queued_again_once_silent(queue_app, queue):
    # A worker killed with its job in hand can leave the job marked queued
    # in no queue: taken for waiting, it was never queued again.
    key, total = kept(queue_app, "queue-orphan")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    queue.remove(key)
    assert Job.fetch(key, connection=queue.connection).get_status() == JobStatus.QUEUED
    silence(queue_app, key)
    assert status(client, key)["status"] == "running"
    assert queue.job_ids == [key]
    run_burst(queue_app, queue)
    assert status(client, key) == summary_status("done", total, total)


def test_a_dead_job_rq_cannot_delete_is_replaced_all_the_same(queue_app, queue, monkeypatch):
    # RQ's record of a dead worker's execution expires before its list of
    # them: deleting the job then raised ValueError (a 500 on the status).
    key, total = kept(queue_app, "queue-expired")
    client = queue_app.test_client()
    client.get(f"/review/{key}")
    queue.remove(key)
    Job.fetch(key, connection=queue.connection).set_status(JobStatus.STARTED)

    def expired(job, *args, **kwargs):
        raise ValueError(f"Execution {job.id}:1 not found in Redis")

    monkeypatch.setattr(Job, "delete", expired)
    silence(queue_app, key)
    answer = client.get(f"/review/{key}/status")
    assert answer.status_code == 200 and answer.get_json()["status"] == "running"
    assert queue.job_ids == [key]
    monkeypatch.undo()
    run_burst(queue_app, queue)
    assert status(client, key) == summary_status("done", total, total)
