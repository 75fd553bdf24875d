"""The three-player and four-solo tables through the pages (record format 2): every
computer seat with its count of cards and its last card, every side's score,
no hidden card in the HTML; the between-hands and final pages with every
side's totals and the winner by the rule for more than two sides; the rules
shown in a compact line with their details, in English and Turkish, and
kept by Play again."""

from __future__ import annotations

import re

import pytest

from app.db.facts import game_facts
from app.engine import card_name, hand_winner, observe, parse_rules_text, score_hand
from app.web.game import render_table
from app.web.table import Table
from app.web.view import shared_top
from tests.conftest import Player, leading, start_deal
from tests.web.test_messages import shown
from tests.web.test_score_pages import ScoreTable, next_hand, play_hand
from tests.web.test_secrecy import leaks

#: Deal links of the two new tables (Easy computers) and their sides' names.
TABLES = {
    "three": ("classic&players=3&jack_pisti=10&last_sweep_bonus=3", ["You", "East", "West"]),
    "four-solo": ("partners&teams=solo", ["You", "East", "North", "West"]),
}
SIDE = re.compile(
    r'<li class="side side-(\d)"><span class="who">([^<]+)</span>\s*'
    r'<span class="chip"><span class="visually-hidden">, </span>'
    r'<span class="said-whole">(\d+) cards?'
    # (then its number alone, for a phone held sideways with large text)
    r'</span><span class="said-short" aria-hidden="true">\d+</span>'
    # then the chip's end, or the mark of a side sure of the most cards
    r'(?:</span>| <span class="bonus")'
)


def seat_html(page: str, position: int) -> str:
    """The HTML of the computer seat at ``position`` on the page as shown."""
    start = page.index(f'data-region="seat-{position}"')
    return page[start : page.index("</section>", start)]


@pytest.mark.parametrize("name", list(TABLES))
def test_every_seat_its_count_last_card_and_every_sides_score(client, name):
    query, sides = TABLES[name]
    rules = parse_rules_text(query)
    seed = leading(f"house-table-{name}", rules.players)
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
            assert f'id="place-{position}" aria-label="{sides[position]}' in seat
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


def play_match(client) -> str:
    """Play the current match to its end by the first card; return the
    final page."""
    page = play_hand(client)
    while "Next hand" in page:
        page = next_hand(client, page)
    return page


@pytest.mark.parametrize(
    ("seed", "why"),
    [
        # Seeds found by playing the first card against Easy: in the first
        # both sides pass 51 in the last hand, 65 to 59 after 4 hands; in the
        # second the totals are level at 63 after hand 6, 78 to 71 after 7.
        ("verdict-6", "Both sides reached 51, so the higher total won: 65 points to 59 after 4"),
        ("verdict-68", "After hand 6 the highest total, 63, was shared, so one more hand was"),
    ],
)
def test_the_final_page_says_how_a_close_match_was_decided(client, seed, why):
    assert start_deal(client, f"/deal/{seed}?rules=classic&target=51&level=easy")
    page = play_match(client)
    assert why in page
    # Not told as if one side alone had reached the target.
    assert not re.search(r"(?<!Both sides )reached 51", page)


def test_a_level_top_total_is_found_after_the_hand_it_happened():
    assert shared_top([[30, 30], [25, 25], [5, 0]], 51) == (2, 55)
    assert shared_top([[30, 30], [25, 20]], 51) is None  # level below the target
    assert shared_top([[60, 60, 10], [5, 0, 0]], 51) == (1, 60)
    assert shared_top([[40, 51, 51], [30, 0, 1]], 51) == (1, 51)
    assert shared_top([[40, 50, 51]], 51) is None


