"""One writer per game, under the served app, on both session backends:
overlapping requests of one player never undo each other. In every trial,
each change answered as done (303) is still there afterwards and each one
refused was answered 409; a request whose body is stalled cannot bring back
what it loaded; and visitors who start no game store nothing."""

from __future__ import annotations

import re
import socket
import threading
import time
from urllib.parse import urlencode

import pytest
import redis
import requests

from benchmarks.load_test import CSRF, HAND, HIDDEN, MOVE, PLAY_FORM

COOKIE = "pisti_session"
TRIALS = 12
GAME = re.compile(r'name="game" value="(\w+)">\s*<button class="card-button')
KEPT_GAME = re.compile(r'name="game" value="(\w+)">\s*<span class="kept-what">')


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


class Browser:
    """One browser: its cookies, shared by all its tabs (requests)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, **kwargs) -> requests.Response:
        response = requests.request(
            method,
            self.url + path,
            cookies=dict(self.cookies),
            allow_redirects=False,
            timeout=60,
            **kwargs,
        )
        self.cookies.update(response.cookies.get_dict())
        return response

    def page(self, path: str = "/game") -> str:
        return self.request("GET", path).text

    def new_game(self) -> str:
        token = CSRF.search(self.page("/")).group(1)
        assert self.request("POST", "/new", data={"csrf_token": token}).status_code == 303
        return self.page()

    def play_fields(self, page: str, card: str) -> dict[str, str]:
        return {**dict(HIDDEN.findall(PLAY_FORM.search(page).group(1))), "card": card}

    def play(self, page: str, card: str) -> requests.Response:
        return self.request("POST", "/play", data=self.play_fields(page, card))

    def at_once(self, *calls) -> list[requests.Response]:
        """Make ``calls`` (method, path, data) together from this browser's
        cookies as they are now, in parallel; return their responses."""
        cookies = dict(self.cookies)
        barrier = threading.Barrier(len(calls))
        responses: list = [None] * len(calls)

        def run(index: int, method: str, path: str, data: dict | None) -> None:
            barrier.wait()
            responses[index] = requests.request(
                method,
                self.url + path,
                data=data,
                cookies=cookies,
                allow_redirects=False,
                timeout=60,
            )

        threads = [
            threading.Thread(target=run, args=(index, *call)) for index, call in enumerate(calls)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for response in responses:
            self.cookies.update(response.cookies.get_dict())
        return responses


def hand_of(page: str) -> list[str]:
    return HAND.findall(page)


def fresh_position(browser: Browser) -> str:
    """A table page whose hand holds at least two cards (a new game when
    the current one is too far on)."""
    page = browser.page()
    if len(hand_of(page)) < 2:
        page = browser.new_game()
    return page


def test_two_cards_posted_at_once_play_exactly_one(site):
    browser = Browser(site.url)
    browser.new_game()
    for _ in range(TRIALS):
        page = fresh_position(browser)
        first, second = hand_of(page)[:2]
        answers = browser.at_once(
            ("POST", "/play", browser.play_fields(page, first)),
            ("POST", "/play", browser.play_fields(page, second)),
        )
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [303, 409]
        refused = next(answer for answer in answers if answer.status_code == 409)
        assert "That page was out of date" in refused.text
        played, kept = (first, second) if answers[0].status_code == 303 else (second, first)
        after = hand_of(browser.page())
        assert played not in after and kept in after


def test_a_play_and_an_aids_change_at_once_both_stay(site):
    browser = Browser(site.url)
    browser.new_game()
    for trial in range(TRIALS):
        page = fresh_position(browser)
        card = hand_of(page)[0]
        counter = {"counter": "on"} if trial % 2 == 0 else {}
        aids = {"csrf_token": CSRF.search(page).group(1), "next": "/game", **counter}
        played, saved = browser.at_once(
            ("POST", "/play", browser.play_fields(page, card)),
            ("POST", "/settings", aids),
        )
        assert (played.status_code, saved.status_code) == (303, 303)
        after = browser.page()
        assert card not in hand_of(after)
        assert ("Cards seen face up" in after) == bool(counter)


def test_a_play_among_static_files_stays(site):
    browser = Browser(site.url)
    browser.new_game()
    statics = ["/static/pisti.css", "/static/pisti.js", "/static/cards.svg", "/favicon.ico"]
    for _ in range(TRIALS):
        page = fresh_position(browser)
        card, move = hand_of(page)[0], int(MOVE.search(page).group(1))
        answers = browser.at_once(
            ("POST", "/play", browser.play_fields(page, card)),
            *[("GET", statics[n % len(statics)], None) for n in range(12)],
        )
        assert answers[0].status_code == 303
        after = browser.page()
        assert card not in hand_of(after)
        assert not hand_of(after) or int(MOVE.search(after).group(1)) > move


def test_a_play_and_a_new_game_at_once(site):
    browser = Browser(site.url)
    for _ in range(TRIALS):
        page = browser.new_game()
        old_game, card = GAME.search(page).group(1), hand_of(page)[0]
        token = CSRF.search(page).group(1)
        played, started = browser.at_once(
            ("POST", "/play", browser.play_fields(page, card)),
            ("POST", "/new", {"csrf_token": token}),
        )
        assert started.status_code == 303
        assert played.status_code in (303, 409)
        now = browser.page()
        assert GAME.search(now).group(1) != old_game
        # The old game is kept to go back to, with the play if it was done.
        assert old_game in KEPT_GAME.findall(now)
        back = browser.request(
            "POST", "/resume", data={"csrf_token": CSRF.search(now).group(1), "game": old_game}
        )
        assert back.status_code == 303
        assert (card in hand_of(browser.page())) == (played.status_code == 409)


def stall(url: str, path: str, cookies: dict[str, str], body: bytes) -> socket.socket:
    """Send ``path`` a POST with ``cookies`` and all but the last byte of
    ``body``; return the socket (see :func:`finish`)."""
    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=30)
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: {cookie}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    connection.sendall(head.encode() + body[:-1])
    time.sleep(0.3)  # let the server start on the request
    return connection


def finish(connection: socket.socket, body: bytes) -> int:
    """Send the stalled request's last byte; return its status."""
    connection.sendall(body[-1:])
    answer = b""
    while chunk := connection.recv(65536):
        answer += chunk
    connection.close()
    return int(answer.split(b" ", 2)[1])


