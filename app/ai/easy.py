"""Easy: plays a random card from its hand (seed 001, "Easy plays its cards
at random and is ideal for learning")."""

from __future__ import annotations

import random

from app.engine import Observation


class EasyBot:
    """Plays a uniformly random card of its hand."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> str:
        """Return a random card code from ``observation.hand``."""
        return self.rng.choice(observation.hand)
