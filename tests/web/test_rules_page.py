"""The rules of the game being played, from the table (``GET /game/rules``):
a player who forgets a rule mid-game reads this game's rules, house rules
included, and goes back to the same table."""

from __future__ import annotations

import re

import pytest

from tests.conftest import CSRF, form_fields, without_tokens

LINK = '<a class="rules-link" href="/game/rules">'
BACK = '<a class="button primary" href="/game">'


def text(page: str) -> str:
    """The words of ``page``'s main content, its tags taken out."""
    main = page[page.index("<main") : page.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)).replace(" .", ".")


@pytest.mark.parametrize(
    ("language", "link", "said"),
    [
        (
            "en",
            ">Every rule of this game</a>",
            [
                "The rules of this game",
                "a Jack on a lone Jack is a Jack pişti, also called a double pişti (10)",
                "a pişti 10 and a Jack pişti 10",
                "The side that takes the cards left on the table at the end of the hand gets 3 "
                "points more.",
                "a side that has then reached 101 wins",
                "if nobody captured, to the dealer's side",
                "Bonus for taking the last cards 3 points house rule",
                "Points for a Jack pişti 10 points house rule",
                "Points for a pişti 10 points Points for a Jack",
            ],
        ),
        (
            "tr",
            ">Bu oyunun bütün kuralları</a>",
            [
                "Bu oyunun kuralları",
                "aynı değerde bir kart ya da herhangi bir Vale (bacak) yerdeki bütün kartları alır",
                "tek Valenin üstüne Vale, Vale piştisidir, çift pişti de denir (10)",
                "bir pişti 10, bir Vale piştisi 10 puan eder",
                "Elin sonunda masada kalan kartları alan taraf 3 puan daha alır.",
                "o anda 101 puana ulaşmış taraf kazanır",
                "kimse almadıysa dağıtanın tarafına",
                "Son kartları alana ek puan 3 puan ev kuralı",
            ],
        ),
    ],
)
def test_the_table_links_to_the_rules_of_its_game_house_rules_included(
    player, language, link, said
):
    """The table had no way to the rules (the home page's rules in short
    said a Jack pişti is 20, whatever the game): its house rules line, in
    the bar, opens the list of its house rules, which leads to them. In
    Turkish the Jack, "Vale", is also given as many players call it,
    "bacak"."""
    player.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    player.deal("rules-1?rules=classic&target=101&jack_pisti=10&last_sweep_bonus=3")
    player.play(player.hand[0])
    table = player.page
    assert table.count(LINK) == 1 and link in table
    assert table.index(LINK) < table.index("</details>") < table.index("</header>")
    page = player.client.get("/game/rules")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    words = text(html)
    for sentence in said:
        assert sentence in words
    # The Jack's everyday Turkish name, once, where the Jack comes in.
    assert words.count("bacak") == (language == "tr")
    # Only the two rules this game changes are marked.
    assert html.count('class="house-mark"') == 2
    # The way back, at the top and at the foot; reading changed nothing.
    assert html.count(BACK) == 2
    assert without_tokens(player.get().get_data(as_text=True)) == without_tokens(table)


@pytest.mark.parametrize("page", ["table", "between", "final"])
def test_a_base_games_name_leads_to_its_rules(player, page):
    """In the bar of the table, the hand's score and the final score."""
    player.deal("rules-4?rules=classic" if page != "final" else "rules-4")
    while page != "table" and player.hand:
        player.play(player.hand[0])
    assert ("Hand 1 is over" in player.page) == (page == "between")
    assert ("Final score" in player.page) == (page == "final")
    name = "Classic match (2 players)" if page != "final" else "Single hand (2 players)"
    link = f'<a class="rules-link" href="/game/rules" aria-label="{name}: the rules">{name}</a>'
    header = player.page[: player.page.index("</header>")]
    assert header.count(link) == 1
    assert player.client.get("/game/rules").status_code == 200


def test_a_base_games_rules_are_its_own(player):
    """Partners: no pişti with the first or last card, the leftovers to
    the dealer's side, a match to 151; no house rule marked."""
    player.deal("rules-2?rules=partners")
    words = text(player.client.get("/game/rules").get_data(as_text=True))
    assert "You and North against East and West" in words
    assert "A pişti made with the hand's first card does not count." in words
    assert "A pişti made with the hand's last card does not count." in words
    assert "a Jack pişti, also called a double pişti (20)" in words and "reached 151 wins" in words
    assert "house rule" not in words and "left on the table at the end of the hand" not in words


def test_a_single_hands_rules_have_no_match(player):
    player.deal("rules-3")
    words = text(player.client.get("/game/rules").get_data(as_text=True))
    assert "One hand against the computer" in words
    assert "if nobody captured, to the first player" in words
    assert "27 or more of the 52 cards" in words
    assert "match total" not in words and "does not count" not in words


def test_the_rules_of_no_game(client):
    page = client.get("/game/rules")
    assert page.status_code == 404
    assert "There is no game in progress in this browser" in page.get_data(as_text=True)


def test_a_story_matchs_name_leads_to_its_rules(client):
    """Mansion Evenings plays a classic match to 51: its name in the bar
    leads to those rules, as a game's name does."""
    skip = client.get("/story").get_data(as_text=True)
    client.post("/story/lesson/skip", data={"csrf_token": CSRF.search(skip).group(1)})
    fields = form_fields(client.get("/story").get_data(as_text=True), "/story/play")
    assert client.post("/story/play", data={**fields, "opponent": "hayriye"}).status_code == 303
    bar = client.get("/game").get_data(as_text=True).split("</header>")[0]
    link = 'href="/game/rules" aria-label="Mansion Evenings: the rules">Mansion Evenings</a>'
    assert link in bar
    words = text(client.get("/game/rules").get_data(as_text=True))
    assert "a side that has then reached 51 wins" in words and "house rule" not in words


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            [
                "Fair deals",
                "the computer plays only from what its seat may see",
                "the app's documentation describes the shuffle",
                "“Checking a deal yourself” (docs/record-format.md)",
            ],
        ),
        (
            "tr",
            [
                "Adil dağıtım",
                "Bilgisayar da yalnızca kendi yerinden görülebilenlerle oynar",
                "uygulamanın belgeleri karıştırmayı anlatır",
                "“Checking a deal yourself” (docs/record-format.md; belge yalnızca İngilizce)",
            ],
        ),
    ],
)
def test_the_rules_say_how_a_doubting_player_checks_the_deal(player, language, said):
    """A player who thinks the computer gets the Jacks found nothing on the
    site saying how the cards are dealt, nor that a record lets them deal
    a game again themselves; the rules of the game now say both, and lead
    to the documentation's section (in English in both languages)."""
    player.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    player.deal("rules-fair?rules=classic")
    page = player.client.get("/game/rules").get_data(as_text=True)
    words = text(page)
    for sentence in said:
        assert sentence in words
    # The section is a link the site answers (the docs were not served, and
    # the page only named the file).
    link = re.search(r'<a href="([^"]+)">“Checking a deal yourself”', page)
    assert link is not None
    href = link.group(1)
    assert href == "/docs/record-format#checking-a-deal-yourself"
    document = player.client.get(href.split("#")[0])
    assert document.status_code == 200
    heading = '<h2 id="checking-a-deal-yourself">Checking a deal yourself</h2>'
    assert heading in document.get_data(as_text=True)
