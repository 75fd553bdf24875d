"""The House rules page: a game under house rules, played through the pages,
whose record is format 2 and replays to the page's totals."""

from __future__ import annotations

import html
import json
import re

import pytest

from app.engine import CLASSIC, RULE_SETS, GameState, RuleSet, load_record, with_options
from app.engine.rules import CHOICES, OPTIONS, option_value
from app.web.rule_words import (
    EXPLAINED,
    GROUPS,
    LABELS,
    SHORT,
    SOURCES,
    VALUES,
    choices,
    rules_summary,
)
from tests.conftest import CSRF, Player, start_deal
from tests.web.test_score_pages import ScoreTable, play_hand

SEEN = "Your side took the face-down cards"
COUNTER = re.compile(r'<span class="seen" aria-hidden="true">(\d+)</span>')
GROUPED = [name for _, names in GROUPS for name in names]
#: The options chosen in a select (the others are numbers of points).
SELECTS = [name for name in GROUPED if choices(name) is not None]
ENGLISH = ("An opening Jack", "as the game plays it", "Play with these rules", "Most cards")


def token(client, path="/house") -> str:
    return CSRF.search(client.get(path).get_data(as_text=True)).group(1)


def test_the_house_page_offers_every_option(client):
    page = client.get("/house")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for name in ("opening_jack", "jack_pisti", "last_sweep_bonus", "face_down", "tie_break"):
        assert f'name="{name}"' in html
    assert (
        '<option value="under" data-words="put under the stock: the dealer gets it last">'
        "under the stock</option>"
    ) in html
    assert "Play with house rules" in client.get("/").get_data(as_text=True)


def test_the_house_page_offers_players_and_sides(client):
    html = client.get("/house").get_data(as_text=True)
    assert '<option value="3" data-words="three: you, East and West">three</option>' in html
    assert '<option value="solo" data-words="each for themselves">each plays alone</option>' in html
    assert "not offered at the table" not in html


