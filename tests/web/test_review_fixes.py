"""Holes a fresh review found: each stays closed."""

from __future__ import annotations

import json
import re
import time
from types import SimpleNamespace

import pytest

from app.engine import CLASSIC, seeded_deck
from app.web import store
from tests.conftest import KEPT_GAME, start_deal, without_tokens

#: A record file's day, as its name writes it (UTC).
DAY = r"\d{4}-\d\d-\d\d"


def token(client, path="/") -> str:
    page = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def play_hand(client) -> str:
    """Play the current hand to its end by the first card; return the page."""
    page = client.get("/game").get_data(as_text=True)
    while cards := re.findall(r'name="card" value="([^"]+)"', page):
        fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        assert client.post("/play", data={**fields, "card": cards[0]}).status_code == 303
        page = client.get("/game").get_data(as_text=True)
    return page


def test_mid_match_record_of_a_random_game_keeps_the_seed_secret(client):
    client.post("/new", data={"csrf_token": token(client), "rules": "classic", "target": "101"})
    play_hand(client)
    response = client.get("/record?hand=1")
    assert response.status_code == 200
    record = json.loads(response.get_data(as_text=True))
    assert "seed" not in record
    assert sorted(record["players"]) == ["computer", "you"]  # the first dealer is drawn
    assert re.fullmatch(
        rf"attachment; filename=pisti-game-hand1-{DAY}-[0-9a-f]{{8}}\.json",
        response.headers["Content-Disposition"],
    )


def test_a_turkish_players_record_files_are_named_in_turkish(client):
    """A Turkish page's record downloads as pisti-oyun-el1-....json, not
    pisti-game-hand1-....json (English words in a Turkish player's folder)."""
    turkish = {"Accept-Language": "tr"}
    fields = {"csrf_token": token(client), "rules": "classic", "target": "101"}
    client.post("/new", data=fields, headers=turkish)
    play_hand(client)
    response = client.get("/record?hand=1", headers=turkish)
    assert response.status_code == 200
    assert re.fullmatch(
        rf"attachment; filename=pisti-oyun-el1-{DAY}-[0-9a-f]{{8}}\.json",
        response.headers["Content-Disposition"],
    )


@pytest.mark.parametrize(
    ("hand", "status", "message"),
    [
        ("abc", 404, "This game has no hand “abc”."),
        ("0", 404, "This game has no hand “0”."),
        ("3", 404, "This game has no hand “3”."),
        ("2", 409, "can be downloaded when that hand is over"),
        # Nothing after "hand=" is the current hand, which is not over.
        ("", 409, "can be downloaded when that hand is over"),
    ],
)
def test_a_hand_the_game_has_not_played_has_no_record(client, hand, status, message):
    # After hand 1 of a match: hand 2 is dealt and not over (409), hand 3
    # and hands that are no number are not hands of this game (404).
    start_deal(client, "/deal/no-such-hand?rules=classic&target=101")
    between = play_hand(client)
    form = between[between.index('action="/next"') :]
    fields = dict(re.findall(r'name="(csrf_token|hand|game)" value="([^"]+)"', form))
    assert client.post("/next", data=fields).status_code == 303
    response = client.get(f"/record?hand={hand}")
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
    assert client.get("/record?hand=1").status_code == 200


def test_record_of_a_chosen_seed_names_it(client):
    start_deal(client, "/deal/open-seed?rules=classic&target=51")
    play_hand(client)
    record = json.loads(client.get("/record?hand=1").get_data(as_text=True))
    assert record["seed"] == "open-seed"
    assert record["deck"] == seeded_deck("open-seed", CLASSIC, 0)


@pytest.mark.parametrize(
    "path,status",
    [("/record?hand=²", 404), ("/record?hand=①", 404), ("/deal/abc?rules=classic&target=²", 400)],
)
def test_unicode_digits_are_not_numbers(client, path, status):
    start_deal(client, "/deal/unicode")
    response = client.get(path)
    assert response.status_code == status


def test_new_game_with_unicode_target_is_refused_not_a_500(client):
    # "²" is a digit to str.isdigit, not to int(): refused as a target.
    response = client.post(
        "/new", data={"csrf_token": token(client), "rules": "classic", "target": "²"}
    )
    assert response.status_code == 400
    assert "“²” is not one" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    "target,expected",
    [
        ("/game", "/game"),
        ("/deal/x?rules=classic&target=51", "/deal/x?rules=classic&target=51"),
        ("//evil.example", "/"),
        ("/\t/evil.example", "/"),
        ("/\n/evil.example", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example/", "/"),
        ("/\uff0fevil.example", "/"),
        ("/\u3000/evil.example", "/"),
        ("/deal/~k7m2qx/şans?level=hard", "/deal/~k7m2qx/%C5%9Fans?level=hard"),
        ("/deal/x?level=hard&ref=a+b,c:d;(e)*'!@$", "/deal/x?level=hard&ref=a+b,c:d;(e)*'!@$"),
        ("/@evil.example", "/@evil.example"),
        ('/deal/x?ref="><b>', "/"),
        ("/deal/x?ref=a b", "/"),
    ],
)
def test_language_switch_only_goes_back_to_local_pages(client, target, expected):
    response = client.post(
        "/language", data={"csrf_token": token(client), "language": "tr", "next": target}
    )
    assert response.status_code == 303
    assert response.headers["Location"] == expected


