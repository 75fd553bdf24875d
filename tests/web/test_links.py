"""Deal links that mean one thing: ``/deal/<seed>`` carries the game, the
target and the computers' levels, writes them into the share link and the
record, and refuses what the game does not offer."""

from __future__ import annotations

import html
import itertools
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from werkzeug.urls import iri_to_uri

from app import ROOT, create_app
from app.engine import MATCH_TARGETS, RULE_SETS
from app.engine.match import first_rotation
from app.web.links import deal_settings, deal_url
from tests.conftest import app_config, checked, form_fields, start_deal
from tests.web.test_house_tables import play_match
from tests.web.test_score_pages import play_hand

LEVELS = ["easy", "medium", "hard", "expert"]
NAMES = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert"}
#: Every game with every target it offers ("" = left out: the default).
GAMES = [("cardems", "")] + [
    (name, target)
    for name, rules in RULE_SETS.items()
    for target in ("", *map(str, rules.match_targets))
    if rules.match_targets
]


@pytest.fixture
def app(tmp_path):
    """The test app, with a quick Expert (it only has to answer)."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "EXPERT_MS": 2,
        }
    )


def query(**args: str) -> str:
    return "&".join(f"{name}={value}" for name, value in args.items() if value)


def shown_levels(page: str) -> list[str]:
    return re.findall(r'<p class="place-level">(\w+)</p>', page)


@pytest.mark.parametrize(("rules", "target", "level"), [(*g, lv) for g in GAMES for lv in LEVELS])
def test_every_game_target_and_level_is_dealt_as_the_link_says(client, rules, target, level):
    link = f"/deal/all-{rules}?{query(rules=rules, target=target, level=level)}"
    players = RULE_SETS[rules].players
    # The link's page says what it deals, and its button starts that.
    page = client.get(link).get_data(as_text=True)
    seats = {2: ["{}"], 4: ["East: {}", "North: {}", "West: {}"]}[players]
    assert " · ".join(seat.format(NAMES[level]) for seat in seats) in page
    response = start_deal(client, link)
    assert response.status_code == 303 and response.headers["Location"] == "/game"
    page = client.get("/game").get_data(as_text=True)
    assert shown_levels(page) == [NAMES[level]] * (players - 1)
    targets = RULE_SETS[rules].match_targets
    if targets:
        assert f"/ {target or targets[0]} pts" in page
    else:
        assert " pts<" not in page


@pytest.mark.parametrize("rules", ["classic", "partners"])
def test_a_shared_match_has_the_same_first_dealer_for_everyone(app, rules):
    # The first dealer is drawn from the seed (seed 003: "chosen randomly"):
    # on a link whose first hand the player deals, the computers lead, and
    # every friend on the link sees the same plays before their turn.
    players = RULE_SETS[rules].players
    seed = next(f"dealer-{i}" for i in range(50) if first_rotation(f"dealer-{i}", players) == 1)
    pages = []
    for _ in range(2):
        client = app.test_client()
        assert start_deal(client, f"/deal/{seed}?rules={rules}&level=easy").status_code == 303
        pages.append(client.get("/game").get_data(as_text=True))
    moves = [re.search(r'name="move" value="(\d+)"', page).group(1) for page in pages]
    assert moves[0] == moves[1] == str(players - 1)  # you deal: you play last
    assert 'id="your-hand" aria-label="Your hand, dealer' in pages[0]
    log = re.search(r'<ol class="log">(.*?)</ol>', pages[0]).group(1)
    assert log.count("<li>") == players - 1 and "You played" not in log


@pytest.mark.parametrize(
    "seats", [*list(itertools.product(LEVELS, repeat=3))[::7], ("hard", "easy", "hard")]
)
def test_partners_seat_levels_are_dealt_as_the_link_says(client, seats):
    args = dict(zip(("level_1", "level_2", "level_3"), seats, strict=True))
    link = f"/deal/seats?{query(rules='partners', level='medium', **args)}"
    names = [NAMES[level] for level in seats]
    # The link's page says which seat plays at which level.
    page = client.get(link).get_data(as_text=True)
    assert "East: {} · North: {} · West: {}".format(*names) in page
    start_deal(client, link)
    page = client.get("/game").get_data(as_text=True)
    assert shown_levels(page) == names


@pytest.mark.parametrize(("rules", "target"), GAMES)
@pytest.mark.parametrize(
    "levels",
    [("easy",) * 3, ("hard",) * 3, ("expert", "easy", "expert"), ("easy", "medium", "hard")],
)
def test_the_share_link_reads_back_to_the_same_settings(app, rules, target, levels):
    levels = list(levels[: RULE_SETS[rules].players - 1])
    settings = deal_settings({"rules": rules, "target": target})
    with app.test_request_context():
        link = deal_url("x", RULE_SETS[rules], settings["target"], levels, external=True)
    args = dict(parse_qsl(urlsplit(link).query))
    assert args["rules"] == rules and "level" in args
    read = deal_settings(args)
    assert (read["rules"], read["target"], read["levels"]) == (rules, settings["target"], levels)


def offered(rules: str) -> str:
    """The targets a game offers, as the 400 page lists them: any match
    target, whatever the game's default."""
    return ", ".join(map(str, MATCH_TARGETS))


