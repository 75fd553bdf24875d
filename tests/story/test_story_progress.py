"""Progress as plain data: damaged data is cleaned, and merging two copies
keeps the furthest of each part."""

from __future__ import annotations

import pytest

from app.story.progress import clean, is_empty, merge

NOTHING = {"lesson": None, "lesson_step": 0, "beaten": []}


@pytest.mark.parametrize(
    "damaged",
    [None, "x", [], {"lesson": "maybe", "lesson_step": -1, "beaten": "hayriye"}, {"beaten": 5}],
)
def test_damaged_progress_is_no_progress(damaged):
    assert clean(damaged) == NOTHING and is_empty(damaged)


def test_beaten_keeps_cast_keys_in_cast_order():
    assert clean({"beaten": ["sevim", "nobody", "hayriye", 3]})["beaten"] == ["hayriye", "sevim"]


def test_merging_keeps_the_furthest_of_both():
    phone = {"lesson": "skipped", "lesson_step": 4, "beaten": ["hayriye", "sevim", "cevdet"]}
    laptop = {"lesson": "done", "lesson_step": 1, "beaten": ["hayriye"]}
    furthest = {"lesson": "done", "lesson_step": 4, "beaten": ["hayriye", "sevim", "cevdet"]}
    assert merge(phone, laptop) == merge(laptop, phone) == furthest
    assert merge(NOTHING, laptop) == clean(laptop)
    assert merge({"lesson": "skipped"}, {})["lesson"] == "skipped"
