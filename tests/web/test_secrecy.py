"""No hidden card (the computer's hand, the stock, face-down cards) ever
reaches a page or a cookie."""

from __future__ import annotations

import json
import re

from app.engine import CARDEMS, GameState, card_label, card_name


def hidden_cards(state: GameState) -> set[str]:
    seen_by_player = set(state.hands[0]) | set(state.pile[state.face_down :]) | set(state.plays)
    return set(state.deck) - seen_by_player


def leaks(page: str, cards: set[str]) -> list[str]:
    found = []
    for card in cards:
        if card_name(card) in page or card_label(card) in page or f'value="{card}"' in page:
            found.append(card)
    return found


def test_hidden_cards_never_reach_a_page_or_cookie(client, player):
    pages = []  # (plays made when the page was shown, page text)
    player.deal("secrets-stay-secret")
    pages.append((int(player.move), player.page))
    cookies = set()
    while player.hand:
        response = player.post(card=player.hand[-1], move=player.move)
        cookies.update(response.headers.getlist("Set-Cookie"))
        player.get()
        if player.hand:
            pages.append((int(player.move), player.page))
    record = json.loads(client.get("/record").get_data(as_text=True))
    assert len(pages) == 24
    for made, page in pages:
        state = GameState.replay(CARDEMS, record["deck"], record["plays"][:made])
        hidden = hidden_cards(state)
        assert len(hidden) > 0
        assert leaks(page, hidden) == [], f"after {made} plays"
    for header in cookies:
        value = header.split(";", 1)[0].split("=", 1)[1]
        assert re.fullmatch(r"[A-Za-z0-9_-]{20,64}", value), header
        assert "HttpOnly" in header and "SameSite=Lax" in header


def test_random_deal_seed_is_not_on_the_table(client):
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    client.post("/new", data={"csrf_token": token})
    page = client.get("/game").get_data(as_text=True)
    assert "/deal/" not in page and "Share" not in page