#: Targets no game offers, and for each game the usual targets it does not.
ODD_TARGETS = ["77", "051", "%C2%B2", "-51", "150", "51.0"]
USUAL_TARGETS = ["51", "101", "121", "151"]
BAD = [
    (
        "rules=bogus",
        "There is no game called “bogus”",
        "Single hand (2 players), rules=cardems; Classic match (2 players), rules=classic",
    ),
    ("rules=Classic", "There is no game called “Classic”", "rules=partners"),
    *[
        (f"rules={rules}&target={target}", "played to one of these targets:", offered(rules))
        for rules in ("classic", "partners")
        for target in ODD_TARGETS
        + [usual for usual in USUAL_TARGETS if int(usual) not in RULE_SETS[rules].match_targets]
    ],
    ("target=77", "played to one of these targets:", "51, 101, 121, 151"),
    ("level=superhard", "no computer level “superhard”", "easy, medium, hard, expert"),
    ("rules=classic&level=Hard", "no computer level “Hard”", "easy, medium, hard, expert"),
    ("rules=partners&level_2=bogus", "no computer level “bogus” (level_2)", "easy, medium"),
    ("rules=classic&level_1=easy", "has one computer", "“level_1”"),
    ("level_3=hard", "has one computer", "“level_3”"),
    ("rules=partners&level_4=easy", "no seat for “level_4”", "level_1, level_2, level_3"),
    ("rules=partners&level_0=easy", "no seat for “level_0”", "level_1, level_2, level_3"),
    # A near miss of a parameter is named, not silently dealt without it.
    ("rules=classic&jack_pist=10", "asks for “jack_pist”, which no game has", "“jack_pisti”?"),
    ("rules=classic&targte=101", "asks for “targte”, which no game has", "“target”?"),
    ("levle=hard", "asks for “levle”, which no game has", "“level”?"),
    ("rule=partners", "asks for “rule”, which no game has", "“rules”?"),
    # A setting given twice with two values means two deals: named, not
    # the first one silently dealt.
    ("rules=classic&target=51&target=101", "gives “target” more than once", "(51, 101)"),
    ("rules=classic&target=51&target=51&target=101", "gives “target” more", "once (51, 101)"),
    ("rules=classic&rules=partners", "gives “rules” more than once", "(classic, partners)"),
    ("level=easy&level=hard", "gives “level” more than once", "(easy, hard)"),
    ("rules=partners&level_2=easy&level_2=hard", "gives “level_2” more than", "(easy, hard)"),
    ("rules=classic&jack_pisti=10&jack_pisti=20", "gives “jack_pisti” more than", "(10, 20)"),
    # A house rule's value out of its range names the values it has.
    ("rules=classic&jack_pisti=abc", "“abc” is not one of its values", "from 0 to 999,999)"),
    ("rules=classic&pisti=1000000", "“1000000” is not one of its values", "from 0 to 999,999)"),
    ("rules=classic&opening_jack=up", "“up” is not one", "(swap, stay, pass, under)"),
    ("rules=classic&pisti_on_last_play=yes", "“yes” is not one", "(true, false)"),
]


@pytest.mark.parametrize(("args", "problem", "allowed"), BAD)
def test_a_value_the_game_does_not_offer_is_a_400_that_says_what_is_allowed(
    client, args, problem, allowed
):
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").get_data(as_text=True))
    for response in (
        client.get(f"/deal/bad-link?{args}"),
        client.post(f"/deal/bad-link?{args}", data={"csrf_token": token.group(1)}),
    ):
        assert response.status_code == 400
        page = response.get_data(as_text=True)
        assert "This deal link cannot be used" in page
        assert problem in page and allowed in page
    # Nothing was dealt.
    assert client.get("/game").status_code == 404


def test_what_sharing_adds_to_a_link_is_left_alone(client):
    # Sites append their own parameters to a shared link; they are nothing
    # like the link's own, so the deal is dealt (a setting repeated with the
    # same value means one thing too).
    response = start_deal(
        client,
        "/deal/shared?rules=classic&fbclid=IwAR0x&utm_source=chat&utm_source=x&target=51&target=51"
        "&level=&level=hard",
    )
    assert response.status_code == 303
    page = client.get("/game").get_data(as_text=True)
    assert "Classic" in page and shown_levels(page) == ["Hard"]


def test_a_link_whose_ampersands_were_escaped_on_the_way_deals_what_it_says(client):
    # A link copied out of a web page's source or an e-mail comes with its
    # "&" written "&amp;": its game and levels read "amp;level" and were
    # left alone as parameters nothing like the link's, so a friend was
    # dealt the same cards against Medium computers, to 51, without a word.
    escaped = "/deal/kaçış?rules=classic&amp;target=101&amp;amp;level=hard&amp;utm_source=x"
    response = client.get(escaped)
    assert response.status_code == 308
    assert response.location == checked(
        "/deal/ka%C3%A7%C4%B1%C5%9F?rules=classic&target=101&level=hard"
    )
    assert start_deal(client, response.location).status_code == 303
    page = client.get("/game").get_data(as_text=True)
    assert "0 of 101 points" in page and shown_levels(page) == ["Hard"]


@pytest.mark.parametrize(
    ("cut", "meant"),
    [("&lev", "level"), ("&le=", "level"), ("&tar", "target"), ("&jack_pi", "jack_pisti")],
)
def test_a_link_cut_short_in_a_parameters_name_is_refused_not_dealt_otherwise(client, cut, meant):
    # A link copied short on a phone ends in part of a parameter's name:
    # "&lev" was left alone as a parameter nothing like the link's, so the
    # deal was dealt against Medium computers (or to the game's own target)
    # where the friend's link said otherwise, without a word.
    response = client.get(f"/deal/kesik?rules=classic&target=101{cut}")
    assert response.status_code == 400
    assert f"did you mean “{meant}”?" in response.get_data(as_text=True)
    assert start_deal(client, f"/deal/kesik?rules=classic&target=101{cut}").status_code == 400
    assert client.get("/game").status_code == 404
    # What sharing adds keeps its value, and is still left alone.
    assert client.get("/deal/kesik?rules=classic&t=x7&s=20&=").status_code == 200
    # A parameter of the link left empty is left out, even one whose name
    # begins another's (pisti, pisti_on_last_play; most_cards).
    assert client.get("/deal/kesik?rules=classic&pisti=&most_cards=&level=").status_code == 200


def test_a_bad_link_page_is_in_turkish_too(client):
    page = client.get(
        "/deal/x?rules=classic&target=77", headers={"Accept-Language": "tr"}
    ).get_data(as_text=True)
    assert "Bu dağıtım bağlantısı kullanılamıyor" in page and offered("classic") in page


