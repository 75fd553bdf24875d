"""A player whose game is interrupted (a phone locked for days, a game put
aside for weeks) finds it again: the browser keeps the game's cookies as
long as the server keeps the game; back after it let the games go, the
player is told so."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from itsdangerous import TimestampSigner

from app import sessions
from app.web import store
from tests.conftest import Player

#: The session's lifetime (FLASK_PERMANENT_SESSION_LIFETIME's default).
LIFETIME = timedelta(days=31)
COOKIES = ("pisti_session", "pisti_csrf")


def cookies_clock(monkeypatch) -> SimpleNamespace:
    """Set the clock by which the session's cookies are sent again (move it
    with ``clock.now``, in seconds), and only that one: the store's files
    keep the real clock, or its sweep would delete them."""
    clock = SimpleNamespace(now=int(time.time()))
    monkeypatch.setattr(sessions, "_seconds_now", lambda: clock.now)
    return clock


def show_page_made_days_ago(player: Player, monkeypatch, days: int) -> None:
    """Load ``player``'s table as if its page had been made ``days`` ago:
    its form token carries that time (Flask-WTF's clock only)."""
    made = int(time.time()) - days * 24 * 3600
    with monkeypatch.context() as patched:
        patched.setattr(TimestampSigner, "get_timestamp", lambda signer: made)
        player.get()


def sent(response) -> set[str]:
    """The names of the cookies ``response`` sets."""
    return {line.split("=", 1)[0] for line in response.headers.getlist("Set-Cookie")}


def test_a_move_weeks_after_the_start_keeps_the_game_s_cookies_a_lifetime(client, monkeypatch):
    """The server keeps a game 31 days from its last change, but the
    browser kept its cookies 31 days from the game's start (the session
    cookie) and from the first page (the CSRF cookie): a game started 25
    days ago and played today was lost on day 31, a card tapped then
    answered "allow cookies for this site"."""
    clock = cookies_clock(monkeypatch)
    player = Player(client)
    player.deal("locked-phone")
    clock.now += 25 * 24 * 3600
    six_days_left = datetime.now(UTC) + timedelta(days=6)
    for name in COOKIES:
        # As the browser holds them 25 days after they were sent.
        client.set_cookie(name, client.get_cookie(name).value, expires=six_days_left)
    answer = player.post(card=player.hand[0], move=player.move)
    assert answer.status_code == 303
    # With them, the count of unfinished games, its time brought forward.
    assert sent(answer) == {*COOKIES, store.UNFINISHED_COOKIE}
    for name in COOKIES:
        assert client.get_cookie(name).expires > datetime.now(UTC) + LIFETIME, name


def test_moves_of_the_same_day_send_no_cookie(client, monkeypatch):
    """The cookies go again once a day at most: a cookie set with each move
    would drop the table's pages from the browser's back/forward cache."""
    clock = cookies_clock(monkeypatch)
    player = Player(client)
    player.deal("same-day")
    clock.now += 23 * 3600
    answer = player.post(card=player.hand[0], move=player.move)
    assert answer.status_code == 303 and sent(answer) == set()
    player.get()
    clock.now += 3600
    answer = player.post(card=player.hand[0], move=player.move)
    assert answer.status_code == 303 and sent(answer) == {*COOKIES, store.UNFINISHED_COOKIE}


def test_a_page_left_open_past_the_cookies_lifetime_says_so(app, client, monkeypatch):
    """A table left open 40 days (a laptop closed, nothing played), its
    cookies let go by the browser: a card tapped said "allow cookies for
    this site", though the browser keeps cookies. It says what happened;
    a page shown a moment ago with no cookie still asks to allow them."""
    player = Player(client)
    player.deal("left-open")
    show_page_made_days_ago(player, monkeypatch, 40)
    for name in COOKIES:
        client.delete_cookie(name)
    answer = player.post(card=player.hand[0], move=player.move)
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    assert "This page was opened 1 month ago" in text
    assert "lets this site&#39;s cookies go 1 month after the last move" in text
    assert "allow cookies" not in text
    data = {"csrf_token": player.token, "card": player.hand[0], "move": player.move}
    turkish = client.post("/play", data=data, headers={"Accept-Language": "tr"})
    assert "Bu sayfa 1 ay önce açıldı" in turkish.get_data(as_text=True)
    fresh = Player(app.test_client())
    fresh.deal("just-opened")
    # A browser that keeps no cookie: the count of unfinished games is not
    # kept either.
    for name in (*COOKIES, store.UNFINISHED_COOKIE):
        fresh.client.delete_cookie(name)
    text = fresh.post(card=fresh.hand[0], move=fresh.move).get_data(as_text=True)
    assert "allow cookies for this site" in text and "This page was opened" not in text


def test_a_page_left_open_with_the_language_cookie_still_kept_says_so(client, monkeypatch):
    """The language chosen is kept 400 days, the game's cookies a month:
    the table of a Turkish player left open 40 days said "missing its
    security token or it did not match (it may come from another site)"."""
    player = Player(client)
    player.deal("dil-kaldı")
    chosen = client.post("/language", data={"csrf_token": player.token, "language": "tr"})
    assert chosen.status_code == 303
    show_page_made_days_ago(player, monkeypatch, 40)
    for name in COOKIES:
        client.delete_cookie(name)
    assert client.get_cookie("pisti_language").value == "tr"
    answer = player.post(card=player.hand[0], move=player.move)
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    assert "Bu sayfa 1 ay önce açıldı" in text
    assert "güvenlik anahtarı" not in text


def test_a_card_tapped_on_a_page_shown_two_days_ago_is_played(client, monkeypatch):
    """A phone locked for two days mid-hand: the page's form token is two
    days old, its cookies still kept; the card is played (the tokens have
    no time limit of their own: WTF_CSRF_TIME_LIMIT is None, as the
    session's lifetime bounds them)."""
    player = Player(client)
    player.deal("locked-two-days")
    show_page_made_days_ago(player, monkeypatch, 2)
    hand, move = player.hand, int(player.move)
    player.play(hand[0])
    assert int(player.move) > move and hand[0] not in player.hand


def test_an_old_page_whose_game_is_still_kept_is_not_told_it_is_gone(client, monkeypatch):
    """Only the CSRF cookie gone (one set before the cookies were sent again
    with the game's changes: 31 days from the first page), the game's
    cookie kept: the game is there, so the page must not say it went."""
    player = Player(client)
    player.deal("still-kept")
    show_page_made_days_ago(player, monkeypatch, 3)
    client.delete_cookie("pisti_csrf")
    answer = player.post(card=player.hand[0], move=player.move)
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    assert "and the game with them" not in text
    assert "reload the page and try again" in text
    assert player.get().status_code == 200 and player.hand


def unfinished_clock(monkeypatch) -> SimpleNamespace:
    """Set the clock of the cookie counting the unfinished games (move it
    with ``clock.now``, in seconds), and only that one."""
    clock = SimpleNamespace(now=int(time.time()))
    monkeypatch.setattr(store, "_seconds_now", lambda: clock.now)
    return clock


def browser_lets_the_session_go(client) -> None:
    """The browser drops the game's cookies, as it does 32 days after they
    were last sent (the session, 31 days after its last change, is gone)."""
    for name in COOKIES:
        client.delete_cookie(name)


def test_a_player_back_after_their_games_expired_is_told_once(app, client, monkeypatch):
    """Two games left unfinished for five weeks: the session expired and
    the home page showed the New game form as to a newcomer, the games
    gone without a word. It says so once; the next visit says nothing."""
    clock = unfinished_clock(monkeypatch)
    player = Player(client)
    player.deal("kept-one")
    player.play(player.hand[0])
    player.deal("kept-two")
    assert client.get_cookie(store.UNFINISHED_COOKIE).value == f"2.{clock.now}"
    home = client.get("/").get_data(as_text=True)
    assert "Your other games in progress" in home and "were let go" not in home
    clock.now += 35 * 24 * 3600
    browser_lets_the_session_go(client)
    answer = client.get("/")
    text = answer.get_data(as_text=True)
    assert (
        "Welcome back. Your 2 unfinished games were let go: a game is kept 1 month after "
        "its last move, and they had waited longer."
    ) in text
    assert "New to Pişti?" not in text  # no newcomer
    assert sent(answer) == {store.UNFINISHED_COOKIE, "pisti_csrf"}
    assert client.get_cookie(store.UNFINISHED_COOKIE) is None
    again = client.get("/").get_data(as_text=True)
    assert "let go" not in again


def test_a_player_back_through_a_deal_link_is_told_on_the_next_home_page(client, monkeypatch):
    """Back after five weeks through a friend's deal link, started at once:
    the new game's count replaced the old one, and the home page never
    said the two games were let go. The notice waits for the home page,
    once, beside the new game."""
    clock = unfinished_clock(monkeypatch)
    player = Player(client)
    player.deal("old-one")
    player.deal("old-two")
    clock.now += 35 * 24 * 3600
    browser_lets_the_session_go(client)
    assert "let go" not in player.deal("friend-link").get_data(as_text=True)
    player.play(player.hand[0])
    text = client.get("/").get_data(as_text=True)
    assert "Welcome back. Your 2 unfinished games were let go" in text
    assert "Continue your game" in text
    assert client.get_cookie(store.UNFINISHED_COOKIE).value == f"1.{clock.now}"
    assert "let go" not in client.get("/").get_data(as_text=True)
    assert "Continue your game" in client.get("/").get_data(as_text=True)


def test_a_game_let_go_is_told_after_a_deal_link_s_game_is_finished(client, monkeypatch):
    """Back through a deal link and the game played out before the home
    page: no game unfinished, the count was dropped and the notice with
    it. It is told on the home page, in Turkish too."""
    clock = unfinished_clock(monkeypatch)
    Player(client).deal("old-tek")
    clock.now += 32 * 24 * 3600
    browser_lets_the_session_go(client)
    player = Player(client)
    player.deal("yeni")
    while player.hand:
        player.play(player.hand[0])
    assert "Final score" in player.page
    text = client.get("/", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert "Tekrar hoş geldiniz. Bitmemiş oyununuz silindi" in text
    assert client.get_cookie(store.UNFINISHED_COOKIE) is None
    assert "silindi" not in client.get("/", headers={"Accept-Language": "tr"}).get_data(
        as_text=True
    )


def test_one_game_let_go_is_told_in_turkish(client, monkeypatch):
    clock = unfinished_clock(monkeypatch)
    player = Player(client)
    player.deal("tek-oyun")
    clock.now += 32 * 24 * 3600
    browser_lets_the_session_go(client)
    text = client.get("/", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert (
        "Tekrar hoş geldiniz. Bitmemiş oyununuz silindi: bir oyun son hamlesinden sonra "
        "1 ay saklanır ve bu oyun daha uzun süre bekledi."
    ) in text


def test_games_lost_sooner_are_not_said_to_have_expired(client, monkeypatch):
    """Cookies cleared by the player (or a store wiped) a week on: the
    games are gone, but not for their age; nothing is claimed, and the
    count goes with the first home page."""
    clock = unfinished_clock(monkeypatch)
    Player(client).deal("cleared")
    clock.now += 7 * 24 * 3600
    browser_lets_the_session_go(client)
    answer = client.get("/")
    assert "let go" not in answer.get_data(as_text=True)
    assert client.get_cookie(store.UNFINISHED_COOKIE) is None


def test_the_count_follows_the_games_and_costs_a_visitor_nothing(app, client, monkeypatch):
    """A visitor gets no count; a game started, put aside, resumed or
    finished changes it; moves that change nothing send no cookie."""
    clock = unfinished_clock(monkeypatch)
    assert store.UNFINISHED_COOKIE not in sent(client.get("/"))
    assert client.get_cookie(store.UNFINISHED_COOKIE) is None
    player = Player(client)
    player.deal("count-one")
    assert client.get_cookie(store.UNFINISHED_COOKIE).value == f"1.{clock.now}"
    answer = player.post(card=player.hand[0], move=player.move)
    assert answer.status_code == 303 and store.UNFINISHED_COOKIE not in sent(answer)
    player.get()
    # A single hand (Cardems) played out: no game left unfinished.
    while player.hand:
        player.play(player.hand[0])
    assert "Final score" in player.page
    assert "Continue your game" not in client.get("/").get_data(as_text=True)
    assert client.get_cookie(store.UNFINISHED_COOKIE) is None
    # Weeks on, the finished game's session expired: nothing to tell.
    clock.now += 40 * 24 * 3600
    browser_lets_the_session_go(client)
    assert "let go" not in client.get("/").get_data(as_text=True)
