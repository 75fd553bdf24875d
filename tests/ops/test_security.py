"""Security: headers, cookie flags, CSRF and size limits on every POST, the
new-game rate limit, and session ids that give nothing beyond themselves."""

from __future__ import annotations

import json
import re
import secrets

import pytest

from app import create_app
from app.db.reviews import claim_review
from app.jobs import compute_summary, evaluate_here
from app.web.security import CONTENT_SECURITY_POLICY
from tests.conftest import CSRF, Player, app_config, start_deal, without_tokens
from tests.web.test_review_pages import finished_record, key_of, upload

COOKIE = "pisti_session"

#: The limits' windows stand still (see the fixture).
pytestmark = pytest.mark.usefixtures("limits_clock")


def make_app(tmp_path, **config):
    """An app with its own session folder and database under ``tmp_path``."""
    return create_app(app_config(tmp_path, SECRET_KEY="ops-security", **config))


def post_endpoints(app) -> list[str]:
    return sorted(rule.rule for rule in app.url_map.iter_rules() if "POST" in rule.methods)


def shown(response) -> str:
    """The page ``response`` shows, its CSRF tokens left out."""
    return without_tokens(response.get_data(as_text=True))


def token_of(page: str) -> str:
    return CSRF.search(page).group(1)


@pytest.mark.parametrize(
    "method,path,status",
    [
        ("get", "/", 200),
        ("get", "/static/pisti.css", 200),
        ("get", "/healthz", 200),
        ("get", "/game", 404),
        ("get", "/no-such-page", 404),
        ("post", "/play", 400),
    ],
)
def test_security_headers_on_every_kind_of_response(client, method, path, status):
    response = getattr(client, method)(path)
    response.close()
    assert response.status_code == status
    policy = response.headers["Content-Security-Policy"]
    assert policy == CONTENT_SECURITY_POLICY
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert (
        directives["default-src"] == directives["script-src"] == directives["style-src"] == "'self'"
    )
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize(
    "path,kept",
    [
        ("/", "private"),
        ("/deal/friday-night", "private"),
        ("/no-such-page", "private"),
        ("/static/pisti.css", "no-cache"),  # its own (without the release's digest)
    ],
)
def test_no_cache_between_the_site_and_its_visitor_keeps_a_page(client, path, kept):
    """A deal link's page says whether the visitor has a game in progress,
    and every page is in the visitor's language: none said a shared cache
    must not keep it. An answer that says more keeps its own."""
    response = client.get(path)
    response.close()
    assert response.headers["Cache-Control"] == kept


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "inline <script>"),
    (re.compile(r"<style", re.I), "<style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "event handler attribute"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
]


def test_pages_have_no_inline_script_or_style(app, client):
    player = Player(client)
    pages = {
        "home": client.get("/").get_data(as_text=True),
        "no game": client.get("/game").get_data(as_text=True),
    }
    pages["table"] = player.deal("inline-check").get_data(as_text=True)
    while player.hand:
        player.play(player.hand[0])
    pages["final"] = player.page
    match = app.test_client()
    start_deal(match, "/deal/inline-match?rules=classic&target=51")
    page = match.get("/game").get_data(as_text=True)
    while cards := re.findall(r'name="card" value="(\w\w)"', page):
        match.post(
            "/play",
            data={
                "card": cards[0],
                "move": re.search(r'name="move" value="(\d+)"', page).group(1),
                "csrf_token": token_of(page),
            },
        )
        page = match.get("/game").get_data(as_text=True)
    pages["between hands"] = page
    pages["error"] = client.get("/no-such-page").get_data(as_text=True)
    assert "Next hand" in pages["between hands"] and "Download record" in pages["final"]
    found = [
        (name, what)
        for name, html in pages.items()
        for pattern, what in INLINE
        if pattern.search(html)
    ]
    assert found == []


def started(client) -> list[str]:
    """Start a game from the home page's form; return the Set-Cookie headers."""
    token = token_of(client.get("/").get_data(as_text=True))
    return client.post("/new", data={"csrf_token": token}).headers.getlist("Set-Cookie")


def test_cookies_are_httponly_and_lax(client):
    csrf_cookie = client.get("/").headers["Set-Cookie"]
    assert csrf_cookie.startswith("pisti_csrf=")
    game_cookies = started(client)
    assert any(cookie.startswith(f"{COOKIE}=") for cookie in game_cookies)
    for cookie in (csrf_cookie, *game_cookies):
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
        assert "Secure" not in cookie