@pytest.mark.parametrize(
    ("form", "link"),
    [
        (
            "rules=cardems&target=51&level=hard&level_1=&level_2=&level_3=",
            "rules=cardems&level=hard",
        ),
        (
            "rules=classic&target=101&level=expert&level_1=&level_2=&level_3=",
            "rules=classic&target=101&level=expert",
        ),
        (
            "rules=partners&target=101&level=easy&level_1=&level_2=hard&level_3=",
            # The form's target select is the classic match's: a game with
            # one target keeps it.
            "rules=partners&target={}&level=easy&level_2=hard".format(
                101 if len(RULE_SETS["partners"].match_targets) > 1 else 151
            ),
        ),
        ("rules=classic&level=easy&level_1=hard", "rules=classic&target=51&level=easy"),
    ],
)
def test_the_seed_form_goes_to_the_link_with_its_game_and_levels(client, form, link):
    """The form sends every field; what does not apply to the game chosen
    (the classic target, the partners seats) is left out of the link."""
    response = client.get(f"/deal?seed=form-seed&{form}")
    assert response.status_code == 303
    assert response.headers["Location"] == checked(f"/deal/form-seed?{link}")


def test_the_home_seed_form_has_the_levels_and_the_target(client):
    page = client.get("/").get_data(as_text=True)
    form = page.split('action="/deal"')[1].split("</form>")[0]
    assert '<select id="seed-level" name="level">' in form
    assert '<select id="seed-target" name="target">' in form
    for position in (1, 2, 3):
        assert f'name="level_{position}"' in form


def test_the_final_page_and_the_record_carry_the_link(client):
    start_deal(client, "/deal/linked?rules=cardems&level=hard")
    page = play_hand(client)
    link = checked("http://localhost/deal/linked?rules=cardems&amp;level=hard")
    assert f'id="share" class="share" type="text" readonly value="{link}"' in page
    record = client.get("/record").get_json()
    assert record["link"] == link.replace("&amp;", "&")


def test_between_hands_a_deal_links_match_offers_its_link_a_new_games_does_not(client):
    # A friend asks for the link while a match to 101 is under way: a deal
    # whose seed is public (opened from its link) shows it between hands,
    # where it was only on the final page; a New game's seed stays secret
    # until the match is over (it would deal every later hand).
    start_deal(client, "/deal/maç-arası?rules=classic&target=101&level=hard")
    page = play_hand(client)
    assert "Hand 1 is over" in page
    link = checked("http://localhost/deal/maç-arası?rules=classic&amp;target=101&amp;level=hard")
    assert f'id="share" class="share" type="text" readonly value="{link}"' in page
    assert "Copy link" in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    fields = {"csrf_token": token, "rules": "classic", "target": "101", "level": "hard"}
    assert client.post("/new", data=fields).status_code == 303
    page = play_hand(client)
    assert "Hand 1 is over" in page
    assert 'id="share"' not in page and "/deal/" not in page


def test_a_link_without_a_level_is_medium_whatever_the_players_settings(client):
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").get_data(as_text=True))
    client.post("/new", data={"csrf_token": token.group(1), "level": "expert"})
    start_deal(client, "/deal/plain")
    assert shown_levels(client.get("/game").get_data(as_text=True)) == ["Medium"]


@pytest.mark.parametrize(
    "query_text",
    [
        "rules=classic&jack_pisti=10&target=121&level=hard",
        "rules=cardems&pisti_on_last_play=false&last_sweep_bonus=3&target=51&level=easy",
        "rules=partners&opening_jack=under&level=expert&level_2=easy",
        "rules=cardems&pisti=5&level=medium",
    ],
)
def test_a_house_rules_link_deals_those_rules_and_shares_them(app, client, query_text):
    """A game of the House rules page shares a link that carries its rules;
    the link deals them (any match target, as that page offers)."""
    args = dict(parse_qsl(query_text))
    settings = deal_settings(args)
    assert settings["rule_set"].overrides
    page = client.get(f"/deal/house-link?{query_text}").get_data(as_text=True)
    # The rules in words, folded on the phone's first screen; never the
    # link's option names.
    assert "House rules" in page and "<details><summary>" in page
    assert re.search(r"\d rules? changed</summary>", page)
    assert f"<code>{settings['house']}</code>" not in page
    assert start_deal(client, f"/deal/house-link?{query_text}").status_code == 303
    with app.test_request_context():
        link = deal_url("house-link", settings["rule_set"], settings["target"], settings["levels"])
    again = deal_settings(dict(parse_qsl(urlsplit(link).query)))
    assert again["rule_set"] == settings["rule_set"]
    assert (again["target"], again["levels"]) == (settings["target"], settings["levels"])


@pytest.mark.parametrize(
    ("query_text", "option"),
    [
        ("rules=classic&jack_pisti=lots", "jack_pisti"),
        ("rules=classic&opening_jack=sideways", "opening_jack"),
        ("rules=classic&players=5", "players"),
        ("rules=classic&players=3&teams=partners", "teams"),
        ("rules=cardems&players=4&teams=solo&most_cards=27", "most_cards"),
    ],
)
def test_a_house_rule_that_cannot_be_played_here_is_a_400(client, query_text, option):
    response = client.get(f"/deal/x?{query_text}")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "These house rules cannot be played" in page and option in page


@pytest.mark.parametrize("players", ["3", "4&teams=solo"])
def test_most_cards_left_alone_with_three_sides_is_strictly_more(app, client, players):
    """A typed link for a 27-cards game with three or four sides deals it
    with "strictly more cards", as the House rules form does, and its share
    link says so (a record with 27 there would be invalid)."""
    settings = deal_settings(dict(parse_qsl(f"rules=cardems&players={players}")))
    assert settings["rule_set"].most_cards == "more_than_other"
    assert settings["house"].endswith("most_cards=more")
    with app.test_request_context():
        link = deal_url("most-3", settings["rule_set"], settings["target"], settings["levels"])
    assert "most_cards=more" in link
    page = client.get(f"/deal/most-3?rules=cardems&players={players}")
    assert page.status_code == 200
    assert "cannot be played" not in page.get_data(as_text=True)
    assert start_deal(client, f"/deal/most-3?rules=cardems&players={players}").status_code == 303


