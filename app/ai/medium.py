"""Medium: takes what it can and saves its Jacks (seed 001, "Medium takes
what it can and saves its jacks, but does not count cards").

Its choices follow the strategy tips of seed 001: take a pişti whenever one
is on offer, capture with a same-rank card, spend a Jack only on a pile worth
it (or late in the hand, when the last capture takes the table), never lead a
scoring card or a Jack onto an empty table, and throw the least valuable card
otherwise. It is deterministic: ties go to the card earliest in the hand.
"""

from __future__ import annotations

import random

from app.engine import Observation, card_points

#: A Jack is spent on a pile of at least this many cards...
JACK_PILE_SIZE = 4
#: ...or on face-up cards worth at least this many points.
JACK_PILE_POINTS = 2


def _keep_value(card: str) -> int:
    """How much the bot wants to keep ``card`` in hand (higher = keep)."""
    return 10 * (card[0] == "J") + card_points(card)


class MediumBot:
    """Greedy capturer that saves Jacks for piles worth them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> str:
        """Return the card code to play from ``observation.hand``."""
        hand = observation.hand
        top = observation.pile_top
        if top is None:
            return self._lead(observation)
        matches = [card for card in hand if card[0] == top[0]]
        if matches:
            # A pişti (or a plain capture) with the same rank; with a lone Jack
            # on the table this is the Jack pişti.
            return max(matches, key=card_points)
        jacks = [card for card in hand if card[0] == "J"]
        if jacks and self._pile_worth_a_jack(observation):
            return jacks[0]
        return min(hand, key=_keep_value)

    @staticmethod
    def _pile_worth_a_jack(observation: Observation) -> bool:
        if observation.pile_size >= JACK_PILE_SIZE:
            return True
        if sum(card_points(card) for card in observation.pile_face_up) >= JACK_PILE_POINTS:
            return True
        # In the last round everyone's hand runs out: a Jack kept longer
        # may be too late, and the last capture takes the table.
        return observation.stock == 0 and len(observation.hand) <= 2

    @staticmethod
    def _lead(observation: Observation) -> str:
        """Lead onto an empty table: never a Jack or a scoring card if
        avoidable; prefer a rank the bot holds twice (fewer left for a pişti)."""
        hand = observation.hand
        held = {card[0]: sum(1 for other in hand if other[0] == card[0]) for card in hand}
        return min(hand, key=lambda card: (_keep_value(card), -held[card[0]]))