@pytest.mark.parametrize("path", ["/healthz", "/play", "/settings"])
def test_a_stalled_request_cannot_undo_a_whole_game(site, path):
    browser = Browser(site.url)
    page = browser.new_game()
    fields = browser.play_fields(page, hand_of(page)[0])
    body = urlencode({**fields, "counter": "on", "next": "/game"}).encode()
    stalled = stall(site.url, path, browser.cookies, body)
    while hand_of(page):
        assert browser.play(page, hand_of(page)[0]).status_code == 303
        page = browser.page()
    assert "Share this deal" in page
    status = finish(stalled, body)
    assert status == {"/healthz": 405, "/play": 409, "/settings": 303}[path]
    after = browser.page()
    assert "Share this deal" in after and not hand_of(after)


def test_a_stalled_request_cannot_bring_back_a_rotated_session_id(site):
    browser = Browser(site.url)
    page = browser.new_game()
    old_id = browser.cookies[COOKIE]
    body = urlencode({**browser.play_fields(page, hand_of(page)[0])}).encode()
    stalled = stall(site.url, "/play", browser.cookies, body)
    token = CSRF.search(page).group(1)
    assert browser.request("POST", "/new", data={"csrf_token": token}).status_code == 303
    assert browser.cookies[COOKIE] != old_id
    assert finish(stalled, body) == 409
    thief = Browser(site.url)
    thief.cookies[COOKIE] = old_id
    assert thief.request("GET", "/game").status_code == 404


def test_visitors_who_start_no_game_store_nothing(site):
    before = site.stored()
    for n in range(30):
        visitor = Browser(site.url)
        for path in ("/", f"/deal/passer-by-{n}", "/game", "/static/pisti.css", "/healthz"):
            visitor.request("GET", path)
        visitor.request("HEAD", f"/deal/passer-by-{n}")
        visitor.request("GET", "/no-such-page")
        visitor.request("POST", "/healthz")
    assert site.stored() == before
    player = Browser(site.url)
    player.new_game()
    assert site.stored() > before