def test_a_three_player_match_ends_on_the_highest_total_past_the_target(client):
    rules = "classic&players=3&jack_pisti=10&last_sweep_bonus=3"
    assert start_deal(client, f"/deal/three-end?rules={rules}&target=51&level=easy")
    page = play_match(client)
    totals = [
        int(total)
        for total in re.findall(r"<td>(\d+)</td>", page.split("<tfoot>")[-1].split("</tfoot>")[0])
    ]
    assert len(totals) == 3
    best = max(totals)
    assert best >= 51 and totals.count(best) == 1
    # No hand ended the match earlier: before the last hand no side had a
    # total past 51 that was the only highest.
    hands = re.findall(r'<tr><th scope="row">(\d+)</th>', page.split('class="score totals')[1])
    running = re.findall(r'<span class="running">= (\d+)</span>', page)
    before = [int(total) for total in running[-6:-3]] if len(hands) > 1 else [0, 0, 0]
    assert not (max(before) >= 51 and before.count(max(before)) == 1)
    winner = ["You", "East", "West"][totals.index(best)]
    verdict = re.search(r'<h1 class="verdict" tabindex="-1">\s*(.*?)\s*</h1>', page, re.S).group(1)
    assert verdict == ("You won!" if winner == "You" else f"{winner} won")
    next_best = sorted(totals)[-2]
    assert f"51 or more: {best} points, the next best {next_best}, after {len(hands)} hand" in page
    assert "the highest total that has reached it wins" in page
    # The rules, in a line with their details, and kept by Play again.
    line = "Classic · 3 players · Jack pişti 10 · last cards +3 · to 51"
    assert f"{line}</summary>" in page
    for detail in ("Players: three: you, East and West", "Points for a Jack pişti: 10"):
        assert f"<li>{detail}</li>" in page
    again = page.split('<section class="panel actions">')[1].split("</form>")[0]
    assert 'action="/house"' in again
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', again))
    assert client.post("/house", data=fields).status_code == 303
    table = client.get("/game").get_data(as_text=True)
    # A new deal, whose first dealer is drawn: the player's turn comes
    # after at most both computers' plays.
    assert f"{line}</summary>" in table and re.search(r'name="move" value="[0-2]"', table)
    assert re.findall(r'<p class="place-level">(\w+)', table) == ["Easy", "Easy"]


def test_the_four_solo_table_and_its_rules_in_turkish(client):
    turkish = {"Accept-Language": "tr"}
    link = "/deal/dort?rules=partners&teams=solo&pisti_on_last_play=true&target=51&level=easy"
    assert start_deal(client, link, headers=turkish).status_code == 303
    page = shown(client.get("/game", headers=turkish).get_data(as_text=True))
    line = "Eşli oyun kuralları · 4 kişi, herkes kendine · son kartla pişti sayılır · hedef 51"
    assert line in page
    assert "<li>Taraflar: herkes kendine</li>" in page
    assert re.findall(r'<span class="who">([^<]+)</span>', page) == [
        "Siz",
        "Doğu",
        "Kuzey",
        "Batı",
    ]
    text = re.sub(r"<[^>]+>", " ", page)
    for english in ("each for themselves", "players", "East", "West", "North", "to 51", "Sides"):
        assert english not in text


def test_a_single_deal_won_by_the_third_side_ends_on_its_final_page(client):
    """Three players each for themselves in a single deal: when West (side
    2) wins, the final page names West and the game is logged and counted
    as the player's loss, its opponents' points the best of the others."""
    rules = parse_rules_text("cardems&players=3&most_cards=more")
    for number in range(200):
        seed = f"west-wins-{number}"
        mirror = Table.start(rules, seed, ["easy", "easy"], True)
        while not mirror.match.over:
            mirror.play(mirror.observation().hand[0], str(mirror.move))
        if mirror.match.winner() == 2:
            break
    else:
        raise AssertionError("no deal that West wins")
    assert start_deal(client, f"/deal/{seed}?rules=cardems&players=3&most_cards=more&level=easy")
    page = play_hand(client)
    assert re.search(r'<h1 class="verdict" tabindex="-1">\s*West won\s*</h1>', page)
    scores = score_hand(mirror.match.state)
    points = sorted(score.points for score in scores)
    assert f"{points[-1]} points, the next best {points[-2]}." in page
    facts = game_facts(mirror.match, ("easy", "easy"), mirror.game_id)
    assert facts.outcome == "loss"
    assert (facts.points, facts.opp_points) == (scores[0].points, scores[2].points)


def test_the_final_page_of_three_sides_in_turkish(client):
    turkish = {"Accept-Language": "tr"}
    link = "/deal/west-wins-tr?rules=cardems&players=3&most_cards=more&level=easy"
    assert start_deal(client, link, headers=turkish).status_code == 303
    page = client.get("/game", headers=turkish).get_data(as_text=True)
    while cards := re.findall(r'name="card" value="([^"]+)"', page):
        fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        client.post("/play", data={**fields, "card": cards[0]}, headers=turkish)
        page = client.get("/game", headers=turkish).get_data(as_text=True)
    verdict = re.search(r'<h1 class="verdict" tabindex="-1">\s*(.*?)\s*</h1>', page, re.S).group(1)
    assert verdict in ("Kazandınız!", "Doğu kazandı", "Batı kazandı", "Berabere")
    assert "Tek el · 3 oyuncu · en çok kart: herkesten fazla</summary>" in page
    text = re.sub(r"<[^>]+>", " ", page)
    for english in ("won", "points", "the next best", "East", "West", "shared", "players"):
        assert english not in text


