"""The table's score chips (``app/web/regions.py``): a count keeps its
number with its words, so a chip that wraps on a phone breaks between its
counts, never inside one."""

from __future__ import annotations

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
        assert f"1\u00a0{words}" in html, language
        assert "1 " + words.split()[0] not in html, language
        for count in ("26", "43", "2"):
            assert f">{count}\u00a0" in html, (language, count)
