"""The table's score chips (``app/web/regions.py``): a count keeps its
number with its words, so a chip that wraps on a phone breaks between its
counts, never inside one."""

from __future__ import annotations

import re
from types import SimpleNamespace

from app.web.regions import scoreboard


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
        assert f'<span class="chip"><span class="nowrap">2 {pistis}</span> · ' in html, language
        # The words as they read: plain spaces, nothing between them.
        text = re.sub(r"<[^>]+>", "", html)
        assert f"2 {pistis} · 1 {words}" in text, language
        assert "\u00a0" not in html
