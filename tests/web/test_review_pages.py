"""The review pages: from a finished game and from an uploaded record,
the steps, the hidden cards only on request, bad files, the summary
computed once in the background, and its progress as JSON."""

from __future__ import annotations

import io
import json
import re
import time
from datetime import timedelta

import pytest

from app.db import reviews
from app.engine import (
    CLASSIC,
    PARTNERS,
    GameState,
    card_name,
    load_record,
    make_record,
    seeded_deck,
    with_options,
)
from app.engine.decisions import decisions
from app.web import review as review_pages
from tests.conftest import CSRF, start_deal, visit_at_once
from tests.web.test_pages import play_out
from tests.web.test_review_fixes import play_hand

STEP = re.compile(r'href="(/review/([0-9a-f]{64})/1)"')


def finished_record(rules=CLASSIC, seed: str = "review-pages") -> dict:
    """A finished hand's record: every seat plays its first card."""
    state = GameState.deal(rules, seeded_deck(seed, rules))
    while not state.finished:
        state.play(state.hands[state.turn][0])
    return make_record(state, seed)


def upload(client, body: bytes, name: str = "record.json"):
    token = CSRF.search(client.get("/review/").get_data(as_text=True)).group(1)
    data = {"csrf_token": token, "record": (io.BytesIO(body), name)}
    return client.post("/review/upload", data=data, content_type="multipart/form-data")


def wait_until_done(client, key: str) -> dict:
    """Poll the status address until the summary's job ends (the job runs
    in a background thread; the loop's bound only stops a broken job from
    hanging the suite)."""
    for _ in range(600):
        status = client.get(f"/review/{key}/status").get_json()
        if status["status"] in ("done", "failed"):
            return status
        time.sleep(0.1)
    raise AssertionError(f"the review's job did not end: {status}")


def key_of(response) -> str:
    return re.search(r"/review/([0-9a-f]{64})", response.headers["Location"]).group(1)


def test_a_finished_game_offers_its_review_and_the_steps_show_the_players_cards(player):
    play_out(player, "review-final")
    page = player.page
    assert "Review this game" in page
    token = CSRF.search(page).group(1)
    response = player.client.post("/review/game", data={"csrf_token": token, "hand": "1"})
    assert response.status_code == 303
    key = key_of(response)
    step = player.client.get(response.headers["Location"])
    html = step.get_data(as_text=True)
    assert step.status_code == 200
    assert "Decision 1 of" in html and "Expected points" in html and "95% interval" in html
    record = json.loads(player.client.get("/record").get_data(as_text=True))
    first = decisions(load_record(json.dumps(record)), 0)[0]
    assert f"Your card: {card_name(first.played)}" in html
    # Every legal card has its row, with its estimate.
    for card in set(first.observation.hand):
        assert card_name(card) in html
    assert reviews.review_key(record, 0) == key


def test_hidden_cards_show_only_on_request(client):
    record = finished_record()
    key = key_of(upload(client, json.dumps(record).encode()))
    first = decisions(load_record(json.dumps(record)), 0)[0]
    hidden = first.state.hands[1] + first.state.pile[: first.state.face_down]
    plain = client.get(f"/review/{key}/1").get_data(as_text=True)
    shown = client.get(f"/review/{key}/1?reveal=1").get_data(as_text=True)
    for card in hidden:
        assert card_name(card) not in plain.replace(card_name(first.played), "")
        assert card_name(card) in shown
    assert "Show the hidden cards" in plain and "Hide the hidden cards" in shown


def test_steps_go_forward_and_back_and_end(client):
    record = finished_record()
    key = key_of(upload(client, json.dumps(record).encode()))
    total = len(decisions(load_record(json.dumps(record)), 0))
    first = client.get(f"/review/{key}/1").get_data(as_text=True)
    assert f'href="/review/{key}/2"' in first and 'rel="prev"' not in first
    last = client.get(f"/review/{key}/{total}").get_data(as_text=True)
    assert f'href="/review/{key}/{total - 1}"' in last and 'rel="next"' not in last
    assert client.get(f"/review/{key}/{total + 1}").status_code == 404
    assert client.get(f"/review/{key}/0").status_code == 404
    assert client.get("/review/" + "0" * 64).status_code == 404
    assert client.get("/review/not-a-key/1").status_code == 404


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "Choose a record file"),
        (b"{not json", "not a game record: bad JSON"),
        (
            b'{"format": "pisti-record/9", "rules": "classic", "deck": [], "plays": []}',
            "unknown format",
        ),
        (b"x" * (9 * 1024), "larger than 8 KiB"),
    ],
)
def test_bad_uploads_are_refused_with_a_message(client, body, message):
    response = upload(client, body, name="record.json" if body else "")
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_an_illegal_play_in_a_record_is_named(client):
    record = finished_record()
    record["plays"][1] = record["plays"][0]
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 400
    assert "play 1:" in response.get_data(as_text=True)


def test_a_partners_record_reviews_seat_0(client):
    record = finished_record(PARTNERS, "review-partners")
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Your partner" in page and "Opponent" in page


def test_a_house_rules_record_of_three_players_is_reviewed(client):
    rules = with_options(CLASSIC, {"players": 3, "jack_pisti": 10})
    record = finished_record(rules, "review-three")
    assert record["format"] == "pisti-record/2"
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Decision 1 of 12" in page
    assert page.count("Opponent") == 2 and "Your partner" not in page
    assert "players=3" in page


