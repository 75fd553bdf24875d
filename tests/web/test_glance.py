"""The hand at a glance: under the verdict of the between-hands and final
pages, one row a side with its cards (and the most-cards points beside the
side that earned them), piştis, the hand's points and, in a match, its
total of the target; the same figures as the full score table further
down, which a phone shows only after the buttons."""

from __future__ import annotations

import re
from html import unescape

from tests.conftest import start_deal
from tests.web.test_score_pages import ScoreTable, next_hand, play_hand


def glance(page: str) -> tuple[list[str], dict[str, list[str]]]:
    """The glance table's column headings and, by side name, its cells'
    visible text (visually hidden words left out)."""
    table = re.search(r'<table class="score glance[^"]*">(.*?)</table>', page, re.S)
    assert table is not None, "no glance table"
    html = re.sub(r'<span class="visually-hidden">.*?</span>', "", table.group(1), flags=re.S)

    def text(cell: str) -> str:
        return " ".join(unescape(re.sub(r"<[^>]+>", " ", cell)).split())

    head = re.search(r"<thead>(.*?)</thead>", html, re.S)
    assert head is not None
    headings = [text(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1), re.S)]
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html.split("</thead>")[1], re.S):
        cells = [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        rows[cells[0]] = cells[1:]
    return headings, rows


def lead_rows(page: str) -> list[str]:
    """The names of the glance rows marked as leading."""
    return re.findall(r'<tr class="side-\d lead"><th scope="row">([^<]+)</th>', page)


def test_between_hands_the_glance_gives_each_sides_count_and_match_total(client):
    start_deal(client, "/deal/glance-between?rules=classic&level=easy")
    page = play_hand(client)
    headings, rows = glance(page)
    assert headings == ["", "Cards", "Piştis", "Hand", "Match to 51"]
    assert list(rows) == ["You", "Computer"]
    score = ScoreTable(page)
    for side, name in enumerate(rows):
        cards, most = score.rows["Cards (most cards)"][side]
        pisti = score.rows["Piştis"][side][0]
        jacks = score.rows["Jack piştis"][side][0]
        cells = rows[name]
        assert cells[0] == (f"{cards} +{most}" if most else str(cards))
        assert cells[1] == str(pisti) + {0: "", 1: " + 1 Jack"}.get(jacks, f" + {jacks} Jacks")
        assert cells[2] == str(score.totals[side])
        # After the first hand the match total is the hand's points.
        assert cells[3] == str(score.totals[side])
    # Exactly one side earned the most cards' 3 points here (no 26-26).
    assert sum("+3" in cells[0] for cells in rows.values()) == 1
    # The leader of the match is in bold (both, when level).
    best = max(score.totals)
    assert lead_rows(page) == [n for side, n in enumerate(rows) if score.totals[side] == best]
    # A screen reader hears the total in words and the bonus said.
    assert f"{score.totals[0]} of 51 points" in page
    assert ", most cards: 3 points" in page
    # The next hand's glance counts that hand and the running total.
    page = next_hand(client, page)
    _, rows = glance(page)
    second = ScoreTable(page)
    totals = re.search(
        r"<tfoot><tr><th scope=\"row\"><button [^>]*>Total</button></th>"
        r"<td>(\d+)</td><td>(\d+)</td>",
        page,
    )
    assert totals is not None
    for side, name in enumerate(rows):
        assert rows[name][2] == str(second.totals[side])
        assert rows[name][3] == totals.group(side + 1)


def test_a_single_hands_final_page_glance_has_points_and_no_match(client):
    start_deal(client, "/deal/glance-single?rules=cardems&level=easy")
    page = play_hand(client)
    assert "final-page" in page
    headings, rows = glance(page)
    assert headings == ["", "Cards", "Piştis", "Points"]
    score = ScoreTable(page)
    assert [cells[2] for cells in rows.values()] == [str(points) for points in score.totals]
    assert "<meter" not in page.split('class="score glance')[1].split("</table>")[0]


def test_a_26_26_tie_says_that_nobody_gets_the_most_cards_points(client):
    # Seed found by playing the first card against Easy: 26 cards each.
    start_deal(client, "/deal/glance-18?rules=classic&level=easy")
    page = play_hand(client)
    _, rows = glance(page)
    assert [cells[0] for cells in rows.values()] == ["26", "26"]
    assert "Most cards: nobody gets the 3 points, 26 cards each." in page


def test_three_players_shared_most_cards_and_turkish_words(client):
    # Seed found by playing the first card against Easy: 26, 26 and 0 cards.
    start_deal(client, "/deal/glance3-6?rules=classic&players=3&level=easy")
    page = play_hand(client)
    headings, rows = glance(page)
    assert list(rows) == ["You", "East", "West"]
    assert sorted(cells[0] for cells in rows.values()) == ["0", "26", "26"]
    assert "Most cards: nobody gets the 3 points, the most (26) is shared." in page
    page = client.get("/game", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    headings, rows = glance(page)
    assert headings == ["", "Kartlar", "Piştiler", "El", "Maç hedef 51"]
    assert list(rows) == ["Siz", "Doğu", "Batı"]
    assert "En çok kart: 3 puanı kimse almıyor, en çok kart sayısı (26) paylaşılıyor." in page


def test_one_point_for_most_cards_is_said_as_one(client):
    """House rules may make the most cards worth 1 point: a screen reader
    heard "most cards: 1 points", and the rules page said a pişti of 1 was
    "(1 points)"; both counts are plurals now."""
    start_deal(client, "/deal/glance-one?rules=classic&level=easy&most_cards_points=1&pisti=1")
    page = play_hand(client)
    assert ", most cards: 1 point<" in page
    rules = client.get("/game/rules").get_data(as_text=True)
    assert "is a pişti (1 point);" in rules
    turkish = client.get("/game/rules", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert re.search(r"pişti(?:dir)? \(1 puan\)", turkish)