@pytest.mark.parametrize(
    ("query_text", "seats"),
    [
        ("rules=classic&players=3&jack_pisti=10&level=easy&level_2=hard", 3),
        ("rules=partners&teams=solo&target=51&level=medium&level_3=easy", 4),
        ("rules=cardems&players=4&teams=solo&most_cards=more", 4),
    ],
)
def test_a_three_or_four_solo_link_deals_the_same_table_for_anyone(app, client, query_text, seats):
    """Players and teams ride in the link (record format 2): its settings read back
    from the link they write, and two players opening it get the same
    cards against the same computers."""
    settings = deal_settings(dict(parse_qsl(query_text)))
    rules = settings["rule_set"]
    assert (rules.players, rules.team_count) == (seats, seats)
    with app.test_request_context():
        link = deal_url("shared-3", rules, settings["target"], settings["levels"])
    assert "teams=solo" in link
    again = deal_settings(dict(parse_qsl(urlsplit(link).query)))
    assert again["rule_set"] == rules
    assert (again["target"], again["levels"]) == (settings["target"], settings["levels"])
    pages = []
    for browser in (client, app.test_client()):
        assert start_deal(browser, link).status_code == 303
        pages.append(browser.get("/game").get_data(as_text=True))
    hands = [re.findall(r'name="card" value="(\w\w)"', page) for page in pages]
    assert hands[0] and hands[0] == hands[1]
    levels = [NAMES[level] for level in settings["levels"]]
    assert shown_levels(pages[0]) == shown_levels(pages[1]) == levels
    assert pages[0].count('class="place seat') == seats - 1


def test_the_deal_page_names_the_seed_as_a_fact_not_its_heading(client):
    seed = "fGki2ThcFG7vsQrOCUYWWw"
    page = client.get(f"/deal/{seed}").get_data(as_text=True)
    assert "<h1>A shared deal</h1>" in page
    assert f'<dt>Seed</dt>\n    <dd><code class="seed">{seed}</code></dd>' in page
    turkish = client.get(f"/deal/{seed}", headers={"Accept-Language": "tr"})
    text = turkish.get_data(as_text=True)
    assert "<h1>Paylaşılan dağıtım</h1>" in text and "<dt>Dağıtım kodu</dt>" in text


@pytest.mark.parametrize("seed", ["दिवाली", "สงกรานต์"])
def test_a_deal_link_of_a_seed_with_vowel_signs_deals_it(client, seed):
    """A Hindi or Thai seed (its vowels are combining marks) was refused,
    from the home page's form and as a link: "cannot be used: a seed is 1
    to 64 characters, each a letter...", though it is letters only."""
    link = iri_to_uri(f"/deal/{seed}")
    page = client.get(link).get_data(as_text=True)
    assert f'<dd><code class="seed">{seed}</code></dd>' in page
    assert start_deal(client, link).status_code == 303
    assert client.get("/game").status_code == 200
    home = client.get("/").get_data(as_text=True)
    pattern = re.search(r'id="seed"[^>]*pattern="([^"]+)"', home)
    assert pattern is not None and "\\p{M}" in pattern.group(1)


def test_the_deal_page_shows_a_newcomer_the_rules_and_the_lesson(client):
    page = client.get("/deal/first-time").get_data(as_text=True)
    assert '<a href="/#rules">The rules in short</a>' in page
    assert '<a href="/story">Aunt Hayriye\'s lesson</a>' in page
    assert 'id="rules"' in client.get("/").get_data(as_text=True)


def test_a_cardems_match_of_the_house_rules_page_has_a_link_that_deals_it(client):
    """Any base is played to any target (a house choice), the single deal too,
    with no option changed: its record's link and the share link deal that
    match, not a 400."""
    token = re.search(
        r'name="csrf_token" value="([^"]+)"', client.get("/house").get_data(as_text=True)
    )
    fields = {"csrf_token": token.group(1), "replaces": "", "rules": "cardems", "target": "51"}
    assert client.post("/house", data={**fields, "level": "easy"}).status_code == 303
    final = play_match(client)
    record = client.get("/record?hand=1").get_json()
    assert record["format"] == "pisti-record/1" and record["rules"] == "cardems"
    link = urlsplit(record["link"])
    assert link.query == "rules=cardems&target=51&level=easy"
    assert f'readonly value="{record["link"].replace("&", "&amp;")}"' in final
    page = client.get(f"{link.path}?{link.query}")
    assert page.status_code == 200
    assert start_deal(client, f"{link.path}?{link.query}")
    table = client.get("/game").get_data(as_text=True)
    assert "0 / 51" in table and "Easy" in table


def test_a_shared_links_preview_in_a_chat_says_what_it_deals(client):
    # A chat app shows a link's preview from its page's title and
    # description: the deal page had a title only, so a friend saw
    # "Deal “cuma-akşamı” · Pişti" and nothing of the game or computers.
    page = client.get("/deal/cuma-akşamı?rules=partners&target=51&level=hard").get_data(
        as_text=True
    )
    words = (
        "Partners (2 v 2) · to 51 · computers: Hard. "
        "Everyone who opens this link gets the same cards."
    )
    assert f'<meta name="description" content="{words}">' in page
    assert f'<meta property="og:description" content="{words}">' in page
    assert '<meta property="og:title" content="Pişti: a shared deal, “cuma-akşamı”">' in page
    page = client.get("/deal/üç?rules=classic&players=3&level=easy&level_2=expert").get_data(
        as_text=True
    )
    assert (
        '<meta name="description" content="Classic · 3 players · to 51 · computers: '
        'East Easy, West Expert. Everyone who opens this link gets the same cards.">'
    ) in page


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("localhost:5000", True),
        ("127.0.0.1:5000", True),
        ("[::1]:5000", True),
        ("192.168.1.20:5000", False),
        ("pisti.example", False),
    ],
)
def test_a_share_link_that_names_this_computer_says_a_friend_cannot_open_it(client, host, local):
    # Pişti served at home and played on the machine that runs it: the
    # link names localhost, which on a friend's phone is the phone itself.
    # Opened at the address friends reach the server at, no such note.
    headers = {"Host": host}
    start_deal(client, "/deal/ev-sunucusu?rules=cardems", headers=headers)
    page = client.get("/game", headers=headers).get_data(as_text=True)
    while cards := re.findall(r'name="card" value="([^"]+)"', page):
        fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        client.post("/play", data={**fields, "card": cards[0]}, headers=headers)
        page = client.get("/game", headers=headers).get_data(as_text=True)
    link = checked(f"http://{host}/deal/ev-sunucusu?rules=cardems&amp;level=medium")
    assert f'value="{link}"' in page
    assert ("names this computer" in page) is local


