"""No hidden card (the computer's hand, the stock, face-down cards) ever
reaches a page or a cookie."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from collections import Counter

import pytest

from app.engine import CARDEMS, RULE_SETS, GameState, card_label, card_name, observe
from app.web.game import render_table
from app.web.store import UNFINISHED_COOKIE
from app.web.table import Table
from app.web.view import face_down_words
from tests.conftest import CSRF, form_fields, start_deal
from tests.engine.test_observation import hidden_from


def hidden_cards(state: GameState) -> set[str]:
    seen_by_player = set(state.hands[0]) | set(state.pile[state.face_down :]) | set(state.plays)
    return set(state.deck) - seen_by_player


#: A card face as drawn on a page (:func:`app.web.faces.face`): its suit
#: and the rank of its index ("10" for a ten).
DRAWN_FACE = re.compile(
    r'<svg class="card face suit-([CDHS])[^>]*>\s*<rect[^>]*/>\s*'
    r'<text class="index[^"]*"[^>]*>(\w+)</text>'
)
#: Every aid on (the cookie's form): the counter, hints, the bottom card ...
EVERY_AID = "highlight.counter.hints.bottom_card.fan.remarks.slow"


def drawn_faces(page: str) -> list[str]:
    """The cards drawn face up on ``page``, as card codes, in page order."""
    return [f"{'T' if rank == '10' else rank}{suit}" for suit, rank in DRAWN_FACE.findall(page)]


def leaks(page: str, cards: set[str]) -> list[str]:
    """The cards of ``cards`` that ``page`` shows: named ("ace of spades"),
    labelled ("A♠"), sent as a form's value, or drawn face up (an SVG face
    has no name, only its index and suit, see :func:`drawn_faces`)."""
    drawn = set(drawn_faces(page))
    found = []
    for card in cards:
        named = card_name(card) in page or card_label(card) in page
        if named or f'value="{card}"' in page or card in drawn:
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
        name, value = header.split(";", 1)[0].split("=", 1)
        # Random ids; or how many games are unfinished and when (digits).
        pattern = r"(\d+\.\d+)?" if name == UNFINISHED_COOKIE else r"[A-Za-z0-9_-]{20,64}"
        assert re.fullmatch(pattern, value), header
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


def may_see(table: Table) -> set[str]:
    """The cards the player may see at ``table`` as it stands, from the
    engine's observation of the player's seat: its hand, the face-up pile,
    the plays, the stock's shown bottom cards and, under
    ``face_down="capturer"``, the face-down cards its team took. Once the
    hand is over every card has been shown (the face-down ones too)."""
    state = table.state
    if state.finished:
        return set(state.deck)
    seen = observe(state, table.seat)
    return {*seen.hand, *seen.pile_face_up, *seen.seen}


def saved_table(client) -> Table:
    """The player's game as the session keeps it."""
    with client.session_transaction() as session:
        return Table.from_dict(session["table"])


def play_through_checking_faces(client, rng: random.Random) -> Counter[str]:
    """Play the client's game to its end, a random card each turn, Next hand
    between hands; at every stop read the table page, and its steps (asked
    for as the table's script does, ``Pisti-Frames: 1``), and check each
    card drawn face up, named or offered is one the player may see then.
    Return the counts of pages read ("pages"; "table", "between" and
    "final" by kind), of faces read ("faces") and of faces drawn mid-hand
    that only a rule shows: the stock's bottom cards ("bottom") and the
    face-down cards the player's team took ("face_down")."""
    counts: Counter[str] = Counter()
    client.set_cookie("pisti_aids", EVERY_AID)
    while True:
        table = saved_table(client)
        allowed = may_see(table)
        hidden = set(table.state.deck) - allowed
        seen = observe(table.state, table.seat)
        kind = "final" if table.match.over else "between" if table.match.hand_counted else "table"
        for headers in ({}, {"Pisti-Frames": "1"}):
            page = client.get("/game", headers=headers).get_data(as_text=True)
            drawn = drawn_faces(page)
            assert len(drawn) == page.count('class="card face ')
            # The table draws the hand; the score pages, the last plays' steps.
            assert drawn or kind != "table"
            assert set(drawn) <= allowed, (set(drawn) - allowed, table.state.plays)
            assert leaks(page, hidden) == [], table.state.plays
            counts.update(pages=1, faces=len(drawn), **{kind: 1})
            if kind == "table":
                counts["bottom"] += len(set(drawn) & set(seen.stock_bottom))
                counts["face_down"] += len(set(drawn) & set(seen.seen_face_down))
        if kind == "final":
            return counts
        if kind == "between":
            assert client.post("/next", data=form_fields(page, "/next")).status_code == 303
        else:
            card = rng.choice(table.state.hands[table.seat])
            fields = {**form_fields(page, "/play"), "card": card}
            assert client.post("/play", data=fields).status_code == 303


def _token(client, path: str) -> str:
    return CSRF.search(client.get(path).get_data(as_text=True)).group(1)


def _house(**options: str):
    def start(client):
        data = {"csrf_token": _token(client, "/house"), "level": "easy", **options}
        return client.post("/house", data=data)

    return start


def _daily(rules: str):
    def start(client):
        return client.post(
            "/daily/play", data={"csrf_token": _token(client, "/daily"), "rules": rules}
        )

    return start


def _story(client):
    client.post("/story/lesson/skip", data={"csrf_token": _token(client, "/story")})
    return client.post(
        "/story/play", data={"csrf_token": _token(client, "/story"), "opponent": "hayriye"}
    )


#: The ways into a game, and what a game of each always meets beyond the
#: table and the final page (the deal links' games are the same every run;
#: the others' deals are new each time, or today's).
STARTS = {
    "cardems": (lambda client: start_deal(client, "/deal/secret-faces"), ()),
    "classic-match": (
        lambda client: start_deal(client, "/deal/secret-faces?rules=classic&target=51"),
        ("between",),
    ),
    # The bottom card shown; the face-down cards seen by the side that took them.
    "partners": (
        lambda client: start_deal(client, "/deal/secret-faces?rules=partners&target=51"),
        ("between", "bottom", "face_down"),
    ),
    "house-3": (
        _house(rules="classic", players="3", bottom_card="no_jack", face_down="capturer"),
        (),
    ),
    "house-4": (_house(rules="cardems", players="4", teams="solo", face_down="capturer"), ()),
    "daily": (_daily("cardems"), ()),
    "daily-partners": (_daily("partners"), ()),
    "mansion-evenings": (_story, ()),
}


@pytest.mark.parametrize(("start", "met"), list(STARTS.values()), ids=list(STARTS))
def test_every_card_drawn_face_up_is_one_the_player_may_see(client, start, met):
    """Every table page of a game (every aid on), its steps, the pages
    between hands and the final page draw face up only cards the engine's
    observation lets the player's seat see: its hand, the face-up pile, the
    plays, a shown bottom card, face-down cards its side took under
    ``face_down="capturer"``; no other card is named or offered either."""
    assert start(client).status_code == 303
    counts = play_through_checking_faces(client, random.Random(7))
    assert counts["table"] >= 24 and counts["final"] == 2
    assert counts["faces"] > 5 * counts["pages"]
    assert all(counts[what] > 0 for what in met), counts
