"""The between-hands and final pages: a score table whose points add up to
the total, running match totals, and the last plays shown openly."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from app.engine import RULE_SETS, GameState, card_name, score_hand, seeded_deck
from tests.conftest import start_deal


class ScoreTable(HTMLParser):
    """Reads the first hand-score table of a page: ``rows`` maps each
    row's label to ``[(count, points), ...]`` per side, ``totals`` the
    footer's points per side."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.rows: dict[str, list[tuple[int, int]]] = {}
        self.totals: list[int] = []
        self._in_table = self._done = False
        self._part = ""
        self._cell: str | None = None
        self._text = ""
        self._row: list[str] = []
        self._label = ""
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table" and "hand-score" in classes and not self._done:
            self._in_table = True
        if not self._in_table:
            return
        if tag in ("tbody", "tfoot"):
            self._part = tag
        elif tag == "tr":
            self._row, self._label = [], ""
        elif tag in ("td", "th"):
            self._cell = "label" if tag == "th" else classes[0]
            self._text = ""

    def handle_data(self, data: str) -> None:
        if self._cell:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if not self._in_table:
            return
        if tag in ("td", "th") and self._cell:
            if self._cell == "label":
                self._label = self._text.strip()
            else:
                self._row.append(self._text.strip())
            self._cell = None
        elif tag == "tr" and self._part == "tbody":
            cells = [int(text) for text in self._row]
            self.rows[self._label] = list(zip(cells[::2], cells[1::2], strict=True))
        elif tag == "tr" and self._part == "tfoot":
            self.totals = [int(text) for text in self._row[1::2]]
        elif tag == "table":
            self._in_table, self._done = False, True


def play_hand(client) -> str:
    """Play the current hand to its end by the first card; return the page."""
    page = client.get("/game").get_data(as_text=True)
    while cards := re.findall(r'name="card" value="([^"]+)"', page):
        fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        assert client.post("/play", data={**fields, "card": cards[0]}).status_code == 303
        page = client.get("/game").get_data(as_text=True)
    return page


def next_hand(client, page: str) -> str:
    fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
    assert client.post("/next", data=fields).status_code == 303
    return play_hand(client)


def check_table(page: str, rules_name: str, record: dict, seed: str, hand: int) -> None:
    """The page's hand score is the engine's, side by side, and each
    side's points column adds up to its total."""
    rules = RULE_SETS[rules_name]
    state = GameState.replay(rules, seeded_deck(seed, rules, hand), record["plays"])
    table = ScoreTable(page)
    assert set(table.rows) == {
        "Cards (most cards)",
        "Aces",
        "Jacks",
        "2♣",
        "10♦",
        "Piştis",
        "Jack piştis",
    }
    for side in (0, 1):
        assert (
            sum(points for _, points in (row[side] for row in table.rows.values()))
            == (table.totals[side])
        )
    assert sum(count for count, _ in table.rows["Cards (most cards)"]) == 52
    assert sum(count for count, _ in table.rows["Aces"]) == 4
    assert sum(points for _, points in table.rows["10♦"]) == 3
    my_team = record["players"].index("you") % 2
    scores = score_hand(state)
    assert table.totals == [scores[my_team].points, scores[1 - my_team].points]
    for count, points in table.rows["Piştis"]:
        assert points == rules.pisti_points * count
    for count, points in table.rows["Jack piştis"]:
        assert points == rules.jack_pisti_points * count


def record(client, hand: int) -> dict:
    return client.get(f"/record?hand={hand}").get_json()