def shared_link(client, link: str) -> str:
    """Play ``link``'s single hand to its end; return the final page's
    share link, as a friend receives it (path and query)."""
    start_deal(client, link)
    page = play_hand(client)
    shared = re.search(r'id="share" class="share" type="text" readonly value="([^"]+)"', page)
    parts = urlsplit(shared.group(1).replace("&amp;", "&"))
    return f"{parts.path}?{parts.query}"


def test_a_shared_link_carries_a_check_that_tells_a_link_cut_short_or_changed(app):
    """A chat app cutting a long link, or one character lost in copying,
    dealt another game in silence: a friend played a different deal
    believing it the same. The link the final page shares carries a check
    before its seed; whatever is left of it once cut or changed is
    refused, saying why, and deals nothing."""
    ana = app.test_client()
    link = shared_link(ana, "/deal/cuma-gecesi?rules=classic&target=101&level=hard")
    assert re.fullmatch(
        r"/deal/~[0-9a-hjkmnp-tv-z]{6}/cuma-gecesi\?rules=classic&target=101&level=hard", link
    )
    friend = app.test_client()
    page = friend.get(link)
    assert page.status_code == 200 and "cuma-gecesi" in page.get_data(as_text=True)
    # Every link cut short after its "~" (a cut before it is no link of the
    # site, or an old, unchecked link), and each one-character change of
    # the seed or a value: refused with the same words.
    start = len("/deal/~")
    changed = [link[:end] for end in range(start, len(link))]
    changed += [link.replace("cuma-gecesi", "cuma-geces1"), link.replace("101", "151")]
    changed += [link.replace("hard", "easy"), link.replace("/cuma", "/Cuma")]
    for wrong in changed:
        response = friend.get(wrong)
        assert response.status_code == 400, wrong
        text = " ".join(response.get_data(as_text=True).split())
        assert "This deal link is not whole" in text, wrong
        assert "Ask for it again, copied whole" in text
        if re.match(r"/deal/~[^/]*/.", wrong):
            assert "was changed or cut short on its way" in text
        else:
            assert "it ends before its seed" in text
        # Sent as the Start button would: nothing is dealt.
        token = re.search(r'name="csrf_token" value="([^"]+)"', text).group(1)
        assert friend.post(wrong, data={"csrf_token": token}).status_code == 400
    assert friend.get("/game").status_code == 404
    # What sharing adds is not part of it, and a check in capitals is the same.
    check = link.split("/")[2]
    for fine in (f"{link}&utm_source=chat&fbclid=x", link.replace(check, check.upper())):
        assert friend.get(fine).status_code == 200
    # The friend's game is the same deal against the same computers.
    assert start_deal(friend, link).status_code == 303
    page = friend.get("/game").get_data(as_text=True)
    assert "0 of 101 points" in page and shown_levels(page) == ["Hard"]


def test_a_link_without_a_check_deals_as_before_and_is_shared_with_one(client):
    """Links written before the checks, and seeds typed by hand, keep
    working; the seed form goes to the checked link, so the address a
    player copies from the bar is checked too."""
    assert client.get("/deal/eski-bağlantı?rules=classic&level=hard").status_code == 200
    response = client.get("/deal?seed=elle-yazılan&rules=classic&target=51&level=hard")
    assert response.status_code == 303
    assert response.location == checked(
        "/deal/elle-yaz%C4%B1lan?rules=classic&target=51&level=hard"
    )
    assert client.get(response.location).status_code == 200


def test_a_half_space_that_changes_nothing_is_left_out_of_a_seed(client):
    """``رضا‌زاده`` typed with a half-space after its ``ا`` (which joins no
    letter after it) was "not a valid seed", for a character nobody can
    see. The half-space is left out: the form and the link deal
    ``رضازاده``, as it looks."""
    response = client.get(
        "/deal",
        query_string={
            "seed": "\u0631\u0636\u0627\u200c\u0632\u0627\u062f\u0647",
            "rules": "classic",
            "level": "hard",
        },
    )
    assert response.status_code == 303
    seed = iri_to_uri("\u0631\u0636\u0627\u0632\u0627\u062f\u0647")
    assert response.location == checked(f"/deal/{seed}?rules=classic&target=51&level=hard")
    typed = iri_to_uri("/deal/\u0631\u0636\u0627\u200c\u0632\u0627\u062f\u0647")
    response = client.get(f"{typed}?rules=classic&level=hard")
    assert response.status_code in (301, 302, 303, 308)
    assert urlsplit(response.location).path.endswith(f"/{seed}")
    assert client.get(response.location).status_code == 200


def test_a_link_not_whole_is_told_in_turkish_too(client):
    link = checked("/deal/cuma-gecesi?rules=classic&level=hard")
    tr = {"Accept-Language": "tr"}
    page = client.get(link.replace("level=hard", "level=har"), headers=tr)
    text = " ".join(page.get_data(as_text=True).split())
    assert page.status_code == 400
    assert "Bu dağıtım bağlantısı eksik ya da değişmiş" in text
    assert "“<bdi>cuma-gecesi</bdi>”" in text and "Copy link" not in text
    cut = client.get(link[: len("/deal/~") + 3], headers=tr).get_data(as_text=True)
    assert "dağıtım kodundan önce bitiyor" in " ".join(cut.split())


