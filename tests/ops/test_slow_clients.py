"""Slow and many clients against the app as served (waitress): a hundred
connections trickling their bodies or headers do not stop a player's game;
a request that takes too long to arrive is cut off; the server's own error
answers carry the security headers; an over-limit body is refused, chunked
or not; a stop answers the requests in hand and takes no new one."""

from __future__ import annotations

import base64
import hashlib
import logging
import re
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from waitress.channel import ClientDisconnected

from app import serve as serve_module
from app.web.security import CONTENT_SECURITY_POLICY, HEADERS
from benchmarks.load_test import Player

SLOW_BODY = (
    b"POST /play HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nc"
)
SLOW_HEADERS = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a"


def _port(server) -> int:
    return int(server.url.rsplit(":", 1)[1])


@contextmanager
def _held_open(port: int, count: int, first_bytes: bytes) -> Iterator[list[socket.socket]]:
    """``count`` connections that each sent ``first_bytes`` of an unfinished
    request and then nothing; closed on leaving."""
    with ExitStack() as stack:
        connections = []
        for _ in range(count):
            connection = stack.enter_context(socket.create_connection(("127.0.0.1", port), 5))
            connection.sendall(first_bytes)
            connections.append(connection)
        yield connections


def _exchange(port: int, request: bytes) -> bytes:
    """Send ``request`` whole and return everything the server answers
    before closing (or within 10 s)."""
    with socket.create_connection(("127.0.0.1", port), 10) as connection:
        connection.sendall(request)
        answer = b""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                chunk = connection.recv(65536)
            except ConnectionResetError:
                # A request refused before waitress read it all (a 431):
                # closed with bytes unread, the connection is reset after
                # the answer.
                break
            if not chunk:
                break
            answer += chunk
            if b"\r\n\r\n" in answer and b"Connection: close" not in answer:
                head, _, body = answer.partition(b"\r\n\r\n")
                length = [
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ]
                if length and len(body) >= length[0]:
                    break
        return answer


def _has_security_headers(answer: bytes) -> bool:
    head = answer.partition(b"\r\n\r\n")[0].decode("latin-1")
    return all(f"{name}: {value}" in head for name, value in HEADERS.items())


def test_slow_bodies_and_headers_do_not_stop_a_game(serve, tmp_path):
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")})
    port = _port(server)
    with (
        _held_open(port, 100, SLOW_BODY),
        _held_open(port, 100, SLOW_HEADERS),
    ):
        player = Player(server.url)
        started = time.monotonic()
        player.new_game("easy")
        summary = player.finish()
        elapsed = time.monotonic() - started
    assert summary["finished"] and summary["plays"] == 48
    # 52 requests; with gunicorn the first one never came back.
    assert len(player.tally.latencies) == 52
    assert elapsed < 60


def test_a_request_that_takes_too_long_to_arrive_is_cut_off(serve, tmp_path):
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")}, read_timeout=2)
    with socket.create_connection(("127.0.0.1", _port(server)), 5) as connection:
        connection.sendall(SLOW_BODY)
        closed_after = None
        started = time.monotonic()
        # One byte every half second: never idle, yet cut off after ~2 s.
        while time.monotonic() - started < 15:
            try:
                connection.sendall(b"c")
                time.sleep(0.5)
            except OSError:
                closed_after = time.monotonic() - started
                break
    assert closed_after is not None and closed_after < 10


@pytest.mark.parametrize(
    "request_bytes,status",
    [
        (b"GARBAGE\r\n\r\n", b"400"),
        # Refused on its headers, before the body is sent.
        (b"POST /play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n", b"413"),
    ],
)
def test_the_servers_own_error_answers_carry_the_security_headers(
    serve, tmp_path, request_bytes, status
):
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")})
    answer = _exchange(_port(server), request_bytes)
    assert answer.split(b" ")[1] == status
    assert _has_security_headers(answer)
    if status == b"413":
        # A photo picked as a game record: a page (in English without a
        # language cookie or an Accept-Language).
        assert b"Content-Type: text/html; charset=utf-8" in answer
        assert b"That was too large" in answer
        assert b'<meta name="theme-color" content="#0f4a2d">' in answer
        assert b'<link rel="manifest" href="/static/manifest.webmanifest?v=' in answer


def test_the_servers_own_too_large_page_is_in_the_players_language(serve, tmp_path):
    """A Turkish player (the language chosen on a page, kept in its cookie)
    who picks a photo as a game record gets the 413 page in Turkish: its
    title, heading and buttons were English on a Turkish player's screen."""
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")})
    answer = _exchange(
        _port(server),
        b"POST /review/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Cookie: pisti_language=tr\r\nContent-Length: 100000\r\n\r\n",
    )
    assert answer.split(b" ")[1] == b"413"
    page = answer.partition(b"\r\n\r\n")[2].decode()
    assert '<html lang="tr">' in page
    assert "<title>Çok büyük · Pişti</title>" in page
    assert "<h1>Bu istek çok büyüktü</h1>" in page
    assert ">Bir oyun kaydını incele</a>" in page and ">Ana sayfa</a>" in page
    assert '<link rel="manifest" href="/static/manifest-tr.webmanifest?v=' in page
    assert "That was too large" not in page and "Review a game record" not in page