@pytest.mark.parametrize("rules_name", ["cardems", "classic", "partners"])
def test_score_table_rows_add_up_to_the_total(client, rules_name):
    seed = f"sum-{rules_name}"
    start_deal(client, f"/deal/{seed}?rules={rules_name}&level=easy")
    page = play_hand(client)
    check_table(page, rules_name, record(client, 1), seed, 0)
    if rules_name != "cardems":
        # The next hand's page adds up too, and the match totals run.
        page = next_hand(client, page)
        check_table(page, rules_name, record(client, 2), seed, 1)
        running = re.findall(r'<span class="running">= (\d+)</span>', page)
        # (Between hands the total is a button showing what it means.)
        totals = re.search(
            r'<th scope="row"><button [^>]*>Total</button></th><td>(\d+)</td><td>(\d+)</td>', page
        )
        assert len(running) == 4 and running[2:] == list(totals.groups())


def test_classic_match_final_page_adds_up(client):
    start_deal(client, "/deal/sum-final?rules=classic&target=51&level=easy")
    page = play_hand(client)
    hand = 1
    new_game = '<a class="button small bar-new" href="/">New game</a>'
    while "Next hand" in page:
        # A way out of the match between hands, as on the table.
        assert new_game in page.split("</header>")[0]
        page = next_hand(client, page)
        hand += 1
    assert "Final score" in page
    assert new_game in page.split("</header>")[0]
    check_table(page, "classic", record(client, hand), "sum-final", hand - 1)
    totals = [
        int(points)
        for points in re.search(
            r'<th scope="row">Total</th><td>(\d+)</td><td>(\d+)</td>', page
        ).groups()
    ]
    gains = re.findall(r'<span class="gain">\+(\d+)</span>', page)
    assert [sum(int(g) for g in gains[side::2]) for side in (0, 1)] == totals
    assert max(totals) >= 51


def match_summary(page: str) -> dict[str, list[int]]:
    """The final page's summary of the whole match: each row's label and
    its value per side, in the page's side order."""
    table = re.search(r'<table class="score match-summary[^"]*">(.*?)</table>', page, re.S)
    assert table is not None, "no match summary"
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>((?:<td>\d+</td>)+)</tr>', table.group(1))
    return {label: [int(n) for n in re.findall(r"\d+", cells)] for label, cells in rows}


def summed_hands(tables: list[ScoreTable]) -> dict[str, list[int]]:
    """The match summary as summed from each hand's score table: piştis,
    Jack piştis, the hands a side took more cards than every other, and
    the card points (the Aces, Jacks, 2♣ and 10♦ lines)."""
    sides = len(tables[0].totals)
    summed = {label: [0] * sides for label in ("pisti", "jack", "most", "card")}
    for table in tables:
        cards = [count for count, _ in table.rows["Cards (most cards)"]]
        for side in range(sides):
            summed["pisti"][side] += table.rows["Piştis"][side][0]
            summed["jack"][side] += table.rows["Jack piştis"][side][0]
            others = cards[:side] + cards[side + 1 :]
            summed["most"][side] += all(cards[side] > other for other in others)
            summed["card"][side] += sum(
                table.rows[line][side][1] for line in ("Aces", "Jacks", "2♣", "10♦")
            )
    return summed


