"""One writer per game, under the served app, on both session backends:
overlapping requests of one player never undo each other. In every trial,
each change answered as done (303) is still there afterwards and each one
refused was answered 409; a request whose body is stalled cannot bring back
what it loaded; and visitors who start no game store nothing."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
import redis

from benchmarks.load_test import CSRF, HAND, MOVE
from benchmarks.races import Browser, finish, play_fields, stall
from tests.conftest import KEPT_GAME

COOKIE = "pisti_session"
TRIALS = 12
GAME = re.compile(r'name="game" value="(\w+)">\s*<button class="card-button')


@pytest.fixture(params=["filesystem", "redis"])
def site(request, serve, tmp_path):
    """The app as served, with file-system or Redis sessions;
    ``site.stored()`` counts the session store's keys (or files)."""
    if request.param == "redis":
        store = request.getfixturevalue("redis_server")
        server = serve({"FLASK_SESSION_BACKEND": "redis", "FLASK_REDIS_URL": store.url})
        client = redis.Redis.from_url(store.url)
        server.stored = lambda: len(client.keys("*"))
    else:
        folder = tmp_path / "sessions"
        server = serve({"FLASK_SESSION_FILE_DIR": str(folder)})
        server.stored = lambda: len(list(folder.iterdir()))
    return server


def test_two_cards_posted_at_once_play_exactly_one(site):
    browser = Browser(site.url)
    browser.new_game()
    for _ in range(TRIALS):
        page = browser.fresh_table()
        first, second = HAND.findall(page)[:2]
        answers = browser.at_once(
            ("POST", "/play", play_fields(page, first)),
            ("POST", "/play", play_fields(page, second)),
        )
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [303, 409]
        refused = next(answer for answer in answers if answer.status_code == 409)
        assert "That page was out of date" in refused.text
        played, kept = (first, second) if answers[0].status_code == 303 else (second, first)
        after = HAND.findall(browser.page())
        assert played not in after and kept in after


def test_a_play_and_an_aids_change_at_once_both_stay(site):
    browser = Browser(site.url)
    browser.new_game()
    for trial in range(TRIALS):
        page = browser.fresh_table()
        card = HAND.findall(page)[0]
        counter = {"counter": "on"} if trial % 2 == 0 else {}
        aids = {"csrf_token": CSRF.search(page).group(1), "next": "/game", **counter}
        played, saved = browser.at_once(
            ("POST", "/play", play_fields(page, card)),
            ("POST", "/settings", aids),
        )
        assert (played.status_code, saved.status_code) == (303, 303)
        after = browser.page()
        assert card not in HAND.findall(after)
        assert ("Cards seen face up" in after) == bool(counter)


def test_a_play_among_static_files_stays(site):
    browser = Browser(site.url)
    browser.new_game()
    statics = ["/static/pisti.css", "/static/pisti.js", "/static/cards.svg", "/favicon.ico"]
    for _ in range(TRIALS):
        page = browser.fresh_table()
        card, move = HAND.findall(page)[0], int(MOVE.search(page).group(1))
        answers = browser.at_once(
            ("POST", "/play", play_fields(page, card)),
            *[("GET", statics[n % len(statics)], None) for n in range(12)],
        )
        assert answers[0].status_code == 303
        after = browser.page()
        assert card not in HAND.findall(after)
        assert not HAND.findall(after) or int(MOVE.search(after).group(1)) > move


def test_a_play_and_a_new_game_at_once(site):
    browser = Browser(site.url)
    for _ in range(TRIALS):
        page = browser.new_game()
        old_game, card = GAME.search(page).group(1), HAND.findall(page)[0]
        token = CSRF.search(page).group(1)
        played, started = browser.at_once(
            ("POST", "/play", play_fields(page, card)),
            ("POST", "/new", {"csrf_token": token}),
        )
        assert started.status_code == 303
        assert played.status_code in (303, 409)
        now = browser.page()
        assert GAME.search(now).group(1) != old_game
        # The old game is kept to go back to, with the play if it was done.
        assert old_game in KEPT_GAME.findall(now)
        back = browser.send(
            "POST", "/resume", {"csrf_token": CSRF.search(now).group(1), "game": old_game}
        )
        assert back.status_code == 303
        assert (card in HAND.findall(browser.page())) == (played.status_code == 409)


@pytest.mark.parametrize("path", ["/healthz", "/play", "/settings"])
def test_a_stalled_request_cannot_undo_a_whole_game(site, path):
    browser = Browser(site.url)
    page = browser.new_game()
    fields = play_fields(page, HAND.findall(page)[0])
    body = urlencode({**fields, "counter": "on", "next": "/game"}).encode()
    stalled = stall(site.url, path, browser.cookies, body)
    while HAND.findall(page):
        assert (
            browser.send("POST", "/play", play_fields(page, HAND.findall(page)[0])).status_code
            == 303
        )
        page = browser.page()
    assert "Share this deal" in page
    status = finish(stalled, body)
    assert status == {"/healthz": 405, "/play": 409, "/settings": 303}[path]
    after = browser.page()
    assert "Share this deal" in after and not HAND.findall(after)


def test_a_stalled_request_cannot_bring_back_a_rotated_session_id(site):
    browser = Browser(site.url)
    page = browser.new_game()
    old_id = browser.cookies[COOKIE]
    body = urlencode({**play_fields(page, HAND.findall(page)[0])}).encode()
    stalled = stall(site.url, "/play", browser.cookies, body)
    token = CSRF.search(page).group(1)
    assert browser.send("POST", "/new", {"csrf_token": token}).status_code == 303
    assert browser.cookies[COOKIE] != old_id
    assert finish(stalled, body) == 409
    thief = Browser(site.url)
    thief.cookies[COOKIE] = old_id
    assert thief.send("GET", "/game").status_code == 404


def test_visitors_who_start_no_game_store_nothing(site):
    before = site.stored()
    for n in range(30):
        visitor = Browser(site.url)
        for path in ("/", f"/deal/passer-by-{n}", "/game", "/static/pisti.css", "/healthz"):
            visitor.send("GET", path)
        visitor.send("HEAD", f"/deal/passer-by-{n}")
        visitor.send("GET", "/no-such-page")
        visitor.send("POST", "/healthz")
    assert site.stored() == before
    player = Browser(site.url)
    player.new_game()
    assert site.stored() > before
