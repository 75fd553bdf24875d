"""Logs: a JSON line per request and per finished game, on standard output."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from app import create_app
from app.engine import RULE_SETS
from app.logs import log_game_finished
from app.web.table import Table
from tests.conftest import start_deal


def lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines()]


@pytest.fixture
def served_app(tmp_path):
    """An app set up as when served: not testing, so it logs."""
    return create_app({"SECRET_KEY": "ops-logging", "SESSION_FILE_DIR": str(tmp_path)})


def test_one_line_per_request(served_app, capsys):
    client = served_app.test_client()
    client.get("/")
    client.get("/no-such-page?x=1")
    client.post("/play", data={"card": "7H"})
    requests = [line for line in lines(capsys.readouterr().out) if line["event"] == "request"]
    assert [(line["method"], line["path"], line["status"]) for line in requests] == [
        ("GET", "/", 200),
        ("GET", "/no-such-page", 404),
        ("POST", "/play", 400),
    ]
    for line in requests:
        assert line["level"] == "INFO" and line["time"].endswith("Z")
        assert isinstance(line["ms"], float) and line["ms"] >= 0


def test_a_request_line_names_the_client_and_the_request(tmp_path, capsys):
    app = create_app(
        {"SECRET_KEY": "ops-logging", "SESSION_FILE_DIR": str(tmp_path), "TRUSTED_PROXIES": 1}
    )
    client = app.test_client()
    made = client.get("/", headers={"X-Forwarded-For": "203.0.113.7"})
    given = client.get("/", headers={"X-Request-ID": "proxy-7f3a.1"})
    odd = client.get("/", headers={"X-Request-ID": "two words"})
    made_line, given_line, odd_line = lines(capsys.readouterr().out)
    assert made_line["addr"] == "203.0.113.7" and given_line["addr"] == "127.0.0.1"
    assert re.fullmatch(r"[0-9a-f]{16}", made_line["id"])
    assert made.headers["X-Request-ID"] == made_line["id"]
    # A proxy's own plain id is kept, to match its log; another is not.
    assert given.headers["X-Request-ID"] == given_line["id"] == "proxy-7f3a.1"
    assert odd.headers["X-Request-ID"] == odd_line["id"] != "two words"


def test_a_host_may_leave_the_clients_address_out_of_the_log(tmp_path, capsys, monkeypatch):
    """``FLASK_LOG_ADDRESSES=false``: the request lines keep every field but
    the address, and no line of the log gives it (a session dropped for
    its address's bound says so without it)."""
    monkeypatch.setenv("FLASK_LOG_ADDRESSES", "false")
    app = create_app(
        {"SECRET_KEY": "ops-logging", "SESSION_FILE_DIR": str(tmp_path), "SESSIONS_PER_ADDRESS": 1}
    )
    assert app.config["LOG_ADDRESSES"] is False
    for number in range(2):
        start_deal(
            app.test_client(), f"/deal/quiet-{number}", environ_base={"REMOTE_ADDR": "203.0.113.7"}
        )
    output = capsys.readouterr().out
    requests = [line for line in lines(output) if line["event"] == "request"]
    assert len(requests) >= 4
    assert all(line["addr"] is None and line["path"].startswith("/deal/") for line in requests)
    assert "203.0.113.7" not in output
    assert "stored session(s) of the address (not logged) dropped" in output
    monkeypatch.setenv("FLASK_LOG_ADDRESSES", "maybe")
    with pytest.raises(Exception, match="FLASK_LOG_ADDRESSES: must be true or false"):
        create_app({"SECRET_KEY": "ops-logging", "SESSION_FILE_DIR": str(tmp_path)})


def test_a_clients_own_request_id_is_not_taken_without_a_trusted_proxy(served_app, capsys):
    answer = served_app.test_client().get("/", headers={"X-Request-ID": "someone-elses"})
    (line,) = lines(capsys.readouterr().out)
    assert answer.headers["X-Request-ID"] == line["id"] != "someone-elses"


def test_a_warning_during_a_request_carries_its_id(served_app, capsys):
    refused = served_app.test_client().post("/new", data={"rules": "cardems"})
    assert refused.status_code == 400
    warning, request = lines(capsys.readouterr().out)
    assert warning["event"].startswith("form refused: ")
    assert warning["request_id"] == request["id"] == refused.headers["X-Request-ID"]


def test_a_review_key_is_cut_short_in_the_log(served_app, capsys):
    key = "0123abcd" + "e" * 56
    client = served_app.test_client()
    for path in (f"/review/{key}/3", f"/review//{key}", f"/x/../review/{key.upper()}"):
        client.get(path)
    assert [line["path"] for line in lines(capsys.readouterr().out)] == [
        "/review/0123abcd…/3",
        "/review//0123abcd…",
        "/x/../review/0123ABCD…",
    ]
    # Whoever logs it: RQ's worker names a job by its key.
    logging.getLogger("rq.worker").warning("pisti-reviews: Job OK (%s)", key)
    (line,) = lines(capsys.readouterr().out)
    assert line["event"] == "pisti-reviews: Job OK (0123abcd…)"


def test_a_passing_health_check_is_logged_only_at_debug(tmp_path, capsys):
    for level, logged in (("INFO", []), ("DEBUG", [("/healthz", 200, "DEBUG")])):
        app = create_app(
            {"SECRET_KEY": "ops-logging", "SESSION_FILE_DIR": str(tmp_path), "LOG_LEVEL": level}
        )
        app.test_client().get("/healthz")
        out = lines(capsys.readouterr().out)
        seen = [(line["path"], line["status"], line["level"]) for line in out if "path" in line]
        assert seen == logged
    # One that fails is a request like any other.
    app.test_client().post("/healthz")
    out = lines(capsys.readouterr().out)
    assert [(line["path"], line["status"], line["level"]) for line in out if "path" in line] == [
        ("/healthz", 405, "INFO")
    ]


def test_log_level_warning_leaves_out_requests(tmp_path, capsys):
    app = create_app(
        {"SECRET_KEY": "ops-logging", "SESSION_FILE_DIR": str(tmp_path), "LOG_LEVEL": "WARNING"}
    )
    app.test_client().get("/")
    assert capsys.readouterr().out == ""


def test_errors_are_one_json_line_with_the_traceback(tmp_path, capsys):
    app = create_app({"SECRET_KEY": "ops-logging", "SESSION_FILE_DIR": str(tmp_path)})

    @app.get("/boom")
    def boom():
        raise RuntimeError("kaboom")

    assert app.test_client().get("/boom").status_code == 500
    error, request = lines(capsys.readouterr().out)
    assert error["level"] == "ERROR" and error["event"] == "unexpected error"
    assert "RuntimeError: kaboom" in error["error"]
    assert (request["path"], request["status"]) == ("/boom", 500)


@pytest.mark.parametrize("rules,target", [("cardems", None), ("classic", 51)])
def test_one_line_per_finished_game(served_app, capsys, rules, target):
    table = Table.start(
        RULE_SETS[rules], f"logged-{rules}", ["easy"], seed_public=True, target=target
    )
    while not table.match.over:
        if table.match.hand_counted:
            table.next_hand(str(table.match.hand_number))
        else:
            table.play(table.observation().hand[0], str(table.move))
    capsys.readouterr()
    log_game_finished(table)
    (line,) = lines(capsys.readouterr().out)
    winner = table.match.winner()
    assert line["event"] == "game finished"
    assert line["rules"] == rules and line["levels"] == ["easy"]
    assert line["result"] == {0: "win", 1: "loss", None: "draw"}[winner]
    assert line["points"] == table.match.totals
    assert line["hands"] == table.match.hand_number + 1
    assert (line["hands"] > 1) == (rules == "classic")


def test_gunicorn_writes_request_lines_to_stdout(serve, tmp_path):
    server = serve({"FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions")})
    requests.get(server.url + "/deal/logged", timeout=10)
    server.stop()
    logged = [
        json.loads(line) for line in server.log.read_text().splitlines() if line.startswith("{")
    ]
    assert {"method": "GET", "path": "/deal/logged", "status": 200} in [
        {key: line.get(key) for key in ("method", "path", "status")} for line in logged
    ]


