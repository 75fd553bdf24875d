"""Possible worlds behind an observation: the hidden cards dealt at random,
consistently with everything the seat has seen (determinization, as in
Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
2012). Built from the observation alone, so a searching bot that uses them
still never sees the real state.
"""

from __future__ import annotations

import random

from .cards import FULL_DECK
from .observation import Observation
from .state import GameState

STAND_IN = "?"


#: A possible world: a whole hand in progress, every card placed, which a
#: search may play out (a sampled world, never the real game).
World = GameState


def sample_world(observation: Observation, rng: random.Random) -> GameState:
    """Return a hand in progress that looks exactly like ``observation`` to
    its seat, with the unseen cards placed at random: the other seats'
    hands, the face-down centre cards and the stock (the bottom card stays
    where everyone knows it is). Captured cards are stand-ins; their points
    are already counted and cannot change.
    """
    rules = observation.rules
    players = len(observation.hand_sizes)
    known = observation.seen | set(observation.hand)
    unseen = [card for card in FULL_DECK if card not in known]
    rng.shuffle(unseen)
    bottom = observation.bottom_card
    dealer = players - 1
    # Face-down cards captured earlier were never shown: a random few of the
    # unseen cards are out of play already.
    in_play = (
        sum(observation.hand_sizes)
        - len(observation.hand)
        + observation.face_down
        + observation.stock
    )
    if bottom is not None and bottom not in observation.plays and bottom not in observation.hand:
        in_play -= 1
    del unseen[in_play:]
    hands: list[list[str]] = []
    for seat, size in enumerate(observation.hand_sizes):
        if seat == observation.seat:
            hands.append(list(observation.hand))
            continue
        hand = []
        if (
            bottom is not None
            and seat == dealer
            and observation.stock == 0
            and bottom not in observation.plays
            and bottom not in observation.hand
        ):
            hand.append(bottom)
        while len(hand) < size:
            hand.append(unseen.pop())
        hands.append(hand)
    face_down = [unseen.pop() for _ in range(observation.face_down)]
    stock = unseen
    if bottom is not None and observation.stock:
        stock.append(bottom)
    return GameState.from_position(
        rules,
        hands=hands,
        pile=face_down + list(observation.pile_face_up),
        face_down=observation.face_down,
        stock=stock,
        captured=[[STAND_IN] * count for count in observation.captured],
        pisti=list(observation.pisti),
        jack_pisti=list(observation.jack_pisti),
        plays=list(observation.plays),
        last_capturer=observation.last_capturer,
        bottom_card=bottom,
        face_up_at_start=tuple(observation.seen.difference(observation.plays, (bottom,))),
    )
