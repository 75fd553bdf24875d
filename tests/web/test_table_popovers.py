"""What the table's dealer tag and points chip mean, for a phone: a title
(a tooltip) shows only under a mouse, so each is a button that shows its
meaning in a popover of the page (``app/web/regions.py`` ``keys``)."""

from __future__ import annotations

import re

import pytest

TAG = re.compile(r'<button type="button" class="tag dealer" popovertarget="key-dealer"[^>]*>')
CHIP = re.compile(r'<button type="button" class="chip points" popovertarget="key-points"[^>]*>')


def popover(page: str, name: str) -> str:
    """The text of the page's popover ``name``, its tags taken out."""
    found = re.search(rf'<div class="key" id="{name}" popover>(.*?)</div>', page, re.S)
    assert found, name
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()


@pytest.mark.parametrize(
    ("language", "dealer", "points", "most"),
    [
        (
            "en",
            "the last card of each deal is the dealer's",
            "its card points and its piştis",
            "3 points more go to the side that has taken more of the 52 cards (none on 26–26)",
        ),
        (
            "tr",
            "her dağıtımın son kartı dağıtanındır",
            "kart puanları ve piştileri",
            "52 kartın daha çoğunu almış tarafa 3 puan daha verilir (26–26'da kimseye yok)",
        ),
    ],
)
def test_the_dealer_tag_and_points_chip_say_what_they_mean_when_tapped(
    player, language, dealer, points, most
):
    """They were explained only in a hover title ("Dealer: plays the last
    card"), which a phone has no way to show."""
    player.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    player.deal("keys?rules=partners")
    page = player.page
    # Every seat's dealer tag and each side's points chip opens its popover.
    assert len(TAG.findall(page)) >= 1
    assert len(CHIP.findall(page)) == 2
    assert 'class="tag dealer" title=' not in page
    assert dealer in popover(page, "key-dealer")
    said = popover(page, "key-points")
    assert points in said and most in said
    # The game's own points (partners: most cards 3, none on 26–26), the
    # cards in words: a card's sign would look like a hidden card shown.
    worth = "a pişti 10 and a Jack pişti 20" if language == "en" else "bir Vale piştisi 20"
    assert worth in said and "♣" not in said and "♦" not in said
    # A match's total chip shows it too, and it says how the match is won.
    assert page.count('class="chip total" popovertarget="key-points"') == 2
    reached = "reached 151 wins" if language == "en" else "151 puana ulaşmış taraf kazanır"
    assert reached in said
    # Each closes with its own button too (a tap outside closes it as well).
    for name in ("key-dealer", "key-points"):
        assert f'popovertargetaction="hide" popovertarget="{name}"' in page


def test_a_single_hands_points_say_27_or_more(player):
    player.deal("keys")
    said = popover(player.page, "key-points")
    assert "3 points more go to the side that has taken 27 or more of the 52 cards" in said
    # No match: no total chip, no word of one.
    assert "chip total" not in player.page and "match total" not in said


@pytest.mark.parametrize(
    ("language", "bonus"),
    [
        ("en", "The side that takes the cards left on the table at the end of the hand gets 3"),
        ("tr", "Elin sonunda masada kalan kartları alan taraf 3 puan daha alır"),
    ],
)
def test_the_points_say_a_house_rules_last_cards_bonus(player, language, bonus):
    """The score table has a row for the bonus; the points popover said
    nothing of it."""
    player.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    player.deal("keys?rules=classic&last_sweep_bonus=3")
    assert bonus in popover(player.page, "key-points")
    # Without the house rule, no word of it.
    player.deal("keys?rules=classic")
    said = popover(player.page, "key-points")
    assert (
        bonus not in said
        and ("left on the table" if language == "en" else "masada kalan") not in said
    )


@pytest.mark.parametrize(
    ("language", "hand", "dealer", "points", "reached"),
    [
        (
            "en",
            "Hand total</button>",
            "the last card of each deal is the dealer's",
            "Each side's points in this hand: its card points, its piştis, and what was added",
            "reached 51 wins",
        ),
        (
            "tr",
            "El toplamı</button>",
            "her dağıtımın son kartı dağıtanındır",
            "Her tarafın bu eldeki puanları: kart puanları, piştileri ve el sayılırken eklenenler",
            "51 puana ulaşmış taraf kazanır",
        ),
    ],
)
def test_the_page_between_hands_says_what_its_totals_and_dealer_mean(
    player, language, hand, dealer, points, reached
):
    """Its hand total, match total and next dealer had no word of what
    they mean, as the table's chips and tag have."""
    player.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    player.deal("keys-between?rules=classic&last_sweep_bonus=3")
    while player.hand:
        player.play(player.hand[0])
    page = player.page
    assert 'class="between-page' in page
    assert f'<button type="button" class="chip points" popovertarget="key-points">{hand}' in page
    assert page.count('<button type="button" class="chip total" popovertarget="key-points">') == 1
    assert page.count('<button type="button" class="tag dealer" popovertarget="key-dealer"') == 1
    assert dealer in popover(page, "key-dealer")
    said = popover(page, "key-points")
    assert points in said and reached in said
    bonus = "3 points more." if language == "en" else "3 puan daha alır."
    assert bonus in said
    # The table's "so far" is not said of a hand that is over.
    assert ("so far" if language == "en" else "şimdiye kadarki") not in said


def test_a_single_hands_final_score_says_what_its_total_means(player):
    player.deal("keys-final")
    while player.hand:
        player.play(player.hand[0])
    page = player.page
    assert "Final score" in page
    assert '<button type="button" class="chip points" popovertarget="key-points">Hand total' in page
    said = popover(page, "key-points")
    assert "Each side's points in this hand" in said and "27 or more of the 52 cards" in said
    # No match: no total, no word of one.
    assert "chip total" not in page and "match total" not in said