def test_the_move_that_ends_a_game_logs_it_once(served_app, capsys):
    client = served_app.test_client()
    start_deal(client, "/deal/logged-through-pages")
    page = client.get("/game").get_data(as_text=True)
    while cards := re.findall(r'name="card" value="([^"]+)"', page):
        fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        client.post("/play", data={**fields, "card": cards[0]})
        page = client.get("/game").get_data(as_text=True)
    # A play posted after the end is refused and logs no second game.
    assert client.post("/play", data={**fields, "card": "7H"}).status_code == 409
    finished = [line for line in lines(capsys.readouterr().out) if line["event"] == "game finished"]
    assert len(finished) == 1
    assert finished[0]["rules"] == "cardems" and finished[0]["levels"] == ["medium"]


def test_a_games_request_lines_carry_the_code_its_player_is_shown(served_app, capsys):
    """A player quotes the code their final page shows (the end of the
    record's file name); every line of that game's requests, and its
    "game finished" line, carry it as ``game``; a page that reads no game
    carries none."""
    client = served_app.test_client()
    client.get("/rules")
    start_deal(client, "/deal/logged-by-its-code")
    page = client.get("/game").get_data(as_text=True)
    while cards := re.findall(r'name="card" value="([^"]+)"', page):
        fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        client.post("/play", data={**fields, "card": cards[0]})
        page = client.get("/game").get_data(as_text=True)
    code = re.search(r"Game code: ([0-9a-f]{8})\.", page).group(1)
    record = client.get("/record?hand=1")
    assert record.headers["Content-Disposition"].endswith(f"-{code}.json")
    out = lines(capsys.readouterr().out)
    requests = [line for line in out if line["event"] == "request"]
    assert "game" not in requests[0] and requests[0]["path"] == "/rules"
    plays = [line for line in requests if line["path"] == "/play"]
    assert plays and all(line["game"] == code for line in plays)
    # Each table and the record.
    touched = [line for line in requests if line["path"] in ("/game", "/record")]
    assert touched and all(line["game"] == code for line in touched)
    # The deal link's page deals nothing yet; its button deals this game.
    deal = [line.get("game") for line in requests if line["path"].startswith("/deal/")]
    assert deal == [None, code]
    assert [line["game"] for line in out if line["event"] == "game finished"] == [code]


