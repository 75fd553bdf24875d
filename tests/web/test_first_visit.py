"""A first visit to the home page (no game started yet): it points to
where the game is taught (Aunt Hayriye's lesson, the rules in short) and
its New game form offers the gentlest computer, Easy; once a game has been
started the form offers the level last played, and the pointer is gone."""

from __future__ import annotations

import re

import pytest

from tests.conftest import CSRF, start_deal

CHOSEN_LEVEL = re.compile(
    r'<select id="level" name="level">.*?<option value="(\w+)" selected>', re.S
)

SEED_LEVEL = re.compile(
    r'<select id="seed-level" name="level">.*?<option value="(\w+)" selected>', re.S
)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "New to Pişti? learn it in six moves with Aunt Hayriye, or read the rules"),
        ("tr", "Pişti'de yeni misiniz? Hayriye Teyze'yle altı hamlede öğrenin ya da kısaca"),
    ],
)
def test_a_first_visit_is_pointed_to_the_lesson_and_offered_easy(client, language, said):
    """A new player arriving from a friend's link saw nothing about how to
    learn the game before the New game form (the rules were at the page's
    foot, the lesson inside Mansion Evenings) and was offered Medium."""
    headers = {"Accept-Language": language}
    page = client.get("/", headers=headers).get_data(as_text=True)
    line = re.search(r'<p class="first-visit">(.*?)</p>', page, re.S)
    assert line, "no pointer for a first visit"
    assert '<a href="/story/lesson">' in line.group(1) and '<a href="#rules">' in line.group(1)
    assert said in re.sub(r"<[^>]+>", "", line.group(1))
    assert 'id="rules"' in page
    assert CHOSEN_LEVEL.search(page).group(1) == "easy"
    # The seed form keeps the usual level: friends who type the same seed
    # get the same computers.
    assert SEED_LEVEL.search(page).group(1) == "medium"
    # A game started (at Medium): no pointer, and Medium offered again.
    token = CSRF.search(page).group(1)
    client.post("/new", data={"csrf_token": token, "level": "medium"}, headers=headers)
    page = client.get("/", headers=headers).get_data(as_text=True)
    assert 'class="first-visit"' not in page
    assert CHOSEN_LEVEL.search(page).group(1) == "medium"


def test_a_player_who_took_a_friends_deal_is_no_longer_new(client):
    start_deal(client, "/deal/from-a-friend?level=hard")
    page = client.get("/").get_data(as_text=True)
    assert 'class="first-visit"' not in page
    # (Their form offers the usual default, as before.)
    assert CHOSEN_LEVEL.search(page).group(1) == "medium"


@pytest.mark.parametrize(
    ("language", "dealer", "stock", "most"),
    [
        (
            "en",
            "The dealer plays last.",
            "The rest of the deck is the stock",
            "more of the 52 cards",
        ),
        ("tr", "Dağıtan en son oynar.", "Kalan kartlar desteyi oluşturur", "52 kartın daha çoğunu"),
    ],
)
def test_the_rules_in_short_say_what_the_dealer_the_stock_and_most_cards_are(
    client, language, dealer, stock, most
):
    """The rules spoke of "the dealer's side" and Partners' "stock's bottom
    card" without saying what either is, and of "most cards 3" without
    saying most of what."""
    page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    rules = page[page.index('id="rules"') :]
    first = re.search(r"<li>(.*?)</li>", rules, re.S).group(1)
    assert dealer in first and stock in first
    assert most in rules
