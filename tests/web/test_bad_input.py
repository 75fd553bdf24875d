"""Bad input gets a clear message and changes nothing."""

from __future__ import annotations

import html
import re

import pytest

from app import create_app
from tests.conftest import CSRF, app_config, expected_state, form_fields, start_deal


def snapshot(client) -> str:
    """What the table shows, minus the per-response CSRF token."""
    page = client.get("/game").get_data(as_text=True)
    return "\n".join(line for line in page.splitlines() if "csrf_token" not in line)


# Fields of a bad POST /play; "<hand>" stands for a card in the player's hand,
# "<hidden>" for one in the computer's.
CASES = [
    # (fields, status, message)
    ({"card": "ZZ", "move": "0"}, 400, "is not a card"),
    ({"card": "", "move": "0"}, 400, "is not a card"),
    ({"move": "0"}, 400, "is not a card"),
    ({"card": "<hidden>", "move": "0"}, 400, "not in your hand"),
    ({"card": "<hand>", "move": ""}, 400, "did not say which move"),
    ({"card": "<hand>"}, 400, "did not say which move"),
    ({"card": "<hand>", "move": "abc"}, 400, "did not say which move"),
    ({"card": "<hand>", "move": "7"}, 409, "out of date"),
    ({"card": "<hand>", "move": "-2"}, 409, "out of date"),
    ({"card": "<hand>", "move": "9" * 400}, 409, "out of date"),
    ({"card": "x" * 20_000, "move": "0"}, 413, "too large"),
]


@pytest.mark.parametrize("fields,status,message", CASES)
def test_bad_play_is_refused_and_changes_nothing(player, fields, status, message):
    player.deal("bad-input")
    cards = {"<hand>": player.hand[0], "<hidden>": expected_state("bad-input", []).hands[1][0]}
    before = snapshot(player.client)
    response = player.post(**{key: cards.get(value, value) for key, value in fields.items()})
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert snapshot(player.client) == before


def test_repeated_post_is_refused(player):
    player.deal("double-click")
    card, move, token = player.hand[0], player.move, player.token
    other_card = player.hand[1]
    first = player.client.post("/play", data={"card": card, "move": move, "csrf_token": token})
    assert first.status_code == 303
    after_first = snapshot(player.client)
    second = player.client.post("/play", data={"card": card, "move": move, "csrf_token": token})
    assert second.status_code == 409
    # The same card at the same move: told it was played, not that nothing was.
    told = second.get_data(as_text=True)
    assert "That card was already played (a lost answer, or another tab)" in told
    assert "Nothing was played" not in told
    assert snapshot(player.client) == after_first
    # Another card of that old page: the page was out of date.
    other = player.client.post(
        "/play", data={"card": other_card, "move": move, "csrf_token": token}
    )
    assert other.status_code == 409
    assert "out of date" in other.get_data(as_text=True)
    assert snapshot(player.client) == after_first


def test_play_without_a_game(client):
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = client.post("/play", data={"card": "7H", "move": "0", "csrf_token": token})
    assert response.status_code == 404
    assert "No game in progress" in response.get_data(as_text=True)
    assert client.get("/game").status_code == 404


def test_play_after_the_hand_is_over(player):
    player.deal("over")
    while player.hand:
        player.play(player.hand[0])
    before = snapshot(player.client)
    response = player.post(card="7H", move="48")
    assert response.status_code == 409
    assert "This hand is over" in response.get_data(as_text=True)
    assert snapshot(player.client) == before


def test_post_without_csrf_token_is_refused(player):
    player.deal("csrf")
    before = snapshot(player.client)
    response = player.client.post("/play", data={"card": player.hand[0], "move": player.move})
    assert response.status_code == 400
    assert "security token" in response.get_data(as_text=True)
    assert snapshot(player.client) == before


def test_post_with_another_sessions_token_is_refused(app, player):
    player.deal("csrf-other")
    before = snapshot(player.client)
    other = app.test_client()
    start_deal(other, "/deal/csrf-other")
    foreign = re.search(
        r'name="csrf_token" value="([^"]+)"', other.get("/game").get_data(as_text=True)
    ).group(1)
    response = player.client.post(
        "/play", data={"card": player.hand[0], "move": player.move, "csrf_token": foreign}
    )
    assert response.status_code == 400
    assert snapshot(player.client) == before


