"""A page that answers a form takes the address of the page it belongs to,
so that reloading it (the page's script sets the address) reads that page
instead of the table or a form posted again."""

from __future__ import annotations

import re

import pytest
from werkzeug.urls import iri_to_uri

from tests.conftest import CSRF, Player, checked, form_fields, start_deal
from tests.web.test_house_page import token
from tests.web.test_review_pages import upload

ADDRESS = re.compile(r'<body[^>]* data-address="([^"]*)"')


def address(response) -> str | None:
    found = ADDRESS.search(response.get_data(as_text=True))
    return found and found.group(1)


def test_a_refused_play_stays_at_the_table(client):
    player = Player(client)
    player.deal("address")
    response = player.post(card=player.hand[0], move="7")
    assert response.status_code == 409
    assert address(response) == "/game"


def test_refused_house_rules_stay_at_the_house_rules_page(client):
    data = {"csrf_token": token(client), "rules": "classic", "players": "3", "teams": "partners"}
    response = client.post("/house", data=data)
    assert response.status_code == 400
    assert address(response) == "/house"


def test_a_refused_upload_stays_at_the_upload_page(client):
    response = upload(client, b"{not json")
    assert response.status_code == 400
    assert address(response) == "/review/"


def test_a_wrong_card_in_the_lesson_stays_in_the_lesson(client):
    page = client.get("/story/lesson").get_data(as_text=True)
    step = re.search(r'name="step" value="(\d+)"', page).group(1)
    data = {"csrf_token": CSRF.search(page).group(1), "card": "ZZ", "step": step}
    response = client.post("/story/lesson", data=data)
    assert response.status_code == 400
    assert address(response) == "/story/lesson"


def test_pages_read_with_get_carry_no_address(client):
    assert address(client.get("/")) is None
    assert address(client.get("/house")) is None


def test_a_missing_page_offers_the_game_only_to_someone_with_a_game(client):
    page = client.get("/no-such-page").get_data(as_text=True)
    assert "Back to your game" not in page and 'href="/">Home</a>' in page
    Player(client).deal("missing-page")
    page = client.get("/no-such-page").get_data(as_text=True)
    assert 'href="/game">Back to your game</a>' in page


@pytest.mark.parametrize(
    ("page", "action", "choice"),
    [
        ("/daily", "/daily/play", {"rules": "cardems"}),
        ("/story", "/story/play", {"opponent": "hayriye"}),
        ("/house", "/house", {"rules": "classic", "level": "medium", "target": ""}),
        ("/", "/new", {"rules": "cardems", "level": "easy"}),
    ],
)
def test_a_start_from_an_out_of_date_page_shows_the_table_at_its_address(
    client, page, action, choice
):
    """A start refused as out of date (a newer game began in another tab)
    answers with the table: its address is the table's, not the Daily
    page's, the story's or the house rules' (a reload opened those)."""
    if page == "/story":
        skip = client.get("/story").get_data(as_text=True)
        client.post("/story/lesson/skip", data={"csrf_token": CSRF.search(skip).group(1)})
    start_deal(client, "/deal/address-a")
    fields = form_fields(client.get(page).get_data(as_text=True), action)
    assert fields["replaces"]
    start_deal(client, "/deal/address-b")
    response = client.post(action, data={**fields, **choice})
    assert response.status_code == 409
    assert address(response) == "/game"


def test_a_deal_links_start_refused_stays_at_the_deal_link(app):
    """A friend's phone that keeps no cookies (an app's own browser) opens
    a deal link and presses Start: refused, as the form's check rides on a
    cookie, the page told them to allow cookies and reload, but took the
    table's address, so the reload (or the app's 'Open in browser') showed
    'no game' and the link was lost. It keeps the deal link's address; a
    refused New game keeps the home page's."""
    link = checked("/deal/çerezsiz?rules=classic&target=51&level=hard")
    friend = app.test_client(use_cookies=False)
    page = friend.get(link).get_data(as_text=True)
    fields = form_fields(page, "/deal/")
    response = friend.post(link, data=fields)
    assert response.status_code == 400
    assert "allow cookies for this site" in response.get_data(as_text=True)
    assert address(response) == iri_to_uri(link).replace("&", "&amp;")
    assert friend.get(address(response).replace("&amp;", "&")).status_code == 200
    # The language switch of that page comes back to the deal link too.
    assert form_fields(response.get_data(as_text=True), "/language")["next"] == address(response)
    home = friend.get("/").get_data(as_text=True)
    response = friend.post("/new", data={**form_fields(home, "/new"), "rules": "cardems"})
    assert response.status_code == 400
    assert address(response) == "/"