def test_a_kept_three_player_game_is_named_by_its_rules(client):
    """A game put aside by a newer one is listed with its rules line and
    every side's total."""
    assert start_deal(client, "/deal/kept-3?rules=classic&players=3&level=easy").status_code == 303
    page = play_hand(client)
    assert start_deal(client, "/deal/kept-new").status_code == 303
    home = client.get("/").get_data(as_text=True)
    kept = home.split('<span class="kept-what"')[1].split(">", 1)[1].split("</span>")[0]
    assert kept.startswith("Classic · 3 players · to 51 · “<bdi>kept-3</bdi>”")
    totals = re.findall(r"<td>(\d+)</td>", page.split("<tfoot>")[-1])
    assert "hand 1, " + "–".join(totals) in kept
    assert "· all Easy ·" in " ".join(kept.split())


def test_a_kept_game_names_each_computer_when_their_levels_differ(client):
    start_deal(client, "/deal/kept-4?rules=partners&level=easy&level_2=hard")
    start_deal(client, "/deal/kept-next")
    home = client.get("/").get_data(as_text=True)
    kept = home.split('<span class="kept-what"')[1].split(">", 1)[1].split("</span>")[0]
    assert "· Easy, Hard, Easy ·" in " ".join(kept.split())


def test_equal_highest_totals_past_the_target_play_another_hand(app):
    """Three sides (a house choice extending seed 001's rule for two): two
    sides level on the highest total past the target is no end; the
    between-hands page says one more hand decides."""
    rules = parse_rules_text("classic&players=3")
    table = Table.start(rules, "level-top", ["easy", "easy"], True)
    while not table.match.hand_counted:
        table.play(table.observation().hand[0], str(table.move))
    table.match.history = [[60, 60, 10]]
    assert not table.match.over
    with app.test_request_context("/game"):
        page = render_table(table)
    assert "Hand 1 is over" in page and "Next hand" in page
    assert "The highest total, 60, has reached 51 but is shared: one more hand decides." in page
    table.match.history = [[60, 61, 10]]
    assert table.match.over
    with app.test_request_context("/game"):
        page = render_table(table)
    assert re.search(r'<h1 class="verdict" tabindex="-1">\s*East won\s*</h1>', page)


@pytest.mark.parametrize(
    ("rules_text", "seed", "sentence"),
    [
        (
            "classic&tie_break=cards",
            "tie-33",
            "You took the hand on cards: 8 points each, and more cards win the tie, 38 to 14.",
        ),
        (
            "classic&players=3&tie_break=cards",
            "tie-6",
            "East took the hand on cards: the most points, 13, were shared,"
            " and more cards win the tie (40).",
        ),
    ],
)
def test_a_hand_won_on_cards_says_so_between_hands(app, rules_text, seed, sentence):
    """A points tie broken by cards (``tie_break=cards``) is told as such,
    not as "8 points to 8"."""
    rules = parse_rules_text(rules_text)
    table = Table.start(rules, seed, ["easy"] * (rules.players - 1), True)
    while not table.match.hand_counted:
        table.play(table.observation().hand[0], str(table.move))
    assert hand_winner(table.state, score_hand(table.state))[1] == "cards"
    assert not table.match.over
    with app.test_request_context("/game"):
        page = render_table(table)
    assert sentence in page
    assert "8 points to 8" not in page


def test_the_computer_is_named_as_a_sentence_names_it(client):
    """ "The computer took the hand", "The computer reached 51": not the
    score's column heading, "Computer", at the start of a sentence."""
    assert start_deal(client, "/deal/the-computer?rules=classic&target=51&level=hard")
    pages = [play_hand(client)]
    while "Next hand" in pages[-1]:
        pages.append(next_hand(client, pages[-1]))
    text = " ".join(pages)
    assert "The computer took the hand" in text
    assert "The computer reached 51" in text or "You reached 51" in text
    assert not re.search(r"(?<!The )Computer (took|reached)", text)


def test_play_again_after_a_single_hand_match_plays_a_match_again(client):
    # A Single hand to 121 comes from a deal link (the home form offers no
    # target for it): Play again keeps the target, through the House rules
    # page's start, rather than dealing one hand.
    assert start_deal(client, "/deal/again-121?rules=cardems&target=121&level=easy")
    page = play_match(client)
    form = page[page.index('<section class="panel actions">') :]
    assert form.index('action="/house"') < form.index("Play again")
    fields = dict(
        re.findall(r'name="(csrf_token|replaces|rules|target|level)" value="([^"]*)"', form)
    )
    assert fields["target"] == "121"
    assert client.post("/house", data=fields).status_code == 303
    # A match again (a single hand's bar has no hand number), a new deal.
    table = client.get("/game").get_data(as_text=True)
    assert "hand 1 · deal 1 of 6" in re.sub(r"<[^>]+>", "", table)
