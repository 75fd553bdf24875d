"""A player's Mansion Evenings progress as plain data, and how two copies
of it are merged (an anonymous session's and a known player's, kept in the
database; a house choice, so that signing in keeps what was played before).

Progress is ``{"lesson": "done" | "skipped" | None, "lesson_step": int,
"beaten": [cast keys, in cast order]}``; :func:`clean` turns anything
(a damaged session, an old row) into that shape.
"""

from __future__ import annotations

from typing import Any

from .cast import CAST
from .lesson import STEPS

#: How far each lesson state is: a finished lesson beats a skipped one.
LESSON_ORDER: dict[str | None, int] = {None: 0, "skipped": 1, "done": 2}


def clean(value: object) -> dict[str, Any]:
    """Return ``value`` (any object) as progress: unknown lesson states
    become ``None``, a lesson step outside ``0..len(STEPS)`` becomes 0, and
    ``beaten`` keeps only cast keys, in cast order."""
    data = value if isinstance(value, dict) else {}
    lesson = data.get("lesson")
    step = data.get("lesson_step")
    beaten = data.get("beaten")
    beaten = beaten if isinstance(beaten, list) else []
    return {
        "lesson": lesson if lesson in LESSON_ORDER else None,
        "lesson_step": step if isinstance(step, int) and 0 <= step <= len(STEPS) else 0,
        "beaten": [member.key for member in CAST if member.key in beaten],
    }


def merge(first: object, second: object) -> dict[str, Any]:
    """Return the furthest of two progresses, nothing lost: the further
    lesson state, the later lesson step, and every opponent beaten in
    either (in cast order)."""
    one, two = clean(first), clean(second)
    beaten = set(one["beaten"]) | set(two["beaten"])
    return {
        "lesson": max(one["lesson"], two["lesson"], key=LESSON_ORDER.__getitem__),
        "lesson_step": max(one["lesson_step"], two["lesson_step"]),
        "beaten": [member.key for member in CAST if member.key in beaten],
    }


def is_empty(value: object) -> bool:
    """Whether ``value`` holds no progress at all (nothing to merge)."""
    return clean(value) == clean({})