def test_a_check_typed_by_hand_with_o_for_0_or_l_for_1_is_read_as_meant(client):
    """Crockford's base 32 has no o, i or l: typed for 0 and 1 (a link read
    out from another screen), they are read as those digits."""
    links = (checked(f"/deal/elle-{number}?rules=classic&level=hard") for number in range(100))
    link = next(link for link in links if {"0", "1"} & set(link.split("/")[2]))
    check = link.split("/")[2]
    misread = check.upper().replace("0", "O").replace("1", "l")
    assert misread != check.upper()
    assert client.get(link.replace(check, misread)).status_code == 200
    assert client.get(link.replace(check, misread.replace("l", "I"))).status_code == 200
    wrong = check[:-1] + ("2" if check[-1] != "2" else "3")
    assert client.get(link.replace(check, wrong)).status_code == 400


@pytest.mark.parametrize("seed", ["cuma-gecesi", "şanslı-gün"])
def test_a_language_switched_on_a_deal_links_page_stays_on_that_page(client, seed):
    """The language form on a checked deal link's page (its ``~``) or one
    whose seed has Turkish letters goes back to that page, in the other
    language; both went to the home page, the link lost."""
    link = checked(f"/deal/{seed}?rules=classic&level=hard")
    html = client.get(link).get_data(as_text=True)
    back = re.search(r'name="next" value="([^"]+)"', html).group(1).replace("&amp;", "&")
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    answer = client.post("/language", data={"csrf_token": token, "language": "tr", "next": back})
    assert answer.status_code == 303
    assert answer.location == iri_to_uri(link)
    page = client.get(answer.location, headers={"Accept-Language": "en"})
    assert page.status_code == 200 and '<html lang="tr">' in page.get_data(as_text=True)


@pytest.mark.parametrize(
    ("link", "status"),
    [
        # What a campaign adds to a shared link ("+" for a space, ":" and ",").
        ("/deal/cuma?rules=classic&level=hard&utm_campaign=bahar+2026", 200),
        ("/deal/cuma?rules=classic&level=hard&ref=chat:a,b", 200),
        # A link refused for a chat message's marks inside it: the friend
        # reads why in their own language, still at the link.
        ("/deal/cuma?rules=classic).&level=hard", 400),
        ("/deal/cuma?rules=classic&level=hard&ref=*'!;@$(x)", 200),
    ],
)
def test_a_language_switched_on_a_deal_link_with_signs_in_its_query_stays_there(
    client, link, status
):
    """The language form of a deal link's page whose query has signs a
    path or query may hold as they are (``+ , : ) ( * ' ! ; @ $``) goes
    back to that page: it went to the home page, the link lost."""
    page = client.get(link)
    assert page.status_code == status
    html = page.get_data(as_text=True)
    back = re.search(r'name="next" value="([^"]+)"', html).group(1)
    back = back.replace("&amp;", "&").replace("&#39;", "'")
    assert back == link
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    answer = client.post("/language", data={"csrf_token": token, "language": "tr", "next": back})
    assert answer.status_code == 303
    assert answer.location == link
    again = client.get(answer.location)
    assert again.status_code == status and '<html lang="tr">' in again.get_data(as_text=True)


@pytest.mark.parametrize("mark", [".", ")", "!", ",", "”", ").", "'", "*"])
def test_a_link_with_a_chat_messages_punctuation_after_it_deals_what_was_shared(app, mark):
    """A link sent at the end of a sentence ('here: <link>.') or in
    brackets often reaches the friend with the mark after it taken into
    the link: the check (or the seed, or a level) then did not match, and
    the friend was told the link was not whole. The link without the marks
    the end of a sentence leaves goes (308) to the link as shared; a mark
    that is the link's own (inside it) still makes it another link."""
    friend = app.test_client()
    link = checked("/deal/cuma-akşamı?rules=classic&target=101&level=hard")
    shared = {
        link: link,
        "/deal/eski-bağlantı?rules=classic&level=hard": checked(
            "/deal/eski-bağlantı?rules=classic&target=51&level=hard"
        ),
        checked("/deal/kısa?rules=cardems&level=medium"): checked(
            "/deal/kısa?rules=cardems&level=medium"
        ),
        "/deal/kısa": checked("/deal/kısa?rules=cardems&level=medium"),
    }
    for sent, clean in shared.items():
        # As sent, and with what a chat app adds after it (Messenger's fbclid).
        added = f"{'&' if '?' in sent else '?'}fbclid=IwAR0x&utm_source=chat"
        for received in (sent + mark, sent + mark + added):
            response = friend.get(received)
            assert response.status_code == 308, received
            # The clean link, as the site writes it: its check, nothing after.
            assert response.location == iri_to_uri(clean)
            page = friend.get(response.location).get_data(as_text=True)
            assert "A shared deal" in page
    # Inside the link, a mark is no punctuation of the chat's: still refused.
    assert friend.get(link.replace("classic", f"classic{mark}")).status_code == 400
    assert friend.get(link.replace("/cuma", f"/{mark}cuma")).status_code in (400, 404)
    # Nothing was dealt by opening any of them.
    assert friend.get("/game").status_code == 404


@pytest.mark.parametrize(
    "agent",
    ["WhatsApp/2.23.20.0 A", "TelegramBot (like TwitterBot)", "facebookexternalhit/1.1"],
)
def test_a_preview_bots_head_of_a_deal_link_says_what_its_get_does(client, agent):
    """A chat app's preview bot or a link shortener may ask for a link's
    HEAD before its page: the HEAD's page was drawn as a form's answer
    (its language switch coming back to the table, /game), so its
    Content-Length was not the GET's. Neither starts a game."""
    link = checked("/deal/cuma-akşamı?rules=classic&target=51&level=hard")
    headers = {"User-Agent": agent}
    got = client.get(link, headers=headers)
    head = client.head(link, headers=headers)
    assert got.status_code == head.status_code == 200
    assert head.headers["Content-Length"] == got.headers["Content-Length"]
    assert client.get("/game").status_code == 404