def test_the_summary_is_computed_once_and_its_progress_is_json(client, app, monkeypatch):
    record = finished_record(seed="review-summary")
    key = key_of(upload(client, json.dumps(record).encode()))
    total = len(decisions(load_record(json.dumps(record)), 0))
    evaluated: list[int] = []
    real = review_pages._pooled

    def counted(decision, number):
        evaluated.append(number)
        return real(decision, number)

    monkeypatch.setattr(review_pages, "_pooled", counted)
    status = client.get(f"/review/{key}/status").get_json()
    assert status == {"status": "new", "done": 0, "total": total, "ahead": None}
    # Several visitors at once start one job.
    pages = visit_at_once(app, f"/review/{key}")
    assert all(page.status_code == 200 for page in pages)
    running = pages[0].get_data(as_text=True)
    assert "decisions evaluated" in running or "Points lost" in running
    assert wait_until_done(client, key) == {
        "status": "done",
        "done": total,
        "total": total,
        "ahead": None,
    }
    assert sorted(evaluated) == list(range(1, total + 1))
    done = client.get(f"/review/{key}").get_data(as_text=True)
    assert "Points lost per decision" in done and "The three costliest moves" in done
    # Visiting again, or uploading the same record again, computes nothing.
    assert key_of(upload(client, json.dumps(record).encode())) == key
    client.get(f"/review/{key}")
    assert len(evaluated) == total
    # The steps now come from the stored summary, with the same numbers.
    stored = client.get(f"/review/{key}/1").get_data(as_text=True)
    monkeypatch.setattr(review_pages.searches.POOL, "run", fail_if_called)
    assert client.get(f"/review/{key}/1").get_data(as_text=True) == stored


def fail_if_called(*args, **kwargs):
    raise AssertionError("a stored step was evaluated again")


def test_a_busy_search_pool_answers_503_for_a_step(client, monkeypatch):
    from app.searches import SearchPool

    record = finished_record(seed="review-busy")
    key = key_of(upload(client, json.dumps(record).encode()))
    monkeypatch.setattr(review_pages.searches, "POOL", SearchPool(processes=1, max_in_flight=0))
    response = client.get(f"/review/{key}/1")
    assert response.status_code == 503


def test_review_pages_in_turkish(client):
    record = finished_record(seed="review-turkish")
    key = key_of(upload(client, json.dumps(record).encode()))
    headers = {"Accept-Language": "tr"}
    step = client.get(f"/review/{key}/1", headers=headers).get_data(as_text=True)
    assert "Karar 1" in step
    for english in ("Decision", "Expected points", "Your card", "Show the hidden cards"):
        assert english not in step
    client.get(f"/review/{key}")
    wait_until_done(client, key)
    summary = client.get(f"/review/{key}", headers=headers).get_data(as_text=True)
    for english in ("Points lost", "three costliest", "Decision"):
        assert english not in summary


def test_a_later_hand_of_a_match_reviews_the_seat_the_player_had(client):
    start_deal(client, "/deal/review-match?rules=classic&target=51")
    page = play_hand(client)
    fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
    assert client.post("/next", data=fields).status_code == 303
    page = play_hand(client)
    token = CSRF.search(page).group(1)
    # In the second hand the player deals: seat 1.
    response = client.post("/review/game", data={"csrf_token": token, "hand": "2"})
    assert response.status_code == 303
    record = json.loads(client.get("/record?hand=2").get_data(as_text=True))
    assert key_of(response) == reviews.review_key(record, 1)
    first = decisions(load_record(json.dumps(record)), 1)[0]
    step = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"Your card: {card_name(first.played)}" in step
    assert "seat 1" in step
    # A hand not played yet cannot be reviewed.
    response = client.post("/review/game", data={"csrf_token": token, "hand": "3"})
    assert response.status_code == 400
    assert "once it is over" in response.get_data(as_text=True)


def test_an_upload_over_the_request_limit_is_refused(client):
    response = upload(client, b"x" * (20 * 1024))
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)


def test_reviewing_a_game_needs_a_game(client):
    token = CSRF.search(client.get("/review/").get_data(as_text=True)).group(1)
    response = client.post("/review/game", data={"csrf_token": token, "hand": "1"})
    assert response.status_code == 404


def test_a_running_summary_shows_its_progress_with_and_without_javascript(client, monkeypatch):
    started = []
    monkeypatch.setattr(review_pages.JOBS, "submit", lambda *args: started.append(args))
    record = finished_record(seed="review-progress")
    key = key_of(upload(client, json.dumps(record).encode()))
    total = len(decisions(load_record(json.dumps(record)), 0))
    page = client.get(f"/review/{key}").get_data(as_text=True)
    assert len(started) == 1
    assert f'value="0" max="{total}"' in page and "<progress" in page
    assert f"0 of {total} decisions evaluated" in page
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page
    assert "review/review.js" in page
    assert client.get(f"/review/{key}/status").get_json() == {
        "status": "running",
        "done": 0,
        "total": total,
        "ahead": None,
    }
    # Another visit while it runs starts nothing more.
    client.get(f"/review/{key}")
    assert len(started) == 1


def test_a_job_is_claimed_once_and_again_only_when_it_failed_or_went_silent(app):
    record = finished_record(seed="review-claims")
    with app.app_context():
        key = reviews.keep_review(record, 0, 5)
        assert reviews.keep_review(record, 0, 5) == key
        assert reviews.claim_review(key)
        assert not reviews.claim_review(key)
        silent = reviews.utcnow() + reviews.STALE_AFTER + timedelta(seconds=1)
        assert reviews.claim_review(key, silent)
        reviews.fail_review(key)
        assert reviews.claim_review(key)
        reviews.save_steps(key, [], finished=True)
        assert not reviews.claim_review(key, silent + reviews.STALE_AFTER)