def _addresses(answer: bytes) -> list[str]:
    """The addresses a page of ``answer`` names (links, styles, icons)."""
    return re.findall(r'(?:href|src)="(/[^"]*)"', answer.partition(b"\r\n\r\n")[2].decode())


def test_the_servers_own_pages_are_under_the_path_the_site_is_served_under(serve, tmp_path):
    """Behind a proxy serving the site at /pisti/ (its X-Forwarded-Prefix
    trusted), the server's own 413 and 431 link to the site's pages and
    styles there: they named /static/pisti.css and /review/ at the host's
    root, another site's. A prefix not trusted, or not a path, is not
    taken."""
    server = serve(
        {"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"), "FLASK_TRUSTED_PROXIES": "1"}
    )
    upload = (
        b"POST /review/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Prefix: %s\r\n"
        b"Content-Length: 100000\r\n\r\n"
    )
    too_large = _exchange(_port(server), upload % b"/pisti")
    assert too_large.split(b" ")[1] == b"413"
    found = _addresses(too_large)
    assert "/pisti/review/" in found and "/pisti/" in found
    assert all(address.startswith("/pisti/") for address in found), found
    cookies = (
        b"GET /game HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Prefix: /pisti/\r\n"
        b"Cookie: " + TOO_MANY_COOKIES + b"\r\n\r\n"
    )
    headers_too_large = _exchange(_port(server), cookies)
    assert headers_too_large.split(b" ")[1] == b"431"
    found = _addresses(headers_too_large)
    assert "/pisti/game" in found and all(address.startswith("/pisti/") for address in found)
    for prefix in (b"/pisti/../admin", b"//evil.example"):
        refused = _addresses(_exchange(_port(server), upload % prefix))
        assert "/review/" in refused and "/" in refused
    root = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "root-sessions")})
    untrusted = _addresses(_exchange(_port(root), upload % b"/pisti"))
    assert "/review/" in untrusted
    assert not any(address.startswith("/pisti") for address in untrusted)


#: A request's headers over the server's 16 KB, in a cookie of another app
#: on the same host, after the language's cookie and Accept-Language.
TOO_MANY_COOKIES = b"c=" + b"x" * 17_000


@pytest.mark.parametrize(
    ("request_bytes", "status", "words"),
    [
        # A header line waitress cannot read, after the player's language.
        (
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: tr-TR,tr;q=0.9\r\n"
            b"Bad header line\r\n\r\n",
            b"400",
            ("Üzgünüz — hata 400", "Tarayıcınızın isteği okunamadı"),
        ),
        # The language chosen on a page (its cookie) wins over the browser's.
        (
            b"GET /game HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: en\r\n"
            b"Cookie: pisti_language=tr\r\nCookie: " + TOO_MANY_COOKIES + b"\r\n\r\n",
            b"431",
            ("Üzgünüz — hata 431", "sitenin çerezlerini silin"),
        ),
        (
            b"GET /game HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: tr\r\n"
            b"Cookie: " + TOO_MANY_COOKIES + b"\r\n\r\n",
            b"431",
            ("Üzgünüz — hata 431", "Bunun nedeni çoğunlukla"),
        ),
        # The headers still coming when the bound was passed.
        (
            b"GET /game HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: tr\r\n"
            b"X-Many: " + b"y" * 20_000,
            b"431",
            ("Üzgünüz — hata 431",),
        ),
    ],
    ids=["400", "431 cookie", "431 accept-language", "431 unfinished"],
)
def test_the_servers_own_400_and_431_are_pages_in_the_players_language(
    serve, tmp_path, request_bytes, status, words
):
    """A Turkish player whose browser sends a request waitress cannot read
    (400) or headers over its bound (431) gets a page of the site, in
    Turkish: they were waitress's plain English text ("Bad Request\n\n
    Invalid header\n\n(generated by pisti)")."""
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")})
    answer = _exchange(_port(server), request_bytes)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == status
    assert b"Content-Type: text/html; charset=utf-8" in head
    page = body.decode()
    assert '<html lang="tr">' in page
    if status == b"400":
        assert _has_security_headers(answer)
        assert '<link rel="stylesheet" href="/static/pisti.css?v=' in page
    else:
        # The browser would send its stylesheet's request with the same
        # headers, refused in turn: the page holds the stylesheet, allowed
        # by its hash, the other headers as ever.
        sheet = page.split("<style>", 1)[1].split("</style>", 1)[0]
        assert ".panel {" in sheet and "pisti.css" not in page
        digest = base64.b64encode(hashlib.sha256(sheet.encode()).digest()).decode()
        policy = CONTENT_SECURITY_POLICY.replace(
            "style-src 'self'", f"style-src 'self' 'sha256-{digest}'"
        )
        assert f"Content-Security-Policy: {policy}\r\n".encode() in head
        others = {**HEADERS, "Content-Security-Policy": policy}
        assert all(f"{name}: {value}".encode() in head for name, value in others.items())
    for said in words:
        assert said in page
    assert "generated by" not in page and "Sorry" not in page