@pytest.mark.parametrize(
    ("query", "sides"),
    [
        ("classic&target=51", 2),
        ("partners&target=51", 2),
        ("classic&players=3&jack_pisti=10&last_sweep_bonus=3&target=51", 3),
        ("partners&teams=solo&target=51", 4),
    ],
    ids=["classic", "partners", "three", "four-solo"],
)
def test_the_final_page_sums_up_the_whole_match_per_side(client, query, sides):
    """Under the hands' points, the final page sums up the match per side:
    piştis, Jack piştis, hands with the most cards and card points, each
    the sum of the hands' score tables (a match played through from a
    fixed seed); between hands there is no such summary."""
    start_deal(client, f"/deal/summary?rules={query}&level=easy")
    page = play_hand(client)
    tables = [ScoreTable(page)]
    while "Next hand" in page:
        assert "match-summary" not in page
        page = next_hand(client, page)
        tables.append(ScoreTable(page))
    assert "Final score" in page and len(tables) > 1
    summed = summed_hands(tables)
    summary = match_summary(page)
    assert summary == {
        "Piştis": summed["pisti"],
        "Jack piştis": summed["jack"],
        "Hands with most cards": summed["most"],
        "Card points": summed["card"],
    }
    assert all(len(values) == sides for values in summary.values())
    # Every hand's 13 card points are somebody's, and a hand has at most
    # one side with the most cards.
    assert sum(summary["Card points"]) == 13 * len(tables)
    assert sum(summary["Hands with most cards"]) <= len(tables)
    if query.startswith("classic&target"):
        # Classic's points are all there: card points, piştis (10, Jack 20)
        # and 3 for each hand with the most cards make each side's total.
        totals = re.search(r'<th scope="row">Total</th><td>(\d+)</td><td>(\d+)</td>', page)
        assert [
            summary["Card points"][side]
            + 10 * summary["Piştis"][side]
            + 20 * summary["Jack piştis"][side]
            + 3 * summary["Hands with most cards"][side]
            for side in (0, 1)
        ] == [int(total) for total in totals.groups()]