@pytest.mark.parametrize(
    "limits,refused",
    [
        ({"PLAY_LIMIT": "1 per minute"}, "FLASK_PLAY_LIMIT"),
        ({"PLAY_ADDRESS_LIMIT": "1 per minute"}, "FLASK_PLAY_ADDRESS_LIMIT"),
    ],
)
def test_a_request_a_rate_limit_refused_names_the_limits_setting(tmp_path, capsys, limits, refused):
    # A host told "too many moves" by a school must know which limit to
    # raise: the game's own or its address's, the answer being 429 either way.
    app = create_app(
        {
            "SECRET_KEY": "ops-logging",
            "SESSION_FILE_DIR": str(tmp_path),
            "NEW_GAME_LIMIT": "1 per minute",
            **limits,
        }
    )
    client = app.test_client()
    assert start_deal(client, "/deal/limited").status_code == 303
    assert start_deal(client, "/deal/limited-again").status_code == 429
    page = client.get("/game").get_data(as_text=True)
    fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
    cards = re.findall(r'name="card" value="([^"]+)"', page)
    assert client.post("/play", data={**fields, "card": cards[0]}).status_code == 303
    page = client.get("/game").get_data(as_text=True)
    fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
    cards = re.findall(r'name="card" value="([^"]+)"', page)
    assert client.post("/play", data={**fields, "card": cards[0]}).status_code == 429
    logged = [line for line in lines(capsys.readouterr().out) if line["event"] == "request"]
    named = [(line["path"].split("/")[1], line["limit"]) for line in logged if "limit" in line]
    # Only a refused request's line has one.
    assert named == [("deal", "FLASK_NEW_GAME_LIMIT"), ("play", refused)]
    assert [line["status"] for line in logged if "limit" in line] == [429, 429]


def test_a_request_whose_game_the_store_no_longer_holds_says_so(served_app, tmp_path, capsys):
    # "My game vanished at 10:42": the first request that came with the
    # cookie of a game the store no longer held (expired, evicted, the
    # store emptied) is marked, so the host finds when and from where.
    client = served_app.test_client()
    start_deal(client, "/deal/vanishing")
    assert client.get("/game").status_code == 200
    for file in tmp_path.iterdir():
        if file.is_file():
            file.unlink()  # the store emptied
    assert client.get("/game").status_code == 404
    served_app.test_client().get("/")  # a new visitor: no cookie, nothing gone
    logged = [line for line in lines(capsys.readouterr().out) if line["event"] == "request"]
    assert [(line["path"], line["status"], line.get("session")) for line in logged][-3:] == [
        ("/game", 200, None),
        ("/game", 404, "gone"),
        ("/", 200, None),
    ]


LIBRARY_LOGS = """
import os, sys, tempfile, warnings
from cachelib import FileSystemCache
from app import create_app

folder = tempfile.mkdtemp()
create_app({"SECRET_KEY": "ops-logging-key!", "SESSION_FILE_DIR": folder})
# A damaged session file: cachelib logs a warning with a traceback on the
# root logger when it prunes.
cache = FileSystemCache(os.path.join(folder, "cache"), threshold=1)
with open(os.path.join(folder, "cache", "damaged"), "wb") as damaged:
    damaged.write(b"x")
for key in "abc":
    cache.set(key, key)
warnings.warn("a library is unhappy")
"""


def test_library_records_and_python_warnings_are_json_lines_too(tmp_path):
    """cachelib's warnings and ``warnings.warn`` once reached the log as
    plain tracebacks; every line is JSON now (in a fresh process, as served:
    capturing warnings is process-wide)."""
    result = subprocess.run(
        [sys.executable, "-c", LIBRARY_LOGS],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
        env={**os.environ, "PYTHONWARNINGS": "default"},
    )
    assert result.stderr == ""
    logged = lines(result.stdout)
    cache = [line for line in logged if "handling cache file" in line["event"]]
    assert cache and cache[0]["level"] == "WARNING" and "struct.error" in cache[0]["error"]
    (warning,) = [line for line in logged if "a library is unhappy" in line["event"]]
    assert warning["level"] == "WARNING" and "UserWarning" in warning["event"]
