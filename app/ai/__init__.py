"""Computer opponents.

Every bot has one method, ``choose(observation) -> card code``: it is given
only its seat's :class:`~app.engine.observation.Observation`, never the game
state, and returns a card from ``observation.hand``. Randomness comes from an
injected :class:`random.Random`, never the global one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from app.engine import Observation

from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .medium import MediumBot


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


class UnknownLevel(ValueError):
    """Raised by :func:`make_bot` for a level name that is not in :data:`LEVELS`."""


def make_bot(level: str, rng: random.Random, budget_ms: float | None = None) -> Bot:
    """Return a bot of ``level`` (a key of :data:`LEVELS`) drawing from ``rng``.

    ``budget_ms`` is the thinking time per move, in milliseconds, of the
    levels that search (Expert); ``None`` keeps their default.

    Raises:
        UnknownLevel: ``level`` is not a known level.
    """
    if level not in LEVELS:
        raise UnknownLevel(f"unknown level {level!r}")
    bot_class = LEVELS[level]
    if budget_ms is not None and getattr(bot_class, "takes_budget", False):
        return bot_class(rng, budget_ms=budget_ms)
    return bot_class(rng)