def test_the_match_summary_in_turkish(client):
    start_deal(client, "/deal/summary?rules=classic&target=51&level=easy")
    page = play_hand(client)
    while "Next hand" in page:
        page = next_hand(client, page)
    english = match_summary(page)
    turkish = client.get("/game", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert "<caption>Maçın tamamı</caption>" in turkish
    assert match_summary(turkish) == {
        "Piştiler": english["Piştis"],
        "Vale piştileri": english["Jack piştis"],
        "En çok kart alınan eller": english["Hands with most cards"],
        "Kart puanları": english["Card points"],
    }


def test_final_page_shows_the_last_plays_and_the_sweep_openly(client):
    start_deal(client, "/deal/open-end")
    page = play_hand(client)
    assert "<details" not in page.split('class="last-plays"')[0][-200:]
    section = re.search(r'<section class="last-plays".*?</section>', page, re.S).group(0)
    assert "The last plays" in section
    assert "You played" in section and "The computer played" in section
    assert "left on the table go" in section or "left on the table goes" in section


@pytest.mark.parametrize(
    ("rules_name", "names"),
    [
        ("classic", ["You", "The computer"]),
        ("partners", ["You", "East", "North", "West"]),
    ],
)
def test_every_players_last_card_is_shown_whoever_dealt(client, rules_name, names):
    """The dealer plays last: in the second hand that is the player, whose
    last move came after the computers' last cards; they are shown too."""
    start_deal(client, f"/deal/last-round?rules={rules_name}&level=easy")
    page = next_hand(client, play_hand(client))
    section = re.search(r'<section class="last-plays".*?</section>', page, re.S).group(0)
    lines = re.findall(r"<li>(.*?)</li>", section)
    played = [line.split(" played ")[0] for line in lines if " played " in line]
    assert sorted(played) == sorted(names)
    assert len(played) == len(names)


def test_a_house_rules_last_cards_bonus_is_a_line_that_adds_up(client):
    start_deal(client, "/deal/sweep-bonus?rules=cardems&last_sweep_bonus=3&pisti=5&level=easy")
    page = play_hand(client)
    table = ScoreTable(page)
    assert "Last cards bonus" in table.rows
    for side in (0, 1):
        assert sum(row[side][1] for row in table.rows.values()) == table.totals[side]
    assert sorted(points for _, points in table.rows["Last cards bonus"]) in ([0, 0], [0, 3])
    for count, points in table.rows["Piştis"]:
        assert points == 5 * count


@pytest.mark.parametrize(
    ("rules", "seed", "said", "you_deal_next"),
    [
        # Who deals the first hand is drawn from the seed: the computer for
        # "next-dealer-0", so you deal hand 2 and the computer leads it;
        # you for "next-dealer-1". In partners West deals hand 1 of
        # "next-dealer-2" (you deal next, East leads), you deal hand 1 of
        # "next-dealer-4" (East deals next, North leads).
        ("classic", "next-dealer-0", "Next hand: you deal, and the computer plays first.", True),
        ("classic", "next-dealer-1", "Next hand: the computer deals, and you play first.", False),
        ("partners", "next-dealer-2", "Next hand: you deal, and East plays first.", True),
        ("partners", "next-dealer-4", "Next hand: East deals, and North plays first.", False),
    ],
)
def test_between_hands_the_page_says_who_deals_and_leads_next(
    client, rules, seed, said, you_deal_next
):
    start_deal(client, f"/deal/{seed}?rules={rules}&level=easy")
    page = play_hand(client)
    assert said in page
    turkish = client.get("/game", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert "Sonraki elde " in turkish and "ilk kartı " in turkish
    fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
    assert client.post("/next", data=fields).status_code == 303
    table = client.get("/game").get_data(as_text=True)
    you_deal = 'id="your-hand" aria-label="Your hand, dealer' in table
    assert you_deal == you_deal_next


def face_down_line(page: str, ear: bool = False) -> str | None:
    """The face-down cards' sentence as seen (each card's label), or with
    ``ear`` as a screen reader says it (each card's name)."""
    found = re.search(r'<p class="small face-down-reveal">(.*?)</p>', page, re.S)
    if not found:
        return None
    hidden = (
        r'<span aria-hidden="true">[^<]*</span>'
        if ear
        else r'<span class="visually-hidden">[^<]*</span>'
    )
    return re.sub(r"<[^>]+>", "", re.sub(hidden, "", found.group(1)))


@pytest.mark.parametrize(
    ("rules_name", "seed"),
    [("cardems", "turned-over"), ("classic", "turned-over"), ("partners", "turned-over")],
)
def test_the_face_down_cards_are_turned_over_when_the_hand_ends(client, rules_name, seed):
    """Seed 001: when the hand is over the piles are turned over and the
    three face-down cards' points go to whichever side took them; the page
    says which cards they were and where they went, as the engine has it."""
    start_deal(client, f"/deal/{seed}?rules={rules_name}&level=easy")
    page = play_hand(client)
    game = record(client, 1)
    state = GameState.replay(RULE_SETS[rules_name], game["deck"], game["plays"])
    cards = state.face_down_cards
    assert len(cards) == 3 and state.face_down_taker is not None
    seats = [seat for seat, name in enumerate(game["players"]) if name == "you"]
    mine = state.face_down_taker == RULE_SETS[rules_name].team_of(seats[0])
    side = {
        ("cardems", True): "you",
        ("classic", True): "you",
        ("partners", True): "you and North",
        ("cardems", False): "the computer",
        ("classic", False): "the computer",
        ("partners", False): "East and West",
    }[rules_name, mine]
    suits = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    labels = [card[0].replace("T", "10") + suits[card[1]] for card in cards]
    points = sum({"A": 1, "J": 1}.get(card[0], 0) for card in cards)
    points += 2 * ("2C" in cards) + 3 * ("TD" in cards)
    worth = "no points among them" if not points else f"{points} point"
    line = face_down_line(page)
    assert line is not None
    assert line.startswith(
        f"The face-down centre cards, {labels[0]}, {labels[1]}, and {labels[2]}, went to {side}, "
        f"with {worth}"
    )
    # Read out by the cards' names, not their suits' symbols, here and in
    # the score table's rows of the two cards.
    for code, label in (("2C", "2♣"), ("TD", "10♦")):
        assert f'<th scope="row" aria-label="{card_name(code)}">{label}</th>' in page
    names = [card_name(card) for card in cards]
    heard = face_down_line(page, ear=True)
    assert heard is not None and heard.startswith(
        f"The face-down centre cards, {names[0]}, {names[1]}, and {names[2]}, went to {side}"
    )


def test_a_face_down_card_alone_and_none_at_all(client):
    """In partners Jacks on top are passed over, turning up the cards under
    them: one face-down card left ("one-down-181": 2♣ under two Jacks and
    9♠), or none ("all-up-12641": 7♠ under three Jacks)."""
    start_deal(client, "/deal/one-down-181?rules=partners&level=easy")
    line = face_down_line(play_hand(client))
    assert line is not None
    assert line.startswith("The face-down centre card, 2♣, went to ")
    assert line.endswith(", with 2 points.")
    start_deal(client, "/deal/all-up-12641?rules=partners&level=easy")
    page = play_hand(client)
    assert "This hand" in page and face_down_line(page) is None


def test_the_face_down_cards_in_turkish(client):
    start_deal(client, "/deal/turned-over?rules=cardems&level=easy")
    play_hand(client)
    page = client.get("/game", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    line = face_down_line(page)
    assert line is not None and line.startswith("Ortadaki kapalı kartlar, ")
    assert " ve " in line


def test_the_match_totals_are_spoken_as_points_not_pts(client):
    """The score's match total reads "pts" for the eye and gives a screen
    reader the words, in the page's language, with the words seen in the
    order seen ("0 / 101 puan": "0 puan, hedef 101 puan")."""
    start_deal(client, "/deal/spoken-total?rules=classic&target=101")
    english = client.get("/game").get_data(as_text=True)
    shown = '<span aria-hidden="true"><span class="said-whole">0 / 101 pts</span>'
    assert english.count(shown) == 2
    assert english.count('<span class="visually-hidden">, 0 of 101 points</span>') == 2
    turkish = client.get("/game", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert turkish.count('<span class="visually-hidden">, 0 puan, hedef 101 puan</span>') == 2


def test_the_verdict_is_green_for_a_win_only(client):
    # A loss is marked as one (red), not shown in the winner's green.
    seen = {}
    for number in range(12):
        start_deal(client, f"/deal/verdict-{number}?rules=cardems&level=hard")
        page = play_hand(client)
        verdict = re.search(r'<h1 class="verdict" tabindex="-1">\s*(.*?)\s*</h1>', page, re.S)
        section = re.search(r'<section class="(panel result[^"]*)">', page).group(1)
        seen[verdict.group(1)] = section
        if len(seen) == 2:
            break
    assert seen == {"You won!": "panel result", "The computer won": "panel result lost"}


@pytest.mark.parametrize(
    ("language", "bonus"),
    [
        (
            "en",
            "Last cards bonus 3 (to the side that takes the cards left on the table at the end).",
        ),
        ("tr", "Son kartlar ek puanı 3 (elin sonunda masada kalan kartları alan tarafa)."),
    ],
)
def test_the_hands_points_line_says_a_house_rules_last_cards_bonus(client, language, bonus):
    """The score table had its "Last cards bonus" row; the points line
    under it named every other point but that one."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    start_deal(client, "/deal/sweep-line?rules=classic&last_sweep_bonus=3&level=easy")
    assert bonus in play_hand(client)
    start_deal(client, "/deal/sweep-line?rules=classic&level=easy")
    page = play_hand(client)
    assert "Last cards bonus" not in page and "Son kartlar ek puanı" not in page


@pytest.mark.parametrize(
    ("link", "glance", "why"),
    [
        (
            "/deal/tie40?rules=cardems&tie_break=none&level=medium",
            (["8", "8"], ["32", "20"]),
            "Same points (8); these rules do not break a tie by cards: a draw.",
        ),
        (
            "/deal/tie14?rules=cardems&players=3&tie_break=none&level=medium",
            (["11", "4", "11"], ["5", "11", "36"]),
            "The most points, 11, were shared; these rules do not break a tie by cards: a draw.",
        ),
    ],
)
def test_a_draw_on_points_alone_does_not_say_the_cards_were_equal(client, link, glance, why):
    """Under ``tie_break: none`` equal points are a draw whatever the cards
    (record-format.md, format 2): the final page said "Same points (8) and
    same cards (32)" of sides with 32 and 20 cards, and "shared with as
    many cards" of 5 and 36."""
    start_deal(client, link)
    page = play_hand(client)
    assert re.search(r'<h1 class="verdict" tabindex="-1">\s*A draw\s*</h1>', page)
    points = re.findall(r'<td class="glance-points">(\d+)</td>', page)
    cards = re.findall(r'<td class="glance-cards">(\d+)', page)
    assert (points, cards) == glance
    said = re.search(r'<p class="why">\s*(.*?)\s*</p>', page, re.S).group(1)
    assert said == why


def words(html: str) -> str:
    """The text of ``html``, its tags dropped and its white space made one."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace(" .", ".")


def hand_over_note(page: str) -> str | None:
    """The "deal the next hand at once" note's words at the table, or ``None``."""
    found = re.search(r'<div class="alert hand-over"[^>]*>(.*?)<button', page, re.S)
    return words(found.group(1)) if found else None


@pytest.mark.parametrize(
    ("rules", "seed", "leads"),
    [("classic", "next-dealer-0", "the computer"), ("classic", "next-dealer-1", "you")],
)
def test_deal_on_the_table_after_next_hand_says_the_last_hands_result(client, rules, seed, leads):
    """With "deal the next hand at once", the table read after "Next hand"
    (the script's own request, or a reload just after it) says the last
    hand's result, as the score's page did: a reload between "Next hand"
    being answered and the next table shown used to land on a table without
    it, the hand's points shown nowhere. Until the player's first play of
    the hand, whoever leads it; never in the first hand, nor with the aid
    off."""
    client.set_cookie("pisti_aids", "deal_on")
    start_deal(client, f"/deal/{seed}?rules={rules}&level=easy")
    assert hand_over_note(client.get("/game").get_data(as_text=True)) is None
    page = play_hand(client)
    sentence = words(re.search(r'<p class="why">(.*?)</p>', page, re.S).group(1))
    assert sentence.endswith(".") and "Match: You " in sentence
    fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
    assert client.post("/next", data=fields).status_code == 303
    for _reload in range(2):
        table = client.get("/game").get_data(as_text=True)
        assert f"Next hand: {leads}" not in table and "hand 2" in table
        assert hand_over_note(table) == f"Hand 1 is over. {sentence}"
    # Read out once with the table's lines, the last plays with it.
    live = words(re.search(r'<div aria-live="polite" class="live".*?</ol>', table, re.S).group(0))
    assert live.startswith(f"Hand 1 is over. {sentence} The last plays ")
    card = re.search(r'name="card" value="([^"]+)"', table).group(1)
    played = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', table))
    assert client.post("/play", data={**played, "card": card}).status_code == 303
    assert hand_over_note(client.get("/game").get_data(as_text=True)) is None
    client.set_cookie("pisti_aids", "")
    start_deal(client, f"/deal/{seed}?rules={rules}&level=easy")
    page = play_hand(client)
    fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
    assert client.post("/next", data=fields).status_code == 303
    assert hand_over_note(client.get("/game").get_data(as_text=True)) is None


def test_deal_on_the_note_tells_each_of_three_sides_points(client):
    """With three sides the note adds each side's points of the hand, as the
    score page's glance has them ("Hand: You 9, East 3, West 2.")."""
    client.set_cookie("pisti_aids", "deal_on")
    start_deal(client, "/deal/next-dealer-3?rules=classic&players=3&level=easy")
    page = play_hand(client)
    points = re.findall(r'<td class="glance-points">(\d+)</td>', page)
    fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
    assert client.post("/next", data=fields).status_code == 303
    note = hand_over_note(client.get("/game").get_data(as_text=True))
    assert note.startswith("Hand 1 is over. ")
    assert note.endswith(f"Hand: You {points[0]}, East {points[1]}, West {points[2]}.")
