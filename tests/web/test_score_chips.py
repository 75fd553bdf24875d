"""The table's score chips (``app/web/regions.py``): a count keeps its
number with its words, so a chip that wraps on a phone breaks between its
counts, never inside one."""

from __future__ import annotations

import re
from types import SimpleNamespace

from app.web.regions import PAUSE, scoreboard


def side(name: str, pisti: int, jack: int) -> dict:
    return {"name": name, "captured": 26, "pisti": pisti, "jack_pisti": jack, "total": 100}


def test_a_chips_numbers_stay_with_their_words(app):
    """ "2 piştis · 1 Jack pişti" wrapped at 390 px as "2 piştis · 1" over
    "Jack pişti" (in Turkish at 360 px "1 Vale" over "piştisi")."""
    view = {
        "match": SimpleNamespace(target=101),
        "running": [43, 12],
        "unseen_taken": [0, 0],
        "sides": [side("You", 2, 1), side("Computer", 1, 0)],
    }
    for language, words in (("en", "Jack pişti"), ("tr", "Vale piştisi")):
        with app.test_request_context(headers={"Accept-Language": language}):
            html = str(scoreboard(view))
        jack, rest = words.split(" ", 1)
        assert f'<span class="nowrap">1 {jack}</span> {rest}' in html, language
        pistis = "piştis" if language == "en" else "pişti"
        # The separator stays with the count before it.
        chip = f'<span class="chip">{PAUSE}<span class="nowrap">2 {pistis} ·</span> '
        assert chip in html, language
        # The words as they read: plain spaces, nothing between them.
        text = re.sub(r"<[^>]+>", "", html.replace(PAUSE, ""))
        assert f"2 {pistis} · 1 {words}" in text, language
        assert "\u00a0" not in html


def read_out(html: str) -> str:
    """What a screen reader reads of markup: its text without the parts
    hidden from it (``aria-hidden``), its spaces collapsed (and none kept
    before a comma, which a screen reader does not read)."""
    shown = re.sub(r'<span[^>]*aria-hidden="true">.*?</span>', "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", shown)).replace(" ,", ",").strip()


def test_a_sides_counts_are_read_apart(app):
    """A side's line is read with a pause between its counts ("You, 26
    cards, 2 piştis · 1 Jack pişti, 43 points, 100 of 101 points"), not as
    one run of figures ("You 26 cards 2 piştis 43 points 100 of 101
    points"), in both languages."""
    view = {
        "match": SimpleNamespace(target=101),
        "running": [43, 12],
        "unseen_taken": [3, 0],
        "sides": [side("You", 2, 1), side("Computer", 1, 0)],
    }
    with app.test_request_context(headers={"Accept-Language": "en"}):
        lines = re.findall(r"<li class=\"side.*?</li>", str(scoreboard(view)), re.S)
    assert [read_out(line) for line in lines] == [
        "You, 26 cards, 2 piştis · 1 Jack pişti, 43 points, 100 of 101 points, 3 of them face down",
        "Computer, 26 cards, 1 pişti, 12 points, 100 of 101 points",
    ]
    with app.test_request_context(headers={"Accept-Language": "tr"}):
        lines = re.findall(r"<li class=\"side.*?</li>", str(scoreboard(view)), re.S)
    assert read_out(lines[1]).startswith("Computer, 26 kart, 1 pişti, 12 puan, ")


def test_the_side_sure_of_the_most_cards_is_marked(player):
    """Seed 001: "Keep an eye on most cards". While a Classic hand is
    played, a side's cards chip says "+3" as soon as the side is sure of
    the most-cards points (27 of the 52 cards: the other side can no
    longer reach as many), and not before; a screen reader hears why."""
    player.deal("friday-night?rules=classic")
    marked = []
    while player.hand:
        lines = re.findall(r'<li class="side side-\d">.*?</li>', player.page, re.S)
        assert len(lines) == 2
        for index, line in enumerate(lines):
            cards = int(re.search(r"(\d+) cards?", read_out(line)).group(1))
            assert ("+3" in line) == (cards >= 27), (index, cards)
            if cards >= 27:
                assert "sure of the most cards: 3 points when the hand is scored" in read_out(line)
                marked.append(index)
        player.play(player.hand[0])
    assert marked, "no side reached 27 cards before the hand's end: choose another deal"
