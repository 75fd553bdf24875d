"""Pages a player opens: home, deal links, the table, the final score."""

from __future__ import annotations

import html
import json
import random
import re
from urllib.parse import unquote

import pytest

from app.ai.medium import MediumBot
from app.engine import (
    CARDEMS,
    CLASSIC,
    PARTNERS,
    GameState,
    card_label,
    card_name,
    hand_winner,
    observe,
    score_hand,
    seeded_deck,
    with_options,
)
from app.web import daily
from tests.conftest import CSRF, KEPT_GAME, Player, checked, expected_state, start_deal
from tests.web.test_score_pages import ScoreTable


def test_home_offers_new_game_and_seed(client):
    page = client.get("/").get_data(as_text=True)
    assert "New game" in page
    assert "Deal from a seed" in page
    assert 'name="seed"' in page


def test_the_rules_in_short_say_what_seeds_stress(client):
    # Seeds 000 and 001 (FAQ, "Common mistakes"): a Jack on a lone card of
    # another rank takes it but is no pişti; seed 001: both sides past the
    # target in one hand, the higher total wins, level totals play one more
    # hand. The home page's rules in short said neither, and "an opening Jack
    # is swapped under" read like the house rule that puts it under the stock.
    rules = re.search(
        r'<section class="panel rules".*?</section>', client.get("/").get_data(as_text=True), re.S
    )
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", rules.group(0)))
    assert "a Jack on a lone card of another rank takes it but is no pişti" in text
    # Seed 003's name for the Jack pişti: "that's a double Pişti worth 20".
    assert "a Jack on a lone Jack is a Jack pişti, also called a double pişti (20)" in text
    assert "an opening Jack is swapped with the nearest card under it that is not a Jack" in text
    assert (
        "both sides at the target after the same hand: the higher total wins, level totals "
        "play one more hand" in text
    )
    turkish = client.get("/", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert "başka değerde tek bir kartı Vale ile almak pişti değildir" in turkish
    assert "Vale piştisidir, çift pişti de denir (20)" in turkish
    assert "açılıştaki Vale, altındaki Vale olmayan ilk kartla yer değiştirir" in turkish
    assert (
        "iki taraf da aynı elde hedefe ulaşırsa yüksek toplam kazanır, toplamlar eşitse bir el "
        "daha oynanır" in turkish
    )


BAR_NEW_GAME = re.compile(r'<header class="bar">.*?href="/">New game</a>\s*</header>', re.S)


@pytest.mark.parametrize(
    "address", ["/review/", "/leaderboard", "/daily", "/me", "/house", "/story", "/deal/bar-1"]
)
def test_every_page_but_home_has_new_game_in_its_bar(client, address):
    page = client.get(address).get_data(as_text=True)
    assert BAR_NEW_GAME.search(page), address


def test_the_lessons_bar_leads_back_to_its_story_only(client):
    # One button, so the bar stays one line on a phone.
    bar = client.get("/story/lesson").get_data(as_text=True).split("</header>")[0]
    assert 'href="/story">Mansion Evenings</a>' in bar
    assert "New game" not in bar


def test_the_home_page_is_the_new_game_and_has_no_second_one(client):
    assert not BAR_NEW_GAME.search(client.get("/").get_data(as_text=True))
    start_deal(client, "/deal/bar-2")
    table = client.get("/game").get_data(as_text=True)
    assert "Your hand" in table and BAR_NEW_GAME.search(table)


TARGET_SELECT = re.compile(r'<select id="new-target" name="target">(.*?)</select>', re.S)


def token_of(page: str) -> str:
    return CSRF.search(page).group(1)


def sent_target(page: str) -> str:
    """The value the New game form's target sends: the selected option, or
    the first one, as a browser does."""
    options = re.findall(r'<option value="(\d*)"( selected)?>', TARGET_SELECT.search(page)[1])
    return next((value for value, selected in options if selected), options[0][0])


@pytest.mark.parametrize(("rules", "target"), [("partners", 151), ("classic", 51)])
def test_the_new_game_form_plays_each_game_to_its_own_target(client, rules, target):
    page = client.get("/").get_data(as_text=True)
    assert sent_target(page) == ""
    fields = {"csrf_token": token_of(page), "rules": rules, "level": "easy"}
    response = client.post("/new", data={**fields, "target": sent_target(page)})
    assert response.status_code == 303
    assert f"0 / {target} pts" in client.get("/game").get_data(as_text=True)
    # a target other than the game's own is picked again next time
    page = client.get("/").get_data(as_text=True)
    assert sent_target(page) == ""
    client.post("/new", data={**fields, "target": "101"})
    assert "0 / 101 pts" in client.get("/game").get_data(as_text=True)
    assert sent_target(client.get("/").get_data(as_text=True)) == "101"


def test_a_chosen_target_is_kept_through_a_single_hand(client):
    """A match to 101 chosen once is picked again after a single hand, which
    has no target (its form hides the choice); "Usual" is kept too."""
    page = client.get("/").get_data(as_text=True)
    fields = {"csrf_token": token_of(page), "level": "easy"}
    client.post("/new", data={**fields, "rules": "classic", "target": "101"})
    client.post("/new", data={**fields, "rules": "cardems", "target": "101"})
    home = client.get("/").get_data(as_text=True)
    assert 'value="cardems" checked' in home and sent_target(home) == "101"
    client.post("/new", data={**fields, "rules": "partners", "target": sent_target(home)})
    assert "0 / 101 pts" in client.get("/game").get_data(as_text=True)
    client.post("/new", data={**fields, "rules": "classic", "target": ""})
    client.post("/new", data={**fields, "rules": "cardems", "target": ""})
    assert sent_target(client.get("/").get_data(as_text=True)) == ""


def test_the_seed_form_leaves_each_game_its_own_target(client):
    response = client.get("/deal?seed=s1&rules=partners&target=&level=easy")
    assert response.headers["Location"] == checked("/deal/s1?rules=partners&target=151&level=easy")
    assert "to 151" in client.get(response.headers["Location"]).get_data(as_text=True)


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_deal_link_deals_the_seeded_hand(player):
    response = player.deal("friday-night")
    assert response.status_code == 200
    deck = seeded_deck("friday-night", CARDEMS)
    assert player.hand == deck[4:8]
    assert card_name(deck[3]) in player.page  # the face-up centre card
    assert "Stock: 40" in player.page
    assert "Pile: 4 cards, 3 face down" in player.page


def test_the_stocks_bottom_card_is_shown_only_while_it_is_in_the_stock(player):
    # Partners shows the stock's bottom card; the dealer is dealt it last,
    # so once the stock is empty it is no longer pictured beside it.
    player.deal("bottom-leaves?rules=partners")
    bottom = card_name(seeded_deck("bottom-leaves", PARTNERS)[51])
    assert 'class="bottom-card"' in player.page
    # Read out as one phrase, "bottom card: Queen of spades".
    said = f'<span class="visually-hidden">bottom card: {bottom}</span>'
    assert f'<span aria-hidden="true">bottom card</span>{said}' in player.page
    while "Stock: 0" not in player.page:
        assert 'class="bottom-card"' in player.page
        player.play(player.hand[0])
    assert player.hand, "the last deal is on the table"
    assert 'class="bottom-card"' not in player.page
    assert "bottom card</span>" not in player.page


def test_opening_jacks_put_under_the_stock_are_pictured_as_its_bottom_cards(player):
    # The cut's card is shown (bottom_card=no_jack), then the opening Jack
    # goes under it (opening_jack=under): the Jack is the real bottom card,
    # and both are the dealer's last cards, known to all.
    rules = with_options(CLASSIC, {"opening_jack": "under", "bottom_card": "no_jack"})
    deck = seeded_deck("under-12", rules)
    assert deck[3][0] == "J" and deck[4][0] != "J" and deck[51][0] != "J"
    player.deal("under-12?rules=classic&opening_jack=under&bottom_card=no_jack")
    both = f"{card_name(deck[51])}, {card_name(deck[3])}"
    said = f'<span class="visually-hidden">bottom cards: {both}</span>'
    assert f'<span aria-hidden="true">bottom cards</span>{said}' in player.page
    assert "Stock: 40" in player.page  # the Jack is in the stock, at its bottom


def test_same_seed_same_deal_in_two_browsers(app):
    pages = []
    for _ in range(2):
        client = app.test_client()
        start_deal(client, "/deal/shared-42")
        pages.append(
            re.findall(r'value="([2-9TJQKA][CDHS])"', client.get("/game").get_data(as_text=True))
        )
    assert pages[0] == pages[1] and len(pages[0]) == 4


def test_seed_form_goes_to_the_deal_link(client):
    response = client.get("/deal?seed=abc_1")
    assert response.status_code == 303
    assert response.headers["Location"] == checked("/deal/abc_1?rules=cardems&level=medium")


@pytest.mark.parametrize(
    "path",
    [
        "/deal/has%20space",
        "/deal/" + "x" * 65,
        "/deal/caf%21%C3%A9",
        "/deal/a/b",
        "/deal/a.b",
        "/deal?seed=",
        "/deal?seed=%3Cscript%3E",
    ],
)
def test_bad_seed_is_a_400_page_that_says_so(client, path):
    response = client.get(path)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "not a valid seed" in page
    assert (
        "a seed is 1 to 64 characters, each a letter (ç ğ ı ö ş ü too), a digit, a hyphen (-) "
        "or an underscore (_), with no spaces or other signs."
    ) in page
    assert "<script>" not in page


def test_a_seed_with_turkish_letters_deals(client, player):
    # The home page's form says so, in the page's language.
    tr = {"Accept-Language": "tr"}
    home = client.get("/", headers=tr).get_data(as_text=True)
    assert (
        'title="1 ile 64 arası karakter: harf (ç ğ ı ö ş ü de olur), rakam, kısa çizgi (-) ya da '
        'alt çizgi (_); boşluk olmadan."'
    ) in home
    response = client.get("/deal?seed=cuma-ak%C5%9Fam%C4%B1")
    assert response.status_code == 303
    assert response.headers["Location"] == checked(
        "/deal/cuma-ak%C5%9Fam%C4%B1?rules=cardems&level=medium"
    )
    page = client.get("/deal/cuma-ak%C5%9Fam%C4%B1").get_data(as_text=True)
    assert "cuma-akşamı" in page
    player.deal("cuma-ak%C5%9Fam%C4%B1")
    dealt = expected_state("cuma-akşamı", [])
    assert sorted(player.hand) == sorted(dealt.hands[0])


def test_a_seed_typed_with_decomposed_letters_is_the_composed_seed(client):
    # "ş" as "s" and a combining cedilla (U+0327): the same seed as "ş".
    response = client.get("/deal?seed=%20s%CC%A7ans%20&rules=classic")
    assert response.status_code == 303
    assert response.headers["Location"].startswith(
        checked("/deal/%C5%9Fans?rules=classic&target=51&level=medium")
    )
    response = client.get("/deal/s%CC%A7ans?rules=classic&level=hard")
    assert response.status_code == 308
    assert response.headers["Location"] == checked(
        "/deal/%C5%9Fans?rules=classic&target=51&level=hard"
    )
    # A decomposed seed that is no seed once composed is still refused.
    assert client.get("/deal/s%CC%A7a!ns").status_code == 400


def test_a_turkish_seed_names_its_record_file(player):
    player.deal("%C5%9Fans")
    while player.hand:
        player.play(player.hand[0])
    final = player.get()
    assert final.status_code == 200
    # The share link is shown as written, not percent-encoded.
    link = checked("http://localhost/deal/şans?rules=cardems&amp;level=medium")
    assert f'value="{link}"' in player.page
    record = player.client.get("/record")
    assert record.status_code == 200
    disposition = record.headers["Content-Disposition"]
    assert "filename=pisti-sans-" in disposition
    assert "filename*=UTF-8''pisti-%C5%9Fans-" in disposition
    assert json.loads(record.get_data(as_text=True))["seed"] == "şans"


@pytest.mark.usefixtures("midday")  # one day from the first record to the last
def test_friends_who_play_one_shared_deal_download_records_of_different_names(app, player):
    # Every friend who played the deal link "şans" saved "pisti-şans.json",
    # so the second file took the first one's name. The name now also says
    # the day (UTC), a known player's name and the game's short id (which
    # its page's forms carry).
    friend = Player(app.test_client())
    friend.client.get("/me")
    me_page = friend.client.get("/me").get_data(as_text=True)
    token = CSRF.search(me_page).group(1)
    named = friend.client.post("/me/name", data={"csrf_token": token, "name": "Ayşe Nur"})
    assert named.status_code == 303
    names = []
    for someone in (player, friend):
        someone.deal("%C5%9Fans")
        game_id = re.search(r'name="game" value="([0-9a-f]+)"', someone.page).group(1)
        while someone.hand:
            someone.play(someone.hand[0])
        disposition = someone.client.get("/record").headers["Content-Disposition"]
        names.append(unquote(disposition.split("filename*=UTF-8''")[1]))
        assert names[-1].endswith(f"-{game_id}.json")
    today = daily.today().isoformat()
    assert names[0].startswith(f"pisti-şans-{today}-")
    assert names[1].startswith(f"pisti-şans-{today}-Ayşe_Nur-")
    assert names[0] != names[1]


def test_a_seed_with_a_dotless_i_keeps_it_in_the_records_ascii_name(player):
    # The plain name, for a browser that does not read the UTF-8 one, lost
    # the Turkish dotless ı (it has no ASCII letter under it, as ş has s):
    # "ılık-İzmir" was saved as "pisti-lk-Izmir-....json".
    player.deal("ılık-İzmir")
    while player.hand:
        player.play(player.hand[0])
    disposition = player.client.get("/record").headers["Content-Disposition"]
    assert "filename=pisti-ilik-Izmir-" in disposition
    assert "filename*=UTF-8''pisti-%C4%B1l%C4%B1k-%C4%B0zmir-" in disposition


def test_a_play_shows_what_the_computer_did(player):
    player.deal("log-test")
    card = player.hand[0]
    player.play(card)
    state = expected_state("log-test", [card])
    reply = MediumBot(random.Random(0)).choose(observe(state, 1))
    # Each card shown by its label and read by its name (a screen reader
    # says a suit's symbol as anything or nothing).
    for who, played in (("You", card), ("The computer", reply)):
        spoken = (
            f'<span aria-hidden="true">{card_label(played)}</span>'
            f'<span class="visually-hidden">{card_name(played)}</span>'
        )
        assert f"{who} played {spoken}" in player.page
    assert player.move == "2"
    assert len(player.hand) == 3


def test_record_waits_for_the_end_of_the_hand(player):
    player.deal("record-early")
    response = player.client.get("/record")
    assert response.status_code == 409
    assert "when that hand is over" in response.get_data(as_text=True)


def play_out(player, seed: str, choose=lambda hand: hand[0]) -> list[str]:
    """Play a whole hand through the pages; return the cards the player chose."""
    player.deal(seed)
    mine = []
    while player.hand:
        card = choose(player.hand)
        mine.append(card)
        player.play(card)
    return mine


def test_full_game_final_page_matches_the_engine(player, runner, tmp_path):
    play_out(player, "full-game")
    page = player.page
    assert "Score" in page and "Hand total" in page
    record = player.client.get("/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["Content-Disposition"]
    data = json.loads(record.get_data(as_text=True))
    assert data["format"] == "pisti-record/1" and data["seed"] == "full-game"
    assert data["deck"] == seeded_deck("full-game", CARDEMS)
    state = expected_state("full-game", data["plays"])
    assert state.finished
    scores = score_hand(state)
    assert ScoreTable(page).totals == [scores[0].points, scores[1].points]
    winner, _ = hand_winner(state, scores)
    verdict = {0: "You won!", 1: "The computer won", None: "A draw"}[winner]
    assert verdict in page
    assert "Play again" in page and "Play this deal again" in page and "Download record" in page
    assert checked("http://localhost/deal/full-game?rules=cardems&amp;level=medium") in page
    # The downloaded record replays to the same score.
    path = tmp_path / "record.json"
    path.write_bytes(record.data)
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 0
    assert [team["points"] for team in json.loads(result.stdout)["teams"]] == [
        s.points for s in scores
    ]


def test_random_game_keeps_its_seed_secret_until_the_end(player):
    response = player.client.post(
        "/new", data={"csrf_token": _token(player.client), "level": "easy"}
    )
    assert response.status_code == 303
    page = player.get().get_data(as_text=True)
    assert "/deal/" not in page
    assert '<p class="place-level">Easy</p>' in page


def _token(client) -> str:
    page = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


@pytest.mark.parametrize(
    ("link", "counter"),
    [
        ("/deal/aids-1?rules=classic&level=easy", True),
        ("/deal/aids-1?rules=partners&level=easy", True),
        ("/deal/aids-1?rules=classic&level=hard", False),
        ("/deal/aids-1?rules=classic&players=3&level=easy", True),
    ],
)
def test_the_counter_is_on_from_the_start_against_easy(player, link, counter):
    """Seed 001: the played-cards counter "is optional and switched on from
    the start on Easy": the current game's level decides, whichever way the
    game was started, until the player sets the aids."""
    # A game against the other kind first, from the home page's form.
    other = "hard" if counter else "easy"
    response = player.client.post(
        "/new", data={"csrf_token": _token(player.client), "level": other}
    )
    assert response.status_code == 303
    player.deal(link.removeprefix("/deal/"))
    assert ("Cards seen face up" in player.get().get_data(as_text=True)) == counter
    # Set by the player, the aids stay as set whatever the level.
    aids = {"csrf_token": player.token, "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    assert "Cards seen face up" not in player.get().get_data(as_text=True)


def hints_checked(html: str) -> bool:
    return bool(re.search(r'name="hints"[^>]* checked', html))


def test_hints_are_on_in_your_first_three_games(player):
    """Seed 001: "Hints: in your first games, when it is your turn, a short
    note points out a pişti chance, a jack worth saving or a risky card":
    on in the first three games a browser starts, whichever way, until the
    player sets the aids; off from the fourth."""
    assert hints_checked(player.client.get("/").get_data(as_text=True))
    for number in (1, 2, 3):
        player.deal(f"first-games-{number}")
        assert "The Hard level would play" in player.page, number
        assert hints_checked(player.page)
    player.deal("first-games-4")
    assert "The Hard level would play" not in player.page
    assert not hints_checked(player.page)
    assert not hints_checked(player.client.get("/").get_data(as_text=True))
    # The third game, put aside by the fourth and resumed, is still one of
    # the first: its hints come back.
    game = KEPT_GAME.search(player.page).group(1)
    resumed = player.client.post("/resume", data={"csrf_token": player.token, "game": game})
    assert resumed.status_code == 303
    assert "The Hard level would play" in player.get().get_data(as_text=True)


def test_after_a_third_game_is_over_the_next_game_has_no_hints(player):
    """Home's aids say what the next game will have: with the third game
    over, hints off, and off in the fourth."""
    for number in (1, 2, 3):
        player.deal(f"over-{number}")
    while player.hand:
        player.play(player.hand[0])
    assert not hints_checked(player.client.get("/").get_data(as_text=True))
    player.deal("over-4")
    assert "The Hard level would play" not in player.page


def test_hints_set_off_stay_off_in_the_first_games(player):
    player.deal("set-off-1")
    aids = {"csrf_token": player.token, "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    player.deal("set-off-2")
    assert "The Hard level would play" not in player.page


def test_a_session_from_before_the_list_is_past_its_first_games(player):
    """A session kept from before the first games were kept (a game, no
    list) is a player's who has played: an upgrade brings no hints back."""
    player.deal("before-the-count")
    # As a POST, so the session is stored (a GET stores nothing).
    with player.client.session_transaction(method="POST") as session:
        del session["first_games"]
    assert "The Hard level would play" not in player.get().get_data(as_text=True)
    player.deal("after-the-count")
    assert "The Hard level would play" not in player.page


def test_no_hint_for_a_forced_move(player):
    """With hints on, a turn with one card left has nothing to choose: no
    "The Hard level would play your 3♠" on it."""
    player.deal("forced-move")
    aids = {"csrf_token": player.token, "hints": "on", "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    page = player.get().get_data(as_text=True)
    assert "The Hard level would play" in page
    for _ in range(3):
        page = player.play(player.hand[0]).get_data(as_text=True)
    assert len(player.hand) == 1
    assert "The Hard level would play" not in page and 'class="hints"' not in page


#: Deals whose first turn's hint has a reason of its own, and its words in
#: English and Turkish: only two Kings unseen (the player holds the other
#: two); the 6♠ takes the centre (three face-down cards and the 6♦) while
#: the Jack in hand is kept.
HINT_REASONS = {
    "why-3": (
        "The Hard level would play your King of clubs: only 2 cards of its rank are unseen, "
        "the fewest in your hand, so it is the hardest to match.",
        "Zor seviyenin seçimi: Sinek Papazı; bu değerde görünmeyen yalnızca 2 kart var, "
        "elinizdekilerin en azı: eşlenmesi en zor kart bu.",
    ),
    "why-15": (
        "The Hard level would play your 6 of spades: it takes the pile's 4 cards "
        "(points in sight: 0) and keeps your Jack for a bigger pile.",
        "Zor seviyenin seçimi: Maça 6, yerdeki 4 kartı alır (görünen puan: 0) ve Valenizi "
        "daha büyük bir yer için saklar.",
    ),
}


@pytest.mark.parametrize("seed", list(HINT_REASONS))
def test_the_hint_says_why_in_the_pages_language(player, seed):
    """The hint names its card and, in one sentence, why: in English, and
    in Turkish once the player picks it."""
    english, turkish = HINT_REASONS[seed]
    player.deal(seed)
    assert english in html.unescape(player.page)
    fields = {"csrf_token": player.token, "language": "tr"}
    assert player.client.post("/language", data=fields).status_code == 303
    page = html.unescape(player.get().get_data(as_text=True))
    assert turkish in page and english not in page


@pytest.mark.parametrize(
    ("rules", "anticlockwise", "clockwise"),
    [
        ("partners", ["East", "North", "West"], ["West", "North", "East"]),
        ("classic&players=3", ["East", "West"], ["West", "East"]),
    ],
)
def test_the_clockwise_aid_seats_the_next_player_on_your_left(
    player, rules, anticlockwise, clockwise
):
    """Seed 001 plays partners clockwise on the screen ("you, the opponent
    on your left, your partner, the opponent on your right"), seeds 003 and
    004 anticlockwise: the aid draws and names the seats either way; the
    game (who plays after whom) is the same."""
    seats = re.compile(r'<h2 class="place-name" id="place-\d"[^>]*>(\w+)')
    player.deal(f"turning?rules={rules}")
    page = player.get().get_data(as_text=True)
    assert seats.findall(page) == anticlockwise and " clockwise" not in page.split("<body")[1][:80]
    aids = {"csrf_token": player.token, "clockwise": "on", "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    page = player.get().get_data(as_text=True)
    assert seats.findall(page) == clockwise
    assert re.search(r'<body class="[^"]*\bclockwise\b', page)
    player.play(player.hand[0])
    log = re.findall(r"<li>(\w+) played", player.page)
    assert set(log) - {"You"} <= set(clockwise)
    # The seat after yours plays just after you: on your left, West.
    assert log[log.index("You") + 1] == "West"


@pytest.mark.parametrize(
    ("language", "jacks", "kings"),
    [
        ("en", r"Jacks: \d of 4", r"Kings: \d of 4"),
        ("tr", r"Valeler: 4 karttan \d tanesi çıktı", r"Papazlar: 4 karttan \d tanesi çıktı"),
    ],
)
def test_the_counter_reads_its_ranks_as_words(player, language, jacks, kings):
    """The counter shows the cards' indices (J, K ...) and reads them as
    words in the page's language, not as English letters ("J: 0 of 4")."""
    player.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    player.deal("counter-words?level=easy")
    page = player.get().get_data(as_text=True)
    counter = page.split('data-region="counter"')[1].split("</section>")[0]
    read = re.findall(r'<span class="visually-hidden">([^<]*)</span>', counter)
    assert len(read) == 13
    assert re.fullmatch(jacks, read[10]) and re.fullmatch(kings, read[12]), read
    assert not any(re.match(r"[AJQK]:", line) for line in read)


def test_the_skip_link_says_where_it_goes(player):
    """The first link skips the bar: "to the game" at a table, "to the main
    content" on a page without one (a leaderboard has no game)."""
    skip = re.compile(r'<a class="skip" href="#main">([^<]*)</a>')
    assert skip.search(player.client.get("/leaderboard").get_data(as_text=True))[1] == (
        "Skip to the main content"
    )
    player.deal("skip-link")
    assert skip.search(player.get().get_data(as_text=True))[1] == "Skip to the game"


def test_a_row_of_links_has_no_dots_to_wrap_raggedly(client):
    """The links under the Daily deal are apart by a gap, not by "·", which a
    phone's line break left at a line's end or start."""
    page = client.get("/daily", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    row = page.split('<p class="nav-links">')[1].split("</p>")[0]
    assert row.count("<a ") == 2 and "·" not in row


@pytest.mark.parametrize(
    ("typed", "address"),
    [
        ("/story/", "/story"),
        ("/daily/", "/daily"),
        ("/house/", "/house"),
        ("/leaderboard/", "/leaderboard"),
        ("/me/", "/me"),
        ("/review", "/review/"),
    ],
)
def test_an_address_typed_with_or_without_its_last_slash_is_the_page(client, typed, address):
    answer = client.get(typed)
    assert answer.status_code == 200, typed
    heading = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)
    assert heading.search(answer.get_data(as_text=True)).group(1) == heading.search(
        client.get(address).get_data(as_text=True)
    ).group(1)


def test_the_slower_plays_aid_is_off_until_set_and_kept(player):
    """The "slower computer plays" aid: off by default, in the aids form,
    and once saved a class of the page (the script reads it) that the aids
    cookie keeps for the next visit."""
    player.deal("slower")
    page = player.get().get_data(as_text=True)
    assert 'name="slow" value="on">' in page
    assert "slow-plays" not in page
    aids = {"csrf_token": player.token, "slow": "on", "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    page = player.get().get_data(as_text=True)
    assert re.search(r'<body class="[^"]*\bslow-plays\b', page)
    assert 'name="slow" value="on" checked>' in page
    cookie = player.client.get_cookie("pisti_aids")
    assert cookie is not None and "slow" in cookie.value.split(".")
    aids = {"csrf_token": player.token, "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    assert "slow-plays" not in player.get().get_data(as_text=True)


@pytest.mark.parametrize(
    ("name", "css", "english", "turkish"),
    [
        (
            "fast",
            "fast-play",
            "Fast play: the cards move quickly, the hand's score comes sooner",
            "Hızlı oyun: kartlar çabuk hareket eder, elin puanları daha erken gelir",
        ),
        (
            "deal_on",
            "deal-on",
            "Deal the next hand at once: the last hand's points at the table",
            "Sonraki eli hemen dağıt: biten elin puanları masada gösterilir",
        ),
    ],
)
def test_the_aids_for_quick_play_are_off_until_set_and_kept(player, name, css, english, turkish):
    """The "fast play" and "deal the next hand at once" aids: off by
    default, in the aids form (in English and Turkish), and once saved a
    class of the page (the script reads it) that the aids cookie keeps for
    the next visit."""
    player.deal("faster")
    page = player.get().get_data(as_text=True)
    assert f'name="{name}" value="on"> {english}' in page
    assert css not in page
    aids = {"csrf_token": player.token, name: "on", "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    page = player.get().get_data(as_text=True)
    assert re.search(rf'<body class="[^"]*\b{css}\b', page)
    assert f'name="{name}" value="on" checked>' in page
    cookie = player.client.get_cookie("pisti_aids")
    assert cookie is not None and name in cookie.value.split(".")
    data = {"csrf_token": player.token, "language": "tr", "next": "/game"}
    assert player.client.post("/language", data=data).status_code == 303
    assert f'name="{name}" value="on" checked> {turkish}' in player.get().get_data(as_text=True)
    aids = {"csrf_token": player.token, "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    assert css not in player.get().get_data(as_text=True)


SOUND = re.compile(r'<template class="frame" data-position="\d"(?: data-sound="([a-z-]+)")?>')


def test_the_sounds_aid_tells_the_script_each_plays_sound(player):
    """Off by default: no page class, no sound in the steps. Once saved,
    the page has the ``sounds`` class (the script reads it) and each step
    says what its card does as it lands, as the engine played it: stays
    (``card``), takes the pile or the last cards (``capture``), a pişti, a
    Jack pişti, through a whole hand."""
    player.deal("sounds-7")
    assert SOUND.findall(player.client.get("/game", headers={"Pisti-Frames": "1"}).text) == []
    player.play(player.hand[0])
    steps = player.client.get("/game", headers={"Pisti-Frames": "1"}).get_data(as_text=True)
    assert SOUND.findall(steps) == ["", ""]
    assert not re.search(r'<body class="[^"]*\bsounds\b', player.page)
    aids = {"csrf_token": player.token, "sound": "on", "highlight": "on"}
    assert player.client.post("/settings", data=aids).status_code == 303
    player.get()
    assert re.search(r'<body class="[^"]*\bsounds\b', player.page)
    assert 'name="sound" value="on" checked>' in player.page
    heard = []
    while player.hand:
        player.play(player.hand[0])
        steps = player.client.get("/game", headers={"Pisti-Frames": "1"}).get_data(as_text=True)
        heard.extend(SOUND.findall(steps))
    record = json.loads(player.client.get("/record").get_data(as_text=True))
    state = GameState(CARDEMS, record["deck"])
    kinds = []
    for card in record["plays"]:
        done = state.play(card)
        if done.jack_pisti:
            kinds.append("jack-pisti")
        elif done.pisti:
            kinds.append("pisti")
        else:
            kinds.append("capture" if done.captured or done.swept else "card")
    assert heard == kinds[2:]
    assert {"card", "capture", "pisti", "jack-pisti"} <= set(heard)


def preview(page: str) -> dict[str, str]:
    """A page's preview tags: ``{"og:title": …, "description": …, …}``."""
    head = page.partition("</head>")[0]
    found = re.findall(r'<meta (?:name|property)="([^"]+)" content="([^"]*)">', head)
    return {name: html.unescape(value) for name, value in found}


@pytest.mark.parametrize(
    ("address", "title", "titled", "said"),
    [
        ("/story", "Mansion Evenings · Pişti", "Konak Akşamları · Pişti", "Six players of"),
        (
            "/story/lesson",
            "Aunt Hayriye's lesson · Pişti",
            "Hayriye Teyze'nin dersi · Pişti",
            "Six moves",
        ),
        ("/house", "House rules · Pişti", "Ev kuralları · Pişti", "Pişti is played differently"),
        (
            "/review/",
            "Review a game record · Pişti",
            "Bir oyun kaydını incele · Pişti",
            "Upload a game",
        ),
    ],
)
def test_the_story_house_rules_and_review_pages_have_a_preview(
    client, address, title, titled, said
):
    """A link to the story, its lesson, the house rules or the review's
    upload page, shared in a chat, showed the bare address: their pages
    had no preview tags (the home, Daily and deal link pages had). Each
    now has its title, a description in the page's language, its whole
    address and the site's picture."""
    tags = preview(client.get(address).get_data(as_text=True))
    assert tags["og:title"] == title
    assert tags["description"] == tags["og:description"]
    assert tags["og:description"].startswith(said)
    assert tags["og:url"] == f"http://localhost{address}"
    assert tags["og:image"].startswith("http://localhost/static/preview.png")
    assert tags["twitter:card"] == "summary_large_image"
    turkish = preview(client.get(address, headers={"Accept-Language": "tr"}).get_data(as_text=True))
    assert turkish["og:title"] == titled
    assert turkish["og:locale"] == "tr_TR"
    assert turkish["og:description"] != tags["og:description"]