def test_partners_levels_follow_the_main_level_unless_chosen(client):
    csrf = token(client)
    client.post(
        "/new",
        data={
            "csrf_token": csrf,
            "rules": "partners",
            "level": "hard",
            "level_1": "",
            "level_2": "",
            "level_3": "",
        },
    )
    page = client.get("/game").get_data(as_text=True)
    assert re.findall(r'<p class="place-level">(\w+)</p>', page) == ["Hard", "Hard", "Hard"]
    client.post(
        "/new",
        data={
            "csrf_token": csrf,
            "rules": "partners",
            "level": "hard",
            "level_1": "easy",
            "level_2": "",
            "level_3": "medium",
        },
    )
    page = client.get("/game").get_data(as_text=True)
    assert re.findall(r'<p class="place-level">(\w+)</p>', page) == ["Easy", "Hard", "Medium"]


def test_a_deal_link_asks_then_keeps_the_game_in_progress_aside(client):
    start_deal(client, "/deal/first-game?rules=classic")
    first = client.get("/game").get_data(as_text=True)
    fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', first))
    card = re.findall(r'name="card" value="([^"]+)"', first)[0]
    client.post("/play", data={**fields, "card": card})
    # Opening the link changes nothing: it asks.
    for method in ("get", "head"):
        assert getattr(client, method)("/deal/second-game").status_code == 200
    asked = client.get("/deal/second-game").get_data(as_text=True)
    assert "Start this deal" in asked
    # It says which game is kept, as the home page's "Continue" does.
    which = (
        "Classic match (2 players) · to 51 · “<bdi>first-game</bdi>” · Medium · hand 1, 0–0 · "
        "play 2 of 48"
    )
    assert f"You have a game in progress ({which}). It is kept" in " ".join(asked.split())
    home = " ".join(client.get("/").get_data(as_text=True).split())
    assert f'Continue your game</a> <span class="small" id="current-game">{which}</span>' in home
    # (the security token carries a timestamp, so it may differ between two pages)
    first, second = (client.get("/game").get_data(as_text=True) for _ in range(2))
    assert without_tokens(first) == without_tokens(second)
    assert 'name="move" value="2"' in client.get("/game").get_data(as_text=True)
    start_deal(client, "/deal/second-game")
    page = client.get("/game").get_data(as_text=True)
    assert "Your other games in progress" in page and "Back to it" in page
    game = KEPT_GAME.search(page)
    response = client.post(
        "/resume", data={"csrf_token": token(client, "/game"), "game": game.group(1)}
    )
    assert response.status_code == 303
    page = client.get("/game").get_data(as_text=True)
    assert "Classic match" in page and 'name="move" value="2"' in page
    # The single deal is kept in its turn.
    assert "Single hand (2 players)" in page.split('class="kept"')[1].split("</section>")[0]


def test_up_to_five_unfinished_games_are_kept_most_recent_first(client):
    for number in range(7):
        start_deal(client, f"/deal/kept-{number}")
        home = client.get("/").get_data(as_text=True)
        assert ("a new game drops the oldest" in home) == (number >= 5), number
        # Three or more are folded, the New game form kept near the top.
        assert ('<details class="kept">' in home) == (number >= 3), number
    page = client.get("/").get_data(as_text=True)
    kept = re.findall(r"“<bdi>(kept-\d)</bdi>”", page)
    # The game in progress beside "Continue your game", then those kept.
    assert kept == ["kept-6", "kept-5", "kept-4", "kept-3", "kept-2", "kept-1"]
    assert "Continue your game" in page
    # The note is outside the folded list, and only while a game is in
    # progress (a new game puts it aside; a finished one is not kept).
    assert page.index('class="small kept-full"') > page.index("</details>")
    play_hand(client)
    assert "kept-full" not in client.get("/").get_data(as_text=True)
    # Each "Back to it" is described by its game (the buttons are alike).
    described = re.findall(r'<button[^>]*aria-describedby="kept-(\w+)"', page)
    assert len(set(described)) == 5
    assert all(f'<span class="kept-what" id="kept-{game}">' in page for game in described)