def test_the_servers_own_400_of_a_cookie_that_is_not_utf8_is_its_page(serve, tmp_path):
    """A request waitress cannot read whose cookie holds bytes that are
    not UTF-8 (written by another site's script, or a tool): its 400 page,
    in the language of its cookie. It was a 500 in waitress's own words
    and a traceback in the log, the page's language not being found."""
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")})
    answer = _exchange(
        _port(server),
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: a=\x82\xff; pisti_language=tr\r\n"
        b"Content-Length: abc\r\n\r\n",
    )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == b"400"
    assert _has_security_headers(answer)
    assert '<html lang="tr">' in body.decode()


def test_the_servers_own_pages_are_in_english_without_a_language(serve, tmp_path):
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")})
    answer = _exchange(
        _port(server), b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + TOO_MANY_COOKIES
    )
    assert answer.split(b" ")[1] == b"431"
    page = answer.partition(b"\r\n\r\n")[2].decode()
    assert '<html lang="en">' in page
    assert "<h1>Sorry — error 431</h1>" in page
    assert "too many cookies for this site" in page


@pytest.mark.parametrize(
    "headers,language",
    [
        ({}, "en"),
        ({"ACCEPT_LANGUAGE": "tr-TR,tr;q=0.9,en;q=0.5"}, "tr"),
        ({"ACCEPT_LANGUAGE": "de"}, "en"),
        # The choice made on a page wins over the browser's.
        ({"ACCEPT_LANGUAGE": "tr", "COOKIE": "a=b; pisti_language=en"}, "en"),
        ({"ACCEPT_LANGUAGE": "en", "COOKIE": "pisti_language=tr"}, "tr"),
        ({"COOKIE": "pisti_language=xx"}, "en"),
        # Bytes that are not UTF-8 (waitress keeps each as a Latin-1
        # character) are read as the app reads them, not an error.
        ({"COOKIE": "a=\x82\xff; pisti_language=tr"}, "tr"),
        ({"COOKIE": "pisti_language=\xc3", "ACCEPT_LANGUAGE": "tr"}, "tr"),
        ({"COOKIE": "\xf5", "ACCEPT_LANGUAGE": "\xe0\xfd,en"}, "en"),
    ],
)
def test_the_servers_own_pages_pick_the_language_as_the_app_does(headers, language):
    assert serve_module.page_language(headers) == language


@pytest.mark.parametrize(
    ("received", "headers"),
    [
        (
            b"GET / HTTP/1.1\r\nHost: a\r\nCookie: pisti_language=tr\r\nX: y",
            {"COOKIE": "pisti_language=tr"},
        ),
        # The last line may be cut short: left out.
        (b"GET / HTTP/1.1\r\nAccept-Language: tr\r\nCookie: pisti_lang", {"ACCEPT_LANGUAGE": "tr"}),
        (
            b"GET / HTTP/1.1\r\ncookie: a=b\r\nCOOKIE: pisti_language=en\r\n\r\n",
            {"COOKIE": "a=b; pisti_language=en"},
        ),
        (b"Cookie: pisti_language=tr\r\n", {}),  # a request line, no header
    ],
)
def test_the_language_of_headers_too_large_is_read_from_what_came(received, headers):
    assert serve_module.language_headers(received) == headers


def _chunked(size: int) -> bytes:
    body = b"card=" + b"x" * (size - 5)
    chunks = b"".join(
        b"%x\r\n%s\r\n" % (len(body[i : i + 4096]), body[i : i + 4096])
        for i in range(0, len(body), 4096)
    )
    return (
        b"POST /play HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"
    )


def test_a_chunked_body_over_the_limit_is_refused_with_413(serve, tmp_path):
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")})
    answer = _exchange(_port(server), _chunked(20 * 1024))
    assert answer.startswith(b"HTTP/1.1 413")
    assert b"That request was too large." in answer
    assert _has_security_headers(answer)
    # Under the limit, the same request reaches the app (and is refused for
    # its missing CSRF token, not its size).
    small = _exchange(_port(server), _chunked(8 * 1024))
    assert small.startswith(b"HTTP/1.1 400")