@pytest.mark.parametrize(
    "method,path,status",
    [
        ("get", "/play", 405),
        ("get", "/no-such-page", 404),
        ("post", "/healthz", 405),
        ("get", "/daily/play", 405),
    ],
)
def test_error_pages_are_pages(client, method, path, status):
    response = getattr(client, method)(path)
    assert response.status_code == status
    assert "<html" in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)
    if status == 405:  # with the methods the address takes
        assert response.headers["Allow"] in ("OPTIONS, POST", "GET, HEAD, OPTIONS")


def test_unexpected_error_is_a_500_page_not_a_trace(tmp_path):
    app = create_app(
        {"SECRET_KEY": "x", "SESSION_FILE_DIR": str(tmp_path), "PROPAGATE_EXCEPTIONS": False}
    )

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "Your game is safe" in page and "secret detail" not in page


@pytest.mark.parametrize("secure", [True, False])
def test_https_only_cookies_on_a_plain_http_page_are_told(tmp_path, secure):
    # FLASK_SESSION_COOKIE_SECURE=true on a site opened over http://: the
    # browser does not send the cookies back, so every form fails; the page
    # says why.
    app = create_app(app_config(tmp_path, SESSION_COOKIE_SECURE=secure))
    page = app.test_client().get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    without_cookies = app.test_client()
    response = without_cookies.post("/new", data={"csrf_token": token, "rules": "cardems"})
    assert response.status_code == 400
    told = "This site keeps its cookies for HTTPS only" in response.get_data(as_text=True)
    assert told == secure
    # With the cookies sent back, a token that does not match is the usual
    # refusal, whatever the setting.
    with_cookies = app.test_client()
    with_cookies.get("/")
    response = with_cookies.post("/new", data={"csrf_token": token, "rules": "cardems"})
    assert response.status_code == 400
    assert "it may come from another site" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("referrer", "reason", "message"),
    [
        (None, "The referrer header is missing.", "did not say which page this form was sent"),
        ("https://evil.example/", "The referrer does not match the host.", "another site"),
    ],
)
def test_a_form_refused_over_https_says_why_and_the_log_names_flask_wtfs_reason(
    tmp_path, caplog, referrer, reason, message
):
    # Over HTTPS, Flask-WTF also checks the Referer: a browser or proxy
    # that drops it is told so, not that the token was missing.
    client = create_app(app_config(tmp_path)).test_client()
    page = client.get("/", base_url="https://localhost").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    headers = {"Referer": referrer} if referrer else {}
    response = client.post(
        "/new",
        data={"csrf_token": token, "rules": "cardems"},
        base_url="https://localhost",
        headers=headers,
    )
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert f"form refused: {reason}" in [record.getMessage() for record in caplog.records]


@pytest.mark.parametrize(
    "fields,message",
    [
        ({"rules": "chess"}, "There is no game called “chess”"),
        ({"rules": "cardems", "level": "godlike"}, "There is no computer level “godlike”"),
        ({"rules": "classic", "target": "77"}, "“77” is not one"),
        ({"rules": "classic", "target": "abc"}, "“abc” is not one"),
        ({"rules": "partners", "level_2": "godlike"}, "There is no computer level “godlike”"),
    ],
)
def test_a_new_game_with_a_value_no_game_offers_is_refused(client, fields, message):
    # The home form only sends values it offers: a crafted one is told, not
    # silently played as the default game.
    page = client.get("/").get_data(as_text=True)
    token = CSRF.search(page).group(1)
    response = client.post("/new", data={"csrf_token": token, **fields})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert "These game settings cannot be used" in response.get_data(as_text=True)
    assert "deal link" not in response.get_data(as_text=True)
    assert client.get("/game").status_code == 404  # nothing was started
    # The form's own values start the game they name.
    form = {"csrf_token": token, "rules": "classic", "target": "101", "level": "hard"}
    assert client.post("/new", data=form).status_code == 303
    assert client.get("/game").status_code == 200
    assert '<option value="101" selected>' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("path", ["/daily/play", "/daily/2026-01-02/play"])
def test_a_daily_game_with_an_unknown_game_is_refused(client, path):
    token = CSRF.search(client.get("/").get_data(as_text=True)).group(1)
    response = client.post(path, data={"csrf_token": token, "rules": "chess"})
    assert response.status_code == 400
    assert "There is no game called “chess”" in response.get_data(as_text=True)
    assert client.get("/game").status_code == 404