def store_clock(monkeypatch, now: float) -> SimpleNamespace:
    """Set the clock by which games are put aside and shown (``now``:
    seconds since the epoch; move it with ``clock.now``), and only that one:
    the session store's files keep the real clock, or its sweep of expired
    files would delete files being written (cachelib reads a file's expiry
    and then removes it by name)."""
    clock = SimpleNamespace(now=now)
    monkeypatch.setattr(store, "time", SimpleNamespace(time=lambda: clock.now))
    return clock


def test_games_kept_aside_say_when_they_were_put_aside(client, monkeypatch):
    """Games alike in rules, levels and progress (each one card in, no
    seed shown) are told apart by when they were put aside, in words."""
    clock = store_clock(monkeypatch, time.time())
    for _ in range(3):
        client.post("/new", data={"csrf_token": token(client, "/"), "rules": "cardems"})
        page = client.get("/game").get_data(as_text=True)
        fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        card = re.findall(r'name="card" value="([^"]+)"', page)[0]
        assert client.post("/play", data={**fields, "card": card}).status_code == 303
        clock.now += 2 * 3600
    said = re.findall(
        r'class="kept-what"[^>]*>(.*?)</span>', client.get("/").get_data(as_text=True), re.S
    )
    said = [" ".join(text.split()) for text in said]
    assert [text.split(" · ")[-1] for text in said] == [
        "put aside 2 hours ago",
        "put aside 4 hours ago",
    ], said
    turkish = client.get("/", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert "2 saat önce kenara alındı" in turkish


@pytest.mark.parametrize("shown", [0, -30], ids=["same-second", "clock-behind"])
def test_a_game_put_aside_this_second_was_put_aside_a_moment_ago(client, monkeypatch, shown):
    """A game put aside in the very second the page is shown (or by a
    server whose clock is ahead of the one showing the page: replicas)
    was put aside a minute ago at most; the page said "put aside in 0
    minutes" ("0 dakika sonra kenara alındı"), a time to come."""
    # A whole second: the put-aside time is kept in seconds.
    clock = store_clock(monkeypatch, float(int(time.time())))
    start_deal(client, "/deal/put-aside-now")
    start_deal(client, "/deal/the-newer-one")
    clock.now += shown
    page = " ".join(client.get("/").get_data(as_text=True).split())
    assert "put aside 1 minute ago" in page
    assert "put aside in" not in page
    turkish = " ".join(
        client.get("/", headers={"Accept-Language": "tr"}).get_data(as_text=True).split()
    )
    assert "1 dakika önce kenara alındı" in turkish


def test_a_finished_game_is_not_kept(client):
    start_deal(client, "/deal/finished-then-new")
    play_hand(client)
    start_deal(client, "/deal/after-finishing")
    assert "Back to it" not in client.get("/game").get_data(as_text=True)


def test_a_page_of_an_earlier_hand_cannot_play_in_this_one(client):
    start_deal(client, "/deal/stale-hand?rules=classic&target=101")
    old = client.get("/game").get_data(as_text=True)
    old_fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', old))
    old_card = re.findall(r'name="card" value="([^"]+)"', old)[0]
    play_hand(client)
    client.post("/next", data={"csrf_token": token(client, "/game"), "hand": "0"})
    before = client.get("/game").get_data(as_text=True)
    assert 'name="move" value="' in before
    fields = {**old_fields, "move": re.search(r'name="move" value="(\d+)"', before).group(1)}
    response = client.post("/play", data={**fields, "card": old_card})
    assert response.status_code in (400, 409)


def test_a_page_of_another_game_cannot_play_in_this_one(client):
    start_deal(client, "/deal/game-one")
    old = client.get("/game").get_data(as_text=True)
    fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', old))
    start_deal(client, "/deal/game-one")
    response = client.post(
        "/play", data={**fields, "card": re.findall(r'name="card" value="([^"]+)"', old)[0]}
    )
    assert response.status_code == 409
    assert "out of date" in response.get_data(as_text=True)


def test_kept_matches_say_how_far_their_hand_has_gone(client, player):
    # Two matches put aside at the same hand and score are told apart by
    # the play their hand is at.
    for plays in (1, 3):
        player.deal(f"kept-match-{plays}?rules=classic&level=easy")
        for _ in range(plays):
            player.play(player.hand[0])
    start_deal(client, "/deal/kept-newest")
    page = client.get("/").get_data(as_text=True)
    said = re.findall(r'class="kept-what"[^>]*>(.*?)</span>', page, re.S)
    ends = [
        re.search(
            r"hand 1, \d+–\d+ · play (\d+) of 48 · put aside 1 minute ago$", " ".join(text.split())
        )
        for text in said
    ]
    assert all(ends), said
    first, second = (int(end.group(1)) for end in ends)
    assert first > second > 0