def test_a_shared_links_preview_names_its_one_clean_link_and_a_card(client):
    """A link passed on with what chat apps add (fbclid, utm_*) was
    previewed as a page of its own address: its page now names the clean
    link (og:url, rel=canonical), the site, its language, and the summary
    card X (Twitter) needs to show a preview at all (the large one, with
    the site's picture)."""
    link = checked("/deal/cuma-akşamı?rules=classic&target=51&level=hard")
    clean = "http://localhost" + iri_to_uri(link).replace("&", "&amp;")
    for language, locale in (("en", "en_US"), ("tr", "tr_TR")):
        page = client.get(
            f"{link}&fbclid=IwAR0x&utm_source=whatsapp", headers={"Accept-Language": language}
        ).get_data(as_text=True)
        assert f'<meta property="og:url" content="{clean}">' in page
        assert f'<link rel="canonical" href="{clean}">' in page
        assert '<meta property="og:site_name" content="Pişti">' in page
        assert f'<meta property="og:locale" content="{locale}">' in page
        assert '<meta name="twitter:card" content="summary_large_image">' in page


#: The site's picture's description, in each language.
PICTURE_ALT = {
    "en": "The word Pişti over playing cards on a green card table",
    "tr": "Yeşil bir oyun masasında, iskambil kartlarının üstünde Pişti yazısı",
}


@pytest.mark.parametrize("page_url", ["/deal/cuma?rules=classic&level=hard", "/"])
@pytest.mark.parametrize("language", ["en", "tr"])
def test_a_links_preview_shows_the_sites_picture_from_the_configured_host(
    tmp_path, page_url, language
):
    """A chat app showed a shared deal's link (and the site's) as words
    alone: the pages named no picture (og:image), and the site's only
    pictures were SVG, which the apps do not show. They now name
    static/preview.png, whole (the configured host's, not the one a request
    names), with its size and, in the page's language, what it shows; the
    picture is served as a PNG of that size that a chat app may keep."""
    client = create_app(app_config(tmp_path, SERVER_NAME="pisti.example")).test_client()
    headers = {"Host": "evil.example", "Accept-Language": language}
    page = client.get(page_url, headers=headers).get_data(as_text=True)
    image = re.search(r'<meta property="og:image" content="([^"]+)">', page).group(1)
    assert re.fullmatch(r"http://pisti\.example/static/preview\.png\?v=[0-9a-f]{12}", image)
    assert '<meta property="og:image:type" content="image/png">' in page
    assert '<meta property="og:image:width" content="1200">' in page
    assert '<meta property="og:image:height" content="630">' in page
    assert f'<meta property="og:image:alt" content="{PICTURE_ALT[language]}">' in page
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    assert '<meta property="og:url" content="http://pisti.example/' in page
    picture = client.get(image.removeprefix("http://pisti.example"), headers=headers)
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    assert picture.headers["Cache-Control"] == "public, max-age=31536000"
    data = picture.get_data()
    assert data == (ROOT / "static" / "preview.png").read_bytes()
    # A PNG (its signature, then its IHDR chunk: width and height), small.
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    assert int.from_bytes(data[16:20], "big") == 1200
    assert int.from_bytes(data[20:24], "big") == 630
    assert len(data) < 100_000


def test_the_home_pages_preview_says_what_the_site_is(client):
    """A link to the site itself was previewed as "Pişti" and nothing
    more: the home page had no description; it now has the lead sentence
    of its page, in the page's language, under its own address. The
    Turkish says what the English does (it began "Sevilen Türk kart
    oyunu", a beloved Turkish card game, and left out the kind of game)."""
    for language, words in (
        ("en", "The Turkish fishing card game. Play a card on the pile"),
        ("tr", "Yerdeki kartları toplamaya dayanan Türk kart oyunu. Yere bir kart atın"),
    ):
        page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
        description = re.search(r'<meta property="og:description" content="([^"]+)">', page)
        assert description.group(1).startswith(words)
        assert f'<meta name="description" content="{description.group(1)}">' in page
        assert '<meta property="og:title" content="Pişti">' in page
        assert '<meta property="og:url" content="http://localhost/">' in page


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Take a lone card with one of its rank for a pişti."),
        ("tr", "Yerdeki tek kartı aynı değerde bir kartla alırsanız pişti yaparsınız."),
    ],
)
def test_the_home_pages_lead_says_a_jack_makes_no_pisti_of_a_lone_card(client, language, said):
    """The home page's lead (and its preview) said "Take a lone card for a
    pişti", in Turkish "Yerdeki tek kartı alırsanız pişti yaparsınız", just
    after "a Jack takes it all": a Jack taking a lone card other than a
    Jack makes no pişti (seeds 000 and 001). It now names the lone card's
    rank, as the lesson does."""
    page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    lead = re.search(r'<p class="lead">([^<]+)</p>', page)
    description = re.search(r'<meta property="og:description" content="([^"]+)">', page)
    assert lead and lead.group(1).endswith(said)
    assert description and description.group(1).endswith(said)


@pytest.mark.parametrize(
    ("link", "language", "said"),
    [
        ("/deal/skor?rules=cardems&level=hard", "en", "I scored {} points with these cards."),
        (
            "/deal/skor?rules=cardems&level=hard",
            "tr",
            "Bu kartlarla {} puan aldım. Sen de bu Pişti dağıtımını oyna: kartlar benimkilerle",
        ),
        ("/deal/skor?rules=partners&target=51", "en", "My side scored {} points with these"),
    ],
)
def test_the_final_pages_share_says_what_the_sharer_scored(client, link, language, said):
    """The friend who opens a shared deal could not tell what the sharer
    made of it, unless the sharer had a name on the deal's results: the
    final page's Share sends the sharer's final points (their side's, with
    partners) with the link, in the sharer's language."""
    headers = {"Accept-Language": language}
    start_deal(client, link, headers=headers)
    page = client.get("/game", headers=headers).get_data(as_text=True)
    for _ in range(200):
        if 'action="/next"' in page:
            client.post("/next", data=form_fields(page, "/next"), headers=headers)
        elif cards := re.findall(r'name="card" value="([^"]+)"', page):
            fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
            client.post("/play", data={**fields, "card": cards[0]}, headers=headers)
        else:
            break
        page = client.get("/game", headers=headers).get_data(as_text=True)
    # The player's side first: the glance's match total, or its hand's points.
    row = re.search(r'<tr class="side-0[^"]*">.*?</tr>', page).group(0)
    total = re.search(r'glance-total"><span aria-hidden="true">(\d+)', row)
    ours = (total or re.search(r'glance-points">(\d+)', row)).group(1)
    text = re.search(r'data-share="share"[^>]* data-text="([^"]*)"', page).group(1)
    assert said.format(ours) in text, text


