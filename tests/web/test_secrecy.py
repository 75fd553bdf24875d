"""No hidden card (the computer's hand, the stock, face-down cards) ever
reaches a page or a cookie."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re

import pytest

from app.engine import CARDEMS, RULE_SETS, GameState, card_label, card_name
from app.web.game import render_table
from app.web.table import Table
from app.web.view import face_down_words
from tests.engine.test_observation import hidden_from


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


def _twin(table: Table, rng: random.Random) -> Table:
    """``table`` with the cards hidden from the player (the other hands,
    the stock, the face-down cards) dealt otherwise, after the same plays."""
    state = table.match.state
    hidden = hidden_from(state, table.seat)
    deck = list(state.deck)
    places = [index for index, card in enumerate(deck) if card in hidden]
    moved = [deck[index] for index in places]
    rng.shuffle(moved)
    for index, card in zip(places, moved, strict=True):
        deck[index] = card
    match = copy.copy(table.match)
    match.state = GameState.replay(state.rules, deck, list(state.plays))
    assert match.state.hands != state.hands or match.state.deck != state.deck
    return dataclasses.replace(table, match=match)


@pytest.mark.parametrize("rules", list(RULE_SETS.values()), ids=list(RULE_SETS))
def test_a_table_page_is_the_same_whatever_the_hidden_cards(app, rules):
    """Two games that differ only in the cards hidden from the player give
    the same table page, hints, counter and steps of the plays included:
    no hidden card shows through a hint's card or reason, a count, a step
    left out as unchanged, or anything else a page says."""
    rng = random.Random(rules.name)
    aids = ".".join(["highlight", "counter", "hints", "bottom_card", "fan", "remarks"])
    compared = hinted = 0
    for number in range(4):
        table = Table.start(rules, f"twins-{number}", ["hard"] * (rules.players - 1), True)
        for _ in range(rng.randint(1, 9)):
            table.play(rng.choice(table.state.hands[table.seat]), str(table.move))
        if table.state.finished:
            continue
        for frames in (False, True):
            pages = []
            for shown in (table, _twin(table, rng)):
                with app.test_request_context("/game", headers={"Cookie": f"pisti_aids={aids}"}):
                    page = render_table(shown, frames=frames)
                pages.append(re.sub(r'name="csrf_token" value="[^"]+"', "", page))
            assert pages[0] == pages[1], (number, frames)
            compared += 1
            # Hints show with two cards or more in hand.
            hinted += "The Hard level would play" in pages[0]
    assert compared >= 4 and hinted >= 2


def test_the_face_down_cards_are_named_only_once_the_hand_is_over(app):
    """:func:`face_down_words` names the face-down centre cards; taken
    mid-hand they are still hidden, so it says nothing until the end."""
    rng = random.Random(3)
    table = Table.start(CARDEMS, "face-down-words", ["easy"], True)
    while table.state.face_down_taker is None:
        table.play(rng.choice(table.state.hands[table.seat]), str(table.move))
    assert not table.state.finished
    with app.test_request_context("/game"):
        assert face_down_words(table) is None
        while not table.state.finished:
            table.play(rng.choice(table.state.hands[table.seat]), str(table.move))
        words = str(face_down_words(table))
    assert all(card_label(card) in words for card in table.state.face_down_cards)
