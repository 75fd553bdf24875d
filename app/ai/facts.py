"""Facts of a position that its seat can see, told in words by both the
hints (:mod:`app.ai.hints`: why the card recommended) and the review
(:func:`app.ai.review.explain`: why the best card beats the one played);
the Hard level weighs a pişti by :func:`pisti_allowed` too.

Each reads an :class:`~app.engine.Observation` only, never the game state,
so a sentence built from them cannot give away a hidden card. Standard
library only, no Flask.
"""

from __future__ import annotations

from app.engine import Observation, RuleSet
from app.engine.cards import CARD_POINTS

#: The cards left on the table at the end (they go to the last capture)
#: are named as a reason only in the last this many rounds of the hand
#: (a round: one play of every seat); earlier, who takes the next piles
#: matters more than who takes the last.
LAST_ROUNDS = 2


def play_number(observation: Observation) -> int:
    """The number of the play about to be made in the hand, 1 to 48."""
    return len(observation.plays) + 1


def points_in_sight(observation: Observation) -> int:
    """The card points of the pile's face-up cards (its face-down cards'
    are not known to the seat)."""
    return sum(CARD_POINTS[card] for card in observation.pile_face_up)


def pisti_allowed(observation: Observation) -> bool:
    """Whether the play about to be made may count as a pişti (the rule
    set may rule out the hand's first and last plays, seeds 003/004)."""
    return observation.rules.pisti_counts(play_number(observation))


def pisti_offered(rules: RuleSet, card: str, number: int) -> int:
    """The points of a pişti made on ``card`` alone on the table by play
    ``number`` (1 to 48): a Jack pişti's for a Jack; 0 when that play's
    pişti does not count (seeds 003/004: none on the hand's last play)."""
    if not rules.pisti_counts(number):
        return 0
    return rules.jack_pisti_points if card[0] == "J" else rules.pisti_points


def makes_pisti(observation: Observation, card: str) -> bool:
    """Whether ``card`` played now takes a lone card of its rank and the
    rule set counts a pişti on this play (whatever its points)."""
    top = observation.pile_top
    return (
        observation.pile_size == 1
        and top is not None
        and card[0] == top[0]
        and pisti_allowed(observation)
    )


def held_elsewhere(observation: Observation) -> frozenset[str]:
    """The cards the seat has seen that another seat holds or will be dealt:
    the stock's known bottom cards (a bottom card shown to all, Jacks put
    under the stock), which go to the dealer, until they are played. The
    seat counts them as seen, yet another player may match with them."""
    played = set(observation.plays) | set(observation.hand)
    return frozenset(card for card in observation.stock_bottom if card not in played)


def near_the_end(observation: Observation) -> bool:
    """Whether the hand is in its last :data:`LAST_ROUNDS` rounds, where the
    cards left on the table at the end (they go to the last capture; seed
    000) are a reason of their own."""
    return (
        observation.stock == 0 and observation.plays_left <= LAST_ROUNDS * observation.rules.players
    )