@pytest.mark.parametrize(
    ("day", "quoted"),
    [
        ("2999-01-01", "“2999-01-01”"),
        ("yesterday", "“yesterday”"),
        ("", "“”"),
        # An ISO week date, ten characters as a page's day: no page writes it.
        ("2020-W01-1", "“2020-W01-1”"),
    ],
)
def test_a_daily_game_of_a_day_that_is_not_past_is_refused(client, day, quoted):
    """The Daily play form names the day it was shown on; one that is not a
    past day as the page writes it (a later day, no date, another way of
    writing one) starts nothing and says so."""
    token = CSRF.search(client.get("/").get_data(as_text=True)).group(1)
    form = {"csrf_token": token, "rules": "cardems", "day": day}
    response = client.post("/daily/play", data=form)
    assert response.status_code == 400
    said = html.unescape(response.get_data(as_text=True))
    assert f"{quoted} is not the day of today's Daily deal (" in said
    assert client.get("/game").status_code == 404


@pytest.mark.parametrize(
    ("fetch_site", "said"),
    [
        ("same-origin", "sent no cookie back"),
        (None, "sent no cookie back"),
        ("cross-site", "security token"),
    ],
)
def test_a_browser_that_keeps_no_cookies_is_told_so(app, fetch_site, said):
    # A friend's phone that blocks cookies (a setting, some apps' own
    # browsers) opens a deal link and presses Start: the form's check rides
    # on a cookie, so the page said to reload and try again, which can
    # never work. A form from another site (no cookie either: SameSite)
    # keeps the plain refusal.
    link = "/deal/çerezsiz?rules=classic"
    page = app.test_client().get(link).get_data(as_text=True)
    fields = {
        "csrf_token": CSRF.search(page).group(1),
        "replaces": re.search(r'name="replaces" value="(\w*)"', page).group(1),
    }
    headers = {"Sec-Fetch-Site": fetch_site} if fetch_site else {}
    without_cookies = app.test_client(use_cookies=False)
    response = without_cookies.post(link, data=fields, headers=headers)
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert said in text
    if said != "security token":
        assert "allow cookies for this site" in text
        # An app's own browser has no such setting: its menu opens the page
        # (the deal link, where the answer stays) in the phone's browser.
        assert "In a chat app's own browser, open the page in your phone's browser" in text
    tr = without_cookies.post(link, data=fields, headers={**headers, "Accept-Language": "tr"})
    if said != "security token":
        assert "telefonunuzun tarayıcısında açın" in tr.get_data(as_text=True)


