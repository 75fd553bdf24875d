"""Mansion Evenings, the story mode (seed 001: "a story mode with opponents
who each have their own style, starting with Aunt Hayriye and leading to
Mürüvvet Hanım. Aunt Hayriye gives a short lesson before your first game").

``cast`` holds the opponents as data, ``lesson`` Aunt Hayriye's stacked
deal, ``remarks`` what an opponent says at the table. No Flask routes here:
those are in ``app/web/story.py``.
"""
