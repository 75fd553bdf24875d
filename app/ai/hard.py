"""Hard: counts every card seen face up and works out the odds (seed 001,
"Hard counts the cards played and works out the odds").

For each card in hand it weighs what the play wins now against what it risks
handing the next seat, using :mod:`.counting`: the strategy tips of seeds 001
and 004 (lead a rank already seen onto an empty table, keep Jacks for big
piles or the last deal, keep scoring cards off the pile, mind the last card),
and throws a rank it holds twice, so that it may take the pile back.
Deterministic: ties go to the card earliest in the hand.
"""

from __future__ import annotations

import random

from app.engine import Observation, card_points

from .counting import Count, count_cards
from .facts import pisti_allowed

#: Worth of one captured card towards the most-cards bonus, in points.
CARD_WORTH = 0.12
#: Worth of keeping a Jack in hand, before the last deal.
JACK_KEEP = 1.5
#: Share of the pile's worth counted as ours when we throw a card whose
#: rank we hold again and the next seat cannot take the pile.
PAIR_BACK = 0.3


def pile_worth(observation: Observation, count: Count, extra: str | None = None) -> float:
    """Expected points of taking the pile (plus ``extra``, the card played):
    the face-up cards' points, the face-down cards' expected points, and the
    cards towards most cards."""
    cards = list(observation.pile_face_up)
    if extra:
        cards.append(extra)
    points = sum(card_points(card) for card in cards) + observation.face_down * count.mean_points
    return points + CARD_WORTH * (len(cards) + observation.face_down)


def jack_keep(observation: Observation) -> float:
    """What keeping a Jack is worth: less as the hand runs out."""
    if observation.stock == 0:
        return 0.5 if len(observation.hand) <= 2 else 1.5
    return JACK_KEEP


def evaluate(observation: Observation, count: Count, card: str) -> float:
    """Return the expected point swing of playing ``card`` (higher is
    better), in points: a capture's :func:`pile_worth` (and pişti), less
    :func:`jack_keep` for a Jack; a card left on the pile, minus the odds
    that the next seat takes it (its rank, or a Jack on a pile worth more
    than :data:`JACK_KEEP`) times what it would take, plus
    :data:`PAIR_BACK` of the pile when we hold the rank again and the next
    seat cannot take it, minus half the card's points."""
    top = observation.pile_top
    rank = card[0]
    is_jack = rank == "J"
    last_play = observation.plays_left == 1
    keep = jack_keep(observation) if is_jack else 0.0
    if top is not None and (rank == top[0] or is_jack):
        gain = pile_worth(observation, count, card)
        if observation.pile_size == 1 and rank == top[0] and pisti_allowed(observation):
            gain += (
                observation.rules.jack_pisti_points if is_jack else observation.rules.pisti_points
            )
        return gain - keep
    # The card stays on the pile.
    if last_play:
        # The table goes to the last capturer, with any last-sweep bonus.
        worth = pile_worth(observation, count, card) + observation.rules.last_sweep_bonus
        mine = observation.last_capturer == observation.team
        return (worth if mine else -worth) - keep
    worth = pile_worth(observation, count, card)
    by_rank = count.chance_next_holds(rank)
    jacks = count.chance_holds(count.unseen_by_rank.get("J", 0))
    if observation.pile_size == 0:
        # A lone card: a pişti for the next seat if it holds the rank.
        bonus = observation.rules.jack_pisti_points if is_jack else observation.rules.pisti_points
        risk = by_rank * (worth + bonus)
        if not is_jack:
            risk += (1 - by_rank) * jacks * max(0.0, worth - JACK_KEEP) * 0.5
    else:
        risk = by_rank * worth + (1 - by_rank) * jacks * max(0.0, worth - JACK_KEEP)
    # Holding another card of the rank: if the next seat does not take the
    # pile, we can (seed 004: "Count the cards of each rank").
    if sum(1 for other in observation.hand if other[0] == rank) > 1:
        risk -= PAIR_BACK * worth * (1 - by_rank) * (1 - jacks)
    # Cards left on the pile may come back to us: count half their worth.
    return -risk - keep - 0.5 * card_points(card)


def best_card(observation: Observation, count: Count | None = None) -> str:
    """Return the card code from ``observation.hand`` with the highest
    :func:`evaluate` (the first in hand on a tie): the Hard level's play.
    ``count`` is :func:`count_cards` of ``observation`` where the caller
    has it already."""
    count = count or count_cards(observation)
    return max(observation.hand, key=lambda card: evaluate(observation, count, card))


class HardBot:
    """Card-counting player that weighs gains against the odds."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> str:
        """Return the card code to play from ``observation.hand``
        (:func:`best_card`)."""
        return best_card(observation)
