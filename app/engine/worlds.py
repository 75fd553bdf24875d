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
from .state import CENTRE, HAND_SIZE, GameState

STAND_IN = "?"


#: A possible world: a whole hand in progress, every card placed, which a
#: search may play out (a sampled world, never the real game).
World = GameState


def sample_world(observation: Observation, rng: random.Random) -> GameState:
    """Return a hand in progress that looks exactly like ``observation`` to
    its seat, with the unseen cards placed at random: the other seats'
    hands, the face-down centre cards and the stock. Cards everyone knows
    at the bottom of the stock (:attr:`Observation.stock_bottom`) stay
    there, or once dealt, in the hand they were dealt to. Captured cards are
    stand-ins; their points are already counted and cannot change. Any
    number of seats and teams.
    """
    rules = observation.rules
    hand_sizes = observation.hand_sizes
    players = len(hand_sizes)
    mine = set(observation.hand)
    unseen = [card for card in FULL_DECK if card not in observation.seen and card not in mine]
    rng.shuffle(unseen)
    tail = observation.stock_bottom
    # Known cards at the bottom of the stock: all still in the stock, or all
    # dealt in the last deal, each to the seat its place deals it to.
    dealt_known: dict[int, list[str]] = {}
    if observation.stock:
        pending = len(tail)
    else:
        played = set(observation.plays)
        for offset, card in enumerate(tail):
            if card in played or card in mine:
                continue
            place = len(FULL_DECK) - len(tail) + offset - CENTRE
            dealt_known.setdefault(place % (HAND_SIZE * players) // HAND_SIZE, []).append(card)
        pending = sum(len(cards) for cards in dealt_known.values())
    # Face-down cards captured by others were never shown: a random few of
    # the unseen cards are out of play already.
    in_play = (
        sum(hand_sizes) - len(observation.hand) + observation.face_down + observation.stock
    ) - pending
    del unseen[in_play:]
    hands: list[list[str]] = []
    for seat, size in enumerate(hand_sizes):
        if seat == observation.seat:
            hands.append(list(observation.hand))
            continue
        hand = dealt_known.get(seat, [])
        while len(hand) < size:
            hand.append(unseen.pop())
        hands.append(hand)
    face_down = [unseen.pop() for _ in range(observation.face_down)]
    stock = unseen
    if observation.stock:
        stock.extend(tail)
    shown = observation.seen.difference(observation.plays, tail, observation.seen_face_down)
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
        known_tail=tail,
        face_up_at_start=tuple(sorted(shown)),
        face_down_taker=observation.team if observation.seen_face_down else None,
        face_down_cards=observation.seen_face_down or None,
    )