def test_every_option_is_explained_with_its_source(client):
    html = client.get("/house").get_data(as_text=True)
    for option in LABELS:
        described = f'aria-describedby="{option}-explained"'
        assert described in html or described.replace('"', f'"{option}-chosen ', 1) in html
    notes = re.findall(r'<p class="option-note" id="([a-z_]+)-explained">([^<]+)</p>', html)
    assert {option for option, _ in notes} == set(LABELS)
    # each fold says where its rules come from, one line an option
    sources = re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", html)
    assert [label for label, _ in sources] == [str(LABELS[name]) for name in GROUPED]
    assert (
        "Points for a Jack pişti",
        "20 in the rule texts, 10 on some Turkish house tables.",
    ) in [(label.replace("&#39;", "'"), source) for label, source in sources]
    turkish = client.get("/house", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert turkish.count("<dd>") == len(LABELS) and "rule texts" not in turkish
    assert "bazı Türk ev masalarında 10" in turkish


def test_the_options_are_folded_until_one_is_changed(client):
    """The folds start closed, each with how many rules it holds; a form
    sent back (refused) opens the folds it changes, and says how many."""
    html = client.get("/house").get_data(as_text=True)
    assert html.count('<details class="rule-group">') == len(GROUPS)
    assert '>4 rules<span class="changed"></span>' in html and " changed<" not in html
    data = {"csrf_token": token(client), "rules": "classic", "level": "easy"}
    refused = client.post("/house", data={**data, "jack_pisti": "ten", "pisti": "5"})
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    folds = re.findall(
        r'<details class="rule-group"( open)?>\s*<summary><span class="group-title">([^<]+)<', page
    )
    assert folds == [
        ("", "Players and sides"),
        ("", "The deal"),
        (" open", "Points"),
        ("", "The end of a hand"),
    ]
    assert '5 rules<span class="changed"> · 2 changed</span>' in page


def test_a_refused_option_is_told_by_its_field(client):
    data = {"csrf_token": token(client), "rules": "classic", "level": "easy"}
    response = client.post("/house", data={**data, "players": "3", "teams": "partners"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    # at the top, with a link to the field, and by the field, which says so
    assert (
        "These house rules cannot be played: Sides: partners need four players; choose four "
        'players or each for themselves. <a href="#teams">Go to the rule</a>'
    ) in page
    assert (
        '<p class="field-problem" id="teams-problem">partners need four players; choose four '
        "players or each for themselves.</p>"
    ) in page
    assert (
        'aria-describedby="teams-chosen teams-explained teams-problem" aria-invalid="true"'
    ) in page
    assert page.count("aria-invalid") == 1
    # the choices made are kept
    assert '<option value="3" data-words="three: you, East and West" selected>' in page
    assert 'value="partners" data-words="partners: you and North' in page
    assert '(four players)" selected>partners</option>' in page


def test_a_combination_that_cannot_be_played_is_refused_in_turkish(client):
    data = {"csrf_token": token(client), "rules": "classic", "level": "easy"}
    response = client.post(
        "/house",
        data={**data, "players": "3", "teams": "partners"},
        headers={"Accept-Language": "tr"},
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Taraflar: eşli oyun dört oyuncu ister" in page and "(teams)" not in page
    assert ">eşli oyun dört oyuncu ister; dört oyuncu ya da “herkes kendine” seçin.</p>" in page


@pytest.mark.parametrize("base", ["zz", ""])
def test_an_unknown_base_game_is_refused_in_turkish(client, base):
    data = {"csrf_token": token(client), "rules": base, "level": "easy"}
    response = client.post("/house", data=data, headers={"Accept-Language": "tr"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert f"“{base}” diye bir oyun yok; oyunlar: Tek el, Klasik, Eşli." in page
    assert "unknown" not in page


def test_the_house_page_in_turkish(client):
    html = client.get("/house", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert "Ev kuralları" in html and "Bu kurallarla oyna" in html
    for english in ENGLISH:
        assert english not in html


def test_a_house_rules_game_is_played_and_its_record_is_format_2(client, runner, tmp_path):
    fields = {
        "rules": "classic",
        "target": "",
        "level": "easy",
        "jack_pisti": "10",
        "last_sweep_bonus": "3",
        "opening_jack": "under",
        "face_down": "capturer",
    }
    response = client.post("/house", data={"csrf_token": token(client), **fields})
    assert response.status_code == 303 and response.headers["Location"].endswith("/game")
    player = Player(client)
    player.get()
    while player.hand:
        player.play(player.hand[0])
    record = json.loads(client.get("/record").get_data(as_text=True))
    assert record["format"] == "pisti-record/2"
    expected = with_options(
        CLASSIC,
        {"jack_pisti": 10, "last_sweep_bonus": 3, "opening_jack": "under", "face_down": "capturer"},
    )
    assert record["rules"] == {"base": "classic", **expected.overrides}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 0, result.stderr
    points = [team["points"] for team in json.loads(result.stdout)["teams"]]
    # The page's columns are you, then the computer; the record's teams
    # are its seats, and who deals first is drawn from the seed.
    seats = [record["players"].index(name) for name in ("you", "computer")]
    table = ScoreTable(player.page)
    assert table.totals == [points[seat] for seat in seats]
    # the lines add up to the totals, the last-sweep bonus among them
    assert "Last cards bonus" in table.rows
    for side, total in enumerate(table.totals):
        assert sum(row[side][1] for row in table.rows.values()) == total


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"jack_pisti": "ten"}, "Points for a Jack pişti: “ten” is not one of its values"),
        ({"opening_jack": "sideways"}, "An opening Jack: “sideways” is not one of its"),
        ({"rules": "tavla"}, "tavla"),
        ({"most_cards": "28"}, "most_cards"),
        ({"target": "77"}, "51, 101, 121 or 151"),
        ({"level": "grandmaster"}, "computer level"),
        ({"players": "5"}, "Players: “5” is not one of its values"),
        ({"players": "3", "teams": "partners"}, "Sides: partners need four players"),
        (
            {"rules": "cardems", "players": "3", "most_cards": "27"},
            "Most cards: “27 or more cards”",
        ),
        ({"level_2": "grandmaster", "players": "3"}, "computer level"),
    ],
)
def test_bad_house_rules_are_a_400_and_start_nothing(client, fields, named):
    data = {"csrf_token": token(client), "rules": "classic", "level": "easy", **fields}
    response = client.post("/house", data=data)
    assert response.status_code == 400
    assert named in response.get_data(as_text=True)
    assert client.get("/game").status_code == 404


@pytest.mark.parametrize("typed", ["\u0663\u0660", "\uff13\uff10", "\u06f3\u06f0"])
def test_points_typed_in_arabic_or_full_width_digits_are_those_points(client, typed):
    """An Arabic keyboard types ٣٠ for 30 (a Persian one ۳۰, a Japanese one
    the full-width ３０): the form's pattern ([0-9]) stopped it in the
    browser, and the server said "“٣٠” is not one of its values". Now it is
    30, and the game's record says so."""
    page = client.get("/house").get_data(as_text=True)
    assert 'name="jack_pisti"' in page and 'pattern="\\p{Nd}{1,6}"' in page
    data = {"csrf_token": token(client), "rules": "cardems", "level": "easy"}
    response = client.post("/house", data={**data, "jack_pisti": typed})
    assert response.status_code == 303 and response.headers["Location"] == "/game"
    play_hand(client)
    assert client.get("/record?hand=1").get_json()["rules"] == {"base": "cardems", "jack_pisti": 30}


def test_three_players_on_the_single_deal_with_most_cards_left_to_the_game(client):
    # The single deal gives the most cards for 27, which needs two sides:
    # left as the game plays it, three players get it for strictly more.
    data = {"csrf_token": token(client), "rules": "cardems", "players": "3", "level": "easy"}
    response = client.post("/house", data=data)
    assert response.status_code == 303 and response.headers["Location"] == "/game"
    play_hand(client)
    record = client.get("/record?hand=1").get_json()
    assert record["rules"] == {
        "base": "cardems",
        "players": 3,
        "teams": "solo",
        "most_cards": "more",
    }


def test_partners_see_the_face_down_cards_their_side_took(app, runner):
    """Seed 003: the side that takes the face-down cards may look at them;
    the page shows them to that side only, from the start of the hand."""
    seen = {}
    for number in range(12):
        client = app.test_client()
        response = start_deal(client, f"/deal/fd-{number}?rules=partners&level=easy")
        assert response.status_code == 303
        player = Player(client)
        player.get()
        counter_on = {"csrf_token": player.token, "counter": "on"}
        assert client.post("/settings", data=counter_on).status_code == 303
        player.get()
        shown, counted = [], []
        while player.hand:
            shown.append(SEEN in player.page)
            counted.append((int(player.move), sum(map(int, COUNTER.findall(player.page)))))
            player.play(player.hand[0])
        record = json.loads(client.get("/record").get_data(as_text=True))
        state = load_record(json.dumps(record))
        # the played-cards counter counts only the cards shown openly
        # (seed 001), never the face-down ones the side looked at
        for move, total in counted:
            before = GameState.replay(state.rules, record["deck"], record["plays"][:move])
            openly = {*before.face_up_at_start, *before.plays, *before.stock_bottom}
            assert total == len(openly)
        ours = state.face_down_taker == 0
        # from the capture on, the table page shows them to that side only
        assert any(shown) == ours
        if ours:
            assert shown[-1] and shown == sorted(shown)
        seen[ours] = True
        if len(seen) == 2:
            break
    assert seen == {True: True, False: True}


def test_every_option_is_offered_once_with_its_label_sentence_and_sources(client):
    """An option added to the engine (:data:`app.engine.rules.OPTIONS`) is
    on the House rules page, in one fold, with its label, its sentence and
    where it is played: one left out of a fold would never be offered, one
    without a label would break every page that lists a game's rules."""
    folded = [name for _title, names in GROUPS for name in names]
    assert sorted(folded) == sorted(OPTIONS)
    assert LABELS.keys() == EXPLAINED.keys() == SOURCES.keys() == set(OPTIONS)
    page = client.get("/house").get_data(as_text=True)
    for option in OPTIONS:
        assert re.search(rf'<(select|input)[^>]* name="{option}"', page), option


def test_every_option_value_has_words_for_the_form_and_the_rules_line(app):
    """Each choice of each format-2 option is worded on the House rules
    page and in the rules line; a rule set differing in it lists it."""
    with app.test_request_context():
        for option, values in CHOICES.items():
            for value in values:
                text = str(value).lower()
                assert text in VALUES
                if option not in ("players", "teams"):
                    assert (option, text) in SHORT
                for base in RULE_SETS.values():
                    rules: RuleSet | None
                    try:
                        rules = with_options(base, {option: value})
                    except ValueError:
                        rules = None
                    if rules is None or option_value(base, option) == value:
                        continue
                    summary = rules_summary(rules, None)
                    assert summary["house"] and summary["details"]
                    assert summary["line"].startswith(("Single hand", "Classic", "Partners"))


def test_the_page_says_what_each_game_plays_when_an_option_is_left_alone(client):
    """ "As the game plays it" says what that is in the chosen game; the
    other games' words are there for the page's script to show."""
    page = client.get("/house").get_data(as_text=True)
    opening = re.search(r'<select id="opening_jack".*?</select>', page, re.S).group(0)
    assert (
        '<option value="" data-cardems="swapped (as played)" data-cardems-words="swapped with '
        'a card under it — as the game plays it" data-classic="stays on top (as played)" '
        'data-partners="passed over (as played)" data-partners-words="passed over: the next '
        'card is turned up — as the game plays it" >stays on top (as played)</option>'
    ) in opening
    assert ">51 points (as played)</option>" in page
    assert 'data-cardems="one hand (as played)"' in page
    assert 'placeholder="10 (as played)"' in page
    assert 'placeholder="20 (as played)"' in page
    # written as the refusal writes it ("from 0 to 999,999")
    assert 'title="A whole number of points, from 0 to 999,999"' in page
    turkish = client.get("/house", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert 'title="0 ile 999.999 arasında tam sayı puan"' in turkish
    # a form sent back shows its own game's
    data = {"csrf_token": token(client), "rules": "partners", "level": "easy", "pisti": "x"}
    refused = client.post("/house", data=data).get_data(as_text=True)
    assert ">151 points (as played)</option>" in refused
    assert ">passed over (as played)</option>" in refused
    assert (
        '<p class="chosen-words" id="opening_jack-chosen">passed over: the next card is turned '
        "up — as the game plays it</p>"
    ) in refused


@pytest.mark.parametrize(
    ("rules", "players", "label", "shown", "teams"),
    [
        ("classic", "4", "partners", "partners: you and North against East and West", "partners"),
        ("partners", "3", "each plays alone", "each for themselves", "solo"),
        ("partners", "", "partners", "partners: you and North against East and West", "partners"),
    ],
)
def test_sides_left_alone_say_what_the_players_chosen_get(
    client, rules, players, label, shown, teams
):
    """With a number of players chosen and the sides left alone, the sides'
    "as the game plays it" says what is played: partners for four, each
    for themselves otherwise (format 2's default), not the game's own."""
    data = {"csrf_token": token(client), "rules": rules, "level": "easy", "players": players}
    page = client.post("/house", data={**data, "pisti": "x"}).get_data(as_text=True)
    select = re.search(r'<select id="teams".*?</select>', page, re.S).group(0)
    assert re.search(r'<option value="" [^>]*>' + re.escape(f"{label} (as played)<"), select)
    assert f'<p class="chosen-words" id="teams-chosen">{shown}' in page
    assert client.post("/house", data=data).status_code == 303
    table = client.get("/game").get_data(as_text=True)
    # (Partners' whole names, beside their short ones: "We", "They".)
    found = re.findall(r'class="who">(?:<span class="said-whole">)?([^<]*)', table)
    sides = [html.unescape(side) for side in found]
    assert (sides == ["You & North", "East & West"]) == (teams == "partners")


def chosen_words(page: str) -> dict[str, str | None]:
    """The line under each select of a House rules ``page``: its words, or
    ``None`` when it is hidden (the choice's label says them all)."""
    lines = {}
    for name in SELECTS:
        line = re.search(f'<p class="chosen-words" id="{name}-chosen"( hidden)?>([^<]*)</p>', page)
        assert line is not None, name
        assert (line.group(1) is None) == bool(line.group(2)), name
        lines[name] = html.unescape(line.group(2)) or None
    return lines


def test_each_choice_is_short_in_its_field_and_whole_under_it(client):
    """A select cannot wrap: its choices say what they are in a few words
    (a phone's select is some 240 px of text), and the line under it, tied
    to it, gives the whole words of the one chosen; the server writes it for
    the page and for a form sent back, which shows its own choices."""
    page = client.get("/house").get_data(as_text=True)
    for name in SELECTS:
        assert f'aria-describedby="{name}-chosen {name}-explained"' in page
    assert chosen_words(page) == {
        "players": "two: you and the computer — as the game plays it",
        "teams": "each for themselves — as the game plays it",
        "opening_jack": None,
        "four_jacks": None,
        "bottom_card": "any card, not shown — as the game plays it",
        "face_down": None,
        "pisti_on_last_play": None,
        "most_cards": "strictly more cards than every other side — as the game plays it",
        "no_capture_leftovers": None,
        "tie_break": None,
    }
    assert ">hidden (as played)</option>" in page and ">stays on top (as played)</option>" in page
    # every choice's whole words are on the page: its label says them, or its line
    for name in SELECTS:
        select = re.search(f'<select id="{name}".*?</select>', page, re.S).group(0)
        for value in choices(name) or ():
            words = html.escape(str(VALUES[value]))
            assert (
                f'<option value="{value}">{words}</option>' in select
                or f'<option value="{value}" data-words="{words}">' in select
            ), (name, value)
    data = {
        "csrf_token": token(client),
        "rules": "partners",
        "level": "easy",
        "players": "4",
        "opening_jack": "under",
        "most_cards": "more",
        "face_down": "hidden",
        "pisti": "x",
    }
    refused = client.post("/house", data=data)
    assert refused.status_code == 400
    assert chosen_words(refused.get_data(as_text=True)) == {
        "players": "four: you, East, North and West",
        "teams": "partners: you and North against East and West (four players) — as the "
        "game plays it",
        "opening_jack": "put under the stock: the dealer gets it last",
        "four_jacks": "deal again — as the game plays it",
        "bottom_card": "never a Jack, shown to all — as the game plays it",
        "face_down": None,
        "pisti_on_last_play": None,
        "most_cards": "strictly more cards than every other side",
        "no_capture_leftovers": None,
        "tie_break": None,
    }
    turkish = client.post("/house", data=data, headers={"Accept-Language": "tr"})
    page = turkish.get_data(as_text=True)
    lines = chosen_words(page)
    assert lines["opening_jack"] == "destenin altına konur: dağıtan en son alır"
    assert lines["four_jacks"] == "yeniden dağıtılır — oyundaki gibi"
    assert ">yeni dağıtım (oyundaki gibi)</option>" in page
    assert "selected>destenin altına</option>" in page
