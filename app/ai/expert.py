"""Expert: searches within a time budget (default 150 ms a move).

Determinized Monte Carlo (Cowling, Powley and Whitehouse, 2012): it deals
the cards it cannot see at random, consistently with everything its seat has
seen (:func:`app.engine.worlds.sample_world`), tries each card of its hand in
that world and plays the hand out with a fast counting policy for every seat;
every card is tried in the same worlds, so their averages compare fairly. In
the last deal, when few plays are left, each world is solved exactly
(minimax with alpha-beta) instead of played out. It keeps sampling until the
budget is spent and plays the card with the best average point difference.
"""

from __future__ import annotations

import random
import time

from app.engine import FULL_DECK, Observation, card_points
from app.engine.scoring import team_points
from app.engine.worlds import sample_world

#: Default thinking time per move, in milliseconds.
BUDGET_MS = 150.0
#: Solve a world exactly when at most this many plays are left.
EXACT_PLAYS = 8
#: A Jack is spent in a playout on a pile of at least this many cards.
PLAYOUT_JACK_PILE = 3
RANKS = "A23456789TJQK"
#: How much a playout minds throwing a card away: Jacks most, then points.
_THROW_COST = {card: 2 * card_points(card) + (8 if card[0] == "J" else 0) for card in FULL_DECK}


def _playout(world) -> None:
    """Play the world to the end with a fast version of Medium's play plus
    card counting, for every seat: capture with a same rank, spend a Jack
    on a pile of 3 or more, else throw the card that is cheapest to lose
    and whose rank has been seen most (the safest lead)."""
    hands, pile, plays = world.hands, world.pile, world.plays
    players = len(hands)
    seen = dict.fromkeys(RANKS, 0)
    for card in plays:
        seen[card[0]] += 1
    for card in pile[world.face_down:]:
        seen[card[0]] += 1
    play_index = world.play_index
    while len(plays) < 48:
        hand = hands[len(plays) % players]
        choice = -1
        if pile:
            top = pile[-1][0]
            jack = -1
            for index, card in enumerate(hand):
                if card[0] == top:
                    choice = index
                    break
                if card[0] == "J":
                    jack = index
            if choice < 0 and jack >= 0 and len(pile) >= PLAYOUT_JACK_PILE:
                choice = jack
        if choice < 0:
            best = 99
            for index, card in enumerate(hand):
                key = _THROW_COST[card] - seen[card[0]]
                if key < best:
                    best, choice = key, index
        seen[hand[choice][0]] += 1
        play_index(choice)


def _solve(world, team: int, alpha: float, beta: float) -> float:
    """Exact value of a perfect-information world for ``team``: its points
    minus the other team's at the end, both sides playing their best."""
    if len(world.plays) == 48:
        points = team_points(world)
        return points[team] - points[1 - team]
    hand = world.hands[world.turn]
    maximizing = world.turn % 2 == team
    best = float("-inf") if maximizing else float("inf")
    tried = set()
    for index in range(len(hand)):
        card = hand[index]
        if card in tried:
            continue
        tried.add(card)
        child = world.copy()
        child.play_index(index)
        value = _solve(child, team, alpha, beta)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


class ExpertBot:
    """Searching player: determinized sampling, exact in the endgame.

    ``budget_ms`` is the thinking time per move in milliseconds; the search
    always looks at one world at least, so a tiny budget still plays.
    """

    takes_budget = True

    def __init__(self, rng: random.Random, budget_ms: float = BUDGET_MS) -> None:
        self.rng = rng
        self.budget_ms = budget_ms

    def choose(self, observation: Observation) -> str:
        """Return the card code to play from ``observation.hand``."""
        hand = list(dict.fromkeys(observation.hand))
        if len(hand) == 1:
            return hand[0]
        deadline = time.perf_counter() + self.budget_ms / 1000
        seat, team = observation.seat, observation.team
        exact = observation.stock == 0 and observation.plays_left <= EXACT_PLAYS
        totals = [0.0] * len(hand)
        while True:
            world = sample_world(observation, self.rng)
            for position, card in enumerate(hand):
                trial = world.copy()
                trial.play_index(trial.hands[seat].index(card))
                if exact:
                    totals[position] += _solve(trial, team, float("-inf"), float("inf"))
                else:
                    _playout(trial)
                    points = team_points(trial)
                    totals[position] += points[team] - points[1 - team]
            if time.perf_counter() >= deadline:
                break
        return hand[max(range(len(hand)), key=totals.__getitem__)]