def _nothing(environ, start_response):  # a WSGI app the requests never reach
    return []


def test_a_client_gone_before_the_400_of_its_request_line_is_no_traceback(caplog, monkeypatch):
    # A request line waitress cannot read ("GARBAGE") from a client that
    # hangs up before its 400 is written: the worker thread logs the hang-up
    # (at INFO); it raised an AttributeError, logged as an ERROR traceback.
    class GoneBeforeTheAnswer(serve_module._SecureErrorTask):
        def execute(self) -> None:
            raise ClientDisconnected

    server = serve_module.make_server(_nothing, "127.0.0.1", 0, threads=1)
    # The test services the channel itself: the server's worker thread must
    # not too (it did, at times after the server was closed, and logged an
    # OSError traceback in a later test).
    monkeypatch.setattr(server, "add_task", lambda channel: None)
    ours, theirs = socket.socketpair()
    try:
        channel = serve_module._Channel(server, ours, ("127.0.0.1", 1), server.adj, map={})
        channel.error_task_class = GoneBeforeTheAnswer
        channel.received(b"GARBAGE\r\n\r\n")
        assert channel.requests and channel.requests[0].error
        with caplog.at_level(logging.INFO, logger="waitress"):
            channel.service()
        assert "Client disconnected while serving" in caplog.text
    finally:
        ours.close()
        theirs.close()
        server.close()


def test_a_stop_answers_the_play_being_worked_out_and_takes_no_new_connection():
    # A replica stopped (SIGTERM: docker stop, systemctl restart) while it
    # worked out a play: the play's answer was never sent, as the process
    # ended with it, and nginx answered the player 502 though another
    # replica was there (2 of 6 players' plays, stopping one of two
    # replicas by hand). Now the answer is sent first, and the listening
    # socket is closed at once, so the proxy's next request goes elsewhere.
    working, answer = threading.Event(), threading.Event()

    def play(environ, start_response):
        working.set()
        answer.wait(30)
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "6")])
        return [b"played"]

    server = serve_module.make_server(play, "127.0.0.1", 0, threads=2)
    port = server.getsockname()[1]
    stop = serve_module.Stop(server)
    running = threading.Thread(target=server.run, daemon=True)
    running.start()
    answers: list[bytes] = []
    request = b"POST /play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"
    player = threading.Thread(target=lambda: answers.append(_exchange(port, request)))
    player.start()
    # A connection made before the stop, its request sent after it.
    late = socket.create_connection(("127.0.0.1", port), 30)
    try:
        assert working.wait(30), "the play never reached the app"
        stop(signal.SIGTERM, None)
        # New connections are refused while the play is worked out.
        refused = False
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
            except ConnectionRefusedError:
                refused = True
                break
            time.sleep(0.05)
        assert refused, "the stopping server still took connections"
        assert running.is_alive(), "the server ended with a play in hand"
        late.sendall(request)
        answer.set()
        late_answer = b""
        while not late_answer.endswith(b"played"):
            chunk = late.recv(65536)
            if not chunk:
                break
            late_answer += chunk
    finally:
        answer.set()
        late.close()
        player.join(30)
        running.join(30)
    assert not running.is_alive()
    assert answers and answers[0].startswith(b"HTTP/1.1 200 OK"), answers
    assert answers[0].endswith(b"played")
    assert late_answer.startswith(b"HTTP/1.1 200 OK") and late_answer.endswith(b"played")
    assert stop.signals == ["SIGTERM"]


def test_a_stop_counts_its_grace_from_the_signal_however_long_the_loop_waits(monkeypatch):
    # A replica stopped with a client that sent half its headers and then
    # nothing: the event loop, waiting for that client, saw the stop only
    # at its next turn (up to a second later), and the 8 s grace began
    # then, so the process ended 10.3 s after the SIGTERM (measured with
    # scripts/serve), past the 10 s docker stop waits before a kill, which
    # cut the stop's last steps (the summaries given back). Now the stop
    # wakes the loop at once and the grace runs from the signal. Here the
    # loop's turn is made 60 s long: the stop must not wait for it.
    server = serve_module.make_server(_nothing, "127.0.0.1", 0, threads=1)
    server.adj.asyncore_loop_timeout = 60
    port = server.getsockname()[1]
    stop = serve_module.Stop(server)
    monkeypatch.setattr(serve_module, "STOP_GRACE_SECONDS", 0.5)
    running = threading.Thread(target=server.run, daemon=True)
    with _held_open(port, 1, SLOW_HEADERS):
        running.start()
        time.sleep(0.2)  # the loop waiting for the stalled client
        stop(signal.SIGTERM, None)
        running.join(30)
        assert not running.is_alive(), "the stop waited for the loop's next turn"
    assert stop.signals == ["SIGTERM"]
