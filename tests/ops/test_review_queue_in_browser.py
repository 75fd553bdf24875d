"""The queued review summary in the browser: while no worker has taken it
the page says its place in line; once a worker has run it, the
page's script moves the bar and shows the summary by itself (English and
Turkish), and the waiting line is gone."""

from __future__ import annotations

import re

import redis
from playwright.sync_api import Page, expect
from rq import Queue, SimpleWorker

from app import jobs
from tests.conftest import serve
from tests.e2e.conftest import SCREENSHOTS
from tests.ops.test_review_queue import kept

SIZES = {
    "phone-390": {"width": 390, "height": 844},
    "phone-360": {"width": 360, "height": 740},
    "laptop-700": {"width": 1280, "height": 700},
    "laptop-800": {"width": 1280, "height": 800},
}


def test_a_queued_summary_waits_then_shows_itself_when_a_worker_ran_it(
    page: Page, redis_server, queue_app
):
    app = queue_app
    ahead, ahead_total = kept(app, "browser-queue-ahead")
    key, total = kept(app, "browser-queue")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.emulate_media(reduced_motion="reduce")
    with serve(app) as url:
        page.goto(f"{url}/review/{ahead}")
        page.goto(f"{url}/review/{key}")
        expect(page.locator("#review-progress-text")).to_have_text(
            f"0 of {total} decisions evaluated"
        )
        waiting = page.locator("#review-waiting")
        expect(waiting).to_have_text(
            "Waiting for a review worker: this review is number 2 in line."
        )
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            page.screenshot(path=SCREENSHOTS / f"review-queued-{name}.png", full_page=True)
        page.set_extra_http_headers({"Accept-Language": "tr"})
        page.reload()
        expect(page.locator("#review-waiting")).to_have_text(
            "Bir inceleme çalışanı bekleniyor: bu inceleme sıranın 2. yerinde."
        )
        page.set_extra_http_headers({"Accept-Language": "en"})
        page.reload()

        connection = redis.Redis.from_url(redis_server.url)
        with app.app_context():
            SimpleWorker([Queue(jobs.QUEUE, connection=connection)], connection=connection).work(
                burst=True
            )

        # The script sees the summary done and shows it, without a click.
        expect(page.locator(".review-figures")).to_be_visible(timeout=30_000)
        expect(page.locator("#review-progress")).to_have_count(0)
        expect(page.locator("#review-waiting")).to_have_count(0)
        expect(page.locator("table.per-decision tbody tr")).to_have_count(total)
        page.set_viewport_size(SIZES["phone-390"])
        page.screenshot(path=SCREENSHOTS / "review-queued-done-phone-390.png", full_page=True)
        page.goto(f"{url}/review/{ahead}")
        expect(page.get_by_role("heading", name=re.compile("Review summary"))).to_be_visible()
        expect(page.locator("table.per-decision tbody tr")).to_have_count(ahead_total)


def test_a_summary_opened_while_the_queue_is_down_starts_by_itself_when_it_is_back(
    page: Page, redis_server, queue_app
):
    app = queue_app
    key, _ = kept(app, "browser-queue-down")
    redis_server.kill()
    with serve(app) as url:
        answer = page.goto(f"{url}/review/{key}")
        assert answer is not None and answer.status == 503
        expect(page.get_by_role("alert")).to_contain_text(
            "The review queue is not answering right now"
        )
        redis_server.start()
        # The page's script sees the review not started and reloads: this
        # visit queues it.
        expect(page.locator("#review-waiting")).to_have_text(
            "Waiting for a review worker: this review is number 1 in line.", timeout=15_000
        )
        expect(page.get_by_role("alert")).to_have_count(0)
        assert Queue(jobs.QUEUE, connection=redis.Redis.from_url(redis_server.url)).job_ids == [key]