def test_cookies_are_secure_when_configured(tmp_path):
    client = make_app(tmp_path, SESSION_COOKIE_SECURE=True).test_client()
    assert "Secure" in client.get("/").headers["Set-Cookie"]
    cookies = started(client)
    assert len(cookies) == 3  # the session's, the CSRF one, the unfinished games'
    for cookie in cookies:
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_every_post_needs_the_csrf_token(app, player):
    player.deal("csrf-everywhere")
    before = shown(player.client.get("/game"))
    paths = post_endpoints(app)
    assert {"/new", "/play", "/next"} <= set(paths)
    for path in paths:
        response = player.client.post(
            path,
            data={"card": player.hand[0], "move": player.move, "rules": "classic"},
            headers={"Origin": "https://evil.example", "Referer": "https://evil.example/"},
        )
        assert (path, response.status_code) == (path, 400)
        assert "security token" in response.get_data(as_text=True)
    assert shown(player.client.get("/game")) == before


def test_every_post_refuses_a_body_over_16_kib(app, client):
    token = token_of(client.get("/").get_data(as_text=True))
    for path in post_endpoints(app):
        response = client.post(path, data={"csrf_token": token, "card": "x" * (16 * 1024)})
        assert (path, response.status_code) == (path, 413)
        # The record upload's says what a record is, on its own form.
        told = "too big to be a game record" if path == "/review/upload" else "too large"
        assert told in response.get_data(as_text=True), path


def test_creating_games_is_rate_limited_per_address(tmp_path):
    app = make_app(tmp_path, NEW_GAME_LIMIT="3 per minute")
    client = app.test_client()
    token = token_of(client.get("/").get_data(as_text=True))
    # /new and /deal/<seed> share one budget.
    assert client.post("/new", data={"csrf_token": token}).status_code == 303
    assert start_deal(client, "/deal/one").status_code == 303
    assert start_deal(client, "/deal/two").status_code == 303
    refused = start_deal(client, "/deal/three")
    assert refused.status_code == 429
    assert "Too many new games" in refused.get_data(as_text=True)
    assert int(refused.headers["Retry-After"]) == 60
    # Playing the game on is not limited; another address may still deal.
    assert client.get("/game").status_code == 200
    other = app.test_client()
    assert (
        start_deal(other, "/deal/three", environ_base={"REMOTE_ADDR": "192.0.2.7"}).status_code
        == 303
    )


def test_behind_a_trusted_proxy_the_limit_counts_the_forwarded_address(tmp_path):
    app = make_app(tmp_path, NEW_GAME_LIMIT="1 per minute", TRUSTED_PROXIES=1)
    client = app.test_client()
    assert (
        start_deal(client, "/deal/a", headers={"X-Forwarded-For": "198.51.100.1"}).status_code
        == 303
    )
    assert (
        start_deal(client, "/deal/b", headers={"X-Forwarded-For": "198.51.100.2"}).status_code
        == 303
    )
    assert (
        start_deal(client, "/deal/c", headers={"X-Forwarded-For": "198.51.100.1"}).status_code
        == 429
    )


def test_untrusted_forwarded_headers_do_not_dodge_the_limit(tmp_path):
    client = make_app(tmp_path, NEW_GAME_LIMIT="1 per minute").test_client()
    assert (
        start_deal(client, "/deal/a", headers={"X-Forwarded-For": "198.51.100.1"}).status_code
        == 303
    )
    assert (
        start_deal(client, "/deal/b", headers={"X-Forwarded-For": "198.51.100.2"}).status_code
        == 429
    )


@pytest.mark.parametrize(
    ("proxies", "forwarded", "taken"),
    [
        (0, ["81.2.69.{}"], "127.0.0.1"),
        # A TLS proxy (172.18.0.5) in front of the compose nginx, with one
        # proxy trusted: its address is taken for every player's.
        (1, ["81.2.69.{}, 172.18.0.5"], "172.18.0.5"),
        (1, ["81.2.69.{}"], None),
        # A client's own header before its real (public) address: nothing
        # to say. (Python counts the documentation ranges as private.)
        (1, ["10.0.0.{}, 81.2.69.7"], None),
        (2, ["81.2.69.{}, 172.18.0.5"], None),
    ],
)
def test_a_proxy_not_trusted_is_named_in_the_log_once(tmp_path, caplog, proxies, forwarded, taken):
    """Behind a reverse proxy with FLASK_TRUSTED_PROXIES left at 0, or at 1
    behind two, every player is a proxy's address (one rate limit, one
    sessions bound for all): the first such request says so in the log,
    once."""
    client = make_app(tmp_path, TRUSTED_PROXIES=proxies).test_client()
    assert client.get("/").status_code == 200
    for number in range(3):
        headers = {"X-Forwarded-For": forwarded[0].format(number)}
        assert client.get("/", headers=headers).status_code == 200
    warned = [r.getMessage() for r in caplog.records if "FLASK_TRUSTED_PROXIES" in r.getMessage()]
    if taken is None:
        assert warned == []
    else:
        assert len(warned) == 1
        assert f"every player counts as its address {taken} " in warned[0]


