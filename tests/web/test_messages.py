"""Messages that stay true: what became of a card after the replies, a
capture count that agrees with the pile count, no card back standing for
face-up cards."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from app.ai.hints import Hint
from app.engine import (
    CARDEMS,
    FULL_DECK,
    PARTNERS,
    GameState,
    card_label,
    card_name,
    parse_rules_text,
    would_capture,
)
from app.engine.match import Match
from app.web.table import Table, logged
from app.web.view import _taker_words, describe_plays, hint_text, position_names
from tests.conftest import start_deal
from tests.web.test_score_pages import play_hand


def shown(page: str) -> str:
    """The page as it stands, without the step-by-step frames (``<template>``)
    the script plays before it, each true at its own moment, and a log's
    cards as the eye reads them ("7♥", not also "7 of hearts")."""
    page = re.sub(r"<template.*?</template>", "", page, flags=re.S)
    return re.sub(
        r'<span aria-hidden="true">([^<]*)</span><span class="visually-hidden">[^<]*</span>',
        r"\1",
        page,
    )


def first_play(wanted: Callable[[Table, str], bool], prefix: str) -> tuple[str, str, Table]:
    """The first seed ``prefix-N`` whose deal, after the player's first
    card (the first of the hand that suits ``wanted``) and the Medium
    computer's reply, satisfies ``wanted``; return the seed, the card and
    the table after the reply."""
    for number in range(500):
        seed = f"{prefix}-{number}"
        for card in Table.start(CARDEMS, seed, ["medium"], True).observation().hand:
            table = Table.start(CARDEMS, seed, ["medium"], True)
            table.play(card, "0")
            if wanted(table, card):
                return seed, card, table
    raise AssertionError(f"no {prefix} deal found")


def test_a_card_taken_by_the_reply_says_who_took_it(player):
    seed, card, table = first_play(
        lambda table, card: not table.log[0]["captured"] and table.log[1]["captured"], "taken"
    )
    player.deal(seed)
    player.play(card)
    reply = card_label(table.log[1]["card"])
    page = shown(player.page)
    assert f"You played {card_label(card)}: the computer took it with {reply}." in page
    assert "it stays on the pile" not in page
    # The player's last card beside the hand says it too.
    assert f"the computer took it with {reply}</span>" in page


def test_a_card_you_took_says_so_with_its_own_verb(client):
    # "%(taker)s took it with" gave the Turkish "siz J♥ ile aldı": the verb
    # of "you" is "aldınız". The hand's last plays show it when the
    # computer leads the last round and your last card takes its card.
    start_deal(client, "/deal/yours-1?rules=classic&target=51")
    page = shown(play_hand(client))
    taken = re.search(r"The computer played (\S+): you took it with (\S+)\.", page)
    assert taken is not None, page
    turkish = client.get("/game", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert f"{taken.group(2)} ile siz aldınız" in shown(turkish)


def test_a_card_left_on_the_pile_says_so(player):
    seed, card, _ = first_play(
        lambda table, card: not table.log[0]["captured"] and not table.log[1]["captured"], "left"
    )
    player.deal(seed)
    player.play(card)
    assert f"You played {card_label(card)}: it stays on the pile." in shown(player.page)


@pytest.mark.parametrize("lone", [False, True])
def test_the_capture_mark_counts_the_cards_of_the_pile(player, lone):
    seed, card, table = first_play(
        lambda table, card: (
            any(
                would_capture(mine, table.observation().pile_top)
                for mine in table.observation().hand
            )
            and (not lone or table.observation().pile_size == 1)
        ),
        "mark-lone" if lone else "mark",
    )
    observation = table.observation()
    mine = next(card for card in observation.hand if would_capture(card, observation.pile_top))
    player.deal(seed)
    player.play(card)
    size = observation.pile_size
    page = shown(player.page)
    assert f"Pile: {size} card" in page
    marks = set(re.findall(r'class="take-mark" aria-hidden="true">takes (\d+)<', page))
    assert marks == {str(size)}
    # The mark's words are the start of what the name says after the card
    # (WCAG's Label in Name: "click takes 4" by voice), in both languages.
    label = f'aria-label="{card_name(mine)} — takes {size}: captures '
    assert label + ("the pile’s only card" if size == 1 else "all the pile’s cards") in page
    turkish = player.client.get("/game", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert f'class="take-mark" aria-hidden="true">{size} alır<' in turkish
    assert re.search(rf'aria-label="[^"]+ — {size} alır: yerdeki [^"]+ toplar">', turkish)
    assert mine in player.hand


def test_face_up_cards_under_the_fan_are_not_drawn_as_a_back(player):
    # Fan off: only the top card is drawn; face-down cards (the opening
    # three) are a back, face-up cards under the top are plain paper.
    player.deal("fan-off")
    player.client.post(
        "/settings", data={"csrf_token": player.token, "highlight": "on", "next": "/game"}
    )
    player.get()
    page = shown(player.page)
    assert "Pile: 4 cards, 3 face down" in page
    assert page.count('class="card back under"') == 1
    assert "face-up-edge" not in page
    # Later, the face-down cards gone, three face-up cards or more under the top card.
    for number in range(500):
        table = Table.start(CARDEMS, f"under-{number}", ["medium"], True)
        mine = []
        while not table.state.finished:
            observation = table.observation()
            if observation.face_down == 0 and len(observation.pile_face_up) >= 4:
                break
            mine.append(observation.hand[0])
            table.play(mine[-1], str(table.move))
        else:
            continue
        break
    player.deal(f"under-{number}")
    for card in mine:
        player.play(card)
    page = shown(player.page)
    assert 'class="card back under"' not in page
    # An edge per card under the top one (up to eight).
    edges = re.findall(r'class="card face-up-edge under edges-(\d)"', page)
    assert edges == [str(min(len(observation.pile_face_up) - 1, 8))]


def test_face_down_cards_taken_are_counted_apart_from_the_points(player):
    # The points so far leave out the face-down cards (nobody has seen
    # them), so "0 points" read as if the capture had taken nothing: the
    # side's line says how many it took face down.
    seed, card, _table = first_play(lambda table, card: table.log[0]["captured"], "under")
    player.deal(seed)
    assert "face down</button>" not in player.page
    player.play(card)
    you, computer = re.findall(r'<li class="side side-\d">(.*?)</li>', player.page, re.S)
    # A tap on it says what it means (the points popover; a phone shows no
    # title).
    chip = '<button type="button" class="chip unseen" popovertarget="key-points"'
    assert chip in you and ">3 of them face down</button>" in you
    assert "face down" not in computer
    page = player.client.get("/game", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert ">3 tanesi kapalı</button>" in page


def test_a_jack_on_a_lone_card_takes_the_piles_only_card(app):
    # Not "captured the pile's 1 card": a lone card taken by a Jack (no
    # pişti: another rank) is the pile's only card.
    match = Table.start(CARDEMS, "lone", ["medium"], True).match
    event = {"jack_pisti": False, "pisti": False, "captured": 2}
    for language, words in (
        ("en", "captured the pile's only card"),
        ("tr", "yerdeki tek kartı aldı"),
    ):
        with app.test_request_context(headers={"Accept-Language": language}):
            assert _taker_words(event, None, position_names(2), match) == words
    with app.test_request_context():
        three = _taker_words({**event, "captured": 4}, None, position_names(2), match)
    assert three == "captured the pile's 3 cards"


def hand_told(app, rules, centre: list[str], first: list[str], last: list[str], language: str):
    """The log's sentences of a whole hand, as the page words them: the
    centre is ``centre`` (bottom to top), the hand's plays start with
    ``first`` and end with ``last``, the other cards played in between in
    the canonical order. The deck deals those plays: in deal ``r`` seat
    ``s``'s ``k``-th card is play ``r * 4n + k * n + s`` (``n`` seats)."""
    given = {*centre, *first, *last}
    middle = [card for card in FULL_DECK if card not in given]
    plays = [*first, *middle, *last]
    n, per_deal = rules.players, 4 * rules.players
    deck = list(centre)
    for r in range(48 // per_deal):
        for s in range(n):
            deck += [plays[r * per_deal + k * n + s] for k in range(4)]
    match = Match(rules, "told")
    match.rotation = 0  # position 0 (you) plays first, the last position deals
    match.state = GameState.deal(rules, deck)
    log = [logged(match.state.play(card), match.position_of(i % n)) for i, card in enumerate(plays)]
    with app.test_request_context(headers={"Accept-Language": language}):
        return [re.sub(r"<[^>]+>", "", str(line)) for _, line in describe_plays(match, log)]


def test_a_lone_card_taken_without_a_pisti_says_why(app):
    # Seeds 000 and 001: a Jack on a lone card of another rank takes it but
    # is no pişti; seeds 003 and 004: the dealer's very last card makes no
    # pişti. The log said only "captured the pile's only card", so a player
    # who took a lone card with a Jack, or by its rank with the hand's last
    # card, was not told why no pişti was scored.
    centre = ["2H", "3H", "4H", "5C"]
    jack = hand_told(app, CARDEMS, centre, ["5D", "8S", "JH"], [], "en")
    assert jack[2] == (
        "You played J♥Jack of hearts: captured the pile's only card "
        "(a Jack on a lone card is no pişti)."
    )
    # A Jack on a lone Jack is a Jack pişti, a rank on a lone card a pişti.
    assert (
        "Jack pişti! 20 points" in hand_told(app, CARDEMS, centre, ["5D", "JS", "JH"], [], "en")[2]
    )
    assert "pişti! 10 points" in hand_told(app, CARDEMS, centre, ["5D", "8S", "8H"], [], "en")[2]
    # Partners: the dealer's last card takes a lone 7 by its rank, no pişti.
    last = ["JC", "7H", "7S"]
    lines = hand_told(app, PARTNERS, centre, ["5D", "8S"], last, "en")
    assert "took it with J♣" in lines[-4] and "captured" in lines[-3]
    assert lines[-2] == "North played 7♥7 of hearts: West took it with 7♠7 of spades."
    assert lines[-1] == (
        "West played 7♠7 of spades: captured the pile's only card "
        "(no pişti with the hand's last card)."
    )
    turkish = hand_told(app, PARTNERS, centre, ["5D", "8S"], last, "tr")
    assert turkish[-1].endswith(": yerdeki tek kartı aldı (elin son kartıyla pişti olmaz).")
    turkish = hand_told(app, CARDEMS, centre, ["5D", "8S", "JH"], [], "tr")
    assert turkish[2].endswith(": yerdeki tek kartı aldı (tek karta Vale pişti değildir).")


def test_a_card_under_the_pile_went_with_it(client):
    """A card under others when the pile was taken went with the pile
    ("East played 9♦: West took it with A♦" read as an Ace taking a 9: the
    Ace took the Ace on top). "Took it with" is said only of a card taken
    as the pile's top card, so by its rank or a Jack; in Turkish too."""
    took = re.compile(r"played (\S+): (?:\w+|the computer) took it with (\S+)\.")
    went = re.compile(r"played \S+: it went with the pile (?:\w+|the computer) took with \S+\.")

    def rank(label: str) -> str:
        return label[:-1]  # "10♥" → "10"

    seen_went = 0
    for number, rules in enumerate(["partners", "classic&players=3", "partners"]):
        start_deal(client, f"/deal/buried-{number}?rules={rules}")
        page = client.get("/game").get_data(as_text=True)
        while cards := re.findall(r'name="card" value="([^"]+)"', page):
            for card, taker in took.findall(shown(page)):
                assert rank(card) == rank(taker) or rank(taker) == "J", (card, taker)
            if went.search(shown(page)) and not seen_went:
                turkish = client.get("/game", headers={"Accept-Language": "tr"})
                assert "altta kaldı; yerdekileri" in turkish.get_data(as_text=True)
            seen_went += len(went.findall(shown(page)))
            fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
            assert client.post("/play", data={**fields, "card": cards[0]}).status_code == 303
            page = client.get("/game").get_data(as_text=True)
    assert seen_went


def test_a_pisti_worth_one_point_says_point(app):
    """House rules may make a pişti worth 1 point (any whole number): the
    log and the hint said "pişti! 1 points" and "a pişti, 1 points": their
    counts are plurals now, as every other count, in each language's own
    forms."""
    rules = parse_rules_text("cardems&pisti=1&jack_pisti=1")
    match = Table.start(rules, "one-point", ["medium"], True).match
    hints = [Hint(kind, "5H", 1, "", 0, 0) for kind in ("pisti", "jack_pisti")]
    with app.test_request_context():
        said = [
            _taker_words({"pisti": True, "jack_pisti": False}, None, position_names(2), match),
            _taker_words({"pisti": False, "jack_pisti": True}, None, position_names(2), match),
            *(hint_text(hint) for hint in hints),
        ]
    assert said == [
        "pişti! 1 point",
        "Jack pişti! 1 point",
        "The Hard level would play your 5 of hearts: a pişti, 1 point.",
        "The Hard level would play your 5 of hearts: a Jack pişti, 1 point.",
    ]
    with app.test_request_context(headers={"Accept-Language": "tr"}):
        told = _taker_words({"pisti": True, "jack_pisti": False}, None, position_names(2), match)
        assert told == "pişti! 1 puan"
