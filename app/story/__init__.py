"""Mansion Evenings, the story mode (seed 001: "a story mode with opponents
who each have their own style, starting with Aunt Hayriye and leading to
Mürüvvet Hanım. Aunt Hayriye gives a short lesson before your first game").

``cast`` holds the opponents as data, ``lesson`` Aunt Hayriye's stacked
deal, ``progress`` a player's progress and how two copies merge. No Flask
routes here: those are in ``app/web/story.py``.
"""
