"""A new game whose answer never reached the browser (Back pressed while it
was on its way, the network dropped): the browser still sends the id the
new game replaced, and is led on to the new game, on both session stores;
another browser holding that old id is not."""

from __future__ import annotations

import time

import pytest

from app import create_app, sessions
from tests.conftest import KEPT_GAME, REPLACES, app_config, form_fields, start_deal

COOKIES = ("pisti_session", "pisti_csrf")


@pytest.fixture(params=["files", "redis"])
def store_app(request, tmp_path):
    """The app with its sessions on disk or in a throwaway Redis."""
    config = app_config(tmp_path, RATELIMIT_ENABLED=False)
    if request.param == "redis":
        server = request.getfixturevalue("redis_server")
        config.update(SESSION_BACKEND="redis", REDIS_URL=server.url)
    return create_app(config)


def lost_new_game(app, player) -> str:
    """Send ``player``'s New game form with its cookies from another client,
    whose answer (with the new session id) ``player`` never gets; return
    the new id."""
    fields = form_fields(player.get("/").get_data(as_text=True), "/new")
    messenger = app.test_client()
    for name in COOKIES:
        messenger.set_cookie(name, player.get_cookie(name).value)
    assert messenger.post("/new", data={**fields, "rules": "cardems"}).status_code == 303
    return messenger.get_cookie("pisti_session").value


def test_a_new_games_lost_answer_leads_the_browser_to_the_new_game(store_app):
    player = store_app.test_client()
    start_deal(player, "/deal/lost-answer-old")
    old_id = player.get_cookie("pisti_session").value
    old_game = REPLACES.search(player.get("/").get_data(as_text=True)).group(1)
    new_id = lost_new_game(store_app, player)

    home = player.get("/")
    page = home.get_data(as_text=True)
    assert home.status_code == 200
    assert player.get_cookie("pisti_session").value == new_id != old_id
    assert "Continue your game" in page
    # The game the new one replaced is kept to go back to, as always.
    assert KEPT_GAME.findall(page) == [old_game]
    assert player.get("/game").status_code == 200


def test_games_started_one_after_another_with_every_answer_lost_lead_to_the_newest(store_app):
    player = store_app.test_client()
    start_deal(player, "/deal/lost-twice")
    first = lost_new_game(store_app, player)
    messenger = store_app.test_client()
    messenger.set_cookie("pisti_session", first)
    messenger.set_cookie("pisti_csrf", player.get_cookie("pisti_csrf").value)
    newest = lost_new_game(store_app, messenger)
    assert player.get("/game").status_code == 200
    assert player.get_cookie("pisti_session").value == newest


def test_another_browser_with_the_old_id_is_not_led_to_the_new_game(store_app):
    player = store_app.test_client()
    start_deal(player, "/deal/lost-answer-other")
    old_id = player.get_cookie("pisti_session").value
    new_id = lost_new_game(store_app, player)

    other = store_app.test_client()
    other.get("/")  # its own CSRF cookie
    other.set_cookie("pisti_session", old_id)
    assert other.get("/game").status_code == 404
    assert other.get_cookie("pisti_session").value == old_id
    # Nor one that sends no CSRF cookie at all.
    bare = store_app.test_client()
    bare.set_cookie("pisti_session", old_id)
    assert bare.get("/game").status_code == 404
    assert bare.get_cookie("pisti_session").value != new_id


def lost_first_game(app, player) -> tuple[dict[str, str], str]:
    """Send a new browser's (``player``'s) first New game from another
    client with its CSRF cookie, whose answer ``player`` never gets; return
    the form's fields and the new game's session id."""
    fields = {**form_fields(player.get("/").get_data(as_text=True), "/new"), "rules": "cardems"}
    messenger = app.test_client()
    messenger.set_cookie("pisti_csrf", player.get_cookie("pisti_csrf").value)
    assert messenger.post("/new", data=fields).status_code == 303
    return fields, messenger.get_cookie("pisti_session").value


def test_a_new_browsers_first_game_whose_answer_was_lost_is_found_by_starting_again(
    store_app, monkeypatch
):
    # A browser with no session yet: no old id leads it on, so the start it
    # sends again (New game pressed again after Back) is led to the game
    # its first start stored. Once the claim has lapsed, a start is new.
    # Two seconds: the file store (cachelib) writes an expiry in whole
    # seconds (the second it was written in, plus its time), so a claim of
    # one second lasted anything from 0 to 1 s, at times not until the
    # start sent again.
    monkeypatch.setattr(sessions, "FIRST_START_SECONDS", 2)
    player = store_app.test_client()
    fields, lost_id = lost_first_game(store_app, player)

    again = player.post("/new", data=fields)
    assert (again.status_code, again.location) == (303, "/game")
    assert player.get_cookie("pisti_session").value == lost_id
    assert "Continue your game" in player.get("/").get_data(as_text=True)

    later = store_app.test_client()
    later.set_cookie("pisti_csrf", player.get_cookie("pisti_csrf").value)
    time.sleep(2.1)
    assert later.post("/new", data=fields).status_code == 303
    assert later.get_cookie("pisti_session").value != lost_id


def test_a_new_browsers_other_start_after_a_lost_answer_starts_its_own_game(store_app):
    # The first answer was lost and the player chose other settings (or
    # another deal) before starting again: that start is not the same form
    # sent twice, so it deals the game asked for.
    player = store_app.test_client()
    fields, lost_id = lost_first_game(store_app, player)

    other = player.post("/new", data={**fields, "rules": "classic", "target": "51"})
    assert (other.status_code, other.location) == (303, "/game")
    assert player.get_cookie("pisti_session").value != lost_id
    assert "Classic" in player.get("/game").get_data(as_text=True)
