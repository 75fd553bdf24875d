"""The three-player and four-solo tables through the pages (issue 13): every
computer seat with its count of cards and its last card, every side's score,
no hidden card in the HTML; the between-hands and final pages with every
side's totals and the winner by the rule for more than two sides; the rules
shown in a compact line with their details, in English and Turkish, and
kept by Play again."""

from __future__ import annotations

import re

import pytest

from app.engine import card_name, hand_winner, observe, parse_rules_text, score_hand
from app.web.table import Table
from tests.conftest import Player, start_deal
from tests.web.test_messages import shown
from tests.web.test_score_pages import ScoreTable
from tests.web.test_secrecy import leaks

#: Deal links of the two new tables (Easy computers) and their sides' names.
TABLES = {
    "three": ("classic&players=3&jack_pisti=10&last_sweep_bonus=3", ["You", "East", "West"]),
    "four-solo": ("partners&teams=solo", ["You", "East", "North", "West"]),
}
SIDE = re.compile(
    r'<li class="side side-(\d)"><span class="who">([^<]+)</span>\s*'
    r'<span class="chip">(\d+) cards?</span>'
)


def seat_html(page: str, position: int) -> str:
    """The HTML of the computer seat at ``position`` on the page as shown."""
    start = page.index(f'data-region="seat-{position}"')
    return page[start : page.index("</section>", start)]


@pytest.mark.parametrize("name", list(TABLES))
def test_every_seat_its_count_last_card_and_every_sides_score(client, name):
    query, sides = TABLES[name]
    rules = parse_rules_text(query)
    seed = f"house-table-{name}"
    player = Player(client)
    assert start_deal(client, f"/deal/{seed}?rules={query}&level=easy").status_code == 303
    player.get()
    # The same game, played beside the pages: the computers' choices are
    # seeded by the deal and the move, so it follows the pages card for card.
    mirror = Table.start(rules, seed, ["easy"] * (rules.players - 1), True)
    state = mirror.match.state
    deck = state.deck
    players = rules.players
    checked = 0
    while player.hand:
        page = shown(player.page)
        made = int(player.move)
        assert made == len(state.plays) and player.hand == list(state.hands[0])
        # Every computer seat: its name, its cards as fanned backs and a count.
        for position in range(1, players):
            seat = seat_html(page, position)
            assert f'id="place-{position}">{sides[position]}' in seat
            count = len(state.hands[position])
            assert seat.count('class="card back small"') == count
            assert f'<span class="backs-count" aria-hidden="true">{count}</span>' in seat
            if made >= players:
                # Its last card, the one it played since your last move.
                last = state.plays[made - players + position]
                assert f'<span class="visually-hidden">{card_name(last)}: </span>' in seat
        assert ">partner</span>" not in page
        # A score row per side, in seat order, with its captured cards.
        rows = SIDE.findall(page)
        assert [(int(side), who) for side, who, _ in rows] == list(enumerate(sides))
        assert [int(cards) for *_, cards in rows] == [len(cards) for cards in state.captured]
        # No card the player may not see: other hands, the stock, face-down cards.
        view = observe(state, 0)
        hidden = set(deck) - view.seen - set(view.hand)
        assert hidden and leaks(player.page, hidden) == []
        checked += 1
        card = player.hand[0]
        mirror.play(card, str(made))
        player.play(card)
    assert checked == 48 // players
    # The hand's score: a column pair per side, adding up to the engine's totals.
    table = ScoreTable(player.page)
    scores = score_hand(state)
    assert table.totals == [score.points for score in scores]
    for side, total in enumerate(table.totals):
        assert sum(row[side][1] for row in table.rows.values()) == total
    header = re.findall(r'<th scope="colgroup" colspan="2" class="side">([^<]+)</th>', player.page)
    assert header == sides
    winner, _ = hand_winner(state, scores)
    best = max(score.points for score in scores)
    if winner is None:
        assert f"the most points, {best}, were shared" in player.page
    elif winner == 0:
        assert f"You took the hand with {best} points." in player.page
    else:
        assert f"{sides[winner]} took the hand with {best} points." in player.page
    match_line = ", ".join(
        f"{side} {score.points}" for side, score in zip(sides, scores, strict=True)
    )
    assert f"Match: {match_line}." in player.page