@pytest.mark.parametrize("start", ["new", "deal"])
def test_a_new_game_gets_a_new_session_id(app, client, start):
    player = Player(client)
    player.deal("first-game")
    old_id = client.get_cookie(COOKIE).value
    if start == "new":
        assert client.post("/new", data={"csrf_token": player.token}).status_code == 303
    else:
        assert start_deal(client, "/deal/second-game").status_code == 303
    new_id = client.get_cookie(COOKIE).value
    assert new_id != old_id
    assert client.get("/game").status_code == 200
    # Someone holding the old id (copied before) gets neither game.
    thief = app.test_client()
    thief.set_cookie(COOKIE, old_id)
    response = thief.get("/game")
    assert response.status_code == 404
    assert "No game in progress" in response.get_data(as_text=True)


def test_a_copied_session_id_grants_that_game_only(app, player):
    player.deal("copied-id")
    copy = app.test_client()
    copy.set_cookie(COOKIE, player.client.get_cookie(COOKIE).value)
    # The same game (each browser has its own form tokens).
    assert shown(copy.get("/game")) == shown(player.client.get("/game"))
    game = re.compile(r'name="game" value="(\w+)">\s*<button class="card-button')
    copied = game.search(player.client.get("/game").get_data(as_text=True)).group(1)
    assert start_deal(copy, "/deal/copy-starts-over").status_code == 303
    assert copy.get_cookie(COOKIE).value != player.client.get_cookie(COOKIE).value
    # The copy now plays its own game (the copied one is only kept aside).
    assert game.search(copy.get("/game").get_data(as_text=True)).group(1) != copied


def test_a_forged_session_id_is_not_adopted(app):
    forged = secrets.token_urlsafe(32)
    client = app.test_client()
    client.set_cookie(COOKIE, forged)
    assert client.get("/game").status_code == 404
    assert start_deal(client, "/deal/after-forging").status_code == 303
    assert client.get_cookie(COOKIE).value != forged
    # The game is not reachable under the id the forger chose.
    forger = app.test_client()
    forger.set_cookie(COOKIE, forged)
    assert forger.get("/game").status_code == 404


@pytest.mark.parametrize(
    "path,data,status",
    [
        ("/play", {"card": "7H", "move": "0"}, 400),
        ("/play", {"card": "x" * 20_000}, 413),
        ("/no-such-page", {}, 404),
    ],
)
def test_a_post_without_the_session_cookie_sets_none(app, path, data, status):
    """What a form on another site sends (the browser keeps the Lax cookie
    back): refused, and no new cookie to replace the player's."""
    response = app.test_client().post(path, data=data, headers={"Origin": "https://evil.example"})
    assert response.status_code == status
    assert "Set-Cookie" not in response.headers


def test_review_uploads_have_a_budget_of_their_own(tmp_path):
    # A hundred uploads in a minute used up the player's new games too, and
    # the refusal spoke of new games.
    app = make_app(tmp_path, NEW_GAME_LIMIT="2 per minute")
    client = app.test_client()
    for seed in ("budget-one", "budget-two"):
        body = json.dumps(finished_record(seed=seed)).encode()
        assert upload(client, body).status_code == 303
    refused = upload(client, json.dumps(finished_record(seed="budget-three")).encode())
    assert refused.status_code == 429
    assert "Too many hands sent for review from your address" in refused.get_data(as_text=True)
    assert int(refused.headers["Retry-After"]) == 60
    # New games keep their own budget.
    token = token_of(client.get("/").get_data(as_text=True))
    assert client.post("/new", data={"csrf_token": token}).status_code == 303
    assert start_deal(client, "/deal/budget").status_code == 303
    assert start_deal(client, "/deal/budget-again").status_code == 429


def test_stored_review_steps_are_read_freely_and_searched_ones_counted(tmp_path):
    # Stepping through a finished summary faster than five a second was
    # refused (429) though no step searched; steps that search still count
    # in the play limit.
    app = make_app(tmp_path, PLAY_LIMIT="3 per minute")
    client = app.test_client()
    stored = key_of(upload(client, json.dumps(finished_record(seed="steps-stored")).encode()))
    with app.app_context():
        assert claim_review(stored)
    compute_summary(app, stored, evaluate_here)
    for number in range(1, 13):
        assert client.get(f"/review/{stored}/{number}").status_code == 200, number
    searched = key_of(upload(client, json.dumps(finished_record(seed="steps-new")).encode()))
    for number in range(1, 4):
        assert client.get(f"/review/{searched}/{number}").status_code == 200, number
    refused = client.get(f"/review/{searched}/4")
    assert refused.status_code == 429
    assert "Too many pages asked for" in refused.get_data(as_text=True)


def test_past_the_reviews_kept_an_upload_drops_the_oldest(tmp_path):
    app = make_app(tmp_path, REVIEWS_KEPT=1)
    client = app.test_client()
    first = key_of(upload(client, json.dumps(finished_record(seed="kept-first")).encode()))
    assert client.get(f"/review/{first}/1").status_code == 200
    second = key_of(upload(client, json.dumps(finished_record(seed="kept-second")).encode()))
    assert client.get(f"/review/{second}/1").status_code == 200
    assert client.get(f"/review/{first}/1").status_code == 404
