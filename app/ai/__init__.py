"""Computer opponents.

Every bot has one method, ``choose(observation) -> card code``: it is given
only its seat's :class:`~app.engine.observation.Observation`, never the game
state, and returns a card from ``observation.hand``. Randomness comes from an
injected :class:`random.Random`, never the global one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Protocol

from app.engine import Observation

from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .medium import MediumBot
from .styles import STYLES, StyleBot


class Bot(Protocol):
    """A computer player: picks a card for the seat it observes."""

    def choose(self, observation: Observation) -> str:
        """Return a card code from ``observation.hand``."""


LEVELS: dict[str, Callable[..., Bot]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "expert": ExpertBot,
}
DEFAULT_LEVEL = "medium"

#: The story mode's opponents (``app/story/cast.py``), weakest first: four
#: styles of :mod:`.styles`, then the card counter (the Hard level's
#: reasoning) and Mürüvvet Hanım (the Expert).
OPPONENTS: dict[str, Callable[..., Bot]] = {
    **{key: partial(StyleBot, style=style) for key, style in STYLES.items()},
    "ferit": HardBot,
    "muruvvet": ExpertBot,
}
#: Every bot by name: the levels and the story opponents (the arena's choices).
BOTS: dict[str, Callable[..., Bot]] = {**LEVELS, **OPPONENTS}


def is_searching(level: str) -> bool:
    """Whether the bot called ``level`` (a key of :data:`BOTS`) searches
    within a thinking budget (the Expert, and Mürüvvet Hanım who is one)."""
    return bool(getattr(BOTS.get(level), "takes_budget", False))


class UnknownLevel(ValueError):
    """Raised by :func:`make_bot` for a name that is not in :data:`BOTS`."""


def make_bot(
    level: str, rng: random.Random, budget_ms: float | None = None, max_worlds: int | None = None
) -> Bot:
    """Return a bot of ``level`` (a key of :data:`BOTS`: a level or a story
    opponent) drawing from ``rng``.

    ``budget_ms`` is the thinking time per move, in milliseconds, of the
    levels that search (Expert); ``None`` keeps their default.
    ``max_worlds`` caps their search at that many sampled worlds (a budget
    that does not depend on the machine's load); ``None``: no cap.

    Raises:
        UnknownLevel: ``level`` is not a known level or opponent.
    """
    if level not in BOTS:
        raise UnknownLevel(f"unknown level {level!r}")
    bot_class = BOTS[level]
    if not is_searching(level):
        return bot_class(rng)
    options: dict[str, float | int] = {}
    if budget_ms is not None:
        options["budget_ms"] = budget_ms
    if max_worlds is not None:
        options["max_worlds"] = max_worlds
    return bot_class(rng, **options)