def test_a_shared_links_preview_is_in_the_sharers_language(app, client):
    """A chat app's preview bot sends no Accept-Language (Discord, Slack)
    or its own (Telegram and Signal send en-US whatever the app's language),
    so a deal shared from a Turkish page was previewed in English. The
    share link now carries the sharer's language (``lang=tr``; none for
    English, every page's language when nothing names one), and the link's
    page is in it for a preview bot and a request naming no language; a
    friend's browser still gets the friend's own language. The link keeps
    its check and deals the same cards; its clean address keeps the
    language, through the chat's full stop and a redirect too."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "tr"
    start_deal(client, "/deal/dil?rules=cardems&level=hard")
    page = play_hand(client)
    share = html.unescape(re.search(r'id="share"[^>]*value="([^"]+)"', page).group(1))
    assert share.startswith("http://localhost/deal/~") and share.endswith("&level=hard&lang=tr")
    link = share.removeprefix("http://localhost")
    clean = share.replace("&", "&amp;")
    turkish = '<meta property="og:title" content="Pişti: paylaşılan dağıtım, “dil”">'
    english = '<meta property="og:title" content="Pişti: a shared deal, “dil”">'
    friend = app.test_client()
    for agent, accepted, title in [
        ("TelegramBot (like TwitterBot)", "en-US", turkish),
        ("Discordbot/2.0", None, turkish),
        ("Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", None, turkish),
        ("facebookexternalhit/1.1 Facebot Twitterbot/1.0", "en-US,en;q=0.9", turkish),
        ("WhatsApp/2.23.20.0 A", "en", turkish),
        ("Mozilla/5.0 (a friend's phone)", "en-GB,en;q=0.9", english),
        ("curl/8.5.0", None, turkish),
    ]:
        headers = {"User-Agent": agent, **({"Accept-Language": accepted} if accepted else {})}
        for sent in (link, link + "."):
            page = friend.get(sent, headers=headers).get_data(as_text=True)
            assert title in page, (agent, sent)
            assert f'<meta property="og:url" content="{clean}">' in page
    # An English sharer's link names no language: a bot gets English.
    english_link = link.removesuffix("&lang=tr")
    page = friend.get(english_link, headers={"User-Agent": "Discordbot/2.0"})
    assert english in page.get_data(as_text=True)
    # A seed written decomposed goes to its one link, the language kept.
    moved = friend.get("/deal/s\u0327ans?rules=cardems&level=hard&lang=tr")
    assert moved.status_code == 308
    assert moved.location.endswith("/%C5%9Fans?rules=cardems&level=hard&lang=tr")
    # Opening it dealt nothing; starting it deals the sharer's cards (the
    # same plays, by the first card each turn, give the same hand).
    assert friend.get("/game").status_code == 404
    assert start_deal(friend, link).status_code == 303
    play_hand(friend)
    theirs = client.get("/record?hand=1").get_json()
    assert friend.get("/record?hand=1").get_json()["plays"] == theirs["plays"]


@pytest.mark.parametrize("escaped", ["&amp;lang=tr", "&amp;amp;lang=tr"])
def test_a_shared_links_language_written_amp_lang_is_read(app, escaped):
    """A shared link copied out of a page's source, or badly unescaped by a
    chat app, reads ``&amp;lang=tr``: its language was left alone as a
    parameter nothing like the link's, so the preview was in English. It
    is read as ``lang`` (the deal page goes to the one clean link, which
    keeps it); a language the site does not speak is never reflected."""
    link = checked("/deal/dil?rules=cardems&level=hard")
    bot = app.test_client()
    headers = {"User-Agent": "Discordbot/2.0"}
    moved = bot.get(link + escaped, headers=headers)
    assert moved.status_code == 308
    assert moved.location == link + "&lang=tr"
    page = bot.get(moved.location, headers=headers).get_data(as_text=True)
    assert '<meta property="og:title" content="Pişti: paylaşılan dağıtım, “dil”">' in page
    # Read where a link's language is read (the page's language) too.
    turkish = bot.get(f"/?{escaped.removeprefix('&')}", headers=headers).get_data(as_text=True)
    assert '<html lang="tr">' in turkish
    for unspoken in ("xx", "%22%3E%3Cscript%3E", "en"):
        moved = bot.get(f"{link}&amp;lang={unspoken}", headers=headers)
        assert moved.status_code == 308 and moved.location == link
        page = bot.get(moved.location, headers=headers).get_data(as_text=True)
        assert '<html lang="en">' in page and "<script>" not in page.split("</head>")[0]


@pytest.mark.parametrize("written", ["TR", "Tr", "tr-TR", "TR-tr", "tr_TR", "%20tr", "+tr+", "TR."])
def test_a_links_language_is_read_in_any_case(app, written):
    """Language tags are case-insensitive (BCP 47): ``lang=TR``, ``tr_TR``
    or `` tr`` was ignored (a preview in English) while ``lang=tr`` was
    read. Each names Turkish now, and the deal page's clean address
    carries it in the site's own form, ``lang=tr``."""
    link = checked("/deal/dil?rules=cardems&level=hard")
    bot = app.test_client()
    headers = {"User-Agent": "Discordbot/2.0"}
    page = bot.get(f"{link}&lang={written}", headers=headers).get_data(as_text=True)
    assert '<html lang="tr">' in page
    assert '<meta property="og:title" content="Pişti: paylaşılan dağıtım, “dil”">' in page
    clean = html.escape(f"http://localhost{link}&lang=tr")
    assert f'<meta property="og:url" content="{clean}">' in page
    home = bot.get(f"/?lang={written}", headers=headers).get_data(as_text=True)
    assert '<html lang="tr">' in home