@pytest.mark.parametrize(
    "path,status,shown",
    [
        ("/deal/x%E2%80%AEy", 400, "“<bdi>x\ufffdy</bdi>” cannot be used"),
        ("/deal/~abcdef/x%00y", 400, "(seed “<bdi>x\ufffdy</bdi>”)"),
        ("/deal/x?rules=cl%E2%80%AEassic", 400, "no game called “cl\ufffdassic”"),
        ("/deal/x?level=ha%00rd", 400, "no computer level “ha\ufffdrd”"),
        ("/deal/x?jack_pisti=1%E2%80%AE0", 400, "“1\ufffd0” is not one of its values"),
        ("/deal/x?level=hard&level=ea%E2%80%8Fsy", 400, "(hard, ea\ufffdsy)"),
        ("/deal/x?targ%E2%80%AEet=51", 400, "asks for “targ\ufffdet”"),
        ("/daily/2026%E2%80%AE-01-01", 404, "Daily deal of “2026\ufffd-01-01”"),
    ],
)
def test_a_value_quoted_in_a_message_shows_no_control_character(client, path, status, shown):
    """A value quoted back in a refusal (a seed, a link's parameter, a day)
    shows a control or format character as U+FFFD: a right-to-left
    override turned the rest of the site's own message around, and a NUL
    went into the page as it came."""
    response = client.get(path)
    message = re.search(r'<p class="alert"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    assert response.status_code == status
    assert shown in message.group(1)
    assert not {"\u202e", "\u200f", "\x00"} & set(message.group(1))


@pytest.mark.parametrize("language", ["en", "tr"])
@pytest.mark.parametrize(
    "path,shown",
    [
        ("/deal?seed=%D8%B3.%D8%B9.", "“<bdi>س.ع.</bdi>”"),
        ("/deal?seed=%3Cb%3Ex%3C/b%3E", "“<bdi>&lt;b&gt;x&lt;/b&gt;</bdi>”"),
        ("/deal/~abcdef/%D8%B3%D8%B9", "“<bdi>سع</bdi>”"),
        ("/deal/~abcdef/x'y", "“<bdi>x&#39;y</bdi>”"),
    ],
)
def test_a_seed_quoted_in_a_message_is_set_apart_from_its_words(client, path, shown, language):
    """A seed typed in Persian or Hebrew, ending in a sign (``س.ع.``),
    turned the sentence quoting it around: its full stop went to the
    other end of the name, and the quote marks with it. The seed is in a
    ``<bdi>`` of its own now, escaped (``<b>x</b>`` is shown as typed), in
    both languages."""
    response = client.get(path, headers={"Accept-Language": language})
    message = re.search(r'<p class="alert"[^>]*>(.*?)</p>', response.get_data(as_text=True), re.S)
    assert response.status_code == 400
    assert shown in message.group(1)
    assert "<b>" not in message.group(1)


def test_a_card_from_another_games_page_is_refused(player):
    # A page of the game before (another tab, the back button), at the same
    # move as the game on the table now, sent with a card of the new hand:
    # nothing is played (409).
    player.deal("the-old-game")
    old = form_fields(player.page, "/play")
    player.deal("the-new-game")
    new = form_fields(player.page, "/play")
    assert old["game"] != new["game"] and old["move"] == new["move"] == "0"
    before = snapshot(player.client)
    response = player.post(
        card=player.hand[0], **{key: old[key] for key in ("move", "hand", "game")}
    )
    assert response.status_code == 409
    assert "out of date" in response.get_data(as_text=True)
    assert snapshot(player.client) == before


def test_a_card_sent_for_an_earlier_hand_is_refused(player):
    # The form of the match's first hand, sent once the second is dealt,
    # with the second's move number and one of its cards: a page of another
    # hand is out of date, nothing is played (409).
    player.deal("an-earlier-hand?rules=classic&target=51")
    while player.hand:
        player.play(player.hand[0])
    assert player.client.post("/next", data=form_fields(player.page, "/next")).status_code == 303
    player.get()
    fields = form_fields(player.page, "/play")
    assert fields["hand"] == "1"
    before = snapshot(player.client)
    response = player.post(card=player.hand[0], move=fields["move"], hand="0", game=fields["game"])
    assert response.status_code == 409
    assert "out of date" in response.get_data(as_text=True)
    assert snapshot(player.client) == before


def test_next_hand_from_another_games_page_is_refused(player):
    # The score page of the game before (another tab) between its first and
    # second hands, and the game on the table now between the same hands:
    # that page's "Next hand" deals nothing in this game (409). It dealt
    # this game's second hand (found by tests/web/test_web_machine.py).
    player.deal("an-old-match?rules=classic&target=51")
    while player.hand:
        player.play(player.hand[0])
    old = form_fields(player.page, "/next")
    player.deal("a-new-match?rules=classic&target=51")
    while player.hand:
        player.play(player.hand[0])
    new = form_fields(player.page, "/next")
    assert old["hand"] == new["hand"] == "0"
    before = snapshot(player.client)
    response = player.client.post("/next", data={**old, "csrf_token": player.token})
    assert response.status_code == 409
    assert "out of date" in response.get_data(as_text=True)
    assert snapshot(player.client) == before
    assert player.client.post("/next", data=new).status_code == 303
    assert form_fields(player.get().get_data(as_text=True), "/play")["hand"] == "1"


def test_next_hand_before_the_hand_is_over_is_refused(player):
    # "Next hand" of the hand being played (a form sent early, or forged):
    # nothing is dealt (409), and the hand goes on.
    player.deal("not-over-yet?rules=classic&target=51")
    fields = form_fields(player.page, "/play")
    before = snapshot(player.client)
    response = player.client.post(
        "/next", data={"csrf_token": player.token, "hand": fields["hand"]}
    )
    assert response.status_code == 409
    assert "out of date" in response.get_data(as_text=True)
    assert snapshot(player.client) == before
    player.play(player.hand[0])
